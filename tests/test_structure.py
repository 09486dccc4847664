"""A paper as readers point at it (issue 21): section numbers as printed, figures, tables,
equations and references by label or as lists, the blocks find_in_paper names, and
get_references from the paper's own bibliography. The documents are built here with
`DocumentBuilder` (what every extractor writes to) and cached for a fake paper, so each view
goes through the real MCP client and the cache."""

from __future__ import annotations

import re

import pytest

from arxiv_mcp.errors import ExtractionError, InvalidInput
from arxiv_mcp.ids import PaperId
from arxiv_mcp.text import selectors
from arxiv_mcp.text.document import (
    Document,
    DocumentBuilder,
    Equation,
    Figure,
    Kind,
    Reference,
    Subfigure,
    Table,
)
from arxiv_mcp.text.extract import EXTRACTOR_VERSION, TextSource
from arxiv_mcp.text.view import find
from tests.conftest import html_paper
from tests.fake_arxiv import plain_tar

PID = "2403.00021"


def sample() -> Document:
    b = DocumentBuilder()
    b.heading(1, "Sparse Graphs")
    b.heading(2, "Abstract")
    b.add_text("We study sparse graphs.")
    b.heading(2, "1 Introduction")
    b.add_text("Graphs are everywhere ")
    b.cite("[2]", ["bib.bib2"])
    b.add_text(". Figure 2 shows the pipeline, and Fig. 2(b) the loss.")
    b.heading(2, "2 Related Work")
    b.add_text("Message passing came first ")
    b.cite("[1, 2]", ["bib.bib1", "bib.bib2"])
    b.add_text(".")
    b.heading(2, "3 Method")
    b.add_text("We use Table 1 for the numbers. The energy is defined as")
    b.block(Kind.EQUATION, "$$E = mc^2 \\tag{3}$$", Equation("3", "E = mc^2"))
    b.heading(3, "3.1 Setup")
    sub = (Subfigure("a", "Input graph.", ("x1a.png",)), Subfigure("b", "Training loss.", ("x1b.png",)))
    b.block(Kind.FIGURE, "Figure 2: The pipeline.", Figure("Figure 2", "2", "The pipeline.", sub, ("x1.png",)))
    rows = (("Model", "Acc | F1"), ("GCN", "81.5"), ("GAT", "83.0"))
    b.block(Kind.TABLE, "Table 1: Accuracy.", Table("Table 1", "1", "Accuracy.", rows, 1))
    b.heading(2, "4 Results")
    b.add_text("It works, as Figure 2 shows.")
    b.heading(2, "References")
    b.block(Kind.REFERENCE, "[1] A. Author. Old work. 2019.", Reference("1", "A. Author. Old work. 2019.", "bib.bib1"))
    entry = "B. Writer. New work. arXiv:2401.00002, 2021."
    b.block(Kind.REFERENCE, f"[2] {entry}", Reference("2", entry, "bib.bib2", "2401.00002", "10.1000/xyz"))
    return b.build()


def uri(number: str) -> str:
    return f"arxiv://paper/{PID}v1/figure/{number}"


# --- the views, on a document --------------------------------------------------------------


def test_outline_shows_positions_counts_and_how_to_ask():
    text = selectors.select(sample(), "outline", uri).text
    assert "[s3]   1 Introduction (" in text
    assert "1 figure, 1 table, 1 numbered equation, 2 references." in text
    assert '"Figure 3"' in text and 'section="figures"' in text


@pytest.mark.parametrize(
    "selector, image",
    [("Figure 2", "2"), ("Fig. 2", "2"), ("fig2", "2"), ("FIG. 2", "2"), ("Figure 2b", "2b"), ("Fig. 2(b)", "2b")],
)
def test_a_figure_by_its_label(selector, image):
    got = selectors.select(sample(), selector, uri)
    (figure,) = got.figures
    assert (figure.label, figure.caption, figure.image_uri) == ("Figure 2", "The pipeline.", uri(image))
    assert figure.subfigures == ["(a) Input graph.", "(b) Training loss."]
    assert [m.section for m in figure.mentions] == ["1 Introduction", "4 Results"]
    assert "Figure 2 shows the pipeline" in figure.mentions[0].text
    assert "The pipeline." in got.text and uri(image) in got.text


