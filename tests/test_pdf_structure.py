"""pdf_to_document: what a PDF prints about its structure (numbers, captions, equations,
references, citations) marked over the same text pdf_to_text gives, in both engines."""

from __future__ import annotations

import random
import re

import pytest

from arxiv_mcp.text.document import Document, Equation, Figure, Footnote, Heading, Kind, Reference, Table
from arxiv_mcp.text.extract import from_pdf
from arxiv_mcp.text.pdf import engine as pdf_text
from arxiv_mcp.text.pdf import pdf_to_document, pdf_to_text, sentences, tables
from arxiv_mcp.text.pdf.layout import HeadingLine, Numbering, PageLine
from arxiv_mcp.text.pdf.structure import pdf_document
from arxiv_mcp.text.pdf.tables import PlacedLine
from arxiv_mcp.text.shape import HEADING_RE, is_page_title
from tests.conftest import paper
from tests.pdfgen import make_pdf, make_placed_pdf
from tests.test_pdf_text import same_characters

HAS_PDFIUM = pdf_text._import_pdfium() is not None
ENGINES = ["pypdf", pytest.param("pdfium", marks=pytest.mark.skipif(not HAS_PDFIUM, reason="pypdfium2 missing"))]

PROSE = [
    "Walruses gather on sea ice in large herds, which makes them easy to see from far",
    "above and hard to count from the ground, where one herd hides the next one behind.",
    "We count them from orbit over three winters and find more than anyone expected.",
]

WALRUS_PAGES = [
    "\n".join(
        [
            "Counting walruses from orbit",
            "1 Introduction",
            *PROSE,
            "Earlier counts [1] used aircraft, and later ones [1, 2] boats; see also [1-2].",
            *PROSE,
            "Figure 1: Walrus herds seen from orbit in the first",
            "winter, as counted before [2].",
            *PROSE,
            "2 Method",
            *PROSE,
            "N = a + b, (1)",
            *PROSE,
            "M = N × 2. (2)",
        ]
    ),
    "\n".join(
        [
            "2.1 Data",
            *PROSE,
            "Table 1: Walruses counted per herd.",
            "Herd Count Year",
            "North 120 2001",
            "South 95 2002",
            *PROSE,
            "References",
            "[1] A. Tusk, Walrus herds from the air, arXiv:2401.12345 (2001).",
            "[2] B. Flipper, Seals and walruses, J. Ice 12, 3 (2010),",
            "doi:10.1000/ice.2010.3.",
        ]
    ),
]


@pytest.mark.parametrize("engine", ENGINES)
def test_captions_equations_references_and_citations_are_marked(engine):
    data = make_pdf(WALRUS_PAGES)
    document = pdf_to_document(data, engine=engine)
    assert same_characters(document.text, pdf_to_text(data, engine=engine))

    headings = document.records(Heading)
    assert [(h.title, h.number) for h in headings] == [
        ("1 Introduction", "1"),
        ("2 Method", "2"),
        ("2.1 Data", "2.1"),
        ("References", None),
    ]
    (figure,) = document.records(Figure)
    assert (figure.label, figure.number, figure.caption) == (
        "Figure 1",
        "1",
        "Walrus herds seen from orbit in the first winter, as counted before [2].",
    )
    (table,) = document.records(Table)
    assert (table.label, table.number, table.caption, table.approximate) == (
        "Table 1",
        "1",
        "Walruses counted per herd.",
        True,
    )
    assert table.rows == (("Herd Count Year",), ("North", "120", "2001"), ("South", "95", "2002"))
    assert [(e.number, e.latex) for e in document.records(Equation)] == [("1", "N = a + b,"), ("2", "M = N × 2.")]

    first, second = document.records(Reference)
    assert (first.label, first.arxiv_id, first.doi) == ("1", "2401.12345", None)
    assert first.text == "A. Tusk, Walrus herds from the air, arXiv:2401.12345 (2001)."
    assert (second.label, second.arxiv_id, second.doi) == ("2", None, "10.1000/ice.2010.3")
    cited = [(document.text[c.start : c.end], c.targets) for c in document.citations]
    assert cited == [("[1]", ("1",)), ("[1, 2]", ("1", "2")), ("[1-2]", ("1", "2")), ("[2]", ("2",))]
    for kind in (Kind.FIGURE, Kind.TABLE, Kind.EQUATION, Kind.REFERENCE):
        for block in document.blocks_of(kind):
            assert "## Page" not in document.text[block.start : block.end]


