"""A PDF table's rows and columns from where the engines place its cells (text/pdf/tables):
cells apart where they stand apart, words of one cell together, an empty cell where a row
has none in a column, in both engines; the page's text as before."""

from __future__ import annotations

import pytest

from arxiv_mcp.text.document import Table
from arxiv_mcp.text.pdf import pdf_to_document, pdf_to_text
from arxiv_mcp.text.pdf.tables import placed_rows, text_cells
from tests.pdfgen import make_placed_pdf
from tests.test_pdf_structure import ENGINES, PROSE, document_of

COLUMNS = (72.0, 200.0, 300.0)
ROWS = [
    ("Herd", "Mean count", "Winter"),
    ("North Sea herd", "120", "2001"),
    ("South", "", "2002"),
    ("Bering Strait", "1,450", "2003"),
]


def _table_page(caption: str = "Walruses counted per herd and winter.") -> list[tuple[float, float, str, str]]:
    """Prose, a table's caption, its rows with each cell drawn where its column stands, prose."""
    y = 720.0
    page: list[tuple[float, float, str, str]] = []
    for line in [*PROSE, f"Table 1: {caption}"]:
        page.append((72.0, y, line, "body"))
        y -= 14
    for row in ROWS:
        page.extend((x, y, cell, "body") for x, cell in zip(COLUMNS, row) if cell)
        y -= 14
    for line in PROSE:
        page.append((72.0, y, line, "body"))
        y -= 14
    return page


@pytest.mark.parametrize("engine", ENGINES)
def test_a_tables_cells_come_in_columns_from_where_they_stand(engine):
    data = make_placed_pdf([_table_page()])
    document = pdf_to_document(data, engine=engine)
    (table,) = document.records(Table)
    assert table.approximate
    assert table.rows == tuple(ROWS)  # the header's words apart, the empty cell kept, "North Sea herd" one cell
    assert "North Sea herd 120 2001" in pdf_to_text(data, engine=engine)  # the page's text as it was


@pytest.mark.parametrize("engine", ENGINES)
def test_a_caption_without_a_stop_ends_at_the_first_row_placed_as_cells(engine):
    # the caption's words run on into the rows as text ("... per herd Herd Mean count"),
    # but the rows' cells stand apart: the caption ends where they start
    (table,) = pdf_to_document(make_placed_pdf([_table_page("Walruses per herd")]), engine=engine).records(Table)
    assert table.caption == "Walruses per herd"
    assert table.rows == tuple(ROWS)


def test_pieces_close_together_are_one_cell_and_a_spanning_cell_goes_where_it_overlaps_most():
    rows = [
        [(72.0, 110.0, "Stage"), (200.0, 330.0, " Correctly classified")],
        [(200.0, 220.0, "Data"), (300.0, 330.0, " Simulation")],
        [
            (72.0, 90.0, "Hits"),
            (200.0, 215.0, " 85.6"),
            (216.0, 218.0, "±"),
            (219.0, 230.0, "0.1"),
            (300.0, 320.0, " 87.3"),
        ],
    ]
    assert placed_rows(rows) == [
        ("Stage", "Correctly classified", ""),
        ("", "Data", "Simulation"),
        ("Hits", "85.6±0.1", "87.3"),
    ]


def test_a_sub_header_over_the_table_stands_in_the_column_where_it_starts():
    rows = [
        [(72.0, 100.0, "Herd"), (200.0, 230.0, " Count"), (300.0, 350.0, " Winter")],
        [(195.0, 345.0, "Counted from orbit")],  # over the last two columns, most over the last
        [(72.0, 100.0, "North"), (200.0, 220.0, " 120"), (300.0, 330.0, " 2001")],
    ]
    assert placed_rows(rows)[1] == ("", "Counted from orbit", "")


def test_rows_not_placed_are_read_from_their_text():
    assert placed_rows([None, [(72.0, 90.0, "North")]]) == [None, None]  # one cell makes no columns
    assert text_cells("North Sea herd 120 2001") == ("North Sea herd", "120", "2001")


def test_a_row_placed_alone_keeps_its_cells_apart():
    # the text alone would make one cell of it (no number splits it)
    assert placed_rows([None, [(72.0, 110.0, "North"), (200.0, 230.0, " Sea")]]) == [None, ("North", "Sea")]


def test_a_caption_under_its_table_takes_the_rows_over_it_and_leaves_the_next_tables_rows():
    text = [
        "## Page 1",
        *PROSE,
        "",
        "Model Chat Safety Average",
        "GPT-4o 96.6 86.7 84.7",
        "DeepSeek-V3 96.9 87.0 87.0",
        "Table 8 | Performances on RewardBench.",
        "Model Length Pass@1",
        "Baseline 718 31.1",
        "Distill 783 37.4",
        "Table 9 | The contribution of distillation.",
        "",
        *PROSE,
    ]
    eight, nine = document_of(text).records(Table)
    assert eight.rows == (
        ("Model Chat Safety Average",),
        ("GPT-4o", "96.6", "86.7", "84.7"),
        ("DeepSeek-V3", "96.9", "87.0", "87.0"),
    )
    assert nine.rows == (("Model Length Pass@1",), ("Baseline", "718", "31.1"), ("Distill", "783", "37.4"))


def test_a_caption_over_its_table_keeps_the_rows_under_it():
    text = ["## Page 1", *PROSE, "", "Table 1: Walruses per herd.", "Herd Count", "North 120", "South 95", "", *PROSE]
    (table,) = document_of(text).records(Table)
    assert table.rows == (("Herd Count",), ("North", "120"), ("South", "95"))


def test_a_table_caption_running_to_the_texts_end_is_read():
    # its rows would start past the last line
    text = ["## Page 1", *PROSE, "", "Table 1: Walruses per herd", "Herd Count"]
    (table,) = document_of(text).records(Table)
    assert table.caption == "Walruses per herd Herd Count"
