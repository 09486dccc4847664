"""pdf_to_text: page format, text clean-up, errors and engine choice, on real and hand-made PDFs."""

from __future__ import annotations

import itertools
import random
import re
import sys
import zlib
from dataclasses import replace
from io import BytesIO
from pathlib import Path

import pypdf
import pytest

from arxiv_mcp.errors import ExtractionError, NoTextLayer
from arxiv_mcp.text.outline import select_section
from arxiv_mcp.text.pdf import FAILED_PAGE_NOTE, pdf_to_document, pdf_to_text
from arxiv_mcp.text.pdf import engine as pdf_text
from arxiv_mcp.text.pdf import fonts as pdf_fonts
from arxiv_mcp.text.pdf import glyphs as pdf_glyphs
from arxiv_mcp.text.pdf import layout as pdf_layout
from arxiv_mcp.text.pdf import work as pdf_work
from arxiv_mcp.text.pdf.lines import Line, PageText, Style, heading_fragments
from tests.conftest import paper
from tests.pdfgen import assemble, make_styled_pdf

FIXTURES = Path(__file__).parent / "fixtures" / "pdf"
REVTEX_2009 = FIXTURES / "0908.0054v1.pdf"  # 4 pages, two columns, arXiv side stamp
WORD_2018 = FIXTURES / "1805.05865_pdf-only-submission.pdf"  # 4 pages, broken xref, no stamp

HAS_PDFIUM = pdf_text._import_pdfium() is not None
ENGINES = ["pypdf", pytest.param("pdfium", marks=pytest.mark.skipif(not HAS_PDFIUM, reason="pypdfium2 missing"))]


# --- a hand-made PDF: Helvetica text, one content stream per page ----------------------


def _pdf_string(text: str) -> bytes:
    """Latin-1 bytes read through Helvetica's StandardEncoding (0xC2 is an acute, 0xAE 'fi')."""
    return b"(" + text.encode("latin-1").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def text_page(*lines: str) -> bytes:
    shown = b"".join(_pdf_string(line) + b" Tj T* " for line in lines)
    return b"BT /F1 10 Tf 12 TL 72 720 Td " + shown + b"ET"


def drawing_page() -> bytes:
    return b"0.5 w 72 72 m 540 720 l S 100 100 200 150 re f"


class Flate(bytes):
    """A page stream to be stored compressed (a few KB standing for megabytes of operators)."""


def make_pdf(*page_streams: bytes) -> bytes:
    count = len(page_streams)
    kids = b" ".join(b"%d 0 R" % (4 + 2 * i) for i in range(count))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % count,
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for i, stream in enumerate(page_streams):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % (5 + 2 * i)
        )
        if isinstance(stream, Flate):
            packed = zlib.compress(stream, 9)
            objects.append(b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(packed) + packed + b"\nendstream")
        else:
            objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    return assemble(objects)


SENTENCE = "Plain words on a page, long enough to count as a text layer."
OTHER = "Other words on another page, where the argument goes on."


def page_texts(text: str) -> list[str]:
    """Split the page format back into page bodies, checking the headings run 1..N."""
    parts = re.split(r"(?:^|\n\n)## Page (\d+)", text)
    assert parts[0] == ""
    numbers = [int(n) for n in parts[1::2]]
    assert numbers == list(range(1, len(numbers) + 1))
    bodies = parts[2::2]
    assert all(body == "" or body.startswith("\n") for body in bodies)
    return [body[1:] for body in bodies]


def body_lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if not re.fullmatch(r"## Page \d+", line)]


# --- real arXiv PDFs --------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_revtex_paper_gives_every_page_in_order(engine):
    document = pdf_to_document(REVTEX_2009.read_bytes(), engine=engine)
    text = document.text
    plain = pdf_to_text(REVTEX_2009.read_bytes(), engine=engine)
    assert same_characters(text, plain)  # the same text: paragraphs on a line, blocks apart
    pages = page_texts(text)
    assert len(pages) == 4
    assert "Ultra light bosonic dark matter and CMB" in pages[0]
    assert "Class. Quantum Grav. 19 2617-2632 (2002)" in pages[3]
    assert text.index("Ultra light bosonic dark matter") < text.index("Seljak U. and Zaldarriaga M.")
    assert "Cosmic Microwave" in pages[0]  # "Mi-" + "crowave" across a line end, mended
    assert "Física" in pages[0]  # "F´ısica" from a TeX font, composed
    assert document.notes["stamp"] == "arXiv:0908.0054v1 [astro-ph.CO] 1 Aug 2009"  # the side stamp: a note
    assert "arXiv:0908.0054v1" not in text
    headings = [line for line in body_lines(text) if line.startswith("#")]
    assert headings[:2] == ["## I. INTRODUCTION", "## II. ULTRA LIGHT BOSONS AS DARK MATTER"]
    assert "## Acknowledgements" in headings and all(re.fullmatch(r"## [A-Z][^#]+", h) for h in headings)
    assert not re.search(r"[\x00-\x09\x0b-\x1f\ufffe]| \n| $", text)


@pytest.mark.parametrize("engine", ENGINES)
def test_word_submission_with_broken_xref_reads_and_keeps_stdout_clean(engine, capsys):
    text = pdf_to_text(WORD_2018.read_bytes(), engine=engine)
    pages = page_texts(text)
    assert len(pages) == 4
    assert pages[0].startswith("Lets Talk About Black Hole Singularities")
    assert "Abraham Loeb is chair of the astronomy department" in pages[2]
    assert "\t" not in text and "  " not in text
    assert capsys.readouterr().out == ""


def test_both_engines_agree_on_page_count_and_opening_words():
    if not HAS_PDFIUM:
        pytest.skip("pypdfium2 missing")
    data = REVTEX_2009.read_bytes()
    by_pypdf = page_texts(pdf_to_text(data, engine="pypdf"))
    by_pdfium = page_texts(pdf_to_text(data, engine="pdfium"))
    assert len(by_pypdf) == len(by_pdfium)
    for ours, theirs in zip(by_pypdf, by_pdfium):
        assert ours.split()[:5] == theirs.split()[:5]


# --- page format and clean-up -----------------------------------------------------------


def test_pages_are_headed_and_separated_by_one_blank_line():
    data = make_pdf(text_page("First page.", SENTENCE), text_page(OTHER), text_page("Last page words", SENTENCE))
    assert pdf_to_text(data, engine="pypdf") == (
        f"## Page 1\nFirst page.\n{SENTENCE}\n\n## Page 2\n{OTHER}\n\n## Page 3\nLast page words\n{SENTENCE}"
    )


def test_page_without_text_keeps_its_heading():
    data = make_pdf(text_page(SENTENCE, SENTENCE), drawing_page(), text_page(SENTENCE, SENTENCE))
    text = pdf_to_text(data, engine="pypdf")
    assert page_texts(text)[1] == ""
    assert "\n\n## Page 2\n\n## Page 3\n" in text


@pytest.mark.parametrize("engine", ENGINES)
def test_leading_hash_is_escaped(engine):
    data = make_pdf(text_page("# looks like a heading", "#2 in the ranking", SENTENCE, "C# and F# stay"))
    lines = body_lines(pdf_to_text(data, engine=engine))
    assert lines[:2] == ["\\# looks like a heading", "\\#2 in the ranking"]
    assert "C# and F# stay" in lines


@pytest.mark.parametrize(
    ("lines", "present"),
    [
        pytest.param(
            [
                "We train a trans-",
                "former on the data and reach state-of-the-",
                "art results, with a non-",
                "relativistic limit that is non-relativistic indeed and a mass-",
                "to-temperature ratio. Bose-",
                "Einstein statistics hold and we cite astro-",
                "ph/0603494 as well as a hy-",
                "phen.",
            ],
            [
                "We train a transformer\non the data",
                "reach state-of-the-art\nresults",
                "a non-relativistic\nlimit",  # the paper writes the word with its hyphen elsewhere
                "a mass-to-temperature\nratio",
                "Bose-\nEinstein",  # upper case after the hyphen: a name, left alone
                "astro-\nph/0603494",
                "a hyphen.\n",  # the whole next line moved up, no empty line left behind
            ],
            id="at-line-ends",
        ),
        # An engine may put a compound broken over two lines on one line with a space ("A two-
        # dimensional fit": pypdf, when the next line starts a little off): closed when the paper
        # writes the compound whole elsewhere; a suspended hyphen stays.
        pytest.param(
            [
                "A two- dimensional fit is made, with two-dimensional shapes,",
                "for pre- and post-processing alike, and a free- form guess.",
            ],
            [
                "A two-dimensional fit is made",
                "pre- and post-processing",
                "a free- form guess",  # not written whole anywhere: left as it is
            ],
            id="within-a-line",
        ),
    ],
)
@pytest.mark.parametrize("engine", ENGINES)
def test_words_broken_at_a_hyphen_are_mended(engine, lines, present):
    text = pdf_to_text(make_pdf(text_page(*lines, SENTENCE)), engine=engine)
    assert [fragment for fragment in present if fragment not in text] == []


@pytest.mark.parametrize("engine", ENGINES)
def test_whitespace_controls_accents_and_ligatures_are_normalised(engine):
    accents = "M\xc2exico and Lema\xc3\xf5tre"  # acute + e, circumflex + dotless i
    data = make_pdf(text_page("tab\there   and \x01\x02control  ", accents, "\xaenal \xafow", SENTENCE))
    lines = body_lines(pdf_to_text(data, engine=engine))
    assert lines[:3] == ["tab here and control", "México and Lemaître", "final flow"]


@pytest.mark.parametrize("engine", ENGINES)
def test_the_ij_ligature_is_two_letters(engine):
    # ATLAS papers' fonts draw "ij" as one ligature glyph: 2502.21088 read "multĳet" 34 times
    # ("Multĳet background estimate", "Beĳing"), which no search for "multijet" finds
    font = b"/BaseFont /Helvetica /Encoding << /BaseEncoding /WinAnsiEncoding /Differences [1 /ij 2 /IJ] >>"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
        b"<< /Type /Font /Subtype /Type1 " + font + b" >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>"
        b" /Contents 5 0 R >>",
    ]
    stream = b"BT /F1 10 Tf 14 TL 72 720 Td (The mult\\001et background in N\\001megen, \\002SSELMEER.) Tj T* ("
    stream += SENTENCE.encode() + b") Tj ET"
    objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
    text = pdf_to_text(assemble(objects), engine=engine)
    assert "The multijet background in Nijmegen, IJSSELMEER." in text


