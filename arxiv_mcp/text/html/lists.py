"""Lists, code listings and preformatted text in LaTeXML HTML: what is read as lines.

Lists are `- item` / `1. item` lines (nested lists indented by two spaces, description
terms as their own `- term` line); a listing is its lines; `<pre>` keeps its line breaks.
"""

from __future__ import annotations

from .flow import Flow
from .parts import INVISIBLE, ITEM, ITEM_TAG, LINE, LIST, LISTING, PRE, Frame, Sink

_BULLETS = frozenset("•·∙⋅◦∘○●▪▫■□–—-*∗⋆★►▶▸‣⁃")
_LIST_CLASSES = frozenset(("ltx_itemize", "ltx_enumerate", "ltx_description"))

Attributes = dict[str, str | None]


class _ListState:
    __slots__ = ("ordered", "count", "pending_term")

    def __init__(self, ordered: bool) -> None:
        self.ordered = ordered
        self.count = 0
        self.pending_term = ""


class Lists:
    """Opens and closes lists, items, listings and `<pre>`, collecting their lines."""

    LIST_CLASSES = _LIST_CLASSES

    def __init__(self, flow: Flow) -> None:
        self._flow = flow
        self._lists: list[_ListState] = []
        self._lines: list[str] | None = None  # the lines of the outermost open list or listing

    # --- starts (each returns whether it took the element) ----------------------------------

    def start_list(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        flow = self._flow
        if sink is flow.flow:
            flow.flush()
            if self._lines is None:
                self._lines = []
        elif sink.kind == ITEM:
            self._emit_item_line(sink)  # the item's text so far, before its nested list
        else:
            flow.block(tag)
            return True
        self._lists.append(_ListState(tag == "ol" or "ltx_enumerate" in classes))
        flow.push(Frame(tag, LIST))
        return True

    def start_item(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        if not self._lists or not (sink is self._flow.flow or sink.kind == ITEM):
            return False
        if sink.kind == ITEM:
            self._emit_item_line(sink)
        state = self._lists[-1]
        item = self._flow.push_sink(tag, ITEM)
        item.depth = len(self._lists)
        item.ordered = state.ordered
        if tag == "dd":
            item.label = state.pending_term
            state.pending_term = ""
        else:
            self._flush_pending_term(state)
            if tag != "dt":
                state.count += 1
        item.index = state.count
        self._flow.stack[-1].state = state
        return True

    def start_item_tag(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        if sink.kind == ITEM and not sink.label:
            self._flow.push_sink(tag, ITEM_TAG)
            return True
        return False

    def start_listing(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        if sink is not self._flow.flow:
            return False
        self._flow.flush()
        self._lines = [] if self._lines is None else self._lines
        self._flow.push(Frame(tag, LISTING))
        return True

    def start_listing_line(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        if self._lines is None or sink is not self._flow.flow:
            return False
        self._flow.push_sink(tag, LINE)
        return True

    def start_pre(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        if sink is not self._flow.flow:
            return False
        self._flow.flush()
        self._flow.push_sink(tag, PRE)
        return True

    # --- ends -----------------------------------------------------------------------------

    def close_list(self, frame: Frame) -> None:
        state = self._lists.pop()
        self._flush_pending_term(state, depth=len(self._lists) + 1)
        if not self._lists and len(self._flow.sinks) == 1:
            self._emit_lines()

    def close_listing(self, frame: Frame) -> None:
        if not self._lists:
            self._emit_lines()

    def close_item(self, frame: Frame, sink: Sink) -> None:
        state = frame.state
        if frame.tag == "dt" and isinstance(state, _ListState):
            self._flush_pending_term(state)
            state.pending_term = sink.text() or sink.label
            return
        self._emit_item_line(sink)

    def close_item_tag(self, frame: Frame, sink: Sink) -> None:
        parent = self._flow.sinks[-1]
        if parent.kind == ITEM:
            parent.label = sink.text()

    def close_line(self, frame: Frame, sink: Sink) -> None:
        if self._lines is not None:
            self._lines.append(sink.text())

    def close_pre(self, frame: Frame, sink: Sink) -> None:
        text = "".join(sink.parts).translate(INVISIBLE)
        lines = [line.rstrip() for line in text.split("\n")]
        self._flow.emit_lines([line for line in lines if line.strip()])

    # --- lines ----------------------------------------------------------------------------

    def _emit_lines(self) -> None:
        lines, self._lines = self._lines or [], None
        self._flow.emit_lines(lines)

    def _emit_item_line(self, sink: Sink) -> None:
        text = sink.text()
        sink.parts = []
        indent = "  " * (sink.depth - 1)
        if sink.continued:
            line = f"{indent}  {text}" if text else ""
        else:
            line = f"{indent}{_item_marker(sink)} {text}".rstrip()
            sink.continued = True
        if line.strip() and self._lines is not None:
            self._lines.append(line)
        elif line.strip():
            self._flow.flow.parts.append(" " + line.strip())

    def _flush_pending_term(self, state: _ListState, depth: int | None = None) -> None:
        if state.pending_term and self._lines is not None:
            indent = "  " * ((depth or len(self._lists)) - 1)
            self._lines.append(f"{indent}- {state.pending_term}")
        state.pending_term = ""


def _item_marker(sink: Sink) -> str:
    label = sink.label
    if sink.ordered:
        return label or f"{sink.index}."
    if label and not (len(label) <= 2 and all(char in _BULLETS for char in label)):
        return f"- {label}"
    return "-"
