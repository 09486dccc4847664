"""Character spacing (`Tc`) shown to pypdf's word-gap test, so words set apart by it stay apart.

pypdf puts a space between two glyphs of a `TJ` array when the number between them moves the
pen right by more than about half a space, and counts `Tc`, the extra advance after every
glyph, only in the width of the text. A PDF that spaces its words with `Tc` reads glued:
Acrobat Distiller sets a line with `0.4569 Tc` and kerns every pair of letters back by as
much, so the only gaps left are between glyphs written in one string ("(a)454.6(sd)": "as"
and "defined" meet in "sd"), and pypdf gives "asdefinedby(18)". pdfium and pdftotext place each
glyph and read the gaps.

`CharSpacing` is a pypdf `visitor_operand_before`: it follows `Tc` (set by `Tc` and `"`, kept
by `q`/`Q`) and the font size, and while `Tc` is not zero rewrites each `TJ` array just
before pypdf reads it, to the same pen movements written the way pypdf reads them: every
number between two strings made the true gap (the number less `Tc` in thousandths of the
font size), each string of a simple font cut into its glyphs with `Tc`'s gap between them
(when that gap may be a word's),
and one number at the end that takes back what this adds to the width pypdf measures (it
counts `Tc` already), so the text's end stays where it was. Pages without `Tc` cost one
comparison per operator (and a page whose content never names `Tc` does not get the visitor).
A negative `Tc` (text set tighter) is left alone: it only narrows
gaps, and the number that keeps the end in place would itself read as a word gap.
"""

from __future__ import annotations

from typing import Any

from .work import resolved

_MIN_GAP = 1.0  # thousandths of the font size: a Tc smaller than this changes no word gap
# Strings are cut into glyphs only when Tc alone may be a word gap: a tenth of the font size is
# below any font's half space (pypdf's test), and above the letter-spacing Distiller sets
# most lines with (0.02-0.04 em), which would cost a pypdf call per glyph for nothing.
_MIN_WORD_GAP = 100.0


def sets_char_spacing(page: Any) -> bool:
    """Whether the page's own content may set `Tc` (its decoded bytes hold the operator's name;
    pypdf decodes them once, for both this look and its reading). A form's `Tc` is not looked
    for: forms are figures, and a figure's letter spacing is its own."""
    contents = resolved(page.get("/Contents"))
    for stream in contents if isinstance(contents, list) else [contents]:
        stream = resolved(stream)
        try:
            data = stream.get_data()
        except Exception:  # unreadable: pypdf will say so when it reads the page
            continue
        if isinstance(data, bytes) and b"Tc" in data:
            return True
    return False


class CharSpacing:
    """A pypdf `visitor_operand_before` that writes `Tc` into `TJ` arrays (see above)."""

    def __init__(self, fonts: Any) -> None:
        self._fonts = fonts  # the page's /Font resources: which fonts take two bytes a glyph
        self._spacing = 0.0
        self._size = 1.0
        self._wide = False
        self._stack: list[tuple[float, float, bool]] = []

    def __call__(self, operator: bytes, operands: list[Any], *_: object) -> None:
        if operator == b"TJ":
            if self._spacing and operands and isinstance(operands[0], list):
                self._rewrite(operands)
        elif operator == b"Tc" and operands:
            self._spacing = _number(operands[0], 0.0)
        elif operator == b"Tf" and len(operands) >= 2:
            self._size = _number(operands[1], self._size)
            self._wide = self._two_byte(operands[0])
        elif operator == b'"' and len(operands) >= 3:
            self._spacing = _number(operands[1], 0.0)
        elif operator == b"q":
            self._stack.append((self._spacing, self._size, self._wide))
        elif operator == b"Q" and self._stack:
            self._spacing, self._size, self._wide = self._stack.pop()

    def _rewrite(self, operands: list[Any]) -> None:
        from pypdf.generic import ArrayObject, ByteStringObject, FloatObject

        gap = self._spacing * 1000 / self._size if self._size else 0.0
        if gap < _MIN_GAP:
            return  # Tc < 0 only narrows gaps, and its end number would read as a word gap
        rewritten: list[Any] = []
        added = 0.0
        for item in operands[0]:
            if isinstance(item, bytes) and gap >= _MIN_WORD_GAP and not self._wide and len(item) > 1:
                for index in range(len(item)):
                    if index:
                        rewritten.append(FloatObject(-gap))
                        added += gap
                    rewritten.append(ByteStringObject(item[index : index + 1]))
            elif isinstance(item, (int, float)) and not isinstance(item, bool):
                rewritten.append(FloatObject(float(item) - gap))
                added += gap
            else:
                rewritten.append(item)
        if added:
            rewritten.append(FloatObject(added))
        operands[0] = ArrayObject(rewritten)

    def _two_byte(self, name: Any) -> bool:
        try:
            font = self._fonts[name].get_object()
            return bool(font.get("/Subtype") == "/Type0")
        except Exception:  # an unknown or broken font: read as pypdf reads it, one byte a glyph
            return False


def _number(value: Any, default: float) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else default
