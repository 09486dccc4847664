"""One version as a comparison reads it: its text, its sections, and its records by kind.

A comparison reads few of a document's blocks: its headings (the sections), the spans of its
paragraphs and lists (a changed section's running text) and its figures, tables, equations and
references (the items). A cached document's blocks are read here as the JSON lists they were
stored as, in one pass, and a record is built only for a kind whose two lists differ: building
every block of a long paper costs more than reading its text, and most of a revision is
unchanged. Invariants:
- what is read is what the `Document` holds: the same headings with the same printed numbers,
  the same spans, records equal to its records (`record_from_json` builds both);
- a skeleton is kept with the read's `Text` it was made from, never by paper id: a Text never
  changes, and the service serves it only while the cache proves it current (rereads.py).
What is kept is shared between calls and threads: callers must not mutate it.
"""

from __future__ import annotations

import bisect
import functools
import logging
import re
import threading
import weakref
from typing import Any

from ..reading import Text
from ..text.document import Document, Kind, record_from_json
from ..text.outline import heading_lines

log = logging.getLogger(__name__)

ITEM_KINDS = (Kind.FIGURE, Kind.TABLE, Kind.EQUATION, Kind.REFERENCE)
_KINDS = {kind.value: kind for kind in Kind}
_PUNCTUATION_RE = re.compile(r"[^\w\s]")
_LEADING_NUMBER_RE = re.compile(r"^(?:appendix\s+)?(?:\d+|[A-Z]|[IVXLC]+)(?:\.(?:\d+|[A-Z]))*[.:]?\s+", re.IGNORECASE)
_EQUATION_LINE_RE = re.compile(r"(?:(?<=[.!?:])|^)\s*[^.!?:]*[=<>≤≥∑∫][^.!?:]*\(\d{1,3}(?:\.\d{1,3})?[a-z]?\)(?=\s|$)")
"""A display equation a PDF's text leaves inside a paragraph: math up to its number, `(7)`."""


class RunningText:
    """A text's paragraphs and lists, found between two offsets by bisection (a section's
    body). Kept apart from the skeleton so that its sections, which hold it, make no cycle
    with the skeleton that holds them: both go as soon as the read's Text goes."""

    def __init__(self, text: str, spans: list[tuple[int, int]]):
        self._text, self._spans = text, spans
        self._starts = [start for start, _ in spans]

    def between(self, start: int, end: int) -> str:
        """The paragraphs and lists that start between two offsets, joined by spaces."""
        index = bisect.bisect_left(self._starts, start)
        parts = []
        while index < len(self._spans) and self._spans[index][0] < end:
            parts.append(self._text[self._spans[index][0] : self._spans[index][1]])
            index += 1
        return " ".join(parts)


class Section:
    """A heading and its own text: `raw`, the span up to the next heading, compared first (most
    sections of a revision are unchanged); `body`, its paragraphs and lists, made on demand.
    `unmarked`: this text leaves its numbered equations in its paragraphs (a PDF) while the
    other version marks them; those lines are left out of the body too."""

    __slots__ = ("number", "title", "key", "raw", "_running", "_span", "_unmarked", "_body")

    def __init__(self, number: str | None, title: str, key: str, raw: str, running: RunningText, span: tuple[int, int]):
        self.number, self.title, self.key, self.raw = number, title, key, raw
        self._running, self._span, self._unmarked = running, span, False
        self._body: str | None = None

    def unmarked(self) -> Section:
        twin = Section.__new__(Section)
        twin.number, twin.title, twin.key, twin.raw = self.number, self.title, self.key, self.raw
        twin._running, twin._span, twin._unmarked, twin._body = self._running, self._span, True, None
        return twin

    @property
    def body(self) -> str:
        if self._body is None:
            body = self._running.between(*self._span)
            self._body = _EQUATION_LINE_RE.sub(" ", body) if self._unmarked else body
        return self._body


_ASCII_PUNCTUATION = bytes(32 if code < 128 and _PUNCTUATION_RE.match(chr(code)) else code for code in range(256))
"""`_PUNCTUATION_RE` on ASCII as a byte table (made from it): most headings are ASCII, and a
byte translation folds them in two fifths of the time of the substitution."""


def fold(title: str) -> str:
    if title.isascii():
        return " ".join(title.lower().encode("ascii").translate(_ASCII_PUNCTUATION).decode("ascii").split())
    return " ".join(_PUNCTUATION_RE.sub(" ", title.casefold()).split())


@functools.lru_cache(maxsize=4096)
def _title(line: str, numbered: bool) -> tuple[str, str]:
    """A heading line's title (its printed number left out) and its folded key: kept, since
    most headings of the other version are the same lines."""
    title = (_LEADING_NUMBER_RE.sub("", line) if numbered else line).strip()
    return title, fold(title)


