"""User text macros: the paper's zero-argument definitions (`definitions.written`) spliced into its tokens.

Paper source is untrusted data, so nothing is ever executed and expansion is bounded: a short
zero-argument text macro (`\\newcommand{\\gorc}{S2ORC}`) has its body spliced in, as tokens in
text and as LaTeX inside math; a spliced body is scanned again at most MAX_MACRO_DEPTH times
(`\\bpr` -> `\\PB` -> `B`, as unit and particle packages nest them), so a recursive definition
stops there, and the total inserted per paper is capped (MAX_MACRO_EXPANSION). Definitions
with arguments are expanded as the tokenizer reads them (`templates`), under the same depth and
budget.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass

from . import pace, tokens
from .definitions import RESERVED_NAMES, Definition
from .specs import (
    ALGORITHM_WORDS,
    CHAPTER_LEVELS,
    FONT_SWITCHES,
    HEADING_LEVELS,
    PAR_COMMANDS,
    SKIP_SPECS,
)
from .tokens import BEGIN, CMD, DMATH, END, LBRACE, LBRACKET, MATH, RAW, RBRACE, TEXT, Token

log = logging.getLogger(__name__)

# ---------------------------------------------------------------------------------------------
# User text macros: one level, zero arguments, short bodies
# ---------------------------------------------------------------------------------------------

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
    text = tokens.tokenize(replace_ensuremath(body, _inline_math), {})
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
            if macro is not None and self.affordable(macro.cost) and not tokens.being_defined(toks, k):
                self.budget -= macro.cost
                body = self.tokens(macro.text, depth + 1) if depth < tokens.MAX_MACRO_DEPTH else list(macro.text)
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
        body = (
            self.math_tokens(macro.math, depth + 1)
            if depth < tokens.MAX_MACRO_DEPTH and "\\" in macro.math
            else macro.math
        )
        glue = " " if m.start() > 0 and latex[m.start() - 1].isalpha() and body[:1].isalpha() else ""
        return glue + body


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
