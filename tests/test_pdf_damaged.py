"""Damaged PDFs, in both engines: a file cut short gives the pages it still holds, a bit-flipped
one every page pdfium reads, the result says the file was damaged, and salvage stays bounded.

The damaged files are made here from the small real PDFs in fixtures/pdf (a REVTeX paper with
a classic xref, a Word PDF, and a pdfTeX one with an object stream and an xref stream, made
from pdftex_walruses.tex), cut at fixed fractions or with seeded random bytes replaced.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tracemalloc
import zlib
from pathlib import Path

import pytest
from pypdf import PageObject, PdfReader

from arxiv_mcp.errors import ExtractionError
from arxiv_mcp.text.pdf import FAILED_PAGE_NOTE, pdf_to_document, pdf_to_text, pypdf_compat
from arxiv_mcp.text.pdf import engine as pdf_engine
from arxiv_mcp.text.pdf.repair import MAX_UNPACKED, rebuilt
from tests.conftest import paper
from tests.damage import (
    bare_pdfium_chars,
    chars,
    chars_per_page,
    content_ends,
    flipped,
    garbled,
    pages_read,
    replaced,
    rewritten,
)
from tests.pdfgen import make_pdf

FIXTURES = Path(__file__).parent / "fixtures" / "pdf"
FILES = {
    "revtex": FIXTURES / "0908.0054v1.pdf",
    "word": FIXTURES / "1805.05865_pdf-only-submission.pdf",
    "pdftex": FIXTURES / "pdftex_walruses.pdf",
}
HAS_PDFIUM = pdf_engine._import_pdfium() is not None
ENGINES = ["pypdf", pytest.param("auto", marks=pytest.mark.skipif(not HAS_PDFIUM, reason="pypdfium2 missing"))]
REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("cut", [0.3, 0.5, 0.7, 0.9])
@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("engine", ENGINES)
def test_a_cut_file_gives_every_page_whose_contents_precede_the_cut(name, cut, engine):
    data = FILES[name].read_bytes()
    intact = chars_per_page(pdf_to_text(data, engine=engine))
    damaged = data[: int(len(data) * cut)]
    before = {index for index, end in enumerate(content_ends(data)) if end < len(damaged) and intact[index] >= 20}
    document = pdf_to_document(damaged, engine=engine)
    assert before <= pages_read(chars_per_page(document.text), intact)
    assert document.notes["damaged"].startswith("the PDF is damaged (cut short, or its index lost): ")
    assert "damaged" not in pdf_to_document(data, engine=engine).notes


@pytest.mark.parametrize("engine", ENGINES)
def test_a_cut_pdftex_file_reads_its_words_with_the_lost_fonts_stood_in_for(engine):
    # the object stream holding every page dictionary and font is beyond the cut
    data = FILES["pdftex"].read_bytes()
    text = pdf_to_text(data[: int(len(data) * 0.5)], engine=engine)
    assert text.startswith("## Page 1\nWalruses Counted on Drifting Ice\n")
    assert "\ufffd" not in text and "Introduction" in text


@pytest.mark.skipif(not HAS_PDFIUM, reason="the pages bare pdfium reads are the measure")
@pytest.mark.parametrize("count", [1, 10, 100])
@pytest.mark.parametrize("name", FILES)
def test_a_bit_flipped_file_reads_in_both_engines_every_page_pdfium_reads(name, count):
    data = FILES[name].read_bytes()
    intact = chars_per_page(pdf_to_text(data, engine="pdfium"))
    for seed in range(3):
        damaged = flipped(data, count, seed)
        bare = bare_pdfium_chars(damaged)
        for engine in ("pypdf", "auto"):
            try:
                ours = chars_per_page(pdf_to_text(damaged, engine=engine))
            except ExtractionError:
                ours = []
            assert pages_read(bare, intact) <= pages_read(ours, intact), (seed, engine)


def test_the_default_install_reads_damaged_files_without_pypdfium2():
    # `auto` in an install without the `fast` extra: pypdfium2 cannot be imported at all
    script = """
import json, sys
sys.modules["pypdfium2"] = None
from arxiv_mcp.text.pdf import pdf_to_document
from arxiv_mcp.text.pdf import engine
assert engine._import_pdfium() is None
data = open(sys.argv[1], "rb").read()
out = {}
for cut in (0.3, 0.6, 0.9):
    document = pdf_to_document(data[: int(len(data) * cut)], engine="auto")
    out[str(cut)] = [document.text, document.notes.get("damaged", "")]
