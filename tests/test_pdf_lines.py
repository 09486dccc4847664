"""Line records carry where each line stands, the same in both engines (lines.Line)."""

from __future__ import annotations

import time

import pytest

from arxiv_mcp.text.pdf import engine as pdf_text
from tests.pdfgen import make_placed_pdf
from tests.test_pdf_structure import ENGINES, _two_column_page


def _page_lines(data: bytes, engine: str):
    budget = pdf_text._Budget(deadline=None, max_pages=10, clock=time.monotonic)
    pages = pdf_text._pypdf_pages(data, budget) if engine == "pypdf" else pdf_text._pdfium_pages(data, budget, True)
    (page,) = pages
    assert page is not None
    return page


@pytest.mark.parametrize("engine", ENGINES)
def test_each_line_stands_where_the_page_draws_it(engine):
    placed = _two_column_page()
    page = _page_lines(make_placed_pdf([placed]), engine)
    assert page.width == pytest.approx(612.0)
    by_text = {line.text.strip(): line for line in page.lines}
    assert len(by_text) == len(placed)
    for x, y, text, _ in placed:
        line = by_text[text]
        assert line.x0 == pytest.approx(x, abs=1.0)
        assert line.y == pytest.approx(y, abs=3.0)  # pdfium: the first letter's box, on the baseline
        # the line's end: pdfium's last letter, pypdf's estimate from the letters' count
        assert x + 3 * len(text) < line.x1 < x + 6 * len(text)
    # the columns: every line of the right one starts right of every line of the left one ends
    left = [by_text[text] for x, _, text, _ in placed if x < 100 and not text.startswith("1 The first")]
    right = [by_text[text] for x, _, text, _ in placed if x > 300]
    assert max(line.x1 for line in left) < min(line.x0 for line in right)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_style_is_read_where_it_may_make_a_heading(engine):
    # pdfium reads the style of a sample of lines (every few, and those that could be headings);
    # pypdf of every line. A heading-like line always has its style.
    page = _page_lines(make_placed_pdf([_two_column_page()]), engine)
    styles = {line.text.strip(): line.style for line in page.lines}
    assert styles["1 Introduction"] is not None and styles["1 Introduction"].bold
    assert styles["2 Method"] is not None and styles["2 Method"].bold
    assert all(style is not None for style in styles.values()) or engine == "pdfium"