def test_a_short_line_ending_a_sentence_ends_a_paragraph():
    full = "this line is as long as a justified line of body text is"
    lines = [full, full, "and ends here.", "Next paragraph " + full, full, "short but going on", full]
    data = make_pdf(text_page(*lines))
    assert body_lines(pdf_to_text(data, engine="pypdf")) == [
        full,
        full,
        "and ends here.",
        "",
        "Next paragraph " + full,
        full,
        "short but going on",
        full,
    ]


# --- errors -----------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ["auto", *ENGINES])
def test_pages_without_text_operators_mean_no_text_layer(engine):
    data = make_pdf(drawing_page(), drawing_page(), drawing_page())
    with pytest.raises(NoTextLayer, match="no text layer"):
        pdf_to_text(data, engine=engine)


def test_a_page_number_alone_is_still_no_text_layer():
    data = make_pdf(text_page("1"), drawing_page(), text_page("3"))
    with pytest.raises(NoTextLayer):
        pdf_to_text(data, engine="pypdf")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"<!DOCTYPE html><html><body>Just a moment...</body></html>", "HTML page"),
        (b"PK\x03\x04 a zip file", "not a PDF"),
        (b"%PDF-1.7\n" + b"\x8f garbage " * 50, "corrupt, truncated"),
    ],
)
@pytest.mark.parametrize("engine", ["auto", *ENGINES])
def test_not_a_pdf_or_corrupt_bytes(data, message, engine):
    with pytest.raises(ExtractionError, match=message) as caught:
        pdf_to_text(data, engine=engine)
    assert not isinstance(caught.value, NoTextLayer)


@pytest.mark.parametrize("cut", [0.3, 0.5, 0.9])
@pytest.mark.parametrize("engine", ["auto", *ENGINES])
def test_a_truncated_pdf_gives_the_pages_it_still_holds(cut, engine):
    # the fonts were at the end: pypdf stands Helvetica in for them, as pdfium does
    data = REVTEX_2009.read_bytes()
    pages = page_texts(pdf_to_text(data[: int(len(data) * cut)], engine=engine))
    assert "Ultra light bosonic dark matter and CMB" in pages[0]
    assert len([page for page in pages if len(page) > 1000]) >= {0.3: 2, 0.5: 3, 0.9: 3}[cut]


@pytest.mark.parametrize("engine", ["auto", *ENGINES])
def test_a_pdf_cut_in_its_third_page_gives_the_two_before(engine):
    data = make_pdf(text_page(SENTENCE), text_page(OTHER), text_page("Third " + OTHER), text_page("Last " + OTHER))
    cut = data.index(b"(Third") + 3
    pages = page_texts(pdf_to_text(data[:cut], engine=engine))
    assert pages[:2] == [SENTENCE, OTHER]


@pytest.mark.parametrize("engine", ["auto", *ENGINES])
def test_a_pdf_cut_in_its_first_page_gives_what_that_page_drew_so_far(engine):
    # the cut falls inside the first content stream, before any page dictionary was written
    data = REVTEX_2009.read_bytes()
    pages = page_texts(pdf_to_text(data[:2000], engine=engine))
    assert pages[0].startswith("Ultra light bosonic dark matter and CMB") and len(pages) == 1


@pytest.mark.parametrize("engine", ["auto", "pypdf"])
def test_a_pdf_cut_before_any_page_is_an_extraction_error(engine):
    data = REVTEX_2009.read_bytes()
    with pytest.raises(ExtractionError, match="truncated"):
        pdf_to_text(data[:500], engine=engine)


@pytest.mark.skipif(not HAS_PDFIUM, reason="pypdfium2 missing")
def test_a_bit_flipped_pdf_reads_in_pypdf_as_far_as_pdfium_reads_it():
    # 20 seeded bit flips hit a font's width table and a content stream: pypdf once lost
    # every page sharing that font; now a fresh reader leaves out what it cannot read
    flipped = bytearray(REVTEX_2009.read_bytes())
    rnd = random.Random(3)
    for _ in range(20):
        flipped[rnd.randrange(len(flipped))] ^= 1 << rnd.randrange(8)

    def readable(engine: str) -> int:
        return sum(len(page) > 1000 for page in page_texts(pdf_to_text(bytes(flipped), engine=engine)))

    assert readable("pypdf") == readable("pdfium") == 4


def same_characters(document_text: str, lines_text: str) -> bool:
    """The document's text is the lines' text but for whitespace and words a line end broke."""
    unbroken = re.sub(r"(?<=[^\W\d_])-\n(?=[a-z])", "", lines_text)
    return re.sub(r"\s", "", document_text) == re.sub(r"\s", "", unbroken)


def _encrypted(user_password: str) -> bytes:
    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(BytesIO(make_pdf(text_page(SENTENCE)))))
    writer.encrypt(user_password=user_password, owner_password="owner", algorithm="RC4-128")
    out = BytesIO()
    writer.write(out)
    return out.getvalue()


@pytest.mark.parametrize("engine", ["auto", *ENGINES])
def test_encrypted_pdf(engine):
    with pytest.raises(ExtractionError, match="password"):
        pdf_to_text(_encrypted("secret"), engine=engine)
    assert pdf_to_text(_encrypted(""), engine=engine) == f"## Page 1\n{SENTENCE}"


@pytest.mark.parametrize("engine", ["auto", *ENGINES])
def test_deadline_already_passed(engine):
    with pytest.raises(ExtractionError, match="PDF extraction took too long"):
        pdf_to_text(make_pdf(text_page(SENTENCE)), engine=engine, deadline=0.0, clock=lambda: 5.0)


@pytest.mark.parametrize("engine", ENGINES)
def test_deadline_is_checked_between_pages(engine):
    ticks = itertools.count()
    data = make_pdf(*[text_page(SENTENCE)] * 4)
    with pytest.raises(ExtractionError, match="took too long.*before page 3 of 4"):
        pdf_to_text(data, engine=engine, deadline=1.5, clock=lambda: float(next(ticks)))


def test_auto_does_not_retry_pypdf_after_the_deadline(monkeypatch):
    if not HAS_PDFIUM:
        pytest.skip("pypdfium2 missing")
    called = []
    monkeypatch.setattr(
        pdf_text, "_pypdf_pages", lambda data, budget: called.append(1) or [PageText(SENTENCE, [], 612.0)]
    )
    with pytest.raises(ExtractionError, match="too long"):
        pdf_to_text(make_pdf(text_page(SENTENCE)), engine="auto", deadline=0.0, clock=lambda: 1.0)
    assert called == []


@pytest.mark.parametrize("engine", ["auto", *ENGINES])
def test_too_many_pages(engine):
    data = make_pdf(*[text_page(SENTENCE)] * 3)
    with pytest.raises(ExtractionError, match="3 pages, more than the 2"):
        pdf_to_text(data, engine=engine, max_pages=2)
    assert len(page_texts(pdf_to_text(data, engine=engine, max_pages=3))) == 3


def test_a_page_pypdf_cannot_read_is_noted_and_the_rest_kept(monkeypatch):
    original = pypdf.PageObject.extract_text

    def fail_on_the_broken_page(self, *args, **kwargs):  # also when a fresh reader reads it again
        if self.indirect_reference is not None and self.indirect_reference.idnum == 6:  # the second page
            raise KeyError("/Font")
        return original(self, *args, **kwargs)

    monkeypatch.setattr(pypdf.PageObject, "extract_text", fail_on_the_broken_page)
    data = make_pdf(text_page(SENTENCE), text_page(OTHER), text_page(OTHER))
    pages = page_texts(pdf_to_text(data, engine="pypdf"))
    assert pages == [SENTENCE, FAILED_PAGE_NOTE, OTHER]
    assert pdf_to_document(data, engine="pypdf").notes == {
        "damaged": "1 of 3 pages of the PDF could not be read (damaged, or too much work)"
    }


def test_no_readable_page_at_all_is_an_extraction_error(monkeypatch):
    def always_fail(self, *args, **kwargs):
        raise ValueError("bad content stream")

    monkeypatch.setattr(pypdf.PageObject, "extract_text", always_fail)
    with pytest.raises(ExtractionError, match="no page of the PDF could be read"):
        pdf_to_text(make_pdf(text_page(SENTENCE)), engine="pypdf")


def test_unknown_engine_is_a_programming_error():
    with pytest.raises(ValueError, match="engine"):
        pdf_to_text(make_pdf(text_page(SENTENCE)), engine="tesseract")


# --- engine choice ----------------------------------------------------------------------


class _SpyPdfium:
    """Stands in for the pdfium engine and records whether it ran."""

    def __init__(self, result=None, error: Exception | None = None):
        self.calls = 0
        self.result = result
        self.error = error

    def __call__(self, data, budget, refuse_heavy):
        self.calls += 1
        if self.error is not None:
            raise self.error
        return self.result


def test_auto_prefers_pdfium_and_pypdf_means_pypdf(monkeypatch):
    spy = _SpyPdfium(result=[PageText("text from the pdfium engine, long enough to count", [], 612.0)])
    monkeypatch.setattr(pdf_text, "_pdfium_pages", spy)
    data = make_pdf(text_page(SENTENCE))
    assert "pdfium engine" in pdf_to_text(data)
    assert pdf_to_text(data, engine="pypdf") == f"## Page 1\n{SENTENCE}"
    assert spy.calls == 1
    assert "pdfium engine" in pdf_to_text(data, engine="pdfium")


