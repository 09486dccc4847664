"""The numbers LaTeX prints: sections as the class numbers them, and every other counter
(figure, table, equation, theorem, bibitem) within the unit the paper numbers it in.

`Numbers` is the counters' state for one walk; it knows nothing of tokens, so the handlers
that step a counter and the walk that asks for a unit's number share one account of it. Every
number is printed through one model, LaTeX's own: a counter's `\\the<counter>` is a `Shape`
(its count in a style, after the number of the unit it is numbered within); what a class
prints is a row of shapes below, what the paper prints is a shape it renews.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..roman import to_roman
from .specs import CHAPTER_LEVELS, HEADING_LEVELS

Shape = tuple[tuple[str, str], ...]
"""How a counter prints, its `\\the<counter>`: as a class defines it (`UNIT_SHAPES`) or as the
paper renews it (`\\renewcommand{\\thefigure}{S\\arabic{figure}}`): parts in order, each
`("text", "S")`, `("count", style)` with a style of `STYLES`, or `("unit", "section")` for the
number of that unit."""


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


def _within(unit: str, stop: str, style: str = "arabic") -> Shape:
    return (("unit", unit), ("text", stop), ("count", style)) if stop else (("unit", unit), ("count", style))


UNIT_SHAPES: dict[str, dict[str, Shape]] = {
    # LaTeX's article (1, 1.1, 1.1.1) and, with chapters, book and report (1, 1.1, ...)
    "": {
        "section": (("count", "arabic"),),
        "subsection": _within("section", "."),
        "subsubsection": _within("subsection", "."),
    },
    "chapters": {
        "chapter": (("count", "arabic"),),
        "section": _within("chapter", "."),
        "subsection": _within("section", "."),
        "subsubsection": _within("subsection", "."),
    },
    "revtex": {  # IV, IV.A, IV.A.1
        "section": (("count", "Roman"),),
        "subsection": _within("section", ".", "Alph"),
        "subsubsection": _within("subsection", "."),
    },
    "ieee": {  # IV, IV-A, IV-A1
        "section": (("count", "Roman"),),
        "subsection": _within("section", "-", "Alph"),
        "subsubsection": _within("subsection", ""),
    },
}
"""What each class's `\\thesection` (and the units below it) prints, by `Meta.numbering`; a class
with chapters prints LaTeX's own whatever its style, and so does every class in an appendix
below its lettered top unit (`APPENDIX_TOP`): A.1, A.1.2."""
APPENDIX_TOP: Shape = (("count", "Alph"),)
"""An appendix's top unit (section or chapter), in every class: A, B."""
COUNT_STYLES: dict[str, dict[str, str]] = {"revtex": {"table": "Roman"}, "ieee": {"table": "Roman"}}
"""Counters a class prints in a style of its own (REVTeX's and IEEEtran's TABLE II)."""
APPENDIX_WITHIN: dict[str, tuple[str, ...]] = {
    "revtex": ("equation",),
    "mn2e": ("equation", "figure", "table"),
    "mnras": ("equation", "figure", "table"),
}
"""What a class's \\appendix numbers within the appendix's section without a stop ((A1), Figure
B2), by numbering style or, where the style is LaTeX's, by class."""


UNNUMBERED_LEVELS = {"part": 2, "paragraph": 5, "subparagraph": 6}
"""The headings printed with no number, and their level in `#`s."""
KINDS = ("figure", "table", "equation")  # the numbered kinds a \\the prints
UNITS = ("chapter", "section", "subsection", "subsubsection")  # the units a counter is numbered within


