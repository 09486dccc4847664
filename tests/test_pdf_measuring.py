"""The page measure's cheap readings: the measuring reader (pypdf_compat) reads what pypdf reads, and the search for a drawn form."""

from __future__ import annotations

import random
import re
from io import BytesIO
from pathlib import Path

import pypdf
import pytest
from pypdf.generic import IndirectObject

from arxiv_mcp.text.pdf import pypdf_compat
from arxiv_mcp.text.pdf import work as pdf_work
from tests.pdfgen import make_pdf

_FIXTURES = Path(__file__).parent / "fixtures" / "pdf"


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


@pytest.mark.parametrize("name", ["pdftex_walruses.pdf", "0908.0054v1.pdf"])
def test_the_measuring_reader_reads_each_packed_object_alone_as_pypdf_reads_it(name):
    data = (_FIXTURES / name).read_bytes()
    reader, expected = pdf_work._reader(data), pypdf.PdfReader(BytesIO(data))
    pages = reader.pages
    assert len(pages) == len(expected.pages)
    assert all(_same(dict(page), dict(other)) for page, other in zip(pages, expected.pages))
    packed = {key for key in reader.resolved_objects if key[1] in reader.xref_objStm}
    if name == "pdftex_walruses.pdf":  # its page tree is packed: only what was asked for is parsed
        every = {key for key in expected.resolved_objects if key[1] in expected.xref_objStm}
        assert packed and len(packed) < len(every)
    assert all(_same(reader.get_object(number), expected.get_object(number)) for _, number in packed)


@pytest.mark.parametrize("name", ["pdftex_walruses.pdf", "0908.0054v1.pdf"])
def test_object_offsets_found_in_the_bytes_are_the_readers_own(name, monkeypatch):
    data = (_FIXTURES / name).read_bytes()
    reader = pypdf.PdfReader(BytesIO(data))
    assert pypdf_compat.object_offsets(reader, data) is reader.xref
    monkeypatch.setattr(pypdf_compat, "fits", lambda: False)
    found = pypdf_compat.object_offsets(reader, data)
    assert {g: {n: o for n, o in objects.items() if o} for g, objects in reader.xref.items() if objects} == found


def test_without_the_shortcut_the_measuring_reader_is_pypdfs_own(monkeypatch):
    monkeypatch.setattr(pypdf_compat, "SHORTCUTS", frozenset())
    assert type(pdf_work._reader(make_pdf(["x"]))) is pypdf.PdfReader


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


_WALRUSES = _FIXTURES / "pdftex_walruses.pdf"  # pdfTeX: an xref stream


def _xref(read, data, strict):
    try:
        reader = read(data, strict)
    except Exception as exc:  # a damaged file: the same failure
        return type(exc).__name__
    return reader.xref, reader.xref_objStm, reader.xref_free_entry, sorted(reader.trailer)


def test_the_measuring_reader_reads_a_damaged_xref_stream_as_pypdf_does():
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
