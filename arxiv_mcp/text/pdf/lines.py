"""A page's lines as both engines report them, and which of them are in a heading font.

Both engines give the same record for a line of a page's text: the text, where it stands
(its first letter's left edge and baseline, its right end; points, from the page's lower
left corner, the page's width beside), and what its first letter is drawn in: the size as
drawn (points: the font size scaled by the text and graphics matrices), whether the font is
named bold, and whether its stem is a bold one's (pdfium's weight; pypdf's /StemV, read as
pdfium reads it). pdfium's lines are its text page's, placed by its character boxes and
styled for a sample of them (fonts.pdfium_lines); pypdf's the runs its `visitor_text`
reports up to a line end, placed by their text matrices (fonts.FontSpy). An engine hands
each page on as a `PageText` (its text, its lines, its width); `heading_fragments` reads the
lines the same way for both.

Invariants: a line's style is its first letter's, in both engines; the body is the size
(and boldness) most of a page's styled characters have, a tie going to the size seen first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .params import PARAMS

Piece = tuple[float, float, str]
"""A piece of a line as placed: its left and right edges (points from the page's left edge), its text."""


@dataclass(frozen=True, slots=True)
class Style:
    """What a line's first letter is drawn in."""

    size: float
    """Its size as drawn, in points."""
    bold: bool
    """Its font's name says bold."""
    heavy: bool
    """Its font's stem is a bold one's."""


@dataclass(slots=True)  # not frozen: a frozen one's __init__ cost 0.35 us of a line's 1.5 us in pdfium
class Line:
    """One line of a page's text as an engine gives it: where it stands, and its first letter's
    style when the engine read it (pdfium reads it for a sample of lines: see fonts)."""

    text: str
    x0: float
    """Where its first letter starts, in points from the page's left edge."""
    x1: float
    """Where it ends (pdfium: its last letter's right edge; pypdf: an estimate, its last run's
    start plus PARAMS.mean_letter_width ems per letter of that run)."""
    y: float
    """Its first letter's baseline (pdfium: the bottom of the letter's box), in points from the
    page's bottom edge."""
    style: Style | None
    pieces: list[Piece] | None = None
    """Its pieces as placed (pypdf's runs, pdfium's words), for the lines near a table's
    caption that read as rows only (see tables); None for the others."""


@dataclass(frozen=True, slots=True)
class PageText:
    """A page as an engine read it: its text, the records of its lines, and its width in points."""

    text: str
    lines: list[Line]
    width: float


def heading_fragments(lines: Sequence[Line]) -> frozenset[str]:
    """The texts of `lines` in a heading font, whitespace collapsed: bold where the body is not,
    or clearly larger than the body. A heavy stem counts as bold unless most of the text has one:
    some files give every font a bold stem (Ghostscript-made CMR12 with StemV 148, weight 732 in
    pdfium), and then only the names tell (bold CMBX12 subsections among CMR12 text)."""
    styled = [(line.text, line.style) for line in lines if line.style is not None]
    total = sum(len(text) for text, _ in styled)
    heavy = sum(len(text) for text, style in styled if style.heavy)
    by_stem = 0 < heavy * 2 <= total
    sizes: Counter[float] = Counter()
    bold_chars = 0
    for text, style in styled:
        sizes[round(style.size, 1)] += len(text)
        if style.bold or (by_stem and style.heavy):
            bold_chars += len(text)
    if not total:
        return frozenset()
    larger = sizes.most_common(1)[0][0] * PARAMS.heading_larger
    body_bold = bold_chars > total / 2
    return frozenset(
        " ".join(text.split())
        for text, style in styled
        if len(text) <= PARAMS.max_fragment
        and (style.size >= larger or (not body_bold and (style.bold or (by_stem and style.heavy))))
    )
