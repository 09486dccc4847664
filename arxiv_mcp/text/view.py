"""Views over a paper's text: fixed pages and in-text search (the outline and sections are
in `outline.py`, figures, tables and equations in `items.py`, the rest in `selectors.py`).

The text is the shared shape, whose only line structure is heading lines (`#` to `######`
then a space); body lines never start with `#`. Pages and find are pure functions of that
string, so `read_paper` and `find_in_paper` agree on page numbers by construction.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from ..errors import InvalidInput
from ..models import FindHit
from ..words import counted, singular
from .document import Document
from .outline import outline
from .places import Places
from .shape import HEADING_RE, PAGE_MARKER_RE

SNIPPET_CHARS = 300
_SNIPPET_LEAD = 100
_CUT_SLACK_DIVISOR = 10  # a page may end up to page_size/10 early to land on a boundary
_BLANK_LINES_RE = re.compile(r"\n[ \t\r]*\n\s*")
_QUOTED_RE = re.compile(r"[\"“”]([^\"“”]*)(?:[\"“”]|$)")
_EDGE_PUNCTUATION = ".,;:!?()[]{}'`"


@dataclass(frozen=True)
class Passage:
    """A paragraph (or heading line) that holds every query term: `text[start:end]`, with
    `match` the offset of the first term found in it."""

    start: int
    end: int
    match: int


# --- pages ----------------------------------------------------------------------------


class Pages:
    """`text` cut into pages of at most `page_size` characters; all pages joined give back
    `text` exactly. The cuts depend on nothing else, so page N is stable and `read_paper`
    and `find_in_paper` agree on page numbers by construction.

    The tool arguments `page_size` and `page` are checked once, by the service, against
    `bounds.PAGE_SIZE` and `bounds.PAGE` before any request; here a size below 1 or a page
    below 1 is a caller's bug (ValueError), and only "past the end" is the reader's to fix.
    """

    def __init__(self, text: str, page_size: int):
        if page_size < 1:
            raise ValueError(f"page_size {page_size} would never end a page")
        self.text = text
        self.page_size = page_size
        self.cuts = _page_cuts(text, page_size)

    @property
    def count(self) -> int:
        return len(self.cuts) - 1

    def page(self, number: int) -> str:
        """The text of page `number` (1-based)."""
        total = self.count
        if number < 1:
            raise ValueError(f"page {number}: pages are numbered from 1")
        if number > total:
            raise InvalidInput(
                f"page {number} is past the end: this view has {counted(total, 'page')} "
                f"(page_size={self.page_size}); ask for page 1 to {total}."
            )
        return self.text[self.cuts[number - 1] : self.cuts[number]]

    def of_offset(self, offset: int) -> int:
        """The page whose slice holds character `offset` (`len(text)` is on the last page)."""
        if not 0 <= offset <= len(self.text):
            raise ValueError(f"offset {offset} is outside the text (0..{len(self.text)})")
        return min(bisect.bisect_right(self.cuts, offset), self.count)


def _before_a_closing_heading(text: str, start: int, cut: int) -> int:
    """`cut`, or the start of the heading or page marker line a page would end with: that
    line belongs with the text it opens, on the next page (a page 1 ended '## Page 6')."""
    while True:
        end = cut
        while end > start and text[end - 1] in " \t\r\n":
            end -= 1
        line_start = text.rfind("\n", start, end) + 1
        if not (line_start > start and text.startswith("#", line_start) and HEADING_RE.match(text, line_start)):
            return cut
        cut = line_start  # and again: a page marker may stand just above the heading


def _page_cuts(text: str, page_size: int) -> tuple[int, ...]:
    """Offsets where pages start, plus len(text): deterministic, so page N is stable.

    A page ends after the last blank line, else line break, else space, found in the final
    tenth of its window; with none there it is cut hard at page_size. Not memoised: this
    costs ~0.3 ms for 5 MB at page_size 15000 (5 ms at 1000), less than hashing the text.
    """
    cuts = [0]
    start, length = 0, len(text)
    slack = max(1, page_size // _CUT_SLACK_DIVISOR)
    while length - start > page_size:
        limit = start + page_size
        floor = limit - slack
        cut = limit
        for separator in ("\n\n", "\n", " "):
            found = text.rfind(separator, floor, limit)
            if found >= 0:
                cut = _before_a_closing_heading(text, start, found + len(separator))
                break
        cuts.append(cut)
        start = cut
    cuts.append(length)
    return tuple(cuts)


# --- search inside one text -----------------------------------------------------------


def find(
    source: str | Document, query: str, *, max_hits: int = 10, page_size: int = 15000
) -> tuple[list[FindHit], int]:
    """The first `max_hits` passages holding every query term, as hits with their page (at
    `page_size`), section, the block they are in and a snippet; and the number of matching
    passages. Both numbers are the caller's to check (`bounds.MAX_HITS`, `bounds.PAGE_SIZE`)."""
    doc = source if isinstance(source, Document) else Document.from_text(source)
    text = doc.text
    pages = Pages(text, page_size)
    places = Places(doc)
    found = _matching(text, query, [h.start for h in places.headings])
    hits = []
    for passage in found[:max_hits]:
        hits.append(
            FindHit(
                page=pages.of_offset(passage.match),
                section=places.section_name(passage.match),
                snippet=_snippet(text, passage),
                place=places.describe(passage.match),
            )
        )
    return hits, len(found)