@pytest.mark.parametrize(
    "spy",
    [
        _SpyPdfium(error=pdf_text._PdfiumFailed("Failed to load document")),
        _SpyPdfium(
            result=[PageText("", [], 612.0), PageText("", [], 612.0)]
        ),  # pdfium found no text: pypdf gets a chance
    ],
)
def test_auto_falls_back_to_pypdf_when_pdfium_fails(monkeypatch, spy):
    monkeypatch.setattr(pdf_text, "_pdfium_pages", spy)
    assert pdf_to_text(make_pdf(text_page(SENTENCE))) == f"## Page 1\n{SENTENCE}"
    assert spy.calls == 1


def test_without_pypdfium2_auto_uses_pypdf_and_pdfium_says_what_to_install(monkeypatch):
    monkeypatch.setattr(pdf_text, "_import_pdfium", lambda: None)
    data = make_pdf(text_page(SENTENCE))
    assert pdf_to_text(data) == f"## Page 1\n{SENTENCE}"
    with pytest.raises(ExtractionError, match="not installed.*'fast' extra"):
        pdf_to_text(data, engine="pdfium")


# --- the work limit is per page ---------------------------------------------------------


def heavy_drawing(megabytes: int) -> Flate:
    return Flate(b"0.5 w " + b"72 72 m 540 720 l 300 300 l S " * (megabytes * 2**20 // 30))


def test_text_operators_weigh_more_than_paths():
    text_bomb = Flate(b"BT /F1 10 Tf 72 720 Td " + b"(a) Tj " * (5 * 2**20 // 7) + b"ET")
    data = make_pdf(text_page(SENTENCE), heavy_drawing(5), text_bomb)
    assert pdf_work.heavy_pages(data, 10) == {2}


def form_object(body: bytes, header: bytes = b"", length: int | None = None) -> bytes:
    """A compressed form XObject; `length` overrides the true /Length (a file that lies)."""
    packed = zlib.compress(body)
    size = b"%d" % (len(packed) if length is None else length)
    return (
        b"<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Filter /FlateDecode "
        + header
        + b" /Length "
        + size
        + b" >>\nstream\n"
        + packed
        + b"\nendstream"
    )


LEAF = b"0.5 w 72 72 m 540 720 l S " * 20
FORM_SHAPES = {
    "simple": form_object(LEAF),
    "string in its dictionary": form_object(LEAF, b"/PTEX.FileName (./fig >> stream.pdf)"),
    "indirect length": form_object(LEAF, length=0).replace(b"/Length 0", b"/Length 9 0 R"),
    "a length that lies": form_object(b"BT /F1 9 Tf (a) Tj ET " * 40_000, length=8),
    "drawing a form": form_object(b"/L Do /L Do", b"/Resources << /XObject << /L 5 0 R >> >>"),
    "resources as an object": form_object(b"/L Do q /L Do Q", b"/Resources 8 0 R"),
    "drawing a name it lacks": form_object(b"/L Do /M Do", b"/Resources 8 0 R"),
}


@pytest.mark.parametrize("shape", list(FORM_SHAPES))
def test_forms_measured_from_the_file_bytes_weigh_what_pypdf_says(shape):
    # the page draws the form 3 times; object 9 is the indirect length, 5 a simple leaf form
    page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /X 6 0 R >> >> /Contents 4 0 R >>"
    leaf = form_object(LEAF)
    shaped = FORM_SHAPES[shape].replace(b"9 0 R", b"%d 0 R" % 7)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        page,
        b"<< /Length 17 >>\nstream\n/X Do /X Do /X Do\nendstream",
        leaf,
        shaped,
        b"%d" % len(zlib.compress(LEAF)),
        b"<< /XObject << /L 5 0 R >> /ProcSet [/PDF] >>",
    ]
    data = assemble(objects)
    reader = pypdf.PdfReader(BytesIO(data))
    by_pypdf = pdf_work.page_work(reader.pages[0], 2**30)
    by_bytes = pdf_work.page_work(reader.pages[0], 2**30, {}, pdf_work.RawForms(data, reader.xref))
    assert by_bytes == by_pypdf > 3 * len(LEAF)


@pytest.mark.parametrize(
    "escaped", [b"/Subtype /F#6frm", b"/Subtyp#65 /Form", b"/XObject << /#4c 5 0 R >>"], ids=["value", "key", "name"]
)
def test_a_form_whose_names_are_escaped_is_measured_as_pdfium_reads_it(escaped):
    """pdfium reads `/F#6frm` as `/Form` (and parses it as one): a form dictionary holding an
    escape is measured by pypdf, which reads it so too, not taken for no form at all."""
    heavy = form_object(b"BT /F1 9 Tf (a) Tj ET 0.5 w 72 72 m 540 720 l S " * 400)
    drawing = form_object(b"/L Do " * 20, b"/Resources << /XObject << /L 5 0 R >> >>")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /Resources << /XObject << /X 6 0 R >> >> /Contents 4 0 R >>",
        b"<< /Length 17 >>\nstream\n/X Do /X Do /X Do\nendstream",
        heavy.replace(b"/Subtype /Form", escaped) if b"Subtyp" in escaped else heavy,
        drawing.replace(b"/XObject << /L 5 0 R >>", escaped) if b"XObject" in escaped else drawing,
    ]
    data = assemble(objects)
    assert data.count(escaped) == 1
    reader = pypdf.PdfReader(BytesIO(data))
    by_pypdf = pdf_work.page_work(reader.pages[0], 2**30)
    assert by_pypdf > 60 * len(b"BT /F1 9 Tf (a) Tj ET 0.5 w 72 72 m 540 720 l S " * 400)
    assert pdf_work.page_work(reader.pages[0], 2**30, {}, pdf_work.RawForms(data, reader.xref)) == by_pypdf


def test_page_contents_of_the_common_shapes_are_read_from_the_file_bytes(monkeypatch):
    # page 1: one compressed stream (4); page 2: an array (5) of a compressed stream, a plain
    # one, and one with /DecodeParms (pypdf reads that one), cut short by a small limit
    text = b"BT /F1 9 Tf (a) Tj ET 0.5 w 72 72 m 540 720 l S " * 50
    packed = zlib.compress(text)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R 9 0 R] /Count 2 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
        b"<< /Filter /FlateDecode /Length %d >>\nstream\n" % len(packed) + packed + b"\nendstream",
        b"[4 0 R 6 0 R 7 0 R]",
        b"<< /Length %d >>\nstream\n" % len(text) + text + b"\nendstream",
        b"<< /Filter /FlateDecode /DecodeParms << /Columns 1 >> /Length %d >>\nstream\n" % len(packed)
        + packed
        + b"\nendstream",
        b"<< >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R >>",
    ]
    data = assemble(objects)
    reader = pypdf.PdfReader(BytesIO(data))
    original = pdf_work.resolved
    for limit in (2**30, 1000):
        by_pypdf = [pdf_work.page_work(page, limit) for page in reader.pages]
        resolved: list[object] = []
        monkeypatch.setattr(pdf_work, "resolved", lambda obj, seen=resolved: seen.append(obj) or original(obj))
        by_bytes = [pdf_work.page_work(page, limit, {}, pdf_work.RawForms(data, reader.xref)) for page in reader.pages]
        monkeypatch.setattr(pdf_work, "resolved", original)
        assert by_bytes == by_pypdf
        assert {getattr(obj, "idnum", 0) for obj in resolved} & {4, 6, 7} == {7}
    assert by_pypdf == [1001, 1001] and pdf_work.page_work(reader.pages[1], 2**30) == 4 * (3 * len(text) + 2)


def test_text_objects_are_counted_between_bt_and_et_operators():
    assert pdf_work.text_object_bytes(b"q BT (a) Tj ET Q") == len(b" (a) Tj ")
    assert pdf_work.text_object_bytes(b"BT (BT) Tj (ET) Tj ET") == len(
        b" (BT) Tj (ET) Tj "
    )  # strings are not operators
    assert pdf_work.text_object_bytes(b"/ABT 1 gs ETX BT") == 0  # a BT at the very end opens an empty object
    assert pdf_work.text_object_bytes(b"[1]BT<ab>Tj ET BT /F1 9 Tf") == len(b"<ab>Tj ") + len(b" /F1 9 Tf")


def test_forms_of_the_common_shapes_are_not_parsed_by_pypdf(monkeypatch):
    # 20 leaf forms (6-25), and a form (26) drawing two of them and an image (28) through
    # resources given as an object (27)
    forms = [form_object(LEAF + b"%d " % n) for n in range(20)]
    names = b" ".join(b"/F%d %d 0 R" % (n, 6 + n) for n in range(20))
    image = (
        b"<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /BitsPerComponent 8 /ColorSpace /DeviceGray /Length 1 >>"
    )
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 5 0 R >> /XObject << "
        + names
        + b" /W 26 0 R >> >> /Contents 4 0 R >>",
        b"<< /Length 13 >>\nstream\n/F3 Do /W Do\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        *forms,
        form_object(b"/A Do /B Do /A Do /Im Do", b"/Resources 27 0 R"),
        b"<< /XObject << /A 6 0 R /B 7 0 R /Im 28 0 R >> >>",
        image + b"\nstream\n\x00\nendstream",
    ]
    data = assemble(objects)
    resolved = []
    original = pdf_work.resolved
    monkeypatch.setattr(pdf_work, "resolved", lambda obj: resolved.append(obj) or original(obj))
    assert pdf_work.heavy_pages(data, 10) == frozenset()
    assert not [obj for obj in resolved if getattr(obj, "idnum", 0) >= 6]
    reader = pypdf.PdfReader(BytesIO(data))
    by_pypdf = pdf_work.page_work(reader.pages[0], 2**30)
    assert pdf_work.page_work(reader.pages[0], 2**30, {}, pdf_work.RawForms(data, reader.xref)) == by_pypdf
    assert by_pypdf > 4 * len(LEAF)


