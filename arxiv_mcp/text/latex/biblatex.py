"""biblatex's .bbl (`\\entry ... \\endentry`, written by biber) as a `thebibliography` LaTeX text.

A biblatex .bbl holds data, not typeset text: `\\name{author}` lists of family/given parts,
`\\field{title}{...}`, `\\verb{doi} ... \\endverb`. Rewriting it as `\\bibitem` entries lets the
converter read it like any other bibliography (accents, braces, labels) and print one line per
entry: authors, title, journal, volume, pages, year, DOI, arXiv id. Regex scans are bounded per
entry, so a huge or hostile .bbl stays linear.
"""

from __future__ import annotations

import re

from .tokens import group_end

MAX_FIELD = 4000  # characters of one field value considered

_ENTRY_RE = re.compile(r"\\entry\{([^{}\n]{1,300})\}\{([A-Za-z]{1,40})\}")
_ENDENTRY = "\\endentry"
_FIELD_RE = re.compile(r"\\field\{([A-Za-z]{1,40})\}\{")
_NAME_RE = re.compile(r"\\name\{([A-Za-z]{1,40})\}\{\d{1,5}\}\{[^{}]{0,300}\}\{")
_PART_RE = re.compile(r"\b(family|given|prefix|suffix)=\{")
_VERB_RE = re.compile(r"\\verb\{([A-Za-z]{1,40})\}\s*\\verb[ \t]*([^\n]{0,2000}?)\s*\\endverb")
_LIST_RE = re.compile(r"\\list\{([A-Za-z]{1,40})\}\{\d{1,5}\}\{")


def is_biblatex(bbl: str) -> bool:
    return "\\entry{" in bbl and "\\endentry" in bbl


def _group(text: str, open_at: int) -> tuple[str, int]:
    """The text of the `{...}` group opening at `open_at` and the index after it."""
    end = group_end(text, open_at, MAX_FIELD)
    return (text[open_at + 1 : end], end + 1) if end > 0 else ("", open_at + 1)


def _names(block: str) -> list[str]:
    """`Given Prefix Family Suffix` of each person in a \\name list, in order."""
    people: list[dict[str, str]] = []
    for m in _PART_RE.finditer(block):
        part = m.group(1)
        value, _ = _group(block, m.end() - 1)
        if part == "family" or not people:
            people.append({})
        people[-1][part] = value
    return [
        " ".join(p[k] for k in ("given", "prefix", "family", "suffix") if p.get(k)) for p in people if p.get("family")
    ]


def _join_names(names: list[str]) -> str:
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + ", and " + names[-1]


def _entry(key: str, body: str) -> str:
    fields: dict[str, str] = {}
    for m in _FIELD_RE.finditer(body):
        fields.setdefault(m.group(1), _group(body, m.end() - 1)[0])
    names: dict[str, list[str]] = {}
    for m in _NAME_RE.finditer(body):
        names.setdefault(m.group(1), _names(_group(body, m.end() - 1)[0]))
    for m in _LIST_RE.finditer(body):
        items = _group(body, m.end() - 1)[0]
        fields.setdefault(m.group(1), ", ".join(_names_or_items(items)))  # publisher, institution
    verbs = {m.group(1): m.group(2).strip() for m in _VERB_RE.finditer(body)}
    authors = names.get("author") or names.get("editor") or []
    year = fields.get("year") or fields.get("labelyear") or ""
    parts = [
        _join_names(authors),
        fields.get("title", ""),
        " ".join(x for x in (fields.get("journaltitle") or fields.get("booktitle", ""), fields.get("volume", "")) if x),
        fields.get("pages", "") or fields.get("eid", ""),
        fields.get("institution", "") or (fields.get("publisher", "") if "journaltitle" not in fields else ""),
        fields.get("number", "") if "journaltitle" not in fields else "",
        year,
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
    family = _BRACES_RE.sub("", first_family).strip() if (first_family := _first_family(body)) else ""
    label = f"[{{{family}{' et al.' if len(authors) > 2 else ''}({year})}}]" if family and year else ""
    return f"\\bibitem{label}{{{key}}} " + ". ".join(p for p in parts if p.strip()) + ".\n"


_BRACES_RE = re.compile(r"[{}]")


def _first_family(body: str) -> str:
    """The family name of the entry's first author (or editor), for an author-year label."""
    m = _NAME_RE.search(body)
    if m is None:
        return ""
    people = _group(body, m.end() - 1)[0]
    part = re.search(r"\bfamily=\{", people)
    return _group(people, part.end() - 1)[0] if part else ""


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


def to_thebibliography(bbl: str) -> str:
    """Every entry once, in the .bbl's order (a second datalist or refsection repeats them)."""
    out = ["\\begin{thebibliography}{99}\n"]
    seen: set[str] = set()
    pos = 0
    while True:
        m = _ENTRY_RE.search(bbl, pos)
        if m is None:
            break
        end = bbl.find(_ENDENTRY, m.end())
        if end < 0:
            end = len(bbl)
        if m.group(1) not in seen:
            seen.add(m.group(1))
            out.append(_entry(m.group(1), bbl[m.end() : end]))
        pos = end + len(_ENDENTRY)
    out.append("\\end{thebibliography}\n")
    return "".join(out)
