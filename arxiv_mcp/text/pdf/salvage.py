"""A page pypdf failed on, read again the way pdfium reads a damaged page.

pypdf gives up a page at the first object or token it cannot parse, and a failed object
stays marked "being read" in its reader, so every later page sharing it fails too ("loop
with self reference"); a font the file lost it reads as U+FFFD. pdfium skips what it cannot
read and draws a lost font as a standard one. `Salvage` takes the page from a fresh
reader, leaves out the font parts that pypdf cannot read (a damaged width table costs that
font's spacing, not the page), puts Helvetica in the place of a font that is lost or cannot
be read at all, leaves out an image or form whose object cannot be read (or whose font
decodes nothing), and, while reading the page fails, leaves out what the parser stops at: the
token first, as pdfium skips it (inside an array whose `]` was garbled, every operator up to
its first `]`), then the piece of content it is in (a line, or one text-showing operator of a
long line), parsing again only the rest after each cut (at most MAX_PARSE_CUTS cuts, a parse
costing the bytes up to where it stops, MAX_PARSE_BYTES in all), or, where the error names no
place (a string never closed, a stream cut short), all but the longest start that parses;
when the content parses but reading it fails, the piece where reading starts to fail, found by
halving (at most MAX_SEARCHES times, about log2(pieces) reads of the page each); a content
stream over MAX_CUT_CONTENT is not cut. A page read blank has the forms it draws cut the same
way (pypdf drops a form that does not parse without an error), and so are the forms of a page
read short (under SHORT_PAGE characters) whose forms hold more text operators than it has
characters (a form damaged past its start: pdfium reads its start). A content stream whose
dictionary lost its `stream` is read again from the object's bytes; the page tree is mended
first (pagetree). A page whose object was lost raises LostPage. Only the reader's in-memory
objects change; the file's bytes never do. The deadline is checked inside every read.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator
from typing import Any

from ...errors import ExtractionError
from .lines import PageText
from .pagetree import is_lost_page, mend_page_tree, raw_object
from .pypdf_compat import opened_reader
from .repair import STREAM_KEYWORD, decoded
from .work import resolved

logger = logging.getLogger(__name__)
MAX_CUTS = 16  # reads of the page
MAX_SEARCHES = 4  # each one reads the page about log2(pieces) times
MAX_PARSE_CUTS = 256  # each one a parse of the content, a few ms
MAX_PARSE_BYTES = 4 * 2**20  # content parsed or read while cutting one page: seconds at most
MAX_CUT_ROUNDS = 4  # each one parses the whole content once, then the rest after each cut
MAX_TOKEN_CUTS = 8  # tokens left out of one piece before the whole piece is
MAX_CUT_CONTENT = 2**20  # a page's text is a few hundred KB; a larger stream is not cut
MAX_PIECE = 4096  # bytes of one piece of content (a line, or one text-showing operator) cut at once
MAX_LEXEMES = 2**20  # strings and runs between them looked at for one that is never closed
SHORT_PAGE = 200  # characters (not white space) under which a page's forms are looked at
_AT_OFFSET = re.compile(r"Invalid Elementary Object starting with .* @(\d+):")
_SELECTED_FONT = re.compile(rb"/([^\s/\[\]<>(){}%#]+)\s+[-+\d.]+\s+Tf(?![^\s/\[<(%])")
_TOO_LONG = re.compile(r"Read stream length of \d+ exceeds maximum allowed length")
# a number or operator longer than pypdf reads (64 and 128 bytes): garbled content
_LONG_TOKEN = re.compile(rb"(?<![^\s\[\]()])[+\-.\d]{48,}|(?<![^\s\]()>])[A-Za-z'\"][^\s()<>\[\]{}/%]{112,}")
# the parts of an array: a string, a hex string, a bracket, a token, white space
_ARRAY_PART = re.compile(rb"\((?:\\.|[^\\)])*\)|<[^<>]*>|[\[\]]|/?[^\s()<>\[\]{}/%]+|\s+", re.DOTALL)
_TOKEN = re.compile(rb"[^\s()<>\[\]{}/%]*")
# outside a string, a run of anything but a string or a comment; a string, nested twice at most; a comment
_LEXEME = re.compile(rb"[^(%]+|\((?:[^\\()]|\\.|\((?:[^\\()]|\\.|\((?:[^\\()]|\\.)*\))*\))*\)|%[^\r\n]*", re.DOTALL)
_PIECE_END = re.compile(rb"(?<=\n)|(?<=[\s)\]>]TJ)|(?<=[\s)\]>]Tj)")
_ENCODING_KEYS = ("/Filter", "/DecodeParms", "/Length")
_SIMPLE_FONTS = ("/Type1", "/MMType1", "/TrueType")
_FONT_PARTS = ("/Widths", "/Encoding", "/ToUnicode", "/FontDescriptor", "/DescendantFonts", "/FirstChar", "/LastChar")


class LostPage(Exception):
    """The page's object was lost: there is nothing to read."""


