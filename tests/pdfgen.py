"""Tiny PDF writer for tests: real, parseable PDFs without a PDF library.

Each page gets one Helvetica text stream; pypdf reads the words back, so
tests can check text extraction end to end against known content.
"""

from __future__ import annotations

_PAGE_WIDTH = 612
_PAGE_HEIGHT = 792
_FONT_SIZE = 11
_LEADING = 14


def _pdf_string(text: str) -> bytes:
    """A PDF literal string in WinAnsi bytes, with ( ) \\ escaped and non-ASCII as octal."""
    out = bytearray(b"(")
    for byte in text.encode("cp1252", errors="replace"):
        if byte in b"()\\":
            out += b"\\" + bytes([byte])
        elif 32 <= byte < 127:
            out.append(byte)
        else:
            out += b"\\%03o" % byte
    out += b")"
    return bytes(out)


def _text_stream(text: str) -> bytes:
    lines = text.split("\n")
    parts = [b"BT", b"/F1 %d Tf" % _FONT_SIZE, b"%d TL" % _LEADING, b"72 %d Td" % (_PAGE_HEIGHT - 72)]
    for index, line in enumerate(lines):
        if index:
            parts.append(b"T*")
        parts.append(_pdf_string(line) + b" Tj")
    parts.append(b"ET")
    return b"\n".join(parts)


def _rectangle_stream() -> bytes:
    return b"0 0 0 RG 2 w 72 400 300 200 re S"


def _assemble(streams: list[bytes], with_font: bool) -> bytes:
    """Lay out catalog, page tree, optional font, then page+content pairs, with an exact xref."""
    objects: list[bytes] = []
    page_numbers = [4 + 2 * i for i in range(len(streams))]
    kids = b" ".join(b"%d 0 R" % n for n in page_numbers)
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, len(streams)))
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    resources = b"/Resources << /Font << /F1 3 0 R >> >>" if with_font else b"/Resources << >>"
    for number, stream in zip(page_numbers, streams):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] %s /Contents %d 0 R >>"
            % (_PAGE_WIDTH, _PAGE_HEIGHT, resources, number + 1)
        )
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
    return assemble(objects)


def assemble(objects: list[bytes]) -> bytes:
    """A PDF file of `objects` (numbered from 1, the first being the catalog) with an exact xref."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref_at = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref_at)
    return bytes(out)


def make_pdf(pages: list[str]) -> bytes:
    """A PDF with one page per string; each "\\n"-separated line is drawn on its own row."""
    if not pages:
        raise ValueError("make_pdf needs at least one page")
    return _assemble([_text_stream(page) for page in pages], with_font=True)


def make_pdf_without_text(n_pages: int) -> bytes:
    """A PDF whose pages hold only a drawn rectangle, like a scanned paper without OCR."""
    if n_pages < 1:
        raise ValueError("make_pdf_without_text needs at least one page")
    return _assemble([_rectangle_stream() for _ in range(n_pages)], with_font=False)


# --- styled pages: a heading font, running headers, page numbers ---------------------------

_STYLES = {"body": (b"/F1", 10), "bold": (b"/F2", 10), "large": (b"/F2", 14), "small": (b"/F1", 8)}


def _styled_stream(lines: list[tuple[str, str]]) -> bytes:
    """One BT block per line, each at its own row, in the font its style names."""
    parts = []
    y = _PAGE_HEIGHT - 60
    for text, style in lines:
        font, size = _STYLES[style]
        parts.append(b"BT %s %d Tf 72 %d Td %s Tj ET" % (font, size, y, _pdf_string(text)))
        y -= size + 4
    return b"\n".join(parts)


def make_styled_pdf(pages: list[list[tuple[str, str]]], bold_font: bytes = b"", bold_stem: int = 50) -> bytes:
    """A PDF of pages of (text, style) lines; styles: body, bold (Helvetica-Bold), large, small.

    `bold_font` replaces the bold font's name, and gives it a descriptor with a stem
    `bold_stem` wide: by default a thin one, as cm-super's SFBX has (pdfium then reports a
    regular weight for a bold font).
    """
    if not pages:
        raise ValueError("make_styled_pdf needs at least one page")
    return _two_font_pdf([_styled_stream(lines) for lines in pages], bold_font, bold_stem)


def _two_font_pdf(streams: list[bytes], bold_font: bytes = b"", bold_stem: int = 50) -> bytes:
    """A PDF of one page per content stream, with Helvetica as /F1 and a bold font as /F2."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    page_numbers = [5 + 2 * i for i in range(len(streams))]
    kids = b" ".join(b"%d 0 R" % n for n in page_numbers)
    objects.append(b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, len(streams)))
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    descriptor = b" /FontDescriptor %d 0 R" % (5 + 2 * len(streams)) if bold_font else b""
    objects.append(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /%s /Encoding /WinAnsiEncoding%s >>"
        % (bold_font or b"Helvetica-Bold", descriptor)
    )
    resources = b"/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >>"
    for number, stream in zip(page_numbers, streams):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] %s /Contents %d 0 R >>"
            % (_PAGE_WIDTH, _PAGE_HEIGHT, resources, number + 1)
        )
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
    if bold_font:
        objects.append(
            b"<< /Type /FontDescriptor /FontName /%s /Flags 4 /FontBBox [0 -250 1000 750] /ItalicAngle 0"
            b" /Ascent 750 /Descent -250 /CapHeight 700 /StemV %d >>" % (bold_font, bold_stem)
        )
    return assemble(objects)


