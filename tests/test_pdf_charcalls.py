"""pdfium's character questions asked without ctypes' conversions (pdfium_compat) answer as the declared functions do."""

from __future__ import annotations

import ctypes
import importlib.util
from pathlib import Path
from types import SimpleNamespace

import pytest

from arxiv_mcp.text.pdf.pdfium_compat import CharCalls, char_calls

pytestmark = pytest.mark.skipif(importlib.util.find_spec("pypdfium2") is None, reason="pypdfium2 missing")
FIXTURES = Path(__file__).parent / "fixtures" / "pdf"


def _wrapped(raw):
    """A binding whose functions are not ctypes functions: the declared ones, called through Python."""
    names = ["FPDFText_GetUnicode", "FPDFText_GetFontSize", "FPDFText_GetFontWeight", "FPDFText_GetCharBox"]
    functions = {name: (lambda function: lambda *args: function(*args))(getattr(raw, name)) for name in names}
    functions["FPDFText_GetFontInfo"] = lambda *args: raw.FPDFText_GetFontInfo(*args)
    return SimpleNamespace(**functions)


@pytest.mark.parametrize("wrapped", [False, True])
@pytest.mark.parametrize("name", ["0908.0054v1.pdf", "pdftex_walruses.pdf"])
def test_every_character_gets_the_declared_functions_answers(name, wrapped):
    import pypdfium2

    raw = pypdfium2.raw
    calls = CharCalls(_wrapped(raw)) if wrapped else char_calls(raw)
    document = pypdfium2.PdfDocument((FIXTURES / name).read_bytes())
    try:
        page = document[0]
        textpage = page.get_textpage()
        handle = textpage.raw
        count = raw.FPDFText_CountChars(handle)
        assert count > 100
        edges = [ctypes.c_double() for _ in range(4)]
        for index in range(-1, count + 1):  # one past either end: pdfium's answers for no character
            assert calls.unicode(handle, index) == raw.FPDFText_GetUnicode(handle, index)
            assert calls.font_size(handle, index) == raw.FPDFText_GetFontSize(handle, index)
            assert calls.font_weight(handle, index) == raw.FPDFText_GetFontWeight(handle, index)
            found = raw.FPDFText_GetCharBox(handle, index, *edges)
            assert calls.box(handle, index) == (tuple(edge.value for edge in edges) if found else None)
            font, flags = ctypes.create_string_buffer(128), ctypes.c_int()
            raw.FPDFText_GetFontInfo(handle, index, font, len(font), ctypes.byref(flags))
            assert calls.font(handle, index) == (font.value, flags.value)
        textpage.close()
        page.close()
    finally:
        document.close()