class Salvage:
    """Reads the pages pypdf failed on in one file. Its reader is fresh (the failed objects of
    the first are poisoned) and serves the next page too, until a page fails in it as well:
    a fresh reader per page cost seconds on a large file with many damaged pages."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._reader: Any = None

    def read(self, index: int, read: Callable[[Any], PageText | None]) -> PageText | None:
        """`read` of page `index` as prepared above; raises what `read` last raised
        (at once when that is an ExtractionError: the deadline passed)."""

        if self._reader is None:
            self._reader = opened_reader(self._data)
            mend_page_tree(self._data, self._reader)  # as the first reader was: the same index, the same page
        try:
            page = self._reader.pages[index]
            if is_lost_page(page):
                raise LostPage("its object in the file was lost")
            _reread_contents(self._data, self._reader, page)
            return _read_salvaged(page, read)
        except LostPage:
            raise  # the reader stays: nothing in it failed
        except Exception:
            self._reader = None
            raise


def _reread_contents(data: bytes, reader: Any, page: Any) -> None:
    """The page's contents read again from the file's bytes when pypdf read its object as a
    dictionary without a stream (a damaged byte in the stream's dictionary, say an opened
    array, hid the `stream` keyword; pdfium reads on), inflated as far as they go."""
    contents = resolved(page.get("/Contents"))
    if not isinstance(contents, dict) or hasattr(contents, "get_data"):
        return
    raw = raw_object(data, reader, contents, MAX_CUT_CONTENT)
    start = STREAM_KEYWORD.search(raw)
    if start is not None:
        end = raw.find(b"endstream", start.end())
        payload = raw[start.end() : end if end >= 0 else len(raw)]
        _set_content(page, decoded(raw[: start.start()], payload, MAX_CUT_CONTENT))


def _read_salvaged(page: Any, read: Callable[[Any], PageText | None]) -> PageText | None:
    _drop_broken_fonts(page)
    _drop_broken_xobjects(page)
    _stand_in_for_lost_fonts(page)
    searches, parses, forms_cut = 0, _Parses(), False
    for _ in range(MAX_CUTS):
        try:
            text = read(page)
        except ExtractionError:
            raise
        except Exception:  # pypdf raises many types on a damaged page
            if _cut_until_parses(page, parses):
                continue
            searches += 1
            if searches > MAX_SEARCHES or not _cut_failing_piece(page, read, parses):
                raise
            continue
        if forms_cut or text is None or not _may_hold_more(page, text.text):
            return text
        forms_cut = True  # read blank or short: the text may be in a form pypdf left out (forms parsed only now)
        if not _cut_broken_forms(page, parses):
            return text
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
    garbled page of a megabyte costs a second a parse): a parse counts the bytes up to
    where it stopped, and starts only while some budget is left."""

    def __init__(self) -> None:
        self.left = MAX_PARSE_BYTES

    def spend(self, size: int) -> None:
        if size > self.left or self.left <= 0:
            raise _Spent
        self.left -= size

    def error(self, data: bytes) -> str | None:
        """Why the content does not parse (None: it does)."""
        from pypdf.generic import ContentStream, DecodedStreamObject

        self.spend(0)
        stream = DecodedStreamObject()
        stream.set_data(data)
        try:
            ContentStream(stream, None).operations  # noqa: B018  (parsing it is the test)
        except Exception as exc:
            error = str(exc) or type(exc).__name__
            stopped = _stop(data, error)  # the parser read as far as that, not the whole
            self.left -= min(len(data), stopped + 1024) if stopped is not None else len(data)
            return error
        self.left -= len(data)
        return None


