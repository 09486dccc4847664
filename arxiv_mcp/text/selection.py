"""A view of a paper's structure (`Selection`: a label, its text, its records) and the
passages that mention an item, shared by the views of items (`items.py`) and of the
bibliography and lists (`selectors.py`).

A mention is the passage (one per block, at most 20) where an item is named, cut to about
300 characters around the name, with the section it is in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import InvalidInput
from ..models import EquationItem, FigureItem, Mention, ReferenceItem, TableItem, item
from ..words import counted
from .document import Block, Kind
from .outline import is_named, select_section
from .places import Places

MENTION_CHARS = 300
MAX_MENTIONS = 20


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


def none_marked(which: str) -> str:
    return (
        f"this paper's text marks no {which} (the source it was read from may not mark them): "
        'use find_in_paper to look for them, or section="outline" for its sections.'
    )


def mentions(places: Places, own: Block, starts: list[int]) -> list[Mention]:
    """Passages outside `own` where a mention starts (at `starts`, in order), one per block."""
    seen: dict[int, Mention] = {}
    text = places.doc.text
    for start in starts:
        if own.start <= start < own.end or (start and text[start - 1].isalnum()):
            continue
        block = places.block(start)
        if block is None or block.kind not in (Kind.PARAGRAPH, Kind.LIST) or block.start in seen:
            continue
        seen[block.start] = mention(places, start)
        if len(seen) >= MAX_MENTIONS:
            break
    return list(seen.values())


def mention(places: Places, offset: int) -> Mention:
    block = places.block(offset)
    start, end = (block.start, block.end) if block else (max(0, offset - 150), offset + 150)
    text = places.doc.text
    if end - start > MENTION_CHARS:
        first, last = start, end
        start = max(first, offset - MENTION_CHARS // 2)
        end = min(last, start + MENTION_CHARS)
        start = max(first, end - MENTION_CHARS)
    snippet = " ".join(text[start:end].split())
    if block and start > block.start:
        snippet = "…" + snippet
    if block and end < block.end:
        snippet += "…"
    return Mention(places.section_name(offset), snippet)


def mention_lines(mentions: list[Mention], title: str = "Referred to in") -> list[str]:
    if not mentions:
        return []
    lines = ["", f"{title} {counted(len(mentions), 'passage')}:"]
    lines += [f"- ({m.section or 'no section'}) {m.text}" for m in mentions]
    return lines


def named_section(places: Places, wanted: str, whole: bool = True) -> Selection | None:
    """The section `wanted` names, else None; with `whole`, only a section whose whole name it
    is, so another kind's selector never answers with a part of a name (`"theorems"` is not the
    section "Proof of the theorems", nor `"Smith 2020"` a section "Comparison with Smith 2020"
    when Smith is an author the paper cites)."""
    try:
        heading, text = select_section(places.doc, wanted, places.headings)
    except InvalidInput:
        return None
    if whole and not is_named(heading, wanted):
        return None
    return Selection(f"section:{heading.number} {heading.title}", text)
