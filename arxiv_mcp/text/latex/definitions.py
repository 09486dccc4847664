"""What the paper defines, read once each: its macros where the tokenizer reads them, and the
theorem-like environments the walk reads (`sections.cmd_new_theorem`).

A definition (`\\newcommand`, `\\def`, xparse's, `\\DeclareMathOperator`, `\\newenvironment`, ...)
is read by `read_one` where the tokenizer meets it (or, in the packages an e-print ships, whose
text is not tokenized, where `macros.Macros.read_package` finds it) and recorded in TeX order
by `macros.Macros`, which decides what each name means; the views of the recorded list are the
environment aliases (`alias`: `\\beq`), the float names captions print and the DOI prefix.
The walk reads each `\\newtheorem` where it stands, the paper's macros already expanded in its
tokens (`\\newtheorem{thm}{\\thmname}` gives the name the macro prints), as data (`TheoremKind`:
its printed label, the counter it steps, shared or its own, and the unit it is numbered within),
to number the blocks and for a later model of theorem blocks to build on.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from . import tokens
from .tokens import match_end

# The common names a class or a package the e-print does not ship defines, each printing its
# name capitalized (numbered, but `proof`)
_BUILTIN_THEOREMS = (
    *("theorem", "lemma", "proposition", "corollary", "definition", "remark", "example", "proof"),
    *("conjecture", "claim", "assumption", "observation", "fact", "problem", "exercise", "hypothesis"),
)
THEOREM_NAME_RE = re.compile(r"[A-Za-z]+\*?")
_OPENS_RE = re.compile(r"\s*\\begin\s*\{([A-Za-z]+\*?)\}")


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


def builtin_theorems() -> dict[str, TheoremKind]:
    """The theorem kinds a paper has before its own \\newtheorem (`sections.cmd_new_theorem`)."""
    return {name: TheoremKind(name.capitalize(), "" if name == "proof" else name) for name in _BUILTIN_THEOREMS}


def wrappers(environments: Mapping[str, Definition | None]) -> dict[str, str]:
    """`\\newenvironment{theorem}{\\begin{THEOREM} ...}{\\end{THEOREM}}`: the environment each of
    the paper's own opens first, by name; where that is a theorem kind, the name is that kind
    (its label, counter and numbering), not the built-in one of the same name (`engine.Walk.begin`)."""
    opened = {name: _OPENS_RE.match(definition.body) for name, definition in environments.items() if definition}
    return {
        name: m.group(1) for name, m in opened.items() if m and m.group(1) != name and THEOREM_NAME_RE.fullmatch(name)
    }


# ---------------------------------------------------------------------------------------------
# The macros the source defines, read where they stand
# ---------------------------------------------------------------------------------------------

MAX_MACRO_BODY = 200
_SPACES_RE = re.compile(r"\s*")


@dataclass(frozen=True)
class Definition:
    """One definition as written: how many arguments, the first one's default if it is optional;
    an environment's (`\\newenvironment`) `body` is what its \\begin prints and `end` its \\end's."""

    nargs: int
    default: str | None
    body: str
    end: str = ""


_DEFINITION_RE = re.compile(
    r"\\(newcommand|renewcommand|providecommand|DeclareRobustCommand|(?:New|Renew|Provide|Declare)DocumentCommand"
    r"|DeclareMathOperator|def|gdef|newenvironment|renewenvironment|DeclareSIUnit)(?![A-Za-z@])(\*?)[ \t]*"
    r"(\[[^\]\n]{0,100}\][ \t]*)?"  # siunitx's options
    r"(?:\{[ \t]*\\([A-Za-z@]+)[ \t]*\}|\\([A-Za-z@]+)(?![A-Za-z@])|\{[ \t]*([A-Za-z@]+\*?)[ \t]*\})"
)
ENVIRONMENT_DEFINERS = ("newenvironment", "renewenvironment")


@dataclass(frozen=True)
class Written:
    """One definition as the source writes it: the definer (`newcommand`, `def`, ...), the name,
    and what it defines (None: not usable here: delimited parameters, a body too long)."""

    definer: str
    name: str
    definition: Definition | None


_LET_RE = re.compile(r"\\let[ \t]*\\([A-Za-z@]+)[ \t]*=?[ \t]*\\([A-Za-z@]+)(?![A-Za-z@])")


def read_one(source: str, pos: int) -> tuple[Written | None, int]:
    """The definition whose definer's backslash is at `pos` (None when it is not one), and where
    it ends when it is usable here (else -1). `\\let\\a\\b` is written as a body naming `b`:
    `macros.Macros` gives `a` what `b` means where it is read."""
    m = _DEFINITION_RE.match(source, pos)
    if m is None:
        let = _LET_RE.match(source, pos)
        if let is None:
            return None, -1
        return Written("let", let.group(1), Definition(0, None, "\\" + let.group(2))), let.end()
    definer, name = m.group(1), m.group(4) or m.group(5) or m.group(6)
    if (definer in ENVIRONMENT_DEFINERS) != (m.group(6) is not None):  # `\newcommand{x}`: not one
        return None, -1
    if m.group(3) and definer != "DeclareSIUnit":
        return None, -1
    if definer.endswith("DocumentCommand"):
        nargs, default, start = _document_parameters(source, m.end())
    elif definer.endswith(("command", "environment")) or definer == "DeclareRobustCommand":
        nargs, default, start = _command_parameters(source, m.end())
    else:
        nargs, default, start = _def_parameters(source, m.end())
    end = tokens.group_end(source, start, MAX_MACRO_BODY) if nargs >= 0 else -1
    body, closing = source[start + 1 : end], ""
    if definer in ENVIRONMENT_DEFINERS and end > 0:  # an environment: what its \begin prints, then its \end
        start = match_end(_SPACES_RE, source, end + 1)
        end = tokens.group_end(source, start, MAX_MACRO_BODY)
        closing = source[start + 1 : end]
    if definer == "DeclareMathOperator":  # amsmath's operator is its name set upright, as LaTeX can read it
        body = f"\\operatorname{m.group(2)}{{{body}}}"
    usable = end > 0 and nargs >= 0
    definition = Definition(nargs, default, body, closing) if usable else None
    return Written(definer, name, definition), end + 1 if usable else -1


_ALIAS_BODY_RE = re.compile(r"[ \t]*\\(begin|end)[ \t]*\{([A-Za-z]+\*?)\}[ \t]*")


def alias(one: Written, protected: frozenset[str]) -> tuple[str, str] | None:
    """("begin" or "end", env) when `one` defines a name as exactly `\\begin{env}` or `\\end{env}`,
    unless the converter gives the name a meaning of its own (`protected`)."""
    body = one.definition.body if one.definition is not None and not one.definition.nargs else ""
    found = _ALIAS_BODY_RE.fullmatch(body) if one.definer in _ALIAS_DEFINERS else None
    if found and one.name.isalpha() and one.name not in protected:
        return found.group(1), found.group(2)
    return None


_ALIAS_DEFINERS = ("newcommand", "renewcommand", "providecommand", "def", "gdef")  # float names: not \\gdef
_FLOAT_NAME_RE = re.compile(r"[^{}\\\n]{1,20}")


def defined_float_names(found: list[Written]) -> Iterator[tuple[str, str]]:
    """(float, the name its captions print) of each \\figurename or \\tablename defined, in order."""
    for one in found:
        float_name = one.name[: -len("name")].capitalize() if one.name in ("figurename", "tablename") else ""
        body = one.definition.body if one.definition is not None else ""
        if float_name and one.definer in _ALIAS_DEFINERS[:-1] and _FLOAT_NAME_RE.fullmatch(body):
            yield float_name, " ".join(body.split())


_DOI_RESOLVER_RE = re.compile(r"https?://(?:dx\.)?doi\.org/")


def doi_prefix(found: list[Written]) -> str:
    """What \\doi{X} prints before X: the resolver URL when the paper's style defines \\doi with
    one (splncs04, llncs: `https://doi.org/X`), else `doi:`."""
    for one in found:
        resolver = _DOI_RESOLVER_RE.search(one.definition.body) if one.name == "doi" and one.definition else None
        if resolver:
            return resolver.group()
    return "doi:"


_ARGUMENT_COUNT_RE = re.compile(r"\s*\[\s*([0-9])\s*\]\s*")


def _command_parameters(source: str, pos: int) -> tuple[int, str | None, int]:
    """`[2][default]` after a \\newcommand's name: (arguments, default or None, where the body starts)."""
    m = _ARGUMENT_COUNT_RE.match(source, pos)
    if not m:
        return 0, None, match_end(_SPACES_RE, source, pos)
    nargs, pos = int(m.group(1)), m.end()
    default = None
    if nargs and source.startswith("[", pos):
        close = tokens.group_end(source, pos, MAX_MACRO_BODY, "[")
        if close < 0:
            return -1, None, pos
        default, pos = source[pos + 1 : close], close + 1
    return nargs, default, match_end(_SPACES_RE, source, pos)


_XPARSE_SPEC_RE = re.compile(r"\s*(?:O\s*\{([^{}]*)\})?((?:\s*m)*)\s*")


def _document_parameters(source: str, pos: int) -> tuple[int, str | None, int]:
    """An xparse argument spec (`{O{default} m m}`): mandatory arguments, the first one optional
    with a default; any other kind (starred, delimited, optional without default) does not work here."""
    pos = match_end(_SPACES_RE, source, pos)
    close = tokens.group_end(source, pos, MAX_MACRO_BODY)
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
