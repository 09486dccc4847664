"""pypdf's fonts are built once per document while we read it, and only then (pypdf_compat)."""

from __future__ import annotations

import io
import threading
from pathlib import Path

import pypdf
import pytest

from arxiv_mcp.text.pdf import pdf_to_text
from arxiv_mcp.text.pdf.pypdf_compat import SharedFonts, fonts_hooked, forget
from tests.pdfgen import assemble
from tests.test_pdf_text import OTHER, SENTENCE, make_pdf, page_texts, text_page

FIXTURES = Path(__file__).parent / "fixtures" / "pdf"
# pypdf 5 builds fonts elsewhere: the fence leaves them to pypdf's public API (pypdf_compat)
Font = pytest.importorskip("pypdf.generic._font").Font
pytestmark = pytest.mark.skipif(not fonts_hooked(), reason="this pypdf is read through its public API only")


@pytest.fixture
def builds(monkeypatch):
    """The font dictionaries pypdf builds a Font from, in order."""
    built: list[object] = []
    build = Font.from_font_resource.__func__

    def counting(cls, pdf_font_dict):
        built.append(pdf_font_dict)
        return build(cls, pdf_font_dict)

    monkeypatch.setattr(Font, "from_font_resource", classmethod(counting))
    return built


def test_pages_sharing_a_font_have_it_built_once(builds):
    data = make_pdf(text_page(SENTENCE), text_page(OTHER), text_page(SENTENCE))
    assert page_texts(pdf_to_text(data, engine="pypdf")) == [SENTENCE, OTHER, SENTENCE]
    assert len(builds) == 1


def test_pypdf_read_by_others_builds_its_fonts_as_always(builds):
    data = make_pdf(text_page(SENTENCE), text_page(OTHER))
    with SharedFonts().active():  # open on this thread only
        reader = threading.Thread(
            target=lambda: [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages]
        )
        reader.start()
        reader.join()
    for page in pypdf.PdfReader(io.BytesIO(data)).pages:  # and nowhere once closed
        page.extract_text()
    assert len(builds) == 4


def test_a_font_changed_after_its_font_was_built_is_built_again_once_forgotten():
    # The visible space of a T1 TeX font at code 32 (500 units) glues pypdf's words; once its
    # width is dropped from the dictionary, the Font built before the change is stale: it is
    # read with until forgotten, then built again.
    widths = b"[500 " + b" ".join([b"278 556"] * 47) + b"]"
    shown = b"BT /F1 10 Tf 72 720 Td [(Walruses)-200(gather)-200(on)-200(the)-200(ice.)] TJ ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+TeXGyreTermesX-Regular /FirstChar 32"
        b" /LastChar 126 /Widths " + widths + b" /Encoding << /Differences [16 /quotedblleft 39 /quoteright] >> >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>"
        b" /Contents 5 0 R >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(shown), shown),
    ]
    page = pypdf.PdfReader(io.BytesIO(assemble(objects))).pages[0]
    font = page["/Resources"]["/Font"]["/F1"].get_object()
    with SharedFonts().active():
        assert page.extract_text() == "Walrusesgatherontheice."
        font["/Widths"][0] = pypdf.generic.NumberObject(0)
        assert page.extract_text() == "Walrusesgatherontheice."  # the Font built before
        forget(font)
        assert page.extract_text() == "Walruses gather on the ice."


@pytest.mark.parametrize("name", ["0908.0054v1.pdf", "1805.05865_pdf-only-submission.pdf", "pdftex_walruses.pdf"])
def test_shared_fonts_read_every_page_as_fonts_built_per_page(name):
    # The cache reaches into pypdf's page module: a pypdf that keeps state in a Font between
    # pages would read differently with it. Real papers' pages, read both ways, must agree.
    data = (FIXTURES / name).read_bytes()
    alone = [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages]
    with SharedFonts().active():
        shared = [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages]
    assert shared == alone
    assert any(alone)
