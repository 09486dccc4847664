"""pypdf's fonts built once per document, not once per page that uses them.

pypdf's extract_text builds a `Font` for every font of a page each time it reads the page:
it parses the font's widths, encoding and ToUnicode map, 3-25% of bare extract_text on a
paper, whose pages share a dozen fonts. While `SharedFonts.active()` is open on a thread,
pypdf's font building on that thread returns the Font it built before for the same font
dictionary object, its word space made plausible (wordspace); elsewhere (other threads,
other readers) it builds as always.

Invariants: a shared Font is one pypdf built from that very dictionary object, which the
cache holds (so its id is not reused), then `wordspace.amended`, and pypdf only reads a Font
once built (its one write, the default word space of a font with no space width, writes the
same value each time). A dictionary changed after its Font was built must be `forget`-ten
(fonts' forget_wide_spaces does); the salvage reads, which change fonts as they go, each open
a cache of their own. When pypdf no longer builds fonts the way this expects (another
version), nothing is installed and every page builds its own, as before: the text is the
same but for the word spaces wordspace would have amended.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .wordspace import amended

_local = threading.local()  # .fonts: the open cache of this thread, {id(dictionary): (dictionary, Font)}
_install_lock = threading.Lock()
_installed: list[bool] = []  # [whether the sharing hook is in pypdf], once tried


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


def _install() -> bool:
    """Put the sharing hook in pypdf's page reading, once; False when pypdf is not as expected."""
    if _installed:
        return _installed[0]
    with _install_lock:
        if not _installed:
            _installed.append(_hook())
    return _installed[0]


def _hook() -> bool:
    try:
        import pypdf._page as page_module
        from pypdf.generic._font import Font
    except ImportError:  # an older pypdf keeps its fonts elsewhere: pages build their own
        return False
    if getattr(page_module, "Font", None) is not Font or not callable(getattr(Font, "from_font_resource", None)):
        return False

    class _Sharing(Font):  # pypdf's page module builds fonts through the class it names Font
        @classmethod
        def from_font_resource(cls, pdf_font_dict: Any) -> Any:
            fonts = getattr(_local, "fonts", None)
            if fonts is None:
                return Font.from_font_resource(pdf_font_dict)
            known = fonts.get(id(pdf_font_dict))
            if known is None:
                built = amended(Font.from_font_resource(pdf_font_dict), pdf_font_dict)
                known = fonts[id(pdf_font_dict)] = (pdf_font_dict, built)
            return known[1]

    page_module.Font = _Sharing  # type: ignore[attr-defined]
    return True
