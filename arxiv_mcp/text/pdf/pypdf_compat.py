"""Every reach into pypdf's private internals, behind one fence.

pypdf's public API reads a paper, but three of its private ways cost us time, and one hides a
word-space fix: this module alone touches them, and only for a pypdf whose major version the
shortcuts were written against (TESTED_MAJORS, pyproject's bounds). For any other pypdf the
public API does all: the text is the same, slower, but for the word spaces wordspace mends.

- Fonts (`SharedFonts`): pypdf's page reading builds a `Font` for every font of a page each
  time it reads the page (parsing its widths, encoding and ToUnicode map). The class pypdf's
  page module names `Font` is replaced, once, by one that builds a font once per document
  while `SharedFonts.active()` is open on a thread (shortcut "shared_fonts"), and makes its
  word space plausible (wordspace) on every build; elsewhere (other threads, other readers)
  it builds as pypdf does. A shared Font is one pypdf built from that very dictionary
  object, which the cache holds (so its id is not reused); a dictionary changed after its
  Font was built must be `forget`-ten (fonts' forget_wide_spaces does); the salvage reads,
  which change fonts as they go, each open a cache of their own.
- The opened reader (`opened_reader`): a reader opened through watch.Watched (the deadline
  seen while pypdf reads every object's header) then reads through a plain stream, as
  `reader.stream` (a watched seek costs ~0.8 us, and reading a paper's pages seeks thousands
  of times); for another pypdf it keeps reading through Watched.
- The measuring reader (`measuring_reader`, for work): a PdfReader that parses one object of
  an object stream at a time ("objects_one_at_a_time": pypdf 7 parses every object of a
  stream it touches).
- The page list read again (`read_pages_again`, for pagetree): the reader's list of pages
  (`flattened_pages`, an attribute pypdf declares on its documents, not a private one) set to
  None, so a mended tree is walked anew; a pypdf without it keeps the pages it found.
- Where each object starts (`object_offsets`, for work and pagetree): the reader's own table
  (`reader.xref`, read when it opened the file); for another pypdf, the `N G obj` heads found
  in the file's bytes, the latest of each object (an update's), as a reader takes them.

SHORTCUTS names the shortcuts in use; benchmarks/pdf_shortcuts.py turns each off and on.
Every shortcut gives the very objects pypdf's own way gives (tests/test_pdf_measuring.py,
tests/test_pdf_fontcache.py; benchmarks/doc_hashes.py for whole documents). Two more, the
plain objects parsed by one pattern and an xref stream read a column at a time, gained under
7% of any file's time and were deleted.
"""

from __future__ import annotations

import functools
import io
import re
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .watch import Watched
from .wordspace import amended

TESTED_MAJORS = range(7, 8)
"""pypdf's major versions the shortcuts were written against (pyproject: pypdf>=7,<8)."""


def _major(version: str) -> int:
    head = version.split(".", 1)[0]
    return int(head) if head.isdigit() else -1


SHORTCUTS: frozenset[str] = frozenset({"shared_fonts", "objects_one_at_a_time"})
"""The shortcuts in use when this pypdf fits (none for an untested one); a benchmark may set it."""


@functools.cache
def fits() -> bool:
    """Whether the installed pypdf is of a major version the shortcuts were written against
    (pypdf is imported only when a PDF is read: the server starts without it)."""
    import pypdf

    return _major(pypdf.__version__) in TESTED_MAJORS


# --- fonts ----------------------------------------------------------------------------------

_local = threading.local()  # .fonts: the open cache of this thread, {id(dictionary): (dictionary, Font)}
_install_lock = threading.Lock()
_installed: list[bool] = []  # [whether the font hook is in pypdf], once tried


class SharedFonts:
    """One document's pypdf fonts, shared by the pages read while `active`."""

    def __init__(self) -> None:
        self._fonts: dict[int, tuple[Any, Any]] = {}

    @contextmanager
    def active(self) -> Iterator[None]:
        if not _install():
            yield
            return
        outer = getattr(_local, "fonts", None)
        _local.fonts = self._fonts
        try:
            yield
        finally:
            _local.fonts = outer


def forget(font: Any) -> None:
    """Build `font` (a pypdf font dictionary, just changed) again the next time it is used."""
    fonts = getattr(_local, "fonts", None)
    if fonts is not None:
        fonts.pop(id(font), None)


def fonts_hooked() -> bool:
    """Whether pypdf's page reading builds its fonts through the hook (this pypdf fits it)."""
    return _install()


def _install() -> bool:
    """Put the font hook in pypdf's page reading, once; False when pypdf is not as expected."""
    if _installed:
        return _installed[0]
    with _install_lock:
        if not _installed:
            _installed.append(fits() and _hook())
    return _installed[0]


def _hook() -> bool:
    try:
        import pypdf._page as page_module
        from pypdf.generic._font import Font
    except ImportError:  # a pypdf that keeps its fonts elsewhere: pages build their own
        return False
    if getattr(page_module, "Font", None) is not Font or not callable(getattr(Font, "from_font_resource", None)):
        return False

    class _Sharing(Font):  # pypdf's page module builds fonts through the class it names Font
        @classmethod
        def from_font_resource(cls, pdf_font_dict: Any) -> Any:
            fonts = getattr(_local, "fonts", None)
            if fonts is None:
                return Font.from_font_resource(pdf_font_dict)
            if "shared_fonts" not in SHORTCUTS:
                return amended(Font.from_font_resource(pdf_font_dict), pdf_font_dict)
            known = fonts.get(id(pdf_font_dict))
            if known is None:
                built = amended(Font.from_font_resource(pdf_font_dict), pdf_font_dict)
                known = fonts[id(pdf_font_dict)] = (pdf_font_dict, built)
            return known[1]

    page_module.Font = _Sharing  # type: ignore[attr-defined]
    return True


