"""The numbers LaTeX prints: sections as the class numbers them, and every other counter
(figure, table, equation, theorem, bibitem) within the unit the paper numbers it in.

`Numbers` is the counters' state for one walk; it knows nothing of tokens, so the handlers
that step a counter and the walk that asks for a unit's number share one account of it.
"""

from __future__ import annotations

from collections.abc import Callable

from ..roman import to_roman
from .specs import CHAPTER_LEVELS, HEADING_LEVELS

Shape = tuple[tuple[str, str], ...]
"""How a counter prints when the paper says (`\\renewcommand{\\thefigure}{S\\arabic{figure}}`):
parts in order, each `("text", "S")`, `("count", style)` with a style of `STYLES`, or `("unit",
"section")` for the number of that unit."""


def letter_of(number: int) -> str:
    return chr(ord("A") + number - 1) if 1 <= number <= 26 else str(number)


def _lower_roman(count: int) -> str:
    return to_roman(count).lower()


def _lower_letter(count: int) -> str:
    return letter_of(count).lower()


STYLES: dict[str, Callable[[int], str]] = {
    "arabic": str,
    "Roman": to_roman,
    "roman": _lower_roman,
    "Alph": letter_of,
    "alph": _lower_letter,
}


APPENDIX_WITHIN_SECTION = ("mn2e", "mnras")  # their \\appendix: \\theequation is \\thesection\\arabic{equation}


class Numbers:
    """The section counters (chapter or section down to subsubsection), whether the appendix
    has begun, and the count of every other counter by its unit (`figure:2`, `bibitem`)."""

    def __init__(
        self, has_chapters: bool, style: str, within: dict[str, str], shapes: dict[str, Shape], document_class: str
    ):
        self.has_chapters = has_chapters
        self.document_class = document_class
        self.style = style  # "revtex", "ieee" or "": `convert._numbering`
        self.within = within  # counter -> the unit it is numbered within (\\numberwithin)
        self.shapes = shapes  # counter -> how the paper prints it, preamble and body alike
        self.counters = [0, 0, 0, 0]
        self.appendix = False
        self.counts: dict[str, int] = {}

    def levels(self) -> dict[str, int]:
        return CHAPTER_LEVELS if self.has_chapters else HEADING_LEVELS

    def start_appendix(self) -> None:
        """The sections are lettered from here; MNRAS's classes number an appendix's equations,
        figures and tables within its section, without a stop: (A1), Figure B2."""
        self.appendix = True
        self.counters = [0, 0, 0, 0]
        if self.document_class in APPENDIX_WITHIN_SECTION:
            for counter in ("equation", "figure", "table"):
                self.within[counter] = "section"
                self.shapes[counter] = (("unit", "section"), ("count", "arabic"))

    def heading(self, base: str, numbered: bool) -> tuple[int, str]:
        """A heading's level in `#`s and the number it prints ("" for none)."""
        if base == "paragraph":
            return 5, ""
        if base == "subparagraph":
            return 6, ""
        if base == "part":
            return 2, ""
        level = self.levels().get(base, 0)
        if not numbered:
            return 2 + level, ""
        self.counters[level] += 1
        for k in range(level + 1, len(self.counters)):
            self.counters[k] = 0
        return 2 + level, self.unit_number(base)

    def unit_number(self, unit: str) -> str:
        """The number the current section (or chapter, subsection) prints; "" for no such unit.
        REVTeX and IEEEtran print sections in roman numerals and subsections as letters after
        them (`IV.A`; IEEEtran `IV-A`, `IV-A1`); their appendices are lettered."""
        level = self.levels().get(unit)
        if level is None:
            return ""
        style = "" if self.has_chapters else self.style
        if self.appendix:
            top = letter_of(self.counters[0])
        else:
            top = to_roman(self.counters[0]) if style else str(self.counters[0])
        parts = [top]
        for depth, count in enumerate(self.counters[1 : level + 1], 1):
            if style == "ieee" and not self.appendix:
                parts.append(("-" if depth == 1 else "") + (letter_of(count) if depth == 1 else str(count)))
            else:
                lettered = style == "revtex" and not self.appendix and depth == 1
                parts.append("." + (letter_of(count) if lettered else str(count)))
        return "".join(parts)

    def counter_unit(self, counter: str) -> tuple[str, str]:
        """The number of the unit a counter is numbered within and the stop after it: the
        preamble's \\numberwithin, else the chapter where the document has chapters (book,
        report), else none. REVTeX numbers an appendix's equations within it, without a stop:
        (A1), (A2), (B1)."""
        if counter == "equation" and self.appendix and self.style == "revtex":
            return self.unit_number("section"), ""
        return self.unit_number(self.within.get(counter, "chapter" if self.has_chapters else "")), "."

    def next_number(self, counter: str, ahead: int = 1) -> str:
        """The number the next step of `counter` prints (`ahead=0`: the number it printed last).
        REVTeX and IEEEtran number tables in roman numerals (TABLE II)."""
        unit, stop = self.counter_unit(counter)
        count = self.counts.get(f"{counter}:{unit}", 0) + ahead
        shape = self.shapes.get(counter)
        if shape:
            return "".join(
                STYLES[value](count) if part == "count" else self.unit_number(value) if part == "unit" else value
                for part, value in shape
            )
        shown = to_roman(count) if counter == "table" and self.style else str(count)
        return f"{unit}{stop}{shown}" if unit else shown

    def set(self, counter: str, value: int, add: bool = False) -> None:
        """\\setcounter (or, `add`, \\addtocounter) on a counter: a unit's (section) or a
        numbered kind's in its current unit; the next step prints one more."""
        level = self.levels().get(counter)
        if level is not None:
            self.counters[level] = max(0, self.counters[level] * add + value)
            return
        key = f"{counter}:{self.counter_unit(counter)[0]}"
        self.counts[key] = max(0, self.counts.get(key, 0) * add + value)

    def advance(self, counter: str) -> str:
        """Step `counter` in its unit; the number it now prints."""
        number = self.next_number(counter)
        unit = self.counter_unit(counter)[0]
        self.counts[f"{counter}:{unit}"] = self.counts.get(f"{counter}:{unit}", 0) + 1
        return number

    def count(self, key: str) -> int:
        """Step a plain count (`bibitem`, a theorem kind's `theorem:lemma:2.1`); its new value."""
        self.counts[key] = self.counts.get(key, 0) + 1
        return self.counts[key]
