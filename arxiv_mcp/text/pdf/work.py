"""The work a PDF page asks for, measured before pdfium (which cannot be interrupted) parses it.

A page's work is the bytes of drawing instructions a reader parses for it: its decoded
content streams, plus each form XObject's every time the page (or a form) draws it, with
bytes inside text objects (BT ... ET) counted TEXT_WEIGHT times: pdfium spends about four
times as long per byte of text operators as per byte of paths (a 4 MB text page takes it
~1 s, a 16 MB drawing about as long). A hostile file packs gigabytes of work into kilobytes
(a compression bomb, forms drawing forms ten times over). pdfium builds all of a page's
objects at once, inside FPDF_LoadPage, so it cannot measure a page for us before parsing it:
it gets only pages under PDFIUM_MAX_PAGE_WORK; a heavier page is left to pypdf, which
checks the deadline between operators and leaves out a page over MAX_PAGE_WORK.

Measuring must cost little next to pdfium's own reading. Three things keep it cheap: the
page tree is read through a pypdf reader that parses one object of an object stream at a
time (pypdf 7 parses every object of a stream it touches: fonts, widths, annotations);
forms of the common shapes are measured from the file's bytes; and a stream's text objects
are counted only when its upper bound (every byte a text byte) is over the limit.
"""

from __future__ import annotations

import logging
import re
import zlib
from typing import Any

from ...errors import ArxivMcpError
from .pypdf_compat import Offsets, measuring_reader, object_offsets

logger = logging.getLogger(__name__)

TEXT_WEIGHT = 4
PDFIUM_MAX_PAGE_WORK = 16 * 2**20
MAX_PAGE_WORK = 32 * 2**20
# A text object: BT ... ET as operators (after whitespace or a closing delimiter, before
# whitespace or an opening one; an unclosed BT runs to the end). Its body's bytes are summed
# by findall and len, without a Python step per object: a plot has thousands of labels. The
# check before "BT" is a lookbehind placed after the literal, so the scan jumps from "BT" to
# "BT" instead of trying a lookaround at every byte.
_WHITE = rb" \t\n\r\x0b\x0c"
_AFTER = rb"(?![^" + _WHITE + rb"/\[<(%])"
_TEXT_OBJECT = re.compile(
    rb"BT(?<![^" + _WHITE + rb"\]>)]BT)" + _AFTER + rb"(.*?)(?:(?<![^" + _WHITE + rb"\]>)])ET" + _AFTER + rb"|\Z)", re.S
)
_MAX_FORM_DEPTH = 32
_NAME_CHARS = rb"[^\s/\[\]<>(){}%]"
_DRAW_FORM = re.compile(rb"/(" + _NAME_CHARS + rb"+)\s*Do(?!" + _NAME_CHARS + rb")")
_WHITE_BYTES = frozenset(b" \t\n\r\x0b\x0c")  # \s of a bytes pattern
_NAME_BYTES = frozenset(range(256)) - _WHITE_BYTES - frozenset(b"/[]<>(){}%")  # _NAME_CHARS, byte by byte
_NAME_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")


class UnmeasurableFile(Exception):
    """pypdf cannot open the file to measure its pages."""


