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
from . import links
from .document import Block, Document, Equation, Figure, Kind, Reference, Table
from .outline import other_numeral, render_outline, select_section
from .places import Places, reference_label, section_words

_LIST_CHARS = 200
_MENTION_CHARS = 300
_MAX_MENTIONS = 20
_NUMBER = r"(?P<n>[A-Z]?\d+(?:\.\d+)*|[IVXLC]+)"
_FIGURE_RE = re.compile(rf"(?:fig(?:ure)?s?\.?)\s*{_NUMBER}\s*(?:\(?(?P<sub>[a-z])\)?)?", re.IGNORECASE)
_TABLE_RE = re.compile(rf"(?:tab(?:le)?s?\.?)\s*{_NUMBER}", re.IGNORECASE)
_EQUATION_RE = re.compile(
    r"(?:(?:eqn?s?|equations?)\.?\s*)?\(\s*(?P<p>[A-Z]?\d+(?:\.\d+)*[a-z]?)\s*\)"
    r"|(?:eqn?s?|equations?)\.?\s*(?P<n>[A-Z]?\d+(?:\.\d+)*[a-z]?)",
    re.IGNORECASE,
)
_REFERENCE_RE = re.compile(r"\[\s*(?P<b>[^\]]+?)\s*\]|(?:ref(?:erence)?s?\.?)\s*\[?(?P<n>[\w.:+-]+)\]?", re.IGNORECASE)
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
    links: list[dict[str, str]] = field(default_factory=list)

    def items(self) -> list[dict[str, Any]]:
        """Its records as structured content."""
        records: list[FigureItem | TableItem | EquationItem | ReferenceItem] = [*self.figures, *self.tables]
        return [item(r) for r in records + [*self.equations, *self.references]] + list(self.links)


FigureUri = Callable[[str], str]
"""The resource URI of a figure's image, given the figure's number."""


def select(doc: Document, selector: str, figure_uri: FigureUri, own_id: str | None = None) -> Selection:
    """`own_id`: the paper's id, so `links` leaves out the paper's own arXiv page."""
    wanted = " ".join(selector.split())
    key = wanted.casefold()
    places = _places(doc)
    if key == "outline":
        return Selection("outline", render_outline(places.headings) + "\n\n" + counts_line(doc))
    if key == "links":  # every URL of the text by kind: text/links.py
        text, found = links.view(doc, own_id)
        return Selection("links", text, links=found)
    if key in _LISTS:
        return _list(places, _LISTS[key], figure_uri)
    for pattern, view in ((_FIGURE_RE, _figure), (_TABLE_RE, _table), (_EQUATION_RE, _equation)):
        match = pattern.fullmatch(wanted)
        if match:
            return view(places, match, figure_uri)
    match = _REFERENCE_RE.fullmatch(wanted)
    reference = _reference_by_key(doc, wanted)
    if match or reference:
        return _reference(places, reference or _reference_by_label(doc, match))
    heading, text = select_section(doc, wanted, places.headings)
    return Selection(f"section:{heading.number} {heading.title}", text)


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


def _find(places: Places, kind: type[Figure | Table | Equation], number: str) -> tuple[Block, object]:
    """The item printed with `number`; `1` and `I` name the same one in a paper that numbers
    only one way (REVTeX prints TABLE I)."""
    for key in (number, other_numeral(number)):
        for block in places.doc.blocks:
            record = block.record
            if key and isinstance(record, kind) and isinstance(record, Figure | Table | Equation):
                if record.number.casefold() == key.casefold():
                    return block, record
    have = [r.label if not isinstance(r, Equation) else f"({r.number})" for r in places.doc.records(kind)]
    noun = {Figure: "figure", Table: "table", Equation: "numbered equation"}[kind]
    if not have:
        raise InvalidInput(_none_marked(noun + "s"))
    shown = ", ".join(have[:40]) + (" …" if len(have) > 40 else "")
    raise InvalidInput(f'this paper has no {noun} "{number}". It has: {shown}.')


def _figure(places: Places, match: re.Match[str], figure_uri: FigureUri) -> Selection:
    block, figure = _find(places, Figure, match.group("n"))
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


def _table(places: Places, match: re.Match[str], figure_uri: FigureUri) -> Selection:
    block, table = _find(places, Table, match.group("n"))
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
    """The rows as a Markdown table: the first header row (else the first row) heads it."""
    width = max(len(row) for row in table.rows)
    rows = [[_cell(c) for c in row] + [""] * (width - len(row)) for row in table.rows]
    head = rows[0]
    body = rows[1:]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * width]
    lines += ["| " + " | ".join(row) + " |" for row in body]
    return "\n".join(lines)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _equation(places: Places, match: re.Match[str], figure_uri: FigureUri) -> Selection:
    block, equation = _find(places, Equation, match.group("p") or match.group("n"))
    assert isinstance(equation, Equation)
    section = places.section_name(block.start)
    context = _introduction(places, block)
    item = EquationItem(equation.number, equation.latex, section, context)
    lines = [f"Equation ({equation.number})" + (f", {section_words(places.section(block.start))}" if section else "")]  # type: ignore[arg-type]
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


def _reference_by_key(doc: Document, wanted: str) -> Reference | None:
    """The entry whose cite key is `wanted`, or whose author-year label it is (`Teyssier (2002)`)."""
    folded = " ".join(wanted.split()).casefold()
    for reference in doc.records(Reference):
        if (reference.key and reference.key == wanted) or (
            not reference.label.isdigit() and " ".join(reference.label.split()).casefold() == folded
        ):
            return reference
    return None


def _reference_by_label(doc: Document, match: re.Match[str] | None) -> Reference:
    assert match is not None
    label = (match.group("b") or match.group("n")).strip()
    references = doc.records(Reference)
    for reference in references:
        if label.casefold() in (reference.label.strip("[] ").casefold(), (reference.key or "").casefold()):
            return reference
    if not references:
        raise InvalidInput(_none_marked("references"))
    labels = [reference_label(r) for r in references]
    shown = ", ".join(labels[:40]) + (" …" if len(labels) > 40 else "")
    raise InvalidInput(
        f'this paper has no reference "{label}". Its references: {shown}. section="references" lists them.'
    )


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
