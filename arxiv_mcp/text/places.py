"""Where an offset of a document's text is: its section and the block it sits in, named as a
reader would say it ("paragraph of section 3.2", "caption of Figure 3", "Table 2", "Eq. (7)",
"reference [12]", "Lemma 4.1", "Algorithm 1", "footnote 3").

Pure look-ups over a `Document` and its outline (both sorted by offset, so each look-up is a
bisection); the views and `find_in_paper` share them, so they name places alike.
"""

from __future__ import annotations

import bisect

from .document import Algorithm, Block, Document, Equation, Figure, Footnote, Kind, Reference, Statement, Table
from .outline import Heading, outline


class Places:
    def __init__(self, doc: Document, headings: list[Heading] | None = None):
        self.doc = doc
        self.headings = outline(doc) if headings is None else headings
        self._heading_starts = [h.start for h in self.headings]
        self._block_starts = [b.start for b in doc.blocks]

    def section(self, offset: int) -> Heading | None:
        """The innermost heading whose section holds `offset` (sections nest in text order)."""
        index = bisect.bisect_right(self._heading_starts, offset) - 1
        while index >= 0:
            heading = self.headings[index]
            if heading.start <= offset < max(heading.end, heading.start + 1):
                return heading
            index -= 1
        return None

    def section_name(self, offset: int) -> str | None:
        heading = self.section(offset)
        return heading.title if heading else None

    def block(self, offset: int) -> Block | None:
        index = bisect.bisect_right(self._block_starts, offset) - 1
        if index >= 0 and offset < self.doc.blocks[index].end:
            return self.doc.blocks[index]
        return None

    def block_index(self, block: Block) -> int:
        return bisect.bisect_left(self._block_starts, block.start)

    def describe(self, offset: int) -> str:
        """The block at `offset` as a reader names it."""
        block = self.block(offset)
        record = block.record if block else None
        if isinstance(record, Figure):
            return f"caption of {record.label}"
        if isinstance(record, Table):
            return record.label
        if isinstance(record, Equation):
            return f"Eq. ({record.number})"
        if isinstance(record, Reference):
            return f"reference {reference_label(record)}"
        if isinstance(record, Statement | Algorithm):
            return " ".join(part for part in (record.label, record.number) if part)
        if isinstance(record, Footnote):
            return f"footnote {record.mark}"
        kind = block.kind.value if block and block.kind is not Kind.PAGE else "paragraph"
        heading = self.section(offset)
        if heading is None:
            return kind
        if block is not None and block.kind is Kind.HEADING:
            return "heading of " + section_words(heading)
        return f"{kind} of {section_words(heading)}"


def section_words(heading: Heading) -> str:
    """`section 3.2` (`appendix B`) for a numbered heading, else `section "Related Work"`."""
    if not heading.printed:
        return f'section "{heading.title}"'
    appendix = heading.title.casefold().startswith("appendix") or (
        heading.printed[0].isalpha() and not set(heading.printed.split(".")[0]) <= set("IVXLC")
    )
    return f"{'appendix' if appendix else 'section'} {heading.printed}"


def reference_label(reference: Reference) -> str:
    """`[12]` for a numbered entry; an author-year label as it is."""
    label = reference.label.strip()
    return label if label.startswith("[") or not label.isalnum() else f"[{label}]"
