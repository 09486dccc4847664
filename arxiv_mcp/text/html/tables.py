"""Tables in LaTeXML HTML: data tables as `| a | b |` rows, equation tables as `$$...$$` lines.

LaTeXML lays out numbered equations and aligned equation groups as tables too
(`ltx_equation`, `ltx_equationgroup`, `ltx_eqn_table`); those rows become display math with
their number, while data tables keep their cells. A tabular inside a sentence is read as
words in it, and a table inside a cell, item, caption or note is read inline.
"""

from __future__ import annotations

from ..document import Equation
from .floats import Floats
from .flow import Flow
from .parts import (
    CAPTION,
    CELL,
    EQ_CELL,
    EQ_NUMBER,
    EQ_ROW,
    EQ_UNIT,
    INLINE_TABLE,
    ROW,
    TABLE,
    Block,
    Frame,
    Sink,
    collapse,
)

_EQUATION_TABLE_CLASSES = frozenset(("ltx_equation", "ltx_equationgroup", "ltx_eqn_table"))
_MAX_SPAN = 1000  # colspan/rowspan beyond this is hostile, not a table
_MAX_COLUMNS = 1000

Attributes = dict[str, str | None]
Cell = tuple[str, int, int, bool]  # text, colspan, rowspan, header


class _EqRow:
    __slots__ = ("latex", "number", "block", "rendered")

    def __init__(self, latex: str, number: str, block: Block | None, rendered: str) -> None:
        self.latex = latex
        self.number = number
        self.block = block  # the paragraph it was written as, when it is one
        self.rendered = rendered  # its text as written


class _EqUnit:
    """An equation table, or one `tbody` of an equation group: one equation unless several
    of its rows carry numbers (an `align` numbering each line)."""

    __slots__ = ("anchor", "first", "rows")

    def __init__(self, anchor: str | None, first: int) -> None:
        self.anchor = anchor
        self.first = first
        self.rows: list[_EqRow] = []


class _TableState:
    __slots__ = ("equations", "sink_depth", "rows", "row", "caption", "cells", "grid", "unit")

    def __init__(self, equations: bool, sink_depth: int) -> None:
        self.equations = equations
        self.sink_depth = sink_depth  # the sink depth the table opened at: its own rows and cells are there
        self.rows: list[str] = []
        self.row: list[str] | None = None
        self.caption = ""
        self.cells: list[Cell] = []  # the open row's cells with their spans
        self.grid: list[list[Cell]] = []
        self.unit: _EqUnit | None = None