def compressed_pdf(objects: list[bytes], packed: set[int]) -> bytes:
    """A PDF 1.5 of `objects` (numbered from 1) with those in `packed` in one object stream, and an xref stream."""
    out = bytearray(b"%PDF-1.5\n")
    offsets: dict[int, int] = {}
    for number, body in enumerate(objects, start=1):
        if number not in packed:
            offsets[number] = len(out)
            out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    inside = sorted(packed)
    bodies = [objects[number - 1] + b"\n" for number in inside]
    starts = list(itertools.accumulate((len(body) for body in bodies), initial=0))[:-1]
    header = b" ".join(b"%d %d" % pair for pair in zip(inside, starts)) + b"\n"
    stream_number, xref_number = len(objects) + 1, len(objects) + 2
    content = zlib.compress(header + b"".join(bodies))
    offsets[stream_number] = len(out)
    out += (
        b"%d 0 obj\n<< /Type /ObjStm /N %d /First %d /Filter /FlateDecode /Length %d >>\nstream\n"
        % (stream_number, len(inside), len(header), len(content))
        + content
        + b"\nendstream\nendobj\n"
    )
    offsets[xref_number] = len(out)
    rows = [b"\x00\x00\x00\x00\x00\xff\xff"]
    for number in range(1, xref_number + 1):
        if number in packed:
            rows.append(b"\x02" + stream_number.to_bytes(4, "big") + inside.index(number).to_bytes(2, "big"))
        else:
            rows.append(b"\x01" + offsets[number].to_bytes(4, "big") + b"\x00\x00")
    table = b"".join(rows)
    out += (
        b"%d 0 obj\n<< /Type /XRef /W [1 4 2] /Size %d /Root 1 0 R /Length %d >>\nstream\n"
        % (xref_number, xref_number + 1, len(table))
        + table
        + b"\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n" % offsets[xref_number]
    )
    return bytes(out)


def test_the_page_tree_is_read_without_parsing_the_rest_of_its_object_stream():
    # pages, fonts and a widths array in one object stream, as pdfTeX writes them
    text = text_page(SENTENCE)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
        b"<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 6 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /Page /Parent 2 0 R /Resources 8 0 R /Contents 5 0 R >>",
        b"<< /Length %d >>\nstream\n" % len(text) + text + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Widths 7 0 R >>",
        b"[" + b" 500" * 200 + b"]",
        b"<< /Font << /F1 6 0 R >> >>",
    ]
    data = compressed_pdf(objects, packed={1, 2, 3, 4, 6, 7, 8})
    reader = pdf_work._reader(data)
    assert [pdf_work.page_work(page, 2**30) for page in reader.pages] == [4 * len(text)] * 2
    parsed = {ref[1] for ref in reader.resolved_objects}
    # the pages; not their resources (they draw no form), the font nor its widths
    assert {3, 4} <= parsed and not {6, 7, 8} & parsed
    assert page_texts(pdf_to_text(data)) == [SENTENCE, SENTENCE]
    assert page_texts(pdf_to_text(data, engine="pypdf")) == [SENTENCE, SENTENCE]


def test_a_file_a_strict_reader_refuses_is_measured_by_a_lenient_one():
    data = make_pdf(text_page(SENTENCE), text_page(OTHER))
    start = int(data.rsplit(b"startxref\n", 1)[1].split()[0])
    broken = data.replace(b"startxref\n%d" % start, b"startxref\n%d" % (start - 3))  # a little off
    with pytest.raises(pypdf.errors.PdfReadError):
        pdf_work._reader(broken, strict=True)
    assert pdf_work.heavy_pages(broken, 10) == frozenset()
    assert page_texts(pdf_to_text(broken)) == [SENTENCE, OTHER]


@pytest.mark.skipif(not HAS_PDFIUM, reason="pypdfium2 missing")
def test_one_heavy_page_alone_goes_to_pypdf(monkeypatch):
    monkeypatch.setattr(pdf_work, "PDFIUM_MAX_PAGE_WORK", 50_000)
    read_by_pypdf = []
    original = pdf_text._pypdf_pages

    def spy(data, budget, only=None):
        read_by_pypdf.append(only)
        return original(data, budget, only)

    monkeypatch.setattr(pdf_text, "_pypdf_pages", spy)
    heavy = Flate(bytes(heavy_drawing(1))[:-3] + b" " + text_page("Words drawn over the figure."))
    data = make_pdf(text_page(SENTENCE), heavy, text_page(OTHER))
    pages = page_texts(pdf_to_text(data))
    assert read_by_pypdf == [{1}]
    assert pages == [SENTENCE, "Words drawn over the figure.", OTHER]
    with pytest.raises(ExtractionError, match="drawing instructions"):
        pdf_to_text(data, engine="pdfium")


@pytest.mark.skipif(not HAS_PDFIUM, reason="pypdfium2 missing")
def test_a_page_pdfium_cannot_read_is_read_by_pypdf(monkeypatch):
    original = pdf_text._pdfium_page_text
    monkeypatch.setattr(
        pdf_text,
        "_pdfium_page_text",
        lambda pdfium, document, index: None if index == 1 else original(pdfium, document, index),
    )
    data = make_pdf(text_page(SENTENCE), text_page("The second page."), text_page(OTHER))
    assert page_texts(pdf_to_text(data)) == [SENTENCE, "The second page.", OTHER]
    assert page_texts(pdf_to_text(data, engine="pdfium")) == [SENTENCE, FAILED_PAGE_NOTE, OTHER]


# --- layout: headings and page furniture -----------------------------------------------------

HEADER = ("J. Walrus and P. Seal: Counting walruses from orbit", "small")
STAMP = "arXiv:2401.12345v1 [astro-ph.CO] 1 Jan 2024"


def walrus_paper(heading_style: str = "bold") -> bytes:
    def body(*lines: str) -> list[tuple[str, str]]:
        return [(line, "body") for line in lines]

    h = heading_style
    pages = [
        [("Counting walruses from orbit", "large"), ("Abstract", h)]
        + body(
            "We count walruses on the ice from satellite images taken over",
            "three winters, and find more than expected.",
        )
        + [("1 Introduction", h)]
        + body("Walruses gather on sea ice in large herds, which makes them easy", "to see and hard to count.")
        + [(STAMP, "small"), ("1", "body")],
        [HEADER]
        + body("The counts in earlier work used aircraft and took weeks; ours", "take hours. Two steps are needed:")
        + body("1 Apples are counted first", "2 Pears are counted next")
        + [("2 Method", h), ("2.1 Data", h)]
        + body("Images come from two satellites with a resolution of half a metre.")
        + [("2", "body")],
        [HEADER, ("2.2 Model", h)]
        + body("Each walrus is a brown oval of known size on a white background.")
        + [("3 Results", h)]
        + body("We find forty thousand walruses, twice the aircraft counts.")
        + [("3", "body")],
        [HEADER, ("References", h)]
        + body("[1] A. Tusk, Walrus herds, J. Ice 12, 3 (2001).", "[2] B. Flipper, Seals and walruses (2010).")
        + [("4", "body")],
    ]
    return make_styled_pdf(pages)


def headings_of(text: str) -> list[str]:
    return [line for line in body_lines(text) if line.startswith("#")]


@pytest.mark.parametrize("engine", ENGINES)
def test_headings_in_a_heading_font_become_markdown_headings(engine):
    text = pdf_to_text(walrus_paper(), engine=engine)
    assert headings_of(text) == [
        "## Abstract",
        "## 1 Introduction",
        "## 2 Method",
        "### 2.1 Data",
        "### 2.2 Model",
        "## 3 Results",
        "## References",
    ]
    assert "\n1 Apples are counted first\n2 Pears are counted next\n" in text  # body font: a list, not headings
    heading, section = select_section(text, "Introduction")
    assert heading.title == "1 Introduction" and "take hours" in section and "Method" not in section


@pytest.mark.parametrize("engine", ENGINES)
def test_a_bold_font_named_bold_is_a_heading_font_whatever_weight_pdfium_gives(engine):
    # cm-super's SFBX (llncs, many compiled papers): pdfium reports weight 250 from its thin
    # stem, so "4.1 Language Definition" was body text while the larger "4 ..." was a heading.
    def section(*headings: tuple[str, str]) -> list[tuple[str, str]]:
        lines = ("Walruses gather on sea ice in large herds, which makes them easy", "to see and hard to count.")
        return [line for heading in headings for line in (heading, *((text, "body") for text in lines))]

    pages = [
        section(("1 Introduction", "large"), ("1.1 Walruses", "bold"), ("1.2 Seals", "bold")),
        section(("2 Method", "large"), ("2.1 Data", "bold")),
    ]
    text = pdf_to_text(make_styled_pdf(pages, bold_font=b"ABCDEF+SFBX1000"), engine=engine)
    assert headings_of(text) == [
        "## 1 Introduction",
        "### 1.1 Walruses",
        "### 1.2 Seals",
        "## 2 Method",
        "### 2.1 Data",
    ]


@pytest.mark.parametrize("stem, body, bold", [(130, "body", True), (50, "body", False), (130, "bold", False)])
def test_a_bold_font_whose_name_says_nothing_is_bold_by_its_stem(stem, body, bold):
    # acmart's Linux Libertine bold is "LinLibertineTB": pdfium read its weight from the stem
    # (StemV 130) and found the sections, pypdf went by the name and found 3 of 37. A page whose
    # body has a bold stem too (some files give CMR12 StemV 148) tells nothing by stems.
    pages = [[("1 Introduction", "bold"), ("Walruses gather on sea ice in large herds.", body)]]
    data = make_styled_pdf(pages, bold_font=b"ABCDEF+LinLibertineTB", bold_stem=stem)
    spy = pdf_fonts.FontSpy()
    pypdf.PdfReader(BytesIO(data)).pages[0].extract_text(visitor_text=spy)
    assert ("1 Introduction" in heading_fragments(spy.page_lines())) is bold


