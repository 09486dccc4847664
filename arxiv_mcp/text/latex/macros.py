"""User macros: the definitions a paper makes, collected from its source and spliced into its tokens.

Paper source is untrusted data, so nothing is ever executed and expansion is bounded: a short
zero-argument text macro (`\\newcommand{\\gorc}{S2ORC}`) has its body spliced in, as tokens in
text and as LaTeX inside math; a spliced body is scanned again at most MAX_MACRO_DEPTH times
(`\\bpr` -> `\\PB` -> `B`, as unit and particle packages nest them), so a recursive definition
stops there, and the total inserted per paper is capped (MAX_MACRO_EXPANSION). Definitions
with arguments are collected here too and expanded in the source by `templates`, under the
same depth and budget.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass

from . import pace, tokens
from .source import RESERVED_NAMES
from .specs import (
    ALGORITHM_WORDS,
    CHAPTER_LEVELS,
    FONT_SWITCHES,
    HEADING_LEVELS,
    PAR_COMMANDS,
    SKIP_SPECS,
)
from .tokens import BEGIN, CMD, DMATH, END, LBRACE, LBRACKET, MATH, RAW, RBRACE, TEXT, Token, match_end, tokenize

log = logging.getLogger(__name__)

# ---------------------------------------------------------------------------------------------
# User text macros: one level, zero arguments, short bodies
# ---------------------------------------------------------------------------------------------

MAX_MACRO_BODY = 200

_SPACES_RE = re.compile(r"\s*")
UNSAFE_BODY_RE = re.compile(
    r"\\(?:begin|end|[gex]?def|(?:re)?newcommand|providecommand|input(?![A-Za-z])|include(?![A-Za-z])|catcode|csname|let(?![A-Za-z]))"
    r"|(?<!\\)#"
)


@dataclass(frozen=True)
class Macro:
    """A usable definition: tokens for text mode, LaTeX for math."""

    text: tuple[Token, ...]
    math: str
    xspace: bool
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


_XSPACE_RE = re.compile(r"\\Xspace(?![A-Za-z])")  # heppennames' spelling of \xspace


@functools.lru_cache(maxsize=4096)  # a pure function of the body; every paper makes the stand-ins' again
def _make_macro(body: str) -> Macro | None:
    if UNSAFE_BODY_RE.search(body):
        return None
    body = _KERNING_RE.sub("", _XSPACE_RE.sub(r"\\xspace", body))
    text = tokenize(replace_ensuremath(body, _inline_math), {})
    if not _balanced_tokens(text):
        return None
    xspace = bool(text) and text[-1] == (CMD, "xspace")
    math = _BOXED_MATH_RE.sub(
        r"\\text{\1}\2", _INLINE_PARENS_RE.sub("$", replace_ensuremath(body, lambda inner: inner))
    )
    math = " ".join((math[: -len("\\xspace")] if xspace and math.endswith("\\xspace") else math).split())
    return Macro(
        text=tuple(text[:-1] if xspace else text),
        math=_UNESCAPED_DOLLAR_RE.sub("", math),  # \\mbox{GeV/$c$} inside math: its math is math
        xspace=xspace,
        cost=len(body) + 1,
    )


@dataclass(frozen=True)
class Definition:
    """One definition as written: how many arguments, the first one's default if it is optional."""

    nargs: int
    default: str | None
    body: str


_DEFINITION_RE = re.compile(
    r"\\(newcommand|renewcommand|providecommand|DeclareRobustCommand|(?:New|Renew|Provide|Declare)DocumentCommand"
    r"|def|gdef)(?![A-Za-z@])\*?[ \t]*"
    r"(?:\{[ \t]*\\([A-Za-z@]+)[ \t]*\}|\\([A-Za-z@]+)(?![A-Za-z@]))"
)


