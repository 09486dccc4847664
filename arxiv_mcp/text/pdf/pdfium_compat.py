"""Every reach into pypdfium2's internals, behind one fence: pdfium's questions about one
character of a text page, asked without ctypes' conversions.

pypdfium2 declares each function's argument types, and ctypes converts every argument
through them on every call: 0.2-0.5 us of a call's 0.4-0.8. The passes over a page's
characters (heading fonts in fonts, accents and scripts in glyphs) ask a paper thousands of
them, a twentieth of the time pdfium takes to read it. These are the same functions of the
same library, called through copies with no declared arguments, each argument already the
C type the function takes: the text page's pointer, an int index, pointers to
out-parameters made once with byref, an unsigned long buffer size. (Undeclared, ctypes
passes a pointer as it is and a Python int as a C int; nothing else is passed here.) Every
call runs under PDFIUM_LOCK, so one set of out-parameters serves all pages.

The copies (shortcut "undeclared_calls") are made only for a pypdfium2 of a major version
they were written against (TESTED_MAJORS, pyproject's bounds); for another, or with the
shortcut off, each question calls pypdfium2's declared function, with the same answers
(tests/test_pdf_charcalls.py). The shortcut gains 1.5% of the pdfium engine's time on the
whole corpus but 4-14% on small papers, and without it 0908.0054v1 goes past the `fast`
bound (2x bare pypdfium2): kept (benchmarks/pdf_shortcuts.py turns it off and on).
"""

from __future__ import annotations

import ctypes
import functools
import threading
from _ctypes import CFuncPtr
from typing import Any

_NAME_SIZE = 128
PDFIUM_LOCK = threading.Lock()
"""Held around every use of pdfium (it is not thread-safe): text pages and figure renders."""
TESTED_MAJORS = range(4, 6)
"""pypdfium2's major versions the copies were written against (pyproject: pypdfium2>=4,<6)."""
SHORTCUTS: frozenset[str] = frozenset({"undeclared_calls"})
"""The shortcuts in use when this pypdfium2 fits; a benchmark may set it."""


Box = tuple[float, float, float, float]
"""A character's left, right, bottom and top edges, in points from the page's lower left corner."""


class CharCalls:
    """The character questions of one pdfium binding (`raw`, pypdfium2's raw module)."""

    def __init__(self, raw: Any, undeclared: bool = True) -> None:
        copy = _undeclared if undeclared else _as_it_is
        self.unicode = copy(raw.FPDFText_GetUnicode)
        self.font_size = copy(raw.FPDFText_GetFontSize)
        self.font_weight = copy(raw.FPDFText_GetFontWeight)
        self._char_box = copy(raw.FPDFText_GetCharBox)
        self._font_info = copy(raw.FPDFText_GetFontInfo)
        self._edges = [ctypes.c_double() for _ in range(4)]
        self._edge_pointers = [ctypes.byref(edge) for edge in self._edges]
        self._name = ctypes.create_string_buffer(_NAME_SIZE)
        self._name_size = ctypes.c_ulong(_NAME_SIZE)
        self._flags = ctypes.c_int()
        self._flags_pointer = ctypes.byref(self._flags)

    def box(self, textpage: Any, index: int) -> Box | None:
        """The character's left, right, bottom and top; None if pdfium has no box for it."""
        if not self._char_box(textpage, index, *self._edge_pointers):
            return None
        left, right, bottom, top = self._edges
        return left.value, right.value, bottom.value, top.value

    def ends(self, textpage: Any, first: int, last: int) -> tuple[Box | None, Box | None]:
        """The boxes of characters `first` and `last` (as `box`): where a line of them stands."""
        char_box, (left, right, bottom, top), pointers = self._char_box, self._edges, self._edge_pointers
        head = (left.value, right.value, bottom.value, top.value) if char_box(textpage, first, *pointers) else None
        tail = (left.value, right.value, bottom.value, top.value) if char_box(textpage, last, *pointers) else None
        return head, tail

    def font_name(self, textpage: Any, index: int) -> bytes:
        """The name of the character's font (cut at 127 bytes)."""
        self._name.value = b""
        self._font_info(textpage, index, self._name, self._name_size, None)  # flags: not asked for
        return self._name.value

    def font(self, textpage: Any, index: int) -> tuple[bytes, int]:
        """The name of the character's font (cut at 127 bytes) and its flags."""
        self._name.value = b""
        self._flags.value = 0
        self._font_info(textpage, index, self._name, self._name_size, self._flags_pointer)
        return self._name.value, self._flags.value


def char_calls(raw: Any) -> CharCalls:
    """The character questions of `raw`, through the copies when the shortcut is in use."""
    return _char_calls(raw, "undeclared_calls" in SHORTCUTS and fits())


@functools.cache
def _char_calls(raw: Any, undeclared: bool) -> CharCalls:
    return CharCalls(raw, undeclared)


@functools.cache
def fits() -> bool:
    """Whether the installed pypdfium2 is of a major version the copies were written against."""
    try:
        from pypdfium2.version import PYPDFIUM_INFO
    except ImportError:
        return False
    return int(getattr(PYPDFIUM_INFO, "major", -1)) in TESTED_MAJORS


def _as_it_is(function: Any) -> Any:
    return function


def _undeclared(function: Any) -> Any:
    """A copy of a ctypes function of the same library and calling convention, its result
    type kept and its argument types not declared; anything else (a binding that wraps its
    functions) is called as it is, with the same arguments (byref and c_ulong suit a
    declared function too)."""
    address = ctypes.cast(function, ctypes.c_void_p).value if isinstance(function, CFuncPtr) else None
    if address is None:
        return function
    copy = type(function)(address)
    copy.restype = function.restype
    return copy
