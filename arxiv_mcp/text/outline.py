"""A paper's outline and its sections, as a reader points at them.

A section is named three ways, never confused with one another:
- by the number the paper prints (`4`, `4.2`, `Section 4`, `Sec. 4.2`, `§4.2`, `IV`, `IV.A`,
  REVTeX's `Sec. II A`, `Appendix B`, `B.1`, `B1`, a supplementary `S2`): the heading printed
  with that number, or an error listing the numbers the paper has (never another section);
- by its position in the outline, `section:N` (shown as `[sN]` in the outline, so it cannot
  be read as the paper's own number; a capital `S2` is always a printed number);
- by its name: any case, with or without its number, singular or plural words, or a part of
  it from the start of a word.
A selector's control and format characters are dropped before it is read (`clean`).
Headings are the `#` lines of the shared text shape; a section ends where a heading of its
level or higher starts, and page markers (`## Page N`) are neither headings nor ends.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from ..errors import InvalidInput
from ..words import singular
from . import numbers
from .document import Document, Kind, printed_number
from .shape import is_page_title

_LISTED_HEADINGS = 15
_LISTED_CANDIDATES = 20
_LISTED_NUMBERS = 40

_POSITION_RE = re.compile(r"(?i:section\s*:\s*(?P<n>\d+)|\[s(?P<b>\d+)\])|s(?P<s>\d+)")
"""`section:N` (or `[sN]` as the outline shows it, or a lower-case `sN`): the N-th outline
entry. A capital `S2` is a printed number (a supplementary section), never a position."""
_PREFIX = r"(?:sections?|sect?\.|sec|§|appendix|app\.|chapters?|ch\.)\s*"
_SEP = r"[.\-–]"
_NUMBER_RE = re.compile(
    rf"(?:(?i:{_PREFIX})(?P<any>(?:[A-Za-z]?\d+|[A-Za-z]|[IVXLCivxlc]+)(?:{_SEP}(?:\d+|[A-Za-z]))*)"
    rf"|(?P<bare>\d+(?:{_SEP}(?:\d+|[A-Za-z]))*|[IVXLC]+(?:{_SEP}(?:\d+|[A-Z]))*|[A-Z]\d*(?:{_SEP}\d+)*))\.?"
)
"""A number as a reader writes it (`4.2`, `IV.A`, `III-A`, `Sec. V-B`, `Section S1`, `A1`). Without
a prefix only digits, capital Roman numerals or one capital letter (with digits: `S1`, `A2`)
count, so a heading name such as "civil" is never read as a number."""
_CONTROL_CATEGORIES = ("Cc", "Cf")
_LIGATURES = str.maketrans({"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st"})
"""A selector copied from a PDF viewer carries its typeset ligatures (`Deﬁnition 2.1`,
`ﬁgure 3`); our text spells them out."""
_REVTEX_RE = re.compile(rf"(?:(?i:{_PREFIX}))?(?P<roman>[IVXLC]+)(?P<space>\s?)(?P<letter>[A-Z])\.?")
_NUMBERED_RE = re.compile(rf"(?i:{_PREFIX})\S*\d")
"""A section word and a digit: a section number, in a form `_NUMBER_RE` may not know."""
_LEADING_NUMBER_RE = re.compile(r"^(?:\d+|[A-Z])(?:\.\d+)*\.?\s+(?=\S)")
_HEADING_LINE_RE = re.compile(r"(#{1,6})[ \t]+(\S[^\n]*)")
"""`HEADING_RE` read greedily: its title is this one's with the blanks at its end stripped
(`HEADING_RE` takes the title lazily up to them, trying the line's end at every character:
six times slower over a long paper's outline). The tests hold the two to the same lines."""


@dataclass(frozen=True)
class Heading:
    """One heading; `start`/`end` span its whole section, subsections included."""

    number: int
    """Its position in the outline (`section:N`)."""
    level: int
    title: str
    start: int
    end: int
    printed: str | None = None
    """The number the paper prints for it (`4.2`, `IV.A`, `B`), None when unnumbered."""
    chars: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "chars", self.end - self.start)


def outline(source: str | Document) -> list[Heading]:
    """All headings in document order, with the numbers they print. A document's heading
    records give those numbers (an extractor may know them better than the title shows);
    a bare text's are read from the titles."""
    text = source.text if isinstance(source, Document) else source
    printed = _printed_numbers(source) if isinstance(source, Document) else {}
    # A document's heading lines are its heading blocks (DocumentBuilder marks each): no scan
    found = heading_lines(text, printed if isinstance(source, Document) else _heading_line_starts(text))
    ends = [len(text)] * len(found)
    open_sections: list[int] = []
    for index, (start, level, _) in enumerate(found):
        while open_sections and found[open_sections[-1]][1] >= level:
            ends[open_sections.pop()] = start
        open_sections.append(index)
    return [
        Heading(i + 1, level, title, start, ends[i], printed[start] if start in printed else printed_number(title))
        for i, (start, level, title) in enumerate(found)
    ]


