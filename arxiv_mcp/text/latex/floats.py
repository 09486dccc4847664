"""Float handlers: figures (only their captions are text), tables and tabulars (as Markdown
rows; AASTeX's deluxetable too), captions numbered as LaTeX numbers them (a minipage holding a
\\captionof is a float of its kind), subfigures, images, spanned cells, rules.

A float collects what it prints (captions, tables, a table float's notes) in its own sink and
hands it on as one block when it closes: a table float with one caption becomes one table block
(caption and rows), a figure one block per caption with its subfigures' captions under it. The
text is what it was before records existed: `Figure 3: caption`, then `(a) ...` per subfigure.
"""

from __future__ import annotations

import re
from functools import partial

from ..document import Kind
from .counters import scoped
from .drafts import Draft, Float, Grouping, SubDraft, rendered_caption
from .engine import Walk
from .numbering import STYLES
from .sinks import Block, Discard, Grid, Sink, TableSink, blocks_text
from .specs import ENV_SPECS, TABULAR_SPECS
from .tokens import BEGIN, CMD, TEXT
from .typed import TypedText, typed_caption

_KINDS = {"figure": Kind.FIGURE, "table": Kind.TABLE}
_FILE_KEY_RE = re.compile(r"(?:file|figure)\s*=\s*([^,\s]+)")
_ATTACHED_RE = re.compile(r"[A-Za-z.-]+$")  # a format's text set against the number: `S` of `S#2`
_FLOAT_NAME_RE = re.compile(r"(?:^|,)\s*name\s*=\s*([^,]+)")
MAX_INSERT = 20_000  # tokens a plain-TeX insert may hold before its \\endinsert
MAX_SPAN = 64  # columns or rows one cell may cover: a hostile \\multicolumn{99999999} cannot grow a table


def open_float(w: Walk, kind: str, end: int, body: Sink | None = None, grouped: Grouping | None = None) -> None:
    """A float read from here to `end`, whose captions count `kind`: what its body prints goes
    to `body` (a figure's drawing, kept only to find a typed caption) or, without one, is its
    text (a table float's rows and notes, an algorithm's lines: `grouped` makes its blocks)."""
    state = Float(kind, w.sink, grouped=grouped)
    w.floats.append(state)
    w.until(end, partial(close_float, w), body or state.collect)


def env_figure(w: Walk, j: int, end: int, env: str, kind: str = "figure") -> int:
    open_float(w, kind, end, TypedText())
    return w.skip_spec(j, ENV_SPECS.get(env, "o"))


def env_table_float(w: Walk, j: int, end: int, env: str) -> int:
    open_float(w, "table", end)
    return w.skip_spec(j, ENV_SPECS.get(env, "o"))


def env_new_float(w: Walk, j: int, end: int, env: str) -> int:
    """A float kind of the paper's (`\\newfloat{scheme}`, `\\DeclareFloatingEnvironment`): its
    captions count apart under its own name (Scheme 1) and never as figures."""
    return env_figure(w, j, end, env, env.rstrip("*"))


def cmd_new_float(w: Walk, i: int, name: str) -> int:
    """\\newfloat{env}{placement}{ext}[within], \\floatname{env}{Name} (float) and
    \\DeclareFloatingEnvironment[name=Name,...]{env} (newfloat): the name its captions print."""
    options = w.optional(i) if name == "DeclareFloatingEnvironment" else None
    found = w.raw_text(options[1] + 1 if options else i)
    if found is None:
        return i
    env = found[0].strip()
    if name == "floatname":
        printed = w.raw_text(found[1])
        if printed is not None and env in w.meta.new_floats:
            w.meta.new_floats[env] = " ".join(printed[0].split())
        return printed[1] if printed else found[1]
    named = _FLOAT_NAME_RE.search(w.label_text(*options)[0]) if options else None
    if re.fullmatch(r"[A-Za-z]+", env) and env not in _KINDS:
        w.meta.new_floats[env] = named.group(1).strip() if named else env
    return w.skip_spec(found[1], "mmo" if name == "newfloat" else "")