class Tables:
    """Opens and closes tables, rows, cells, captions and equation rows."""

    def __init__(self, flow: Flow, floats: Floats) -> None:
        self._flow = flow
        self._floats = floats
        self._tables: list[_TableState] = []
        self._units: list[_EqUnit] = []
        self._inline: _TableState | None = None  # an inline tabular of a table float, read for its cells

    # --- starts (each returns whether it took the element) ----------------------------------

    def start_table(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        flow = self._flow
        if not classes.isdisjoint(_EQUATION_TABLE_CLASSES):
            flow.boundary()
            table = _TableState(True, len(flow.sinks))
            table.unit = _EqUnit(attributes.get("id"), len(flow.blocks))
            self._units.append(table.unit)
            self._tables.append(table)
            flow.push(Frame(tag, TABLE))
        elif tag == "table" and sink is flow.flow:
            flow.flush()
            self._tables.append(_TableState(False, len(flow.sinks)))
            flow.push(Frame(tag, TABLE))
        elif sink is flow.flow:  # LaTeXML's inline <span class="ltx_tabular"> inside a sentence
            flow.push_sink(tag, INLINE_TABLE)
            if self._inline is None and self._floats.in_table():  # read as words, but its cells are the table's
                self._inline = _TableState(False, len(flow.sinks))
                flow.stack[-1].state = self._inline
        else:  # a table inside a cell, list item, caption or note is read inline
            flow.block(tag)
        return True

    def start_body(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        """A `tbody` with an id in an equation group is one equation of it."""
        flow = self._flow
        table = self._tables[-1] if self._tables else None
        if table is None or not table.equations or len(flow.sinks) != table.sink_depth or not attributes.get("id"):
            return False
        flow.block(tag)
        unit = _EqUnit(attributes.get("id"), len(flow.blocks))
        self._units.append(unit)
        flow.stack[-1].kind, flow.stack[-1].state = EQ_UNIT, unit
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
        elif self._inline is not None and len(flow.sinks) == self._inline.sink_depth:
            flow.block(tag)
            self._inline.row = []
            flow.stack[-1].kind, flow.stack[-1].state = ROW, self._inline
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
                sink.index += 1
                flow.push(Frame(tag, EQ_CELL))
        elif table is not None and not table.equations and table.row is not None and depth == table.sink_depth:
            cell = flow.push_sink(tag, CELL)
            cell.depth = _span(attributes.get("colspan"))
            cell.index = _span(attributes.get("rowspan"))
            cell.ordered = tag == "th" or "ltx_th" in classes
        elif self._inline is not None and self._inline.row is not None and depth == self._inline.sink_depth:
            flow.boundary()
            inline, spans = self._inline, (_span(attributes.get("colspan")), _span(attributes.get("rowspan")))
            header = tag == "th" or "ltx_th" in classes
            self._floats.tap(tag, lambda text: self._inline_cell(inline, (text, spans[0], spans[1], header)))
        else:
            flow.block(tag)
        return True

    def _inline_cell(self, table: _TableState, cell: Cell) -> None:
        if table.row is not None:
            table.row.append(cell[0])
            table.cells.append(cell)
        self._flow.boundary()

    def start_caption(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        if self._tables and len(self._flow.sinks) == self._tables[-1].sink_depth:
            self._flow.push_sink(tag, CAPTION)
            return True
        return False

    # --- ends -----------------------------------------------------------------------------

    def close_table(self, frame: Frame) -> None:
        table = self._tables.pop()
        if table.equations:
            if table.unit is not None and self._units and self._units[-1] is table.unit:
                self._close_unit(self._units.pop())
            return
        if table.row is not None:
            self._end_row(table)
        if table.caption:
            self._flow.emit(Block.PARA, table.caption)
        if table.rows:
            self._flow.emit(Block.LINES, "\n".join(table.rows))
        if table.grid:
            self._floats.table_rows(*_spread(table.grid))

    def close_body(self, frame: Frame) -> None:
        self._flow.boundary()
        if self._units and self._units[-1] is frame.state:
            self._close_unit(self._units.pop())

    def _close_unit(self, unit: _EqUnit) -> None:
        numbered = [row for row in unit.rows if row.number]
        if len(numbered) == 1:
            latex = " \\\\ ".join(row.latex for row in unit.rows if row.latex)
            record = Equation(_equation_number(numbered[0].number), latex, unit.anchor)
            if all(row.block is not None for row in unit.rows):
                self._flow.group(unit.first, record)
            else:
                self._place(numbered[0], record)
            return
        for row in numbered:
            self._place(row, Equation(_equation_number(row.number), row.latex, unit.anchor))

    def _place(self, row: _EqRow, record: Equation) -> None:
        """A numbered row written as its own paragraph is that equation's block; one written
        inside a list item or note is marked where its text stands."""
        if row.block is not None:
            self._flow.wrap(row.block, record)
        elif row.rendered:
            self._flow.inline.append((row.rendered, record))

    def close_row(self, frame: Frame) -> None:
        if isinstance(frame.state, _TableState):
            self._end_row(frame.state)
            if frame.state is self._inline:
                self._flow.boundary()

    def close_cell(self, frame: Frame, sink: Sink) -> None:
        table = self._tables[-1] if self._tables else None
        if table is not None and table.row is not None:
            text = sink.text()
            table.row.append(text.replace("|", "\\|"))
            table.cells.append((text, sink.depth, sink.index, sink.ordered))

    def close_caption(self, frame: Frame, sink: Sink) -> None:
        if self._tables:
            self._tables[-1].caption = sink.text()

    def close_number(self, frame: Frame, sink: Sink) -> None:
        parent = self._flow.sinks[-1]
        if parent.kind == EQ_ROW:
            parent.number = sink.text()

    def close_inline(self, frame: Frame, sink: Sink) -> None:
        self._flow.sinks[-1].parts.append(f" {sink.text()} ")
        table = frame.state
        if isinstance(table, _TableState) and table is self._inline:
            self._inline = None
            if table.row is not None:
                self._end_row(table)
            if table.grid:
                self._floats.table_rows(*_spread(table.grid))

    def close_equation_row(self, frame: Frame, sink: Sink) -> None:
        flow = self._flow
        rendered = _render_equation_row(sink)
        block = None
        parent = flow.sinks[-1]
        if not rendered:
            pass
        elif parent is flow.flow:
            flow.flush()
            flow.emit(Block.PARA, rendered)
            block = flow.blocks[-1]
        else:
            parent.parts.append(f" {rendered} ")
        if self._units:
            self._units[-1].rows.append(_EqRow(_row_latex(sink), sink.number, block, rendered))

    @staticmethod
    def _end_row(table: _TableState) -> None:
        cells = table.row or []
        table.row = None
        if any(cells):
            table.rows.append("| " + " | ".join(cells) + " |")
            table.grid.append(table.cells)
        table.cells = []


def _span(value: str | None) -> int:
    try:
        return max(1, min(_MAX_SPAN, int(value or 1)))
    except ValueError:
        return 1


def _spread(grid: list[list[Cell]]) -> tuple[list[tuple[str, ...]], int]:
    """The rows with every spanned cell repeated over the cells it covers, and how many
    leading rows are header rows (all their filled cells are header cells)."""
    rows: list[tuple[str, ...]] = []
    pending: dict[int, tuple[str, int]] = {}  # column -> (text, rows still covered) from a rowspan above
    header_rows = 0
    counting_header = True
    for cells in grid:
        row: list[str] = []
        queue = iter(cells)
        cell = next(queue, None)
        while (cell is not None or (pending and max(pending) >= len(row))) and len(row) < _MAX_COLUMNS:
            column = len(row)
            if column in pending:
                text, left = pending.pop(column)
                row.append(text)
                if left > 1:
                    pending[column] = (text, left - 1)
            elif cell is None:
                row.append("")
            else:
                text, colspan, rowspan, _header = cell
                for offset in range(min(colspan, _MAX_COLUMNS - column)):
                    row.append(text)
                    if rowspan > 1:
                        pending[column + offset] = (text, rowspan - 1)
                cell = next(queue, None)
        rows.append(tuple(row))
        filled = [cell for cell in cells if cell[0]]
        if counting_header and filled and all(cell[3] for cell in filled):
            header_rows += 1
        else:
            counting_header = False
    return rows, header_rows or _spanned_head(grid, len(rows))


def _spanned_head(grid: list[list[Cell]], height: int) -> int:
    """Header rows of a table whose markup marks none: a first row with a cell spanning
    columns (`BLEU` over EN-DE and EN-FR) or rows heads the table down to where its row spans
    end (LaTeXML guesses only row headers there), when a body row is left below."""
    first = grid[0] if grid else []
    if not any(colspan > 1 or rowspan > 1 for _, colspan, rowspan, _ in first):
        return 0
    head = max(rowspan for _, _, rowspan, _ in first)
    return head if head < height else 0


def _row_latex(sink: Sink) -> str:
    """An equation row's LaTeX: each alignment cell's `alttext` as the page has it, cells joined by `&`."""
    cells: dict[int, list[str]] = {}
    for index, alttext in sink.raw:
        cells.setdefault(index, []).append(alttext)
    return " & ".join(" ".join(parts) for parts in cells.values())


def _equation_number(printed: str) -> str:
    return collapse(printed).strip().removeprefix("(").removesuffix(")").strip()


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
