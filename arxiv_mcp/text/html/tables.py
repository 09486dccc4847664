"""Tables in LaTeXML HTML: data tables as `| a | b |` rows, equation tables as `$$...$$` lines.

LaTeXML lays out numbered equations and aligned equation groups as tables too
(`ltx_equation`, `ltx_equationgroup`, `ltx_eqn_table`); those rows become display math with
their number, while data tables keep their cells. A tabular inside a sentence is read as
words in it, and a table inside a cell, item, caption or note is read inline.
"""

from __future__ import annotations

from .flow import Flow
from .parts import (
    CAPTION,
    CELL,
    EQ_CELL,
    EQ_NUMBER,
    EQ_ROW,
    INLINE_TABLE,
    ROW,
    TABLE,
    Block,
    Frame,
    Sink,
    collapse,
)

_EQUATION_TABLE_CLASSES = frozenset(("ltx_equation", "ltx_equationgroup", "ltx_eqn_table"))

Attributes = dict[str, str | None]


class _TableState:
    __slots__ = ("equations", "sink_depth", "rows", "row", "caption")

    def __init__(self, equations: bool, sink_depth: int) -> None:
        self.equations = equations
        self.sink_depth = sink_depth  # the sink depth the table opened at: its own rows and cells are there
        self.rows: list[str] = []
        self.row: list[str] | None = None
        self.caption = ""


class Tables:
    """Opens and closes tables, rows, cells, captions and equation rows."""

    def __init__(self, flow: Flow) -> None:
        self._flow = flow
        self._tables: list[_TableState] = []

    # --- starts (each returns whether it took the element) ----------------------------------

    def start_table(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        flow = self._flow
        if not classes.isdisjoint(_EQUATION_TABLE_CLASSES):
            flow.boundary()
            self._tables.append(_TableState(True, len(flow.sinks)))
            flow.push(Frame(tag, TABLE))
        elif tag == "table" and sink is flow.flow:
            flow.flush()
            self._tables.append(_TableState(False, len(flow.sinks)))
            flow.push(Frame(tag, TABLE))
        elif sink is flow.flow:  # LaTeXML's inline <span class="ltx_tabular"> inside a sentence
            flow.push_sink(tag, INLINE_TABLE)
        else:  # a table inside a cell, list item, caption or note is read inline
            flow.block(tag)
        return True

    def start_row(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        flow = self._flow
        table = self._tables[-1] if self._tables else None
        if table is not None and len(flow.sinks) == table.sink_depth:
            if table.equations:
                flow.push_sink(tag, EQ_ROW)
            else:
                table.row = []
                flow.push(Frame(tag, ROW, state=table))
        else:
            flow.block(tag)
        return True

    def start_cell(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        flow = self._flow
        table = self._tables[-1] if self._tables else None
        depth = len(flow.sinks)
        if table is not None and table.equations and sink.kind == EQ_ROW and depth == table.sink_depth + 1:
            if "ltx_eqn_eqno" in classes:
                flow.push_sink(tag, EQ_NUMBER)
            else:
                sink.parts.append(" ")
                flow.push(Frame(tag, EQ_CELL))
        elif table is not None and not table.equations and table.row is not None and depth == table.sink_depth:
            flow.push_sink(tag, CELL)
        else:
            flow.block(tag)
        return True

    def start_caption(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        if self._tables and len(self._flow.sinks) == self._tables[-1].sink_depth:
            self._flow.push_sink(tag, CAPTION)
            return True
        return False

    # --- ends -----------------------------------------------------------------------------

    def close_table(self, frame: Frame) -> None:
        table = self._tables.pop()
        if table.equations:
            return
        if table.row is not None:
            self._end_row(table)
        if table.caption:
            self._flow.emit(Block.PARA, table.caption)
        if table.rows:
            self._flow.emit(Block.LINES, "\n".join(table.rows))

    def close_row(self, frame: Frame) -> None:
        if isinstance(frame.state, _TableState):
            self._end_row(frame.state)

    def close_cell(self, frame: Frame, sink: Sink) -> None:
        table = self._tables[-1] if self._tables else None
        if table is not None and table.row is not None:
            table.row.append(sink.text().replace("|", "\\|"))

    def close_caption(self, frame: Frame, sink: Sink) -> None:
        if self._tables:
            self._tables[-1].caption = sink.text()

    def close_number(self, frame: Frame, sink: Sink) -> None:
        parent = self._flow.sinks[-1]
        if parent.kind == EQ_ROW:
            parent.number = sink.text()

    def close_inline(self, frame: Frame, sink: Sink) -> None:
        self._flow.sinks[-1].parts.append(f" {sink.text()} ")

    def close_equation_row(self, frame: Frame, sink: Sink) -> None:
        flow = self._flow
        rendered = _render_equation_row(sink)
        if not rendered:
            return
        parent = flow.sinks[-1]
        if parent is flow.flow:
            flow.flush()
            flow.emit(Block.PARA, rendered)
        else:
            parent.parts.append(f" {rendered} ")

    @staticmethod
    def _end_row(table: _TableState) -> None:
        cells = table.row or []
        table.row = None
        if any(cells):
            table.rows.append("| " + " | ".join(cells) + " |")


def _render_equation_row(sink: Sink) -> str:
    """An equation row: runs of display math as one `$$...$$`, text cells between, then its number."""
    segments = list(sink.segments)
    if sink.parts:
        segments.append((False, "".join(sink.parts)))
    pieces: list[str] = []
    run: list[str] = []
    for is_math, text in segments:
        if is_math:
            run.append(text)
            continue
        text = collapse(text)
        if not text:
            continue
        if run:
            pieces.append("$$" + " ".join(run) + "$$")
            run = []
        pieces.append(text)
    if run:
        pieces.append("$$" + " ".join(run) + "$$")
    if not pieces:
        return ""
    if sink.number:
        pieces.append(sink.number)
    return " ".join(pieces)
