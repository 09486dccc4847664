"""One figure, table or numbered equation as the paper prints its label, in every form a
reader writes it: `Figure 3`, `Fig. 3(b)`, `Fig. 3 (left)`, `Fig. S2`, `Supplementary Figure
S1`, `Table 2(a)`, `TABLE II`, `Eq. (7)`, `(A.2)`, `Eq. (B.3)`, `(2.5)` for (2.5a) and (2.5b).

Numbers are compared whole (`numbers.matching`). A selector that starts with a kind's word and a
number in a form not understood (`Figure 3-5`) is that kind's error, listing what the paper
has of that kind; an item the paper lacks is an error listing the ones it has.
"""

from __future__ import annotations

import re

from ..errors import InvalidInput
from ..models import EquationItem, FigureItem, TableItem
from . import labels, numbers
from .document import Block, Equation, Figure, Kind, Table
from .places import Places, section_words
from .selection import MENTION_CHARS, FigureUri, Selection, mention_lines, mentions, named_section, none_marked

_PRINTED = r"(?P<n>(?:[A-Z]{1,2}[.\-]?)?\d+(?:[.\-]\d+)*|[IVXLC]+)"
_SUPPLEMENT_WORDS = r"supplementary|supplemental|suppl?\.?|extended\s+data"
_SUPPLEMENT = rf"(?:(?P<supp>{_SUPPLEMENT_WORDS})\s+)?"
_PART = r"(?:\(?(?P<sub>[a-z])\)?|\(?(?P<part>(?:top|bottom|upper|lower|left|right|middle|cent(?:er|re)|inset)(?:[\s-]+[a-z]+){0,2})\)?)?"
_FIGURE_RE = re.compile(rf"{_SUPPLEMENT}(?:{labels.FIGURE_NAMED})\s*{_PRINTED}\s*{_PART}\.?", re.IGNORECASE)
_TABLE_RE = re.compile(rf"{_SUPPLEMENT}(?:{labels.TABLE_NAMED})\s*{_PRINTED}\s*{_PART}\.?", re.IGNORECASE)
_EQUATION_NUMBER = r"(?:[A-Z]{1,2}[.\-]?)?\d+(?:[.\-]\d+)*[a-z]?"
_EQUATION_RE = re.compile(
    rf"(?:(?:eqn?s?|equations?)\.?\s*)?\(\s*(?P<p>{_EQUATION_NUMBER})\s*\)"
    rf"|(?:eqn?s?|equations?)\.?\s*(?P<n>{_EQUATION_NUMBER})\.?",
    re.IGNORECASE,
)
_NUMBER_AHEAD = r"\.?\s*(?:[\d(]|(?-i:[A-Z]{1,4}\b|[A-Z][.\-]?\d))"
_KIND_WORDS = {
    Figure: re.compile(rf"(?:(?:{_SUPPLEMENT_WORDS})\s+)?fig(?:ure)?s?{_NUMBER_AHEAD}", re.IGNORECASE),
    Table: re.compile(rf"(?:(?:{_SUPPLEMENT_WORDS})\s+)?tab(?:le)?s?{_NUMBER_AHEAD}", re.IGNORECASE),
    Equation: re.compile(rf"(?:eqn?s?|equations?){_NUMBER_AHEAD}", re.IGNORECASE),
}
"""A selector starting with a kind's word and a number-like character is read as that kind,
even in a form the patterns above do not know: it gets that kind's error, never a heading's."""
_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\\$])")


def figure_view(places: Places, wanted: str, figure_uri: FigureUri) -> Selection | None:
    match = _FIGURE_RE.fullmatch(wanted)
    if match:
        return _figure(places, match, figure_uri)
    return _unknown_form(places, wanted, Figure)


def table_view(places: Places, wanted: str, figure_uri: FigureUri) -> Selection | None:
    match = _TABLE_RE.fullmatch(wanted)
    if match:
        return _table(places, match)
    return _unknown_form(places, wanted, Table)


def equation_view(places: Places, wanted: str, figure_uri: FigureUri) -> Selection | None:
    match = _EQUATION_RE.fullmatch(wanted)
    if match:
        return _equation(places, match)
    return _unknown_form(places, wanted, Equation)


_NOUNS = {Figure: "figure", Table: "table", Equation: "numbered equation"}


def _find(
    places: Places, kind: type[Figure | Table | Equation], number: str, supplement: str | None = None
) -> tuple[Block, Figure | Table | Equation]:
    """The item printed with `number`, compared whole (`numbers.matching`: `1` and `I` name
    the same one in a paper that numbers only one way, as REVTeX prints TABLE I). With a
    `supplement` word (`Supplementary Figure 1`, `Fig. S1`), only supplementary items count."""
    blocks = [b for b in places.doc.blocks if isinstance(b.record, kind)]
    pool = [b for b in blocks if _supplementary(b.record)] if supplement else blocks
    wanted = [number] + (["S" + number] if supplement and not number[:1].isalpha() else [])
    for key in wanted:
        found = numbers.matching(key, pool, lambda b: getattr(b.record, "number", None))
        if found:
            record = found[0].record
            assert isinstance(record, Figure | Table | Equation)
            return found[0], record
    raise InvalidInput(_missing(places, kind, number, supplement))


