"""A page pypdf failed on, read again the way pdfium reads a damaged page.

pypdf gives up a page at the first object or token it cannot parse, and a failed object
stays marked "being read" in its reader, so every later page sharing it fails too ("loop
with self reference"). pdfium skips what it cannot read. `read_salvaged` takes the page from
a fresh reader, leaves out the font entries that do not parse (a damaged width table costs
that font's spacing, not the page), and, while the content stream does not parse, leaves
out the line the parser stopped at, or, when it names no place (an unclosed string), keeps
the longest run of lines from the start that parses. Only the reader's in-memory objects
change; the file's bytes never do. At most MAX_CUTS retries, each one parse of the page.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import Any, TypeVar

from .work import resolved

T = TypeVar("T")
MAX_CUTS = 16
_AT_OFFSET = re.compile(r"Invalid Elementary Object starting with .* @(\d+):")
_FONT_PARTS = ("/Widths", "/Encoding", "/ToUnicode", "/FontDescriptor", "/DescendantFonts", "/FirstChar", "/LastChar")


def read_salvaged(data: bytes, index: int, read: Callable[[Any], T]) -> T:
    """`read` of page `index` of `data` as prepared above; raises what `read` last raised."""
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    page = PdfReader(io.BytesIO(data), strict=False).pages[index]
    _drop_broken_fonts(page)
    prefix_tried = False
    for _ in range(MAX_CUTS):
        try:
            return read(page)
        except PdfReadError as exc:
            if _cut_bad_line(page, str(exc)):
                continue
            if prefix_tried or not _keep_parsable_start(page):
                raise
            prefix_tried = True
    return read(page)


def _content(page: Any) -> bytes | None:
    contents = resolved(page.get("/Contents"))
    if contents is None:
        return None
    streams = contents if isinstance(contents, list) else [contents]
    return b"\n".join(resolved(stream).get_data() for stream in streams)


def _set_content(page: Any, data: bytes) -> None:
    from pypdf.generic import DecodedStreamObject, NameObject

    stream = DecodedStreamObject()
    stream.set_data(data)
    page[NameObject("/Contents")] = stream


def _cut_bad_line(page: Any, error: str) -> bool:
    """Leave out the content line the parser stopped at; False when the error names no place."""
    found = _AT_OFFSET.search(error)
    data = _content(page) if found else None
    if found is None or data is None or int(found[1]) >= len(data):
        return False
    at = int(found[1])
    start, end = data.rfind(b"\n", 0, at) + 1, data.find(b"\n", at)
    _set_content(page, data[:start] + (data[end + 1 :] if end >= 0 else b""))
    return True


def _keep_parsable_start(page: Any) -> bool:
    """Keep the longest run of content lines from the start that parses (found by halving)."""
    from pypdf.generic import ContentStream, DecodedStreamObject

    data = _content(page)
    if not data:
        return False
    lines = data.split(b"\n")

    def parses(count: int) -> bool:
        stream = DecodedStreamObject()
        stream.set_data(b"\n".join(lines[:count]))
        try:
            ContentStream(stream, None).operations  # noqa: B018  (parsing it is the test)
        except Exception:
            return False
        return True

    low, high = 0, len(lines)  # lines[:low] parse, lines[:high] do not
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if parses(middle) else (low, middle)
    if low == 0:
        return False
    _set_content(page, b"\n".join(lines[:low]))
    return True


def _drop_broken_fonts(page: Any) -> None:
    resources = resolved(page.get("/Resources"))
    fonts = resolved(resources.get("/Font")) if isinstance(resources, dict) else None
    if not isinstance(fonts, dict):
        return
    for name in list(fonts):
        try:
            font = resolved(fonts[name])
            for part in _FONT_PARTS:
                try:
                    _touch(font.get(part))
                except Exception:
                    del font[part]
        except Exception:
            del fonts[name]


def _touch(value: Any) -> None:
    """Reads `value` through, as extraction will: a broken object raises here."""
    value = resolved(value)
    if hasattr(value, "get_data"):
        value.get_data()
    if isinstance(value, dict):
        for item in list(value.values()):
            if not isinstance(item, dict) or "/Type" not in item:
                _touch(item)
    elif isinstance(value, list):
        for item in value:
            resolved(item)
