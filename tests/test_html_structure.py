"""The HTML reader's document: printed numbers, figures, tables, equations, references, citations,
oxide's front-matter notes, hand-written HTML e-prints and the bounds on hostile pages."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from arxiv_mcp.errors import ExtractionError
from arxiv_mcp.text.document import Equation, Figure, Heading, Kind, Reference, Table
from arxiv_mcp.text.extract import from_html, from_source
from arxiv_mcp.text.html import flow, html_document, html_to_text, parser, stream

FIXTURES = Path(__file__).parent / "fixtures" / "html"


@pytest.fixture(scope="module")
def document():
    return from_html((FIXTURES / "latexml_structure.html").read_bytes())


def test_text_is_the_text_view(document):
    assert document.text == html_to_text((FIXTURES / "latexml_structure.html").read_text(encoding="utf-8"))
    assert not document.text.endswith("\n")


def test_headings_carry_the_number_their_tag_prints(document):
    numbers = [(h.level, h.number) for h in document.records(Heading) if h.number]
    assert numbers == [(2, "1"), (3, "1.1"), (2, "A")]


def test_figures_with_number_caption_images_and_panels(document):
    first, second = document.records(Figure)
    assert (first.label, first.number, first.anchor) == ("Figure 1", "1", "S1.F1")
    assert first.caption == "The engine at rest, with $n=3$ wheels, after [2]."
    assert first.images == ("x1.png",)
    assert (second.label, second.number, second.caption) == ("Figure 2", "2", "Two views.")
    assert [(s.letter, s.caption, s.images) for s in second.subfigures] == [
        ("a", "Left view", ("a.png",)),
        ("b", "Right view", ("b.png",)),
    ]
    block = document.blocks_of(Kind.FIGURE)[0]
    assert document.text[block.start : block.end].startswith("Figure 1: The engine")


def test_table_rows_spread_spans_and_count_header_rows(document):
    table, inline = document.records(Table)
    assert (inline.label, inline.caption, inline.rows, inline.header_rows) == (
        "Table 2",
        "Costs.",
        (("Part", "Cost"), ("none", "none")),
        1,
    )
    assert "Part Cost none" in document.text  # an inline tabular still reads as words
    assert (table.label, table.number, table.caption) == ("Table 1", "1", "Results by engine.")
    assert table.rows == (
        ("Engine", "Speed", "Speed"),
        ("Engine", "min", "max"),
        ("Difference", "1.5", "$\\pm 2$"),
        ("Analytical", "3", "4"),
    )
    assert table.header_rows == 2
    assert not table.approximate


def test_numbered_equations_keep_the_alttext(document):
    equations = document.records(Equation)
    assert [e.number for e in equations] == ["1", "2", "3"]
    assert equations[0].latex == "E=mc^{2}%\n+\\epsilon"
    assert equations[0].anchor == "S1.E1"
    assert equations[1].latex == "\\displaystyle a & \\displaystyle=b+c"
    block = document.blocks_of(Kind.EQUATION)[0]
    assert document.text[block.start : block.end] == "$$E=mc^{2}+\\epsilon$$ (1)"


def test_an_equation_inside_a_list_item_is_marked_where_it_stands(document):
    block = document.blocks_of(Kind.EQUATION)[-1]
    assert (block.record.number, block.record.latex) == ("3", "x=y")
    assert document.text[block.start : block.end] == "$$x=y$$ (3)"
    line_start = document.text.rfind("\n", 0, block.start) + 1
    assert document.text[line_start : block.start] == "1. A step that holds "


def test_a_float_inside_a_footnote_leaves_its_paragraph_whole():
    note = (
        '<span class="ltx_note ltx_role_footnote"><sup class="ltx_note_mark">1</sup><span class="ltx_note_outer">'
        '<span class="ltx_note_content">see <figure class="ltx_figure"><figcaption class="ltx_caption">'
        '<span class="ltx_tag ltx_tag_figure">Figure 9: </span>inner</figcaption></figure> end</span></span></span>'
    )
    page = (
        (FIXTURES / "latexml_structure.html")
        .read_text(encoding="utf-8")
        .replace("studied engines;", "studied engines" + note + ";")
    )
    text = from_html(page.encode()).text
    assert "Prior work [1, 2] studied engines [^1: see Figure 9: inner end]; later work" in text


def test_references_with_label_key_and_ids(document):
    first, second = document.records(Reference)
    assert (first.label, first.key, first.doi, first.arxiv_id) == ("1", "bib.bib1", "10.1000/xyz123", None)
    assert first.text == "C. Babbage. On engines. Journal, 1837."
    assert (second.label, second.arxiv_id) == ("2", "2401.12345")


def test_citations_read_as_printed_and_point_at_entries(document):
    cited = [(document.text[c.start : c.end], c.targets) for c in document.citations]
    assert cited == [
        ("[1, 2]", ("bib.bib1", "bib.bib2")),
        ("Babbage et al. 2020", ("bib.bib2",)),
        ("[2]", ("bib.bib2",)),  # in Figure 1's caption
        ("[1]", ("bib.bib1",)),
    ]


def test_oxide_title_note_goes_to_the_author_notes_and_metadata_is_one_line_per_note():
    document = from_html((FIXTURES / "oxide_frontmatter.html").read_bytes())
    lines = document.text.split("\n")
    assert lines[0] == "# Deep Spectroscopy of Faint Galaxies"
    assert "[^*: Based on observations made at ESO.]" in document.text
    assert "Thanks:" not in document.text
    assert "Journal: JACM" in lines
    assert "CCS: Theory of computation Denotational semantics" in lines
    assert "XXXX" not in document.text and "DOI" not in document.text
    numbers = [h.number for h in document.records(Heading) if h.number]
    assert numbers == ["I", "I-A"]


def test_oxide_metadata_notes_inside_the_title_stay_out_of_it():
    """Pages converted before a later oxide fix carry the metadata block inside the <h1>."""
    page = (FIXTURES / "oxide_frontmatter.html").read_text(encoding="utf-8")
    meta = (
        '<span class="ltx_pubnotes ltx_pubnotes_meta"><span class="ltx_pubnotes_content">'
        '<span class="ltx_pubnote ltx_role_doi"><span class="ltx_note_name">DOI: </span>10.1145/3643027</span>'
        '<span class="ltx_pubnote ltx_role_journal"><span class="ltx_note_name">Journal: </span>JACM</span>'
        "</span></span>"
    )
    page = page.replace("Faint Galaxies<span", "Faint Galaxies" + meta + "<span", 1)
    lines = from_html(page.encode()).text.split("\n")
    assert lines[0] == "# Deep Spectroscopy of Faint Galaxies"
    assert "DOI: 10.1145/3643027" in lines and lines.count("Journal: JACM") == 2


def test_hand_written_html_without_body_is_read_without_chrome():
    text = html_document((FIXTURES / "authored_no_body.html").read_text(encoding="utf-8"), authored=True).text
    assert text.startswith("# The Array Collaboration Contributions to the Workshop")
    assert "## On behalf of the Collaboration" in text and "## Members" in text
    assert "PoS(ARENA2024)057 [arXiv:2408.16316]" in text
    assert "The array spans two hundred" in text
    for chrome in ("tracker", "color: red", "Home", "About", "<"):
        assert chrome not in text


def test_an_authored_pages_links_to_arxiv_papers_keep_their_ids():
    """A proceedings index (a real HTML-only e-print, 1604.01763) names its papers only in
    links: 'download' to arxiv.org/pdf/ID. The id follows the link once per paragraph; a link
    whose text states it, or to another site, stays as it is; a LaTeXML page is unchanged."""
    entry = (
        '<p><a href="http://arxiv.org/abs/1604.02246">Reciprocity calibration in air</a> '
        '[<a class="paperlink" href="http://arxiv.org/pdf/1604.02246">download</a>] K. Andersen</p>'
        '<p>[<a href="https://arxiv.org/pdf/1604.02247v1">download</a>] H. Hobaek</p>'
        '<p><a href="https://arxiv.org/abs/2408.16316">2408.16316</a> and <a href="https://pos.sissa.it/1/">PoS</a></p>'
    )
    page = f"<html><head><title>Proceedings</title></head><body><h1>Proceedings</h1><h2>Papers</h2>{entry}<p>{'Welcome to the meeting. ' * 40}</p></body></html>"
    lines = html_document(page, authored=True).text.split("\n")
    assert "Reciprocity calibration in air arXiv:1604.02246 [download] K. Andersen" in lines
    assert "[download arXiv:1604.02247v1] H. Hobaek" in lines
    assert "2408.16316 and PoS" in lines
    page = (
        (FIXTURES / "latexml_structure.html").read_text(encoding="utf-8").replace("</section>", entry + "</section>", 1)
    )
    latexml_text = from_html(page.encode()).text
    assert "[download] K. Andersen" in latexml_text and "arXiv:1604" not in latexml_text


def test_html_only_eprint_is_read_as_html_from_its_gzip():
    raw = gzip.compress((FIXTURES / "authored_no_body.html").read_bytes())
    document = from_source(raw)
    assert document.text.startswith("# The Array Collaboration")
    assert [h.title for h in document.records(Heading)][1:] == ["On behalf of the Collaboration", "Members"]


@pytest.mark.parametrize(
    ("module", "limit", "markup", "says"),
    [
        (
            parser,
            "_MAX_CELLS",
            "<table class='ltx_tabular'>" + "<tr><td>1</td><td>2</td></tr>" * 60 + "</table>",
            "cells",
        ),
        (parser, "_MAX_NOTES", "<span class='ltx_note ltx_role_footnote'>n</span>" * 120, "notes"),
        (parser, "_MAX_TEXT_CHARS", "&amp;" * 2000, "characters of text"),
        (parser, "_MAX_ELEMENTS", "<b>x</b>" * 120, "elements"),
        (flow, "MAX_BLOCKS", "<p>x</p>" * 120, "paragraphs"),
        (flow, "MAX_INLINE", "<cite class='ltx_cite'><a href='#b1'>1</a></cite>" * 120 + "<p>x</p>", "citations"),
    ],
)
def test_pages_beyond_any_paper_are_refused_with_the_reason(monkeypatch, module, limit, markup, says):
    monkeypatch.setattr(module, limit, 100)
    page = (
        "<html><body><article class='ltx_document'><h1 class='ltx_title ltx_title_document'>T</h1>"
        f"<section><h2 class='ltx_title ltx_title_section'>1 A</h2><p>{markup}</p></section></article></body></html>"
    )
    with pytest.raises(ExtractionError, match=says):
        from_html(page.encode())


def test_pieces_cut_anywhere_read_the_same(monkeypatch):
    """Pieces cut inside a UTF-8 character, a comment, a `<![` opener or an entity read as the
    page read in one piece; bytes that are not UTF-8 read as Latin-1."""
    body = "<p>caf\u00e9 \u2192 &amp; x</p><!-- a comment --><p>after <![CDATA[ kept as text</p>"
    page = (FIXTURES / "latexml_structure.html").read_text(encoding="utf-8")
    page = page.replace('<section class="ltx_bibliography"', body + '<section class="ltx_bibliography"')
    whole = from_html(page.encode("utf-8")).text
    for size in (1, 2, 3, 7):
        monkeypatch.setattr(stream, "PIECE_BYTES", size)
        assert from_html(page.encode("utf-8")).text == whole
    assert "caf\u00e9 \u2192 & x" in whole and "a comment" not in whole
    assert "after <![CDATA[ kept as text" in whole
    latin = from_html(page.replace("\u2192", "").encode("latin-1")).text
    assert "caf\u00e9" in latin