def test_from_pdf_gives_the_document_with_the_stamp_as_a_note():
    stamp = "arXiv:2401.12345v1 [cs.LG] 1 Jan 2024"
    data = make_pdf([WALRUS_PAGES[0] + "\n" + stamp, WALRUS_PAGES[1]])
    document = from_pdf(data, engine="pypdf")
    assert document.notes == {"stamp": stamp} and "arXiv:2401.12345v1" not in document.text
    assert len(document.records(Reference)) == 2


@pytest.mark.anyio
async def test_read_paper_gives_the_side_stamp_as_metadata_not_text(fake, connect):
    """The stamp names the version and its date: a model reading the paper is shown it, in
    the answer's fields and its header, and never inside the paper's text, also from the cache."""
    stamp = "arXiv:2401.12345v1 [cs.LG] 1 Jan 2024"
    fake.add(paper("2401.12345", "Walruses", pdf=make_pdf([WALRUS_PAGES[0] + "\n" + stamp, WALRUS_PAGES[1]])))
    async with connect() as client:
        first = await client.call_tool("read_paper", {"paper_id": "2401.12345"})
        again = await client.call_tool("read_paper", {"paper_id": "2401.12345", "page_size": 1000})
    for got in (first, again):
        assert not got.is_error, got.content[0].text
        assert got.structured_content["stamp"] == stamp and stamp not in got.structured_content["text"]
        assert got.content[0].text.splitlines()[0].count(stamp) == 1
    assert again.structured_content["cached"]


def document_of(lines: list[str]) -> Document:
    """pdf_document of the lines of a text in the shared page format, handed over as the engine
    hands them: its page markers and headings as the lines they are (layout's PageLine and
    HeadingLine), not as text."""
    numbering = Numbering()
    typed: list[str] = []
    for line in lines:
        heading = HEADING_RE.fullmatch(line)
        if heading is None:
            typed.append(line)
        elif is_page_title(heading[2]):
            typed.append(PageLine(int(heading[2].removeprefix("Page "))))
        else:
            typed.append(numbering(len(heading[1]), heading[2]))
    return pdf_document(typed)


def page(*lines: str) -> str:
    return "## Page 1\n" + "\n".join(lines)


def test_mending_words_after_reading_order_keeps_what_each_line_is():
    # a heading is whole as layout wrote it, and a table's row keeps its placed pieces
    heading = Numbering()(2, "2 Pre- and Post-Counting Methods")
    row = PlacedLine("Pre- and post 120", [(72.0, 90.0, "Pre- and post"), (200.0, 220.0, " 120")])
    lines = [heading, "walruses", row, "counted on the ice by two-", "dimensional grids."]
    mended = pdf_text._mend_hyphens(lines, frozenset({"two-dimensional"}))
    assert mended[:3] == lines[:3] and isinstance(mended[0], HeadingLine) and isinstance(mended[2], PlacedLine)
    assert mended[3:] == ["counted on the ice by two-dimensional", "grids."]
    assert [h.number for h in document_of(["## Page 1", heading, "", "Words."]).records(Heading)] == ["2"]


def test_revtex_subsections_are_numbered_under_their_roman_section():
    text = page("## I. INTRODUCTION", "", "Words.", "", "## II. METHOD", "", "Words.", "", "### A. Data", "", "Words.")
    numbers = [h.number for h in document_of(text.split("\n")).records(Heading)]
    assert numbers == ["I", "II", "II.A"]
    appendix = page("## 1 Introduction", "", "Words.", "", "## A Proofs", "", "Words.", "", "### A.1 Lemmas")
    assert [h.number for h in document_of(appendix.split("\n")).records(Heading)] == ["1", "A", "A.1"]


def test_a_label_a_sentence_carries_to_a_line_start_is_not_a_caption():
    text = page(
        "The herds are largest in March, as shown in",
        "Figure 2. Then they split up.",
        "FIG. 3. Herd sizes per month.",
        "",
        "Table 2 shows the counts.",
        "TABLE IV",
        "Counts per herd",
        "",
        "Tight Figure 4: Regions of the ice.",
    )
    found = document_of(text.split("\n"))
    labels = [r.label for r in (*found.records(Figure), *found.records(Table))]
    assert sorted(labels) == ["FIG. 3", "Figure 4", "TABLE IV"]
    assert found.records(Table)[0].caption == "Counts per herd"


def test_an_equation_number_must_continue_the_numbering():
    text = page(
        "x = y (1)",
        "The cost is O(1) per step and stays O(1) (1)",
        "The model of ref (7)",
        "",
        "z = x + y (2)",
        "(3)",
        "f(x) = 3, (2.1)",
    )
    assert [e.number for e in document_of(text.split("\n")).records(Equation)] == ["1", "2", "3"]


