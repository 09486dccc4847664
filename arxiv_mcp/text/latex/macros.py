"""The paper's macros, recorded and expanded where the tokenizer reads them: one mechanism for every macro.

Paper source is untrusted data, so nothing is ever executed and expansion is bounded. The
tokenizer records each definition where it reads it (`Macros.define`, in TeX order, after the
definitions of the packages the e-print ships); one is usable when its body is short and safe.
In text the tokenizer meets a use and asks `Macros.in_text` for what it stands for, which it
reads as tokens in the use's place: a zero-argument text macro's body
(`\\newcommand{\\gorc}{S2ORC}`), or a template's (`\\newcommand{\\sig}[2][x]{\\sigma_{#1#2}}`,
`\\def\\reef#1{(\\ref{#1})}`, `\\NewDocumentCommand{\\q}{m}{...}`) with each use's arguments (a
braced group, else one letter, digit or control word, as TeX reads an undelimited argument; the
optional first one in brackets, else its default) in place of `#n`. In math, which the tokenizer
keeps as LaTeX, `Macros.in_math` rewrites the math's LaTeX before its rows, numbers and labels
are read: the templates first, then siunitx's quantities (which read their units by name, so
`\\SI{13}{\\TeV}` is read before `\\TeV` is expanded), then the text macros. A zero-argument
macro whose body uses a template (`\\newcommand{\\tq}{\\HepParticle{t}{}{}}`) is read as a
template, so its template is. Whether a use sits in math decides how `\\ensuremath` reads (`$X$`
in text, `X` in math).

The bounds: what a use expands to is read for macros again at most MAX_MACRO_DEPTH times (`\\bpr`
-> `\\PB` -> `B`, as unit and particle packages nest them), an argument is at most MAX_ARGUMENT
characters, and every character inserted counts against one per-paper budget
(MAX_MACRO_EXPANSION), so recursive or exploding definitions stop (their leftover uses are
dropped by the converter, as unknown commands are).
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass

from . import pace, tokens
from .conditionals import decide
from .definitions import ENVIRONMENT_DEFINERS, Definition, Written, alias, read_one
from .specs import JOURNAL_MACROS, PACKAGE_TEMPLATES, PARTICLE_MACROS, UNIT_MACROS
from .tokens import BEGIN, END, LBRACE, MAX_MACRO_DEPTH, RBRACE, Token
from .units import quantities_in_math

log = logging.getLogger(__name__)

MAX_MACRO_EXPANSION = 1_000_000  # characters of macro bodies inserted per paper, at most

# ---------------------------------------------------------------------------------------------
# Zero-argument text macros: short, safe bodies
# ---------------------------------------------------------------------------------------------

UNSAFE_BODY_RE = re.compile(
    r"\\(?:begin|end|[gex]?def|(?:re)?newcommand|providecommand|input(?![A-Za-z])|include(?![A-Za-z])|catcode|csname|let(?![A-Za-z]))"
    r"|(?<!\\)#"
)


@dataclass(frozen=True)
class Macro:
    """A usable zero-argument definition: LaTeX as text reads it (its \\ensuremath as `$X$`), and as math does."""

    text: str
    math: str
    cost: int


_ENSUREMATH_RE = re.compile(r"\\ensuremath(?![A-Za-z])\s*\{")


def replace_ensuremath(body: str, wrap: Callable[[str], str]) -> str:
    """Each `\\ensuremath{X}` becomes wrap(X) (`$X$` in text, `X` in math)."""
    out: list[str] = []
    pos = 0
    for m in _ENSUREMATH_RE.finditer(body):
        if m.start() < pos:
            continue
        end = tokens.group_end(body, m.end() - 1, len(body))
        if end < 0:
            break
        out.append(body[pos : m.start()])
        out.append(wrap(body[m.end() : end]))
        pos = end + 1
    out.append(body[pos:])
    return "".join(out)


def _balanced_tokens(toks: list[Token]) -> bool:
    depth = 0
    for kind, _ in toks:
        depth += (kind == LBRACE) - (kind == RBRACE)
        if depth < 0 or kind in (BEGIN, END):
            return False
    return depth == 0


_TRAILING_MATH_SPACE_RE = re.compile(r"(?:\\[,;:! ]|~|\s)+\Z")


def _inline_math(inner: str) -> str:
    """`\\ensuremath{T_c\\,}` in text: the trailing space that guards a following word becomes
    an \\xspace, so `\\Tc as` reads `$T_c$ as` and `\\Tc,` reads `$T_c$,`."""
    spacing = _TRAILING_MATH_SPACE_RE.search(inner)
    return f"${inner[: spacing.start()]}$\\xspace" if spacing else f"${inner}$"


_UNESCAPED_DOLLAR_RE = re.compile(r"(?<!\\)\$")

# atlasunit's `\ifb` is `\mbox{fb\(^{-1}\)}`: inside math, a box of text then math is that text
# upright followed by the math (`\text{fb}^{-1}`), as the PDF prints it; `\(`/`\)` are dollars.
_INLINE_PARENS_RE = re.compile(r"(?<!\\)\\[()]")
_BOXED_MATH_RE = re.compile(r"\\(?:mbox|hbox|text|textrm)[ \t]*\{([^{}$\\]*)\$([^$]*)\$[ \t]*\}")


# Kerning inside a unit (`Ge\\hspace{-.08em}V`) is typography, not text.
_KERNING_RE = re.compile(r"\\hspace\*?\s*\{\s*-?[\d.]*\s*[a-z]{2}\s*\}|\\kern\s*-?[\d.]+\s*[a-z]{2}[ \t]?")


@functools.lru_cache(maxsize=4096)  # a pure function of the body; every paper makes the stand-ins' again
def _make_macro(body: str) -> Macro | None:
    if UNSAFE_BODY_RE.search(body):
        return None
    text = _in_mode(body, False)
    if not _balanced_tokens(tokens.tokenize(text)):
        return None
    return Macro(text=text, math=_in_mode(body, True).removesuffix("\\xspace").rstrip(), cost=len(body) + 1)


_MATH_CONTROL_RE = re.compile(r"\\(?:([A-Za-z@]+)|.)", re.DOTALL)


# ---------------------------------------------------------------------------------------------
# Templates: macros with arguments
# ---------------------------------------------------------------------------------------------

MAX_ARGUMENT = 2_000

_PARAMETER_RE = re.compile(r"#([1-9])")
_BETWEEN_ARGUMENTS_RE = re.compile(r"[ \t]*(?:\n[ \t]*)?")


_CONTROL_NAME_RE = re.compile(r"\\([A-Za-z@]+)")


def _decidable(body: str) -> bool:
    """Whether its conditionals can be decided here, whatever its arguments (`\\ifx` cannot)."""
    decided = decide(_PARAMETER_RE.sub("0", body), False)
    return decided is not None and decided[1]


def _safe(body: str) -> bool:
    """Safe as a zero-argument body is, once its `#n` parameters are out (`##` is not one) and a
    float it sets whole is out (`\\newcommand{\\fig}[2]{\\begin{figure}...\\end{figure}}`:
    papers' own float macros)."""
    return "##" not in body and not UNSAFE_BODY_RE.search(_whole_floats_out(_PARAMETER_RE.sub("", body)))


_FLOAT_DELIMITER_RE = re.compile(r"\\(begin|end)[ \t]*\{((?:figure|table|center|minipage|tabular|subfigure)\*?)\}")


def _whole_floats_out(body: str) -> str:
    """`body` without its float delimiters when each one opened is closed, in order; else as is."""
    open_envs: list[str] = []
    for found in _FLOAT_DELIMITER_RE.finditer(body):
        if found.group(1) == "begin":
            open_envs.append(found.group(2))
        elif not open_envs or open_envs.pop() != found.group(2):
            return body
    return body if open_envs else _FLOAT_DELIMITER_RE.sub(" ", body)


def _safe_environment(definition: Definition) -> bool:
    """Safe as a template is, where its \\begin and \\end may open and close environments
    (`\\newenvironment{Thm}{\\begin{Italic}...}{\\end{Italic}}`)."""
    return all(
        "##" not in body and all(m.group().startswith(("\\begin", "\\end")) for m in UNSAFE_BODY_RE.finditer(body))
        for body in (_PARAMETER_RE.sub("", definition.body), definition.end)
    )


_ENVIRONMENT_DELIMITER_RE = re.compile(r"\\(begin|end)" + tokens.ENVIRONMENT_NAME)


_NEW = ("new", "provide", "New", "Provide")  # definers that do not replace an earlier definition
# `\DeclareRobustCommand\Njets{\@ifnextchar[{\@@Njets}{\@Njets}}`: LaTeX's idiom for an optional
# argument; its `[...]` branch is a \def with a delimited parameter, which no expansion here can
# take, so the macro reads as its plain branch (the use papers make of it most).
_OPTION_TEST_RE = re.compile(r"\s*\\@ifnextchar\s*\[\s*\{[^{}]*\}\s*\{\s*([^{}]*?)\s*\}\s*")


def _plain_branch(definition: Definition | None) -> Definition | None:
    plain = _OPTION_TEST_RE.fullmatch(definition.body) if definition is not None else None
    return Definition(definition.nargs, definition.default, plain.group(1)) if definition and plain else definition


class Macros:
    """The paper's macros and environments as defined so far: the packages' it ships first, then
    its own in the order the tokenizer reads them (`define`), so a definition takes effect where
    TeX reads it and a later \\renewcommand wins from there on. \\newcommand and \\providecommand
    do not replace an earlier definition; names in `protected` mean something to the converter
    and are never redefined; environments the walk knows (`known_environments`) are never the
    paper's own. Their uses are expanded under one per-paper budget: where the tokenizer reads a
    use in text (`in_text`), over the LaTeX of math (`in_math`), and where it reads a \\begin of
    one of the paper's environments (`environment`)."""

    def __init__(self, protected: frozenset[str], known_environments: frozenset[str]):
        self.protected = protected
        self.known_environments = known_environments
        self.defined: dict[str, Definition | None] = {}  # None: defined, but not usable here
        self.own: set[str] = set()  # what the paper's own files define
        self.written: list[Written] = []  # the paper's own definitions, in the order read
        self.shipped: list[Written] = []  # the shipped packages' definitions, in the order read
        self.aliases: dict[str, tuple[str, str]] = {}  # `\beq` -> ("begin", "equation")
        self.end_aliases: dict[str, list[str]] = {}  # "equation" -> ["\\eeq"]
        self.all_environments: dict[str, Definition | None] = {}
        self.environments: dict[str, Definition] = {}  # the paper's own, usable here
        self.templates: dict[str, Definition] = {}  # with arguments, or a known package's stand-in
        self.zero: dict[str, Definition] = {}  # without arguments, safe: a template's caller when it calls one
        self.macros: dict[str, Macro] = {}  # without arguments, usable as text and math
        self.callers: dict[str, Definition | None] = {}  # `template`'s answers since the last definition
        self.units: dict[str, str] = {}  # siunitx's \\DeclareSIUnit, by name
        self.budget = MAX_MACRO_EXPANSION
        self.warned = False
        for name in (*PACKAGE_TEMPLATES, *UNIT_MACROS, *PARTICLE_MACROS, *JOURNAL_MACROS):
            self.derive(name)

    def define(self, one: Written, own: bool = True) -> None:
        """Record `one`, read where it stands (`own`: in the paper's files, not a shipped package);
        siunitx's \\DeclareSIUnit names a unit, not a macro."""
        if one.definer == "DeclareSIUnit":
            self.units.update({one.name: one.definition.body} if one.definition else {})
            return
        self.callers.clear()
        (self.written if own else self.shipped).append(one)
        if own:
            self.own.add(one.name)
            kind_env = alias(one, self.protected)
            if kind_env is not None:
                self.aliases[one.name] = kind_env
                if kind_env[0] == "end":
                    self.end_aliases.setdefault(kind_env[1], []).append("\\" + one.name)
        if one.definer in ENVIRONMENT_DEFINERS:
            self.define_environment(one)
        elif one.definer == "let" and one.definition is not None and one.name not in self.protected:
            self.let(one.name, one.definition)
        elif one.name not in self.protected and not (one.definer.startswith(_NEW) and one.name in self.defined):
            self.defined[one.name] = _plain_branch(one.definition)
        self.derive(one.name)

    def let(self, name: str, target: Definition) -> None:
        """`\\let\\name\\target`: `name` means what `target` means now (a macro of the paper's, else
        the command it names); `\\let\\name\\relax` leaves it undefined, so \\newcommand defines it."""
        meaning = target.body[1:]
        if meaning == "relax":
            self.defined.pop(name, None)
        else:
            self.defined[name] = self.defined.get(meaning, target)

    def define_environment(self, one: Written) -> None:
        """\\newenvironment does not replace an earlier one, \\renewenvironment does."""
        if one.definer == "newenvironment" and one.name in self.all_environments:
            return
        self.all_environments[one.name] = one.definition
        definition = one.definition
        if definition is not None and one.name not in self.known_environments and _safe_environment(definition):
            self.environments[one.name] = definition
        else:
            self.environments.pop(one.name, None)

    def effective(self, name: str) -> Definition | None:
        """What `name` means: its definition; a journal class's internal the paper does not define
        prints as `specs.JOURNAL_MACROS` says; a unit or particle package not shipped, as its stand-in."""
        if name in JOURNAL_MACROS and name not in self.own:
            return Definition(0, None, JOURNAL_MACROS[name])
        found = self.defined.get(name)
        stand_in = UNIT_MACROS.get(name) or PARTICLE_MACROS.get(name)
        return Definition(0, None, stand_in) if found is None and stand_in is not None else found

    def derive(self, name: str) -> None:
        """The tables' entries for `name`, from what it means now. A known package's stand-in
        gives way only to the paper's own template whose conditionals can be decided (IEEEtran.cls
        defines \\IEEEauthorblockN in branches for its modes, the last one bare)."""
        for table in (self.templates, self.zero, self.macros):
            table.pop(name, None)
        found = self.effective(name)
        stand_in = PACKAGE_TEMPLATES.get(name)
        if stand_in is not None and not (
            found is not None and found.nargs and name in self.own and _safe(found.body) and _decidable(found.body)
        ):
            self.templates[name] = Definition(stand_in[0], None, stand_in[1])
        elif found is not None and found.nargs:
            if _safe(found.body):
                self.templates[name] = found
        elif found is not None:
            if _safe(found.body):
                self.zero[name] = found
            macro = _make_macro(found.body)
            if macro is not None:
                self.macros[name] = macro

    def template(self, name: str, depth: int = 0) -> Definition | None:
        """`name`'s template: one with arguments, or a macro without whose body calls one,
        MAX_MACRO_DEPTH callers deep (`\\newcommand{\\tq}{\\HepParticle{t}{}{}}`), so its template is."""
        found = self.templates.get(name)
        if found is not None or name not in self.zero or depth >= MAX_MACRO_DEPTH:
            return found
        if depth == 0 and name in self.callers:
            return self.callers[name]
        zero = self.zero[name]
        caller = zero if any(self.template(c, depth + 1) for c in _CONTROL_NAME_RE.findall(zero.body)) else None
        if depth == 0:
            self.callers[name] = caller
        return caller

    def defines(self, name: str) -> bool:
        return name in self.macros or self.template(name) is not None

    def own_environment(self, name: str) -> bool:
        return name in self.environments

    def read_package(self, text: str) -> None:
        """Record the definitions of the packages the e-print ships, in order: their text is not
        tokenized, so each definer is found by the tokenizer's regex and read as it reads one."""
        for k, definer in enumerate(tokens.DEFINER_RE.finditer(text)):
            pace.tick(k)
            self.define_at(text, definer.start(), own=False)

    def define_at(self, src: str, pos: int, own: bool = True) -> int:
        """Record the definition whose definer's backslash is at `pos`, if it is one (`own`: in
        the paper's files, not a shipped package); where it ends when it is usable here, else -1."""
        one, end = read_one(src, pos)
        if one is not None:
            self.define(one, own)
        return end

    def spend(self, cost: int) -> bool:
        """Charge `cost` characters inserted to the budget; False (and nothing charged) when
        it has not that many left."""
        if cost <= self.budget:
            self.budget -= cost
            return True
        if not self.warned:
            log.warning("more than %d characters of macro bodies; later uses stay unexpanded", MAX_MACRO_EXPANSION)
            self.warned = True
        return False

    def in_text(self, src: str, pos: int, name: str) -> tuple[str, int, int] | None:
        """The use of `name` in text whose arguments start at `pos`: the body with them in
        place, where the use ends and how many arguments it took; None when it is not a use
        or the budget is spent."""
        template = self.template(name)
        if template is not None:
            use = self.one(src, pos, template, False) if self.budget > 0 else None
            return (*use, template.nargs) if use is not None else None
        macro = self.macros[name]
        return (macro.text, pos, 0) if self.spend(macro.cost) else None

    def in_math(self, latex: str, depth: int) -> str:
        """Math's LaTeX with the uses in it expanded: the templates' (read `depth` deep already),
        then siunitx's quantities (whose units are read by name), then the text macros'."""
        if depth <= MAX_MACRO_DEPTH:
            latex = self.expand(latex, depth)
        latex = quantities_in_math(latex, self.units)
        return self.math_macros(latex, 0) if "\\" in latex else latex

    def math_macros(self, latex: str, depth: int) -> str:
        expanded = _MATH_CONTROL_RE.sub(lambda m: self.math_macro(m, latex, depth), latex)
        return flatten_upright(expanded) if expanded != latex else expanded

    def math_macro(self, m: re.Match[str], latex: str, depth: int) -> str:
        macro = self.macros.get(m.group(1) or "")
        if macro is None or not self.spend(macro.cost):
            return m.group()
        body = self.math_macros(macro.math, depth + 1) if depth < MAX_MACRO_DEPTH and "\\" in macro.math else macro.math
        glue = " " if m.start() > 0 and latex[m.start() - 1].isalpha() and body[:1].isalpha() else ""
        return glue + body

    def environment(self, src: str, pos: int, name: str) -> tuple[str, int, str] | None:
        """The paper's environment `name` whose \\begin's arguments start at `pos`: what its
        \\begin prints with them in place, where they end, and what its \\end prints; None when
        it is not a use or the budget is spent."""
        definition = self.environments[name]
        cost = len(definition.body) + len(definition.end) + 1
        use = self.use(src, pos, definition, False) if cost <= self.budget else None
        return (use[0], use[1], definition.end) if use is not None and self.spend(cost) else None

    def environment_ends(self, src: str) -> dict[int, tuple[int, int]]:
        """Where each \\begin of the paper's environments in `src` is closed: its \\begin's
        index -> where its \\end starts and ends, nested ones matched (an \\end that does not close
        the innermost open one is passed over); one pass with a stack."""
        ends: dict[int, tuple[int, int]] = {}
        stack: list[tuple[str, int]] = []
        for k, m in enumerate(_ENVIRONMENT_DELIMITER_RE.finditer(src) if self.environments else ()):
            pace.tick(k)
            if m.group(2) not in self.environments:
                continue
            if m.group(1) == "begin":
                stack.append((m.group(2), m.start()))
            elif stack and stack[-1][0] == m.group(2):
                ends[stack.pop()[1]] = (m.start(), m.end())
        return ends

    def one(self, src: str, pos: int, template: Definition, math: bool) -> tuple[str, int] | None:
        use = self.use(src, pos, template, math)
        if use is None:
            # a failed use may have scanned MAX_ARGUMENT characters for a closing brace without
            # consuming them: charged, so `\\x{` repeated cannot make the pass quadratic
            self.budget -= MAX_ARGUMENT if "{" in src[pos : pos + 40] else 1
            return None
        return use if self.spend(len(use[0]) + 1) else None

    def expand(self, src: str, depth: int) -> str:
        """Math's LaTeX with the uses in it expanded, their bodies again, MAX_MACRO_DEPTH deep: all
        of it is read as math (a box's `$x$` inside math is math again)."""
        out: list[str] = []
        pos = 0
        tail = ""  # the end of the output so far
        for m in _MATH_CONTROL_RE.finditer(src):
            if m.start() < pos or m.group(1) is None:
                continue
            template = self.template(m.group(1))
            if template is None:
                continue
            if self.budget <= 0:
                break
            use = self.one(src, m.end(), template, True)
            if use is None:
                continue
            body, end = use
            body = self.expand(body, depth + 1) if depth < MAX_MACRO_DEPTH and "\\" in body else body
            if depth == 0:
                body, end = _spaced(body, src, end, template.nargs)
            out.append(src[pos : m.start()])
            tail = (tail + out[-1])[-40:]
            out.append(_separated(tail, body, src[end : end + 1]))
            tail = (tail + out[-1])[-40:]
            pos = end
        out.append(src[pos:])
        return "".join(out)

    @staticmethod
    def use(src: str, pos: int, definition: Definition, math: bool) -> tuple[str, int] | None:
        """The body with this use's arguments in place, and where the use ends; None: not a use."""
        args: list[str] = []
        if definition.default is not None:
            start = tokens.match_end(_BETWEEN_ARGUMENTS_RE, src, pos)
            close = tokens.group_end(src, start, MAX_ARGUMENT, "[")
            if close < 0 and src.startswith("[", start):  # an optional argument left open
                return None
            args.append(src[start + 1 : close] if close > 0 else definition.default)
            pos = close + 1 if close > 0 else pos
        while len(args) < definition.nargs:
            argument = _argument(src, pos)
            if argument is None:
                return None
            text, pos = argument
            args.append(text)
        body = _PARAMETER_RE.sub(
            lambda p: args[int(p.group(1)) - 1] if int(p.group(1)) <= len(args) else "", definition.body
        )
        decided = decide(body, math)
        return (_in_mode(decided[0], math), pos) if decided and decided[1] else None


_ENDS_IN_WORD_RE = re.compile(r"(?<!\\)(?:\\\\)*\\[A-Za-z@]+\Z")


def _separated(before: str, body: str, after: str) -> str:
    """The body, never joined to a control word before or after it into a new name (`\\alpha` `b`
    is not `\\alphab`): the space put between is one the tokenizer drops after a control word."""
    if body[:1].isalpha() and _ENDS_IN_WORD_RE.search(before):
        body = " " + body
    if after.isalpha() and _ENDS_IN_WORD_RE.search(body):
        body += " "
    return body


_ONE_TOKEN_RE = re.compile(r"\\[A-Za-z@]+|[A-Za-z0-9]")


def _argument(src: str, pos: int) -> tuple[str, int] | None:
    """One undelimited argument at pos: a braced group's inside, or a single token."""
    start = tokens.match_end(_BETWEEN_ARGUMENTS_RE, src, pos)
    if src.startswith("{", start):
        close = tokens.group_end(src, start, MAX_ARGUMENT)
        return (src[start + 1 : close], close + 1) if close > 0 else None
    m = _ONE_TOKEN_RE.match(src, start)
    return (m.group(), m.end()) if m else None


def _spaced(body: str, src: str, end: int, nargs: int) -> tuple[str, int]:
    """A fully expanded use: TeX drops the spaces after a control word, \\xspace puts one back."""
    if tokens.XSPACE_RE.search(body):
        return tokens.XSPACE_RE.sub("", body), end
    return body, tokens.match_end(tokens.AFTER_WORD_RE, src, end) if not nargs else end


_EMPTY_SCRIPT_RE = re.compile(r"[_^]\{\s*\}")  # `\\HepParticle{t}{}{}`: no sub- or superscript


_MATH_BOX_RE = re.compile(r"\\(?:mbox|hbox|text)[ \t]*\{[ \t]*\$([^$]*)\$[ \t]*\}")


def _in_mode(body: str, math: bool) -> str:
    """What a macro's body (its arguments in place) reads as in text or in math: its kerning
    dropped, its \\ensuremath `$X$` in text (`_inline_math`) and `X` in math, where a box holding
    only math (`\\mbox{$|x\\rangle$}`) is that math, a box of text then math is the text upright
    followed by the math, and every dollar is gone (`\\mbox{GeV/$c$}` inside math: its math is math)."""
    body = _EMPTY_SCRIPT_RE.sub("", _KERNING_RE.sub("", tokens.XSPACE_RE.sub(r"\\xspace", body)))
    if not math:
        return replace_ensuremath(body, _inline_math)
    body = _MATH_BOX_RE.sub(r"\1", _INLINE_PARENS_RE.sub("$", replace_ensuremath(body, lambda inner: inner)))
    return " ".join(_UNESCAPED_DOLLAR_RE.sub("", _BOXED_MATH_RE.sub(r"\\text{\1}\2", body)).split())


_NESTED_UPRIGHT_RE = re.compile(r"\\(text|mathrm|textrm)\s*\{([^{}]*)\\(?:text|mathrm|textrm)\s*\{([^{}]*)\}([^{}]*)\}")


def flatten_upright(latex: str) -> str:
    """Upright text nested in upright text (a unit macro inside another: `\\text{T\\text{eV}}`)
    is one run of it (`\\text{TeV}`), as printed."""
    for _ in range(tokens.MAX_MACRO_DEPTH):
        flat = _NESTED_UPRIGHT_RE.sub(r"\\\1{\2\3\4}", latex)
        if flat == latex:
            return flat
        latex = flat
    return latex