def _cut_until_parses(page: Any, parses: _Parses) -> bool:
    """Leave out of the page's content what the parser stops at (see _parsable); False when
    nothing was left out."""
    data = _content(page)
    cut = _parsable(data, parses) if data and len(data) <= MAX_CUT_CONTENT else None
    if cut is not None:
        _set_content(page, cut)
    return cut is not None


def _parsable(data: bytes, parses: _Parses) -> bytes | None:
    """`data` with what the parser stops at left out, or else its longest start that parses;
    None when nothing was left out. Cutting goes in rounds (at most MAX_CUT_ROUNDS, see
    _cut_round), each begun by parsing the whole content: a piece parsed from its own start
    may have begun inside an array that an earlier piece left open."""
    content, error, cut = data, None, False
    for _ in range(MAX_CUT_ROUNDS):
        content, error, round_cut = _cut_round(content, parses)
        cut = cut or round_cut
        if not round_cut or parses.left <= 0:
            break
    start = _parsable_start(content, parses) if error is not None else None
    return start if start is not None else content if cut else None


def _cut_round(data: bytes, parses: _Parses) -> tuple[bytes, str | None, bool]:
    """The content with what the parser stops at left out, the last error (None: it parsed),
    and whether anything was left out. The token it stops at goes first (a garbled stretch,
    where pdfium skips a token, keeps the rest of its line: MAX_TOKEN_CUTS a piece), then the
    whole piece. What precedes the piece has parsed: after a cut, only the rest from the piece
    on is parsed again, so a long garbled stream costs about one parse, not one per cut."""
    kept: list[bytes] = []  # the content before `rest`, without what was left out
    rest, error = data, None
    tokens, after = 0, b""  # tokens left out of the first piece of `rest`, and what follows that piece
    try:
        for _ in range(MAX_PARSE_CUTS):
            error = parses.error(rest)
            place = None if error is None else _bad_place(rest, error)
            if place is None or (place[0] == 0 and tokens >= MAX_TOKEN_CUTS):
                if error is None or not tokens:
                    break
                rest, tokens, error = after, 0, None  # cutting its tokens did not mend the piece: all of it goes
                continue
            start, at, end = place
            if start or not tokens:  # the parser stopped in a piece not cut yet
                kept.append(rest[:start])
                rest, at, end = rest[start:], at - start, end - start
                after, tokens = rest[end:], 0
            rest, tokens, error = rest[:at] + _without_token(rest, at), tokens + 1, None
    except _Spent:
        pass  # keep the cuts made so far
    return b"".join(kept) + rest, error, bool(kept)


def _without_token(data: bytes, at: int) -> bytes:
    """`data` from `at` on without the token there. An operator there stands inside an array
    (the parser reads operators anywhere else) whose `]` was garbled: pdfium leaves out every
    operator and `[` up to the array's first `]`, which closes it, and so is it done here."""
    if not data[at : at + 1].isalpha() and data[at : at + 1] not in (b"'", b'"'):
        return data[_token_end(data, at) :]
    kept: list[bytes] = []
    for part in _ARRAY_PART.finditer(data, at):
        if part[0] == b"]":
            return b"".join(kept) + data[part.start() :]
        if part[0] != b"[" and not part[0][:1].isalpha() and part[0][:1] not in (b"'", b'"'):
            kept.append(part[0])
    return b"".join(kept)


def _token_end(data: bytes, at: int) -> int:
    """Where the token starting at `at` ends (a stray delimiter is a token of its own)."""
    found = _TOKEN.match(data, at)
    return max(at + 1, found.end() if found else at)


def _bad_place(data: bytes, error: str) -> tuple[int, int, int] | None:
    """Where the piece the parser stopped in starts, where it stopped, and where the piece
    ends; None when the error names no place."""
    at = _stop(data, error)
    return None if at is None or at >= len(data) else _piece_around(data, at)


def _stop(data: bytes, error: str) -> int | None:
    """Where the parser stopped with `error`: the place it names, or else the first token too
    long to read (None: neither)."""
    found = _AT_OFFSET.search(error)
    if found is not None:
        return int(found[1])
    long = _LONG_TOKEN.search(data) if _TOO_LONG.search(error) else None
    return None if long is None else long.start()


