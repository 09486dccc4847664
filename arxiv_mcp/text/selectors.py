"""What `read_paper(section=...)` shows: the outline, a section, or a figure, table, equation
or bibliography entry as the paper prints its label, and lists of each.

Every view is a pure function of a `Document`, read in one pass over its blocks (no
extraction, no request), so a structural view of a cached paper costs about what a page
does. A selector is read in a fixed order: `outline`, a list name (`figures`, `tables`,
`equations`, `references`), a figure / table / equation / citation label, a cite key the
bibliography uses, then a section (a printed number, `section:N`, or a name; `outline.py`).
A label the paper does not have is an error that lists the labels it has.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import InvalidInput
from ..models import EquationItem, FigureItem, Mention, ReferenceItem, TableItem, item
from . import cited, numbers, untyped
from .document import Block, Document, Equation, Figure, Kind, Reference, Table
from .outline import is_named, render_outline, select_section
from .places import Places, reference_label, section_words

_LIST_CHARS = 200
_MENTION_CHARS = 300
_MAX_MENTIONS = 20
_MAX_SELECTOR = 500
_PRINTED = r"(?P<n>(?:[A-Z]{1,2}[.\-]?)?\d+(?:[.\-]\d+)*|[IVXLC]+)"
_SUPPLEMENT_WORDS = r"supplementary|supplemental|suppl?\.?|extended\s+data"
_SUPPLEMENT = rf"(?:(?P<supp>{_SUPPLEMENT_WORDS})\s+)?"
_PART = r"(?:\(?(?P<sub>[a-z])\)?|\(?(?P<part>(?:top|bottom|upper|lower|left|right|middle|cent(?:er|re)|inset)(?:[\s-]+[a-z]+){0,2})\)?)?"
_FIGURE_RE = re.compile(rf"{_SUPPLEMENT}(?:fig(?:ure)?s?\.?)\s*{_PRINTED}\s*{_PART}", re.IGNORECASE)
_TABLE_RE = re.compile(rf"{_SUPPLEMENT}(?:tab(?:le)?s?\.?)\s*{_PRINTED}\s*{_PART}", re.IGNORECASE)
_EQUATION_NUMBER = r"(?:[A-Z]{1,2}[.\-]?)?\d+(?:[.\-]\d+)*[a-z]?"
_EQUATION_RE = re.compile(
    rf"(?:(?:eqn?s?|equations?)\.?\s*)?\(\s*(?P<p>{_EQUATION_NUMBER})\s*\)"
    rf"|(?:eqn?s?|equations?)\.?\s*(?P<n>{_EQUATION_NUMBER})",
    re.IGNORECASE,
)
_NUMBER_AHEAD = r"\.?\s*(?:[\d(]|(?-i:[A-Z]{1,4}\b|[A-Z][.\-]?\d))"
_KIND_WORDS = {
    Figure: re.compile(rf"(?:(?:{_SUPPLEMENT_WORDS})\\s+)?fig(?:ure)?s?{_NUMBER_AHEAD}", re.IGNORECASE),
    Table: re.compile(rf"(?:(?:{_SUPPLEMENT_WORDS})\\s+)?tab(?:le)?s?{_NUMBER_AHEAD}", re.IGNORECASE),
    Equation: re.compile(rf"(?:eqn?s?|equations?){_NUMBER_AHEAD}", re.IGNORECASE),
}
"""A selector starting with a kind's word and a number-like character is read as that kind,
even in a form the patterns above do not know: it gets that kind's error, never a heading's."""
_LISTS = {"figures": "figures", "tables": "tables", "equations": "equations", "references": "references"}
_LISTS |= {"bibliography": "references", "figure": "figures", "table": "tables", "equation": "equations"}
_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\\$])")


@dataclass
class Selection:
    """One view: its label (what `PaperText.section` says), its text, and its records."""

    label: str
    text: str
    figures: list[FigureItem] = field(default_factory=list)
    tables: list[TableItem] = field(default_factory=list)
    equations: list[EquationItem] = field(default_factory=list)
    references: list[ReferenceItem] = field(default_factory=list)

    def items(self) -> list[dict[str, Any]]:
        """Its records as structured content."""
        records: list[FigureItem | TableItem | EquationItem | ReferenceItem] = [*self.figures, *self.tables]
        return [item(r) for r in records + [*self.equations, *self.references]]


FigureUri = Callable[[str], str]
"""The resource URI of a figure's image, given the figure's number."""


Selector = Callable[[Places, str, FigureUri], "Selection | None"]
"""One kind of selector: its view when the selector is of that kind, else None."""


def select(doc: Document, selector: str, figure_uri: FigureUri) -> Selection:
    """The view `selector` names: the first kind of `SELECTORS` that reads it."""
    wanted = " ".join(selector.split())
    numbers.refuse_long_digits(wanted)
    if len(wanted) > _MAX_SELECTOR:
        raise InvalidInput(
            f"section is {len(wanted):,} characters long; no heading, label or number is: pass a "
            'heading name, a printed number ("4.2", "Figure 3", "[12]"), or section="outline".'
        )
    places = _places(doc)
    for _, view in SELECTORS:
        selection = view(places, wanted, figure_uri)
        if selection is not None:
            return selection
    raise AssertionError("the section selector reads every selector")


def _outline_view(places: Places, wanted: str, figure_uri: FigureUri) -> Selection | None:
    if wanted.casefold() != "outline":
        return None
    return Selection("outline", render_outline(places.headings) + "\n\n" + counts_line(places.doc))


def _list_view(places: Places, wanted: str, figure_uri: FigureUri) -> Selection | None:
    which = _LISTS.get(wanted.casefold())
    return None if which is None else _list(places, which, figure_uri)


def _figure_view(places: Places, wanted: str, figure_uri: FigureUri) -> Selection | None:
    match = _FIGURE_RE.fullmatch(wanted)
    if match:
        return _figure(places, match, figure_uri)
    return _unknown_form(places, wanted, Figure)


def _table_view(places: Places, wanted: str, figure_uri: FigureUri) -> Selection | None:
    match = _TABLE_RE.fullmatch(wanted)
    if match:
        return _table(places, match)
    return _unknown_form(places, wanted, Table)


def _equation_view(places: Places, wanted: str, figure_uri: FigureUri) -> Selection | None:
    match = _EQUATION_RE.fullmatch(wanted)
    if match:
        return _equation(places, match)
    return _unknown_form(places, wanted, Equation)


def _untyped_view(places: Places, wanted: str, figure_uri: FigureUri) -> Selection | None:
    untyped.refuse(places.doc.text, wanted)
    return None


def _reference_view(places: Places, wanted: str, figure_uri: FigureUri) -> Selection | None:
    try:
        found = cited.entries(places.doc, wanted)
    except InvalidInput:
        if cited.author_year(wanted) is not None:  # "COVID 2019" may be a heading's name
            section = _section_by_name_or_none(places, wanted)
            if section is not None:
                return section
        raise
    return None if found is None else _references(places, found)


def _section_view(places: Places, wanted: str, figure_uri: FigureUri) -> Selection:
    kind = untyped.plural_kind(wanted)
    if kind is not None:
        selection = _section_by_name_or_none(places, wanted)
        if selection is None:
            raise untyped.refuse_list(places.doc.text, kind)
        return selection
    heading, text = select_section(places.doc, wanted, places.headings)
    return Selection(f"section:{heading.number} {heading.title}", text)


def _section_by_name_or_none(places: Places, wanted: str) -> Selection | None:
    """The section whose whole name `wanted` is, else None (`"theorems"` is not the section
    "Proof of the theorems": a part of a name is no answer for another kind's selector)."""
    try:
        heading, text = select_section(places.doc, wanted, places.headings)
    except InvalidInput:
        return None
    return Selection(f"section:{heading.number} {heading.title}", text) if is_named(heading, wanted) else None


SELECTORS: tuple[tuple[str, Selector], ...] = (
    ("outline", _outline_view),
    ("list", _list_view),
    ("figure", _figure_view),
    ("table", _table_view),
    ("equation", _equation_view),
    ("untyped", _untyped_view),
    ("reference", _reference_view),
    ("section", _section_view),
)
"""The kinds of selector, in the order they are tried: the first that reads a selector views
it. A number-like selector of a kind (`"Figure 3-5"`, `"Theorem 2"`) stops at its kind, with
that kind's error; only what no kind reads goes on to the sections."""


_KEPT: list[tuple[Document, Places]] = []
_KEPT_LOCK = threading.Lock()


def _places(doc: Document) -> Places:
    """The look-ups of a document, kept for the last few documents (the reader keeps the
    documents of the papers being read, and one paper is asked view after view)."""
    with _KEPT_LOCK:
        for kept, places in _KEPT:
            if kept is doc:
                return places
    places = Places(doc)
    with _KEPT_LOCK:
        _KEPT.insert(0, (doc, places))
        del _KEPT[8:]
    return places


def counts_line(doc: Document) -> str:
    """`9 figures, 4 tables, 31 numbered equations, 58 references`, and how to ask for each."""
    kinds = Counter(type(block.record) for block in doc.blocks)
    counts = [
        (kinds[Figure], "figure", '"Figure 3"'),
        (kinds[Table], "table", '"Table 2"'),
        (kinds[Equation], "numbered equation", '"Eq. (7)"'),
        (kinds[Reference], "reference", '"[12]"'),
    ]
    said = ", ".join(f"{n} {noun}{'' if n == 1 else 's'}" for n, noun, _ in counts)
    asks = [ask for n, _, ask in counts if n]
    how = (
        f'Read one with section={" / ".join(asks)}, list them with section="figures" (tables, equations, references).'
        if asks
        else "This text marks none of them."
    )
    return f'{said}. {how} A section: its printed number (section="4.2", "Appendix B"), its name, or [sN] as section:N.'


# --- lists ---------------------------------------------------------------------------------


def _list(places: Places, which: str, figure_uri: FigureUri) -> Selection:
    doc = places.doc
    lines: list[str] = []
    selection = Selection(which, "")
    wanted = {"figures": Figure, "tables": Table, "equations": Equation, "references": Reference}[which]
    for block in doc.blocks:
        record = block.record
        if not isinstance(record, wanted):
            continue
        heading = places.section(block.start)
        section = heading.title if heading else None
        where = f" ({section_words(heading)})" if heading else ""
        if which == "figures" and isinstance(record, Figure):
            selection.figures.append(_figure_item(record, section, figure_uri))
            lines.append(f"{record.label}{where}: {_short(record.caption)}")
        elif which == "tables" and isinstance(record, Table):
            selection.tables.append(_table_item(record, section))
            lines.append(f"{record.label}{where}: {_short(record.caption)}")
        elif which == "equations" and isinstance(record, Equation):
            selection.equations.append(EquationItem(record.number, record.latex, section))
            lines.append(f"({record.number}){where}: {_short(record.latex)}")
        elif which == "references" and isinstance(record, Reference):
            reference = _reference_item(record)
            selection.references.append(reference)
            lines.append(_reference_line(record, reference.text))
    if not lines:
        try:  # a text that marks none may still have a section of that name ("References")
            heading, text = select_section(doc, which, places.headings)
        except InvalidInput:
            raise InvalidInput(_none_marked(which)) from None
        return Selection(f"section:{heading.number} {heading.title}", text)
    selection.text = f"{len(lines)} {which}:\n" + "\n".join(lines)
    return selection


def _none_marked(which: str) -> str:
    return (
        f"this paper's text marks no {which} (the source it was read from may not mark them): "
        'use find_in_paper to look for them, or section="outline" for its sections.'
    )


def _short(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _LIST_CHARS else flat[: _LIST_CHARS - 1].rstrip() + "…"


def _reference_line(reference: Reference, flat: str | None = None) -> str:
    """`[12] The entry. [arXiv:...; doi:...]`; `flat` is the entry's text on one line when known."""
    flat = " ".join(reference.text.split()) if flat is None else flat
    ids = [f"arXiv:{reference.arxiv_id}" if reference.arxiv_id else "", f"doi:{reference.doi}" if reference.doi else ""]
    extra = "; ".join(i for i in ids if i)
    return f"{reference_label(reference)} {flat}" + (f" [{extra}]" if extra else "")


# --- one figure, table, equation ---------------------------------------------------------


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
        return _none_marked(_NOUNS[kind] + "s")
    return "It has: " + ", ".join(have[:40]) + (" …" if len(have) > 40 else "") + "."


def _unknown_form(places: Places, wanted: str, kind: type[Figure | Table | Equation]) -> Selection | None:
    """None, unless `wanted` starts like that kind (`Figure 3-5`): then that kind's error."""
    if not _KIND_WORDS[kind].match(wanted):
        return None
    noun = _NOUNS[kind]
    raise InvalidInput(
        f'"{wanted}" reads as a {noun} in a form this reader does not know: name one {noun} as '
        f'"{_ASK[kind]}". {_have(places, kind)}'
    )


_ASK = {Figure: "Figure 3", Table: "Table 2", Equation: "Eq. (7)"}


def _figure(places: Places, match: re.Match[str], figure_uri: FigureUri) -> Selection:
    block, figure = _find(places, Figure, match.group("n"), match.group("supp"))
    assert isinstance(figure, Figure)
    section = places.section_name(block.start)
    item = _figure_item(figure, section, figure_uri)
    item.mentions = _mentions(places, block, _figure_mention_starts(places.doc.text, figure.number))
    wanted_sub = (match.group("sub") or "").lower()
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
    lines += _mention_lines(item.mentions)
    return Selection(figure.label + (f"({wanted_sub})" if wanted_sub else ""), "\n".join(lines), figures=[item])


def _figure_item(figure: Figure, section: str | None, figure_uri: FigureUri) -> FigureItem:
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
    block, table = _find(places, Table, match.group("n"), match.group("supp"))
    assert isinstance(table, Table)
    item = _table_item(table, places.section_name(block.start))
    caption = f"{table.label}: {table.caption}"
    if table.approximate or not table.rows:
        body = places.doc.text[block.start : block.end]
        lines = [] if " ".join(table.caption.split())[:60] in " ".join(body.split()) else [caption, ""]
        if table.approximate:
            lines.append("(approximate: the lines recovered from the PDF's layout)")
        lines.append(body)
    else:
        lines = [caption, "", markdown_grid(table)]
    part = match.group("sub") or match.group("part")
    if part:
        lines.append(f"\n(the table's part ({part}) is not marked apart: the whole table is above)")
    return Selection(table.label, "\n".join(lines).strip(), tables=[item])


def _table_item(table: Table, section: str | None) -> TableItem:
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
            return sentence if len(sentence) <= _MENTION_CHARS else "…" + sentence[-_MENTION_CHARS:]
        if previous.kind is not Kind.EQUATION:
            return None
    return None


# --- references ----------------------------------------------------------------------------


def _references(places: Places, references: list[Reference]) -> Selection:
    """Each entry named, with the passages citing it (one answer per entry)."""
    views = [_reference(places, reference) for reference in references]
    if len(views) == 1:
        return views[0]
    label = "references " + ", ".join(reference_label(r) for r in references)
    text = "\n\n".join(view.text for view in views)
    return Selection(label, text, references=[item for view in views for item in view.references])


def _reference(places: Places, reference: Reference) -> Selection:
    item = _reference_item(reference)
    targets = {t for t in (reference.key, reference.label) if t}
    first_in_block: dict[int, int] = {}
    for citation in places.doc.citations:
        if targets & set(citation.targets):
            block = places.block(citation.start)
            first_in_block.setdefault(block.start if block else citation.start, citation.start)
    item.mentions = [_mention(places, offset) for offset in list(first_in_block.values())[:_MAX_MENTIONS]]
    lines = [_reference_line(reference)] + _mention_lines(item.mentions, "Cited in")
    return Selection(f"reference {reference_label(reference)}", "\n".join(lines), references=[item])


def _reference_item(reference: Reference) -> ReferenceItem:
    return ReferenceItem(reference.label, " ".join(reference.text.split()), reference.arxiv_id, reference.doi)


# --- mentions ------------------------------------------------------------------------------


def _mentions(places: Places, own: Block, starts: list[int]) -> list[Mention]:
    """Passages outside `own` where a mention starts (at `starts`, in order), one per block."""
    seen: dict[int, Mention] = {}
    text = places.doc.text
    for start in starts:
        if own.start <= start < own.end or (start and text[start - 1].isalnum()):
            continue
        block = places.block(start)
        if block is None or block.kind not in (Kind.PARAGRAPH, Kind.LIST) or block.start in seen:
            continue
        seen[block.start] = _mention(places, start)
        if len(seen) >= _MAX_MENTIONS:
            break
    return list(seen.values())


def _mention(places: Places, offset: int) -> Mention:
    block = places.block(offset)
    start, end = (block.start, block.end) if block else (max(0, offset - 150), offset + 150)
    text = places.doc.text
    if end - start > _MENTION_CHARS:
        first, last = start, end
        start = max(first, offset - _MENTION_CHARS // 2)
        end = min(last, start + _MENTION_CHARS)
        start = max(first, end - _MENTION_CHARS)
    snippet = " ".join(text[start:end].split())
    if block and start > block.start:
        snippet = "…" + snippet
    if block and end < block.end:
        snippet += "…"
    return Mention(places.section_name(offset), snippet)


def _mention_lines(mentions: list[Mention], title: str = "Referred to in") -> list[str]:
    if not mentions:
        return []
    lines = ["", f"{title} {len(mentions)} passage{'s' if len(mentions) != 1 else ''}:"]
    lines += [f"- ({m.section or 'no section'}) {m.text}" for m in mentions]
    return lines
