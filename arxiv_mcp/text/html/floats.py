"""What readers point at in LaTeXML HTML: figures, tables, printed numbers and citations.

A figure or table float (`ltx_figure`, `ltx_table`) opens a group over the blocks it writes;
when it closes, those blocks become one block carrying its record: the label and number
its caption tag prints (`Figure 3:` -> `Figure 3`, `3`), the caption without that tag, the
images' `src`, a figure's lettered panels as subfigures, a table's cells by row (from
`tables`). A panel inside a float gives its caption and images to the float; a numbered
float inside an unnumbered one (two tables side by side) keeps its own record.

Printed labels are read on the side by a tap sink, whose text also goes on to its parent,
so the page's text is written exactly as without them: a heading's `ltx_tag` is its
printed number, a float caption's tag is the float's label. A citation (`ltx_cite`) is the
text it prints and the `#bib...` ids its links point to; it is attached to the block it is
written in, and the document places it there by its text.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..document import Algorithm, Figure, Subfigure, Table
from .flow import Flow
from .parts import FLOAT, FLOAT_CAPTION, HEADING, TAP, Block, Frame, Sink, collapse

Attributes = dict[str, str | None]

_MAX_IMAGES = 64  # per float: a figure is a few images, never thousands
_MAX_ROWS = 5000  # per table record
_LETTER_RE = re.compile(r"^\(?([a-zA-Z]{1,2}|[ivx]{1,4})[).:]?$")
_NUMBER_WORDS_RE = re.compile(r"^(?:appendix|section|chapter|part|§)\s*", re.IGNORECASE)


ALGORITHM_CLASSES = ("ltx_float_algorithm", "ltx_float_listing", "ltx_lstlisting")
"""LaTeXML's algorithm and code listing floats (`algorithm`, minted's `listing`, a captioned
`lstlisting`): their record is an `Algorithm`, the caption's tag its label, the lines their code."""


class _Float:
    __slots__ = (
        "table",
        "algorithm",
        "panel",
        "first",
        "tag",
        "caption",
        "caption_blocks",
        "images",
        "subfigures",
        "rows",
        "header_rows",
        "anchor",
    )

    def __init__(self, table: bool, panel: bool, first: int, anchor: str | None, algorithm: bool = False) -> None:
        self.table = table
        self.algorithm = algorithm
        self.caption_blocks = (0, 0)
        self.panel = panel
        self.first = first
        self.anchor = anchor
        self.tag = ""
        self.caption = ""
        self.images: list[str] = []
        self.subfigures: list[Subfigure] = []
        self.rows: list[tuple[str, ...]] = []
        self.header_rows = 0


