"""Found black-box: supplementary sections by the forms an agent types."""

from __future__ import annotations

import pytest

from arxiv_mcp.text.extract import extract
from arxiv_mcp.text.selectors import select
from tests.test_selectors_stdio import page


@pytest.mark.parametrize(
    ("selector", "title"), [("Section S1", "S1 Background"), ("Sec. S2", "S2 Method"), ("S2", "S2 Method")]
)
def test_a_supplementary_section_by_its_printed_number(selector, title):
    """A paper numbering its supplementary sections S1, S2: `S1` read it, but `Section S1`
    answered 'no section numbered "Section S1". Its section numbers: 1, 2, S1, S2, ...'."""
    doc = extract("html", page(["1", "2", "S1", "S2"], "LaTeXML (version 0.8.7)").encode())
    assert select(doc, selector, lambda number: f"arxiv://paper/x/figure/{number}").label.endswith(title)
