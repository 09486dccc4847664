"""A PDF table's rows as cells in columns, from where the engine placed their pieces.

A table's lines are those that read as rows (`reads_as_row`) right under its caption or,
for a caption under its table, right over it (`structure` chooses). Each engine keeps the
pieces of such lines within PARAMS.max_table_rows lines of a table's caption
(`near_captions`) as placed (lines.Line `pieces`): pypdf's text runs, each where its text
matrix puts it, its end estimated letter by letter (`measured`); pdfium's words, each from
its first letter's left edge to its last letter's right edge (`pdfium_pieces`: two
character boxes a word, asked for those lines only).

A row's pieces are one cell unless the engine's text puts a space between them and they
stand farther apart than the table's cell gap: a share more than its narrow gaps (a space,
a sign's in maths), within PARAMS.cell_gap; a pypdf run the text alone splits (numbers
apart: "4.600 566.9 5", its inner gaps unknown) is split so. The columns are the stretches
the cells cover, the rows of most cells first (a cell over two columns spans them and
widens none); a column one row alone uses joins its nearer neighbour. A row of as many
cells as columns has a cell a column, in order; every other row's cells go to the column
they overlap most (nearest, when none; a row's only cell, a sub-header, to the first it
overlaps), two in one column joined, a column a row leaves empty an empty cell. The result
is approximate (a spanning cell stands in one column), and a table whose rows the engine
did not place keeps the cells its text tells (`text_cells`).

Invariant: a line's pieces are its record's, the one reading_order.placed matched it to
(the one matching of the engine's text and its line records), when that record holds the
whole line; the line carries them (PlacedLine), so that structure reads them from the line
it reads, never looking a line up again by its text. A pass that changes a line's text
makes it a new line, which carries none.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections.abc import Iterator, Sequence
from typing import Any

from .. import labels
from .glyphs import utf16_length
from .lines import Line, Piece
from .params import PARAMS

_TABLE_CAPTION = re.compile(rf"\s*(?:{labels.TABLE_PRINTED})\s?{labels.PRINTED_NUMBER}\b")


def opens_table(text: str) -> bool:
    """Whether a line of an engine's text may open a table's caption (`Table 2`, `TABLE IV`):
    the pieces of the lines near it are worth keeping. `structure` says which caption is one."""
    return text[:8].lstrip()[:3] in ("Tab", "TAB") and _TABLE_CAPTION.match(text) is not None


_CAPITALS = frozenset(
    chr(code)
    for low, high in ((0x41, 0x5A), (0xC0, 0xDE), (0x391, 0x3A9), (0x410, 0x42F))
    for code in range(low, high + 1)
)


@functools.lru_cache(maxsize=4096)  # each line is asked about with both its neighbours
def looks_tabular(line: str) -> bool:
    """Most of its words capitalised or numbers: a table's header or row, not a sentence
    (nor a line of a paragraph: structure joins none to the next).

    A word counts by its first character: a letter or digit (an underscore or a symbol
    starts no word); a small one is a letter, not a digit nor a capital (Latin, Greek,
    Cyrillic). Looked at word by word: two patterns with a lookbehind tried at every
    character of every line cost more than the rest of writing the line."""
    words = small = 0
    tokens = line.split()
    for word in tokens:
        first = word[0]
        if first.isalnum():
            words += 1
            if not (first.isdecimal() or first in _CAPITALS):
                small += 1
                if small * 2 >= len(tokens):  # a sentence: no count of words to come can change that
                    return False
    return words > 0 and small * 2 < words


def near_captions(texts: Sequence[str]) -> list[bool]:
    """For each of a page's lines, whether it is within PARAMS.max_table_rows lines of a
    table's caption (above it: the caption under its table; below: over it) and reads as a
    row of two words or more: the lines whose pieces are kept."""
    near = [False] * len(texts)
    for index, text in enumerate(texts):
        if opens_table(text):
            for other in range(
                max(0, index - PARAMS.max_table_rows), min(len(texts), index + PARAMS.max_table_rows + 1)
            ):
                near[other] = True
    # a line of one word is one cell wherever it stands: its place is not asked
    return (
        [close and " " in text.strip() and reads_as_row(text) for close, text in zip(near, texts)]
        if any(near)
        else near
    )


def reads_as_row(line: str) -> bool:
    """Whether a line next to a table's caption reads as one of its rows: mostly numbers, a
    few words without a full stop, or looks_tabular; a sentence does not."""
    words = line.split()
    numeric = sum(any(ch.isdigit() for ch in word) for word in words)
    return numeric * 3 >= len(words) or (len(words) <= 6 and not line.endswith(".")) or looks_tabular(line)


def pdfium_pieces(ends: Any, textpage: Any, line: str, first: int, simple: bool) -> list[Piece]:
    """The words of a pdfium line as placed: `ends(textpage, i, j)` gives pdfium's boxes of
    characters i and j (pdfium_compat.CharCalls.ends), `first` the index of the line's first
    character, `simple` whether each character is one UTF-16 unit (else indexes are counted
    in units). A word's piece holds the white space before it."""
    pieces: list[Piece] = []
    after = 0  # where the last word placed ended
    for word in _WORD.finditer(line):
        start, end = word.start(), word.end()
        if simple:
            head, tail = ends(textpage, first + start, first + end - 1)
        else:
            head, tail = ends(textpage, first + utf16_length(line[:start]), first + utf16_length(line[:end]) - 1)
        if head is not None and tail is not None:
            pieces.append((head[0], tail[1], line[after:end]))
            after = end
    return pieces