def env_tabular(w: Walk, j: int, end: int, env: str) -> int:
    if env.startswith("longtable"):  # a table float of its own, its captions inside
        open_float(w, "table", end)
    table = w.push(TableSink())
    w.later(end, lambda: finish_table(w, table))
    return w.skip_spec(j, TABULAR_SPECS[env])


def env_deluxetable(w: Walk, j: int, end: int, env: str) -> int:
    """AASTeX's deluxetable: a table float whose \\tablecaption is its caption and whose tabular
    runs from its \\tablehead (the first row) to \\enddata; what follows (\\tablecomments,
    \\tablenotetext) is text under it."""
    open_float(w, "table", end)
    for k in range(j, end):  # its \\tablenum is a setting, not siunitx's number to print
        if w.toks[k] == (CMD, "startdata"):
            break
        if w.toks[k] == (CMD, "tablenum") and (g := w.group(k + 1)) is not None:
            w.toks[k : g[1] + 1] = [(TEXT, "")] * (g[1] + 1 - k)
    spec = w.raw_text(w.skip_spec(j, "o"))
    table = w.push(TableSink())
    # the columns a \\cutinhead spans: the spec's, its `@{...}` and `p{width}` arguments left out
    table.columns = len(re.findall(r"[lcrpXmb]", re.sub(r"\{[^{}]*\}", "", spec[0]))) or 1 if spec else 1
    w.later(end, partial(finish_table, w, table))
    return w.skip_spec(spec[1], "o") if spec else j  # a placement after the columns (`{lcc}[t!]`)


def cmd_table_row(w: Walk, i: int, name: str) -> int:
    """deluxetable's \\tablehead{...} and \\cutinhead{...} (a row across every column): one row
    of its table; \\enddata ends the table; \\colhead{...} is its text and \\startdata nothing
    (AASTeX's own definitions of these set rules and struts, never text)."""
    table = w.sink if isinstance(w.sink, TableSink) else None
    if name in ("colhead", "startdata"):
        return i
    if name == "enddata":
        if table is not None:
            finish_table(w, table)
        return i
    g = w.group(i)
    if g is None or table is None:
        return i
    table.span = table.columns if name == "cutinhead" else 1
    w.later(g[1], table.end_row)
    return g[0] + 1


def finish_table(w: Walk, table: TableSink) -> None:
    if table not in w.sinks:  # deluxetable's: \\enddata finished it
        return
    w.pop(table)
    if isinstance(w.sink, TableSink):
        w.sink.write(" " + table.plain() + " ")
        return
    rows = table.render()
    # a figure's body is drawing, not text, but a table set in a figure is printed text
    target = w.floats[-1].collect if w.floats and isinstance(w.sink, Discard) else w.sink
    if rows:
        target.block("table", rows, table.table())


def close_float(w: Walk, body: Sink) -> None:
    state = w.floats.pop()
    blocks = state.collect.flat_blocks()
    if state.grouped is not None:
        for block in state.grouped(state, blocks):
            state.outer.block(*block)
        return
    captions = [block.record for block in blocks if block.kind == "caption" and block.record is not None]
    if not captions and state.kind in _KINDS:
        captions = _typed(state, blocks, body)
    if captions:
        last = captions[-1]
        last.subfigures = state.subs
        last.images = last.images or state.images
    grids = [block.record for block in blocks if block.kind == "table" and isinstance(block.record, Grid)]
    blocks = [
        Block(b.kind, rendered_caption(b.record), b.record) if b.kind == "caption" and b.record else b for b in blocks
    ]
    if state.kind == "table" and len(captions) == 1:
        captions[0].grid = _joined(grids)
        state.outer.block("caption", blocks_text(blocks), captions[0])
        return
    if state.kind == "table" and len(captions) == len(grids):
        for draft, grid in zip(captions, grids):
            draft.grid = grid
    for block in blocks:
        state.outer.block(*block)


