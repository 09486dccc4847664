"""A page pypdf failed on, read again the way pdfium reads a damaged page.

pypdf gives up a page at the first object or token it cannot parse, and a failed object
stays marked "being read" in its reader, so every later page sharing it fails too ("loop
with self reference"); a font the file lost it reads as U+FFFD. pdfium skips what it cannot
read and draws a lost font as a standard one. `read_salvaged` takes the page from a fresh
reader, leaves out the font entries that do not parse (a damaged width table costs that
font's spacing, not the page), puts Helvetica in the place of a font that is lost or does
not parse at all, and, while the content stream does not parse, leaves
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
_SELECTED_FONT = re.compile(rb"/([^\s/\[\]<>(){}%#]+)\s+[-+\d.]+\s+Tf(?![^\s/\[<(%])")
_PIECE_END = re.compile(rb"(?<=\n)|(?<=\]TJ)|(?<=\)Tj)")
_FONT_PARTS = ("/Widths", "/Encoding", "/ToUnicode", "/FontDescriptor", "/DescendantFonts", "/FirstChar", "/LastChar")


def read_salvaged(data: bytes, index: int, read: Callable[[Any], T]) -> T:
    """`read` of page `index` of `data` as prepared above; raises what `read` last raised."""
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    page = PdfReader(io.BytesIO(data), strict=False).pages[index]
    _drop_broken_fonts(page)
    _stand_in_for_lost_fonts(page)
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
    streams = [resolved(stream) for stream in (contents if isinstance(contents, list) else [contents])]
    return b"\n".join(stream.get_data() for stream in streams if hasattr(stream, "get_data"))


def _set_content(page: Any, data: bytes) -> None:
    from pypdf.generic import DecodedStreamObject, NameObject

    stream = DecodedStreamObject()
    stream.set_data(data)
    page[NameObject("/Contents")] = stream


def _pieces(data: bytes) -> list[bytes]:
    """The content split after each line end and each text-showing operator: a producer that
    writes a whole text block on one line loses one piece of it, not the block."""
    return [piece for piece in _PIECE_END.split(data) if piece]


def _cut_bad_line(page: Any, error: str) -> bool:
    """Leave out the piece of content the parser stopped in; False when the error names no place."""
    found = _AT_OFFSET.search(error)
    data = _content(page) if found else None
    if found is None or data is None or int(found[1]) >= len(data):
        return False
    at, start, kept = int(found[1]), 0, []
    for piece in _pieces(data):
        if not start <= at < start + len(piece):
            kept.append(piece)
        start += len(piece)
    _set_content(page, b"".join(kept))
    return True


def _keep_parsable_start(page: Any) -> bool:
    """Keep the longest run of content pieces from the start that parses (found by halving):
    a stream cut short, or a string never closed, keeps what was drawn before."""
    from pypdf.generic import ContentStream, DecodedStreamObject

    data = _content(page)
    if not data:
        return False
    pieces = _pieces(data)

    def parses(count: int) -> bool:
        stream = DecodedStreamObject()
        stream.set_data(b"".join(pieces[:count]))
        try:
            ContentStream(stream, None).operations  # noqa: B018  (parsing it is the test)
        except Exception:
            return False
        return True

    low, high = 0, len(pieces)  # pieces[:low] parse, pieces[:high] do not
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if parses(middle) else (low, middle)
    if low == 0:
        return False
    _set_content(page, b"".join(pieces[:low]))
    return True


def _drop_broken_fonts(page: Any) -> None:
    """Each font of the page that pypdf cannot read without the one part of it that is broken,
    or, when no one part is to blame, its name and encoding only, or else a stand-in."""
    resources = resolved(page.get("/Resources"))
    fonts = resolved(resources.get("/Font")) if isinstance(resources, dict) else None
    if not isinstance(fonts, dict):
        return
    for name in list(fonts):
        try:
            font = resolved(fonts[name])
        except Exception:
            font = None
        if isinstance(font, dict) and _reads(font):
            continue
        fonts[name] = _mended(font) if isinstance(font, dict) else _stand_in()


def _mended(font: Any) -> Any:
    from pypdf.generic import DictionaryObject

    present = [part for part in _FONT_PARTS if part in font]
    for left_out in [[part] for part in present] + [present]:
        candidate = DictionaryObject({key: value for key, value in font.items() if key not in left_out})
        if _reads(candidate):
            return candidate
    return _stand_in()


def _reads(font: Any) -> bool:
    """Whether pypdf extracts text in `font`: every code drawn once, on a page of its own."""
    from pypdf import PageObject
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    page = PageObject.create_blank_page(width=100, height=100)
    contents = DecodedStreamObject()
    contents.set_data(b"BT /F 10 Tf 0 0 Td <" + bytes(range(256)).hex().encode() + b"> Tj ET")
    page[NameObject("/Contents")] = contents
    fonts = DictionaryObject({NameObject("/F"): font})
    page[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): fonts})
    try:
        page.extract_text()
    except Exception:
        return False
    return True


def _stand_in() -> Any:
    """Helvetica in its standard encoding: what pdfium draws a font with when the file lost it.
    A TeX font's codes are ASCII for letters, digits and most punctuation, so its words survive."""
    from pypdf.generic import DictionaryObject, NameObject

    return DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Font"),
            NameObject("/Subtype"): NameObject("/Type1"),
            NameObject("/BaseFont"): NameObject("/Helvetica"),
        }
    )


def lost_fonts(page: Any) -> bool:
    """Whether the page's contents select a font its resources do not hold (a file cut short)."""
    try:
        return bool(_lost_fonts(page))
    except Exception:  # contents that cannot be read: salvage has its own ways with them
        return True


def _lost_fonts(page: Any) -> set[str]:
    data = _content(page)
    used = {match.decode("latin-1") for match in _SELECTED_FONT.findall(data or b"")}
    resources = resolved(page.get("/Resources"))
    fonts = resolved(resources.get("/Font")) if isinstance(resources, dict) else None
    if not isinstance(fonts, dict):
        return used
    return {name for name in used if not isinstance(resolved(fonts.get("/" + name)), dict)}


def _stand_in_for_lost_fonts(page: Any) -> None:
    """A stand-in for each font the page's contents select that its resources do not hold
    (the font, its resources, or the page's dictionary were lost: see repair)."""
    from pypdf.generic import DictionaryObject, NameObject

    try:
        lost = _lost_fonts(page)
    except Exception:  # contents that cannot be read: the cuts below deal with them
        return
    if not lost:
        return
    resources = resolved(page.get("/Resources"))
    if not isinstance(resources, dict):
        resources = DictionaryObject()
        page[NameObject("/Resources")] = resources
    fonts = resolved(resources.get("/Font"))
    if not isinstance(fonts, dict):
        fonts = DictionaryObject()
        resources[NameObject("/Font")] = fonts
    for name in lost:
        fonts[NameObject("/" + name)] = _stand_in()