_WORD = re.compile(r"\S+")


def measured(pieces: list[Piece], size: float) -> list[Piece]:
    """pypdf's runs of a line in a font of `size`, each one's end estimated again letter by
    letter (PARAMS.run_widths): asked for the lines kept only."""
    capital, letter, narrow = (width * size for width in PARAMS.run_widths)
    out: list[Piece] = []
    for x0, _, text in pieces:
        body = text.rstrip()
        wide = sum(ch.isupper() for ch in body)
        thin = sum(ch in _NARROW for ch in body)
        out.append((x0, x0 + wide * capital + thin * narrow + (len(body) - wide - thin) * letter, text))
    return out


_NARROW = frozenset(" .,;:'()[]|!ilj")


class PlacedLine(str):
    """A line of the text near a table's caption, with its pieces as the engine placed them."""

    __slots__ = ("pieces",)
    pieces: list[Piece]

    def __new__(cls, text: str, pieces: list[Piece]) -> PlacedLine:
        line = super().__new__(cls, text)
        line.pieces = pieces
        return line


def place_pieces(lines: list[str], places: Sequence[Line | None]) -> None:
    """Makes each of a page's `lines` whose record the engine placed (those near a table's
    caption; `places`: each line's record, reading_order.placed) a PlacedLine with its
    record's pieces, when the record holds all of it (a line the engine's text joined of
    several records, a raised script's, would get some of its cells); a line of the same
    text as one placed, with the first such line's pieces (a table's row again, a header)."""
    found: dict[str, list[Piece]] = {}
    for line, place in zip(lines, places):
        if place is not None and place.pieces is not None and len(place.pieces) > 1 and _same(line, place.text):
            found.setdefault(line, place.pieces)
    for index, line in enumerate(lines) if found else ():
        if line in found:
            lines[index] = PlacedLine(line, found[line])


def pieces_of(line: str) -> list[Piece] | None:
    """A line's pieces as the engine placed them (None: not placed, see PlacedLine)."""
    return line.pieces if isinstance(line, PlacedLine) else None


def _same(line: str, record: str) -> bool:
    """Whether a line of the engine's text is its record's text tidied: the same with white
    space out and compatibility forms composed (NFKC: ligatures, accents), and an escaped `#`
    (shape.escape_line) read as it."""
    key = "".join(unicodedata.normalize("NFKC", line).split())
    return (key[1:] if key.startswith("\\#") else key) == "".join(unicodedata.normalize("NFKC", record).split())


def _gaps(pieces: Sequence[Piece]) -> Iterator[float]:
    """The gaps before the row's pieces the engine's text puts a space before."""
    right = pieces[0][1]
    for x0, x1, text in pieces[1:]:
        if text[:1].isspace():
            yield x0 - right
        right = max(right, x1)


def placed_apart(pieces: Sequence[Piece] | None) -> bool:
    """Whether a line's pieces (None: not placed) stand as a table's row: two of them farther
    apart than any cell gap (PARAMS.cell_gap), which a sentence's spaces never are."""
    return pieces is not None and any(gap > PARAMS.cell_gap[1] for gap in _gaps(pieces))


