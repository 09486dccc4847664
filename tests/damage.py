"""Damaging a PDF and counting what survives: shared by tests/test_pdf_damaged.py and
benchmarks/damaged_pdfs.py, so the test and the corpus figures count pages the same way.

A page counts as read when it holds at least half the characters (at most 200) it holds in
the intact file; pages of under 20 characters when intact are not counted.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from typing import Any

from arxiv_mcp.text.pdf import FAILED_PAGE_NOTE


def flipped(data: bytes, count: int, seed: int) -> bytes:
    """`data` with `count` seeded random bytes of its body replaced (never the header)."""
    out = bytearray(data)
    rnd = random.Random(f"{seed}-{count}")
    for _ in range(count):
        out[rnd.randrange(16, len(out))] = rnd.randrange(256)
    return bytes(out)


def chars(text: str) -> int:
    """Characters that are not white space."""
    return len("".join(text.split()))


def chars_per_page(text: str) -> list[int]:
    """Characters on each page of an extracted text (0 for a page that could not be read)."""
    pages = [page.partition("\n")[2] for page in text.split("## Page ")[1:]]
    return [0 if page.strip() == FAILED_PAGE_NOTE else chars(page) for page in pages]


def pages_read(counts: list[int], intact: list[int]) -> set[int]:
    """The pages holding at least half the characters they hold in the intact file (at most 200)."""
    return {
        index
        for index, want in enumerate(intact)
        if want >= 20 and index < len(counts) and counts[index] >= min(200, want // 2)
    }


def bare_pdfium_chars(data: bytes) -> list[int]:
    """Characters pypdfium2 alone reads on each page (0 for a page it cannot load; [] when it
    cannot open the file)."""
    return [chars(text) for text in pdfium_texts(data)]


def pdfium_texts(data: bytes) -> list[str]:
    """The text bare pypdfium2 reads on each page ("" for a page it cannot load; [] when it
    cannot open the file)."""
    import pypdfium2

    try:
        document = pypdfium2.PdfDocument(data)
    except pypdfium2.PdfiumError:
        return []
    texts = []
    try:
        for index in range(len(document)):
            try:
                texts.append(document[index].get_textpage().get_text_range())
            except pypdfium2.PdfiumError:
                texts.append("")
    finally:
        document.close()
    return texts


def content_ends(data: bytes) -> list[int]:
    """Where each page's last content stream ends in the intact file (0: not found)."""
    from pypdf import PdfReader
    from pypdf.generic import IndirectObject

    reader = PdfReader(io.BytesIO(data))
    ends = []
    for page in reader.pages:
        contents = page.raw_get("/Contents") if "/Contents" in page else []
        if isinstance(contents, IndirectObject) and isinstance(contents.get_object(), list):
            contents = contents.get_object()
        refs = [
            ref for ref in (contents if isinstance(contents, list) else [contents]) if isinstance(ref, IndirectObject)
        ]
        offsets = [reader.xref.get(ref.generation, {}).get(ref.idnum) for ref in refs]
        ends.append(max((data.find(b"endstream", offset) for offset in offsets if offset), default=0))
    return ends


def replaced(data: bytes, old: bytes, new: bytes) -> bytes:
    """`data` with the one occurrence of `old` replaced by `new` of the same length (offsets kept)."""
    assert len(old) == len(new) and data.count(old) == 1, old
    return data.replace(old, new)


def rewritten(data: bytes, page: int, change: Callable[[Any, Any, bytes], None]) -> bytes:
    """`data` written anew by pypdf after `change(writer, page, its content)` edited that page."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    target = writer.pages[page]
    change(writer, target, target.get_contents().get_data())
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def garbled(content: bytes, every: int = 3) -> bytes:
    """`content` with a stray letter opening every `every`-th TJ array (as a damaged deflate
    stream leaves them): pypdf cannot parse such an array, pdfium skips the letter."""
    parts = content.split(b"[(")
    return (
        b"".join(part + (b"[x(" if index % every == 0 else b"[(") for index, part in enumerate(parts[:-1])) + parts[-1]
    )