def pdf_of_size(size: int, seed: int = 0) -> bytes:
    """A whole one-page PDF of exactly `size` bytes (at least about 700), different per seed."""
    filler = f"{seed} "
    for _ in range(5):  # the stream's /Length gains digits as the text grows: converge
        data = make_pdf([filler])
        if len(data) == size:
            return data
        filler += "x" * (size - len(data)) if len(data) < size else ""
        filler = filler[: len(filler) - max(0, len(data) - size)]
    raise ValueError(f"no PDF of exactly {size} bytes")


def gzip_of_size(size: int, seed: int = 0) -> bytes:
    """A whole gzip stream of exactly `size` bytes (at least about 60)."""
    import gzip
    import random

    payload = random.Random(seed).randbytes(size)
    for _ in range(10):
        data = gzip.compress(payload, mtime=0)
        if len(data) == size:
            return data
        payload = payload[: len(payload) - (len(data) - size)]
    raise ValueError(f"no gzip stream of exactly {size} bytes")


# --- placed lines: columns, footnotes, floats, in the order a TeX engine writes them -------------


def make_placed_pdf(pages: list[list[tuple[float, float, str, str]]]) -> bytes:
    """A PDF of pages of (x, y, text, style) lines, drawn in the order given (styles as
    make_styled_pdf's): the content stream's order, which need not be top to bottom."""
    if not pages:
        raise ValueError("make_placed_pdf needs at least one page")
    return _two_font_pdf(
        [
            b"\n".join(
                b"BT %s %d Tf %.1f %.1f Td %s Tj ET" % (*_STYLES[style], x, y, _pdf_string(text))
                for x, y, text, style in lines
            )
            for lines in pages
        ]
    )


def many_objects_pdf(count: int, text: str = "A page of text among many objects.") -> bytes:
    """One page of `text` among `count` small filler objects, with no cross-reference table
    nor trailer offset: a reader must find every object by scanning (issue 34 point 5)."""
    stream = b"BT /F1 12 Tf 72 700 Td " + _pdf_string(text) + b" Tj ET"
    head = [
        b"%PDF-1.4",
        b"1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj",
        b"2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj",
        b"3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> >> endobj",
        b"4 0 obj << /Length %d >> stream\n%s\nendstream endobj" % (len(stream), stream),
        b"5 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj",
    ]
    filler = b"\n".join(b"%d 0 obj << /N %d >> endobj" % (number, number) for number in range(6, 6 + count))
    return b"\n".join(head) + b"\n" + filler + b"\ntrailer << /Root 1 0 R /Size %d >>\n%%%%EOF\n" % (6 + count)