def defined_names(source: str) -> frozenset[str]:
    """The names `source` defines (\\def, \\newcommand, ...), whatever their definitions."""
    return frozenset(m.group(2) or m.group(3) for m in _DEFINITION_RE.finditer(source))


def definitions(source: str, protected: frozenset[str]) -> dict[str, Definition | None]:
    """Every macro definition by name, as the last valid one has it (None: unusable).

    \\newcommand and \\providecommand do not replace an earlier definition; \\renewcommand and
    \\def do. A \\def with delimited parameters, or a body too long, makes the name unusable.
    Names in `protected` mean something to the converter, so their redefinitions are never collected.
    """
    found: dict[str, Definition | None] = {}
    for m in _DEFINITION_RE.finditer(source):
        kind, name = m.group(1), m.group(2) or m.group(3)
        if name in protected or (kind.startswith(("new", "provide", "New", "Provide")) and name in found):
            continue
        if kind.endswith("DocumentCommand"):
            nargs, default, start = _document_parameters(source, m.end())
        elif kind.endswith("command") or kind == "DeclareRobustCommand":
            nargs, default, start = _command_parameters(source, m.end())
        else:
            nargs, default, start = _def_parameters(source, m.end())
        end = tokens.group_end(source, start, MAX_MACRO_BODY) if source.startswith("{", start) else -1
        found[name] = Definition(nargs, default, source[start + 1 : end]) if end > 0 and nargs >= 0 else None
    for name, definition in found.items():
        if definition is not None and (plain := _plain_branch(definition.body, found)) is not None:
            found[name] = Definition(definition.nargs, definition.default, plain)
    return found


# `\DeclareRobustCommand\Njets{\@ifnextchar[{\@@Njets}{\@Njets}}`: LaTeX's idiom for an optional
# argument; its `[...]` branch is a \def with a delimited parameter, which no expansion here can
# take, so the macro reads as its plain branch (the use papers make of it most), inlined when that
# is one macro without arguments, so its \xspace puts back the space the name ate.
_OPTION_TEST_RE = re.compile(r"\s*\\@ifnextchar\s*\[\s*\{[^{}]*\}\s*\{\s*([^{}]*?)\s*\}\s*")
_CONTROL_WORD_RE = re.compile(r"\\([A-Za-z@]+)")


def _plain_branch(body: str, found: dict[str, Definition | None]) -> str | None:
    m = _OPTION_TEST_RE.fullmatch(body)
    if m is None:
        return None
    word = _CONTROL_WORD_RE.fullmatch(m.group(1))
    inner = found.get(word.group(1)) if word else None
    return inner.body if inner is not None and not inner.nargs else m.group(1)


_ARGUMENT_COUNT_RE = re.compile(r"\s*\[\s*([0-9])\s*\]\s*")


def _command_parameters(source: str, pos: int) -> tuple[int, str | None, int]:
    """`[2][default]` after a \\newcommand's name: (arguments, default or None, where the body starts)."""
    m = _ARGUMENT_COUNT_RE.match(source, pos)
    if not m:
        return 0, None, match_end(_SPACES_RE, source, pos)
    nargs, pos = int(m.group(1)), m.end()
    default = None
    if nargs and source.startswith("[", pos):
        close = bracket_end(source, pos, MAX_MACRO_BODY)
        if close < 0:
            return -1, None, pos
        default, pos = source[pos + 1 : close], close + 1
    return nargs, default, match_end(_SPACES_RE, source, pos)


_XPARSE_SPEC_RE = re.compile(r"\s*(?:O\s*\{([^{}]*)\})?((?:\s*m)*)\s*")


def _document_parameters(source: str, pos: int) -> tuple[int, str | None, int]:
    """An xparse argument spec (`{O{default} m m}`): mandatory arguments, the first one optional
    with a default; any other kind (starred, delimited, optional without default) does not work here."""
    pos = match_end(_SPACES_RE, source, pos)
    close = tokens.group_end(source, pos, MAX_MACRO_BODY) if source.startswith("{", pos) else -1
    spec = _XPARSE_SPEC_RE.fullmatch(source, pos + 1, close) if close > 0 else None
    if spec is None:
        return -1, None, pos
    nargs = spec.group(2).count("m") + (spec.group(1) is not None)
    return nargs, spec.group(1), match_end(_SPACES_RE, source, close + 1)


