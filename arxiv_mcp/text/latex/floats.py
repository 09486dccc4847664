"""Float handlers: figures (only their captions are text), tables and tabulars (as Markdown
rows), captions numbered in document order, stacked cells."""

from __future__ import annotations

from typing import Any

from .engine import Engine
from .sinks import Discard, Sink, TableSink
from .specs import ENV_SPECS, TABULAR_SPECS


class Floats(Engine):
    """Figures, tables and their captions."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.floats: list[tuple[str, Sink]] = []

    def env_figure(self, j: int, end: int, env: str) -> int:
        self.floats.append(("Figure", self.sink))
        target = self.push(Discard())
        self.later(end, lambda: (self.pop(target), self.floats.pop()))
        return self.skip_spec(j, ENV_SPECS.get(env, "o"))

    def env_table_float(self, j: int, end: int, env: str) -> int:
        self.floats.append(("Table", self.sink))
        self.later(end, self.floats.pop)
        return self.skip_spec(j, ENV_SPECS.get(env, "o"))

    def env_tabular(self, j: int, end: int, env: str) -> int:
        if env.startswith("longtable"):
            self.floats.append(("Table", self.sink))
            self.later(end, self.floats.pop)
        table = self.push(TableSink())
        self.later(end, lambda: self.finish_table(table))
        return self.skip_spec(j, TABULAR_SPECS[env])

    def finish_table(self, table: TableSink) -> None:
        self.pop(table)
        if isinstance(self.sink, TableSink):
            self.sink.write(" " + table.plain() + " ")
            return
        rows = table.render()
        # a figure's body is drawing, not text, but a table set in a figure is printed text
        target = self.floats[-1][1] if isinstance(self.sink, Discard) and self.floats else self.sink
        if rows:
            target.block("table", rows)

    def cmd_caption(self, i: int, name: str) -> int:
        opt = self.optional(i)
        if opt:
            i = opt[1] + 1
        kind, target = self.floats[-1] if self.floats else ("Figure", self.sink)
        label = f"{self.meta.float_names.get(kind, kind)} {self.step(kind)}"
        return self.capture(i, lambda sink: self.emit_caption(target, label, sink))

    def cmd_captionof(self, i: int, name: str) -> int:
        found = self.raw_text(i)
        if found is None:
            return i
        kind = "Table" if "table" in found[0].lower() else "Figure"
        label = f"{self.meta.float_names.get(kind, kind)} {self.step(kind)}"
        i = found[1]
        opt = self.optional(i)
        if opt:
            i = opt[1] + 1
        target = self.sink
        return self.capture(i, lambda sink: self.emit_caption(target, label, sink))

    def emit_caption(self, target: Sink, label: str, sink: Sink) -> None:
        text = sink.flat()
        if text:
            target.block("p", f"{label}: {text}")

    def cmd_cell_lines(self, i: int, name: str) -> int:
        """A stacked cell (\\makecell{a \\\\ b}): its line breaks must not end the table row."""
        i = self.skip_spec(i, "o")
        g = self.group(i)
        if g is None:
            return i
        self.stacked_cells += 1
        self.later(g[1], self.end_stacked_cell)
        return g[0] + 1

    def end_stacked_cell(self) -> None:
        self.stacked_cells -= 1
