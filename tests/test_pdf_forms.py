"""Text-less form XObjects are skipped by the pypdf path without losing any text (forms.py)."""

import io

from pypdf import PdfReader

from arxiv_mcp.text.pdf import pdf_to_document
from arxiv_mcp.text.pdf.forms import hidden_textless_forms
from tests.pdfgen import assemble


def _stream(dictionary: bytes, data: bytes) -> bytes:
    return b"<< %s /Length %d >>\nstream\n%s\nendstream" % (dictionary, len(data), data)


def _form(data: bytes, resources: bytes = b"<< /Font << /F1 3 0 R >> >>") -> bytes:
    return _stream(b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources " + resources, data)


def _pdf_with_forms() -> bytes:
    """One page: a rectangle form drawn 200 times, a form with text, and a form whose only
    text is in a form of its own (nested)."""
    page_text = b"BT /F1 11 Tf 72 720 Td (Words on the page) Tj ET\n"
    drawing = b"q /Fx1 Do Q\n" * 200 + b"/Fx2 Do\n/Fx3 Do\n"
    return assemble(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R /Resources"
            b" << /Font << /F1 3 0 R >> /XObject << /Fx1 6 0 R /Fx2 7 0 R /Fx3 8 0 R >> >> >>",
            _stream(b"", page_text + drawing),
            _form(b"0 0 0 RG 1 w 10 10 5 5 re S"),
            _form(b"BT /F1 11 Tf 72 600 Td (Words inside a form) Tj ET"),
            _form(b"/Fx4 Do", b"<< /XObject << /Fx4 9 0 R >> >>"),
            _form(b"BT /F1 11 Tf 72 500 Td (Words two forms deep) Tj ET"),
        ]
    )


def test_every_word_is_read_with_the_textless_form_skipped():
    text = pdf_to_document(_pdf_with_forms(), engine="pypdf").text
    for words in ("Words on the page", "Words inside a form", "Words two forms deep"):
        assert words in text


def test_only_the_textless_form_is_hidden_and_it_is_put_back():
    page = PdfReader(io.BytesIO(_pdf_with_forms())).pages[0]
    forms = page["/Resources"]["/XObject"]
    with hidden_textless_forms(page) as hidden:
        assert hidden == 1
        assert forms["/Fx1"].get_object()["/Subtype"] == "/Image"
        assert {forms[name].get_object()["/Subtype"] for name in ("/Fx2", "/Fx3")} == {"/Form"}
    assert forms["/Fx1"].get_object()["/Subtype"] == "/Form"
