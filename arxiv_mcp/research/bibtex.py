"""Paper records to arXiv-style BibTeX (`@misc` with eprint, archivePrefix, primaryClass).

Only fields the metadata really carries are written. Text is escaped for BibTeX and LaTeX,
except `$...$` math in titles, which is kept as the authors wrote it. Brace counting differs
between readers: BibTeX counts every brace, escaped or not, while bibtexparser skips a brace
right after a backslash. Output must balance for both, so literal braces become
`\\textbraceleft{}`/`\\textbraceright{}` in text, and math keeps its `\\{`/`\\}` only when both
counts balance; otherwise they are spelled `\\lbrace`/`\\rbrace`, and math that still does not
balance is escaped as text.
"""

from __future__ import annotations

import re

from ..text.shape import MATH_RE
from ..upstream.atom import Paper
from ..upstream.fields import MORE

_TEXT_ESCAPES = {
    "\\": r"\textbackslash{}",
    "{": r"\textbraceleft{}",
    "}": r"\textbraceright{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
_TEXT_SPECIAL = re.compile(r"[\\{}&%$#_~^]")
_MATH_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_SPELLED_BRACES = {"{": r"\lbrace ", "}": r"\rbrace "}
_AND_WORD = re.compile(r"\band\b", re.IGNORECASE)
_YEAR = re.compile(r"\d{4}")
_VERBATIM_UNSAFE = {"{": "%7B", "}": "%7D", "\\": "%5C"}


def escape_text(text: str) -> str:
    """BibTeX/LaTeX-safe text: every special character becomes its escaped form."""
    return _TEXT_SPECIAL.sub(lambda m: _TEXT_ESCAPES[m.group()], text)


def _braces_balance(text: str, *, skip_after_backslash: bool) -> bool:
    """Brace balance as BibTeX reads it, or (skipping braces after `\\`) as bibtexparser does."""
    depth = 0
    previous = ""
    for char in text:
        if char in "{}" and not (skip_after_backslash and previous == "\\"):
            depth += 1 if char == "{" else -1
            if depth < 0:
                return False
        previous = char
    return depth == 0


def _readable(text: str) -> bool:
    return all(_braces_balance(text, skip_after_backslash=skip) for skip in (False, True))


def _spell_braces(segment: str) -> str:
    """`\\{`/`\\}` -> `\\lbrace`/`\\rbrace`; escapes are read in pairs, so `\\\\{` is left alone."""
    return _MATH_ESCAPE.sub(lambda m: _SPELLED_BRACES.get(m.group(1), m.group()), segment)


def _math(segment: str) -> str:
    """Math as written when every reader balances it, else with its brace delimiters spelled out."""
    if _readable(segment):
        return segment
    spelled = _spell_braces(segment)
    return spelled if _readable(spelled) else escape_text(segment)


def escape_title(title: str) -> str:
    """Escape a title outside its `$...$` / `$$...$$` math; the math itself stays LaTeX."""
    out: list[str] = []
    pos = 0
    for m in MATH_RE.finditer(title):
        out.append(escape_text(title[pos : m.start()]))
        out.append(_math(m.group()))
        pos = m.end()
    out.append(escape_text(title[pos:]))
    return "".join(out)


def _author(name: str) -> str:
    """One name; a name holding the word "and" is braced so BibTeX does not split it."""
    escaped = escape_text(name.strip())
    return "{" + escaped + "}" if _AND_WORD.search(name) else escaped


def _verbatim(value: str) -> str:
    """DOIs and URLs are read verbatim by biblatex: only characters that break BibTeX change."""
    return "".join(_VERBATIM_UNSAFE.get(c, c) for c in value.strip())


def entry(paper: Paper, *, site_url: str = "https://arxiv.org") -> str:
    """One `@misc` entry keyed `arxiv:<versionless id>`."""
    fields: list[tuple[str, str]] = []
    names = [a.name for a in paper.authors if a.name and a.name.strip()]
    if names:
        # a list cut at fields.MAX_AUTHORS ends "and N more": BibTeX's word for that is "others"
        shown = ["others" if MORE.fullmatch(n) else _author(n) for n in names]
        fields.append(("author", " and ".join(shown)))
    if paper.title.strip():
        fields.append(("title", "{" + escape_title(paper.title.strip()) + "}"))
    year = _YEAR.match(paper.published or "")
    if year:
        fields.append(("year", year.group()))
    fields += [("eprint", paper.id), ("archivePrefix", "arXiv")]
    if paper.primary_category:
        fields.append(("primaryClass", escape_text(paper.primary_category)))
    if paper.doi and paper.doi.strip():
        fields.append(("doi", _verbatim(paper.doi)))
    fields.append(("url", _verbatim(f"{site_url.rstrip('/')}/abs/{paper.id}")))
    if paper.journal_ref and paper.journal_ref.strip():
        fields.append(("note", escape_text(paper.journal_ref.strip())))
    body = "".join(f"  {name} = {{{value}}},\n" for name, value in fields)
    return f"@misc{{arxiv:{paper.id},\n{body}}}\n"


def to_bibtex(papers: list[Paper], *, site_url: str = "https://arxiv.org") -> str:
    """Entries in the order given, one per paper (a repeated id is written once)."""
    seen: set[str] = set()
    entries: list[str] = []
    for paper in papers:
        if paper.id in seen:
            continue
        seen.add(paper.id)
        entries.append(entry(paper, site_url=site_url))
    return "\n".join(entries)