def test_a_table_as_a_grid_and_rows():
    got = selectors.select(sample(), "Table 1", uri)
    (table,) = got.tables
    assert table.header == [["Model", "Acc | F1"]] and table.rows == [["GCN", "81.5"], ["GAT", "83.0"]]
    assert "| Model | Acc \\| F1 |\n|---|---|\n| GCN | 81.5 |" in got.text


@pytest.mark.parametrize("selector", ["Equation 3", "Eq. (3)", "eq 3", "(3)", "eqn. 3"])
def test_an_equation_with_its_introduction(selector):
    got = selectors.select(sample(), selector, uri)
    (equation,) = got.equations
    assert (equation.number, equation.latex, equation.section) == ("3", "E = mc^2", "3 Method")
    assert equation.context == "The energy is defined as"
    assert "E = mc^2" in got.text


@pytest.mark.parametrize("selector", ["[2]", "ref 2", "reference 2", "bib.bib2"])
def test_a_reference_and_the_passages_citing_it(selector):
    got = selectors.select(sample(), selector, uri)
    (reference,) = got.references
    assert (reference.arxiv_id, reference.doi) == ("2401.00002", "10.1000/xyz")
    assert [m.section for m in reference.mentions] == ["1 Introduction", "2 Related Work"]
    assert "[2] B. Writer" in got.text and "arXiv:2401.00002" in got.text


def test_lists():
    doc = sample()
    assert selectors.select(doc, "figures", uri).text.startswith("1 figure:\nFigure 2 (section 3.1): The pipeline.")
    assert "(3) (section 3): E = mc^2" in selectors.select(doc, "equations", uri).text
    refs = selectors.select(doc, "references", uri)
    assert [r.label for r in refs.references] == ["1", "2"]
    assert refs.items()[1]["kind"] == "reference" and refs.items()[1]["arxiv_id"] == "2401.00002"


@pytest.mark.parametrize(
    "selector, listed",
    [
        ("Figure 9", "It has: Figure 2."),
        ("Table 4", "It has: Table 1."),
        ("Eq. (8)", "It has: (3)."),
        ("[7]", "[1], [2]"),
    ],
)
def test_a_label_the_paper_lacks_lists_the_ones_it_has(selector, listed):
    with pytest.raises(InvalidInput, match=r"no .*") as caught:
        selectors.select(sample(), selector, uri)
    assert listed in str(caught.value)


def test_a_text_without_marked_structure_says_so():
    with pytest.raises(InvalidInput, match="marks no figures"):
        selectors.select(Document.from_text("## 1 Intro\n\nText."), "figures", uri)


def test_sections_by_printed_number_through_the_document():
    doc = sample()
    assert selectors.select(doc, "3.1", uri).label == "section:6 3.1 Setup"
    assert selectors.select(doc, "Section 1", uri).text.startswith("## 1 Introduction")
    with pytest.raises(InvalidInput, match="Its section numbers: 1, 2, 3, 3.1, 4"):
        selectors.select(doc, "5", uri)


def test_find_names_the_block_of_each_hit():
    hits, _ = find(sample(), "pipeline")
    assert [h.place for h in hits] == ["paragraph of section 1", "caption of Figure 2"]
    hits, _ = find(sample(), "Writer")
    assert hits[0].place == "reference [2]"


# --- through the MCP client and the cache --------------------------------------------------


def _cache_document(service, doc: Document) -> None:
    service.cache.put_text(PaperId(PID, 1), doc.to_json(), method=TextSource.HTML, extractor_version=EXTRACTOR_VERSION)


@pytest.fixture
def cached_paper(fake, service):
    fake.add(html_paper(PID, "Sparse graphs"))
    _cache_document(service, sample())
    return service


@pytest.mark.anyio
async def test_read_paper_views_through_the_client(fake, connect, cached_paper):
    async with connect(service=cached_paper) as client:
        ref = await client.call_tool("read_paper", {"paper_id": f"{PID}v1", "section": "[2]"})
        fig = await client.call_tool("read_paper", {"paper_id": f"{PID}v1", "section": "Fig. 2(b)"})
        sec = await client.call_tool("read_paper", {"paper_id": f"{PID}v1", "section": "4"})
        missing = await client.call_tool("read_paper", {"paper_id": f"{PID}v1", "section": "7"})
    assert not ref.is_error, ref.content[0].text
    assert ref.structured_content["items"][0]["kind"] == "reference"
    assert ref.structured_content["section"] == "reference [2]"
    assert fig.structured_content["items"][0]["image_uri"] == uri("2b")
    assert "→ (b) Training loss." in fig.content[0].text
    assert sec.structured_content["section"] == "section:7 4 Results"
    assert missing.is_error and "Its section numbers: 1, 2, 3, 3.1, 4" in missing.content[0].text
    assert fake.requests == []