# --- where objects start ---------------------------------------------------------------

Offsets = dict[int, dict[int, int]]
"""generation -> object number -> the byte offset of the object's `N G obj` head."""


def object_offsets(reader: Any, data: bytes) -> Offsets:
    """Where each object outside an object stream starts in `data`, the bytes `reader` reads."""
    xref = getattr(reader, "xref", None) if fits() else None
    if isinstance(xref, dict):
        return xref
    found = _found_offsets.get(reader)
    if found is None or found[0] is not data:
        found = _found_offsets[reader] = (data, _offsets_in(data))
    return found[1]


def read_pages_again(reader: Any) -> None:
    """Make `reader` walk its page tree again at the next `reader.pages` (see above)."""
    if hasattr(reader, "flattened_pages"):
        reader.flattened_pages = None


_found_offsets: weakref.WeakKeyDictionary[Any, tuple[bytes, Offsets]] = weakref.WeakKeyDictionary()


_OBJECT_HEAD = re.compile(rb"(?<![0-9])(\d{1,10})\s+(\d{1,5})\s+obj\b")


def _offsets_in(data: bytes) -> Offsets:
    offsets: Offsets = {}
    for head in _OBJECT_HEAD.finditer(data):
        offsets.setdefault(int(head[2]), {})[int(head[1])] = head.start()
    return offsets


# --- the measuring reader --------------------------------------------------------------


def opened_reader(data: bytes, strict: bool = False, stream: Watched | None = None, make: Any = None) -> Any:
    """A pypdf reader of `data` (`make`: its class), opened through `stream` (a Watched of
    `data`), then reading through a plain stream when this pypdf fits (see above)."""
    import pypdf

    stream = stream if stream is not None else Watched(data)
    reader = (make or pypdf.PdfReader)(stream, strict=strict)
    if fits() and getattr(reader, "stream", None) is stream:
        reader.stream = io.BytesIO(data)  # shares `data`'s bytes: no copy
    return reader


def measuring_reader(data: bytes, strict: bool = True) -> Any:
    """A pypdf reader of `data` with the measuring shortcuts in use (see _OneAtATime); with
    none, pypdf's own."""
    if not (fits() and SHORTCUTS & _MEASURING):
        return opened_reader(data, strict)
    return opened_reader(data, strict, _InPlace(data), _measuring_reader())


_MEASURING = frozenset({"objects_one_at_a_time"})


@functools.cache
def _measuring_reader() -> Any:
    """The measuring reader's class, made once (a class made for every file cost its making,
    and pypdf's lookups of its methods started anew on each)."""
    from pypdf import PdfReader
    from pypdf.generic import read_object

    class _OneAtATime(PdfReader):
        """pypdf's reader, but an object inside an object stream is parsed alone.

        pypdf 7 parses (and caches) every object of an object stream when one is asked for:
        reading a compiled paper's page tree parsed all its fonts and widths, most of the time
        of measuring it (the pdfium engine's time, 17-95% on compiled papers: pdf_shortcuts).
        The stream is decoded once and its index of offsets read once; any surprise goes back
        to pypdf's own way, which also checks a stream that holds itself.
        """

        def __init__(self, stream: Watched, strict: bool) -> None:
            self._object_streams: dict[int, tuple[bytes, int, list[bytes]]] = {}
            super().__init__(stream, strict=strict)

        def _get_object_from_stream(self, indirect_reference: Any) -> Any:
            if "objects_one_at_a_time" not in SHORTCUTS:
                return super()._get_object_from_stream(indirect_reference)
            try:
                number, place = self.xref_objStm[indirect_reference.idnum]
                data, first, header = self._object_stream(number)
                if int(header[2 * place]) != indirect_reference.idnum:
                    raise LookupError("the stream's index and the xref disagree")
                at = first + int(header[2 * place + 1])
                buffer = io.BytesIO(data)
                buffer.seek(at)
                obj = read_object(buffer, self)
            except Exception:
                return super()._get_object_from_stream(indirect_reference)
            self.cache_indirect_object(0, indirect_reference.idnum, obj)
            return obj

        def _object_stream(self, number: int) -> tuple[bytes, int, list[bytes]]:
            """The stream's data, where its objects start, and its index (number, offset, ...)."""
            if number not in self._object_streams:
                self._object_streams[number] = (b"", 0, [])  # met again while opened: pypdf's way
                stream: Any = self.get_object(number)
                data, first = stream.get_data(), int(stream["/First"])
                self._object_streams[number] = (data, first, data[:first].split()[: 2 * int(stream["/N"])])
            return self._object_streams[number]

    return _OneAtATime


class _InPlace(Watched):
    """The file's bytes for the measuring reader, never copied: pypdf sizes a stream through a
    view of its buffer when it offers one, and a view makes BytesIO copy the bytes it shares
    with `data` (a 4 MB paper: ~2 ms). Without it, pypdf seeks to the end instead."""

    @property
    def getbuffer(self) -> Any:
        raise AttributeError("getbuffer")