def heavy_pages(data: bytes, max_pages: int) -> frozenset[int]:
    """Indexes of the pages of `data` that ask for more work than pdfium may do.

    The limit is per page: one heavy drawing leaves only that page to pypdf. A page that
    cannot be measured counts as heavy; a file pypdf cannot open at all raises
    UnmeasurableFile, except an encrypted one pypdf cannot open (pdfium cannot either, and
    says so). A strict reader measures first (see _reader); what it refuses, a lenient one.
    The deadline is checked while the file is read (watch: every thousand seeks), and its
    error (any ArxivMcpError: the deadline, a cancelled call) goes through. Linear in the file's objects and the pages' content bytes
    (each form measured once per document).
    """
    try:
        reader, pages = _pages(data, strict=True)
    except ArxivMcpError:
        raise
    except Exception:
        try:
            reader, pages = _pages(data, strict=False)
        except ArxivMcpError:
            raise
        except Exception as exc:
            raise UnmeasurableFile(
                f"the PDF is corrupt, truncated or damaged: its pages cannot be measured ({type(exc).__name__}: {exc})"
            ) from exc
    if pages is None or len(pages) > max_pages:
        return frozenset()  # encrypted (pdfium says so), or refused by the page count
    heavy = set()
    forms: dict[object, int] = {}
    raw = RawForms(data, object_offsets(reader, data))
    lenient: list[Any] = []
    for index in range(len(pages)):
        try:
            try:
                work = page_work(pages[index], PDFIUM_MAX_PAGE_WORK, forms, raw)
            except ArxivMcpError:
                raise
            except Exception:
                if not reader.strict:
                    raise
                lenient = lenient or list(_pages(data, strict=False)[1] or ())
                work = page_work(lenient[index], PDFIUM_MAX_PAGE_WORK, {}, raw)
        except ArxivMcpError:
            raise
        except Exception as exc:
            logger.info("could not measure page %d of the PDF: %s: %s", index + 1, type(exc).__name__, exc)
            work = PDFIUM_MAX_PAGE_WORK + 1
        if work > PDFIUM_MAX_PAGE_WORK:
            heavy.add(index)
    return frozenset(heavy)


def _pages(data: bytes, strict: bool) -> tuple[Any, Any]:
    """A measuring reader and its pages (None: encrypted with a password)."""
    reader = _reader(data, strict)
    if reader.is_encrypted and not reader.decrypt(""):
        return reader, None
    pages = reader.pages
    len(pages)  # reads the page tree: a strict reader may refuse it
    return reader, pages


def _reader(data: bytes, strict: bool = True) -> Any:
    """A pypdf reader for measuring (see pypdf_compat.measuring_reader)."""
    # A lenient reader first reads the header of every object the xref names, to drop wrong
    # entries (a tenth of a second on a paper of 6,000 objects); a strict one trusts a sound
    # xref, and heavy_pages reads leniently what it refuses.
    return measuring_reader(data, strict)


def resolved(obj: object) -> Any:
    get_object = getattr(obj, "get_object", None)
    return get_object() if get_object is not None else obj


def text_object_bytes(data: bytes) -> int:
    """Bytes between BT and ET operators, in one linear pass (an unclosed BT runs to the end)."""
    return sum(map(len, _TEXT_OBJECT.findall(data)))


def stream_work(data: bytes, limit: int) -> int:
    """One stream's own work; its upper bound (all text) when that is within `limit`.

    The bound decides the same as the count wherever the count is needed (over the limit);
    counting text objects costs a pass over every byte of a text-heavy paper.
    """
    bound = TEXT_WEIGHT * len(data)
    return bound if bound <= limit else len(data) + (TEXT_WEIGHT - 1) * text_object_bytes(data)


def _may_draw(data: bytes) -> bool:
    """Whether the content may draw a form: holds "Do" as an operator (no name character
    after it) after a name's last character (white space between allowed), which every
    match of _DRAW_FORM does. Most pages draw no form, and a page of text holds "Do" in its
    strings ("(Do)", "(Does)"): such a page's resources are not parsed for the names it draws.

    "Do" is looked for by its first byte, which content seldom holds, at memchr's speed: a
    search for the pair itself tests every byte against its common "o", a millisecond on a
    paper. The white space before each "Do" is its own: the look back is linear in all.
    """
    end = len(data)
    at = data.find(b"D")
    while at >= 0:
        if data[at + 1 : at + 2] == b"o" and (at + 2 == end or data[at + 2] not in _NAME_BYTES):
            before = at - 1
            while before >= 0 and data[before] in _WHITE_BYTES:
                before -= 1
            if before >= 0 and data[before] in _NAME_BYTES:
                return True
        at = data.find(b"D", at + 1)
    return False


def _drawn_names(data: bytes) -> dict[bytes, int]:
    draws: dict[bytes, int] = {}
    if not _may_draw(data):  # then the pattern's scan of every byte finds nothing
        return draws
    for match in _DRAW_FORM.finditer(data):
        name = _NAME_ESCAPE.sub(lambda m: bytes([int(m[1], 16)]), match[1])
        draws[name] = draws.get(name, 0) + 1
    return draws