@pytest.mark.anyio
async def test_get_references_from_the_cached_bibliography(fake, connect, cached_paper):
    async with connect(service=cached_paper) as client:
        got = await client.call_tool("get_references", {"paper_id": PID})
    assert got.structured_content["direction"] == "bibliography"
    assert [n["arxiv_id"] for n in got.structured_content["neighbours"]] == [None, "2401.00002"]
    assert got.structured_content["neighbours"][0]["year"] == 2019
    assert "own bibliography" in got.content[0].text
    assert "; )" not in got.content[0].text, "an entry without authors shows no empty field"
    assert fake.requests == []


def test_a_cached_document_that_does_not_parse_is_remade_from_the_raw_file(fake, service):
    fake.add(html_paper(PID, "Sparse graphs"))
    first = service.read_paper(f"{PID}v1")
    asked = len(fake.requests)
    service.cache.put_text(PaperId(PID, 1), "{not a document", method="html", extractor_version=EXTRACTOR_VERSION)
    again = service.read_paper(f"{PID}v1")
    assert (again.text, again.method, again.cached) == (first.text, "html", True)
    assert len(fake.requests) == asked
    assert Document.from_json(service.cache.get_text(PaperId(PID, 1)).text).text == first.text


# --- figure images ---------------------------------------------------------------------------


def _png() -> bytes:
    from arxiv_mcp.figures import _png as encode

    return encode(b"\xff\x00\x00" * 4, 2, 2, 6, 3)


def _figure_document(*images: str) -> Document:
    b = DocumentBuilder()
    b.heading(2, "1 Introduction")
    b.add_text("Figure 2 shows it.")
    b.block(Kind.FIGURE, "Figure 2: A plot.", Figure("Figure 2", "2", "A plot.", (), images))
    return b.build()


@pytest.mark.anyio
async def test_a_figure_image_from_the_html_costs_one_request_once(fake, connect, service):
    page = html_paper(PID, "Sparse graphs")
    page.images = {"x1.png": _png()}
    fake.add(page)
    _cache_document(service, _figure_document("x1.png"))
    async with connect(service=service) as client:
        first = await client.read_resource(uri("2"))
        again = await client.read_resource(uri("2"))
    import base64

    assert base64.b64decode(first.contents[0].blob) == _png() == base64.b64decode(again.contents[0].blob)
    assert first.contents[0].mime_type == "image/png"
    assert [r.path for r in fake.requests] == [f"/html/{PID}v1/x1.png"]
    assert service.cache.get_raw(PaperId(PID, 1), "figures") is not None


def test_an_oxide_pages_image_is_fetched_where_the_page_names_it(fake, service):
    """latexml-oxide pages have no <base> and name an image from /html/ (`IDvN/fig1.png`): it is
    at /html/IDvN/fig1.png, where a browser at the page's URL finds it, not under the id twice."""
    page = html_paper(PID, "Sparse graphs")
    page.images = {"fig1.png": _png()}
    fake.add(page)
    _cache_document(service, _figure_document(f"{PID}v1/fig1.png"))
    assert service.figure_image(f"{PID}v1", "2") == _png()
    assert [r.path for r in fake.requests] == [f"/html/{PID}v1/fig1.png"]


def _eprint(members: dict[str, bytes]) -> bytes:
    import gzip

    from arxiv_mcp.figures import _tar

    return gzip.compress(_tar(members))


def test_a_figure_image_from_the_cached_eprint_costs_no_request(fake, service):
    from tests.fake_arxiv import default_pdf

    fake.add(html_paper(PID, "Sparse graphs"))
    _cache_document(service, _figure_document("figs/plot"))
    pdf = default_pdf(html_paper(PID, "Sparse graphs"))
    service.cache.put_raw(
        PaperId(PID, 1), "source", _eprint({"main.tex": b"x", "figs/plot.pdf": pdf}), "application/gzip"
    )
    got = service.figure_image(f"{PID}v1", "2")
    try:
        import pypdfium2  # noqa: F401

        assert got.startswith(b"\x89PNG\r\n\x1a\n")
    except ImportError:
        assert got == pdf
    assert fake.requests == []