def test_weights_read_from_stems_count_only_where_the_body_is_not_heavy():
    # Ghostscript-made files may give every font a bold stem: pdfium then weighs CMR12 at 732,
    # as bold as CMBX12, and no subsection was in a heading font; the names still tell.
    body = "Walruses gather on sea ice in large herds, which makes them easy to see."
    lines = [_styled(body, False, True)] * 4 + [_styled("2.1 A freely acting orbifold", True, True)]
    assert heading_fragments(lines) == {"2.1 A freely acting orbifold"}
    libertine = [_styled(body, False, False)] * 4 + [_styled("2 Background", False, True)]  # "LinLibertineTB"
    assert heading_fragments(libertine) == {"2 Background"}
    heavy = [_styled(line.text, False, True) for line in libertine]
    assert heading_fragments(heavy) == frozenset()
    unread = [replace(line, style=None) for line in lines]  # pdfium reads a sample of lines only
    assert heading_fragments(unread + [_styled(body, False, False)]) == frozenset()


def _styled(text: str, bold: bool, heavy: bool) -> Line:
    return Line(text, 72.0, 540.0, 700.0, Style(11.0, bold, heavy))


def test_subsections_in_italics_under_sections_in_the_heading_font_are_headings():
    # IOP's journals set "3. Partition function zeros" in bold and "3.1. Dependence on x" in
    # italics: both engines found the sections and none of the subsections.
    titles = ["1. Introduction", "2. Formulation", "2.1. Dependence on x", "2.2. The inner loop", "3. Results"]
    lines = [line for title in titles for line in (title, "Walruses gather on ice.", "They are hard to count.")]
    bold = [frozenset({"1. Introduction", "2. Formulation", "3. Results"})]
    assert headings_of("\n".join(pdf_layout.mark_headings([lines], bold)[0] or [])) == [
        "## 1. Introduction",
        "## 2. Formulation",
        "### 2.1. Dependence on x",
        "### 2.2. The inner loop",
        "## 3. Results",
    ]
    bold_first = [frozenset({"1. Introduction"})]  # "2." not in the heading font: nor are its parts
    assert headings_of("\n".join(pdf_layout.mark_headings([lines], bold_first)[0] or [])) == ["## 1. Introduction"]
    # amsart numbers its statements in their section: "2.1. We assume that w ∈ L2" goes on
    # "(Ω)." on the next line, where a subsection's title is followed by a sentence's start
    statement = [*lines[:6], "2.1. We further assume that w ∈ L2", "(Ω).", "Then the walruses are counted."]
    marked = pdf_layout.mark_headings([[*statement, *lines[9:]]], bold)
    assert headings_of("\n".join(marked[0] or [])) == ["## 1. Introduction", "## 2. Formulation", "## 3. Results"]


def test_a_title_ending_in_a_relation_and_a_number_is_not_a_contents_line():
    # IOP's "3.4. Dependence on u for H > 0" and "4.2. ... at H = 0" end in a number, read as
    # a contents line's page number: dropped, they broke the chain, so 3.5-3.7 went too
    titles = ["1. Introduction", "2. Formulation", "2.1. Dependence on x", "2.2. Dependence on u for H > 0"]
    titles += ["2.3. The case x = 0", "2.4. The inner loop", "3. Results"]
    lines = [line for title in titles for line in (title, "Walruses gather on ice.", "They are hard to count.")]
    bold = [frozenset({"1. Introduction", "2. Formulation", "3. Results"})]
    assert headings_of("\n".join(pdf_layout.mark_headings([lines], bold)[0] or [])) == [
        "## 1. Introduction",
        "## 2. Formulation",
        *(f"### {title}" for title in titles[2:6]),
        "## 3. Results",
    ]
    contents = ["1. Introduction 3", "2. Formulation 5", "2.1. Dependence on x 7", "3. Results 9"]
    assert headings_of("\n".join(pdf_layout.mark_headings([contents], [None])[0] or [])) == []


def test_a_title_opening_with_a_bracketed_tag_is_a_heading():
    # CHI papers tag their design goals: "4.3 [D1] Discover Relevant Citations" in the heading
    # font was no candidate, as a title had to open with a capital or "("
    titles = ["1 INTRODUCTION", "2 DESIGN", "2.1 Overview", "2.2 [D1] Discover Relevant Citations", "3 STUDY"]
    lines = [line for title in titles for line in (title, "Walruses gather on ice.", "They are hard to count.")]
    marked = pdf_layout.mark_headings([lines], [frozenset(titles)])[0] or []
    assert headings_of("\n".join(marked)) == [("### " if "." in t else "## ") + t for t in titles]


def test_a_title_broken_off_mid_phrase_in_the_heading_font_is_one_heading():
    # "3.1 DBD-produced carbon dust description: from the macro to" / "the nanoscale", both
    # lines in the heading font: the second was read as the section's first paragraph line
    body = ["Walruses gather on ice.", "They are hard to count."]
    lines = ["1 Introduction", *body, "2 Walrus Counts from Aircraft and", "Satellites", *body]
    lines += ["3 Herd Sizes of Aux-Loss-", "Free Colonies", *body]
    lines += ["4 Contributions and Acknowledgments", "Field Work", *body]  # a heading of its own after it
    bold = frozenset(line for line in lines if line not in body)
    marked = pdf_layout.mark_headings([lines], [bold])[0] or []
    assert headings_of("\n".join(marked)) == [
        "## 1 Introduction",
        "## 2 Walrus Counts from Aircraft and Satellites",
        "## 3 Herd Sizes of Aux-Loss-Free Colonies",
        "## 4 Contributions and Acknowledgments",
    ]
    assert "Field Work" in marked


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("before", [0, 1, 2])
def test_a_bold_title_broken_off_mid_phrase_is_one_heading_in_both_engines(engine, before):
    # pdfium's heading-font samples took every third line and the lines that could open a
    # heading: a title's second line in lower case ("the nanoscale") was sampled only when its
    # place fell on every third line, so pdfium joined such a title one time in three
    body = [("Walruses gather on sea ice in large herds, which makes them easy", "body")] * 2
    lines = [("1 Introduction", "bold"), *body, *body[:before], ("2 Walrus counts from the air and", "bold")]
    lines += [("the orbit", "bold"), *body, ("3 Results", "bold"), *body]
    text = pdf_to_text(make_styled_pdf([lines]), engine=engine)
    assert headings_of(text) == ["## 1 Introduction", "## 2 Walrus counts from the air and the orbit", "## 3 Results"]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_bold_title_broken_at_a_hyphen_is_one_heading_in_both_engines(engine):
    # pdfium joins a line ending in a hyphen to the next with U+FFFE ("Aux-Loss\ufffeFree"),
    # which the engine breaks again; the heading-font sample was of the joined line, which
    # matched neither part, so pdfium lost the heading (DeepSeek-V3's appendix C)
    body = [("Walruses gather on sea ice in large herds, which makes them easy", "body")] * 2
    lines = [("1 Introduction", "bold"), *body, ("2 Herd Sizes of Aux-Loss-", "bold"), ("Free Colonies", "bold")]
    lines += [*body, ("3 Results", "bold"), *body]
    text = pdf_to_text(make_styled_pdf([lines]), engine=engine)
    assert headings_of(text) == ["## 1 Introduction", "## 2 Herd Sizes of Aux-Loss-Free Colonies", "## 3 Results"]


def test_a_capitals_heading_set_on_two_lines_is_one_heading():
    # REVTeX wraps a long section title: "II. FLAVOR STRUCTURE OF LIGHT AND" / "HEAVY LIGHT
    # DIQUARKS"; the second line was read as the section's first paragraph line
    body = ["Walruses gather on ice.", "They are hard to count."]
    lines = ["I. INTRODUCTION", *body, "II. WALRUS COUNTS FROM AIRCRAFT AND", "FROM SATELLITES", *body]
    lines += ["III. FINITE-VOLUME EN-", "ERGY OF A HERD", *body, "IV. RESULTS", "HERD 12 ON ICE FLOE B", *body]
    marked = pdf_layout.mark_headings([lines], [None])[0] or []
    assert headings_of("\n".join(marked)) == [
        "## I. INTRODUCTION",
        "## II. WALRUS COUNTS FROM AIRCRAFT AND FROM SATELLITES",
        "## III. FINITE-VOLUME ENERGY OF A HERD",
        "## IV. RESULTS",
    ]
    assert "HERD 12 ON ICE FLOE B" in marked  # a line with a number (a table's, a label) is no title's end


def test_unnumbered_sections_in_capitals_and_a_heading_font_are_headings():
    # REVTeX without section numbers (2110.02751): only "INTRODUCTION" and "CONCLUSIONS", known
    # names, were headings; "EXPERIMENTAL CONFIGURATION", in the same bold capitals, was text
    body = ["Walruses gather on ice.", "They are hard to count."]
    titles = ["INTRODUCTION", "EXPERIMENTAL CONFIGURATION", "TABLE I", "DATA ANALYSIS", "CONCLUSIONS"]
    lines = ["COUNTING WALRUSES FROM ORBIT", *(line for title in titles for line in (title, *body))]
    styles = [frozenset(["COUNTING WALRUSES FROM ORBIT", *titles])]
    assert headings_of("\n".join(pdf_layout.mark_headings([lines], styles)[0] or [])) == [
        "## INTRODUCTION",
        "## EXPERIMENTAL CONFIGURATION",
        "## DATA ANALYSIS",
        "## CONCLUSIONS",
    ]
    titles = ["INTRODUCTION", "1 EXPERIMENTAL CONFIGURATION", "WALRUS HERDS", "2 DATA ANALYSIS"]
    numbered = [line for title in titles for line in (title, *body)]  # numbered sections: capitals alone tell nothing
    marked = pdf_layout.mark_headings([numbered], [frozenset(titles)])
    assert "WALRUS HERDS" in (marked[0] or []) and "## 2 DATA ANALYSIS" in (marked[0] or [])


def test_arabic_sections_in_capitals_are_headings_without_a_heading_font():
    # AASTeX sets "1. INTRODUCTION" in the body font; pdfium saw the title's larger size, so
    # the document had a heading font, and dropped every section (1707.04066: 2 of 12 headings)
    titles = ["1. INTRODUCTION", "2. OBSERVATIONS", "2.1. Data processing", "3. RESULTS"]
    lines = ["Counting walruses", *(line for t in titles for line in (t, "Walruses gather on ice.", "They stay."))]
    lines += ["References", "A. Tusk, Walrus herds (2001)."]
    marked = pdf_layout.mark_headings([lines], [frozenset({"Counting walruses", "References"})])
    assert headings_of("\n".join(marked[0] or [])) == [
        "## 1. INTRODUCTION",
        "## 2. OBSERVATIONS",
        "### 2.1. Data processing",
        "## 3. RESULTS",
        "## References",
    ]