# Parsing each form's dictionary with pypdf costs about a millisecond, and a paper with
# thousands of small plot forms spent seconds there before pdfium ran. Stream objects are
# never inside object streams, so a form is plain bytes at the offset the file's table gives (pypdf_compat.object_offsets);
# a form of the common shapes (a /Length given or an integer object, FlateDecode or no
# filter, `endstream` right after its data, what it draws named in its own /Resources, given
# or a plain object, with a direct /XObject dictionary) is measured from those bytes, and any
# other shape, or anything unexpected, goes the pypdf way. Such a form's work does not
# depend on the resources it is drawn with.
_OBJECT_HEAD = re.compile(rb"\s*(\d+)\s+(\d+)\s+obj\s*<<")
_DICT_TOKEN = re.compile(rb"\((?:[^()\\]|\\.)*\)|<<|>>|<[0-9A-Fa-f\s]*>|[()<>%]|[^()<>%]+", re.S)
_STREAM_START = re.compile(rb"\s*stream(?:\r\n|\n)")
_STREAM_END = re.compile(rb"\s*endstream")
_LENGTH = re.compile(rb"/Length\s+(\d+)(?:\s+(\d+)\s+R)?(?=[\s/>])")
_INTEGER_OBJECT = re.compile(rb"\s*(\d+)\s+(\d+)\s+obj\s*(\d+)\s*endobj")
RESOURCES_REF = re.compile(rb"/Resources\s+(\d+)\s+(\d+)\s+R")
FLATE_ONLY = re.compile(rb"/Filter\s*(?:/FlateDecode|\[\s*/FlateDecode\s*\])(?![^\s/\]>])")
_IS_FORM = re.compile(rb"/Subtype\s*/Form(?![^\s/\]>])")
_XOBJECTS = re.compile(rb"/XObject\s*(?:<<|\d)")  # a key of resources (not /Type /XObject)
_XOBJECT_DICT = re.compile(rb"/XObject\s*<<((?:\s*/" + _NAME_CHARS + rb"+\s*\d+\s+\d+\s+R)*)\s*>>")
_XOBJECT_ENTRY = re.compile(rb"/(" + _NAME_CHARS + rb"+)\s*(\d+)\s+(\d+)\s+R")
_NOT_A_FORM = -1
# A dictionary of the usual shapes (nested two deep at most, no strings nor comments), as a
# pattern: its own keys and values are its bytes with the nested dictionaries taken out
# (possessive repeats: a failed match gives up at once instead of trying every split).
_PLAIN = rb"[^<>()%]*+"
_INNER_DICT = re.compile(rb"<<(?:[^<>()%]++|<<" + _PLAIN + rb">>)*+>>")
_NESTED_DICT = re.compile(rb"((?:[^<>()%]++|" + _INNER_DICT.pattern + rb")*+)>>")


