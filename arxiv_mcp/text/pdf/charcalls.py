"""pdfium's questions about one character of a text page, asked without ctypes' conversions.

pypdfium2 declares each function's argument types, and ctypes converts every argument
through them on every call: 0.2-0.5 us of a call's 0.4-0.8. The passes over a page's
characters (heading fonts in fonts, accents and scripts in glyphs) ask a paper thousands of
them, a twentieth of the time pdfium takes to read it. These are the same functions of the
same library, called through copies with no declared arguments, each argument already the
C type the function takes: the text page's pointer, an int index, pointers to
out-parameters made once with byref, an unsigned long buffer size. (Undeclared, ctypes
passes a pointer as it is and a Python int as a C int; nothing else is passed here.) Every
call runs under engine's pdfium lock, so one set of out-parameters serves all pages.
"""

from __future__ import annotations

import ctypes
import functools
from _ctypes import CFuncPtr
from typing import Any

_NAME_SIZE = 128


class CharCalls:
    """The character questions of one pdfium binding (`raw`, pypdfium2's raw module)."""

    def __init__(self, raw: Any) -> None:
        self.unicode = _undeclared(raw.FPDFText_GetUnicode)
        self.font_size = _undeclared(raw.FPDFText_GetFontSize)
        self.font_weight = _undeclared(raw.FPDFText_GetFontWeight)
        self._char_box = _undeclared(raw.FPDFText_GetCharBox)
        self._font_info = _undeclared(raw.FPDFText_GetFontInfo)
        self._edges = [ctypes.c_double() for _ in range(4)]
        self._edge_pointers = [ctypes.byref(edge) for edge in self._edges]
        self._name = ctypes.create_string_buffer(_NAME_SIZE)
        self._name_size = ctypes.c_ulong(_NAME_SIZE)
        self._flags = ctypes.c_int()
        self._flags_pointer = ctypes.byref(self._flags)

    def box(self, textpage: Any, index: int) -> tuple[float, float, float, float] | None:
        """The character's left, right, bottom and top; None if pdfium has no box for it."""
        if not self._char_box(textpage, index, *self._edge_pointers):
            return None
        left, right, bottom, top = self._edges
        return left.value, right.value, bottom.value, top.value

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


@functools.cache
def char_calls(raw: Any) -> CharCalls:
    return CharCalls(raw)


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