_DEF_PARAMETERS_RE = re.compile(r"((?:[ \t]*#[1-9])+)[ \t]*")


def _def_parameters(source: str, pos: int) -> tuple[int, str | None, int]:
    """`#1#2` after a \\def's name: plain parameters count; delimited ones (`#1.`) do not work here."""
    m = _DEF_PARAMETERS_RE.match(source, pos)
    params = "".join(m.group(1).split()) if m else ""
    if params != "".join(f"#{k}" for k in range(1, len(params) // 2 + 1)):
        return -1, None, pos
    return len(params) // 2, None, match_end(_SPACES_RE, source, m.end() if m else pos)


def bracket_end(text: str, open_at: int, limit: int) -> int:
    """Index of the `]` closing the `[` at open_at, outside braces, or -1 past `limit` chars."""
    depth = 0
    for k in range(open_at + 1, min(len(text), open_at + limit + 2)):
        c = text[k]
        depth += (c == "{") - (c == "}")
        if c == "]" and depth == 0 and text[k - 1] != "\\":
            return k
    return -1


def text_macros(found: dict[str, Definition | None]) -> dict[str, Macro]:
    """Zero-argument macros with a short, safe body, by name, as the last valid definition has them."""
    return {
        name: macro
        for name, d in found.items()
        if d is not None and d.nargs == 0 and (macro := _make_macro(d.body)) is not None
    }


# ---------------------------------------------------------------------------------------------
# User text macros: splicing the collected definitions into the tokens
# ---------------------------------------------------------------------------------------------

MAX_MACRO_EXPANSION = 1_000_000  # characters of macro bodies inserted per paper, at most
MAX_MACRO_DEPTH = 3  # a spliced body is scanned for macros again at most this many times

_DEFINERS = {
    "def",
    "gdef",
    "edef",
    "xdef",
    "let",
    "newcommand",
    "newcommand*",
    "renewcommand",
    "renewcommand*",
    "providecommand",
    "providecommand*",
    "DeclareRobustCommand",
}
_XSPACE_EXCEPTIONS = set(",.'/?;:!~-)\u2013\u2014\u201d")
# Names the tokenizer or the walk's own tables give a meaning of their own: a redefinition is not
# applied (`handlers.PROTECTED` adds the names with a handler).
PROTECTED_MACROS = frozenset(
    RESERVED_NAMES
    | set(SKIP_SPECS)
    | PAR_COMMANDS
    | set(ALGORITHM_WORDS)
    | set(HEADING_LEVELS)
    | set(CHAPTER_LEVELS)
    | FONT_SWITCHES
    # read by the tokenizer, or spelled out by the converter as symbols
    | {"url", "path", "verb", "AND", "And", "newblock", "ensuremath", "xspace"}
)


_MATH_CONTROL_RE = re.compile(r"\\(?:([A-Za-z]+)|.)", re.DOTALL)


class Expansion:
    """Splices macro bodies into a token list, once each; the bodies themselves are never scanned."""

    def __init__(self, macros: dict[str, Macro]):
        self.macros = macros
        self.budget = MAX_MACRO_EXPANSION
        self.warned = False

    def affordable(self, cost: int) -> bool:
        if cost <= self.budget:
            return True
        if not self.warned:
            log.warning("more than %d characters of macro bodies; later uses stay unexpanded", MAX_MACRO_EXPANSION)
            self.warned = True
        return False

    def tokens(self, toks: list[Token] | tuple[Token, ...], depth: int = 0) -> list[Token]:
        """The tokens with the macros spliced in: linear in the tokens plus the bodies inserted,
        which MAX_MACRO_EXPANSION bounds per paper."""
        if not self.macros:
            return list(toks)
        out: list[Token] = []
        for k, (kind, value) in enumerate(toks):
            pace.tick(k)
            macro = self.macros.get(value) if kind == CMD else None
            if macro is not None and self.affordable(macro.cost) and not _being_defined(toks, k):
                self.budget -= macro.cost
                body = self.tokens(macro.text, depth + 1) if depth < MAX_MACRO_DEPTH else list(macro.text)
                self.splice(out, macro, body, toks[k + 1] if k + 1 < len(toks) else None)
            elif (kind == MATH or kind == DMATH) and "\\" in value:
                out.append((kind, self.math_tokens(value, depth)))
            else:
                out.append((kind, value))
        return out

    def math_tokens(self, latex: str, depth: int) -> str:
        expanded = _MATH_CONTROL_RE.sub(lambda m: self.in_math(m, latex, depth), latex)
        return flatten_upright(expanded) if expanded != latex else expanded

    @staticmethod
    def splice(out: list[Token], macro: Macro, body: list[Token], following: Token | None) -> None:
        """The body's tokens; math never touches other math (`$a$$b$` would read as `$$`)."""
        if body and body[0][0] == MATH and out and out[-1][0] == MATH:
            out.append((TEXT, " "))
        out.extend(body)
        ends_in_math = bool(body) and body[-1][0] == MATH
        math_follows = following is not None and following[0] == MATH
        if (macro.xspace and _xspace_adds_space(following)) or (ends_in_math and math_follows):
            out.append((TEXT, " "))

    def in_math(self, m: re.Match[str], latex: str, depth: int) -> str:
        macro = self.macros.get(m.group(1) or "")
        if macro is None or not self.affordable(macro.cost):
            return m.group()
        self.budget -= macro.cost
        body = self.math_tokens(macro.math, depth + 1) if depth < MAX_MACRO_DEPTH and "\\" in macro.math else macro.math
        glue = " " if m.start() > 0 and latex[m.start() - 1].isalpha() and body[:1].isalpha() else ""
        return glue + body


_NESTED_UPRIGHT_RE = re.compile(r"\\(text|mathrm|textrm)\s*\{([^{}]*)\\(?:text|mathrm|textrm)\s*\{([^{}]*)\}([^{}]*)\}")


def flatten_upright(latex: str) -> str:
    """Upright text nested in upright text (a unit macro inside another: `\\text{T\\text{eV}}`)
    is one run of it (`\\text{TeV}`), as printed."""
    for _ in range(MAX_MACRO_DEPTH):
        flat = _NESTED_UPRIGHT_RE.sub(r"\\\1{\2\3\4}", latex)
        if flat == latex:
            return flat
        latex = flat
    return latex


def _being_defined(toks: list[Token] | tuple[Token, ...], k: int) -> bool:
    """The macro name right after \\def, \\newcommand{ ... or \\let is its definition, not a use."""
    j = k - 1
    while j >= 0 and toks[j][0] == TEXT and not toks[j][1].strip() and k - j < 4:
        j -= 1
    if j >= 0 and toks[j][0] == LBRACE:
        j -= 1
    if j >= 0 and toks[j][0] == CMD and toks[j][1] in _DEFINERS:
        return True
    return (CMD, "let") in toks[max(0, k - 4) : k]


def _xspace_adds_space(following: Token | None) -> bool:
    """\\xspace: a space unless punctuation, a brace, a space or a footnote follows."""
    if following is None:
        return False
    kind, value = following
    if kind == TEXT:
        return bool(value) and not value[0].isspace() and value[0] not in _XSPACE_EXCEPTIONS
    if kind == CMD:
        return value not in ("footnote", "footnotemark", "xspace")
    return kind in (MATH, RAW, LBRACKET)