print(json.dumps(out))
"""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", script, str(FILES["pdftex"])], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    data = FILES["pdftex"].read_bytes()
    intact = chars_per_page(pdf_to_text(data, engine="pypdf"))
    ends = content_ends(data)
    for cut, (text, note) in json.loads(done.stdout).items():
        before = {index for index, end in enumerate(ends) if end < int(len(data) * float(cut))}
        assert before and before <= pages_read(chars_per_page(text), intact), cut
        assert note.startswith("the PDF is damaged")


@pytest.mark.anyio
@pytest.mark.parametrize("engine", ["pypdf", pytest.param("pdfium", marks=ENGINES[1].marks)])
async def test_read_paper_gives_a_cut_pdf_and_says_it_is_damaged(fake, connect, make_config, engine):
    # arXiv sends the PDF cut short (with a matching length): its pages are read for this
    # answer, and nothing is kept, so a whole copy is fetched by the next read
    data = FILES["pdftex"].read_bytes()
    fake.add(paper("2403.00071", "Walruses", pdf=data[: len(data) // 2]))
    async with connect(make_config(ARXIV_MCP_PDF_ENGINE=engine)) as client:
        first = await client.call_tool("read_paper", {"paper_id": "2403.00071"})
        fake.papers["2403.00071"].pdf = data
        again = await client.call_tool("read_paper", {"paper_id": "2403.00071"})
    assert not first.is_error, first.content[0].text
    found, whole = first.structured_content, again.structured_content
    assert found["method"] == "pdf" and "Walruses Counted on Drifting Ice" in found["text"]
    assert "it. The PDF is damaged (cut short, or its index lost): " in found["notice"]  # sentences, not a run-on
    mended = "for the whole text. arXiv sent a damaged pdf: it was not saved, so the next read fetches it again."
    assert mended in found["notice"]
    assert not whole["cached"] and "damaged" not in whole["notice"] and len(whole["text"]) > len(found["text"])


def test_an_object_stream_bomb_in_a_cut_file_is_inflated_only_as_far_as_the_budget():
    # 1 GB of object stream in 1 MB, no xref: salvage must not hold what it inflates to
    packer = zlib.compressobj(9)
    chunk = packer.compress(b" " * 2**20) + packer.flush(zlib.Z_FULL_FLUSH)
    bomb = b"".join([chunk] * 1024) + packer.flush()
    data = (
        b"%%PDF-1.5\n5 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length %d >>\nstream\n" % len(bomb)
        + bomb
        + b"\nendstream\nendobj\n"
    )
    tracemalloc.start()
    try:
        assert rebuilt(data) is None  # its one object is blanks: nothing to read
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 3 * MAX_UNPACKED + 2 * len(data)
    with pytest.raises(ExtractionError, match="truncated"):
        pdf_to_text(data, engine="pypdf")


@pytest.mark.anyio
async def test_a_page_that_cannot_be_read_is_noted_also_when_the_text_comes_from_the_cache(
    fake, connect, make_config, monkeypatch
):
    original = PageObject.extract_text

    def fail_on_the_second_page(self, *args, **kwargs):  # the file's page 2, in any reader
        if self.indirect_reference is not None and self.indirect_reference.idnum == 6:
            raise KeyError("/Font")
        return original(self, *args, **kwargs)

    monkeypatch.setattr(PageObject, "extract_text", fail_on_the_second_page)
    fake.add(
        paper(
            "2403.00072",
            "Walruses",
            pdf=make_pdf(["Walruses gather on the ice. " * 4, "Lost.", "Seals haul out on the rocks. " * 4]),
        )
    )
    async with connect(make_config(ARXIV_MCP_PDF_ENGINE="pypdf")) as client:
        first = await client.call_tool("read_paper", {"paper_id": "2403.00072"})
        again = await client.call_tool("read_paper", {"paper_id": "2403.00072"})
    assert not first.is_error, first.content[0].text
    found, cached = first.structured_content, again.structured_content
    assert FAILED_PAGE_NOTE in found["text"] and cached["cached"]
    assert "1 of 3 pages of the PDF could not be read" in found["notice"] == cached["notice"]


def _contents(data: bytes):
    """A `rewritten` change: the page's contents become `data` (written as it is, not parsed)."""
    from pypdf.generic import DecodedStreamObject, NameObject

    def change(writer, page, _content):
        stream = DecodedStreamObject()
        stream.set_data(data)
        page[NameObject("/Contents")] = writer._add_object(stream)

    return change


