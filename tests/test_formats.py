"""text/formats: every e-print kind is told from its bytes, and a cut or garbled body never passes."""

from __future__ import annotations

import gzip

import pytest

from arxiv_mcp.errors import ExtractionError, UnsafeArchive
from arxiv_mcp.text import formats
from tests.fake_arxiv import eprint, plain_tar
from tests.pdfgen import make_pdf

TEX = b"\\documentclass{article}\\begin{document}\\section{Intro}Words.\\end{document}\n"
HTML_PAGE = b"<!DOCTYPE html><html><head><title>A page</title></head><body><h1>A page</h1><p>Text.</p></body></html>"
NOT_READY = b"<html><head><title>File is not ready</title></head><body><p>File is not ready. Come back later</p></body>"
PDF = make_pdf(["One page of words."])


def v7_tar(files: dict[str, str | bytes]) -> bytes:
    """An old-format tar: no "ustar" magic, only the header checksum says what it is."""
    data = bytearray(plain_tar(files))
    data[257:265] = b"\0" * 8  # drop the magic and version, then re-sum the header
    data[148:156] = b" " * 8
    data[148:156] = f"{sum(data[:512]):06o}\0 ".encode()
    return bytes(data)


KINDS = {
    "gzipped tar": (eprint({"main.tex": TEX}), formats.GZIP),
    "plain tar": (plain_tar({"main.tex": TEX * 200}), formats.TAR),
    "old tar without magic": (v7_tar({"main.tex": TEX}), formats.TAR),
    "gzipped tex": (gzip.compress(TEX, mtime=0), formats.GZIP),
    "plain tex": (TEX, formats.TEX),
    "pdf": (PDF, formats.PDF),
    "gzipped pdf": (gzip.compress(PDF, mtime=0), formats.GZIP),
    "html": (HTML_PAGE, formats.HTML),
    "tar of an html page": (
        plain_tar({"index.html": HTML_PAGE, "photo.jpg": b"\xff\xd8\xff" + bytes(300)}),
        formats.TAR,
    ),
}


@pytest.mark.parametrize("kind", KINDS)
def test_every_eprint_kind_is_told_from_its_bytes(kind):
    data, expected = KINDS[kind]
    assert formats.eprint_type(data) == expected


@pytest.mark.parametrize("kind", ["gzipped tar", "plain tar", "pdf", "html"])
def test_the_head_alone_gives_the_same_type(kind):
    data, expected = KINDS[kind]
    assert formats.content_type(data[:512]) == expected


@pytest.mark.parametrize("wrap", [lambda b: b, lambda b: gzip.compress(b, mtime=0)], ids=["plain", "gzipped"])
def test_the_not_ready_page_is_not_an_eprint(wrap):
    with pytest.raises(formats.NotReady, match="not ready"):
        formats.eprint_type(wrap(NOT_READY))


@pytest.mark.parametrize("kind", ["gzipped tar", "gzipped tex", "plain tar", "pdf", "gzipped pdf"])
def test_a_cut_body_never_passes(kind):
    data, _ = KINDS[kind]
    with pytest.raises(ExtractionError):
        formats.eprint_type(data[: len(data) // 2])


def test_a_tar_cut_in_its_end_padding_is_whole():
    data = plain_tar({"main.tex": TEX})  # one member, then zero blocks up to 10 KB
    assert formats.eprint_type(data[:4096]) == formats.TAR


def test_garbage_after_gzip_magic_is_corrupt():
    with pytest.raises(ExtractionError, match="corrupt"):
        formats.eprint_type(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03garbage-not-deflate")


@pytest.mark.parametrize("data", [b"", b"   \n", bytes(range(256)) * 8], ids=["empty", "blank", "binary"])
def test_what_no_eprint_can_be_is_refused(data):
    with pytest.raises(ExtractionError):
        formats.eprint_type(data)


def test_concatenated_gzip_members_and_tar_padding_are_whole():
    data = gzip.compress(b"first part ", mtime=0) + gzip.compress(b"second part", mtime=0) + b"\0" * 1024
    assert formats.eprint_type(data) == formats.GZIP
    assert b"".join(formats.gunzip_chunks(data, 1 << 20)) == b"first part second part"


def test_gunzip_stops_at_its_limit():
    bomb = gzip.compress(b"\0" * (4 << 20), mtime=0)
    with pytest.raises(UnsafeArchive):
        b"".join(formats.gunzip_chunks(bomb, 1 << 20))


def test_a_pdf_must_have_its_page_tree():
    formats.check_pdf(PDF)
    with pytest.raises(ExtractionError, match="not a PDF"):
        formats.check_pdf(HTML_PAGE)
    with pytest.raises(ExtractionError, match="damaged or incomplete|no pages"):
        formats.check_pdf(PDF[: len(PDF) // 3])
