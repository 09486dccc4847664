"""A composite font's word space for pypdf, where pypdf would take a letter's width for it.

pypdf reads a gap in a line as a word space when it is over about half the font's space,
whose width it takes from the code the font's ToUnicode map gives U+0020, or, when no code is
a space, from code 32. A composite font with Identity encoding numbers its codes as its font
program numbers its glyphs, so there code 32 is whatever glyph a subset put 33rd: programs
that set word gaps as pen moves and never draw a space (figures made in PowerPoint, Keynote
or Quartz, embedded as forms) leave a letter there. In 2305.03393's figures code 32 is the
"h" or "S" of ArialMT (556 and 667 units), twice Arial's real space: a one-space gap (278,
241 kerned before a capital) falls short of the 264-317 pypdf asks for, and the labels read
glued ("StructureTags", "Horizontallymergedcellsarenotpresent"), where pdfium and pdftotext
read the gaps as spaces. The same font drawn on the page itself reads glued the same way.

Such a font is given no space character: pypdf measures its gaps by DEFAULT_SPACE, the word
space it assumes for a font with no space width (extract_text's `space_width`; so it already
reads such a font whose code 32 has no width), and measures code 32 by the letter's own width
(pypdf counts the space character as the word space wide, whatever its glyph). A font whose
ToUnicode map gives code 32 no character, or a space, is left as pypdf reads it.
"""

from __future__ import annotations

from typing import Any

DEFAULT_SPACE = 200.0
"""pypdf's word space, in thousandths of the font size, for a font whose space has no width."""
_IDENTITY = ("/Identity-H", "/Identity-V")


def amended(font: Any, dictionary: Any) -> Any:
    """pypdf's `font`, built from the font `dictionary`, with no space character when its
    code 32 is a letter of a composite Identity font (see above); returned for chaining."""
    if getattr(font, "space_char", None) != " " or dictionary.get("/Subtype") != "/Type0":
        return font
    encoding = dictionary.get("/Encoding")
    encoding = encoding.get_object() if hasattr(encoding, "get_object") else encoding
    mapped = getattr(font, "character_map", {}).get(" ")
    if encoding in _IDENTITY and isinstance(mapped, str) and mapped.strip():
        font.space_char = ""
        font.space_width = DEFAULT_SPACE
    return font