def heading_lines(text: str, starts: Iterable[int]) -> list[tuple[int, int, str]]:
    """(start, level, title) of the heading lines among the lines starting at `starts`, page
    markers left out: for a reader that needs neither the sections' ends nor `Heading`s."""
    found = []
    for line_start in starts:
        match = _HEADING_LINE_RE.match(text, line_start)
        if match:
            title = match.group(2).rstrip(" \t\r")
            if not is_page_title(title):
                found.append((line_start, len(match.group(1)), title))
    return found


def _printed_numbers(doc: Document) -> dict[int, str | None]:
    return {block.start: getattr(block.record, "number", None) for block in doc.blocks_of(Kind.HEADING)}


def _heading_line_starts(text: str) -> Iterator[int]:
    """Starts of lines beginning with '#' (a plain find loop: far faster than a ^-anchored regex)."""
    if text.startswith("#"):
        yield 0
    position = text.find("\n#")
    while position >= 0:
        yield position + 1
        position = text.find("\n#", position + 1)


def render_outline(headings: list[Heading]) -> str:
    """One line per heading, `[sN]` first (its position, for `section:N`), indented by depth."""
    if not headings:
        return "No headings in this text: read it by page (section=None) or use find_in_paper."
    top = min(h.level for h in headings)
    return "\n".join(f"[s{h.number}] {'  ' * (h.level - top)}{h.title} ({h.chars:,} chars)" for h in headings)


def clean(selector: str | None) -> str:
    """A selector as compared and echoed: blanks collapsed, control and format characters
    (escapes, bidi overrides, zero-width marks) dropped, so an error never echoes them raw;
    typeset ligatures spelled out."""
    kept = "".join(c for c in (selector or "") if c.isspace() or unicodedata.category(c) not in _CONTROL_CATEGORIES)
    kept = kept.translate(_LIGATURES)
    return " ".join(kept.split())


def select_section(source: str | Document, selector: str, headings: list[Heading] | None = None) -> tuple[Heading, str]:
    """The heading `selector` names (a printed number, `section:N`, or a name) and its
    section's text; `headings` is the source's outline when the caller has it already."""
    wanted = clean(selector)
    if not wanted:
        raise InvalidInput('section is empty: pass a heading name, a section number, or "outline".')
    text = source.text if isinstance(source, Document) else source
    headings = outline(source) if headings is None else headings
    if not headings:
        raise InvalidInput(
            "this paper's text has no headings, so it cannot be read by section: "
            "omit section to read it by page, or use find_in_paper to locate a passage."
        )
    numbers.refuse_long_digits(wanted)
    position = _POSITION_RE.fullmatch(wanted)
    number = _NUMBER_RE.fullmatch(wanted)
    revtex = _revtex_number(wanted)
    if revtex:
        heading = _by_number(headings, wanted, revtex)
    elif position:
        heading = _by_position(headings, int(next(n for n in position.groups() if n)))
    elif number and re.match(r"(?i)app(?:endix|\.)", wanted):
        heading = _by_appendix(headings, number.group("any"))
    elif number:
        heading = _by_number(headings, wanted, number.group("any") or number.group("bare"))
    else:
        try:
            heading = _by_name(headings, wanted)
        except InvalidInput:
            if _NUMBERED_RE.match(wanted):  # "Sec. 3(b)": a section number, never the heading error
                _by_printed(headings, wanted)
            raise
    return heading, text[heading.start : heading.end]


def _revtex_number(wanted: str) -> str | None:
    """`II.A` for REVTeX's printed cross-reference `Sec. II A` (or `II A`, `IIA`): a Roman
    numeral and a subsection's capital letter; None for anything else (`IV` stays IV)."""
    match = _REVTEX_RE.fullmatch(wanted)
    if not match:
        return None
    roman, letter = match.group("roman"), match.group("letter")
    if not match.group("space"):  # `IIA`: the letter is the last capital, unless all of it is a numeral
        if numbers.roman_value((roman + letter).casefold()) is not None:
            return None
    return f"{roman}.{letter}" if numbers.roman_value(roman.casefold()) is not None else None


def _by_number(headings: list[Heading], wanted: str, number: str) -> Heading:
    """The heading printed with `number`; a bare `S1` or `A2` the paper does not print may still
    be a heading's whole name."""
    try:
        return _by_printed(headings, number)
    except InvalidInput:
        named = [h for h in headings if is_named(h, wanted)]
        if len(named) == 1:
            return named[0]
        raise


def _by_position(headings: list[Heading], number: int) -> Heading:
    if 1 <= number <= len(headings):
        return headings[number - 1]
    raise InvalidInput(
        f"section:{number} does not exist: this paper has {len(headings)} headings "
        f'(section:1 to section:{len(headings)}); call with section="outline" to list them.'
    )


