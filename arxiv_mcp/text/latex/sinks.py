"""Where converted text goes: a paragraph sink, a sink that drops what it gets, a table's rows.

The engine writes into the sink on top of its stack; a handler pushes a fresh one to capture an
argument (a title, a caption) and reads it back flat when the argument closes. A block may carry
a record (`drafts.Draft`: a figure, table, equation or bibliography entry as the walk found it;
a table's `Grid`), which `document.render` turns into the Document's typed block.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple, TypeVar

from .source import LINE_BREAK

SinkT = TypeVar("SinkT", bound="Sink")


class Block(NamedTuple):
    """kind: h (heading), p, li, math, verb, table, caption; text as rendered (marks unresolved)."""

    kind: str
    text: str
    record: Any = None


def spaced(blocks: Iterable[Block]) -> Iterator[tuple[str, Block]]:
    """The blocks that print something, each with what the text puts before it: nothing before
    the first, a line break between two list items, a blank line between any others."""
    previous = None
    for block in blocks:
        if block.text.strip():
            yield "" if previous is None else "\n" if block.kind == "li" == previous else "\n\n", block
            previous = block.kind


def blocks_text(blocks: Iterable[Block]) -> str:
    """Blocks as the text shows them one after another (a float's blocks made one)."""
    return "".join(before + block.text for before, block in spaced(blocks))


# A space left after "(" by a dropped argument (`(\\bibinfo {year}\n{1980})`) is not in the print.
_OPEN_PAREN_SPACE_RE = re.compile(r"\( (?=\w)")


# a unit or word in upright math (`$\\text{GeV}$`); a one-letter symbol (`$\\mathrm{t}$`) stays math
_UPRIGHT_RE = re.compile(r"\s*\\(?:text|mathrm|textrm|mbox|rm)\s*\{([A-Za-z][A-Za-z .,/%-]*[A-Za-z])\}\s*")


def _finish(raw: str) -> str:
    lines = (_OPEN_PAREN_SPACE_RE.sub("(", " ".join(line.split())) for line in raw.split(LINE_BREAK))
    return "\n".join(line for line in lines if line)


class Sink:
    """Collects blocks; text is written into the current paragraph until par()."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.parts: list[str] = []
        self.marker = ""
        self.math_end = -1  # len(parts) right after the last inline math written
        self.entry: Any = None  # the bibliography entry the current paragraph is (a Draft)

    def write(self, text: str) -> None:
        self.parts.append(text)

    def write_math(self, latex: str) -> None:
        """Inline math; right after other math (`{$t$}{$\\bar t$}` from two macros) a space
        between, since `$a$$b$` reads as display math. Math that is only upright text (a unit
        macro's `$\\text{GeV}$`) is that text, as printed."""
        words = _UPRIGHT_RE.fullmatch(latex)
        if words:
            self.write(words.group(1))
            return
        if self.parts and self.parts[-1].endswith("$") and self.math_end == len(self.parts):
            self.write(" ")
        self.write(f"${latex}$")
        self.math_end = len(self.parts)

    def newline(self) -> None:
        self.parts.append(LINE_BREAK)

    def start_item(self, marker: str) -> None:
        self.par()
        self.marker = marker

    def par(self) -> None:
        text = _finish("".join(self.parts)) if self.parts else ""
        if text:
            self.blocks.append(Block("li", self.marker + text) if self.marker else Block("p", text, self.entry))
        self.parts = []
        self.marker = ""
        self.math_end = -1
        self.entry = None

    def block(self, kind: str, text: str, record: Any = None) -> None:
        self.par()
        self.blocks.append(Block(kind, text, record))

    def write_close(self, text: str) -> None:
        """Write `text` right after what is written, the spaces between dropped (a merged part's
        `;`); constant time amortized: each space-only part is dropped once."""
        while self.parts and not self.parts[-1].strip():
            self.parts.pop()
        if self.parts:
            self.parts[-1] = self.parts[-1].rstrip()
        self.write(text)

    def flat(self, separator: str = " ") -> str:
        """All collected text on one line; `\\` line breaks become `separator`."""
        self.par()
        return " ".join(separator.join(separator.join(b.text.split("\n")) for b in self.blocks).split())

    def flat_blocks(self) -> list[Block]:
        self.par()
        return list(self.blocks)


class Discard(Sink):
    def write(self, text: str) -> None:
        pass

    def newline(self) -> None:
        pass

    def block(self, kind: str, text: str, record: Any = None) -> None:
        pass


class Grid(NamedTuple):
    """A tabular's cells as printed, a spanned cell repeated over the cells it covers."""

    rows: tuple[tuple[str, ...], ...]
    header_rows: int


class TableSink(Sink):
    """Rows of a tabular: `&` ends a cell, `\\\\` ends a row. `rows` is the text as rendered (a
    spanned cell once); `grid` spreads \\multicolumn over its columns and \\multirow down its rows;
    rules (\\hline, \\midrule) are remembered by the row they follow, for the header."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.cells: list[str] = []
        self.grid: list[list[str]] = []  # one per row of `rows`, spans spread
        self.spans: list[int] | None = None  # columns each cell of the row covers, once one covers more
        self.span = 1  # columns the cell being written covers (\\multicolumn)
        self.down = 1  # rows it covers (\\multirow)
        self.columns = 1  # of the table as its spec gives them, when needed (deluxetable's \\cutinhead)
        # made when first needed (a document may nest thousands of tables): column -> (first grid
        # row covered, rows covered, text) of \\multirow cells; grid row counts where rules fall
        self.covered: dict[int, tuple[int, int, str]] | None = None
        self.rules: list[int] | None = None

    def par(self) -> None:
        self.parts.append(" ")

    def block(self, kind: str, text: str, record: Any = None) -> None:
        self.parts.append(" " + text + " ")

    def newline(self) -> None:
        self.end_row()

    def rule(self) -> None:
        if self.rules is None:
            self.rules = []
        self.rules.append(len(self.rows))

    def end_cell(self) -> None:
        cell = " ".join("".join(self.parts).replace(LINE_BREAK, " ").split())
        if self.span > 1 and self.spans is None:
            self.spans = [1] * len(self.cells)
        if self.spans is not None:
            self.spans.append(max(1, self.span))
        if self.down > 1 and cell:
            column = sum(self.spans) - self.spans[-1] if self.spans is not None else len(self.cells)
            if self.covered is None:
                self.covered = {}
            for k in range(self.span):
                self.covered[column + k] = (len(self.rows) + 1, self.down - 1, cell)
        self.cells.append(cell)
        self.parts = []
        self.span = self.down = 1

    def end_row(self) -> None:
        self.end_cell()
        if any(self.cells):
            spread = self.cells
            if self.spans is not None:
                spread = [cell for cell, span in zip(self.cells, self.spans) for _ in range(span)]
            self.grid.append(self._filled(list(spread)) if self.covered else spread)
            self.rows.append(self.cells)
        self.cells = []
        self.spans = None

    def _filled(self, row: list[str]) -> list[str]:
        """The row with the cells a \\multirow above covers holding its text."""
        if not self.covered:
            return row
        index = len(self.rows)
        for column, (first, left, text) in list(self.covered.items()):
            if first > index:
                continue  # the \\multirow's own row
            if column < len(row) and not row[column]:
                row[column] = text
                if left > 1:
                    self.covered[column] = (first, left - 1, text)
                    continue
            del self.covered[column]
        return row

    def plain(self) -> str:
        """A table nested in a table cell: its cells as words, so nesting cannot grow the text."""
        self.end_row()
        return " ".join(cell for row in self.rows for cell in row if cell)

    def render(self) -> str:
        self.end_row()
        return "\n".join("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in self.rows)

    def table(self) -> Grid:
        """The cells (after `render`) and how many rows the header is: those above the first rule
        below the top, when that rule leaves rows on both sides."""
        header = next((r for r in self.rules or () if 0 < r < len(self.rows)), 0)
        return Grid(tuple(tuple(row) for row in self.grid), header)
