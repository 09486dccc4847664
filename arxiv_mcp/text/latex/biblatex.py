"""biblatex's .bbl (`\\entry ... \\endentry`, written by biber) as a `thebibliography` LaTeX text.

A biblatex .bbl holds data, not typeset text: `\\name{author}` lists of family/given parts,
`\\field{title}{...}`, `\\verb{doi} ... \\endverb`. Rewriting it as `\\bibitem` entries lets the
converter read it like any other bibliography (accents, braces, labels) and print one line per
entry: authors, title, journal, volume, pages, year, DOI, arXiv id. Regex scans are bounded per
entry, so a huge or hostile .bbl stays linear.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from . import pace
from .numbering import STYLES
from .tokens import group_end

MAX_FIELD = 4000  # characters of one field value considered

_ENTRY_RE = re.compile(r"\\entry\{([^{}\n]{1,300})\}\{([A-Za-z]{1,40})\}")
_ENDENTRY = "\\endentry"
# an entry's data, each kind read in one scan: `\\field{title}{...}`, `\\name{author}{2}{hash}{...}`
# (its people), `\\list{publisher}{1}{...}` (its items)
_DATA_RE = re.compile(
    r"\\(?:field\{([A-Za-z]{1,40})\}|name\{([A-Za-z]{1,40})\}\{\d{1,5}\}\{[^{}]{0,300}\}|list\{([A-Za-z]{1,40})\}\{\d{1,5}\})\{"
)
_PART_RE = re.compile(r"\b(family|giveni|given|prefix|suffix)=\{")
_VERB_RE = re.compile(r"\\verb\{([A-Za-z]{1,40})\}\s*\\verb[ \t]*([^\n]{0,2000}?)\s*\\endverb")


def is_biblatex(bbl: str) -> bool:
    return "\\entry{" in bbl and "\\endentry" in bbl


def _group(text: str, open_at: int) -> tuple[str, int]:
    """The text of the `{...}` group opening at `open_at` and the index after it."""
    end = group_end(text, open_at, MAX_FIELD)
    return (text[open_at + 1 : end], end + 1) if end > 0 else ("", open_at + 1)


def _people(block: str) -> list[dict[str, str]]:
    """The parts (family, given, giveni, prefix, suffix) of each person in a \\name list, in order."""
    people: list[dict[str, str]] = []
    for m in _PART_RE.finditer(block):
        part = m.group(1)
        value, _ = _group(block, m.end() - 1)
        if part == "family" or not people:
            people.append({})
        people[-1][part] = value
    return people


def _names(people: list[dict[str, str]], initials: bool = False) -> list[str]:
    """`Given Prefix Family Suffix` of each person (`G. Family` when the style prints initials:
    biber writes them as `giveni`)."""
    given = ("giveni", "given") if initials else ("given",)
    return [
        " ".join(x for x in (_first(p, given), p.get("prefix"), p["family"], p.get("suffix")) if x)
        for p in people
        if p.get("family")
    ]


def _first(person: dict[str, str], keys: tuple[str, ...]) -> str:
    return next((_INITIALS_RE.sub(_initial, person[k]) for k in keys if person.get(k)), "")


# biber's initials: `G\bibinitperiod\bibinitdelim C\bibinitperiod` (`G. C.`), `Z\bibinithyphendelim H\bibinitperiod` (`Z.-H.`)
_INITIALS_RE = re.compile(r"\\bibinit(period|delim|hyphendelim)(?![A-Za-z])\s*")


def _initial(m: re.Match[str]) -> str:
    return {"period": ".", "delim": " ", "hyphendelim": ".-"}[m.group(1)]


@dataclass(frozen=True)
class NameStyle:
    """How biblatex prints an entry's names: with more than `most` of them (or a `moreauthor`
    mark in the .bib), the first `fewest` then `et al.`; given names as initials or in full.
    biblatex's defaults are 3, 1 and full names."""

    most: int = 3
    fewest: int = 1
    initials: bool = False


_OPTION_RE = re.compile(
    r"\b(maxbibnames|maxnames|minbibnames|minnames)[ \t]*=[ \t]*(\d{1,4})\b"
    r"|\\DeclareStringOption\[(\d{1,4})\]\{(maxbibnames|minbibnames)\}"
    r"|(?<!\{)\b(giveninits|firstinits)\b(?![ \t]*=[ \t]*false)"  # not `\DeclareBoolOption{...}`
    r"|\b(?:bib)?style[ \t]*=[ \t]*([A-Za-z-]{1,40})"
)
# What a style's own .bbx sets (TeX Live ships it, the e-print does not): (maxnames, initials)
_STYLE_NAMES = {
    "ieee": ("6", True),
    "phys": ("999", True),
    "nature": ("5", True),
    "science": ("5", True),
    "chem-acs": ("15", True),
    "apa": ("20", False),
}


def name_style(*texts: str) -> NameStyle:
    """The name options the paper gives biblatex, read in `texts` (its preamble first, then the
    packages it ships: ATLAS's load biblatex with `giveninits=true` and default `maxbibnames` to 5),
    else those its style sets (biblatex-ieee: 6 names, initials)."""
    found: dict[str, str] = {}
    for text in texts:
        for m in _OPTION_RE.finditer(text):
            if m.group(5):
                found.setdefault("giveninits", "true")
            elif m.group(6):
                found.setdefault("style", m.group(6))
            else:
                key, value = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
                found.setdefault(key.replace("bib", ""), value)
    style_most, style_initials = _STYLE_NAMES.get(found.get("style", ""), ("3", False))
    most = max(1, int(found.get("maxnames", style_most)))
    fewest = max(1, min(most, int(found.get("minnames", 1))))
    return NameStyle(most=most, fewest=fewest, initials="giveninits" in found or style_initials)


