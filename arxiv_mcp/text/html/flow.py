"""The state one HTML page read shares between its handler units.

`Flow` holds the open-element stack, the capture sinks and the blocks written so far, and
the few moves every unit makes: open an element (plain, block, skipped or capturing), end a
paragraph, write a block. The units (`sections`, `tables`, `lists`,
`math`, `authors`) keep their own state and write through it.
"""

from __future__ import annotations

from ...errors import ExtractionError
from .parts import BLOCK, FLOW, SKIP, Block, Frame, Inline, Sink, collapse

# No paper comes near these (a long one has a few thousand blocks and citations); a page
# beyond them is refused before its blocks cost the call's memory.
MAX_BLOCKS = 200_000
MAX_INLINE = 200_000


class Flow:
    """The element stack, the sinks and the page's blocks, written in document order."""

    def __init__(self) -> None:
        self.stack: list[Frame] = []
        self.open: dict[str, int] = {}  # open elements per tag, so a stray end tag is ignored cheaply
        self.skip = 0  # >0 inside a dropped element
        self.flow = Sink(FLOW)
        self.sinks: list[Sink] = [self.flow]
        self.blocks: list[Block] = []
        self.runin = ""  # a run-in label waiting for its paragraph
        self.in_abstract = 0
        self.in_bibliography = 0
        self.inline: list[Inline] = []  # citations and in-text equations read since the last block
        self._inline_count = 0

    # --- opening elements -----------------------------------------------------------------

    def push(self, frame: Frame) -> None:
        self.stack.append(frame)
        self.open[frame.tag] = self.open.get(frame.tag, 0) + 1

    def plain(self, tag: str) -> None:
        """An element whose end does nothing."""
        self.push(Frame(tag))

    def block(self, tag: str) -> None:
        """A block element: both its edges end the paragraph."""
        self.boundary()
        self.push(Frame(tag, BLOCK))

    def start_skip(self, tag: str) -> None:
        self.skip += 1
        self.push(Frame(tag, SKIP))

    def push_sink(self, tag: str, kind: str) -> Sink:
        sink = Sink(kind)
        self.sinks.append(sink)
        self.push(Frame(tag, kind, sink))
        return sink

    # --- writing --------------------------------------------------------------------------

    def boundary(self) -> None:
        """A block edge: ends the flow paragraph; inside a capture it is just a space."""
        sink = self.sinks[-1]
        if sink is self.flow:
            self.flush()
        else:
            sink.parts.append(" ")

    def flush(self) -> None:
        """The flow's pending text becomes a paragraph (after a waiting run-in label)."""
        parts = self.flow.parts
        if not parts:
            return
        text = collapse("".join(parts))
        parts.clear()
        if text:
            if self.runin:
                text = f"{self.runin} {text}"
                self.runin = ""
            self.emit(Block.PARA, text)

    def emit(self, kind: str, text: str) -> None:
        if self.runin and kind != Block.PARA:
            runin, self.runin = self.runin, ""
            self.emit(Block.PARA, runin)
        body = kind != Block.HEADING and not self.in_abstract and not self.in_bibliography
        block = Block(kind, text, body)
        if self.inline:
            self._inline_count += len(self.inline)
            if self._inline_count > MAX_INLINE:
                raise ExtractionError(f"The HTML page has over {MAX_INLINE:,} citations, far beyond any paper.")
            block.inline, self.inline = self.inline, []
        if len(self.blocks) >= MAX_BLOCKS:
            raise ExtractionError(f"The HTML page has over {MAX_BLOCKS:,} paragraphs, far beyond any paper.")
        self.blocks.append(block)

    def group(self, first: int, record: object) -> None:
        """The blocks from `first` on become one group block carrying `record` (a group inside
        them gives up its own record: blocks never overlap). Inside a capture (a float in a
        footnote or list item) nothing is grouped: the paragraph around it is still open."""
        if self.sinks[-1] is not self.flow:
            return
        self.flush()
        children: list[Block] = []
        for block in self.blocks[first:]:
            children.extend(block.children if block.kind == Block.GROUP else (block,))
        if not children:
            return
        group = Block(Block.GROUP, "", any(child.body for child in children))
        group.record, group.children = record, children
        del self.blocks[first:]
        self.blocks.append(group)

    def wrap(self, block: Block, record: object) -> None:
        """One written block becomes a group of itself carrying `record`."""
        for index in range(len(self.blocks) - 1, -1, -1):
            if self.blocks[index] is block:
                group = Block(Block.GROUP, "", block.body)
                group.record, group.children = record, [block]
                self.blocks[index] = group
                return

    def emit_lines(self, lines: list[str]) -> None:
        kept = [line for line in lines if line.strip()]
        if kept:
            self.emit(Block.LINES, "\n".join(kept))