class RawForms:
    """Forms of one document measured from its bytes; None from `work` means "ask pypdf"."""

    def __init__(self, data: bytes, offsets: Offsets, exact: bool = False) -> None:
        self._data, self._offsets, self._exact = data, offsets, exact
        self._done: dict[tuple[int, int], int | None] = {}

    def exactly(self) -> RawForms:
        """The same forms, with text objects counted rather than bounded."""
        return RawForms(self._data, self._offsets, exact=True)

    def work(self, idnum: int, generation: int, limit: int, depth: int = 0) -> int | None:
        key = (idnum, generation)
        if key not in self._done:
            self._done[key] = limit + 1  # a form met again while it is being measured draws itself
            self._done[key] = self._measure(key, limit, depth)
        return self._done[key]

    def content(self, idnum: int, generation: int, limit: int) -> bytes | None:
        """A content stream's bytes decoded from the file's (cut after `limit` + 1: enough to
        tell it is over); None when it is not of the common shape: pypdf then reads it."""
        found = self._stream((idnum, generation))
        return None if found is None else self._decoded(found[0], found[3], limit)

    def _stream(self, key: tuple[int, int]) -> tuple[bytes, int, int, int] | None:
        """The stream object's dictionary (its own keys and values), where the dictionary
        starts and ends, and where its data starts; None if it is not a plain stream there."""
        offset = self._offsets.get(key[1], {}).get(key[0])
        head = None if offset is None else _OBJECT_HEAD.match(self._data, offset)
        if head is None or (int(head[1]), int(head[2])) != key:
            return None
        top, end = self._top_level(head.end())
        start = None if end is None else _STREAM_START.match(self._data, end)
        if start is None or end is None:
            return None
        return top, head.end(), end, start.end()

    def _decoded(self, top: bytes, start: int, limit: int) -> bytes | None:
        """The stream's data, inflated (at most `limit` + 1 bytes) if FlateDecode is its filter."""
        length = self._length(top)
        flate = FLATE_ONLY.search(top)
        if length is None or (b"/Filter" in top and flate is None) or b"/DecodeParms" in top:
            return None
        raw = self._data[start : start + length]
        if not _STREAM_END.match(self._data, start + len(raw)):
            return None
        try:
            return zlib.decompressobj().decompress(raw, limit + 1) if flate else raw
        except zlib.error:
            return None

    def _measure(self, key: tuple[int, int], limit: int, depth: int) -> int | None:
        found = self._stream(key)
        if found is None:
            return None
        top, dictionary_start, end, start = found
        if not _IS_FORM.search(top):
            return _NOT_A_FORM
        body = self._decoded(top, start, limit)
        if body is None:
            return None
        total = stream_work(body, 0 if self._exact else limit)
        draws = _drawn_names(body)
        if draws:
            resources = RESOURCES_REF.search(top)
            dictionary = self._data[dictionary_start:end] if resources is None else self._dictionary(resources)
            drawn = None if dictionary is None else self._drawn_work(dictionary, draws, limit, depth)
            if drawn is None:
                return None
            total += drawn
        return min(total, limit + 1)

    def _length(self, top: bytes) -> int | None:
        found = _LENGTH.search(top)
        if found is None or found[2] is None:
            return None if found is None else int(found[1])
        key = (int(found[1]), int(found[2]))
        offset = self._offsets.get(key[1], {}).get(key[0])
        number = None if offset is None else _INTEGER_OBJECT.match(self._data, offset)
        return None if number is None or (int(number[1]), int(number[2])) != key else int(number[3])

    def _dictionary(self, ref: re.Match[bytes]) -> bytes | None:
        """The bytes of the plain dictionary object `ref` names (None: not at its xref offset)."""
        key = (int(ref[1]), int(ref[2]))
        offset = self._offsets.get(key[1], {}).get(key[0])
        head = None if offset is None else _OBJECT_HEAD.match(self._data, offset)
        if head is None or (int(head[1]), int(head[2])) != key:
            return None
        end = self._top_level(head.end())[1]
        return None if end is None else self._data[head.end() : end]

    def _drawn_work(self, dictionary: bytes, draws: dict[bytes, int], limit: int, depth: int) -> int | None:
        """The work of what a form draws, from its own direct /Resources /XObject dictionary."""
        found = _XOBJECT_DICT.findall(dictionary)
        if len(found) != 1 or len(_XOBJECTS.findall(dictionary)) != 1 or depth >= _MAX_FORM_DEPTH:
            return None
        refs = {name: (int(num), int(gen)) for name, num, gen in _XOBJECT_ENTRY.findall(found[0])}
        total = 0
        for name, times in draws.items():
            if name not in refs:
                continue  # a name the resources do not give draws nothing
            inner = self.work(*refs[name], limit, depth + 1)
            if inner is None:
                return None
            total = min(limit + 1, total + times * max(inner, 0))
        return total

    def _top_level(self, at: int) -> tuple[bytes, int | None]:
        """The dictionary's own keys and values (nested dictionaries and strings left out), and its end.

        A name written with an escape (`/Subtyp#65 /F#6frm`) is the plain name to pdfium and
        pypdf but would not match here: a dictionary holding a `#` is not of the simple shape.
        """
        plain = _NESTED_DICT.match(self._data, at, at + 65536)
        if plain is not None:
            end = plain.end()
            return (_INNER_DICT.sub(b" ", plain[1]), end) if self._data.find(b"#", at, end) < 0 else (b"", None)
        depth, top = 1, list[bytes]()
        for token in _DICT_TOKEN.finditer(self._data, at, at + 65536):
            text = token[0]
            if text == b"<<":
                depth += 1
            elif text == b">>":
                depth -= 1
                if depth == 0:
                    return (b" ".join(top), token.end()) if self._data.find(b"#", at, token.end()) < 0 else (b"", None)
            elif text in (b"(", b")", b"<", b">", b"%"):
                return b"", None  # a string with nested brackets, or a comment: not the simple shape
            elif depth == 1 and not text.startswith(b"("):
                top.append(text)
        return b"", None