def test_equations_numbered_by_section_chain_across_sections_and_sub_letters():
    text = page(
        "a = b (2.1)",
        "c = d (2.2)",
        "e = f (2.2)",
        "g = h (3.1)",
        "i = j (3.2a)",
        "k = l (3.2b)",
        "m = n (5.7)",
        "p = q (4.1)",
    )
    numbers = [e.number for e in document_of(text.split("\n")).records(Equation)]
    assert numbers == ["2.1", "2.2", "3.1", "3.2a", "3.2b", "4.1"]


def test_reference_entries_of_each_style_are_split():
    numbered = page("## References", "", "1. A. Tusk, Walruses. J. Ice 1", "(2001).", "2. B. Flipper, Seals (2010).")
    assert [r.label for r in document_of(numbered.split("\n")).records(Reference)] == ["1", "2"]
    keyed = page("## References", "", "[Tus01] A. Tusk, Walruses (2001).", "[Fli10] B. Flipper, Seals (2010).")
    assert [r.label for r in document_of(keyed.split("\n")).records(Reference)] == ["Tus01", "Fli10"]
    author_year = page(
        "## REFERENCES",
        "",
        "Tusk A., Flipper B., 2001, J. Ice,",
        "12, 3",
        "Walrus C. D., 2010, Mon. Not. R.",
        "Astron. Soc., 400, 1",
        "## Page 2",
        "John D Smith and Ann Lee. Counting seals. In Proc. Ice,",
        "2012.",
        "",
        "Anthropic. Claude, 2024. URL https://arxiv.org/abs/2401.",
        "12345.",
    )
    entries = document_of(author_year.split("\n")).records(Reference)
    assert [r.label for r in entries] == ["Tusk 2001", "Walrus 2010", "Smith 2012", "Anthropic 2024"]
    assert entries[1].text == "Walrus C. D., 2010, Mon. Not. R. Astron. Soc., 400, 1"
    unheaded = page("## II. METHOD", "", "Words.", "", "[1] A. Tusk, Walruses (2001).", "[2] B. Flipper, Seals.")
    assert len(document_of(unheaded.split("\n")).records(Reference)) == 2


@pytest.mark.parametrize("engine", ENGINES)
def test_a_paragraph_reads_on_one_line_with_its_broken_words_joined(engine):
    lines = [
        "Counting walruses from orbit",
        "Walruses gather on sea ice in large herds that we count with trans-",
        "formers trained on the pairs of English-to-",
        "German sentences, from images at https://example.org/ice/",
        "walrus.html and from aircraft flying over the Wolf-",
        "Rayet ice shelf in the winters of both years.",
        "• one item",
        "• another item",
        "Walruses gather on sea ice in large herds that we count with satellites and with",
        "Herd Count Winter Sea",
        "North 120 2001 Barents",
    ]
    text = pdf_to_document(make_pdf(["\n".join(lines)]), engine=engine).text
    assert text.endswith("with\nHerd Count Winter Sea\nNorth 120 2001 Barents")  # a table's lines stay lines
    assert (
        "\nCounting walruses from orbit\nWalruses gather on sea ice in large herds that we count with"
        " transformers trained on the pairs of English-to-German sentences, from images at"
        " https://example.org/ice/walrus.html and from aircraft flying over the Wolf-Rayet ice shelf in the"
        " winters of both years.\n\n• one item\n• another item"
    ) in text


def test_author_year_citations_name_their_entries():
    text = page(
        "## 1 Introduction",
        "",
        "Herds were counted by Tusk et al. (2001) and later (Walrus & Seal, 2010; Tusk et al., 1999).",
        "",
        "## References",
        "",
        "Tusk A., Flipper B., 2001, J. Ice, 12, 3",
        "Walrus C. D., 2010, Mon. Not. R. Astron. Soc., 400, 1",
    )
    document = document_of(text.split("\n"))
    cited = [(document.text[c.start : c.end], c.targets) for c in document.citations]
    assert cited == [("Tusk et al. (2001", ("Tusk 2001",)), ("Walrus & Seal, 2010", ("Walrus 2010",))]


def test_plain_numbered_entries_after_the_last_section_are_the_references():
    entries = [f"{n} A. Author{n}, Phys. Rev. B {n}, 1 (2001)." for n in range(1, 7)]
    entries[3:4] = ["4", "B. Author, Phys. Rev. Lett. 4, 2 (2002)."]  # the number on a line of its own
    text = page(
        "## I. INTRODUCTION", "", "1 Apples are counted.", "2 Pears next.", "", "## ACKNOWLEDGMENTS", "", *entries
    )
    found = document_of(text.split("\n")).records(Reference)
    assert [r.label for r in found] == ["1", "2", "3", "4", "5", "6"]
    assert found[3].text == "B. Author, Phys. Rev. Lett. 4, 2 (2002)."