def test_an_image_on_another_site_is_not_fetched(fake, service):
    from arxiv_mcp.errors import NotFound

    fake.add(html_paper(PID, "Sparse graphs"))
    _cache_document(service, _figure_document("https://example.org/x1.png"))
    with pytest.raises(NotFound, match="another site"):
        service.figure_image(f"{PID}v1", "2")
    with pytest.raises(InvalidInput, match='no figure "9"'):
        service.figure_image(f"{PID}v1", "9")
    assert fake.requests == []


def _revtex() -> Document:
    b = DocumentBuilder()
    b.heading(2, "I Introduction", "I")
    b.add_text("Filler words. " * 40 + "As TABLE I shows, and as Teyssier (2002) found ")
    b.cite("(Teyssier, 2002)", ["teyssier"])
    b.add_text(", it holds.")
    b.block(Kind.TABLE, "TABLE I: Rates.", Table("TABLE I", "I", "Rates.", (("a", "b"), ("1", "2")), 1))
    b.heading(2, "Appendix A Proofs", "A")
    b.add_text("Proof.")
    b.block(
        Kind.REFERENCE,
        "Teyssier (2002) R. Teyssier, A&A.",
        Reference("Teyssier (2002)", "R. Teyssier, A&A.", "teyssier"),
    )
    return b.build()


def test_a_figure_is_found_mentioned_in_every_printed_form_and_only_by_its_number():
    b = DocumentBuilder()
    b.heading(2, "1 Intro")
    for said in ("See FIG. 3 here.", "As figs. 3 and 4 show.", "Figure 31 is another.", "Fig.~3 again.", "A config 3."):
        b.add_text(said)
        b.separate()
    b.block(Kind.FIGURE, "Figure 3: Plot.", Figure("Figure 3", "3", "Plot."))
    b.add_text("Figure 3 ends it.")
    mentions = selectors.select(b.build(), "Figure 3", uri).figures[0].mentions
    assert [m.text for m in mentions] == [
        "See FIG. 3 here.",
        "As figs. 3 and 4 show.",
        "Fig.~3 again.",
        "Figure 3 ends it.",
    ]


def test_a_documents_outline_read_from_its_heading_blocks_is_its_texts():
    from arxiv_mcp.text.outline import outline

    b = DocumentBuilder()
    b.add_text("# Title\n\n## 1 Intro\nText.\n\n## Page 2\n\n### 1.1 Part")
    b.heading(2, "2 Method")
    b.block(Kind.FIGURE, "Figure 1: A.", Figure("Figure 1", "1", "A."))
    for doc in (sample(), b.build(), _revtex()):
        spans = [(h.start, h.level, h.title, h.end) for h in outline(doc)]  # numbers: the records know better
        assert spans == [(h.start, h.level, h.title, h.end) for h in outline(doc.text)]


def test_roman_labels_answer_to_arabic_numbers_and_author_year_labels_to_their_text():
    doc = _revtex()
    assert selectors.select(doc, "Table 1", uri).label == "TABLE I"
    assert selectors.select(doc, "Section 1", uri).label == "section:1 I Introduction"
    got = selectors.select(doc, "teyssier (2002)", uri)
    (mention,) = got.references[0].mentions
    assert "(Teyssier, 2002)" in mention.text and mention.text.startswith("…")
    assert find(doc, '"Proof."')[0][0].place == "paragraph of appendix A"


def test_an_approximate_table_shows_its_lines_once():
    b = DocumentBuilder()
    b.heading(2, "1 Results")
    rendered = "Table 2: Rates per run.\nrun 1 0.5\nrun 2 0.7"
    b.block(Kind.TABLE, rendered, Table("Table 2", "2", "Rates per run.", (), 0, True))
    got = selectors.select(b.build(), "Table 2", uri)
    assert got.text == "(approximate: the lines recovered from the PDF's layout)\n" + rendered
    assert got.tables[0].approximate


# --- end to end: a LaTeXML page through the fake arXiv ----------------------------------------

