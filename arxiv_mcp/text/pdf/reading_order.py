"""Reading order from where a page's lines stand: the floats and footnotes that interrupt a
paragraph moved out of it.

The engines already give a TeX page in a good order (column by column, each top to bottom):
a sort by position would break it more often than mend it. What they give out of a reader's
order is what the page sets between the two halves of a paragraph that runs from the foot of
one column to the head of the next (or of the next page): the first column's footnotes, then
a float (figure or table) at the head of the next column ("... deep networks, trans-" /
"1 Counted by hand." / "Figure 1: Herds ..." / "formers trained on ..."). A reader skips
those, and so does this pass: such a run is moved out, its captions to the end of the
paragraph, its footnotes to the end of the page's text.

The page's lines are placed (`placed`: each text line matched to the engine's line record,
lines.Line, once; the tables read the same matching), and the run is told from positions:
- the paragraph is open where the run starts: the line before it is a full one (a line
  shorter than `short` characters, or a heading, ends its paragraph);
- the run opens with a caption, a footnote's mark, or a figure's own words (short lines);
- the paragraph visibly goes on after the run: a line that starts a new block (its baseline
  is no regular step below the line before it, or it stands in another column), at its
  column's left edge (not indented, so no paragraph's first line), in lower case;
- the resumed paragraph ends at a short line, a blank line or heading, or before an indented
  line (the next paragraph's first).

Invariants: lines are only moved, never changed, added or dropped (but blank lines around a
moved run); a run never spans a heading or a page marker (layout.Marked), and nothing moves past
the page's end; a run is moved only when the paragraph is seen to resume within
PARAMS.max_run lines, right after the run; a page with no line records (or none matching)
is left as it is. Every threshold is in params.LayoutParams.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import cached_property
from statistics import median

from .layout import Marked
from .lines import Line
from .params import PARAMS
from .sentences import ends_with_stop

# A footnote's mark: a number or a symbol (a daggers' pair for the second round of marks)
FOOTNOTE_MARK = re.compile(r"\d{1,2}|[\u2217*\u2020\u2021\u00a7\u00b6]{1,2}")
# A footnote's first line: its mark (perhaps raised and so glued to the word) and a
# capitalised word: "7 The Lemaître–Tolman model ...", "∗Corresponding author".
FOOTNOTE_START = re.compile(
    rf"(?:{FOOTNOTE_MARK.pattern}) ?[A-Z][a-z\u00df-\u00ff]+(?=[\s,.;:)\u2013-])"
)  # a capitalised word, not a unit ("1 GeV/c µ+ is ...")
_GOES_ON = re.compile(r"[a-z\u00df-\u00ff]{2,}\b|a\s")  # a sentence's words go on (not a table's "n ℓ a")


def may_name_label(text: str) -> bool:
    """Whether `text` holds a caption label's word at all (asked before the caption grammar,
    which is dearer): most lines do not, and are out at once."""
    return "Fig" in text or "Tab" in text or "FIG" in text or "TAB" in text


IsCaption = Callable[[list[str], int], bool]


def placed(lines: Sequence[str], records: Sequence[Line]) -> list[Line | None]:
    """Each of a page's text `lines` with the engine's record of it (lines.Line), None where
    none matches: the one matching of text and records, which this pass and the tables read.

    The text lines are the records' texts tidied (white space, hyphens mended, scripts
    joined, furniture out, headings marked, ligatures resolved), mostly in the same order: a
    line is matched to a record whose first PARAMS.place_key letters it shares, or its last
    few (a hyphen mended moved its first word up: "der SU(3) flavor ..." is the record of
    "SU(3) flavor ...", not the table's row "SU(3) flavor [5] ..." further on), the first
    such after the record of the last line placed (else the first such not matched yet: an
    engine may give a figure's labels apart). Each record is matched once."""
    key = PARAMS.place_key
    head_keys = [_head(record.text, key) for record in records]
    heads = _indexes(head_keys)
    tails = _indexes(_tail(record.text, key) for record in records)
    used: set[int] = set()
    out: list[Line | None] = []
    last = -1
    for line in lines:
        found = None
        if line:
            head = _head(line.lstrip("#\\ "), key)
            following = last + 1
            if following < len(records) and head_keys[following] == head and following not in used:
                found = following  # most lines: the next record, which no other match comes before
            else:
                by_head = _match(heads.get(head), used, last)
                found = _first_after(last, by_head, _match(tails.get(_tail(line, key)), used, last))
        if found is not None:
            used.add(found)
            last = found
        out.append(None if found is None else records[found])
    return out


def _first_after(last: int, *found: int | None) -> int | None:
    """Of the records `found`, the first after `last`, else the first one found."""
    after = [index for index in found if index is not None and index > last]
    return min(after) if after else next((index for index in found if index is not None), None)


def _indexes(keys: Iterable[str]) -> dict[str, list[int]]:
    by_key: dict[str, list[int]] = {}
    for index, key in enumerate(keys):
        by_key.setdefault(key, []).append(index)
    return by_key


def _match(indexes: list[int] | None, used: set[int], last: int) -> int | None:
    """The first of `indexes` not yet matched after `last`, else the first one not yet
    matched. The matched ones at the list's head are dropped from it (each once): a key many
    records share ("+", a table's "0.") is not scanned from its start again for every line."""
    if not indexes:
        return None
    head = 0
    while head < len(indexes) and indexes[head] in used:
        head += 1
    del indexes[:head]
    for at in range(bisect_right(indexes, last), len(indexes)):
        if indexes[at] not in used:
            return indexes[at]
    return indexes[0] if indexes else None


# A text's first and last few letters, spaces aside and compatibility forms composed (an
# engine's record keeps the ligatures and the accents apart that its tidied text resolved):
# a slice of each end is looked at, not the whole text (this runs on every line of a page).
def _head(text: str, key: int) -> str:
    return _composed(text[: 2 * key].replace(" ", ""))[:key]


def _tail(text: str, key: int) -> str:
    return _composed(text[-2 * key :].replace(" ", ""))[-key:]


def _composed(text: str) -> str:
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


class _Page:
    """A page's lines, their records, and what the records say of its columns and where each
    line stands (found when first asked: most suspected runs are told apart by their text alone)."""

    def __init__(self, lines: list[str], given: Sequence[str], records: Sequence[Line], short: int) -> None:
        self.lines = lines
        self.given = given  # the lines as given: none moved, while `lines` are
        self.records = records
        self.short = short
        self.marks: tuple[list[int], list[int]] | None = None  # see _marks

    @cached_property
    def places(self) -> list[Line | None]:
        """Each line's record (see placed), moved with it."""
        return placed(self.given, self.records)

    @cached_property
    def _full(self) -> list[Line]:
        # a paragraph's full lines tell the columns' edges and the step between lines (a
        # figure's labels, many on a page of plots, start and step anyhow)
        return [record for record in self.records if len(record.text) >= self.short]

    @cached_property
    def lefts(self) -> list[int]:
        counts = Counter(round(record.x0) for record in self._full)
        return sorted(x for x, count in counts.items() if count >= PARAMS.column_lines)

    @cached_property
    def rights(self) -> dict[float, float]:
        ends: dict[float, list[float]] = {}
        for record in self._full:
            margin = self.margin(record)
            if margin is not None:
                ends.setdefault(margin, []).append(record.x1)
        return {margin: median(x1s) for margin, x1s in ends.items()}

    @cached_property
    def step(self) -> float:
        full = self._full
        steps = Counter(
            round(a.y - b.y)
            for a, b in zip(full, full[1:])
            if a.y > b.y and abs(a.x0 - b.x0) < 1  # the commonest: a paragraph's, not a table's
        )
        step, seen = steps.most_common(1)[0] if steps else (0, 0)
        return float(step) if seen >= PARAMS.column_lines else _step_by_size(self.records)

    def margin(self, place: Line) -> float | None:
        """The left edge of the column `place` stands in (None when no column is seen there)."""
        edges = [x for x in self.lefts if x <= place.x0 + PARAMS.indent]
        return edges[-1] if edges else None

    def indent(self, index: int) -> float | None:
        """How far right of its column's left edge line `index` starts (None: not placed, or
        in no column): under PARAMS.indent flush left, up to PARAMS.max_indent a paragraph's
        first line, indented."""
        place = self.places[index]
        margin = None if place is None else self.margin(place)
        return None if place is None or margin is None else place.x0 - margin

    def flush_left(self, index: int) -> bool:
        indent = self.indent(index)
        return indent is not None and indent < PARAMS.indent

    def indented(self, index: int) -> bool:
        indent = self.indent(index)
        return indent is not None and PARAMS.indent <= indent <= PARAMS.max_indent

    def breaks(self, before: int, index: int) -> bool:
        """Line `index` starts a new block after line `before` (or the nearest placed line
        before it): its baseline is no regular step below (a gap, a jump up to another
        column's head), or it stands in another column. An unplaced line starts none."""
        b = self.places[index]
        a = next((place for place in reversed(self.places[: before + 1]) if place is not None), None)
        if a is None or b is None or not self.step or _one_line(a, b, self.step):
            return False  # unknown, or the rest of the printed line a raised script cut
        return _apart(a, b, self.step) or abs(a.x0 - b.x0) > PARAMS.max_indent

    def ends_short(self, index: int, short: int) -> bool:
        """Line `index` ends its paragraph: shorter than `short` characters, and (where it is
        placed) ending short of its column's right edge, so no raised script cut it in two."""
        if len(self.lines[index]) >= short:
            return False
        place = self.places[index]
        margin = None if place is None else self.margin(place)
        right = None if margin is None else self.rights.get(margin)
        return place is None or right is None or place.x1 < right - self.step  # a word or more short

    def one_line(self, before: int, index: int) -> bool:
        """Lines `before` and `index` are the two parts of one printed line (a raised script
        between them): `index` starts right of where `before` ends, on about its baseline."""
        a, b = self.places[before], self.places[index]
        return a is not None and b is not None and _one_line(a, b, self.step)

    def starts_block(self, index: int, since: int) -> bool:
        """Line `index` starts a new block among the lines from `since` on: the nearest placed
        line above it in its column is no regular step above, or there is none."""
        below = self.places[index]
        if below is None or not self.step:
            return False
        for other in range(index - 1, since - 1, -1):
            above = self.places[other]
            if above is None:
                if self.lines[other]:
                    return False  # a line between unplaced: no gap is seen
                continue
            if abs(above.x0 - below.x0) <= PARAMS.max_indent and above.y > below.y:
                return _apart(above, below, self.step)
        return True


def _apart(above: Line, below: Line, step: float) -> bool:
    """`below` starts a new block under the line `above` it: its baseline is no regular step
    (PARAMS.block_gap of `step`) under the other's (a gap, a jump up to another column's head)."""
    return not 0 < above.y - below.y < PARAMS.block_gap * step


def _one_line(a: Line, b: Line, step: float) -> bool:
    """`b` goes on `a`'s printed line: it starts about where `a` ends (a subscript stacked
    under a superscript starts where the superscript does), on about its baseline."""
    return b.x0 >= a.x1 - step / 2 and abs(a.y - b.y) < step / 2


def _step_by_size(records: Sequence[Line]) -> float:
    """The step between a paragraph's lines, from the size most of the page's text is drawn in
    (for a page of few full lines: a float, a table)."""
    sizes = Counter(round(record.style.size) for record in records if record.style is not None)
    return PARAMS.line_step * sizes.most_common(1)[0][0] if sizes else 0.0


def reading_order(
    lines: list[str], records: Sequence[Line], short: int, is_caption: IsCaption, continued: bool = False
) -> tuple[list[str], list[Line | None]]:
    """A page's `lines` with each interrupting run of captions and footnotes moved out (see
    above), and the record of each of those lines (see placed: None for a blank line put in).

    `records`: the engine's lines of the page; `short`: a line shorter than this ends its
    paragraph; `is_caption(lines, i)`: whether line i opens a figure's or a table's caption;
    `continued`: the page before ended inside a paragraph, which this page's first text may
    go on (when it does not start with a float).
    """
    out = list(lines)
    if not records or not _may_hold_run(out):
        return out, _unmoved_places(out, records)
    page: _Page | None = None  # what the records say of the page: asked when a run is first suspected
    index = 0
    before = -1  # the last line with text before `index`
    while index < len(out):
        line = out[index]
        # the cheap tests first: most lines follow one that ends its paragraph, or go on it
        if line and not isinstance(line, Marked) and (before >= 0 or continued):
            interrupted = out[before] if before >= 0 else ""
            # a heading or a short line ends its paragraph; whether a full one did, the
            # positions after the run tell (a paragraph's first line is indented: _resumes)
            if (before < 0 or not (isinstance(interrupted, Marked) or len(interrupted) < short)) and _may_open(
                line, short
            ):
                if page is None:
                    page = _Page(out, lines, records, short)
                moved = _move_run(out, page, before, index, short, is_caption)
                if moved is not None:
                    index = moved
                    before = next((i for i in range(index - 1, -1, -1) if out[i]), -1)
                    continue
        if line:
            before = index
        index += 1
    if page is not None and "places" in vars(page):  # placed for a run (else none moved: see _move_run)
        return out, page.places
    return out, _unmoved_places(out, records)


def _unmoved_places(lines: list[str], records: Sequence[Line]) -> list[Line | None]:
    """The records of a page's lines none of which moved: placed for a table's pieces only
    (tables.place_pieces), and only when there are some."""
    return placed(lines, records) if any(record.pieces for record in records) else [None] * len(lines)


_MARKS = frozenset("0123456789\u2217*\u2020\u2021\u00a7\u00b6")  # a footnote's mark's first character


def _may_hold_run(lines: list[str]) -> bool:
    """A run needs a caption or a footnote to open it (a figure's words need a caption after
    them): a page with neither, most, is told from its text at once."""
    if may_name_label("\n".join(lines)):
        return True
    return any(line[:1] in _MARKS and FOOTNOTE_START.match(line) for line in lines)


def _marks(out: list[str], page: _Page, is_caption: IsCaption) -> tuple[list[int], list[int]]:
    """The page's captions and headings, and the lines a paragraph may go on in (full ones,
    in lower case), found once from the text (until a move)."""
    if page.marks is None:
        stops: list[int] = []
        resumable: list[int] = []
        for index, line in enumerate(out):
            if isinstance(line, Marked) or (may_name_label(line) and is_caption(out, index)):
                stops.append(index)
            if len(line) >= page.short and _GOES_ON.match(line):
                resumable.append(index)
        page.marks = stops, resumable
    return page.marks


def _caption_ahead(out: list[str], page: _Page, start: int, is_caption: IsCaption) -> bool:
    """A caption opens within PARAMS.max_run lines after `start`, before any heading."""
    stops = _marks(out, page, is_caption)[0]
    after = bisect_right(stops, start)
    return after < len(stops) and stops[after] < start + PARAMS.max_run and not isinstance(out[stops[after]], Marked)


def _may_resume(out: list[str], page: _Page, start: int, is_caption: IsCaption) -> bool:
    """The text allows a paragraph to go on after `start`: a full line in lower case within
    PARAMS.max_run lines, before any heading (the positions, dearer, are asked only then)."""
    stops, resumable = _marks(out, page, is_caption)
    after = bisect_right(resumable, start)
    if after == len(resumable) or resumable[after] >= start + PARAMS.max_run:
        return False
    heading = next((i for i in stops[bisect_right(stops, start) :] if isinstance(out[i], Marked)), len(out))
    return resumable[after] < heading


def _may_open(line: str, short: int) -> bool:
    """A run may start here: a footnote's mark, a caption's label word, or a figure's word."""
    return bool(FOOTNOTE_START.match(line)) or may_name_label(line) or _debris(line, short)


def _debris(line: str, short: int) -> bool:
    """A short line that is not a sentence going on: a figure's own words ("Scattering angle (deg)")."""
    return len(line) < short and not _GOES_ON.match(line)


def _move_run(out: list[str], page: _Page, before: int, start: int, short: int, is_caption: IsCaption) -> int | None:
    """Moves the run starting at `start` (after line `before`), if one does; returns where to look next."""
    line = out[start]
    opens = bool(FOOTNOTE_START.match(line)) or is_caption(out, start)
    if not opens and not (_debris(line, short) and _caption_ahead(out, page, start, is_caption)):
        return None  # a run of a figure's own words must hold its caption (display math holds none)
    if not _may_resume(out, page, start, is_caption):
        return None
    if before >= 0 and not page.breaks(before, start):
        return None  # the line goes on the block of the one before: no run starts here
    found = _resumes(out, page, start, short, is_caption)
    if found is None or not (opens or found[1]):
        return None  # a run of a figure's own words must hold its caption
    resume = found[0]
    first, resumed = page.places[start], page.places[resume]
    if not found[1] and (first is None or resumed is None or first.y > resumed.y):
        return None  # footnotes alone stand at the foot of a page, below where the paragraph goes on
    end = _paragraph_end(out, page, resume, short)
    captions, footnotes = _parts(out, page, start, resume, is_caption)
    # the page from `before` on, as indexes of its lines (None: a blank line put between parts)
    rebuilt: list[int | None] = [*range(resume, end), None, *captions, None, *range(end, len(out))]
    if footnotes:
        rebuilt += [None, *footnotes]
    rebuilt = _single_blanks(rebuilt, out)
    if not out[-1]:
        rebuilt.append(None)  # a page's last blank line separates it from the next
    out[before + 1 :] = ["" if index is None else out[index] for index in rebuilt]
    page.places[before + 1 :] = [None if index is None else page.places[index] for index in rebuilt]
    page.marks = None
    return before + 1 + (end - resume)


def _resumes(out: list[str], page: _Page, start: int, short: int, is_caption: IsCaption) -> tuple[int, bool] | None:
    """The line where the interrupted paragraph goes on (see above), and whether a caption came
    before it; None when a block starts after the run that neither goes on nor opens another
    caption or footnote nor is a figure's word (the run was the start of something else)."""
    # the float's caption is passed: its block is the run's last; `low` is its lowest baseline
    captioned = is_caption(out, start)
    low = _baseline(page, start) if captioned else None
    for index in range(start + 1, min(len(out), start + PARAMS.max_run)):
        line = out[index]
        if not line:
            continue
        if isinstance(line, Marked):
            return None
        if captioned and not _GOES_ON.match(line) and not page.flush_left(index):
            if _below_gap(page, index, low) and not (is_caption(out, index) or FOOTNOTE_START.match(line)):
                return None  # a block after the caption, set off its column's edge (display math)
        if not captioned and may_name_label(line) and is_caption(out, index):
            captioned, low = True, None
        if captioned:
            y = _baseline(page, index)
            low = y if low is None or (y is not None and y < low) else low
        if len(line) < short:
            continue  # neither the paragraph going on nor another (the cheap test first)
        previous = out[index - 1]
        stop = not previous or ends_with_stop(previous)
        goes_on = _GOES_ON.match(line) is not None
        # the text's tests first: a line that neither goes on in lower case nor follows a
        # stop can be neither the paragraph going on nor another one
        if not (goes_on or stop) or page.one_line(index - 1, index):
            continue  # (or it is the rest of a printed line a raised script cut)
        if goes_on and page.flush_left(index) and (stop or page.starts_block(index, start)):
            return index, any(is_caption(out, i) for i in range(start, index + 1))  # asked once, here
        if (
            stop
            and (page.flush_left(index) or page.indented(index))
            and not (is_caption(out, index) or FOOTNOTE_START.match(line))
            and page.starts_block(index, start)
        ):
            return None  # a paragraph that does not go on the interrupted one: the run was no float
    return None


def _baseline(page: _Page, index: int) -> float | None:
    place = page.places[index]
    return None if place is None else place.y


def _below_gap(page: _Page, index: int, low: float | None) -> bool:
    """Line `index` stands a block's gap below `low` (the lowest baseline of the caption's
    lines so far): a caption's scripts, set apart from its lines (stacked over one another,
    anywhere along the line), stand within its lines' band."""
    y = _baseline(page, index)
    return y is not None and low is not None and y < low - PARAMS.block_gap * page.step


def _paragraph_end(out: list[str], page: _Page, resume: int, short: int) -> int:
    """The index just past the resumed paragraph's last line: the line before a blank line, a
    heading or an indented line (the next paragraph's first), or a short line not followed by
    the rest of its own line (a script raised off the baseline cuts a line in two)."""
    for index in range(resume + 1, min(len(out), resume + PARAMS.max_paragraph)):
        line = out[index]
        if not line or isinstance(line, Marked) or page.indented(index):
            return index
        if page.ends_short(index - 1, short) and not page.one_line(index - 1, index):
            return index
    return min(len(out), resume + PARAMS.max_paragraph)


def _parts(out: list[str], page: _Page, start: int, resume: int, is_caption: IsCaption) -> tuple[list[int], list[int]]:
    """The indexes of the run's caption lines and footnote lines, each part with the lines
    that go on it (-1 between two of a part's blocks, and where the run had a blank line)."""
    captions: list[int] = []
    footnotes: list[int] = []
    current = footnotes if FOOTNOTE_START.match(out[start]) else captions  # a figure's words go with its caption
    last: Line | None = None
    for index in range(start, resume):
        line = out[index]
        if not line:
            current.append(-1)  # a block's end kept, whichever part it ends
            continue
        if is_caption(out, index):
            current = captions
        elif FOOTNOTE_START.match(line) and (index == start or not out[index - 1] or _opens(page, last, index)):
            current = footnotes
        else:
            current.append(index)
            last = page.places[index] or last
            continue
        if current:
            current.append(-1)
        current.append(index)
        last = page.places[index] or last
    return captions, footnotes


def _opens(page: _Page, above: Line | None, index: int) -> bool:
    """Line `index` stands apart from the line `above` it, or where is not known (a
    footnote's first line, not the next line of the one above)."""
    below = page.places[index]
    return above is None or below is None or not page.step or _apart(above, below, page.step)


def _single_blanks(indexes: list[int | None], out: list[str]) -> list[int | None]:
    """`indexes` with blank lines (None, -1, a blank line's own) made one each time they run
    together, and none first or last."""
    kept: list[int | None] = []
    for index in indexes:
        blank = index is None or index < 0 or not out[index]
        if not blank:
            kept.append(index)
        elif kept and kept[-1] is not None:
            kept.append(None)
    while kept and kept[-1] is None:
        kept.pop()
    return kept