def test_a_caption_ends_where_the_table_under_it_begins():
    full = "Walruses gather on sea ice in large herds, which makes them easy to count from far."
    text = page(
        full,
        full,
        "Table 3: Walruses counted per herd and per winter over the three winters of the survey, in",
        "thousands, as the satellites saw them in the images of March.",
        "Herd Count Winter",
        "North Sea herd 120 2001",
        "South 95 2002",
        "the counts were then compared with those made from aircraft in the same months.",
        full,
    )
    (table,) = document_of(text.split("\n")).records(Table)
    assert table.caption.endswith("in the images of March.")
    assert table.rows == (("Herd Count Winter",), ("North Sea herd", "120", "2001"), ("South", "95", "2002"))


def _two_column_page() -> list[tuple[float, float, str, str]]:
    """A two-column page in the order pdfTeX writes it: the left column, its footnote, then the
    right column, whose head holds a figure before the rest of the paragraph the left began."""
    left = [
        ("1 Introduction", "bold"),
        ("Walruses gather on sea ice in large herds, which", "body"),
        ("makes them easy to see from far above and hard to", "body"),
        ("count from the ground, where one herd hides the", "body"),
        ("next one behind it. We count them from orbit with", "body"),
        ("a model that looks at each herd in turn, and the", "body"),
        ("counts we report here come from deep networks, trans-", "body"),
    ]
    right = [
        ("Figure 1: Walrus herds seen from orbit in the first", "body"),
        ("winter of the survey, as the model counted them.", "body"),
        ("formers trained on aerial images, so that the herds", "body"),
        ("we found were larger than the earlier counts.", "body"),
        ("2 Method", "bold"),
        ("We fly over the ice twice a winter and count the", "body"),
        ("herds on each flight, from the images we take.", "body"),
    ]
    page = [(50.0, 740.0 - 14 * row, text, style) for row, (text, style) in enumerate(left)]
    page.append((50.0, 90.0, "1 The first winter was counted by hand, and twice.", "small"))
    page += [(316.0, 740.0 - 14 * row, text, style) for row, (text, style) in enumerate(right)]
    return page


@pytest.mark.parametrize("engine", ENGINES)
def test_a_paragraph_runs_on_past_the_footnote_and_the_float_between_its_columns(engine):
    data = make_placed_pdf([_two_column_page()])
    document = pdf_to_document(data, engine=engine)
    text = document.text
    assert same_characters(text, pdf_to_text(data, engine=engine))  # the plain text reads in the same order
    paragraph = (
        "Walruses gather on sea ice in large herds, which makes them easy to see from far above and hard"
        " to count from the ground, where one herd hides the next one behind it. We count them from orbit"
        " with a model that looks at each herd in turn, and the counts we report here come from deep"
        " networks, transformers trained on aerial images, so that the herds we found were larger than"
        " the earlier counts."
    )
    assert paragraph in text
    caption = "Figure 1: Walrus herds seen from orbit in the first winter of the survey, as the model counted them."
    footnote = "1 The first winter was counted by hand, and twice."
    # left column, then right; the float after the paragraph; the footnote after its page's text
    assert text.index(paragraph) < text.index(caption) < text.index("## 2 Method") < text.index(footnote)
    assert [figure.caption for figure in document.records(Figure)] == [caption[len("Figure 1: ") :]]


def test_text_that_only_looks_like_a_footnote_stays_where_it_is():
    lines = [
        "## Page 1",
        "We count the walruses of the whole coast from orbit, in",
        "12 Galaxies of herds that no aircraft could have seen,",
        "and we find more of them than anyone expected before.",
        "Figure 2: The coast as seen from orbit in the winter.",
        "The herds are larger in the north than in the south.",
    ]
    text = document_of(lines).text
    assert text.index("12 Galaxies") < text.index("and we find") < text.index("Figure 2")


def test_a_footnote_under_the_last_paragraph_of_a_page_is_a_paragraph_of_its_own():
    lines = [
        "## Page 1",
        "The herds we counted from orbit are presented in the right panel of figure 3.",
        "7 The herds of the first winter were counted by hand, from the aircraft, by two",
        "observers who did not see each other's counts.",
        "\u2217Corresponding author: walrus@example.org",
    ]
    text = document_of(lines).text
    assert (
        "figure 3.\n7 The herds of the first winter were counted by hand, from the aircraft, by two observers" in text
    )
    assert "counts.\n\u2217Corresponding author" in text