def _supplementary(record: object) -> bool:
    label = getattr(record, "label", "").casefold()
    printed = numbers.tokens(getattr(record, "number", ""))
    return label.startswith(("supp", "extended")) or (len(printed) > 1 and printed[0] == "s")


def _missing(places: Places, kind: type[Figure | Table | Equation], number: str, supplement: str | None) -> str:
    """`this paper has no figure "9". It has: Figure 1, ...` (or that its text marks none)."""
    have = _have(places, kind)
    noun = ("supplementary " if supplement else "") + _NOUNS[kind]
    return have if have.startswith("this paper's text") else f'this paper has no {noun} "{number}". {have}'


def _have(places: Places, kind: type[Figure | Table | Equation]) -> str:
    have = [r.label if not isinstance(r, Equation) else f"({r.number})" for r in places.doc.records(kind)]
    if not have:
        return none_marked(_NOUNS[kind] + "s")
    return "It has: " + ", ".join(have[:40]) + (" …" if len(have) > 40 else "") + "."


def _unknown_form(places: Places, wanted: str, kind: type[Figure | Table | Equation]) -> Selection | None:
    """None, unless `wanted` starts like that kind (`Figures 2 and 3`): then the heading of
    that whole name if there is one, else that kind's error."""
    if not _KIND_WORDS[kind].match(wanted):
        return None
    section = named_section(places, wanted)  # a heading named "Table A summary" is that heading
    if section is not None:
        return section
    noun = _NOUNS[kind]
    raise InvalidInput(
        f'"{wanted}" reads as a {noun} in a form this reader does not know: name one {noun} as '
        f'"{_ASK[kind]}". {_have(places, kind)}'
    )


_ASK = {Figure: "Figure 3", Table: "Table 2", Equation: "Eq. (7)"}


def _numbered_with_part(
    places: Places, kind: type[Figure | Table], match: re.Match[str]
) -> tuple[Block, Figure | Table, str]:
    """The item and the part asked of it; an item printed with the letter (`Table 2a` as its
    own float) is that item, with no part."""
    number, sub = match.group("n"), match.group("sub") or ""
    if sub and numbers.matching(number + sub, places.doc.records(kind), lambda r: r.number):
        block, record = _find(places, kind, number + sub, match.group("supp"))
        return block, record, ""  # type: ignore[return-value]
    block, record = _find(places, kind, number, match.group("supp"))
    return block, record, sub.lower()  # type: ignore[return-value]


def _figure(places: Places, match: re.Match[str], figure_uri: FigureUri) -> Selection:
    block, figure, wanted_sub = _numbered_with_part(places, Figure, match)
    assert isinstance(figure, Figure)
    section = places.section_name(block.start)
    item = figure_item(figure, section, figure_uri)
    item.mentions = mentions(places, block, _figure_mention_starts(places.doc.text, figure.number))
    panel = next((s for s in figure.subfigures if s.letter.lower() == wanted_sub and s.images), None)
    if panel is not None:
        item.image_uri = figure_uri(figure.number + panel.letter)
    lines = [f"{figure.label}: {figure.caption}"]
    for sub in figure.subfigures:
        marker = "→ " if sub.letter.lower() == wanted_sub else ""
        lines.append(f"{marker}({sub.letter}) {sub.caption}")
    if wanted_sub and not any(s.letter.lower() == wanted_sub for s in figure.subfigures):
        lines.append(f"(this figure marks no subfigure ({wanted_sub}); the caption above may describe it)")
    if match.group("part"):
        lines.append(f"(the figure's {match.group('part')} part is not marked apart; the caption above describes it)")
    if item.image_uri:
        lines.append(f"Image: {item.image_uri} (read it as a resource)")
    lines += mention_lines(item.mentions)
    return Selection(figure.label + (f"({wanted_sub})" if wanted_sub else ""), "\n".join(lines), figures=[item])


def figure_item(figure: Figure, section: str | None, figure_uri: FigureUri) -> FigureItem:
    has_image = bool(figure.images) or any(s.images for s in figure.subfigures)
    return FigureItem(
        label=figure.label,
        number=figure.number,
        caption=figure.caption,
        section=section,
        image_uri=figure_uri(figure.number) if has_image else None,
        subfigures=[f"({s.letter}) {s.caption}" for s in figure.subfigures],
    )