_BODY = "The engine turns the wheels, and the words here make the page long enough to read. " * 8
STRUCTURED_PAGE = f"""<!DOCTYPE html><html><head><title>Engines</title>
<!--Generated on Tue Feb  6 19:39:27 2024 by LaTeXML (version 0.8.7) http://dlmf.nist.gov/LaTeXML/.--></head>
<body><div class="ltx_page_main"><div class="ltx_page_content"><article class="ltx_document">
<h1 class="ltx_title ltx_title_document">Engines</h1>
<section class="ltx_section" id="S1">
<h2 class="ltx_title ltx_title_section"><span class="ltx_tag ltx_tag_section">1 </span>Introduction</h2>
<div class="ltx_para" id="S1.p1"><p class="ltx_p">Prior work <cite class="ltx_cite">[<a class="ltx_ref" href="#bib.bib1">1</a>]</cite>
studied engines, as Figure 1 shows. {_BODY}</p></div>
<figure class="ltx_figure" id="S1.F1"><img class="ltx_graphics" src="x1.png" alt=""/>
<figcaption class="ltx_caption"><span class="ltx_tag ltx_tag_figure">Figure 1: </span>The engine at rest.</figcaption></figure>
<div class="ltx_para"><p class="ltx_p">The energy is</p>
<table class="ltx_equation ltx_eqn_table" id="S1.E1"><tbody><tr class="ltx_equation ltx_eqn_row ltx_align_baseline">
<td class="ltx_eqn_cell ltx_align_center"><math alttext="E=mc^{{2}}" class="ltx_Math" display="block"><mi>E</mi></math></td>
<td class="ltx_eqn_cell ltx_eqn_eqno ltx_align_middle ltx_align_right" rowspan="1"><span class="ltx_tag ltx_tag_equation ltx_align_right">(1)</span></td>
</tr></tbody></table></div>
<figure class="ltx_table" id="S1.T1">
<figcaption class="ltx_caption"><span class="ltx_tag ltx_tag_table">Table 1: </span>Speeds.</figcaption>
<table class="ltx_tabular"><thead class="ltx_thead"><tr class="ltx_tr"><th class="ltx_td ltx_th">Engine</th>
<th class="ltx_td ltx_th">Speed</th></tr></thead><tbody class="ltx_tbody">
<tr class="ltx_tr"><td class="ltx_td">Difference</td><td class="ltx_td">1.5</td></tr></tbody></table></figure>
</section>
<section class="ltx_bibliography" id="bib"><h2 class="ltx_title ltx_title_bibliography">References</h2>
<ul class="ltx_biblist"><li class="ltx_bibitem" id="bib.bib1"><span class="ltx_tag ltx_role_refnum ltx_tag_bibitem">[1]</span>
<span class="ltx_bibblock">A. Lovelace. Notes, 2020. arXiv:2401.12345.</span></li></ul></section>
</article></div></div></body></html>"""


@pytest.mark.anyio
async def test_a_latexml_page_read_end_to_end(fake, connect, service):
    html = pytest.importorskip("arxiv_mcp.text.html")
    if not hasattr(html, "html_document"):
        pytest.skip("the HTML extractor marks no structure yet (issue 21: the html room)")
    page = html_paper(PID, "Engines")
    page.html, page.images = STRUCTURED_PAGE, {"x1.png": _png()}
    fake.add(page)
    async with connect(service=service) as client:
        outline = await client.call_tool("read_paper", {"paper_id": f"{PID}v1", "section": "outline"})
        figure = await client.call_tool("read_paper", {"paper_id": f"{PID}v1", "section": "fig1"})
        table = await client.call_tool("read_paper", {"paper_id": f"{PID}v1", "section": "Table 1"})
        equation = await client.call_tool("read_paper", {"paper_id": f"{PID}v1", "section": "(1)"})
        reference = await client.call_tool("read_paper", {"paper_id": f"{PID}v1", "section": "[1]"})
        hits = await client.call_tool("find_in_paper", {"paper_id": f"{PID}v1", "query": "engine at rest"})
        image = await client.read_resource(uri("1"))
        cited = await client.call_tool("get_references", {"paper_id": f"{PID}v1"})
    assert "1 figure, 1 table, 1 numbered equation, 1 reference." in outline.content[0].text
    assert figure.structured_content["items"][0]["caption"] == "The engine at rest."
    assert table.structured_content["items"][0]["rows"] == [["Difference", "1.5"]]
    assert equation.structured_content["items"][0]["latex"] == "E=mc^{2}"  # the alttext as it is
    assert reference.structured_content["items"][0]["arxiv_id"] == "2401.12345"
    assert hits.structured_content["hits"][0]["place"] == "caption of Figure 1"
    assert image.contents[0].mime_type == "image/png"
    assert cited.structured_content["direction"] == "bibliography"
    assert [r.path for r in fake.requests] == [f"/html/{PID}v1", f"/html/{PID}v1/x1.png"]