def matching_passages(text: str, query: str) -> list[Passage]:
    """Passages holding every query term, in document order: what `find` reports, one hit each.

    Unquoted words match whole words, case-insensitively, singular or plural; a "quoted
    phrase" matches that word sequence with any whitespace between.
    """
    return _matching(text, query, [h.start for h in outline(text)])


def _matching(text: str, query: str, heading_starts: list[int]) -> list[Passage]:
    patterns = sorted(_query_patterns(query), key=lambda p: len(p.pattern), reverse=True)
    starts, ends = _passages(text, heading_starts)
    first_offset = _passages_matching(text, patterns[0], starts, ends)
    for pattern in patterns[1:]:
        for index, offset in list(first_offset.items()):
            match = pattern.search(text, starts[index], ends[index])
            if match is None:
                del first_offset[index]
            elif match.start() < offset:
                first_offset[index] = match.start()
    return [Passage(starts[i], ends[i], first_offset[i]) for i in sorted(first_offset)]


def _passages_matching(text: str, pattern: re.Pattern[str], starts: list[int], ends: list[int]) -> dict[int, int]:
    """Passage index -> offset of its first match; skips to the next passage after each hit."""
    first: dict[int, int] = {}
    position = 0
    while (match := pattern.search(text, position)) is not None:
        index = bisect.bisect_right(starts, match.start()) - 1
        if index >= 0 and match.end() <= ends[index]:
            first[index] = match.start()
            position = ends[index]
        else:
            position = match.start() + 1
    return first


def _query_patterns(query: str) -> list[re.Pattern[str]]:
    phrases = [p for p in (" ".join(q.split()) for q in _QUOTED_RE.findall(query or "")) if p]
    loose = _QUOTED_RE.sub(" ", query or "")
    words = [w for w in (chunk.strip(_EDGE_PUNCTUATION) for chunk in loose.split()) if w]
    patterns = [_phrase_pattern(p) for p in phrases]
    for word in words:
        patterns.append(_word_pattern(word) if re.fullmatch(r"\w+", word) else _phrase_pattern(word))
    if not patterns:
        raise InvalidInput('query has no words to look for: pass one or more words, or a "quoted phrase".')
    return patterns


def _word_pattern(word: str) -> re.Pattern[str]:
    """Whole word, either number: "transformers" finds "transformer" and the reverse."""
    stem = singular(word.casefold())
    if len(stem) > 2 and stem.endswith("y") and stem[-2] not in "aeiou":
        body = re.escape(stem[:-1]) + "(?:y|ies)"
    else:
        body = re.escape(stem) + "(?:e?s)?"
    return re.compile(rf"\b{body}\b", re.IGNORECASE)


def _phrase_pattern(phrase: str) -> re.Pattern[str]:
    body = r"\s+".join(re.escape(part) for part in phrase.split())
    before = r"\b" if re.match(r"\w", phrase) else ""
    after = r"\b" if re.search(r"\w$", phrase) else ""
    return re.compile(before + body + after, re.IGNORECASE)


def _passages(text: str, heading_starts: list[int]) -> tuple[list[int], list[int]]:
    """Paragraph spans (split at blank lines); a heading line is a passage of its own, and a
    page marker (`## Page N`, for paging only) none: a PDF page that starts mid-paragraph
    has its marker on the line above, which no snippet shows and no query matches."""
    markers = [m.start() for m in PAGE_MARKER_RE.finditer(text)]
    cuts = sorted(heading_starts + markers) if markers else heading_starts
    starts: list[int] = []
    ends: list[int] = []
    position = 0
    blocks = [(m.start(), m.end()) for m in _BLANK_LINES_RE.finditer(text)] + [(len(text), len(text))]
    for block_end, next_start in blocks:
        _split_at_headings(text, position, block_end, cuts, starts, ends)
        position = next_start
    if markers:
        kept = [(a, b) for a, b in zip(starts, ends) if not PAGE_MARKER_RE.fullmatch(text, a, b)]
        starts, ends = [a for a, _ in kept], [b for _, b in kept]
    return starts, ends


def _split_at_headings(
    text: str, start: int, end: int, heading_starts: list[int], starts: list[int], ends: list[int]
) -> None:
    first = bisect.bisect_left(heading_starts, start)
    last = bisect.bisect_left(heading_starts, end)
    cuts = [start]
    for heading_start in heading_starts[first:last]:
        line_end = text.find("\n", heading_start, end)
        cuts.extend((heading_start, end if line_end < 0 else line_end + 1))
    cuts.append(end)
    for a, b in zip(cuts, cuts[1:]):
        if text[a:b].strip():
            starts.append(a)
            ends.append(b)


def _snippet(text: str, passage: Passage) -> str:
    """The passage, or ~300 chars of it around its match, on one line, with … where cut."""
    start, end, offset = passage.start, passage.end, passage.match
    if end - start > SNIPPET_CHARS:
        window_start = max(start, offset - _SNIPPET_LEAD)
        window_end = min(end, window_start + SNIPPET_CHARS)
        window_start = max(start, min(window_start, window_end - SNIPPET_CHARS))
        if window_start > start:
            space = text.find(" ", window_start, offset)
            window_start = space + 1 if space >= 0 else window_start
        if window_end < end:
            space = text.rfind(" ", offset, window_end)
            window_end = space if space > offset else window_end
    else:
        window_start, window_end = start, end
    body = " ".join(text[window_start:window_end].split())
    return ("…" if window_start > start else "") + body + ("…" if window_end < end else "")