def _figure_mention_starts(text: str, number: str) -> list[int]:
    """Where "Figure 3", "Fig. 3", "FIG. 3", "figs. 3" start. Scanned as two patterns that each
    begin with a literal ("ig", "IG"), which the regex engine finds with a fast search; one
    pattern of cased alternatives tests every position, about 5x slower over a paper."""
    tail = rf"\.?[\s~]*{re.escape(number)}(?!\d|\.\d)"
    starts = [
        m.start() - 1 for m in re.finditer(rf"ig(?:ure)?s?{tail}", text) if text[m.start() - 1 : m.start()] in "Ff"
    ]
    starts += [
        m.start() - 1 for m in re.finditer(rf"IG(?:URE)?S?{tail}", text) if text[m.start() - 1 : m.start()] == "F"
    ]
    return sorted(start for start in starts if start >= 0)


def _table(places: Places, match: re.Match[str]) -> Selection:
    block, table, sub = _numbered_with_part(places, Table, match)
    assert isinstance(table, Table)
    item = table_item(table, places.section_name(block.start))
    caption = f"{table.label}: {table.caption}"
    if table.approximate or not table.rows:
        body = places.doc.text[block.start : block.end]
        lines = [] if " ".join(table.caption.split())[:60] in " ".join(body.split()) else [caption, ""]
        if table.approximate:
            lines.append("(approximate: the lines recovered from the PDF's layout)")
        lines.append(body)
    else:
        lines = [caption, "", markdown_grid(table)]
    part = sub or match.group("part")
    if part:
        lines.append(f"\n(the table's part ({part}) is not marked apart: the whole table is above)")
    return Selection(table.label, "\n".join(lines).strip(), tables=[item])


def table_item(table: Table, section: str | None) -> TableItem:
    rows = [list(row) for row in table.rows]
    return TableItem(
        label=table.label,
        number=table.number,
        caption=table.caption,
        section=section,
        header=rows[: table.header_rows],
        rows=rows[table.header_rows :],
        approximate=table.approximate,
    )


def markdown_grid(table: Table) -> str:
    """The rows as a Markdown table, headed by the header rows merged column by column
    (`BLEU / EN-DE`: Markdown has one header row), else by the first row."""
    width = max(len(row) for row in table.rows)
    rows = [[_cell(c) for c in row] + [""] * (width - len(row)) for row in table.rows]
    split = max(1, min(table.header_rows, len(rows) - 1))
    head = [" / ".join(dict.fromkeys(row[i] for row in rows[:split] if row[i])) for i in range(width)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * width]
    lines += ["| " + " | ".join(row) + " |" for row in rows[split:]]
    return "\n".join(lines)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _equation(places: Places, match: re.Match[str]) -> Selection:
    """One numbered equation; a number printed only with letters (`2.5` of `(2.5a)`, `(2.5b)`,
    as `subequations` numbers) gives each of its parts."""
    number = match.group("p") or match.group("n")
    try:
        found = [_find(places, Equation, number)[0]]
    except InvalidInput:
        key = numbers.tokens(number)
        found = [
            b
            for b in places.doc.blocks
            if isinstance(b.record, Equation)
            and (parts := numbers.tokens(b.record.number))[:-1] == key
            and parts[-1].isalpha()
            and len(parts[-1]) == 1
        ]
        if not found:
            raise
    views = [_one_equation(places, block) for block in found]
    label = "Eq. " + ", ".join(f"({item.number})" for view in views for item in view.equations)
    return Selection(label, "\n\n".join(v.text for v in views), equations=[e for v in views for e in v.equations])


def _one_equation(places: Places, block: Block) -> Selection:
    equation = block.record
    assert isinstance(equation, Equation)
    heading = places.section(block.start)
    context = _introduction(places, block)
    item = EquationItem(equation.number, equation.latex, heading.title if heading else None, context)
    lines = [f"Equation ({equation.number})" + (f", {section_words(heading)}" if heading else "")]
    if context:
        lines.append(f"Introduced by: {context}")
    lines += ["", "$$", equation.latex, "$$"]
    return Selection(f"Eq. ({equation.number})", "\n".join(lines), equations=[item])


def _introduction(places: Places, block: Block) -> str | None:
    """The last sentence of the paragraph just before an equation (its introduction)."""
    index = places.block_index(block)
    while index > 0:
        index -= 1
        previous = places.doc.blocks[index]
        if previous.kind is Kind.PARAGRAPH:
            text = " ".join(places.doc.text[previous.start : previous.end].split())
            sentence = _SENTENCE_END_RE.split(text)[-1]
            return sentence if len(sentence) <= MENTION_CHARS else "…" + sentence[-MENTION_CHARS:]
        if previous.kind is not Kind.EQUATION:
            return None
    return None
