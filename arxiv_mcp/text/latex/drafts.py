"""Figures, tables, equations and bibliography entries as the walk finds them, before the end.

A draft is mutable because the walk learns a float's parts out of order (images before the
caption, the \\label after it, subfigures' captions before the figure's number) and its text
still holds the placeholders `references.Labels` resolves once every \\label and \\bibitem is
known; `finish` makes the Document's frozen record from it then.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..bibids import arxiv_id_in, doi_in, eprint_id
from ..document import Equation, Figure, Kind, Record, Reference, Subfigure, Table
from .numbering import STYLES
from .sinks import Block, Grid, Sink


@dataclass
class SubDraft:
    caption: str = ""
    images: list[str] = field(default_factory=list)


@dataclass
class Draft:
    kind: Kind
    number: str = ""
    label: str = ""
    """As printed before the caption (`Fig. 3`)."""
    caption: str = ""
    images: list[str] = field(default_factory=list)
    subfigures: list[SubDraft] = field(default_factory=list)
    grid: Grid | None = None
    latex: str = ""
    anchor: str | None = None
    links: list[str] = field(default_factory=list)
    """Link targets in a bibliography entry (not printed, but they may state its arXiv id)."""
    eprint: str = ""
    key: str = ""
    """A bibliography entry's cite key."""


def rendered_caption(draft: Draft) -> str:
    """What the text shows for a float: `Figure 3: caption`, then `(a) ...` per subfigure."""
    lines = [f"{draft.label}: {draft.caption}" if draft.caption else draft.label]
    lines += [f"({STYLES['alph'](k)}) {sub.caption}" for k, sub in enumerate(draft.subfigures, 1) if sub.caption]
    return "\n".join(lines)


_ENTRY_LABEL_RE = re.compile(r"\A\s*\[[^\]]*\]\s*")


def finish(draft: Draft, plain: Callable[[str], str], entry_label: Callable[[str], str], text: str) -> Record:
    """The record of a draft; `plain` resolves placeholders, `text` is the block's resolved text."""
    if draft.kind is Kind.FIGURE:
        subfigures = tuple(
            Subfigure(STYLES["alph"](k), plain(sub.caption), tuple(sub.images))
            for k, sub in enumerate(draft.subfigures, 1)
        )
        images = tuple(draft.images) or tuple(image for sub in subfigures for image in sub.images)
        return Figure(draft.label, draft.number, plain(draft.caption), subfigures, images, draft.anchor)
    if draft.kind is Kind.TABLE:
        grid = draft.grid or Grid((), 0)
        rows = tuple(tuple(plain(cell) for cell in row) for row in grid.rows)
        return Table(draft.label, draft.number, plain(draft.caption), rows, grid.header_rows, False, draft.anchor)
    if draft.kind is Kind.EQUATION:
        return Equation(draft.number, draft.latex, draft.anchor)
    entry = " ".join(_ENTRY_LABEL_RE.sub("", text, count=1).split())
    stated = " ".join([entry, *draft.links])
    # an eprint field, a link whose whole target is an id (`\\url{1207.7214}`), or one the text states
    linked = next((found for link in draft.links if (found := eprint_id(link))), None)
    arxiv_id = (eprint_id(draft.eprint) if draft.eprint else None) or linked or arxiv_id_in(stated)
    return Reference(entry_label(draft.key), entry, draft.key, arxiv_id, doi_in(stated))


@dataclass
class Float:
    kind: str  # figure, table
    outer: Sink  # where its blocks go when it closes
    collect: Sink = field(default_factory=Sink)
    images: list[str] = field(default_factory=list)  # since the last caption
    subs: list[SubDraft] = field(default_factory=list)
    sub: SubDraft | None = None  # the subfigure being read
    number: str = ""  # the float's number once its caption is read
    continued: bool = False  # \\ContinuedFloat: the caption repeats the previous float's number
    caption: tuple[str, Draft] | None = None  # the name its last numbered caption prints, and its draft
    grouped: Grouping | None = None  # what an algorithm float hands on of what it wrote (`algorithms`)


Grouping = Callable[[Float, list[Block]], list[Block]]