def _cell_gap(rows: Sequence[Sequence[Piece]]) -> float:
    """How far apart two pieces of the table's rows stand at least to be two cells: a share
    more than the lower quartile of the gaps (a space, when cells hold words or signs: "5.5 ±
    1.2"), within bounds (a table set tight, or of numbers alone, has none wider)."""
    gaps = sorted(gap for row in rows if row for gap in _gaps(row))
    quartile = gaps[len(gaps) // 4] if gaps else PARAMS.cell_gap[1]
    low, high = PARAMS.cell_gap
    return min(high, max(low, quartile * PARAMS.cell_gap_share))


def text_cells(line: str) -> tuple[str, ...]:
    """A row's cells as its text alone tells them: each number apart, the words between
    numbers together."""
    cells: list[str] = []
    words: list[str] = []
    for token in line.split():
        if any(ch.isdigit() for ch in token) and not token[:1].isalpha():
            if words:
                cells.append(" ".join(words))
                words = []
            cells.append(token)
        else:
            words.append(token)
    if words:
        cells.append(" ".join(words))
    return tuple(cells)


def _cells(pieces: Sequence[Piece], gap: float) -> list[Piece]:
    """The row's pieces, in the engine's order, joined unless the engine's text puts a space
    between them and they stand more than `gap` apart. A piece the text alone splits (a
    pypdf run over several cells: "4.600 566.9 5", its gaps unknown) is split so, each part
    placed by its share of the piece's letters."""
    cells: list[Piece] = []
    for x0, x1, text in pieces:
        parts = text_cells(text) if " " in text.strip() else ()
        if len(parts) > 1:
            cells.extend(_spread(x0, x1, parts))
        elif cells and not (text[:1].isspace() and x0 - cells[-1][1] > gap):
            last = cells[-1]
            cells[-1] = (last[0], max(last[1], x1), last[2] + text)
        elif text.strip():
            cells.append((x0, x1, text))
    return [(x0, x1, " ".join(text.split())) for x0, x1, text in cells]


def _spread(x0: float, x1: float, parts: Sequence[str]) -> Iterator[Piece]:
    letters = sum(len(part) + 1 for part in parts)
    per = (x1 - x0) / letters
    for part in parts:
        yield x0, x0 + len(part) * per, part
        x0 += (len(part) + 1) * per


def _columns(rows: list[list[Piece]]) -> list[tuple[float, float]]:
    """The stretches the rows' cells cover, the rows of most cells first: a cell overlapping
    one column widens it, one overlapping none makes a new one, one overlapping more spans
    them and changes none. Left to right."""
    columns: list[tuple[float, float]] = []
    for row in sorted(rows, key=len, reverse=True):
        for x0, x1, _ in row:
            hit = [i for i, (left, right) in enumerate(columns) if x0 < right and left < x1]
            if not hit:
                columns.append((x0, x1))
            elif len(hit) == 1:
                left, right = columns[hit[0]]
                columns[hit[0]] = (min(left, x0), max(right, x1))
        columns.sort()
    return columns


def _merged_sparse(columns: list[tuple[float, float]], rows: list[list[Piece]]) -> list[tuple[float, float]]:
    """The columns, each one row alone has a cell in (of four rows or more: a cell one row's
    engine split, "BBH" and its "(EM)") joined to its nearer neighbour."""
    least = 2 if len(rows) >= 4 else 0
    while len(columns) > 2:
        support = [0] * len(columns)
        for row in rows:
            for index in {_column_of(cell, columns) for cell in row}:
                support[index] += 1
        sparse = min(range(len(columns)), key=support.__getitem__)
        if support[sparse] >= least:
            break
        left = columns[sparse][0] - columns[sparse - 1][1] if sparse else math.inf
        right = columns[sparse + 1][0] - columns[sparse][1] if sparse + 1 < len(columns) else math.inf
        other = sparse - 1 if left <= right else sparse + 1
        low, high = sorted((sparse, other))
        columns[low : high + 1] = [(columns[low][0], max(columns[low][1], columns[high][1]))]
    return columns


def _column_of(cell: Piece, columns: list[tuple[float, float]], alone: bool = False) -> int:
    """The column `cell` overlaps most (the first it overlaps when `alone`, its row's only
    cell: a sub-header over the table stands in the column where it starts), else the nearest."""
    x0, x1, _ = cell
    overlaps = [min(x1, right) - max(x0, left) for left, right in columns]
    best = max(range(len(columns)), key=overlaps.__getitem__)
    if alone and overlaps[best] > 0:
        return next(index for index, overlap in enumerate(overlaps) if overlap > 0)
    if overlaps[best] > 0:
        return best
    middle = (x0 + x1) / 2
    return min(range(len(columns)), key=lambda i: abs((columns[i][0] + columns[i][1]) / 2 - middle))


def placed_rows(rows: list[list[Piece] | None]) -> list[tuple[str, ...] | None]:
    """Each row placed (its pieces; None: not placed) as its cells in the table's columns,
    as many in every row (None for a row not placed); all None when the placed rows make
    fewer than two columns (a row placed alone makes its own)."""
    gap = _cell_gap([row for row in rows if row])
    cells = [None if not row else _cells(row, gap) for row in rows]
    placed = [row for row in cells if row]
    columns = _merged_sparse(_columns(placed), placed)
    if len(columns) < 2:
        return [None] * len(rows)
    out: list[tuple[str, ...] | None] = []
    for row in cells:
        if not row:
            out.append(None)
            continue
        if len(row) == len(columns):  # a full row: a cell a column, in order, wherever it stands
            out.append(tuple(cell[2] for cell in row))
            continue
        texts: list[list[str]] = [[] for _ in columns]
        for cell in row:
            texts[_column_of(cell, columns, len(row) == 1)].append(cell[2])
        out.append(tuple(" ".join(parts) for parts in texts))
    return out
