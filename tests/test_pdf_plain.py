"""The page measure's cheap readings: plain PDF objects parsed at once (plain) as pypdf parses them, and the search for a drawn form."""

from __future__ import annotations

import random
import re
from io import BytesIO
from pathlib import Path

import pypdf
import pytest
from pypdf.generic import IndirectObject, read_object

from arxiv_mcp.text.pdf import plain
from arxiv_mcp.text.pdf import work as pdf_work
from tests.pdfgen import make_pdf


def _same(a: object, b: object) -> bool:
    """Equal values of the same pypdf types, all the way down (references not followed)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict) and isinstance(b, dict):
        keys = list(a)
        return keys == list(b) and all(_same(dict.__getitem__(a, k), dict.__getitem__(b, k)) for k in keys)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(list.__getitem__(a, i), list.__getitem__(b, i)) for i in range(len(a)))
    if isinstance(a, IndirectObject) and isinstance(b, IndirectObject):
        return (a.idnum, a.generation) == (b.idnum, b.generation)
    return a == b


def _pypdf_reads(text: bytes) -> object:
    reader = pypdf.PdfReader(BytesIO(make_pdf(["x"])))
    return read_object(BytesIO(text), reader), reader


@pytest.mark.parametrize(
    "text",
    [
        b"<< /Type /Page /MediaBox [0 0 595.276 841.89] /Parent 3 0 R /Annots [8 0 R\n38 0 R] /Contents 5 0 R >>",
        b"<</Type/Pages/Kids[4 0 R 41 0 R]/Count 2/Rotate -90>>",
        b"<< /Resources << /ProcSet [/PDF /Text] /Font << /F1 9 0 R >> >> /Hidden true /Open false /X null >>",
        b"<< /Matrix [1 0 0 1 -.5 +2.] /BBox [] /A [[1 2] << /B [3 0 R] >>] >>",
        b"[1 0 R 2 0 R 3 0 R]",
        b"<< /Kids [] /Empty << >> / 1 >>",
    ],
)
def test_a_plain_object_is_what_pypdf_reads(text):
    expected, reader = _pypdf_reads(text)
    found = plain.plain_object(text, 0, reader)
    assert found is not None and found[1] == len(text)
    assert _same(found[0], expected)


@pytest.mark.parametrize(
    "text",
    [
        b"<< /Title (a string) >>",  # strings are pypdf's to decode
        b"<< /ID <0a1b> >>",
        b"<< /A 1 % a comment\n>>",
        b"<< /F#6frm 1 >>",  # an escaped name
        b"<< /A 1 /A 2 >>",  # a key twice: pypdf warns or refuses
        b"<< 1 /A >>",  # a key that is not a name
        b"<< /A 1,2 >>",  # pypdf reads "1,2" as one number
        b"<< /A 1.2.3 >>",
        b"<< /A 1\x000 R >>",  # white space to pypdf, not to the pattern
        b"<< /A 1          0          R >>",  # a reference longer than pypdf's peek: two numbers and an R
        b"<< /A 1 0 Rx >>",
        b"<< /A [1 2 >>",
        b" << /A 1 >>",  # white space first: pypdf's read_object would not skip it
        b"<< /A /B",  # cut short
    ],
)
def test_anything_not_plain_is_left_to_pypdf(text):
    reader = pypdf.PdfReader(BytesIO(make_pdf(["x"])))
    assert plain.plain_object(text, 0, reader) is None


def test_a_dictionary_object_needs_its_header_and_endobj():
    reader = pypdf.PdfReader(BytesIO(make_pdf(["x"])))
    data = b"xx 7 0 obj\n<< /A 1 >>\nendobj\n8 0 obj << /B 2 >>\nstream\nabc\nendstream\nendobj"
    found = plain.plain_indirect_dictionary(data, 2, 7, 0, reader)
    assert found == {"/A": 1}
    assert plain.plain_indirect_dictionary(data, 2, 8, 0, reader) is None  # not the object there
    assert plain.plain_indirect_dictionary(data, data.index(b"8 0"), 8, 0, reader) is None  # a stream
    assert plain.plain_packed_object(b"<< /A 1 >> stream", 0, reader) is None
    assert plain.plain_packed_object(b"<< /A 1 >> 12 [1]", 0, reader) == {"/A": 1}


def test_the_measuring_reader_reads_a_plain_page_tree_without_pypdfs_parser(monkeypatch):
    data = make_pdf(["first page", "second page", "third page"])
    parsed = []
    original = pypdf._reader.read_object

    def counting(stream, pdf, *args, **kwargs):
        obj = original(stream, pdf, *args, **kwargs)
        parsed.append(obj)
        return obj

    monkeypatch.setattr(pypdf._reader, "read_object", counting)
    reader = pdf_work._reader(data)
    pages = reader.pages
    assert len(pages) == 3
    assert not [obj for obj in parsed if isinstance(obj, dict) and obj.get("/Type") in ("/Page", "/Pages")]
    expected = pypdf.PdfReader(BytesIO(data)).pages
    assert all(_same(dict(page), dict(other)) for page, other in zip(pages, expected))


def test_a_page_may_draw_a_form_where_do_follows_a_name_not_where_its_text_holds_do():
    drawing = [b"/Im1 Do", b"/Fm2\nDo Q", b"/x Do", b"/Im1Do", b"/a#20b \t Do\n", b"(Do) Tj /Im1 Do"]
    not_drawing = [
        b"",
        b"D",
        b"o",
        b"oD",
        b"BT (Dog) Tj ET",
        b"[(Do)-333(es)] TJ",
        b"(Does) Tj",
        b"/Im1 Dox",
        b"D\x00o",
    ]
    assert all(pdf_work._may_draw(data) for data in drawing)
    assert not any(pdf_work._may_draw(data) for data in not_drawing)


def test_every_content_the_draw_pattern_finds_a_form_in_may_draw_one():
    rng = random.Random(1)
    pieces = [b"/", b"Im1", b" ", b"\n", b"Do", b"D", b"o", b"(", b")", b"[", b"]", b"#20", b"\x00", b"%", b"<", b"\t"]
    for _ in range(50_000):
        data = b"".join(rng.choice(pieces) for _ in range(rng.randint(0, 10)))
        if pdf_work._DRAW_FORM.search(data):
            assert pdf_work._may_draw(data), data


def test_the_name_and_white_space_bytes_are_the_draw_patterns():
    name = re.compile(pdf_work._NAME_CHARS)
    assert {byte for byte in range(256) if name.fullmatch(bytes([byte]))} == pdf_work._NAME_BYTES
    assert {byte for byte in range(256) if re.fullmatch(rb"\s", bytes([byte]))} == pdf_work._WHITE_BYTES


def test_an_array_longer_than_pypdf_takes_is_left_to_pypdf():
    reader = pypdf.PdfReader(BytesIO(make_pdf(["x"])))
    refs = b" ".join(b"%d 0 R" % (n % 9 + 1) for n in range(plain._MAX_TOKENS + 1))
    assert plain.plain_object(b"<< /Annots [" + refs + b"] >>", 0, reader) is None
    found = plain.plain_object(b"<< /Annots [1 0 R 2 0 R] >>", 0, reader)
    assert found is not None and [ref.idnum for ref in found[0]["/Annots"]] == [1, 2]


_WALRUSES = Path(__file__).parent / "fixtures" / "pdf" / "pdftex_walruses.pdf"  # pdfTeX: an xref stream


def _xref(read, data, strict):
    try:
        reader = read(data, strict)
    except Exception as exc:  # a damaged file: the same failure
        return type(exc).__name__
    return reader.xref, reader.xref_objStm, reader.xref_free_entry, sorted(reader.trailer)


def test_the_measuring_reader_reads_an_xref_stream_as_pypdf_does():
    data = _WALRUSES.read_bytes()
    rng = random.Random(3)
    stream = data.rindex(b"/XRef")
    variants = [data, data[:-1], data[: len(data) // 2]]
    for _ in range(40):  # bytes of the xref stream's data and around it changed: odd types, cut fields
        damaged = bytearray(data)
        damaged[rng.randrange(stream, len(data))] = rng.randrange(256)
        variants.append(bytes(damaged))
    for variant in variants:
        for strict in (True, False):
            ours = _xref(pdf_work._reader, variant, strict)
            assert ours == _xref(lambda data, strict: pypdf.PdfReader(BytesIO(data), strict=strict), variant, strict)


@pytest.mark.parametrize(
    "entries",
    [
        bytes([1, 0, 0, 9, 0, 2, 0, 0, 5, 1]),  # in use, then packed in an object stream
        bytes([7, 0, 0, 9, 0, 1, 0, 0, 9, 0]),  # an unknown type: pypdf reads its type byte only
        bytes([1, 0, 0, 9]),  # cut short
    ],
)
@pytest.mark.parametrize("strict", [True, False])
def test_xref_stream_entries_are_read_as_pypdf_reads_them(entries, strict):
    widths = [1, 3, 1]
    found = []
    for read in (pdf_work._xref_subsections_at_once, pypdf.PdfReader._read_xref_subsections):
        reader = pdf_work._reader(_WALRUSES.read_bytes(), strict)
        reader.xref, reader.xref_objStm = {}, {}
        get_entry = _entry_reader(BytesIO(entries), widths)
        try:
            read(reader, [900, 2], get_entry, lambda number, generation: False)
        except pypdf.errors.PdfReadError as exc:
            found.append(str(exc))
            continue
        found.append((reader.xref, reader.xref_objStm))
    assert found[0] == found[1]


def _entry_reader(stream_data, entry_sizes):
    """pypdf's own closure over an xref stream's data (the shape the measuring reader reads)."""

    def get_entry(i):
        if entry_sizes[i] > 0:
            return int.from_bytes(stream_data.read(entry_sizes[i]), "big")
        return 1 if i == 0 else 0

    return get_entry


def test_a_pypdf_reading_xref_streams_otherwise_keeps_its_own_reading():
    class Other:
        def _read_xref_subsections(self, pairs, stream):  # another pypdf's shape
            raise AssertionError("not called")

    assert pdf_work._xref_reader_fits(pypdf.PdfReader)
    assert not pdf_work._xref_reader_fits(Other)
    assert not pdf_work._xref_reader_fits(object)