def test_roman_sections_in_capitals_are_headings_without_a_heading_font():
    # IEEEtran: "I. INTRODUCTION" in small capitals of the body font, "A. Data" in italics;
    # only "Acknowledgment" is bold. A roman number before capitals is that style's heading mark.
    def paper(titles: list[str]) -> list[str]:
        body = ["Walruses gather on ice.", "They are hard to count."]
        return [line for title in [*titles, "Acknowledgment"] for line in (title, *body)]

    bold = [frozenset({"Acknowledgment"})]
    titles = ["I. INTRODUCTION", "II. METHOD", "A. Satellite images", "B. Counting", "III. RESULTS"]
    assert headings_of("\n".join(pdf_layout.mark_headings([paper(titles)], bold)[0] or [])) == [
        "## I. INTRODUCTION",
        "## II. METHOD",
        "### A. Satellite images",
        "### B. Counting",
        "## III. RESULTS",
        "## Acknowledgment",
    ]
    german = ["I. EINLEITUNG", "A. Überblick", "B. Zählung", "II. ÉTUDE", "A. Ölteppiche"]
    assert headings_of("\n".join(pdf_layout.mark_headings([paper(german)], bold)[0] or []))[:-1] == [
        "## I. EINLEITUNG",
        "### A. Überblick",
        "### B. Zählung",
        "## II. ÉTUDE",
        "### A. Ölteppiche",
    ]
    mixed = ["I. Introduction", "II. Method", "A. Satellite images", "B. Counting", "III. Results"]
    assert headings_of("\n".join(pdf_layout.mark_headings([paper(mixed)], bold)[0] or [])) == ["## Acknowledgment"]


def test_a_run_in_bold_abstract_is_a_heading_before_its_paragraph():
    first = "Abstract. Walruses are counted from orbit over three winters."
    pages = [[first, "They are more than expected.", "1 Introduction", "Walruses gather on ice."]]
    styles = [frozenset({"Abstract.", "1 Introduction"})]  # pypdf's runs: the bold word alone
    assert pdf_layout.mark_headings(pages, styles) == [
        [
            "## Abstract",
            "",
            first.removeprefix("Abstract. "),
            "They are more than expected.",
            "",
            "## 1 Introduction",
            "",
            "Walruses gather on ice.",
        ]
    ]
    whole_line = [frozenset({first, "1 Introduction"})]  # pdfium's: the line whose first letter is bold
    assert pdf_layout.mark_headings(pages, whole_line)[0][0] == "## Abstract"
    plain = pdf_layout.mark_headings(pages, [frozenset({"1 Introduction"})])
    assert plain[0][0] == first  # in the body font it is a sentence, not a heading


def test_a_named_appendix_follows_the_numbered_sections():
    contents = ["Contents", "1 Introduction 2", "2 Method 3", "Appendix. Model specification 9"]
    body = [
        "1 Introduction",
        "Walruses gather on ice.",
        "They are hard to count.",
        "2 Method",
        "We count them.",
        "We use satellites.",
        "Appendix. Model specification",
        "The model has two functions.",
    ]
    styles = [frozenset({"1 Introduction", "2 Method", "Appendix. Model specification"})] * 2
    marked = pdf_layout.mark_headings([contents, body], styles)
    assert [line for line in marked[1] or [] if line.startswith("#")] == [
        "## 1 Introduction",
        "## 2 Method",
        "## Appendix. Model specification",
    ]
    assert not any(line.startswith("#") for line in marked[0] or [])
    titles = ["I. Introduction", "II. Method", "A. Data", "Appendix A: Proofs"]
    roman = [line for title in titles for line in (title, "Walruses gather on ice.", "They are hard to count.")]
    found = pdf_layout.mark_headings([roman], [frozenset(titles)])
    assert [line for line in found[0] or [] if line.startswith("#")] == [
        "## I. Introduction",
        "## II. Method",
        "### A. Data",
        "## Appendix A: Proofs",
    ]


@pytest.mark.parametrize("engine", ENGINES)
def test_numbered_headings_are_found_without_a_heading_font(engine):
    text = pdf_to_text(walrus_paper(heading_style="body"), engine=engine)
    assert [h for h in headings_of(text) if "Apples" not in h and "Pears" not in h][:2] == [
        "## Abstract",
        "## 1 Introduction",
    ]
    assert {"### 2.1 Data", "### 2.2 Model", "## 3 Results", "## References"} <= set(headings_of(text))


@pytest.mark.parametrize("engine", ENGINES)
def test_running_headers_page_numbers_and_the_stamp_are_furniture(engine):
    document = pdf_to_document(walrus_paper(), engine=engine)
    pages = page_texts(document.text)
    assert document.notes["stamp"] == STAMP and STAMP not in document.text
    assert not any(HEADER[0] in page for page in pages)
    for page in pages:
        lines = [line for line in page.split("\n") if line]
        assert not re.fullmatch(r"\d+", lines[0]) and not re.fullmatch(r"\d+", lines[-1])
    assert "[2] B. Flipper, Seals and walruses (2010)." in pages[3]


@pytest.mark.parametrize("engine", ENGINES)
def test_the_hidden_source_of_a_latexit_equation_is_no_text(engine):
    # LaTeXiT's equation PDFs keep their LaTeX source as base64 text; pypdf printed 21 lines
    # of it in 2503.05621 ('<latexit sha1_base64="WC5v...=">AAAB+nicbVC7...</latexit>')
    hidden = '<latexit sha1_base64="WC5vMXuWBoiIpxzxgL+YD7FrSI4=">AAAB+nicbVC7SgNBFJ2Nrxh/fGy1=</latexit>'
    text = pdf_to_text(make_pdf(text_page(SENTENCE, hidden, "Vh", f"Vfi {hidden} using FEM", OTHER)), engine=engine)
    assert "latexit" not in text and "AAAB" not in text
    assert SENTENCE in text and OTHER in text and "\nVh\nVfi using FEM\n" in text


@pytest.mark.parametrize("engine", ENGINES)
def test_axis_labels_of_a_figure_at_a_page_edge_are_furniture(engine):
    top = ["10-8", "10-6", "-0.05", "0", "0.05", "0 20 40 60 80"]
    body = ["FIG. 1: Walrus counts per year, against", "2", "the number of seals; the count is 14."]
    text = pdf_to_text(make_pdf(text_page(*top, *body, SENTENCE, "1.5", "-2"), text_page(OTHER)), engine=engine)
    first = page_texts(text)[0].split("\n")
    assert first[0] == body[0] and first[-1] == SENTENCE
    assert "\n2\n" in page_texts(text)[0]  # a lone number inside the page stays


def test_a_numbered_list_in_the_body_font_is_not_a_heading_chain():
    lines = ["1 Apples are counted first", "2 Pears are counted next", "3 Plums come last"]
    pages = pdf_layout.mark_headings([["Some words.", *lines]], [frozenset({"1 Introduction"})])
    assert pages == [["Some words.", *lines]]
    found = pdf_layout.mark_headings([["1 Department of Physics, Walrus University, Oslo 0123, Norway"] * 2], [None])
    assert not any(line.startswith("#") for line in found[0] or [])


@pytest.mark.parametrize("engine", ENGINES)
def test_spacing_accents_before_after_or_apart_from_their_letter_are_composed(engine):
    # Helvetica's StandardEncoding: 0xC1 grave, 0xC2 acute, 0xC3 circumflex, 0xC8 dieresis, 0xCB cedilla
    lines = [
        "Universidad de M \xc2 exico",
        "J \xc8 anos and Fundac\xcbao",
        "Universit\xc1a di Roma",
        "the field S\xc3, a hat",
        "Institut f \xc8ur Physik, M \xc8unchen, and a \xc8Ecole",
    ]
    text = pdf_to_text(make_pdf(text_page(*lines, SENTENCE)), engine=engine)
    assert "Universidad de México" in text and "Jänos and Fundaçao" in text and "Università di Roma" in text
    assert "Institut für Physik, München, and a Ëcole" in text
    assert "the field Ŝ, a hat" in text
    assert not re.search("[\u00b4\u00a8\u02c6\u00b8`]", text)


def raised_accent_page() -> bytes:
    """TeX's way with an accent: the letter before, the accent raised a little over the next
    letter, a move back, the rest of the word (pdfium puts such an accent at the line's end)."""
    # Helvetica at 10 pt: "D. M" is 21.11 wide, "u" 5.56, the dieresis (StandardEncoding 0xC8) 3.33
    return (
        b"BT /F1 10 Tf 72 700 Td (D. M) Tj 21.225 0.027 Td (\\310) Tj -0.115 -0.027 Td (uller and J. Fan) Tj ET "
        b"BT /F1 10 Tf 72 688 Td (the same twice: Cient\\302\\302\\365fica) Tj ET " + text_page(SENTENCE)
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_an_accent_drawn_over_its_letter_is_composed_wherever_the_engine_puts_it(engine):
    text = pdf_to_text(make_pdf(raised_accent_page()), engine=engine)
    assert "D. Müller and J. Fan\n" in text
    assert "Científica" in text
    assert not re.search("[\u00b4\u00a8\u02c6\u00b8`]", text)


def test_accents_over_math_symbols_and_doubled_accents_are_one_letter():
    assert (
        pdf_glyphs.compose_accents("where \u02dc\u22062 i = and i \u02dc\u2206\u22122")
        == "where \u2206\u03032 i = and i \u2206\u0303\u22122"
    )
    assert pdf_glyphs.compose_accents("Cient\u00b4\u00b4\u0131fica") == "Científica"


@pytest.mark.skipif(not HAS_PDFIUM, reason="pypdfium2 missing")
@pytest.mark.parametrize("font", [b"QNLXGC+CMMI10", b"ABCDEF+rtxmi"])  # rtxmi: txfonts' math italic
def test_a_backtick_from_a_math_italic_font_is_a_script_l_in_pdfium(font):
    # TeX's math italic has its lscript glyph at the grave's code; pdfium's glyph list lacks the
    # name, so pdfium gives the code's character: a backtick
    stream = (
        b"BT /F1 10 Tf 72 700 Td (the decay to 4) Tj /F2 10 Tf (`) Tj /F1 10 Tf ( leptons, `quoted') Tj ET "
        + text_page(SENTENCE)
    )
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 3 0 R /F2 6 0 R >> >> /Contents 5 0 R >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /%s /Encoding /WinAnsiEncoding >>" % font,
    ]
    text = pdf_to_text(assemble(objects), engine="pdfium")
    assert "the decay to 4\u2113 leptons, `quoted'" in text