def _typed(state: Float, blocks: list[Block], body: Sink) -> list[Draft]:
    """A float with no \\caption: a caption typed at the start of the figure's text, or as a
    table float's paragraph, becomes its caption block (in `blocks`); none, nothing changes."""
    found = typed_caption(body.text()) if isinstance(body, TypedText) else None
    at = len(blocks)
    for k, block in enumerate(blocks if found is None else ()):
        if block.kind == "p" and (found := typed_caption(block.text)) is not None:
            at = k
            del blocks[k]
            break
    if found is None or (found.kind != state.kind and state.kind == "table"):
        return []
    state.kind = found.kind
    draft = Draft(_KINDS[found.kind], found.number, found.label, caption=found.caption, images=state.images)
    blocks.insert(at, Block("caption", rendered_caption(draft), draft))
    return [draft]


def cmd_insert(w: Walk, i: int, name: str) -> int:
    """Plain TeX's floats, \\topinsert (\\midinsert, \\pageinsert) ... \\endinsert: a
    figure (or, by its typed caption, a table) whose caption the authors typed."""
    end = next((k for k in range(i, min(len(w.toks), i + MAX_INSERT)) if w.toks[k] == (CMD, "endinsert")), -1)
    if end < 0:
        return i
    open_float(w, "figure", end, TypedText())
    return i


def cmd_caption(w: Walk, i: int, name: str) -> int:
    i = w.skip_spec(i, "o")
    state = w.floats[-1] if w.floats else None
    if state is not None and (state.sub is not None or name == "subcaption"):
        return subcaption(w, i, state)
    kind = w.meta.caption_type or (state.kind if state else "figure")
    w.meta.caption_type = ""
    target = state.collect if state else w.sink
    if name == "caption*":  # caption's unnumbered caption: text, no label, no step
        return w.capture(i, lambda sink: target.block("caption", sink.flat()))
    return caption(w, i, kind, target, state)


def caption(w: Walk, i: int, kind: str, target: Sink, state: Float | None) -> int:
    if state is not None and state.continued:
        number = w.target(kind, w.numbers.next_number(kind, ahead=0))
    else:
        number = w.step(kind)
    name = w.meta.new_floats.get(kind) or kind.capitalize()
    name = w.meta.float_names.get(name, name)
    printed, label = _labelled(w, kind, name, number)
    draft = Draft(_KINDS.get(kind, Kind.FIGURE), printed, label)
    if state is not None:
        state.number, state.caption = number, (name, draft)
        draft.images, state.images = state.images, []
    w.anchor = draft

    def done(sink: Sink) -> None:
        draft.caption = sink.flat()
        target.block("caption", rendered_caption(draft), draft if kind in _KINDS else None)

    return w.capture(i, done)


def _labelled(w: Walk, kind: str, name: str, number: str) -> tuple[str, str]:
    """The number and label a caption prints: `Figure 3`, or as the paper's caption label
    format says (`#1 S#2`: `Figure S3`, numbered S3; \\ref still prints 3)."""
    formats = w.meta.label_formats
    code = w.meta.caption_formats.get(formats.get(kind) or formats.get("", ""))
    if not code:
        return number, f"{name} {number}"
    attached = _ATTACHED_RE.search(code.split("#2")[0].replace("#1", " "))
    return (attached.group() if attached else "") + number, " ".join(
        code.replace("#1", name).replace("#2", number).split()
    )


def cmd_caption_label_format(w: Walk, i: int, name: str) -> int:
    """caption's \\DeclareCaptionLabelFormat{name}{code}, #1 the float's name, #2 its number."""
    found = w.raw_text(i)
    code = w.raw_text(found[1]) if found else None
    if found is None or code is None:
        return w.skip_spec(i, "mm")
    if "#2" in code[0]:
        w.meta.caption_formats[found[0].strip()] = code[0]
    return code[1]


