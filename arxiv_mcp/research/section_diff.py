"""Two documents' sections matched and compared (research/versions.py puts them in its answer).

A section is a heading with its own running text: paragraphs and lists up to the next heading
(figures, tables, equations and references are compared as items; page markers are not the
paper's). Sections are matched by printed number and title, then title alone (a renumbered
section is "moved"), then number with similar text (retitled), then similar text; the rest
are added or removed, each removed one listed where it stood. Equal texts give "unchanged".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..models import SectionChange
from ..text.document import Document, Kind
from ..text.outline import outline
from . import textdiff
from .textdiff import flat, short

_LEADING_NUMBER_RE = re.compile(r"^(?:appendix\s+)?(?:\d+|[A-Z]|[IVXLC]+)(?:\.(?:\d+|[A-Z]))*[.:]?\s+", re.IGNORECASE)
_EQUATION_LINE_RE = re.compile(r"(?:(?<=[.!?:])|^)\s*[^.!?:]*[=<>≤≥∑∫][^.!?:]*\(\d{1,3}(?:\.\d{1,3})?[a-z]?\)(?=\s|$)")
"""A display equation a PDF's text leaves inside a paragraph: math up to its number, `(7)`."""
_MATCH_BY_NUMBER = 0.5
_MATCH_BY_TEXT = 0.6
_SECTION_KINDS = (Kind.PARAGRAPH, Kind.LIST)


@dataclass(frozen=True)
class _Section:
    number: str | None
    title: str
    key: str
    body: str


def sections_of(doc: Document, unmarked_equations: bool = False) -> list[_Section]:
    """Each heading with its own running text (paragraphs and lists up to the next heading):
    figures, tables, equations and references are compared as items, and page markers are
    not the paper's text. `unmarked_equations`: this text leaves its numbered equations in its
    paragraphs (a PDF) while the other marks them; those lines are left out here too."""
    headings = outline(doc)
    if len(headings) > 1 and headings[0].level == 1 and headings[1].level > 1:
        headings = headings[1:]  # the document's title: compared with the metadata, not as a section
    starts = [h.start for h in headings] + [len(doc.text)]
    pieces: list[list[str]] = [[] for _ in headings]
    index = 0
    for block in doc.blocks:
        while index + 1 < len(headings) and block.start >= starts[index + 1]:
            index += 1
        if headings and block.kind in _SECTION_KINDS and block.start >= starts[index]:
            pieces[index].append(doc.text[block.start : block.end])
    found = []
    for heading, parts in zip(headings, pieces):
        title = _LEADING_NUMBER_RE.sub("", heading.title) if heading.printed else heading.title
        body = " ".join(parts)
        if unmarked_equations:
            body = _EQUATION_LINE_RE.sub(" ", body)
        found.append(_Section(heading.printed, title.strip(), _fold(title), body))
    return found


def _fold(title: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", title.casefold()).split())


def section_changes(before: Document, after: Document) -> list[SectionChange]:
    marked_before = any(block.kind is Kind.EQUATION for block in before.blocks)
    marked_after = any(block.kind is Kind.EQUATION for block in after.blocks)
    old = sections_of(before, marked_after and not marked_before)
    new = sections_of(after, marked_before and not marked_after)
    pairs = _match_sections(old, new)
    paired_old = set(pairs.values())
    changes: list[SectionChange] = []
    placed: set[int] = set()
    for j, section in enumerate(new):
        if j in pairs:
            matched = pairs[j]
            for i in range(matched):  # removed sections before this one's match stand where they stood
                if i not in paired_old and i not in placed:
                    changes.append(_removed(old[i]))
                    placed.add(i)
            changes.append(_section_change(old[matched], section))
        else:
            changes.append(SectionChange("added", None, section.number, None, section.title, added=_first(section)))
    changes += [_removed(old[i]) for i in range(len(old)) if i not in paired_old and i not in placed]
    return changes


def _first(section: _Section) -> list[str]:
    return [short(s) for s in textdiff.sentences(section.body)[:2]]


def _removed(section: _Section) -> SectionChange:
    return SectionChange("removed", section.number, None, section.title, None, removed=_first(section))


def _match_sections(old: list[_Section], new: list[_Section]) -> dict[int, int]:
    """new index -> old index, in four passes (see the module's docstring)."""
    pairs: dict[int, int] = {}
    used: set[int] = set()
    for same in (lambda s: (s.number, s.key), lambda s: s.key):  # exact passes: looked up, not scanned
        waiting: dict[object, list[int]] = {}
        for i, section in enumerate(old):
            if i not in used:
                waiting.setdefault(same(section), []).append(i)
        for j, section in enumerate(new):
            free = waiting.get(same(section))
            if j not in pairs and free:
                pairs[j] = free.pop(0)
                used.add(pairs[j])
    for by_number in (True, False):
        threshold = _MATCH_BY_NUMBER if by_number else _MATCH_BY_TEXT
        for j, section in enumerate(new):
            if j in pairs or not section.body:
                continue
            free = [
                i
                for i in range(len(old))
                if i not in used and old[i].body and (not by_number or (old[i].number or "") == (section.number or "-"))
            ]
            score, best = max(((textdiff.similarity(old[i].body, section.body), i) for i in free), default=(0.0, -1))
            if score >= threshold:
                pairs[j] = best
                used.add(best)
    return pairs


def _section_change(old: _Section, new: _Section) -> SectionChange:
    moved = old.number != new.number and old.number is not None and new.number is not None
    same_text = old.body == new.body or flat(old.body) == flat(new.body)
    if same_text and old.key == new.key and not moved:
        return SectionChange("unchanged", old.number, new.number, old.title, new.title, 1.0)
    removed, added = ([], []) if same_text else textdiff.sentence_changes(old.body, new.body)
    return SectionChange(
        "moved" if moved else "changed",
        old.number,
        new.number,
        old.title,
        new.title,
        textdiff.similarity(old.body, new.body),
        [short(s) for s in removed[: textdiff.MAX_SENTENCES]],
        [short(s) for s in added[: textdiff.MAX_SENTENCES]],
        textdiff.number_changes(removed, added),
    )