class Floats:
    """Opens and closes floats, their captions and tags, heading tags and citations."""

    def __init__(self, flow: Flow) -> None:
        self._flow = flow
        self._floats: list[_Float] = []
        self._cites: list[list[str]] = []  # the link targets of each open citation

    # --- starts (each returns whether it took the element) ----------------------------------

    def start_float(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        table = "ltx_table" in classes
        # a float's class, not a listing's own (`<div class="ltx_listing ltx_lstlisting">`)
        algorithm = not classes.isdisjoint(ALGORITHM_CLASSES) and (tag == "figure" or "ltx_float" in classes)
        if not (table or algorithm or "ltx_figure" in classes):
            return False
        flow = self._flow
        flow.block(tag)
        panel = "ltx_figure_panel" in classes or bool(self._floats)
        state = _Float(table, panel, len(flow.blocks), attributes.get("id"), algorithm and not table)
        self._floats.append(state)
        flow.stack[-1].kind, flow.stack[-1].state = FLOAT, state
        return True

    def start_caption(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        if tag != "figcaption" or not self._floats:
            return False
        flow = self._flow
        flow.block(tag)
        flow.stack[-1].kind, flow.stack[-1].state = FLOAT_CAPTION, len(flow.blocks)
        return True

    def start_tag(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        """A printed number: a heading's, or the label of the innermost float's caption."""
        if sink.kind == HEADING and not sink.number:
            self.tap(tag, self._heading_number)
            return True
        if (
            self._floats
            and not self._floats[-1].tag
            and not classes.isdisjoint(("ltx_tag_figure", "ltx_tag_table", "ltx_tag_float"))
        ):
            self.tap(tag, self._float_tag)
            return True
        return False

    def start_cite(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        targets: list[str] = []
        self._cites.append(targets)
        self.tap(tag, lambda printed: self._cited(printed, targets))
        return True

    def link(self, attributes: Attributes) -> None:
        """An `<a>`: inside a citation, the entry it points to."""
        if self._cites:
            href = attributes.get("href") or ""
            fragment = href.rpartition("#")[2] if "#" in href else ""
            if fragment and len(self._cites[-1]) < 100:
                self._cites[-1].append(fragment)

    def image(self, attributes: Attributes) -> None:
        src = attributes.get("src")
        if self._floats and src and len(self._floats[-1].images) < _MAX_IMAGES:
            self._floats[-1].images.append(src)

    def in_table(self) -> bool:
        return any(state.table for state in self._floats)

    def table_rows(self, rows: list[tuple[str, ...]], header_rows: int) -> None:
        """A data table's cells read inside the innermost table float."""
        for state in reversed(self._floats):
            if state.table:
                if not state.rows:
                    state.header_rows = header_rows
                state.rows.extend(rows[: max(0, _MAX_ROWS - len(state.rows))])
                return

    # --- ends -----------------------------------------------------------------------------

    def close_tap(self, frame: Frame, sink: Sink) -> None:
        parent = self._flow.sinks[-1]
        parent.parts.extend(sink.parts)
        if callable(frame.state):
            frame.state(sink.text())

    def close_caption(self, frame: Frame) -> None:
        flow = self._flow
        flow.boundary()
        first = frame.state if isinstance(frame.state, int) else len(flow.blocks)
        if self._floats and not self._floats[-1].caption:
            self._floats[-1].caption = " ".join(block.text for block in flow.blocks[first:])
            self._floats[-1].caption_blocks = (first, len(flow.blocks))

    def close_float(self, frame: Frame) -> None:
        flow = self._flow
        flow.boundary()
        state = self._floats.pop()
        outer = self._floats[-1] if self._floats else None
        label, number = _label(state.tag)
        caption = _caption(state.caption, state.tag)
        letter = _LETTER_RE.match(label) if label and " " not in label else None
        if outer is not None and (not label or letter or state.panel and not number):
            outer.images.extend(state.images[: max(0, _MAX_IMAGES - len(outer.images))])
            if letter and not outer.table:
                outer.subfigures.append(Subfigure(letter.group(1), caption, tuple(state.images)))
            if state.table:
                outer.rows.extend(state.rows)
            return
        if state.algorithm:
            self._close_algorithm(state, label, number, caption)
            return
        if not number:
            return
        record: Figure | Table
        if state.table:
            record = Table(label, number, caption, tuple(state.rows), state.header_rows, anchor=state.anchor)
        else:
            record = Figure(label, number, caption, tuple(state.subfigures), tuple(state.images), state.anchor)
        flow.group(state.first, record)

    def _close_algorithm(self, state: _Float, label: str, number: str, caption: str) -> None:
        """An algorithm or listing float: its code is every block it wrote but its caption."""
        if not label:
            return
        flow = self._flow
        first, end = state.caption_blocks
        code = [
            block.text
            for index, block in enumerate(flow.blocks[state.first :], state.first)
            if not first <= index < end and block.kind in (Block.LINES, Block.PARA)
        ]
        word = label[: -len(number)].strip() if number and label.endswith(number) else label
        record = Algorithm(word or "Algorithm", number or None, caption, "\n".join(code), state.anchor)
        flow.group(state.first, record)

    # --- taps -----------------------------------------------------------------------------

    def tap(self, tag: str, done: Callable[[str], None]) -> None:
        """Capture an element's text on the side; it still goes on to the sink around it."""
        self._flow.push_sink(tag, TAP)
        self._flow.stack[-1].state = done

    def _heading_number(self, printed: str) -> None:
        sink = self._flow.sinks[-1]
        if sink.kind == HEADING:
            sink.number = _NUMBER_WORDS_RE.sub("", printed).rstrip(".:").strip()

    def _float_tag(self, printed: str) -> None:
        if self._floats:
            self._floats[-1].tag = printed

    def _cited(self, printed: str, targets: list[str]) -> None:
        if self._cites and self._cites[-1] is targets:
            self._cites.pop()
        if printed and targets:
            self._flow.inline.append((printed, tuple(dict.fromkeys(targets))))


def _label(tag: str) -> tuple[str, str]:
    """`Figure 3:` -> (`Figure 3`, `3`); `(b)` -> (`(b)`, `b`); `` -> (``, ``)."""
    label = collapse(tag).rstrip(":.").strip()
    if not label:
        return "", ""
    number = label.split()[-1].strip("()")
    return label, number


def _caption(text: str, tag: str) -> str:
    """The caption as printed without its label (`Figure 3: A plot` -> `A plot`)."""
    printed = collapse(tag)
    text = collapse(text)
    if printed and text.startswith(printed):
        text = text[len(printed) :]
    return text.lstrip(" :.").strip() if printed else text
