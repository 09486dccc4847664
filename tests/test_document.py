"""The document contract: blocks lie over the text in order, offsets are the builder's, JSON
round-trips, and ids in bibliography entries are read the same whatever states them."""

from __future__ import annotations

import json
import random

import pytest

from arxiv_mcp.text import bibids
from arxiv_mcp.text.bibids import arxiv_id_in, doi_in, eprint_id
from arxiv_mcp.text.document import (
    Document,
    DocumentBuilder,
    Equation,
    Figure,
    Heading,
    Kind,
    Reference,
    Subfigure,
    Table,
    printed_number,
)


def _built() -> Document:
    builder = DocumentBuilder()
    builder.heading(1, "A Paper")
    builder.heading(2, "3 Method")
    builder.add_text("We follow ")
    builder.cite("[12]", ["smith20"])
    builder.add_text(" closely.")
    figure = Figure("Figure 3", "3", "Cats.", (Subfigure("b", "A cat.", ("b.png",)),), ("a.png",), "fig:cats")
    builder.block(Kind.FIGURE, "Figure 3: Cats.", figure)
    builder.block(Kind.TABLE, "Table 2: Sizes.\n\n| a | b |", Table("Table 2", "2", "Sizes.", (("a", "b"),), 1))
    builder.block(Kind.EQUATION, "E = mc^2 (7)", Equation("7", "E = mc^2"))
    builder.add_text("Trailing text.\n\nAnother paragraph.")
    builder.heading(2, "References")
    builder.block(
        Kind.REFERENCE, "[12] A. Smith. arXiv:2001.00001", Reference("12", "A. Smith.", "smith20", "2001.00001")
    )
    return builder.build()


def test_blocks_lie_over_the_text_in_order_without_overlap():
    doc = _built()
    ends = [0]
    for block in doc.blocks:
        assert block.start >= ends[-1]
        assert doc.text[block.start : block.end].strip() == doc.text[block.start : block.end]
        ends.append(block.end)
    kinds = [block.kind for block in doc.blocks]
    assert kinds == [
        Kind.HEADING,
        Kind.HEADING,
        Kind.PARAGRAPH,
        Kind.FIGURE,
        Kind.TABLE,
        Kind.EQUATION,
        Kind.PARAGRAPH,
        Kind.PARAGRAPH,
        Kind.HEADING,
        Kind.REFERENCE,
    ]


def test_a_citation_spans_what_the_paper_prints():
    doc = _built()
    (citation,) = doc.citations
    assert doc.text[citation.start : citation.end] == "[12]"
    assert citation.targets == ("smith20",)


def test_the_json_form_round_trips_and_refuses_anything_else():
    doc = _built()
    assert Document.from_json(doc.to_json()) == doc
    for bad in ("", "[]", '{"format": 0}', '{"format": 1}'):
        with pytest.raises(ValueError):
            Document.from_json(bad)


def test_a_cached_record_with_other_fields_is_refused():
    payload = json.loads(_built().to_json())
    for item in payload["blocks"]:
        if item[0] == "reference":
            item[3]["year"] = 2020
    with pytest.raises(ValueError):
        Document.from_json(json.dumps(payload))
    with pytest.raises(ValueError):
        Document.from_parsed({**payload, "blocks": [["nonsense", 0, 1]]})


def test_a_record_must_match_its_block_kind():
    with pytest.raises(ValueError):
        DocumentBuilder().block(Kind.TABLE, "x", Equation("1", "x"))


def test_a_legacy_text_reads_as_headings_pages_and_paragraphs():
    text = "# T\n\nAuthors\n\n## 2 Related Work\nBody line.\n\n## Page 2\n\n### IV.A Setup\n\nMore."
    doc = Document.from_text(text)
    assert [b.kind for b in doc.blocks] == [
        Kind.HEADING,
        Kind.PARAGRAPH,
        Kind.HEADING,
        Kind.PARAGRAPH,
        Kind.PAGE,
        Kind.HEADING,
        Kind.PARAGRAPH,
    ]
    assert doc.records(Heading)[1] == Heading(2, "2 Related Work", "2")
    assert doc.records(Heading)[2].number == "IV.A"


@pytest.mark.parametrize(
    ("title", "number"),
    [
        ("4.2 Training", "4.2"),
        ("IV.A Setup", "IV.A"),
        ("Appendix B Proofs", "B"),
        ("B.1 Lemmas", "B.1"),
        ("A. Proofs", "A"),
        ("A Case Study", None),
        ("Introduction", None),
    ],
)
def test_the_printed_number_of_a_heading(title, number):
    assert printed_number(title) == number


@pytest.mark.parametrize(
    ("entry", "arxiv_id"),
    [
        ("A. Smith, arXiv preprint arXiv:2401.12345 (2024).", "2401.12345"),
        ("see https://arxiv.org/abs/2106.09685v2.", "2106.09685v2"),
        ("E. Witten, hep-th/9802150", "hep-th/9802150"),
        ("[arXiv:1207.7214 [hep-ex]]", "1207.7214"),
        ("doi:10.48550/arXiv.1706.03762", "1706.03762"),
        ("Phys. Rev. 12, pp. 1234.5678", None),
        ("arXiv:1313.00001", None),
    ],
)
def test_the_arxiv_id_an_entry_states(entry, arxiv_id):
    assert arxiv_id_in(entry) == arxiv_id


def test_an_entry_the_id_pattern_matches_always_has_the_quick_hint():
    """arxiv_id_in scans only entries its hint finds something in: every match holds one,
    whatever the case folding finds ("ARXİV", a Kelvin sign) or the digits (Arabic-Indic)."""
    rng = random.Random(3)
    pieces = ["arXiv", "ARXİV", "arxıv:", "hep-th", "\u212a", "/", "0601001", "\u0661" * 7, "2401.12345", " ", ".",
              "math.GT", "10.48550/arxiv.", "abs/", "v2", "a", "-", "ſ"]  # fmt: skip
    for _ in range(50_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))
        if bibids._ARXIV_ID_RE.search(text):
            assert bibids._ARXIV_ID_HINT.search(text), text


def test_the_doi_an_entry_states_without_its_sentence_punctuation():
    assert doi_in("Phys. Lett. B 117 (1982), doi:10.1016/0370-2693(82)90087-4.") == "10.1016/0370-2693(82)90087-4"
    assert doi_in("(https://doi.org/10.1103/PhysRevD.98.030001)") == "10.1103/PhysRevD.98.030001"
    assert doi_in("arXiv's own 10.48550/arXiv.1706.03762") is None
    assert eprint_id("arXiv:2401.12345") == "2401.12345"