@pytest.mark.parametrize("engine", ENGINES)
def test_a_script_on_a_line_of_its_own_goes_back_on_its_line(engine):
    text = pdf_to_text(
        make_pdf(text_page("the energy u is in L", "2", "(Omega) for every t, and", SENTENCE)), engine=engine
    )
    assert "the energy u is in L2(Omega) for every t, and" in text


def letter_spaced(line: bytes, gap: int = 300) -> bytes:
    """A TJ drawing `line` a character at a time, each followed by a gap (thousandths of an em)."""
    glyphs = (_pdf_string(chr(char)) for char in line)
    return b"[" + (b" -%d " % gap).join(glyphs) + b"] TJ"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_code_listing_drawn_a_character_at_a_time_is_not_letter_spaced(engine):
    listing = [b"def foo(x):", b"    return x_1 + 2", b"print(foo(3))"]
    shown = b" 0 -11 Td ".join(letter_spaced(line) for line in listing)
    stream = b"BT /F2 9 Tf 100 600 Td " + shown + b" ET " + text_page(SENTENCE, "the letters a b c of the proof")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 3 0 R /F2 6 0 R >> >> /Contents 5 0 R >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>",
    ]
    lines = body_lines(pdf_to_text(assemble(objects), engine=engine))
    assert lines[:3] == ["def foo(x):", "return x_1 + 2", "print(foo(3))"]
    assert "the letters a b c of the proof" in lines  # proportional text keeps its spaces


@pytest.mark.parametrize("engine", ENGINES)
def test_a_raised_or_lowered_script_stays_on_its_line(engine):
    # Helvetica 10 pt: "in the weak L" is 64.47 wide; a superscript "3,8" over a subscript "0" at 7 pt
    stream = (
        b"BT /F1 10 Tf 72 700 Td (in the weak L) Tj ET "
        b"BT /F1 7 Tf 136.8 704 Td (3,8) Tj ET BT /F1 7 Tf 136.8 697 Td (0) Tj ET "
        b"BT /F1 10 Tf 146.5 700 Td (space of vector fields u, and) Tj ET " + text_page(SENTENCE)
    )
    text = pdf_to_text(make_pdf(stream), engine=engine)
    assert re.search(r"in the weak L ?3,8 ?0 ?space of vector fields u, and\n", text)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_comma_on_a_line_of_its_own_goes_back_on_the_line_before(engine):
    authors = ["A. Walrus12, B. Seal3", ",", "C. Otter45, D. Narwhal6", ",", "E. Puffin7"]
    heading = ["2 COUNTING WALRUSES FROM THE AIR", ":", "A SURVEY"]
    text = pdf_to_text(make_pdf(text_page(*authors, SENTENCE, *heading, SENTENCE)), engine=engine)
    assert "A. Walrus12, B. Seal3,\nC. Otter45, D. Narwhal6,\nE. Puffin7" in text
    assert "THE AIR\n:\n" in text  # a colon may end a heading's first line: it stays apart


@pytest.mark.anyio
async def test_read_paper_outline_and_section_work_on_a_paper_read_from_pdf(fake, connect):
    fake.add(paper("2403.00077", "Counting walruses", source=walrus_paper()))  # a PDF-only submission
    async with connect() as client:
        outline = await client.call_tool("read_paper", {"paper_id": "2403.00077v1", "section": "outline"})
        section = await client.call_tool("read_paper", {"paper_id": "2403.00077v1", "section": "Introduction"})
    assert not outline.is_error and not section.is_error
    listed = outline.structured_content["text"]
    assert "1 Introduction" in listed and "2.1 Data" in listed and "Page 1" not in listed
    text = section.structured_content["text"]
    assert "Walruses gather on sea ice" in text and "take hours" in text and "Images come from" not in text


def test_a_long_line_repeated_at_every_page_edge_is_text_not_furniture():
    """Running heads are short; a long line that recurs (a form, a template paragraph) stays."""
    from arxiv_mcp.text.pdf import pdf_to_text
    from tests.pdfgen import make_pdf as pages_pdf

    body = "the same long sentence that this generated report prints on every single page of it, " * 2
    text = pdf_to_text(pages_pdf([f"{body}\nPage body {n} differs." for n in range(6)]))
    assert text.count("the same long sentence") >= 6 * 2


def test_a_running_head_of_title_and_venue_on_one_line_is_furniture():
    """acmart sets the short title and the venue on one line of a wide page (125 characters in
    a CHI paper): a length cap of 120 kept it on every odd page."""
    from arxiv_mcp.text.pdf import pdf_to_text
    from tests.pdfgen import make_pdf as pages_pdf

    head = "Counting Walruses from Orbit: Herds on the Sea Ice Seen by Satellites CHI '23, April 23-28, 2023, Hamburg, Germany, Europe"
    assert 120 < len(head) <= 160
    bodies = ["Walruses gather.", "Seals dive.", "Ice melts.", "Herds move.", "Counts rise.", "Skies clear."]
    text = pdf_to_text(pages_pdf([f"{head}\n{body}" for body in bodies]))
    assert "Herds on the Sea Ice" not in text and all(body in text for body in bodies)


def test_the_scorer_reads_hyperrefs_accent_debris_in_bookmarks_as_the_printed_title():
    from benchmarks.text_quality import bookmark_title, heading_recall

    truth = [bookmark_title("3. The Lema{^i }tre--Tolman model"), bookmark_title("Erd{\"o}s---R{'e}nyi graphs")]
    assert truth == ["3. The Lemaître–Tolman model", "Erdös—Rényi graphs"]
    assert heading_recall(truth, ["3. The Lemaître–Tolman model", "Erdös–Rényi graphs"]) == 1.0
    assert heading_recall([bookmark_title("The Lema{^i }tre model")], ["The Lemaitre model"]) == 0.0


def test_the_scorer_reads_a_named_appendix_as_its_bookmark():
    from benchmarks.text_quality import heading_recall

    # hyperref's bookmark of \\appendix\\section{Reconstructed lenses} is "A Reconstructed lenses";
    # REVTeX prints "Appendix A: ...", MNRAS "APPENDIX A: ..."
    truth = ["1 Introduction", "A Reconstructed lenses", "B Proofs"]
    assert heading_recall(truth, ["1 Introduction", "APPENDIX A: RECONSTRUCTED LENSES", "Appendix B: Proofs"]) == 1.0
    assert heading_recall(truth, ["1 Introduction", "Appendix. Reconstructed lenses"]) == 1 / 3


def test_a_visible_space_at_code_32_does_not_glue_pypdfs_words():
    # T1-encoded TeX fonts put the visible space (500 units) at code 32: pypdf took it for the
    # word space and a justified line's gaps (200 units here) for no space at all. Page 1 draws
    # the font in a form nested in a form (a pdflatex figure included in the paper), page 2 on
    # the page itself.
    widths = b"[500 " + b" ".join([b"278 556"] * 47) + b"]"
    shown = b"BT /F1 10 Tf 72 720 Td [(Walruses)-200(gather)-200(on)-200(the)-200(ice.)] TJ ET"
    form = (
        b"<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << %s >> /Length %d >>\nstream\n%s\nendstream"
    )
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [4 0 R 6 0 R] /Count 2 >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+TeXGyreTermesX-Regular /FirstChar 32"
        b" /LastChar 126 /Widths " + widths + b" /Encoding << /Differences [16 /quotedblleft 39 /quoteright] >> >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /X1 8 0 R >> >>"
        b" /Contents 5 0 R >>",
        b"<< /Length 6 >>\nstream\n/X1 Do\nendstream",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>"
        b" /Contents 7 0 R >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(shown), shown),
        form % (b"/XObject << /X2 9 0 R >>", 6, b"/X2 Do"),
        form % (b"/Font << /F1 3 0 R >>", len(shown), shown),
    ]
    assert page_texts(pdf_to_text(assemble(objects), engine="pypdf")) == ["Walruses gather on the ice."] * 2


def test_a_capitals_heading_whose_first_line_ends_in_a_colon_keeps_the_chain():
    titles = ["1 INTRODUCTION", "2 METHOD", "3 EVOLUTION AFTER IRRADIATION WITH 3 MEV H+:", "3.1 Structure"]
    lines = [line for title in titles for line in (title, "Walruses gather on ice.", "They are hard to count.")]
    found = pdf_layout.mark_headings([[*lines, "4 Results:", "Words."]], [None])
    assert [line for line in found[0] or [] if line.startswith("#")] == [
        f"{'#' * (2 + ('.' in t[:3]))} {t}" for t in titles
    ]


def test_a_title_with_commas_or_years_in_the_heading_font_keeps_the_chain():
    # 2407.01603's bold "3.1 Molecular Representations, Datasets, and Benchmarks" read as an
    # address (two commas) and 2011.12531's "3.3 Modulation for proton between August 2012
    # and Octo-" as a table row (eight digits); each lost heading broke the chain, and with
    # it every later subsection of its section (16 headings in 2407.01603)
    titles = ["1 Introduction", "2 Models", "2.1 Representations, Datasets, and Benchmarks", "2.2 Property Prediction"]
    titles += ["2.3 Modulation between August 2012 and October", "2.4 Text Generation", "3 Conclusions"]
    lines = [line for title in titles for line in (title, "Walruses gather on ice.", "They are hard to count.")]
    bold = [frozenset({*titles[:-3], "2.3 Modulation between August 2012 and Octo-", *titles[-2:]})]
    assert headings_of("\n".join(pdf_layout.mark_headings([lines], bold)[0] or [])) == [
        f"{'#' * (2 + ('.' in t[:3]))} {t}" for t in titles
    ]
    address = ["1 Department of Physics, Walrus University, Oslo", "Walruses gather on ice."]
    assert headings_of("\n".join(pdf_layout.mark_headings([address * 2], [None])[0] or [])) == []


