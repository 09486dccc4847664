"""A page's blocks -> its `Document`: the text exactly as the reader renders it, and the records.

The text is the title line, the author paragraphs, then every block, one blank line
between them; a body line never starts with `#`. Headings carry the number their
`ltx_tag` printed; a group (figure, table, equation, bibliography entry) is one block with
its record, its own blocks rendered inside it as they would be alone, with the citations
printed in them (a caption's `[12]`). A citation is placed where its printed text stands in
the block it was read in (one that cannot be found there, or that names no entry of the
bibliography, is left out rather than guessed); so is a numbered equation written inside a
list item or a note.
"""

from __future__ import annotations

from collections.abc import Sequence

from ... import budget
from ..document import Algorithm, Document, DocumentBuilder, Equation, Figure, Kind, Reference, Table
from ..shape import escape_line
from .parts import Block, Inline

_KINDS: dict[type, Kind] = {
    Figure: Kind.FIGURE,
    Table: Kind.TABLE,
    Equation: Kind.EQUATION,
    Reference: Kind.REFERENCE,
    Algorithm: Kind.ALGORITHM,
}


_CHECK_EVERY = 4096
TOO_BIG_FOR_DEADLINE = (
    "the page is too big to read in time: raise ARXIV_MCP_DEADLINE_S, or use download_paper for the PDF"
)


def write_document(title: str, author_paragraphs: list[str], blocks: list[Block]) -> Document:
    """The document of a read page; `blocks` is consumed (emptied) as it is written, in one
    pass (linear in the blocks and their inline marks)."""
    builder = DocumentBuilder()
    builder.add_text(f"# {title}")
    for paragraph in author_paragraphs:
        builder.separate()
        builder.add_text(escape_line(paragraph))
    keys = {block.record.key for block in blocks if isinstance(block.record, Reference) and block.record.key}
    before_first_heading = True
    blocks.reverse()  # taken from the end, so each block is let go of once it is written
    while blocks:
        if len(blocks) % _CHECK_EVERY == 0:  # the call's deadline, seen in a page of 200,000 blocks too
            budget.check("Writing the HTML page's document", TOO_BIG_FOR_DEADLINE)
        block = blocks.pop()
        if block.kind == Block.HEADING:
            before_first_heading = False
            _heading(builder, block)
        elif before_first_heading and block.kind == Block.PARA and block.text == title:
            continue  # a title page that repeats the title as a paragraph
        elif block.kind == Block.GROUP and type(block.record) in _KINDS:
            rendered = "\n\n".join(_rendered(child) for child in block.children)
            cites = [cite for child in block.children for cite in _citations(child.inline, keys)]
            builder.block(_KINDS[type(block.record)], rendered, block.record, cites)  # type: ignore[arg-type]
        else:
            builder.separate()
            _with_inline(builder, _rendered(block), block.inline, keys)
    return builder.build()


def _heading(builder: DocumentBuilder, block: Block) -> None:
    hashes, _, title = block.text.partition(" ")
    if not title.strip() or hashes.strip("#"):
        builder.separate()
        builder.add_text(block.text)
        return
    builder.heading(len(hashes), title, block.number)


def _rendered(block: Block) -> str:
    if block.kind == Block.HEADING:
        return block.text
    if block.kind == Block.GROUP:
        return "\n\n".join(_rendered(child) for child in block.children)
    return "\n".join(escape_line(line.rstrip()) for line in block.text.split("\n"))


def _citations(inline: Sequence[Inline], keys: set[str]) -> list[tuple[str, tuple[str, ...]]]:
    """The citations among `inline` that name entries of the bibliography, with those entries."""
    found = []
    for printed, what in inline:
        named = tuple(target for target in what if target in keys) if isinstance(what, tuple) else ()
        if named:
            found.append((printed, named))
    return found


def _with_inline(builder: DocumentBuilder, text: str, inline: Sequence[Inline], keys: set[str]) -> None:
    """`text` with its citations and in-text equations marked where their text stands."""
    position = 0
    for printed, what in inline:
        named = tuple(target for target in what if target in keys) if isinstance(what, tuple) else ()
        if not (named or isinstance(what, Equation)):
            continue
        found = text.find(printed, position)
        if found < 0:
            continue
        builder.add_text(text[position:found])
        if isinstance(what, Equation):
            builder.inline(Kind.EQUATION, printed, what)
        else:
            builder.cite(printed, named)
        position = found + len(printed)
    builder.add_text(text[position:])