def _unclosed_string(data: bytes) -> int | None:
    """Where the first string that is never closed opens (None: none found): the parser
    reads it to the end of the content and names no place (a garbled stretch opens one)."""
    at = 0
    for _ in range(MAX_LEXEMES):
        found = _LEXEME.match(data, at)
        if found is None:
            return at if data[at : at + 1] == b"(" else None
        at = found.end()
        if at >= len(data):
            return None
    return None


def _piece_around(data: bytes, at: int) -> tuple[int, int, int]:
    """Where the piece holding `at` starts (see _pieces), `at`, and where it ends: looked for
    near `at` (MAX_PIECE bytes either way at most, where a piece is cut short), so a cut costs
    the piece, not the whole content (a garbled form of 500 KB is cut hundreds of times)."""
    low = max(data.rfind(b"\n", max(0, at - MAX_PIECE), at) + 1, at - MAX_PIECE, 0)
    start = low
    for boundary in _PIECE_END.finditer(data, low, at):
        start = boundary.start()
    end = _PIECE_END.search(data, at + 1, min(len(data), at + 1 + MAX_PIECE))
    return start, at, end.start() if end else min(len(data), at + 1 + MAX_PIECE)


def _parsable_start(data: bytes, parses: _Parses) -> bytes | None:
    """The longest run of content pieces from the start that parses (None: not one): a stream
    cut short (tried first: one parse), or a string never closed (the pieces before the first
    string the lexer finds unclosed tried next: one parse; else found by halving), keeps what
    was drawn before."""
    pieces = _pieces(data)

    def parse(count: int) -> bool:
        return parses.error(b"".join(pieces[:count])) is None

    low, high = 0, len(pieces)  # pieces[:low] parse, pieces[:high] do not
    try:
        if len(pieces) > 1 and parse(len(pieces) - 1):
            low = len(pieces) - 1
        unclosed = _piece_index(pieces, _unclosed_string(data)) if high - low > 1 else None
        if unclosed and parse(unclosed):
            low, high = unclosed, unclosed + 1  # what follows the string is inside it, to pypdf
        while high - low > 1:
            middle = (low + high) // 2
            low, high = (middle, high) if parse(middle) else (low, middle)
    except _Spent:
        pass  # keep the longest start found to parse so far
    return b"".join(pieces[:low]) if low else None


