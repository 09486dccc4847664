"""A page's lines as both engines report them, and which of them are in a heading font.

Both engines give the same record for a line of a page's text: the text, and what its first
letter is drawn in: the size as drawn (points: the font size scaled by the text and graphics
matrices), whether the font is named bold, and whether its stem is a bold one's (pdfium's
weight; pypdf's /StemV, read as pdfium reads it). pdfium's lines are its text page's
(fonts.pdfium_lines); pypdf's the runs its `visitor_text` reports up to a line end
(fonts.FontSpy). An engine hands each page on as a `PageText` (its text and its lines);
`heading_fragments` reads the lines the same way for both.

Invariants: a line's style is its first letter's, in both engines; the body is the size
(and boldness) most of a page's characters have, a tie going to the size seen first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .params import PARAMS


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a page's text as an engine gives it, in its first letter's style."""

    text: str
    size: float
    """The first letter's size as drawn, in points."""
    bold: bool
    """Its font's name says bold."""
    heavy: bool
    """Its font's stem is a bold one's."""


@dataclass(frozen=True, slots=True)
class PageText:
    """A page as an engine read it: its text, and the records of its lines."""

    text: str
    lines: list[Line]


def heading_fragments(lines: Sequence[Line]) -> frozenset[str]:
    """The texts of `lines` in a heading font, whitespace collapsed: bold where the body is not,
    or clearly larger than the body. A heavy stem counts as bold unless most of the text has one:
    some files give every font a bold stem (Ghostscript-made CMR12 with StemV 148, weight 732 in
    pdfium), and then only the names tell (bold CMBX12 subsections among CMR12 text)."""
    total = sum(len(line.text) for line in lines)
    heavy = sum(len(line.text) for line in lines if line.heavy)
    by_stem = 0 < heavy * 2 <= total
    sizes: Counter[float] = Counter()
    bold_chars = 0
    for line in lines:
        sizes[round(line.size, 1)] += len(line.text)
        if line.bold or (by_stem and line.heavy):
            bold_chars += len(line.text)
    if not total:
        return frozenset()
    larger = sizes.most_common(1)[0][0] * PARAMS.heading_larger
    body_bold = bold_chars > total / 2
    return frozenset(
        " ".join(line.text.split())
        for line in lines
        if len(line.text) <= PARAMS.max_fragment
        and (line.size >= larger or (not body_bold and (line.bold or (by_stem and line.heavy))))
    )