def _by_printed(headings: list[Heading], number: str, among: list[Heading] | None = None) -> Heading:
    """The heading printed with `number`, compared whole (`III-A` is never `VIII-A`; the
    outermost when several are); a Roman number and its Arabic value, and REVTeX's `V.B` and
    `5.2`, name the same section when the paper prints no number the reader's way. Only the
    headings `among` are candidates when given; the error lists every number printed."""
    matches = numbers.matching(number, headings if among is None else among, lambda h: h.printed)
    if matches:
        return min(matches, key=lambda h: h.level)
    printed = list(dict.fromkeys(h.printed for h in headings if h.printed))
    if not printed:
        raise InvalidInput(
            f'this paper prints no section numbers, so there is no section "{number}": pass a heading '
            'name, or section:N for the N-th entry of section="outline".'
        )
    shown = ", ".join(printed[:_LISTED_NUMBERS]) + (" …" if len(printed) > _LISTED_NUMBERS else "")
    outline_s = re.fullmatch(r"S(\d+)", number)
    hint = f" (the outline's [s{outline_s.group(1)}] is section:{outline_s.group(1)})" if outline_s else ""
    raise InvalidInput(
        f'this paper has no {"section" if among is None else "appendix"} numbered "{number}"{hint}. Its section '
        f"numbers: {shown}. Pass one of them, a heading name, or section:N for the N-th entry of "
        'section="outline".'
    )


def _by_name(headings: list[Heading], wanted: str) -> Heading:
    key = _fold(wanted)
    numbered_key = (_leading_number(wanted), _fold(_LEADING_NUMBER_RE.sub("", wanted)))
    full = [_fold(h.title) for h in headings]
    bare = [_fold(_LEADING_NUMBER_RE.sub("", h.title)) for h in headings]
    numbers = [_leading_number(h.title) for h in headings]
    tiers = (
        [h for h, title in zip(headings, full) if title == key],
        [
            h
            for h, title, number in zip(headings, bare, numbers)
            if key == title or (numbered_key[0] is not None and numbered_key == (number, title))
        ],
        [h for h, title in zip(headings, full) if _at_word_start(key, title)],
    )
    for matches in tiers:
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise InvalidInput(_ambiguous_message(wanted, matches))
    raise InvalidInput(_unknown_message(wanted, headings))


def _at_word_start(key: str, title: str) -> bool:
    """`key` is in `title` from the start of a word (`intro` in "1 Introduction"; `va` is not in
    "Data availability")."""
    start = title.find(key)
    while start >= 0:
        if start == 0 or not title[start - 1].isalnum():
            return True
        start = title.find(key, start + 1)
    return False


def _by_appendix(headings: list[Heading], number: str) -> Heading:
    """`Appendix B`: an appendix printed `B`, never section 2 (nor `Appendix I` section 1)."""
    roman = any(len(head) > 1 and numbers.roman_value(head) for head in _heads(headings))
    return _by_printed(headings, number, among=[h for h in headings if _is_appendix(h, roman)])


def _heads(headings: list[Heading]) -> set[str]:
    return {h.printed.split(".")[0].casefold() for h in headings if h.printed}


def _is_appendix(heading: Heading, roman_paper: bool) -> bool:
    """An appendix: titled so, or numbered with a letter (`B`, `C.1`), which in a paper that
    numbers its sections in Roman (`II`, `IV`) is no `I`, `V`, `X`, `L` or `C`."""
    head = (heading.printed or "").split(".")[0].casefold()
    letter = head.isalpha() and not (roman_paper and numbers.roman_value(head) is not None)
    return heading.title.casefold().startswith("appendix") or letter


def is_named(heading: Heading, wanted: str) -> bool:
    """Whether `wanted` is the heading's whole name (with or without its number), not a part of it."""
    key = _fold(wanted)
    return key in (_fold(heading.title), _fold(_LEADING_NUMBER_RE.sub("", heading.title)))


def _fold(title: str) -> str:
    """A heading as compared: case folded, whitespace collapsed, each word singular."""
    return " ".join(singular(word) for word in title.casefold().split())


def _leading_number(title: str) -> str | None:
    match = _LEADING_NUMBER_RE.match(title)
    return match.group(0).strip().rstrip(".").casefold() if match else None


def _ambiguous_message(wanted: str, matches: list[Heading]) -> str:
    lines = [f"section:{h.number} {h.title}" for h in matches[:_LISTED_CANDIDATES]]
    if len(matches) > _LISTED_CANDIDATES:
        lines.append(f"… and {len(matches) - _LISTED_CANDIDATES} more")
    return f'section "{wanted}" matches {len(matches)} headings; pass one of these as section:\n' + "\n".join(lines)


def _unknown_message(wanted: str, headings: list[Heading]) -> str:
    top = min(h.level for h in headings)
    shown = [h for h in headings if h.level <= top + 1] or headings
    lines = [f"section:{h.number} {h.title}" for h in shown[:_LISTED_HEADINGS]]
    if len(headings) > len(lines):
        lines.append(f"… {len(headings)} headings in all")
    return (
        f'no heading matches "{wanted}". Some of this paper\'s headings:\n'
        + "\n".join(lines)
        + '\nCall with section="outline" to list every heading, then pass its name, number or "section:N".'
    )