def cmd_caption_setup(w: Walk, i: int, name: str) -> int:
    """\\captionsetup[kind]{keys}: a `labelformat=` of the paper's for that kind (or all), its
    `name=` (both, as a definition, to the end of the environment they are set in), and
    `type=table` (a caption outside a float, or of another kind than its float)."""
    opt = w.optional(i)
    found = w.raw_text(opt[1] + 1 if opt else i)
    if found is None:
        return w.skip_spec(i, "om")
    kind = w.label_text(*opt)[0].strip() if opt else ""
    keys = dict((key.strip(), value.strip()) for key, _, value in (part.partition("=") for part in found[0].split(",")))
    if keys.get("labelformat") in w.meta.caption_formats:
        scoped(w, i, w.meta.label_formats, kind, keys["labelformat"])
    if keys.get("type") in _KINDS:
        w.meta.caption_type = keys["type"]
    if kind in _KINDS and keys.get("name"):  # \\captionsetup[figure]{name=Fig.}
        scoped(w, i, w.meta.float_names, kind.capitalize(), keys["name"])
    return found[1]


def subcaption(w: Walk, i: int, state: Float) -> int:
    sub = start_subfigure(w, state, state.sub or SubDraft())  # none: \subcaption in a minipage

    def done(sink: Sink) -> None:
        sub.caption = sink.flat()

    return w.capture(i, done)


def start_subfigure(w: Walk, state: Float, sub: SubDraft) -> SubDraft:
    """A subfigure's caption begins: it is the float's next, and the next \\label names it (3a)."""
    state.subs.append(sub)
    number = state.number or w.numbers.next_number(state.kind)
    w.target(state.kind, number + STYLES["alph"](len(state.subs)))
    return sub


def cmd_captionof(w: Walk, i: int, name: str) -> int:
    """caption's \\captionof{kind}: a \\caption of that kind, as the package defines it (the
    float type set, then \\caption), in the float around it (`env_minipage`) or none."""
    found = w.raw_text(i)
    if found is None:
        return i
    w.meta.caption_type = _caption_kind(found[0])
    return cmd_caption(w, found[1], "caption")


def _caption_kind(written: str) -> str:
    return "table" if "table" in written.lower() else "figure"


def env_minipage(w: Walk, j: int, end: int, env: str) -> int:
    """A minipage outside a float holding a \\captionof is a float of that kind: the box is what
    the caption captions, so its record gets the minipage's images or tabular."""
    k = j
    while k < end and not w.floats:  # a minipage in it is its own box, skipped: linear
        if w.toks[k] == (BEGIN, "minipage") and w.match[k] > k:
            k = w.match[k]
        elif w.toks[k] == (CMD, "captionof") and (found := w.raw_text(k + 1)) is not None:
            open_float(w, _caption_kind(found[0]), end)
            break
        k += 1
    return w.skip_spec(j, ENV_SPECS[env])


def env_subfloat(w: Walk, j: int, end: int, env: str) -> int:
    """A subfigure/subtable environment (subcaption): its \\caption is a subcaption."""
    if w.floats:
        _subfigure_until(w, w.floats[-1], end)
    return w.skip_spec(j, "om")


def _subfigure_until(w: Walk, state: Float, end: int) -> None:
    """Up to `end`, the float's caption and images are a subfigure's."""
    outer, state.sub = state.sub, SubDraft()
    w.later(end, lambda: setattr(state, "sub", outer))