def _piece_index(pieces: list[bytes], at: int | None) -> int | None:
    """The index of the piece holding offset `at` (None: `at` is None or beyond them)."""
    start = 0
    for index, piece in enumerate(pieces if at is not None else []):
        start += len(piece)
        if at is not None and at < start:
            return index
    return None


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
    or, when no one part is to blame, its name and encoding only, or else a stand-in; and each
    form the page draws left out when no font of it decodes any code (two-byte fonts
    whose ToUnicode maps were lost: a stand-in cannot guess their glyphs, and their U+FFFD would
    outweigh the page's own text)."""
    _mend_fonts(resolved(page.get("/Resources")))
    try:
        forms = list(_forms(page))
    except Exception:  # a form that cannot be read: left out by _drop_broken_xobjects
        return
    for xobjects, name, form, _ in forms:
        resources = resolved(form.get("/Resources"))
        fonts = resolved(resources.get("/Font")) if isinstance(resources, dict) else None
        if isinstance(fonts, dict) and fonts and all(_decodes_nothing(resolved(font)) for font in fonts.values()):
            del xobjects[name]


def _mend_fonts(resources: Any) -> None:
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


def _decodes_nothing(font: Any) -> bool:
    if not isinstance(font, dict):
        return False  # a font lost is stood in for (see _stand_in_for_lost_fonts)
    try:
        text = _drawn(font, bytes(range(256))).replace(" ", "").replace("\n", "")
    except Exception:
        return False  # a font pypdf cannot read at all is stood in for, not its form left out
    return bool(text) and set(text) == {"\ufffd"}


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


def _forms(page: Any) -> Iterator[tuple[Any, str, Any, bytes]]:
    """Each form XObject of the page small enough to cut (MAX_CUT_CONTENT): the dictionary
    naming it, its name, the form and its content."""
    resources = resolved(page.get("/Resources"))
    xobjects = resolved(resources.get("/XObject")) if isinstance(resources, dict) else None
    for name, xobject in list(xobjects.items()) if isinstance(xobjects, dict) else []:
        form = resolved(xobject)
        if isinstance(form, dict) and form.get("/Subtype") == "/Form" and hasattr(form, "get_data"):
            data = form.get_data()
            if len(data) <= MAX_CUT_CONTENT:
                yield xobjects, name, form, data


def _cut_broken_forms(page: Any, parses: _Parses) -> bool:
    """Cut each form the page draws whose content does not parse, as the page's own content is
    cut (pypdf leaves such a form out whole, without an error, where pdfium reads what it can:
    a page that includes another PDF's page draws all of its text in one form); False when
    none was cut."""
    from pypdf.generic import DecodedStreamObject, NameObject

    cut_any = False
    try:
        for xobjects, name, form, data in _forms(page):
            cut = _parsable(data, parses) if parses.error(data) is not None else None
            if cut is not None:
                stream = DecodedStreamObject()
                stream.update({key: value for key, value in form.items() if key not in _ENCODING_KEYS})
                stream.set_data(cut)
                xobjects[NameObject(name)] = stream
                cut_any = True
    except _Spent:
        pass
    return cut_any


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


def salvageable(page: Any, text: str) -> bool:
    """Whether salvage may find more text on a page pypdf read as `text`: a page whose object
    was lost (see pagetree), or a page read blank whose contents select a font its resources do
    not hold (a file cut short), whose contents object lost its stream, or a form of which does
    not parse (damaged), or a page read short (see _may_hold_more) a form of which does not parse.
    A healthy page costs a count of its characters; a short one with forms, a count of their
    text operators."""
    if len(text) - text.count(" ") - text.count("\n") >= SHORT_PAGE:
        return False
    try:
        if not text.strip():
            contents = resolved(page.get("/Contents"))
            return (
                is_lost_page(page)
                or (isinstance(contents, dict) and not hasattr(contents, "get_data"))
                or bool(_lost_fonts(page))
                or any(_Parses().error(data) for *_, data in _forms(page))
            )
        return _may_hold_more(page, text) and any(_Parses().error(data) for *_, data in _forms(page))
    except Exception:  # contents that cannot be read: salvage has its own ways with them
        return True


def _may_hold_more(page: Any, text: str) -> bool:
    """Whether the page, read as `text`, may hold text in a form pypdf left out: it was read
    blank, or short (under SHORT_PAGE characters) while the forms it draws hold more than twice
    as many text-showing operators as it has characters (each shows one character or more)."""
    size = len(text) - text.count(" ") - text.count("\n")
    if size == 0:
        return True
    if size >= SHORT_PAGE:
        return False
    shown = 0
    for *_, data in _forms(page):
        shown += data.count(b"Tj") + data.count(b"TJ")
        if shown > 2 * size:
            return True
    return False


def _lost_fonts(page: Any, data: bytes | None = None) -> set[str]:
    """The fonts the contents (the page's, or `data` of a form) select that its resources do not hold."""
    data = _content(page) if data is None else data
    used = {match.decode("latin-1") for match in _SELECTED_FONT.findall(data or b"")}
    resources = resolved(page.get("/Resources"))
    fonts = resolved(resources.get("/Font")) if isinstance(resources, dict) else None
    if not isinstance(fonts, dict):
        return used
    return {name for name in used if not isinstance(resolved(fonts.get("/" + name)), dict)}


def _stand_in_for_lost_fonts(page: Any) -> None:
    """A stand-in for each font the page's contents, or a form's it draws, select that its
    resources do not hold (the font, its resources, or the page's dictionary were lost: see
    repair)."""
    from pypdf.generic import DictionaryObject, NameObject

    try:
        drawers = [(page, _lost_fonts(page))] + [(form, _lost_fonts(form, data)) for _, _, form, data in _forms(page)]
    except Exception:  # contents that cannot be read: the cuts below deal with them
        return
    for drawer, lost in drawers:
        if not lost:
            continue
        resources = resolved(drawer.get("/Resources"))
        if not isinstance(resources, dict):
            resources = DictionaryObject()
            drawer[NameObject("/Resources")] = resources
        fonts = resolved(resources.get("/Font"))
        if not isinstance(fonts, dict):
            fonts = DictionaryObject()
            resources[NameObject("/Font")] = fonts
        for name in lost:
            fonts[NameObject("/" + name)] = _stand_in()
