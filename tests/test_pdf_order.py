"""Reading order from where a page's lines stand (reading_order): what interrupts a paragraph
is moved out of it only when the positions show the paragraph going on after it."""

from __future__ import annotations

from arxiv_mcp.text.pdf.lines import Line
from arxiv_mcp.text.pdf.reading_order import placed, reading_order
from arxiv_mcp.text.pdf.structure import opens_caption

SHORT = 30


def _records(rows: list[tuple[float, float, str]]) -> list[Line]:
    return [Line(text, x, x + 5 * len(text), y, None) for x, y, text in rows]


def _order(rows: list[tuple[float, float, str]], continued: bool = False) -> list[str]:
    lines = [text for _, _, text in rows]
    return reading_order(lines, _records(rows), SHORT, opens_caption, continued)


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
    assert reading_order(lines, [], SHORT, opens_caption) == lines


def test_tidied_lines_find_their_records_by_their_ends():
    records = _records([(50.0, 740.0, "counts from deep net-"), (50.0, 726.0, "works trained on  images."), *FLOAT])
    lines = ["counts from deep networks", "trained on images.", "", FLOAT[1][2], "## 2 Method"]
    assert placed(lines, records) == [records[0], records[1], None, records[3], None]