def _printed_names(names: list[str], more: bool, style: NameStyle) -> str:
    if len(names) > style.most or (more and names):
        return ", ".join(names[: style.fewest]) + " et al."
    return _join_names(names)


def _join_names(names: list[str]) -> str:
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + ", and " + names[-1]


def _entry(key: str, body: str, style: NameStyle) -> str:
    fields: dict[str, str] = {}
    people: dict[str, list[dict[str, str]]] = {}
    lists: dict[str, str] = {}  # publisher, institution: a field of the same name wins
    for m in _DATA_RE.finditer(body):
        field, role, listed = m.groups()
        value = _group(body, m.end() - 1)[0]
        if field:
            fields.setdefault(field, value)
        elif role:
            people.setdefault(role, _people(value))
        else:
            lists.setdefault(listed, ", ".join(_names_or_items(value)))
    fields = lists | fields
    names = {role: _names(persons, style.initials) for role, persons in people.items()}
    # an author-year label names the family of the first person listed (author or editor)
    family = next((p["family"] for p in next(iter(people.values()), []) if p.get("family")), "")
    verbs = {m.group(1): m.group(2).strip() for m in _VERB_RE.finditer(body)}
    role = "author" if names.get("author") else "editor"
    authors = names.get(role) or []
    year = fields.get("year") or fields.get("labelyear") or ""
    pages = fields.get("pages", "") or fields.get("eid", "")
    journal = fields.get("journaltitle", "")
    parts = [
        _printed_names(authors, "\\true{more" + role + "}" in body, style),
        fields.get("title", ""),
        # an article as physics styles print it: `Phys. Lett. B 716 (2012) 1`
        " ".join(x for x in (journal, fields.get("volume", ""), f"({year})" if year else "", pages) if x)
        if journal
        else " ".join(x for x in (fields.get("booktitle", ""), fields.get("volume", "")) if x),
        "" if journal else pages,
        "" if journal else fields.get("institution", "") or fields.get("publisher", ""),
        "" if journal else fields.get("number", ""),
        "" if journal else year,
    ]
    if verbs.get("doi"):
        parts.append("doi:" + verbs["doi"])
    # biber writes it as a field or, lately, verbatim; some .bib files spell the prefix in it
    eprint = re.sub(r"(?i)\Aarxiv:\s*", "", fields.get("eprint") or verbs.get("eprint") or "")
    if eprint:
        kind = fields.get("eprinttype", "arXiv")
        arxiv = kind.lower() == "arxiv"
        klass = f" [{fields['eprintclass']}]" if arxiv and fields.get("eprintclass") and "/" not in eprint else ""
        parts.append(f"arXiv:{eprint}{klass}" if arxiv else eprint)
    elif verbs.get("url") and not verbs.get("doi"):
        parts.append("\\url{" + verbs["url"] + "}")
    return (
        f"\\bibitem{_label(fields, family, len(authors), year)}{{{key}}} "
        + _sentences(p for p in parts if p.strip())
        + "\n"
    )


def _label(fields: dict[str, str], family: str, authors: int, year: str) -> str:
    """The optional label of the entry's `\\bibitem`: an alphabetic style's label as it prints
    (biber's `labelalpha` and `extraalpha`: `[Smi20a]`), else `{Family et al.(2020)}`."""
    alpha = fields.get("labelalpha", "").replace("\\textplus{}", "+").replace("\\textplus", "+")
    if alpha:
        extra = fields.get("extraalpha", "")
        suffix = STYLES["alph"](int(extra)) if extra.isdecimal() and 0 < int(extra) <= 26 else ""
        return f"[{{{alpha}{suffix}}}]"
    family = _BRACES_RE.sub("", family).strip()
    return f"[{{{family}{' et al.' if authors > 2 else ''}({year})}}]" if family and year else ""


def _sentences(parts: Iterable[str]) -> str:
    """Parts joined as sentences, each ending in one period (`et al.` keeps its own)."""
    return " ".join(p if p.endswith(".") else p + "." for p in parts)


_BRACES_RE = re.compile(r"[{}]")


def _names_or_items(items: str) -> list[str]:
    out: list[str] = []
    k = 0
    while k < len(items):
        if items[k] == "{":
            value, k = _group(items, k)
            out.append(value)
        else:
            k += 1
    return out


def to_thebibliography(bbl: str, style: NameStyle = NameStyle()) -> str:
    """Every entry once, in the .bbl's order (a second datalist or refsection repeats them).
    Linear in the .bbl's length: each entry is searched for once, from where the last ended."""
    out = ["\\begin{thebibliography}{99}\n"]
    seen: set[str] = set()
    pos = 0
    while True:
        pace.tick(len(out))
        m = _ENTRY_RE.search(bbl, pos)
        if m is None:
            break
        end = bbl.find(_ENDENTRY, m.end())
        if end < 0:
            end = len(bbl)
        if m.group(1) not in seen:
            seen.add(m.group(1))
            out.append(_entry(m.group(1), bbl[m.end() : end], style))
        pos = end + len(_ENDENTRY)
    out.append("\\end{thebibliography}\n")
    return "".join(out)
