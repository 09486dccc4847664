"""A page pypdf failed on, read again the way pdfium reads a damaged page.

pypdf gives up a page at the first object or token it cannot parse, and a failed object
stays marked "being read" in its reader, so every later page sharing it fails too ("loop
with self reference"); a font the file lost it reads as U+FFFD. pdfium skips what it cannot
read and draws a lost font as a standard one. `Salvage` takes the page from a fresh
reader, leaves out the font parts that pypdf cannot read (a damaged width table costs that
font's spacing, not the page), puts Helvetica in the place of a font that is lost or cannot
be read at all, leaves out an image or form whose object cannot be read, and, while reading
the page fails, leaves out pieces of its content (a line, or one text-showing operator of a
long line): each piece the parser stops at, one parse each (at most MAX_PARSE_CUTS, MAX_PARSE_BYTES in all), or,
where it names no place (a string never closed, a stream cut short), all but the longest
start that parses; when the content parses but reading it fails, the piece where reading
starts to fail, found by halving (at most MAX_SEARCHES times, about log2(pieces) reads of
the page each); a content stream over MAX_CUT_CONTENT is not cut. Only the reader's
in-memory objects change; the file's bytes never do. The deadline is checked inside every
read.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Callable
from typing import Any, TypeVar

from ...errors import ExtractionError
from .work import resolved

logger = logging.getLogger(__name__)
T = TypeVar("T")
MAX_CUTS = 16  # reads of the page
MAX_TREE_NODES = 100_000
MAX_SEARCHES = 4  # each one reads the page about log2(pieces) times
MAX_PARSE_CUTS = 256  # each one a parse of the content, a few ms
MAX_PARSE_BYTES = 4 * 2**20  # content parsed or read while cutting one page: seconds at most
MAX_CUT_CONTENT = 2**20  # a page's text is a few hundred KB; a larger stream is not cut
_AT_OFFSET = re.compile(r"Invalid Elementary Object starting with .* @(\d+):")
_SELECTED_FONT = re.compile(rb"/([^\s/\[\]<>(){}%#]+)\s+[-+\d.]+\s+Tf(?![^\s/\[<(%])")
_PIECE_END = re.compile(rb"(?<=\n)|(?<=[\s)\]>]TJ)|(?<=[\s)\]>]Tj)")
_SIMPLE_FONTS = ("/Type1", "/MMType1", "/TrueType")
_FONT_PARTS = ("/Widths", "/Encoding", "/ToUnicode", "/FontDescriptor", "/DescendantFonts", "/FirstChar", "/LastChar")


class Salvage:
    """Reads the pages pypdf failed on in one file. Its reader is fresh (the failed objects of
    the first are poisoned) and serves the next page too, until a page fails in it as well:
    a fresh reader per page cost seconds on a large file with many damaged pages."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._reader: Any = None

    def read(self, index: int, read: Callable[[Any], T]) -> T:
        """`read` of page `index` as prepared above; raises what `read` last raised
        (at once when that is an ExtractionError: the deadline passed)."""
        from pypdf import PdfReader

        if self._reader is None:
            self._reader = PdfReader(io.BytesIO(self._data), strict=False)
            mend_page_tree(self._reader)  # as the first reader was: the same index, the same page
        try:
            return _read_salvaged(self._reader.pages[index], read)
        except Exception:
            self._reader = None
            raise


def _read_salvaged(page: Any, read: Callable[[Any], T]) -> T:
    _drop_broken_fonts(page)
    _drop_broken_xobjects(page)
    _stand_in_for_lost_fonts(page)
    searches, parses = 0, _Parses()
    for _ in range(MAX_CUTS):
        try:
            return read(page)
        except ExtractionError:
            raise
        except Exception:  # pypdf raises many types on a damaged page
            if _cut_until_parses(page, parses):
                continue
            searches += 1
            if searches > MAX_SEARCHES or not _cut_failing_piece(page, read, parses):
                raise
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


class _Spent(Exception):
    """The page's parsing budget is spent: cutting stops where it is."""


class _Parses:
    """Parses and reads of one page's content while cutting it, MAX_PARSE_BYTES in all (a
    garbled page of a megabyte costs a second a parse)."""

    def __init__(self) -> None:
        self.left = MAX_PARSE_BYTES

    def spend(self, size: int) -> None:
        if size > self.left:
            raise _Spent
        self.left -= size

    def error(self, data: bytes) -> str | None:
        """Why the content does not parse (None: it does)."""
        from pypdf.generic import ContentStream, DecodedStreamObject

        self.spend(len(data))
        stream = DecodedStreamObject()
        stream.set_data(data)
        try:
            ContentStream(stream, None).operations  # noqa: B018  (parsing it is the test)
        except Exception as exc:
            return str(exc) or type(exc).__name__
        return None


def _cut_until_parses(page: Any, parses: _Parses) -> bool:
    """Leave out the pieces the parser stops at, one parse each (a garbled stretch holds
    dozens), or keep the longest start that parses; False when nothing was left out."""
    data = _content(page)
    cut = False
    try:
        error = parses.error(data) if data and len(data) <= MAX_CUT_CONTENT else None
        for _ in range(MAX_PARSE_CUTS):
            if error is None or not _cut_bad_line(page, error):
                break
            cut, error = True, parses.error(_content(page) or b"")
    except _Spent:
        return cut
    return (error is not None and _keep_parsable_start(page, parses)) or cut


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


