"""Float handlers: figures (only their captions are text), tables and tabulars (as Markdown
rows), captions numbered as LaTeX numbers them, subfigures, images, spanned cells, rules.

A float collects what it prints (captions, tables, a table float's notes) in its own sink and
hands it on as one block when it closes: a table float with one caption becomes one table block
(caption and rows), a figure one block per caption with its subfigures' captions under it. The
text is what it was before records existed: `Figure 3: caption`, then `(a) ...` per subfigure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..document import Kind
from .drafts import Draft, SubDraft, letter, rendered_caption
from .engine import Engine
from .sinks import Block, Discard, Grid, Sink, TableSink
from .specs import ENV_SPECS, TABULAR_SPECS
from .tokens import CMD, TEXT

_KINDS = {"figure": Kind.FIGURE, "table": Kind.TABLE}
_FILE_KEY_RE = re.compile(r"(?:file|figure)\s*=\s*([^,\s]+)")
MAX_SPAN = 64  # columns or rows one cell may cover: a hostile \\multicolumn{99999999} cannot grow a table


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


class Floats(Engine):
    """Figures, tables and their captions."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.floats: list[Float] = []

    def env_figure(self, j: int, end: int, env: str) -> int:
        state = Float("figure", self.sink)
        self.floats.append(state)
        target = self.push(Discard())
        self.later(end, lambda: self.close_float(target))
        return self.skip_spec(j, ENV_SPECS.get(env, "o"))

    def env_table_float(self, j: int, end: int, env: str) -> int:
        state = Float("table", self.sink)
        self.floats.append(state)
        self.push(state.collect)
        self.later(end, lambda: self.close_float(state.collect))
        return self.skip_spec(j, ENV_SPECS.get(env, "o"))

    def env_algorithm_float(self, j: int, end: int, env: str) -> int:
        """An algorithm or listing float: its code is text where it stands; its caption counts
        algorithms (`Algorithm 2: ...`) or listings, not figures."""
        kind = "listing" if env == "listing" else "algorithm"  # minted's and ours (`listings.py`)
        self.floats.append(Float(kind, self.sink, collect=self.sink))
        self.later(end, self.floats.pop)
        return self.skip_spec(j, "o")

    def env_tabular(self, j: int, end: int, env: str) -> int:
        longtable = env.startswith("longtable")
        if longtable:
            self.floats.append(Float("table", self.sink))
        table = self.push(TableSink())
        self.later(end, lambda: self.finish_table(table, longtable))
        return self.skip_spec(j, TABULAR_SPECS[env])

    def finish_table(self, table: TableSink, longtable: bool = False) -> None:
        self.pop(table)
        if isinstance(self.sink, TableSink):
            self.sink.write(" " + table.plain() + " ")
            return
        rows = table.render()
        # a figure's body is drawing, not text, but a table set in a figure is printed text
        target = self.floats[-1].collect if self.floats and (longtable or isinstance(self.sink, Discard)) else self.sink
        if rows:
            target.block("table", rows, table.table())
        if longtable:
            self.close_float()

    def close_float(self, body: Sink | None = None) -> None:
        if body is not None:
            self.pop(body)
        state = self.floats.pop()
        blocks = state.collect.flat_blocks()
        captions = [block.record for block in blocks if block.kind == "caption"]
        if captions:
            last = captions[-1]
            last.subfigures = state.subs
            last.images = last.images or state.images
        grids = [block.record for block in blocks if block.kind == "table" and isinstance(block.record, Grid)]
        blocks = [Block(b.kind, rendered_caption(b.record), b.record) if b.kind == "caption" else b for b in blocks]
        if state.kind == "table" and len(captions) == 1:
            captions[0].grid = _joined(grids)
            state.outer.block("caption", _text(blocks), captions[0])
            return
        if state.kind == "table" and len(captions) == len(grids):
            for draft, grid in zip(captions, grids):
                draft.grid = grid
        for block in blocks:
            state.outer.block(*block)

    def cmd_caption(self, i: int, name: str) -> int:
        opt = self.optional(i)
        if opt:
            i = opt[1] + 1
        state = self.floats[-1] if self.floats else None
        if state is not None and (state.sub is not None or name == "subcaption"):
            return self.subcaption(i, state)
        kind = state.kind if state else "figure"
        return self.caption(i, kind, state.collect if state else self.sink, state)

    def caption(self, i: int, kind: str, target: Sink, state: Float | None) -> int:
        if state is not None and state.continued:
            number = self.next_number(kind, ahead=0)
            self.current_label = (kind, number)
        else:
            number = self.step(kind)
        name = kind.capitalize()
        draft = Draft(_KINDS.get(kind, Kind.FIGURE), number, f"{self.meta.float_names.get(name, name)} {number}")
        if state is not None:
            state.number = number
            draft.images, state.images = state.images, []
        self.anchor = (self.current_label, draft)

        def done(sink: Sink) -> None:
            draft.caption = sink.flat()
            target.block("caption", rendered_caption(draft), draft if kind in _KINDS else None)

        return self.capture(i, done)

    def subcaption(self, i: int, state: Float) -> int:
        sub = state.sub
        if sub is None:  # \subcaption in a minipage: a subfigure of its own
            sub = SubDraft()
        state.subs.append(sub)
        number = state.number or self.next_number(state.kind)
        self.current_label = (state.kind, number + letter(len(state.subs) - 1))
        self.anchor = None

        def done(sink: Sink) -> None:
            sub.caption = sink.flat()

        return self.capture(i, done)

    def cmd_captionof(self, i: int, name: str) -> int:
        found = self.raw_text(i)
        if found is None:
            return i
        kind = "table" if "table" in found[0].lower() else "figure"
        i = found[1]
        opt = self.optional(i)
        if opt:
            i = opt[1] + 1
        state = self.floats[-1] if self.floats else None
        target = state.collect if state is not None and isinstance(self.sink, Discard) else self.sink
        return self.caption(i, kind, target, None)

    def env_subfloat(self, j: int, end: int, env: str) -> int:
        """A subfigure/subtable environment (subcaption): its \\caption is a subcaption."""
        if self.floats:
            state = self.floats[-1]
            outer, state.sub = state.sub, SubDraft()
            self.later(end, lambda: setattr(state, "sub", outer))
        return self.skip_spec(j, "om")

    def cmd_subfloat(self, i: int, name: str) -> int:
        """\\subfloat[list entry][caption]{body} (subfig) or \\subfigure[caption]{body}: the last
        optional argument is the subcaption; the body's images are the subfigure's."""
        options: list[tuple[int, int]] = []
        opt = self.optional(i)
        while opt is not None and len(options) < 2:
            options.append(opt)
            opt = self.optional(opt[1] + 1)
        after = options[-1][1] + 1 if options else i
        if not self.floats:
            return after
        state = self.floats[-1]
        body = self.group(after)
        outer, state.sub = state.sub, SubDraft()
        if body is not None:
            self.later(body[1], lambda: setattr(state, "sub", outer))
        else:
            state.sub = outer
        if not options:
            return after
        for k in range(options[0][0], options[-1][0] + 1):  # the list-of-figures entry is not printed
            self.toks[k] = (TEXT, "")
        a, b = options[-1]
        sub = state.sub or SubDraft()
        state.subs.append(sub)
        number = state.number or self.next_number(state.kind)
        self.current_label = (state.kind, number + letter(len(state.subs) - 1))
        target = self.push(Sink())
        self.toks[b] = (TEXT, "")
        self.later(b, lambda: setattr(sub, "caption", self.pop(target).flat()))
        return a + 1

    def cmd_continued_float(self, i: int, name: str) -> int:
        if self.floats:
            self.floats[-1].continued = True
        return i

    def cmd_graphics(self, i: int, name: str) -> int:
        """\\includegraphics[options]{name}; the older \\epsfig{file=name}, \\psfig{figure=name}
        and \\epsfbox{name} name theirs in the argument."""
        i = self.skip_spec(i, "o")
        found = self.raw_text(i)
        if found is None:
            return i
        written = found[0]
        if name in ("epsfig", "psfig"):
            key = _FILE_KEY_RE.search(written)
            written = key.group(1) if key else ""
        if self.floats and written.strip():
            state = self.floats[-1]
            (state.sub.images if state.sub is not None else state.images).append(self.meta.files.resolve(written))
        return found[1]

    def cmd_span(self, i: int, name: str) -> int:
        """\\multicolumn{n}{spec}{text} and \\multirow[v]{n}[s]{width}[f]{text}: the cell covers n
        columns or rows; the text follows as the walk reads it."""
        multirow = name.startswith("multirow")
        found = self.raw_text(self.skip_spec(i, "o") if multirow else i)
        if found is None:
            return i
        written = found[0].strip()
        count = min(int(written), MAX_SPAN) if written.isdecimal() and len(written) < 6 else 1
        if isinstance(self.sink, TableSink):
            if multirow:
                self.sink.down = count
            else:
                self.sink.span = count
        return self.skip_spec(found[1], "omo" if multirow else "m")

    def cmd_rule(self, i: int, name: str) -> int:
        """\\hline, \\midrule ...: not text; where they fall tells the header rows."""
        if isinstance(self.sink, TableSink):
            self.sink.rule()
        return self.skip_spec(i, {"specialrule": "mmm", "Xhline": "m", "hhline": "m"}.get(name, "o"))

    def cmd_halign(self, i: int, name: str) -> int:
        """Plain TeX's \\halign{template \\cr row \\cr ...}: a table; the template (`#\\hfil&#\\cr`)
        is not text."""
        g = self.group(i)
        if g is None:
            return i
        template = range(g[0] + 1, min(g[1], g[0] + 200))  # bounded: nested \\halign cannot rescan
        first_row = next((k for k in template if self.toks[k] in ((CMD, "cr"), (CMD, "crcr"))), g[0])
        table = self.push(TableSink())
        self.later(g[1], lambda: self.finish_table(table))
        return first_row + 1

    def cmd_row_end(self, i: int, name: str) -> int:
        """\\cr ends a row of a plain-TeX alignment, like `\\\\`."""
        if isinstance(self.sink, TableSink):
            self.sink.end_row()
        else:
            self.sink.newline()
        return i

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


def _joined(grids: list[Grid]) -> Grid:
    if not grids:
        return Grid((), 0)
    return Grid(tuple(row for grid in grids for row in grid.rows), grids[0].header_rows)


def _text(blocks: list[Block]) -> str:
    """Blocks as the text shows them one after another (list items on their own lines)."""
    out: list[str] = []
    previous = ""
    for block in blocks:
        if not block.text.strip():
            continue
        if out:
            out.append("\n" if block.kind == "li" and previous == "li" else "\n\n")
        out.append(block.text)
        previous = block.kind
    return "".join(out)