def cmd_subfloat(w: Walk, i: int, name: str) -> int:
    """\\subfloat[list entry][caption]{body} (subfig) or \\subfigure[caption]{body}: the last
    optional argument is the subcaption; the body's images are the subfigure's."""
    options: list[tuple[int, int]] = []
    opt = w.optional(i)
    while opt is not None and len(options) < 2:
        options.append(opt)
        opt = w.optional(opt[1] + 1)
    after = options[-1][1] + 1 if options else i
    if not w.floats:
        return after
    state = w.floats[-1]
    body = w.group(after)
    if body is not None:
        _subfigure_until(w, state, body[1])
    if not options:
        return after
    for k in range(options[0][0], options[-1][0] + 1):  # the list-of-figures entry is not printed
        w.toks[k] = (TEXT, "")
    a, b = options[-1]
    sub = start_subfigure(w, state, state.sub or SubDraft())
    w.toks[b] = (TEXT, "")
    w.until(b, lambda sink: setattr(sub, "caption", sink.flat()))
    return a + 1


def cmd_continued_float(w: Walk, i: int, name: str) -> int:
    if w.floats:
        w.floats[-1].continued = True
    return i


def cmd_graphics(w: Walk, i: int, name: str) -> int:
    """\\includegraphics[options]{name}; the older \\epsfig{file=name}, \\psfig{figure=name}
    and \\epsfbox{name} name theirs in the argument."""
    i = w.skip_spec(i, "o")
    found = w.raw_text(i)
    if found is None:
        return i
    written = found[0]
    if name in ("epsfig", "psfig"):
        key = _FILE_KEY_RE.search(written)
        written = key.group(1) if key else ""
    if w.floats and written.strip():
        state = w.floats[-1]
        (state.sub.images if state.sub is not None else state.images).append(w.meta.files.resolve(written))
    return found[1]


def cmd_span(w: Walk, i: int, name: str) -> int:
    """\\multicolumn{n}{spec}{text} and \\multirow[v]{n}[s]{width}[f]{text}: the cell covers n
    columns or rows; the text follows as the walk reads it."""
    multirow = name.startswith("multirow")
    found = w.raw_text(w.skip_spec(i, "o") if multirow else i)
    if found is None:
        return i
    written = found[0].strip()
    count = min(int(written), MAX_SPAN) if written.isdecimal() and len(written) < 6 else 1
    if isinstance(w.sink, TableSink):
        if multirow:
            w.sink.down = count
        else:
            w.sink.span = count
    return w.skip_spec(found[1], "omo" if multirow else "m")


def cmd_rule(w: Walk, i: int, name: str) -> int:
    """\\hline, \\midrule ...: not text; where they fall tells the header rows."""
    if isinstance(w.sink, TableSink):
        w.sink.rule()
    return w.skip_spec(i, {"specialrule": "mmm", "Xhline": "m", "hhline": "m"}.get(name, "o"))


def cmd_halign(w: Walk, i: int, name: str) -> int:
    """Plain TeX's \\halign{template \\cr row \\cr ...}: a table; the template (`#\\hfil&#\\cr`)
    is not text."""
    g = w.group(i)
    if g is None:
        return i
    template = range(g[0] + 1, min(g[1], g[0] + 200))  # bounded: nested \\halign cannot rescan
    first_row = next((k for k in template if w.toks[k] in ((CMD, "cr"), (CMD, "crcr"))), g[0])
    table = w.push(TableSink())
    w.later(g[1], lambda: finish_table(w, table))
    return first_row + 1


def cmd_row_end(w: Walk, i: int, name: str) -> int:
    """\\cr ends a row of a plain-TeX alignment, like `\\\\`."""
    if isinstance(w.sink, TableSink):
        w.sink.end_row()
    else:
        w.sink.newline()
    return i


def cmd_cell_lines(w: Walk, i: int, name: str) -> int:
    """A stacked cell (\\makecell{a \\\\ b}): its line breaks must not end the table row."""
    i, g = w.after_option(i)
    if g is None:
        return i
    w.stacked_cells += 1
    w.later(g[1], partial(end_stacked_cell, w))
    return g[0] + 1


def end_stacked_cell(w: Walk) -> None:
    w.stacked_cells -= 1


def _joined(grids: list[Grid]) -> Grid:
    if not grids:
        return Grid((), 0)
    return Grid(tuple(row for grid in grids for row in grid.rows), grids[0].header_rows)
