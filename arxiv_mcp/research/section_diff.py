"""Two documents' sections matched and compared (research/versions.py puts them in its answer).

A section is a heading with its own running text: paragraphs and lists up to the next heading
(figures, tables, equations and references are compared as items; page markers are not the
paper's). Sections are matched by printed number and title, then title alone (a renumbered
section is "moved"), then number with similar text (retitled), then similar text; the rest
are added or removed, each removed one listed where it stood. Equal texts give "unchanged".
"""

from __future__ import annotations

import bisect
import re

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


class _Section:
    """A heading and its own text: `raw`, the span up to the next heading, compared first (most
    sections of a revision are unchanged); `body`, its paragraphs and lists, made on demand."""

    __slots__ = ("number", "title", "key", "raw", "_blocks", "_span", "_unmarked", "_body")

    def __init__(
        self, number: str | None, title: str, raw: str, blocks: _Blocks, span: tuple[int, int], unmarked: bool
    ):
        self.number, self.title, self.key, self.raw = number, title, _fold(title), raw
        self._blocks, self._span, self._unmarked = blocks, span, unmarked
        self._body: str | None = None

    @property
    def body(self) -> str:
        if self._body is None:
            body = self._blocks.running_text(*self._span)
            self._body = _EQUATION_LINE_RE.sub(" ", body) if self._unmarked else body
        return self._body


class _Blocks:
    """A document's paragraphs and lists between two offsets, found by bisection (their starts
    listed once, when a first section's body is asked for)."""

    def __init__(self, doc: Document):
        self.doc = doc
        self._starts: list[int] | None = None

    def running_text(self, start: int, end: int) -> str:
        if self._starts is None:
            self._starts = [block.start for block in self.doc.blocks]
        blocks, text = self.doc.blocks, self.doc.text
        index = bisect.bisect_left(self._starts, start)
        parts = []
        while index < len(blocks) and blocks[index].start < end:
            if blocks[index].kind in _SECTION_KINDS:
                parts.append(text[blocks[index].start : blocks[index].end])
            index += 1
        return " ".join(parts)


def sections_of(doc: Document, unmarked_equations: bool = False) -> list[_Section]:
    """Each heading with its own running text (paragraphs and lists up to the next heading):
    figures, tables, equations and references are compared as items, and page markers are
    not the paper's text. `unmarked_equations`: this text leaves its numbered equations in its
    paragraphs (a PDF) while the other marks them; those lines are left out here too."""
    headings = outline(doc)
    if len(headings) > 1 and headings[0].level == 1 and headings[1].level > 1:
        headings = headings[1:]  # the document's title: compared with the metadata, not as a section
    starts = [h.start for h in headings] + [len(doc.text)]
    blocks = _Blocks(doc)
    found = []
    for n, heading in enumerate(headings):
        title = _LEADING_NUMBER_RE.sub("", heading.title) if heading.printed else heading.title
        own = (doc.text.find("\n", heading.start, starts[n + 1]) + 1 or starts[n + 1], starts[n + 1])
        found.append(
            _Section(heading.printed, title.strip(), doc.text[own[0] : own[1]], blocks, own, unmarked_equations)
        )
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
    same_text = old.raw == new.raw or old.body == new.body or flat(old.body) == flat(new.body)
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
