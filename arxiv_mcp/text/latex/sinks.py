"""Where converted text goes: a paragraph sink, a sink that drops what it gets, a table's rows.

The engine writes into the sink on top of its stack; a handler pushes a fresh one to capture an
argument (a title, a caption) and reads it back flat when the argument closes.
"""

from __future__ import annotations

import re
from typing import TypeVar

from .source import LINE_BREAK

SinkT = TypeVar("SinkT", bound="Sink")
Block = tuple[str, str]  # (kind, text); kinds: h (heading), p, li, math, verb, table


# A space left after "(" by a dropped argument (`(\\bibinfo {year}\n{1980})`) is not in the print.
_OPEN_PAREN_SPACE_RE = re.compile(r"\( (?=\w)")


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

    def write(self, text: str) -> None:
        self.parts.append(text)

    def write_math(self, latex: str) -> None:
        """Inline math; right after other math (`{$t$}{$\\bar t$}` from two macros) a space
        between, since `$a$$b$` reads as display math."""
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
            self.blocks.append(("li", self.marker + text) if self.marker else ("p", text))
        self.parts = []
        self.marker = ""
        self.math_end = -1

    def block(self, kind: str, text: str) -> None:
        self.par()
        self.blocks.append((kind, text))

    def flat(self, separator: str = " ") -> str:
        """All collected text on one line; `\\` line breaks become `separator`."""
        self.par()
        return " ".join(separator.join(separator.join(t.split("\n")) for _, t in self.blocks).split())

    def flat_blocks(self) -> list[Block]:
        self.par()
        return list(self.blocks)


class Discard(Sink):
    def write(self, text: str) -> None:
        pass

    def newline(self) -> None:
        pass

    def block(self, kind: str, text: str) -> None:
        pass


class TableSink(Sink):
    """Rows of a tabular: `&` ends a cell, `\\\\` ends a row."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.cells: list[str] = []

    def par(self) -> None:
        self.parts.append(" ")

    def block(self, kind: str, text: str) -> None:
        self.parts.append(" " + text + " ")

    def newline(self) -> None:
        self.end_row()

    def end_cell(self) -> None:
        self.cells.append(" ".join("".join(self.parts).replace(LINE_BREAK, " ").split()))
        self.parts = []

    def end_row(self) -> None:
        self.end_cell()
        if any(self.cells):
            self.rows.append(self.cells)
        self.cells = []

    def plain(self) -> str:
        """A table nested in a table cell: its cells as words, so nesting cannot grow the text."""
        self.end_row()
        return " ".join(cell for row in self.rows for cell in row if cell)

    def render(self) -> str:
        self.end_row()
        return "\n".join("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in self.rows)
