"""What the paper defines for the walk, read from its tokens: theorem-like environments,
counters numbered within a unit, etoolbox's toggles.

One pass over the tokens the converter walks anyway (the preamble's, then the body's), so the
paper's own macros are already expanded in them (`\\newtheorem{thm}{\\thmname}` gives the name
the macro prints). Each `\\newtheorem` is kept as data (`TheoremKind`: its printed label, the
counter it steps, shared or its own, and the unit it is numbered within), for the walk to
number the blocks and for a later model of theorem blocks to build on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import pace
from .tokens import BEGIN, CMD, LBRACE, LBRACKET, RBRACE, RBRACKET, TEXT, Token

# The common names a class or a package the e-print does not ship defines (numbered, but `proof`)
_BUILTIN_THEOREMS = {
    "theorem": "Theorem",
    "lemma": "Lemma",
    "proposition": "Proposition",
    "corollary": "Corollary",
    "definition": "Definition",
    "remark": "Remark",
    "example": "Example",
    "proof": "Proof",
    "conjecture": "Conjecture",
    "claim": "Claim",
    "assumption": "Assumption",
    "observation": "Observation",
    "fact": "Fact",
    "problem": "Problem",
    "exercise": "Exercise",
    "hypothesis": "Hypothesis",
}
_NAME_RE = re.compile(r"[A-Za-z]+\*?")
_COUNTER_RE = re.compile(r"[A-Za-z]{1,40}")
_LABEL_RE = re.compile(r"[^\\{}$\n]{1,60}")
_NUMBERED = ("figure", "table", "equation")
_UNITS = ("chapter", "section", "subsection")
_MAX_ARGUMENT_TOKENS = 8  # a definition's name or label is a few words; longer is something else


@dataclass(frozen=True)
class TheoremKind:
    """What a theorem-like environment prints: `Label 2.1.` from `counter`, numbered within the
    current `within` unit (a section, a chapter) when given; an unnumbered one prints `Label.`"""

    label: str
    counter: str = ""
    within: str = ""

    @property
    def numbered(self) -> bool:
        return bool(self.counter)


@dataclass
class Definitions:
    theorems: dict[str, TheoremKind] = field(
        default_factory=lambda: {
            name: TheoremKind(label, "" if name == "proof" else name) for name, label in _BUILTIN_THEOREMS.items()
        }
    )
    toggles: dict[str, bool] = field(default_factory=dict)  # as the source last sets them
    # counters numbered within a unit: by \renewcommand{\theX}, overridden by \numberwithin,
    # then taken back by \counterwithout (book classes number within chapters by default:
    # `numbering.Numbers`' own rule)
    the_counter: dict[str, str] = field(default_factory=dict)
    numbered_within: dict[str, str] = field(default_factory=dict)
    without: set[str] = field(default_factory=set)

    @property
    def within(self) -> dict[str, str]:
        """The counters the preamble numbers within a unit, as printed (`2.3`), by counter."""
        return {**self.the_counter, **self.numbered_within, **dict.fromkeys(self.without, "")}

    def read(self, toks: list[Token], *, preamble: bool) -> Definitions:
        """Collect the definitions of `toks`: toggles and theorems anywhere, counters in the
        preamble. Linear in the tokens: each is looked at once, and an argument is read over a
        bounded number of them."""
        for k, (kind, value) in enumerate(toks):
            pace.tick(k)
            if kind != CMD:
                continue
            if preamble:
                self._preamble_definition(toks, k, value)
            elif value in ("newtheorem", "newtheorem*"):  # LaTeX takes one in the body too
                self._theorem(toks, k + 1, value.endswith("*"))
            if value in ("newenvironment", "renewenvironment"):
                self._theorem_wrapper(toks, k + 1)
            if value in ("toggletrue", "togglefalse", "booltrue", "boolfalse"):
                name = _arguments(toks, k + 1, "m")
                if name and name[0] and not any(c.isspace() for c in name[0]):
                    self.toggles[name[0]] = value.endswith("true")
            elif value in ("settoggle", "setbool"):
                found = _arguments(toks, k + 1, "mm")
                if found and found[0] and not any(c.isspace() for c in found[0]) and found[1] in ("true", "false"):
                    self.toggles[found[0]] = found[1] == "true"
        return self

    def _preamble_definition(self, toks: list[Token], k: int, value: str) -> None:
        if value in ("newtheorem", "newtheorem*"):
            self._theorem(toks, k + 1, value.endswith("*"))
        elif value in ("numberwithin", "counterwithin"):
            found = _arguments(toks, _after_star(toks, k + 1), "Omm")  # \numberwithin{equation}{section}
            if found and found[1] in _NUMBERED and found[2] in _UNITS:
                self.numbered_within[found[1]] = found[2]
        elif value == "counterwithout":
            counter = _arguments(toks, _after_star(toks, k + 1), "m")
            if counter and counter[0] in _NUMBERED:
                self.without.add(counter[0])
        elif value in ("renewcommand", "renewcommand*"):
            self._the_counter(toks, k + 1)

    def _theorem(self, toks: list[Token], k: int, star: bool) -> None:
        """\\newtheorem{name}[shares the counter of]{Label}[numbered within], \\newtheorem*{name}{Label}."""
        found = _arguments(toks, k, "mOmO")
        if found is None:
            return
        name, shared, label = found[0] or "", found[1], " ".join((found[2] or "").split())
        if not _NAME_RE.fullmatch(name) or not _LABEL_RE.fullmatch(label):
            return
        if shared is not None and not _COUNTER_RE.fullmatch(shared):
            return
        within = found[3] if found[3] and _COUNTER_RE.fullmatch(found[3]) else ""
        if star:
            self.theorems[name] = TheoremKind(label)
        elif shared and shared in self.theorems:
            self.theorems[name] = TheoremKind(label, self.theorems[shared].counter, self.theorems[shared].within)
        else:
            self.theorems[name] = TheoremKind(label, name, within)

    def _theorem_wrapper(self, toks: list[Token], k: int) -> None:
        """`\\newenvironment{theorem}{\\begin{THEOREM} ...}{\\end{THEOREM}}`: a paper's own name
        for a theorem kind it defined is that kind (its label, counter and numbering), not the
        built-in one of the same name."""
        found = _arguments(toks, k, "m")
        if not found or not found[0] or not _NAME_RE.fullmatch(found[0]):
            return
        k = _skip_space(toks, _after_group(toks, _skip_space(toks, k)))
        while k < len(toks) and toks[k][0] == LBRACKET:  # [arguments][default]
            k = _skip_space(toks, _after(toks, k, RBRACKET))
        if k + 1 < len(toks) and toks[k][0] == LBRACE:
            first = _skip_space(toks, k + 1)
            kind, inner = toks[first] if first < len(toks) else ("", "")
            if kind == BEGIN and inner in self.theorems and inner != found[0]:
                self.theorems[found[0]] = self.theorems[inner]

    def _the_counter(self, toks: list[Token], k: int) -> None:
        """`\\renewcommand{\\thefigure}{\\thesection.\\arabic{figure}}`: figures numbered within
        sections, as \\numberwithin says (the reset is the paper's own)."""
        k = _skip_space(toks, k)
        braced = k < len(toks) and toks[k][0] == LBRACE
        k = _skip_space(toks, k + 1) if braced else k
        if k >= len(toks) or toks[k][0] != CMD or toks[k][1][3:] not in _NUMBERED or not toks[k][1].startswith("the"):
            return
        counter = toks[k][1][3:]
        k = _skip_space(toks, k + 1)
        if braced:
            if k >= len(toks) or toks[k][0] != RBRACE:
                return
            k = _skip_space(toks, k + 1)
        body = [(kind, value.strip()) for kind, value in toks[k : k + 13] if kind != TEXT or value.strip()]
        for unit in _UNITS:
            printed = [(LBRACE, ""), (CMD, "the" + unit), (TEXT, "."), (CMD, "arabic"), (LBRACE, ""), (TEXT, counter)]
            if body[:8] == [*printed, (RBRACE, ""), (RBRACE, "")]:
                self.the_counter[counter] = unit


def _after_star(toks: list[Token], k: int) -> int:
    """Past the `*` of a starred command the tokenizer left as text (`\\counterwithin*`)."""
    return k + 1 if k < len(toks) and toks[k] == (TEXT, "*") else k


def _skip_space(toks: list[Token], k: int) -> int:
    while k < len(toks) and toks[k][0] == TEXT and not toks[k][1].strip():
        k += 1
    return k


def _after_group(toks: list[Token], k: int) -> int:
    """The index after the `{...}` group opening at `k` (bounded like an argument)."""
    return _after(toks, k, RBRACE)


def _after(toks: list[Token], k: int, closing: str) -> int:
    end = k + 1
    while end < len(toks) and end - k <= _MAX_ARGUMENT_TOKENS and toks[end][0] != closing:
        end += 1
    return end + 1


def _arguments(toks: list[Token], k: int, spec: str) -> list[str | None] | None:
    """The plain-text arguments at `k` by `spec` (`m` a `{...}`, `O` an optional `[...]`, None
    when absent), each of text tokens only, stripped; None when a mandatory one is missing or
    holds anything but text."""
    out: list[str | None] = []
    for code in spec:
        k = _skip_space(toks, k)
        opening, closing = (LBRACE, RBRACE) if code == "m" else (LBRACKET, RBRACKET)
        if k >= len(toks) or toks[k][0] != opening:
            if code == "m":
                return None
            out.append(None)
            continue
        end = k + 1
        while end < len(toks) and end - k <= _MAX_ARGUMENT_TOKENS and toks[end][0] == TEXT:
            end += 1
        if end >= len(toks) or toks[end][0] != closing:
            return None
        out.append("".join(value for _, value in toks[k + 1 : end]).strip())
        k = end + 1
    return out
