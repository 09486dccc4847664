"""Every threshold of the PDF line-and-block model, in one record (as pdfminer.six's LAParams).

Sizes are in the PDF's points or in ems of the character's font size; lengths of lines in
characters; spans in lines. The passes read them from `PARAMS` and hold no number of their
own, so a threshold is changed (and fenced: benchmarks/text_quality.py, structure_pdf.py,
doc_hashes.py) in one place, and a benchmark may try another record.

Invariant: the values are today's, each with the reason it has its size; the record is
frozen, shared by every page and thread.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LayoutParams:
    # --- fonts: what a heading font is (fonts) ---
    heading_larger: float = 1.12
    """A heading font is at least this much larger than the body's (or bold)."""
    bold_weight: int = 550
    """pdfium's weight for TeX's bold (CMBX) is 585; the regular weight 400 or less."""
    max_fragment: int = 120
    """Longer texts are body lines, never headings."""
    body_sample: int = 3
    """pdfium's body size and weight are read from every this many lines (and every heading-like one)."""
    max_space_width: int = 400
    """A code-32 width of this many thousandths of an em or more is no proportional font's space."""
    mean_letter_width: float = 0.44
    """pypdf's runs come without widths: a run is taken to be this many ems per letter (space
    included) long, the mean that puts its lines' ends nearest pdfium's on three papers."""

    # --- characters: where pdfium puts them (glyphs) ---
    char_search: int = 12
    """How far from where the text puts it a character is looked for among pdfium's."""
    accent_reach: float = 1.5
    """How far past an accent's edge (in its heights) its letter is looked for."""
    char_tolerance: float = 0.5
    """How far across (points) pdfium may look for that letter when no box holds the point."""
    code_pitch: float = 1.1
    """Fixed-pitch characters whose origins are closer than this (em) are one word's."""
    script_line: int = 4
    """Characters of a line of an inline super- or subscript at most ("3,∞")."""
    script_neighbour: int = 8
    """An inline script has a line longer than this next to it (else: display math)."""
    script_smaller: float = 0.9
    """A script is set in a size under this much of its line's."""
    script_reach: tuple[float, float] = (1.0, 2.0)
    """How far (em) a script's line goes on to its right: inline, stacked on another script."""
    script_back: tuple[float, float] = (0.1, 2.0)
    """How far (em) back to the left it may start: inline, stacked."""
    script_height: tuple[float, float] = (1.0, 2.5)
    """How many of its line's heights it may sit up or down: inline, stacked."""
    script_middle: float = 0.6
    """The script's middle is within this share of that height of its line's box."""
    script_space: float = 0.2
    """A gap wider than this (em) between a script and its line is a space."""

    # --- lines: paragraphs, furniture, headings (engine, layout, structure) ---
    min_chars_per_page: int = 16
    """Fewer non-space characters a page on average means no text layer (a scan's stamps)."""
    paragraph_end: float = 0.85
    """A line ending a sentence shorter than this share of a full line ends its paragraph."""
    short_line: float = 0.6
    """A line shorter than this share of a full line ends its paragraph in reading order."""
    edge_lines: int = 2
    """A running head or foot is among a page's first or last this many lines."""
    max_furniture_chars: int = 160
    """Running heads are short (acmart's title and venue ~125): a longer repeated line is text."""
    max_title_chars: int = 90
    """A heading's title holds at most this many characters."""
    max_title_words: int = 14
    """And at most this many words."""
    title_letters: float = 0.7
    """At least this share of a title's characters (spaces aside) are letters."""
    paragraph_words: int = 6
    """A paragraph's first line holds a few words; a table's head row is followed by numbers."""
    section_window: int = 400
    """A section follows one of the last this many candidates (bounds the chain's search)."""
    equation_window: int = 200
    """An equation follows one of the last this many candidates."""
    place_key: int = 6
    """A tidied line is matched to the engine's line record that shares its first or its last
    this many letters, spaces aside (reading_order.placed)."""
    column_lines: int = 2
    """A column's left edge is where at least this many of a page's full lines start; the
    page's line step is the commonest one when seen this often (else the size's, below)."""
    line_step: float = 1.2
    """A paragraph's baselines are this many of its font sizes apart (TeX: 12 pt for 10 pt)."""
    indent: float = 3.0
    """A line starting this far (points) right of its column's edge is indented (TeX's parindent: 10-15)."""
    max_indent: float = 30.0
    """And no further: a line further right is centred or displayed, not a paragraph's first."""
    block_gap: float = 1.4
    """A baseline more than this many of the page's line steps below the one before starts a new block."""
    max_run: int = 120
    """Lines a column's footnotes and the next column's float take at most."""
    max_paragraph: int = 80
    """Lines searched for the end of a paragraph a float interrupted."""
    max_caption_lines: int = 14
    """A caption runs over at most this many lines."""
    max_table_rows: int = 80
    """A table's rows read at most."""
    cell_gap: tuple[float, float] = (3.5, 7.0)
    """Pieces of a table's row farther apart than cell_gap_share of the table's narrow gaps (a
    space: 3-4 points; a relation's in maths 4-5.5) are two cells', within these bounds
    (points): a column's cells stand twice LaTeX's 6-point \\tabcolsep apart (less where the
    table is shrunk to fit: 4.8 points in 2207.10906's Table II)."""
    cell_gap_share: float = 1.5
    """See cell_gap."""
    run_widths: tuple[float, float, float] = (0.72, 0.5, 0.3)
    """A table's pypdf runs are taken to be this many ems a capital, another letter or digit,
    and a space or a stop long (Computer Modern's and Times' means), for the gaps between
    them: with one mean width for all (mean_letter_width), "BBH" ended 9 points short of
    the "(EM)" after it, two cells' gap."""
    max_footnote_lines: int = 8
    """A footnote runs over a few lines; a page's last paragraph is not one."""


PARAMS = LayoutParams()
"""The thresholds every pass uses."""