def _page_chars(data: bytes, engine: str = "pypdf") -> list[int]:
    return chars_per_page(pdf_to_text(data, engine=engine))


GARBLINGS = {
    # a stray letter opening every third TJ array (a damaged deflate stream): pdfium skips it
    "letters in arrays": garbled,
    # a run of digits longer than pypdf reads a number (its error names no place), mid-page
    "a number too long": lambda content: (
        content[: len(content) // 2] + b" " + b"7" * 80 + b" " + content[len(content) // 2 :]
    ),
}


@pytest.mark.parametrize("garbling", GARBLINGS)
def test_garbled_content_loses_only_the_tokens_pypdf_cannot_read(garbling):
    data = FILES["revtex"].read_bytes()
    intact = _page_chars(data)
    content = rewritten(
        data, 0, lambda writer, page, content: _contents(GARBLINGS[garbling](content))(writer, page, content)
    )
    assert _page_chars(content)[0] >= 0.95 * intact[0]


def _into_a_form(form_content: bytes, caption: bytes = b""):
    """A `rewritten` change: the page draws `form_content` (in the page's own resources) as one
    form, an included PDF's page as pdfTeX writes it, then `caption` of its own."""
    from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, NameObject, NumberObject

    def change(writer, page, content):
        form = DecodedStreamObject()
        form.set_data(form_content)
        form.update(
            {
                NameObject("/Type"): NameObject("/XObject"),
                NameObject("/Subtype"): NameObject("/Form"),
                NameObject("/BBox"): ArrayObject(NumberObject(n) for n in (0, 0, 612, 792)),
                NameObject("/Resources"): page["/Resources"],
            }
        )
        xobjects = DictionaryObject({NameObject("/Fx"): writer._add_object(form)})
        fonts = page["/Resources"]["/Font"]
        page[NameObject("/Resources")] = DictionaryObject(
            {NameObject("/XObject"): xobjects, NameObject("/Font"): fonts}
        )
        _contents(b"q /Fx Do Q\n" + caption)(writer, page, content)

    return change


def test_a_form_that_does_not_parse_is_read_as_far_as_it_goes():
    # the page draws all its text in one form (an included PDF page); pypdf drops such a form
    # whole, without an error, when its content does not parse
    data = FILES["revtex"].read_bytes()
    intact = _page_chars(data)
    content = PdfReader(io.BytesIO(data)).pages[0].get_contents().get_data()
    assert _page_chars(rewritten(data, 0, _into_a_form(garbled(content))))[0] >= 0.9 * intact[0]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_form_garbled_near_its_end_is_read_on_a_page_with_a_caption_of_its_own(engine):
    # a figure page: a flipped byte garbled the end of its form's deflate data (zlib goes on
    # inflating garbage, which opens a string never closed); pdfium reads the form up to it,
    # pypdf drops it whole, and the page's own caption kept the page from reading blank
    data = FILES["revtex"].read_bytes()
    intact = _page_chars(data, engine)
    content = PdfReader(io.BytesIO(data)).pages[0].get_contents().get_data()
    line = content.index(b"\n", int(len(content) * 0.9)) + 1
    damaged = content[:line] + b"(\x8e#Q garbled \x9f]TJ\n" + content[line:]
    caption = b"BT /F108 9.9626 Tf 72 40 Td (Figure 1: walruses) Tj ET"
    assert _page_chars(rewritten(data, 0, _into_a_form(damaged, caption)), engine)[0] >= 0.8 * intact[0]


# a byte of a dictionary replaced so that pypdf stops reading it there (pdfium skips it)
HIDDEN_KEYS = {
    "a page's /Contents and /Resources": ("revtex", b"[ 32 0 R 33 0 R", b"[ 32 0 R @3 0 R"),
    "the page tree's /Kids": ("word", b"/Kids [ 2 0 R", b"/Kids [@2 0 R"),
    "a content stream's `stream`": ("word", b"/Length 5 0 R /Filter", b"/Length 5 0 R[/Filter"),
}


@pytest.mark.parametrize("damage", HIDDEN_KEYS)
@pytest.mark.parametrize("engine", ENGINES)
def test_a_key_a_damaged_byte_hides_from_pypdf_is_read_from_the_objects_bytes(damage, engine):
    name, old, new = HIDDEN_KEYS[damage]
    data = FILES[name].read_bytes()
    intact = _page_chars(data, engine)
    assert pages_read(intact, intact) <= pages_read(_page_chars(replaced(data, old, new), engine), intact)


@pytest.mark.parametrize("damage", HIDDEN_KEYS)
def test_with_an_untested_pypdf_the_hidden_keys_are_read_through_the_public_api(damage, monkeypatch):
    # pypdf_compat's fallback: object offsets from the file's bytes, the page list as pypdf made it
    name, old, new = HIDDEN_KEYS[damage]
    data = FILES[name].read_bytes()
    intact = _page_chars(data, "pypdf")
    monkeypatch.setattr(pypdf_compat, "fits", lambda: False)
    assert pages_read(intact, intact) <= pages_read(_page_chars(replaced(data, old, new), "pypdf"), intact)


def _stream(number: int, data: bytes, keys: bytes = b"") -> bytes:
    return b"%d 0 obj\n<< %s/Length %d >>\nstream\n%s\nendstream\nendobj\n" % (number, keys, len(data), data)


def _text(words: str) -> bytes:
    return b"BT /F1 11 Tf 72 700 Td (%s) Tj ET" % words.encode()


@pytest.mark.parametrize("engine", ENGINES)
def test_a_cut_file_keeps_an_empty_page_and_a_page_drawn_in_a_form_whose_dictionaries_were_lost(engine):
    # pdfTeX's order: each page's contents, then the form it includes; the page dictionaries,
    # the tree and the catalog come after them and are cut off
    font = b"1 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>\nendobj\n"
    form = _text("Seals haul out on the rocks of the northern shore. " * 3)
    kept = (
        b"%PDF-1.5\n"
        + font
        + _stream(2, _text("Walruses gather on the drifting ice in spring. " * 3))
        + _stream(3, b"0 g 0 G\n0 g 0 G")
        + _stream(4, b"q 1 0 0 1 0 0 cm /Fm1 Do Q")
        + _stream(5, form, b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 1 0 R >> >> ")
    )
    lost = b"6 0 obj\n<< /Type /Page /Parent 9 0 R /Contents 2 0 R /Resources 10 0 R >>\nendobj\n"
    text = pdf_to_text(kept + lost[:20], engine=engine)
    pages = text.split("## Page ")[1:]
    assert len(pages) == 3 and "Walruses gather" in pages[0] and "Seals haul out" in pages[2], text


@pytest.mark.parametrize("engine", ENGINES)
def test_a_form_whose_font_lost_its_unicode_map_does_not_cost_the_page_its_own_text(engine):
    # the page's dictionary is cut off; its contents draw text and a figure (a form) whose
    # two-byte font's ToUnicode map is beyond the cut: that figure's text cannot be decoded
    font = b"1 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>\nendobj\n"
    figure_font = (
        b"2 0 obj\n<< /Type /Font /Subtype /Type0 /BaseFont /ArialMT /Encoding /Identity-H /ToUnicode 98 0 R "
        b"/DescendantFonts [<< /Type /Font /Subtype /CIDFontType2 /BaseFont /ArialMT "
        b"/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 99 0 R "
        b"/CIDToGIDMap /Identity /DW 500 >>] >>\nendobj\n"
    )
    figure = b"BT /F0 9 Tf 72 600 Td <%s> Tj ET" % (b"00410042004300440045" * 60)
    kept = (
        b"%PDF-1.5\n"
        + font
        + figure_font
        + _stream(3, _text("Walruses gather on the drifting ice in spring. " * 3) + b"\nq /Fm1 Do Q")
        + _stream(
            4, figure, b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F0 2 0 R >> >> "
        )
    )
    text = pdf_to_text(kept + b"5 0 obj\n<< /Type /Page /Con", engine=engine)
    assert "Walruses gather on the drifting ice" in text


@pytest.mark.parametrize("engine", ENGINES)
def test_a_page_whose_object_was_lost_keeps_its_place(engine):
    # page 2's dictionary is unreadable (as when the object stream packing it breaks): pypdf
    # skipped it and every later page moved up one place, so `auto` filled pdfium's page 2 with
    # pypdf's page 3; pdfium keeps the place, and so must we, saying the page could not be read
    data = FILES["revtex"].read_bytes()
    intact = pdf_to_text(data, engine=engine).split("## Page ")[1:]
    start = data.index(b"\n94 0 obj\n") + len(b"\n94 0 obj\n")
    body = data[start : data.index(b"endobj", start)]
    document = pdf_to_document(replaced(data, body, b"%" * len(body)), engine=engine)
    pages = document.text.split("## Page ")[1:]
    assert len(pages) == 4 and pages[1].split("\n", 1)[1].strip() == FAILED_PAGE_NOTE
    for number in (0, 2, 3):  # the others read as they did, each in its place
        # (in words, not order: page 3 opens with the paragraph page 2 left open, then its
        # floats, only when page 2 is read)
        assert set(intact[number].split()[:12]) <= set(pages[number].split())
        assert chars(pages[number]) >= 0.95 * chars(intact[number])
    assert document.notes["damaged"].startswith("1 of 4 pages of the PDF could not be read")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_form_cut_short_by_the_end_of_the_file_is_read_as_far_as_it_goes(engine):
    # the page (a caption and an included figure) comes before the cut; the figure's form,
    # compressed, is cut mid-way: inflated as far as it goes, its last operator is cut too
    font = b"1 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>\nendobj\n"
    lines = b"".join(
        b"BT /F1 9 Tf 72 %d Td (Walrus count %d on the northern ice) Tj ET\n" % (90 + n, n) for n in range(600)
    )
    packed = zlib.compress(lines)
    form_head = b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Filter /FlateDecode "
    form_head += b"/Resources << /Font << /F1 1 0 R >> >> "
    data = (
        b"%PDF-1.5\n"
        + font
        + _stream(2, _text("Figure 1: walruses counted.") + b"\nq /Fm1 Do Q")
        + b"3 0 obj\n<< /Type /Page /Parent 4 0 R /Contents 2 0 R "
        + b"/Resources << /Font << /F1 1 0 R >> /XObject << /Fm1 5 0 R >> >> >>\nendobj\n"
        + b"4 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n"
        + b"6 0 obj\n<< /Type /Catalog /Pages 4 0 R >>\nendobj\n"
        + _stream(5, packed, form_head)
    )
    cut = data[: len(data) - len(packed) // 2]
    text = pdf_to_text(cut, engine=engine)
    assert "Figure 1: walruses counted." in text and "Walrus count 0 on the northern ice" in text
    assert text.count("Walrus count") >= 100


@pytest.mark.parametrize("engine", ENGINES)
def test_a_rebuilt_file_keeps_the_page_order_of_its_tree_and_the_place_of_each_page_lost(engine):
    # the file is cut and two page dictionaries were lost (their object stream broke): page 2's
    # contents survive, page 3's do not. The tree says where each page goes; the contents are
    # written in another order (page 4's first), which alone would misplace them
    font = b"1 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>\nendobj\n"
    words = ["Walruses gather on the ice.", "Seals haul out on the rocks.", "Lost.", "Narwhals dive deep here."]
    contents = [_stream(number, _text(text * 4)) for number, text in zip((3, 4, 5, 6), words)]
    page = (
        b"%d 0 obj\n<< /Type /Page /Parent 20 0 R /Contents %d 0 R /Resources << /Font << /F1 1 0 R >> >> >>\nendobj\n"
    )
    data = (
        b"%PDF-1.5\n"
        + font
        + contents[3]
        + contents[0]
        + contents[1]
        + contents[2].replace(b"5 0 obj", b"5 0 xbj").replace(b"Lost", b"Xxxx")
        + page % (10, 3)
        + (page % (11, 4)).replace(b"11 0 obj", b"11 0 xbj")
        + (page % (12, 5)).replace(b"12 0 obj", b"12 0 xbj")
        + page % (13, 6)
        + b"20 0 obj\n<< /Type /Pages /Kids [10 0 R 11 0 R 12 0 R 13 0 R] /Count 4 >>\nendobj\n"
        + b"21 0 obj\n<< /Type /Catalog /Pages 20 0 R >>\nendobj\n"
    )
    pages = pdf_to_text(data, engine=engine).split("## Page ")[1:]
    assert len(pages) == 4, pages
    assert words[0] in pages[0] and words[1] in pages[1] and words[3] in pages[3]
    assert pages[2].split("\n", 1)[1].strip() in ("", FAILED_PAGE_NOTE)  # pdfium reads the stand-in blank