class Skeleton:
    """A version's text, headings (start -> printed number), paragraph and list spans, whether
    it marks equations, and its items by kind (records, or their JSON as stored)."""

    def __init__(
        self,
        text: str,
        printed: dict[int, str | None],
        spans: list[tuple[int, int]],
        equations: bool,
        items: dict[Kind, list[Any]],
    ):
        self.text, self.equations = text, equations
        self._printed, self._items = printed, items
        self._running = RunningText(text, spans)
        self._records: dict[Kind, list[Any]] = {}
        self._sections: dict[bool, list[Section]] = {}
        self._lock = threading.Lock()

    def sections(self, unmarked_equations: bool = False) -> list[Section]:
        """Each heading with its own running text (see `Section`); the document's title, a
        first heading above the others, is compared with the metadata, not as a section."""
        with self._lock:
            if False not in self._sections:
                self._sections[False] = self._sections_of()
            if unmarked_equations and True not in self._sections:
                self._sections[True] = [section.unmarked() for section in self._sections[False]]
            return self._sections[unmarked_equations]

    def _sections_of(self) -> list[Section]:
        text = self.text
        headings = heading_lines(text, self._printed)
        if len(headings) > 1 and headings[0][1] == 1 and headings[1][1] > 1:
            headings = headings[1:]
        ends = [start for start, _, _ in headings[1:]] + [len(text)]
        found = []
        for (start, _, line), end in zip(headings, ends):
            number = self._printed[start]
            title, key = _title(line, bool(number))
            own = text.find("\n", start, end) + 1 or end
            found.append(Section(number, title, key, text[own:end], self._running, (own, end)))
        return found

    def stored(self, kind: Kind) -> list[Any]:
        """The items of one kind as they came: equal lists are equal records."""
        return self._items.get(kind, [])

    def records(self, kind: Kind) -> list[Any]:
        """The records of one kind, built from their JSON on first use."""
        with self._lock:
            built = self._records.get(kind)
            if built is None:
                built = self._records[kind] = _built(kind, self._items.get(kind, []))
            return built


def _built(kind: Kind, items: list[Any]) -> list[Any]:
    try:
        return [record_from_json(kind, item) if isinstance(item, dict) else item for item in items]
    except (KeyError, TypeError, AttributeError) as exc:  # the text was whole, these records are not
        log.warning("the cached %s records of a document are unreadable (%s): not compared", kind, exc)
        return []


def of_document(doc: Document) -> Skeleton:
    printed: dict[int, str | None] = {}
    spans: list[tuple[int, int]] = []
    items: dict[Kind, list[Any]] = {}
    equations = False
    for block in doc.blocks:
        kind = block.kind
        if kind is Kind.PARAGRAPH or kind is Kind.LIST:
            spans.append((block.start, block.end))
        elif kind is Kind.HEADING:
            printed[block.start] = getattr(block.record, "number", None)
        else:
            equations = equations or kind is Kind.EQUATION
            if block.record is not None and kind in ITEM_KINDS:
                items.setdefault(kind, []).append(block.record)
    return Skeleton(doc.text, printed, spans, equations, items)


def of_json(text: str, raw: dict[str, Any]) -> Skeleton:
    """The skeleton of a cached document's JSON (Document.to_json's lists), in one pass (kinds
    compared as the strings they are stored as: this loop is most of a skeleton's cost)."""
    printed: dict[int, str | None] = {}
    spans: list[tuple[int, int]] = []
    items: dict[str, list[Any]] = {kind.value: [] for kind in ITEM_KINDS}
    equations = False
    for item in raw["blocks"]:
        kind = item[0]
        if kind == "paragraph" or kind == "list":
            spans.append((item[1], item[2]))
        elif kind == "heading":
            printed[item[1]] = item[3].get("number") if len(item) > 3 else None
        elif kind in items:
            equations = equations or kind == "equation"
            if len(item) > 3:
                items[kind].append(item[3])
        elif kind not in _KINDS:
            raise KeyError(f"block kind {kind!r}")
    return Skeleton(text, printed, spans, equations, {_KINDS[kind]: found for kind, found in items.items() if found})


_KEPT: weakref.WeakKeyDictionary[Text, Skeleton] = weakref.WeakKeyDictionary()
_KEPT_LOCK = threading.Lock()


def of(source: Document | Text) -> Skeleton:
    """The skeleton of a document, or of a read's text (kept with it: see the module's docstring)."""
    if isinstance(source, Document):
        return of_document(source)
    with _KEPT_LOCK:
        kept = _KEPT.get(source)
    if kept is not None:
        return kept
    got = source.document_or_json()
    try:
        made = of_document(got) if isinstance(got, Document) else of_json(source.text, got)
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        log.warning("the cached blocks of a document are unreadable (%s): read from its document", exc)
        made = of_document(source.doc)
    with _KEPT_LOCK:
        return _KEPT.setdefault(source, made)


def of_pair(before: Document | Text, after: Document | Text) -> tuple[Skeleton, Skeleton]:
    """The skeletons of two versions: one for both when their documents are the very same
    object (a version re-uploaded unchanged, whose payload reading.py parses once), made once."""
    old = of(before)
    same = before is after or (
        isinstance(before, Text) and isinstance(after, Text) and before.document_or_json() is after.document_or_json()
    )
    return (old, old) if same else (old, of(after))