def page_work(page: Any, limit: int, done: dict[object, int] | None = None, raw: RawForms | None = None) -> int:
    """The page's work in bytes, or an upper bound of it within `limit`; counted up to just past `limit`.

    `done` remembers each form's work across the pages of one document (pass the same dict
    with the same `limit`): the forms a document shares are measured once; `raw` measures
    the forms of the common shape from the file's bytes. A form drawing itself is over the
    limit. A page the bounds put over the limit is counted again exactly.
    """
    data = _contents(page, limit, raw)
    # only a page that draws something needs its resources (pypdf parses the whole dictionary)
    resources = resolved(page.get("/Resources")) if _may_draw(data) else None
    work = _content_work(data, resources, limit, {} if done is None else done, raw, 0)
    if work > limit:  # over by a bound, perhaps: counted exactly
        work = _content_work(data, resources, limit, {}, None if raw is None else raw.exactly(), 0, exact=True)
    return work


def _contents(page: Any, limit: int, raw: RawForms | None) -> bytes:
    """The page's content streams, one after the other; those of the common shape read from
    the file's bytes (pypdf's parse of a stream object costs more than inflating it)."""
    contents = page.get("/Contents")
    data = raw.content(contents.idnum, contents.generation, limit) if raw and hasattr(contents, "idnum") else None
    if data is not None:
        return data
    contents = resolved(contents)  # an array of streams, perhaps
    parts = []
    for stream in contents if isinstance(contents, list) else [] if contents is None else [contents]:
        data = raw.content(stream.idnum, stream.generation, limit) if raw and hasattr(stream, "idnum") else None
        if data is None:
            stream = resolved(stream)
            if stream is None:  # a content stream the file no longer holds (a damaged file, rebuilt) draws nothing
                continue
            data = stream.get_data()
        parts.append(data)
    return b"\n".join(parts)


def _content_work(
    data: bytes,
    resources: object,
    limit: int,
    done: dict[object, int],
    raw: RawForms | None,
    depth: int,
    exact: bool = False,
) -> int:
    over = limit + 1
    total = stream_work(data, 0 if exact else limit)
    xobjects = resolved(resources.get("/XObject")) if isinstance(resources, dict) else None
    for name, times in _drawn_names(data).items():
        if total > limit or not isinstance(xobjects, dict):
            break
        ref: Any = dict.get(xobjects, "/" + name.decode("latin-1"))
        leaf = raw.work(ref.idnum, ref.generation, limit) if raw is not None and hasattr(ref, "idnum") else None
        if leaf is not None:
            total = min(over, total + times * max(leaf, 0))
            continue
        form: Any = resolved(ref)
        if not isinstance(form, dict) or not hasattr(form, "get_data") or form.get("/Subtype") != "/Form":
            continue
        inner = resolved(form.get("/Resources"))
        # a form without resources draws with its caller's, so its work depends on them
        key = (
            (ref.idnum, ref.generation, None if inner is not None else id(resources))
            if hasattr(ref, "idnum")
            else id(form)
        )
        if key not in done:
            done[key] = over  # a form met again while it is being measured draws itself
            if depth < _MAX_FORM_DEPTH:
                inner_resources = inner if inner is not None else resources
                done[key] = _content_work(form.get_data(), inner_resources, limit, done, raw, depth + 1, exact)
        total = min(over, total + times * done[key])
    return min(total, over)
