"""HTML tables with row and column spans keep their header rows and every cell (issue 32.6),
judged by `benchmarks/html_table_spans.py`'s own reading of the page (the stdlib's HTML
parser, spans spread place by place), never by our extractor's output."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from arxiv_mcp.text.document import Table
from arxiv_mcp.text.extract import from_html
from benchmarks.html_table_spans import compare

FIXTURES = Path(__file__).parent / "fixtures" / "html"


def _page(body: str) -> bytes:
    words = "Some words of the body. " * 30
    return (
        '<html><body><div class="ltx_page_main"><article class="ltx_document"><section class="ltx_section">'
        '<h2 class="ltx_title ltx_title_section"><span class="ltx_tag ltx_tag_section">1 </span>Results</h2>'
        f'<p class="ltx_p">{words}</p><figure class="ltx_table" id="S1.T1"><figcaption class="ltx_caption">'
        '<span class="ltx_tag ltx_tag_table">Table 1: </span>Spans.</figcaption>'
        f'<table class="ltx_tabular ltx_align_middle" id="S1.T1.1">{body}</table></figure>'
        "</section></article></div></body></html>"
    ).encode()


def _th(text: str, span: str = "") -> str:
    return f'<th class="ltx_td ltx_th"{span}>{text}</th>'


def _td(text: str, span: str = "") -> str:
    return f'<td class="ltx_td"{span}>{text}</td>'


def _tr(*cells: str) -> str:
    return '<tr class="ltx_tr">' + "".join(cells) + "</tr>"


_HEADED = (
    '<thead class="ltx_thead">'
    + _tr(_th("Model", ' rowspan="2"'), _th("BLEU", ' colspan="2"'), _th("Cost", ' rowspan="2" colspan="2"'))
    + _tr(_th("DE"), _th("FR"))
    + '</thead><tbody class="ltx_tbody">'
    + _tr(_td("A", ' rowspan="2"'), _td("1"), _td("2", ' rowspan="2"'), _td("x"), _td("y"))
    + _tr(_td("3"), _td("z"), _td("w"))
    + _tr(_td(""), _td(""))  # a spacer row
    + _tr(_td("note", ' colspan="5"'))
    + "</tbody>"
)


def test_spans_over_rows_and_columns_are_spread_under_two_header_rows():
    data = _page(_HEADED)
    (table,) = from_html(data).records(Table)
    assert table.rows == (
        ("Model", "BLEU", "BLEU", "Cost", "Cost"),
        ("Model", "DE", "FR", "Cost", "Cost"),
        ("A", "1", "2", "x", "y"),
        ("A", "3", "2", "z", "w"),
        ("note", "note", "note", "note", "note"),
    )
    assert table.header_rows == 2
    filled, kept, tables, wrong_head, _ = compare(data)
    assert (filled, kept, tables, wrong_head) == (25, 25, 1, 0)


@pytest.mark.parametrize(
    ("body", "rows", "header_rows"),
    [
        (
            _tr(_th("k"), _th("v")) + _tr(_td("a", ' rowspan="5"'), _td("1")) + _tr(_td("2")),
            [("k", "v"), ("a", "1"), ("a", "2")],
            1,
        ),
        (
            _tr(_td(""), _th("Group", ' colspan="2"'))
            + _tr(_td(""), _th("a"), _th("b"))
            + _tr(_td("r1"), _td("1"), _td("2")),
            [("", "Group", "Group"), ("", "a", "b"), ("r1", "1", "2")],
            2,
        ),
        (
            _tr(_th("k"), _th("v"))
            + _tr(_td('<table class="ltx_tabular">' + _tr(_td("in1")) + _tr(_td("in2")) + "</table>"), _td("1")),
            [("k", "v"), ("in1 in2", "1")],
            1,
        ),
    ],
    ids=["rowspan past the last row", "an empty corner over a spanned header", "a tabular inside a cell"],
)
def test_every_cell_is_kept(body, rows, header_rows):
    data = _page(body)
    (table,) = from_html(data).records(Table)
    assert [tuple(r) for r in table.rows] == rows and table.header_rows == header_rows
    filled, kept, _, wrong_head, _ = compare(data)
    assert kept == filled and wrong_head == 0


@pytest.mark.parametrize(
    "name", ["latexml_structure.html", "ar5iv_1706.03762_TRANSCRIBED_invisible-chars-lost.html.gz"]
)
def test_real_pages_keep_every_cell_of_their_spanned_tables(name):
    data = (FIXTURES / name).read_bytes()
    data = gzip.decompress(data) if name.endswith(".gz") else data
    filled, kept, tables, wrong_head, lines = compare(data)
    assert b'rowspan="2"' in data or b'colspan="2"' in data
    assert tables >= 2 and filled > 0
    assert kept == filled, lines
    assert wrong_head == 0, lines
