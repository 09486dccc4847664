"""pypdfium2 as this package asks it about one character of a text page, through its public
`raw` binding only.

The passes over a page's characters (heading fonts in fonts, accents and scripts in glyphs)
ask a paper thousands of questions; the out-parameters are made once per binding (byref)
and every call runs under engine's pdfium lock, so one set serves all pages. Nothing here
reaches into pypdfium2's internals: undeclared ctypes copies of these functions (skipping
ctypes' argument conversions) gained 1.5% of the pdfium engine's time on the corpus, under
the 10% a shortcut must gain (benchmarks/pdf_shortcuts.py), and were deleted. pyproject
bounds pypdfium2 below its next major.
"""

from __future__ import annotations

import ctypes
import functools
import threading
from typing import Any

_NAME_SIZE = 128
PDFIUM_LOCK = threading.Lock()
"""Held around every use of pdfium (it is not thread-safe): text pages and figure renders."""


class CharCalls:
    """The character questions of one pdfium binding (`raw`, pypdfium2's raw module)."""

    def __init__(self, raw: Any) -> None:
        self.unicode = raw.FPDFText_GetUnicode
        self.font_size = raw.FPDFText_GetFontSize
        self.font_weight = raw.FPDFText_GetFontWeight
        self._char_box = raw.FPDFText_GetCharBox
        self._font_info = raw.FPDFText_GetFontInfo
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
