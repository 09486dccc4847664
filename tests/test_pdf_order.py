"""Reading order from where a page's lines stand (reading_order): what interrupts a paragraph
is moved out of it only when the positions show the paragraph going on after it."""

from __future__ import annotations

import pytest

from arxiv_mcp.text.pdf import pdf_to_text
from arxiv_mcp.text.pdf.lines import Line
from arxiv_mcp.text.pdf.reading_order import placed, reading_order
from arxiv_mcp.text.pdf.structure import opens_caption
from tests.pdfgen import make_placed_pdf
from tests.test_pdf_structure import ENGINES

SHORT = 30


def _records(rows: list[tuple[float, float, str]]) -> list[Line]:
    return [Line(text, x, x + 5 * len(text), y, None) for x, y, text in rows]


def _order(rows: list[tuple[float, float, str]], continued: bool = False) -> list[str]:
    lines = [text for _, _, text in rows]
    return reading_order(lines, _records(rows), SHORT, opens_caption, continued)[0]


LEFT = [
    (50.0, 740.0, "Walruses gather on sea ice in large herds, which"),
    (50.0, 726.0, "makes them easy to see from far above and hard to"),
    (50.0, 712.0, "count from the ground, where one herd hides the"),
    (50.0, 698.0, "next one behind it, and the counts we report here"),
]
FOOTNOTE = (50.0, 90.0, "1 The first winter was counted by hand, and twice.")
FLOAT = [
    (316.0, 740.0, "Figure 1: Walrus herds seen from orbit in the first"),
    (316.0, 726.0, "winter of the survey, as the model counted them."),
]
RIGHT = [
    (316.0, 690.0, "come from deep networks trained on aerial images,"),
    (316.0, 676.0, "so that the herds we found were larger than before."),
    (326.0, 662.0, "We fly over the ice twice a winter and count the"),
    (316.0, 648.0, "herds on each flight, from the images we take there."),
]


def test_a_paragraph_reads_on_past_its_columns_footnote_and_the_next_columns_float():
    out = _order([*LEFT, FOOTNOTE, *FLOAT, *RIGHT])
    text = [line for line in out if line]
    assert (
        text
        == [
            *(row[2] for row in LEFT),
            *(row[2] for row in RIGHT[:2]),  # the paragraph, then the float; the next paragraph after it
            *(row[2] for row in FLOAT),
            *(row[2] for row in RIGHT[2:]),
            FOOTNOTE[2],  # the footnote at the page's end
        ]
    )
    assert sorted(out) == sorted([*(row[2] for row in [*LEFT, FOOTNOTE, *FLOAT, *RIGHT]), "", "", ""])


def test_a_float_a_paragraph_does_not_go_on_after_stays_where_it_is():
    # the right column opens a new paragraph (indented, in capitals): nothing was interrupted
    right = [(326.0, 690.0, "Come the spring, the herds break up and scatter."), *RIGHT[1:]]
    rows = [*LEFT, FOOTNOTE, *FLOAT, *right]
    assert _order(rows) == [row[2] for row in rows]


def test_lines_in_one_block_are_never_a_run_whatever_they_say():
    # a line that looks like a footnote's start, one regular step under the line before it,
    # goes on that paragraph: it is not moved however the paragraph goes on
    texts = [
        "We count the walruses of the whole coast from orbit, in",
        "12 Galaxies of herds that no aircraft could have seen,",
        "and we find more of them than anyone expected before.",
    ]
    assert _order([(50.0, 740.0 - 14 * row, text) for row, text in enumerate(texts)]) == texts


def test_footnotes_alone_above_where_the_paragraph_goes_on_are_no_footnotes():
    # numbered lines at the head of a page (an affiliation list running on) stay where they are
    rows = [
        (50.0, 740.0, "26 University of the North, Tromsø, Norway"),
        (50.0, 726.0, "27 University of the South, Cape Town, South Africa"),
        (50.0, 680.0, "sea ice, which makes the herds easy to count from orbit"),
        (50.0, 666.0, "and hard to count from the ground, as we show here."),
    ]
    assert _order(rows, continued=True) == [row[2] for row in rows]


def test_a_float_at_a_pages_head_follows_the_paragraph_the_page_before_left_open():
    rows = [*FLOAT, *RIGHT]
    out = [line for line in _order(rows, continued=True) if line]
    assert out == [RIGHT[0][2], RIGHT[1][2], FLOAT[0][2], FLOAT[1][2], RIGHT[2][2], RIGHT[3][2]]
    # the same page after a paragraph that ended: as the engine gave it
    assert _order(rows) == [row[2] for row in rows]


def test_a_page_without_records_is_left_as_it_is():
    lines = [row[2] for row in [*LEFT, FOOTNOTE, *FLOAT, *RIGHT]]
    assert reading_order(lines, [], SHORT, opens_caption) == (lines, [None] * len(lines))


def test_tidied_lines_find_their_records_by_their_ends():
    records = _records([(50.0, 740.0, "counts from deep net-"), (50.0, 726.0, "works trained on  images."), *FLOAT])
    lines = ["counts from deep networks", "trained on images.", "", FLOAT[1][2], "## 2 Method"]
    assert placed(lines, records) == [records[0], records[1], None, records[3], None]


# A full-width float at a page's head whose caption's last line carries stacked scripts (a
# superscript, then the subscript under it drawn from the same x, then more raised text):
# pdfium gives the scripts apart as short lines, set off the column's edge.
CONTINUED = [
    "Walruses gather on sea ice in large herds, which makes",
    "them easy to see from far above and hard to count from",
    "the ground, where one herd hides the next behind it, so",
    "we count them from images, and the counts we report are",
    "found by counting the same herds twice, both times based",
]
TOP_FLOAT = [
    "FIG. 3. Walrus herds counted from orbit in the first winter of the survey, where the black points with",
    "error bars are our counts, the red lines the model's fit, and the other curves its parts. The green lines",
    "show the herds on the ice, the blue dashed lines the herds in the water, W",
]
SCRIPTS = [(382.0, 720.0, "+"), (382.0, 713.0, "w -> H"), (412.0, 721.5, "+pp seen apart.")]
TAIL = [
    "on the counts of one herd seen from both sides. The",
    "differences are taken as the counts' uncertainty, which",
    "is 5% for the herds on the ice.",
]
NEXT = ["     We fly over the ice twice a winter and count the herds", "on each flight, from the images we take there."]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_paragraph_the_page_before_left_open_reads_before_the_pages_float(engine):
    page1 = [(54.0, 740.0 - 12 * row, text, "body") for row, text in enumerate(CONTINUED)]
    page2 = [(54.0, 740.0 - 12 * row, text, "body") for row, text in enumerate(TOP_FLOAT)]
    page2 += [(x, y, text, "small") for x, y, text in SCRIPTS]
    page2 += [(54.0, 680.0 - 12 * row, text, "body") for row, text in enumerate([*TAIL, *NEXT])]
    text = pdf_to_text(make_placed_pdf([page1, page2]), engine=engine)
    page = text[text.index("## Page 2") :].splitlines()[1:]
    # the paragraph first, then its own block's end, then the float, then a block's end again
    assert page[: len(TAIL) + 2] == [*TAIL, "", TOP_FLOAT[0]]
    caption_end = next(row for row, line in enumerate(page) if line.endswith("seen apart."))
    assert page[caption_end + 1] == "" and page[caption_end + 2] == NEXT[0].strip()