def _keep_parsable_start(page: Any, parses: _Parses) -> bool:
    """Keep the longest run of content pieces from the start that parses: a stream cut short
    (tried first: one parse), or a string never closed (found by halving), keeps what was
    drawn before."""
    pieces = _pieces(_content(page) or b"")

    def parse(count: int) -> bool:
        return parses.error(b"".join(pieces[:count])) is None

    low, high = 0, len(pieces)  # pieces[:low] parse, pieces[:high] do not
    try:
        if len(pieces) > 1 and parse(len(pieces) - 1):
            low = len(pieces) - 1
        while high - low > 1:
            middle = (low + high) // 2
            low, high = (middle, high) if parse(middle) else (low, middle)
    except _Spent:
        pass  # keep the longest start found to parse so far
    if low == 0:
        return False
    _set_content(page, b"".join(pieces[:low]))
    return True


def _cut_failing_piece(page: Any, read: Callable[[Any], Any], parses: _Parses) -> bool:
    """Leave out the piece of content at which reading the page starts to fail (an operator
    that parses but that the reader cannot apply: a name where a number belongs), found by
    halving on the start of the content that is read."""
    data = _content(page) or b""
    pieces = _pieces(data) if len(data) <= MAX_CUT_CONTENT else []

    def reads(count: int) -> bool:
        parses.spend(sum(map(len, pieces[:count])))
        _set_content(page, b"".join(pieces[:count]))
        try:
            read(page)
        except ExtractionError:
            raise
        except Exception:
            return False
        return True

    low, high = 0, len(pieces)  # pieces[:low] are read, pieces[:high] are not
    try:
        if not pieces or not reads(0):
            return False
        while high - low > 1:
            middle = (low + high) // 2
            low, high = (middle, high) if reads(middle) else (low, middle)
    except _Spent:
        _set_content(page, data)
        return False
    _set_content(page, b"".join(pieces[:low] + pieces[high:]))
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


def _drop_broken_xobjects(page: Any) -> None:
    """Leave out each image or form whose object cannot be read (its stream's end lost): pypdf
    would fail the page where it is drawn, and on every later page, as "a loop"."""
    resources = resolved(page.get("/Resources"))
    try:
        xobjects = resolved(resources.get("/XObject")) if isinstance(resources, dict) else None
    except Exception:
        del resources["/XObject"]
        return
    if not isinstance(xobjects, dict):
        return
    for name in list(xobjects):
        try:
            xobject = resolved(xobjects[name])
            if xobject.get("/Subtype") == "/Form":
                xobject.get_data()
        except Exception:
            del xobjects[name]


def _mended(font: Any) -> Any:
    from pypdf.generic import DictionaryObject

    present = [part for part in _FONT_PARTS if part in font]
    for left_out in [[part] for part in present] + [present]:
        candidate = DictionaryObject({key: value for key, value in font.items() if key not in left_out})
        if _reads(candidate):
            return candidate
    return _stand_in()


def _reads(font: Any) -> bool:
    """Whether pypdf extracts text in `font`: every code drawn once, on a page of its own,
    without an error, and, for a font of one-byte codes, the printable ASCII codes mostly as
    characters (a damaged encoding gives U+FFFD; none of 169 sound fonts of 10 papers did)."""
    try:
        _drawn(font, bytes(range(256)))
        if font.get("/Subtype") not in _SIMPLE_FONTS:
            return True
        text = _drawn(font, bytes(range(32, 127)))
    except Exception:
        return False
    return text.count("\ufffd") * 2 <= len(text) - text.count(" ")


def _drawn(font: Any, codes: bytes) -> str:
    from pypdf import PageObject
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    page = PageObject.create_blank_page(width=100, height=100)
    contents = DecodedStreamObject()
    contents.set_data(b"BT /F 10 Tf 0 0 Td <" + codes.hex().encode() + b"> Tj ET")
    page[NameObject("/Contents")] = contents
    fonts = DictionaryObject({NameObject("/F"): font})
    page[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): fonts})
    return str(page.extract_text())


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


def mend_page_tree(reader: Any) -> None:
    """Give each node of the page tree whose /Type a damaged byte changed (`/Pate`) the type
    its keys show, as pdfium does, when the tree holds fewer pages than its root declares:
    pypdf skips such a node, and every later page moves up one place. At most MAX_TREE_NODES."""
    from pypdf.generic import NameObject

    try:
        root = resolved(resolved(reader.trailer["/Root"])["/Pages"])
        if len(reader.pages) >= int(root.get("/Count", 0)):
            return
        todo, seen = [root], 0
        while todo and seen < MAX_TREE_NODES:
            node, seen = todo.pop(), seen + 1
            kind = "/Pages" if "/Kids" in node else "/Page"
            if node is not root and node.get("/Type") not in ("/Page", "/Pages"):
                node[NameObject("/Type")] = NameObject(kind)
            if kind == "/Pages":
                todo += [kid for kid in map(resolved, resolved(node["/Kids"])) if isinstance(kid, dict)]
    except Exception as exc:  # a tree too broken to walk: read what pypdf found
        logger.info("the PDF's page tree cannot be mended: %s: %s", type(exc).__name__, exc)
        return
    reader.flattened_pages = None


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