def test_a_list_name_reads_the_section_of_that_name_when_the_text_marks_none():
    doc = Document.from_text("## 1 Intro\n\nText.\n\n## References\n\n[1] A. Author. Old work.")
    assert selectors.select(doc, "references", uri).label == "section:2 References"
    with pytest.raises(InvalidInput, match="marks no tables"):
        selectors.select(doc, "tables", uri)


_BAD_BODIES = [
    ("pdf", b""),
    ("pdf", b"<html><body>Not found</body></html>"),
    ("pdf", b"%PDF-1.4\n%%EOF\n"),
    ("source", plain_tar({"README": b"no TeX here"})),
    ("source", plain_tar({"main.tex": b"\\documentclass{article}\\begin{document}\\end{document}"})),
]


@pytest.mark.parametrize("source, raw", _BAD_BODIES)
def test_an_extractor_names_the_fault_and_gives_no_advice(source, raw):
    """The reader tries every source in turn and alone says what is left to do."""
    from arxiv_mcp.reading import what_failed
    from arxiv_mcp.text.extract import extract

    with pytest.raises(ExtractionError) as caught:
        extract(source, raw, None, "pypdf")
    said = str(caught.value)
    assert said and not re.search(r"\b(?:instead|read the|download|try again)\b", said, re.IGNORECASE)
    assert what_failed(caught.value) == said.rstrip(" .;")


@pytest.mark.anyio
async def test_when_every_source_fails_the_reader_alone_says_what_to_do(fake, connect, service):
    from tests.fake_arxiv import STUB

    paper = html_paper(PID, "Sparse graphs")
    paper.html, paper.source, paper.pdf = STUB, b"\x1f\x8b\x08\x00broken", None
    fake.add(paper)
    async with connect(service=service) as client:
        got = await client.call_tool("read_paper", {"paper_id": f"{PID}v1"})
    said = got.content[0].text
    assert got.is_error and "HTML is not available" in said and "source: " in said
    # a cut gzip is a file arXiv may still be making: the advice is time, given once
    assert "instead" not in said and said.count("read again in a few minutes") == 1 and "another version" not in said


@pytest.mark.anyio
@pytest.mark.parametrize("versions", [1, 2])
async def test_the_reader_offers_another_version_only_when_there_is_one(fake, connect, service, versions):
    """Advice that fails when followed is a bug: a paper with one version has no other to try."""
    paper = html_paper(PID, "Sparse graphs", versions=versions)
    paper.html, paper.source, paper.pdf = None, _eprint({"../outside.tex": b"\\section{S} Text."}), None
    fake.add(paper)
    async with connect(service=service) as client:
        got = await client.call_tool("read_paper", {"paper_id": PID})
    said = got.content[0].text
    assert got.is_error and f"No full text could be obtained for {PID}v{versions}" in said
    assert ("Try another version" in said) == (versions > 1)
    assert ("It has no other version; use get_paper for the abstract." in said) == (versions == 1)


@pytest.mark.anyio
async def test_a_file_arxiv_is_still_preparing_is_worth_a_read_again_later(fake, connect, service):
    """arXiv's 'file not ready' e-print (a real one) is no reason to try another version: time is."""
    from pathlib import Path

    paper = html_paper(PID, "Sparse graphs")
    fixture = Path(__file__).parent / "fixtures" / "src" / "edgecase_file_not_ready.gz"
    paper.html, paper.source, paper.pdf = None, fixture.read_bytes(), None
    fake.add(paper)
    async with connect(service=service) as client:
        got = await client.call_tool("read_paper", {"paper_id": PID})
    said = got.content[0].text
    assert got.is_error and "source: not usable yet" in said
    assert "read again in a few minutes" in said and "other version" not in said


def test_a_panel_image_from_the_cached_eprint(fake, service):
    fake.add(html_paper(PID, "Sparse graphs"))
    b = DocumentBuilder()
    panels = (Subfigure("a", "Left.", ("figs/left.png",)), Subfigure("b", "Right.", ("figs/right.png",)))
    b.block(Kind.FIGURE, "Figure 4: Views.", Figure("Figure 4", "4", "Views.", panels))
    _cache_document(service, b.build())
    right = _png() + b"right"
    service.cache.put_raw(
        PaperId(PID, 1), "source", _eprint({"figs/left.png": _png(), "figs/right.png": right}), "application/gzip"
    )
    assert service.figure_image(f"{PID}v1", "4b") == right
    assert service.figure_image(f"{PID}v1", "4") == _png()
    assert fake.requests == []