@dataclass
class Numbers:
    """The count of every counter, kept by the number of the unit it is numbered within
    (`figure:2`, `equation:A`; a section unit's by its name alone, reset by the units above
    it), whether the appendix has begun, and how each counter prints (`shape`)."""

    has_chapters: bool
    numbering: str  # "revtex", "ieee" or "" (`Meta.numbering`): a key of UNIT_SHAPES
    within: dict[str, str]  # counter -> the unit it is numbered within (\\numberwithin)
    shapes: dict[str, Shape]  # counter -> how the paper prints it, preamble and body alike
    document_class: str
    own: set[str]  # the paper's own counters (\\newcounter), added to as the walk reads them
    appendix: bool = False
    counts: dict[str, int] = field(default_factory=dict)

    def levels(self) -> dict[str, int]:
        return CHAPTER_LEVELS if self.has_chapters else HEADING_LEVELS

    def start_appendix(self) -> None:
        """The sections are lettered from here; some classes number counters within the
        appendix's section from here (`APPENDIX_WITHIN`)."""
        self.appendix = True
        for unit, level in self.levels().items():
            self.counts.pop(unit, None)
            if level == 0:  # \\appendix letters the top unit whatever the paper's \\thesection was
                self.shapes.pop(unit, None)
        for counter in APPENDIX_WITHIN.get(self.numbering) or APPENDIX_WITHIN.get(self.document_class, ()):
            self.within[counter] = "section"
            self.shapes[counter] = _within("section", "")

    def heading(self, base: str, numbered: bool) -> tuple[int, str]:
        """A heading's level in `#`s and the number it prints ("" for none): a numbered one
        steps its unit and resets the units below it."""
        if base in UNNUMBERED_LEVELS:
            return UNNUMBERED_LEVELS[base], ""
        level = self.levels().get(base, 0)
        if not numbered:
            return 2 + level, ""
        for unit, below in self.levels().items():
            if below >= level:
                self.counts[unit] = self.counts.get(unit, 0) + 1 if below == level else 0
        return 2 + level, self.unit_number(base)

    def keeps(self, counter: str) -> bool:
        """Whether the walk keeps `counter`: a section unit, a numbered kind or one of the
        paper's own; any other (`page`, a class's own) is set and printed as nothing."""
        return counter in UNITS or counter in KINDS or counter in self.own

    def printed(self, counter: str) -> str | None:
        """What `\\the<counter>` prints now (a section unit's number, any other counter's last
        printed number); None for a counter the walk does not keep."""
        if not self.keeps(counter):
            return None
        return self.unit_number(counter) if counter in UNITS else self.next_number(counter, ahead=0)

    def unit_number(self, unit: str) -> str:
        """The number the current section (or chapter, subsection, or theorem a kind is numbered
        within) prints; "" for no such unit."""
        return self.next_number(unit, ahead=0) if unit in self.levels() or unit.startswith("theorem:") else ""

    def shape(self, counter: str) -> Shape:
        """How a counter prints: the paper's shape, else its class's: a section unit's row of
        `UNIT_SHAPES` (an appendix's lettered top unit), any other counter's count after its
        unit's number and a stop."""
        shape = self.shapes.get(counter)
        if shape:
            return shape
        level = self.levels().get(counter)
        if level is not None:
            style = "chapters" if self.has_chapters else "" if self.appendix else self.numbering
            return APPENDIX_TOP if self.appendix and level == 0 else UNIT_SHAPES[style][counter]
        count_style = COUNT_STYLES.get(self.numbering, {}).get(counter, "arabic")
        unit = self._unit(counter)
        return _within(unit, ".", count_style) if self.unit_number(unit) else (("count", count_style),)

    def _printed(self, shape: Shape, count: int) -> str:
        """A shape with `count` for its count and each unit's number now."""
        return "".join(
            STYLES[value](count) if part == "count" else self.unit_number(value) if part == "unit" else value
            for part, value in shape
        )

    def _unit(self, counter: str) -> str:
        """The unit a counter is numbered within: the paper's \\numberwithin, else the chapter
        where the document has chapters, else none."""
        return self.within.get(counter, "chapter" if self.has_chapters else "")

    def _key(self, counter: str) -> str:
        """Where a counter's count is kept: a section unit's by its name, any other's by the
        number of the unit it is numbered within."""
        if counter in self.levels():
            return counter
        return f"{counter}:{self.unit_number(self._unit(counter))}"

    def value(self, counter: str) -> int:
        """A counter's count now (a section unit's or any other's in its current unit)."""
        return self.counts.get(self._key(counter), 0)

    def next_number(self, counter: str, ahead: int = 1) -> str:
        """The number the next step of `counter` prints (`ahead=0`: the number it printed last)."""
        return self._printed(self.shape(counter), self.value(counter) + ahead)

    def set(self, counter: str, value: int, add: bool = False) -> None:
        """\\setcounter (or, `add`, \\addtocounter) on a counter: a unit's (section) or a
        numbered kind's in its current unit; the next step prints one more."""
        key = self._key(counter)
        self.counts[key] = max(0, self.counts.get(key, 0) * add + value)

    def advance(self, counter: str) -> str:
        """Step `counter` in its unit; the number it now prints."""
        return self._printed(self.shape(counter), self.count(self._key(counter)))

    def count(self, key: str) -> int:
        """Step a plain count (`bibitem`, or a counter's in its unit: `figure:2`); its new value."""
        self.counts[key] = self.counts.get(key, 0) + 1
        return self.counts[key]