def test_an_appendix_named_in_capitals_follows_the_numbered_sections():
    # MNRAS prints "APPENDIX A: RECONSTRUCTED LENSES" (1511.01097): not a heading, it was read
    # into the last reference's paragraph
    titles = ["1 INTRODUCTION", "2 DATA", "APPENDIX A: RECONSTRUCTED LENSES", "APPENDIX B: DEGENERACIES"]
    lines = [line for title in titles for line in (title, "Walruses gather on ice.", "They are hard to count.")]
    found = pdf_layout.mark_headings([lines], [frozenset(titles)])
    assert headings_of("\n".join(found[0] or [])) == [f"## {title}" for title in titles]
    assert pdf_layout.heading_number("APPENDIX B: DEGENERACIES") == "B"


def test_a_bold_title_opening_with_a_is_no_appendix_above_the_abstract():
    # a real paper's bold title, "A Perspective on Explanations of Molecular Prediction Models"
    # (its sections unnumbered), read as a heading: appendix A
    title = ["A Perspective on Explanations of Walrus", "Counting Models", "W. Alrus, Walrus University"]
    body = ["Abstract", "Walruses gather on ice.", "Introduction", "They are hard to count.", "A Dataset", "Words."]
    bold = [frozenset({*title[:2], "Abstract", "Introduction", "A Dataset"})]
    found = pdf_layout.mark_headings([[*title, *body]], bold)
    assert headings_of("\n".join(found[0] or [])) == ["## Abstract", "## Introduction", "## A Dataset"]


def test_unnumbered_sections_in_title_case_and_a_heading_font_are_headings():
    # an ACS paper's bold "Theory", "Attribution methods", "Conclusion and outlook": only its
    # Abstract, Introduction, Acknowledgements and References were found
    sentence = "Walruses gather on the ice in large herds every summer."
    lines = ["Abstract", sentence, "Introduction", sentence, "Attribution methods", sentence, "Method Accuracy"]
    lines += ["Counting 0.91", "Figure 2", sentence, "Seal Counts", "Fig. 3. Walruses counted on the ice by month."]
    lines += ["Conclusion and outlook", sentence]
    # a bold table head, a bold label, a figure's bold legend above its caption: no titles
    bold = [frozenset({"Abstract", "Introduction", "Attribution methods", "Method Accuracy", "Figure 2"})]
    bold = [bold[0] | {"Seal Counts", "Conclusion and outlook"}]
    assert headings_of("\n".join(pdf_layout.mark_headings([lines], bold)[0] or [])) == [
        "## Abstract",
        "## Introduction",
        "## Attribution methods",
        "## Conclusion and outlook",
    ]


def test_an_ieee_appendix_with_its_title_on_the_next_line_is_a_heading_over_its_subsections():
    # IEEEtran prints "APPENDIX A" and, on the next line, "AUTOMATICALLY GENERATED TEXTS" (1601.03642):
    # neither was a heading, and the appendix's "A. Shakespeare" was read as a subsection of VI.
    titles = ["I. INTRODUCTION", "II. DISCUSSION", "REFERENCES"]
    lines = [line for title in titles for line in (title, "Walruses gather on ice.", "They are hard to count.")]
    lines += ["APPENDIX A", "GENERATED TEXTS", "Walruses gather on ice.", "A. Shakespeare", "Words.", "More."]
    lines += ["B. Wikipedia", "Words.", "More.", "APPENDIX B", "Counting walruses on ice.", "More words."]
    found = pdf_layout.mark_headings([lines], [frozenset({"Abstract"})])
    assert headings_of("\n".join(found[0] or [])) == [
        *(f"## {title}" for title in titles),
        "## APPENDIX A GENERATED TEXTS",
        "### A. Shakespeare",
        "### B. Wikipedia",
    ]
    assert pdf_layout.heading_number("APPENDIX A GENERATED TEXTS") == "A"


def test_a_reference_entry_a_sentence_or_a_figure_line_opening_with_a_letter_is_no_subsection():
    # 1801.07779 (IEEEtran): "A. Chang et al., “Overview for the first shared task on" in its
    # references became "### A. Chang et al., ..." under XII. ACKNOWLEDGMENT
    titles = ["I. INTRODUCTION", "II. METHOD", "A. Data", "III. ACKNOWLEDGMENT", "REFERENCES"]
    lines = [line for title in titles for line in (title, "Walruses gather on ice.", "They are hard to count.")]
    lines += ["A. Chang et al., “Overview for the first shared task on", "walrus counting,” 2014."]
    # 0905.2465 wraps "... low-modes of" / "D. The computational cost of this step is roughly 0.6
    # TFLOPS per configuration. Solving": the Dirac operator D, not subsection D
    sentence = "B. The cost of this step is roughly 0.6 TFLOPS per configuration. Solving"
    lines[8:8] = ["We compute the low-modes of", sentence, "the equation takes longer."]
    # and 1801.07779's figure text "A Picture of Lycoming County (= SSRI": a subsection prints "A."
    lines[2:2] = ["A Picture of Walrus County", "Text in a figure."]
    found = pdf_layout.mark_headings([lines], [frozenset(titles)])
    assert headings_of("\n".join(found[0] or [])) == [f"{'###' if t == 'A. Data' else '##'} {t}" for t in titles]


@pytest.mark.parametrize(
    "damage",
    [b"(Seals ) x7\\x81) Tj", b"(unclosed Tj\nET"],
    ids=["a token that does not parse", "a string never closed"],
)
def test_a_content_stream_damaged_midway_keeps_what_pypdf_can_parse(damage):
    good = b"BT /F1 10 Tf 12 TL 72 720 Td\n(Walruses gather on the ice.) Tj T*\n"
    later = b"\n(More walruses.) Tj T*\nET" if b"ET" not in damage else b""
    pages = page_texts(pdf_to_text(make_pdf(good + damage + later, text_page(OTHER)), engine="pypdf"))
    assert pages[0].startswith("Walruses gather on the ice.") and pages[1] == OTHER


def _spaced_by_char_spacing(text: str, spacing: float, size: int) -> bytes:
    """`text` set as Acrobat Distiller sets a line: every glyph followed by `spacing` (Tc), each
    letter pair inside a word kerned back by as much, so a word gap is two letters meeting
    in one string ("(a)300(sd)300(e)": "as" and "defined")."""
    back = spacing * 1000 / size
    parts: list[bytes] = []
    current = ""
    for previous, char in zip(" " + text, text):
        if char == " ":
            continue
        if previous != " " and current:
            parts += [b"(%s)" % current.encode(), b"%.1f" % back]
            current = ""
        current += char
    parts.append(b"(%s)" % current.encode())
    return b"BT /F1 %d Tf %.2f Tc 72 700 Td [%s] TJ ET" % (size, spacing, b" ".join(parts))


@pytest.mark.parametrize("engine", ENGINES)
def test_words_set_apart_by_character_spacing_stay_apart(engine):
    line = "the deceleration parameter as defined by the distance to supernovae"
    data = make_pdf(_spaced_by_char_spacing(line, 3.0, 10))
    assert line in pdf_to_text(data, engine=engine)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_list_number_on_a_line_of_its_own_goes_with_its_item(engine):
    lines = [
        "We show that the walrus model can:",
        "1.",
        "count the herds of a whole coast,",
        "2.",
        "tell the herds apart.",
    ]
    text = pdf_to_text(make_pdf(text_page(*lines)), engine=engine)
    assert "\n1. count the herds of a whole coast,\n2. tell the herds apart." in text
    # a number ending a sentence ("... in Section" / "5.") is no list item: the heading after
    # it stays a line of its own, and the numbering of the sections goes on through it
    page = text_page("1 Introduction", "Walruses are counted; the results are in Section", "5.", "2 Method", OTHER)
    assert headings_of(pdf_to_text(make_pdf(page), engine=engine)) == ["## 1 Introduction", "## 2 Method"]


def test_the_other_white_space_is_all_that_split_cuts_at_besides_spaces_and_line_ends():
    white = {char for char in map(chr, range(sys.maxunicode + 1)) if char.isspace()}
    matched = {char for char in map(chr, range(sys.maxunicode + 1)) if pdf_text._OTHER_SPACE.fullmatch(char)}
    assert matched == white - {" ", "\n"}


def test_collapsed_lines_are_each_line_split_and_joined_again():
    rng = random.Random(11)
    alphabet = ["a", "b", " ", " ", "\n", "\u00a0", "\t", "\u2009", "é", "-"]
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 16)))
        assert pdf_text._collapsed_lines(text) == [" ".join(line.split()) for line in text.split("\n")], text


@pytest.mark.parametrize(
    ("lines", "joined"),
    [
        (["L", "2", "(Ω) for every"], ["L2(Ω) for every"]),
        (["see x", "2", ", then y", "3", "."], ["see x2, then y3."]),  # a joined line takes the next script
        (["L", "2"], ["L", "2"]),  # nothing after the script: the page's end
        (["L", "2345", "(Ω)"], ["L", "2345", "(Ω)"]),  # four characters are a line, not a script
        (["L.", "2", "(Ω)"], ["L.", "2", "(Ω)"]),  # a stop before: no script
        (["", "2", "(Ω)"], ["", "2", "(Ω)"]),
        (["L", "", "(Ω)"], ["L", "", "(Ω)"]),
    ],
)
def test_an_inline_script_line_is_put_back_on_its_line(lines, joined):
    assert pdf_text._join_scripts(list(lines)) == joined