def test_a_figure_after_the_references_is_a_figure_not_part_of_the_last_entry():
    lines = [
        "## Page 1",
        "## References",
        "",
        "[1] A. Walrus. Counting herds from orbit. Journal of Ice, 2020.",
        "[2] B. Seal. Herds on the drifting ice. Journal of Ice, 2021.",
        "",
        "## Page 2",
        "Figure 3: Herds seen from orbit in the first winter of the survey.",
    ]
    document = document_of(lines)
    assert [figure.number for figure in document.records(Figure)] == ["3"]
    assert [entry.text for entry in document.records(Reference)][
        -1
    ] == "B. Seal. Herds on the drifting ice. Journal of Ice, 2021."


def test_footnotes_at_a_pages_end_are_footnote_blocks_with_their_marks():
    lines = [
        "## Page 1",
        "The herds we counted from orbit are larger than the counts made from aircraft,7 and",
        "the first winter's herds were counted twice.\u2217",
        "8 More herds were seen in the north than in the south of the coast.",
        "7 The herds of the first winter were counted by hand, from the aircraft, by two",
        "observers who did not see each other's counts.",
        "\u2217Corresponding author: walrus@example.org",
        "15 University of Bern, CH-3012 Bern, Switzerland",
        "## Page 2",
        "The herds of the second winter were larger, as the counts show.9",
        "9",
        "Counted from the aircraft alone.",
    ]
    document = document_of(lines)
    notes = document.records(Footnote)
    assert [(note.mark, note.text) for note in notes] == [
        (
            "7",
            "The herds of the first winter were counted by hand, from the aircraft, by two observers who did not"
            " see each other's counts.",
        ),
        ("\u2217", "Corresponding author: walrus@example.org"),
        ("9", "Counted from the aircraft alone."),  # its mark on a line of its own, as pdfium may give it
    ]  # "8" is printed raised nowhere above, and an institute under its mark is no footnote
    block = next(block for block in document.blocks if block.kind is Kind.FOOTNOTE)
    assert document.text[block.start : block.end].startswith("7 The herds of the first winter")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_footnote_a_paragraph_ran_past_is_a_footnote_block_at_its_pages_end(engine):
    page = [
        (x, y, text.replace("deep networks,", "deep networks,1"), style) for x, y, text, style in _two_column_page()
    ]
    document = pdf_to_document(make_placed_pdf([page]), engine=engine)
    (note,) = document.records(Footnote)
    assert (note.mark, note.text) == ("1", "The first winter was counted by hand, and twice.")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_float_at_the_head_of_a_page_follows_the_paragraph_the_page_before_left_open(engine):
    first = [*PROSE, "Walruses gather on sea ice in large herds, and we count them with networks trained on"]
    second = [
        "Herd size (animals)",
        "Figure 2: Herds counted in the second winter of the survey.",
        "aerial images of the herds, taken from aircraft that flew over the ice every week.",
        *PROSE,
    ]
    data = make_pdf(["\n".join(first), "\n".join(second)])
    for text in (pdf_to_text(data, engine=engine), pdf_to_document(data, engine=engine).text):
        page = text.split("## Page 2\n")[1]
        assert page.startswith("aerial images of the herds")
        assert page.index("one behind.") < page.index("Herd size (animals)") < page.index("Figure 2: Herds counted")


_WORD_START = re.compile(r"(?<!\S)[^\W_]")
_LOWER_START = re.compile(r"(?<!\S)[^\W\d_A-Z\u00c0-\u00de\u0391-\u03a9\u0410-\u042f]")


def test_a_tabular_line_is_told_as_by_its_word_starts():
    """Counted word by word (with an early end) as the two patterns count them."""
    rng = random.Random(11)
    alphabet = "ab Z9_-(\u00e9\u00c9\u03a9\u03c9\u042f\u044f\u0663\u00a0\t"
    for _ in range(20_000):
        line = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24)))
        words = len(_WORD_START.findall(line))
        expected = words > 0 and len(_LOWER_START.findall(line)) * 2 < words
        assert tables.looks_tabular.__wrapped__(line) == expected, line


def test_a_sentence_end_is_told_as_by_its_pattern():
    rng = random.Random(13)
    alphabet = "ab1 .!?)]'\"\u2019\u201dZ\n"
    for _ in range(20_000):
        line = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        assert sentences.ends_sentence.__wrapped__(line) == bool(
            sentences._SENTENCE_END.search(line[-sentences._TAIL :])
        ), line
