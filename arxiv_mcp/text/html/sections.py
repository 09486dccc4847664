"""The document's structure in LaTeXML HTML: title, headings, abstract, footnotes, references.

Headings are `##` section/appendix/chapter, `###` subsection, `####` subsubsection, `#####`
paragraph-level titles, each with its number; other titles (theorem, proof, keywords) run
into the next paragraph. The abstract and bibliography get fixed `## Abstract` and
`## References` headings, and each reference is one paragraph led by its label. Footnotes
stay inline as ` [^N: text]`; a heading's footnote is written right after that heading.
"""

from __future__ import annotations

from .. import bibids
from ..document import Reference
from .flow import Flow
from .parts import (
    ABSTRACT,
    BIB_ITEM,
    BIB_TAG,
    BIBLIOGRAPHY,
    ERROR,
    HEADING,
    NO_NOTE_SINKS,
    NOTE,
    NOTE_MARK,
    RUNIN,
    TITLE,
    Block,
    Frame,
    Sink,
)

_HEADING_LEVELS = {
    "ltx_title_part": 2,
    "ltx_title_chapter": 2,
    "ltx_title_section": 2,
    "ltx_title_appendix": 2,
    "ltx_title_acknowledgements": 2,
    "ltx_title_index": 2,
    "ltx_title_glossary": 2,
    "ltx_title_subsection": 3,
    "ltx_title_subsubsection": 4,
    "ltx_title_paragraph": 5,
    "ltx_title_subparagraph": 5,
}
_PLAIN_HEADING_LEVELS = {"h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 5}
_KEPT_NOTE_ROLES = frozenset(("ltx_role_footnote", "ltx_role_endnote"))

Attributes = dict[str, str | None]
_MAX_LINKS = 20  # per bibliography entry


class _Entry:
    """The bibliography entry being read: where its blocks start, its id, label and links."""

    __slots__ = ("first", "key", "label", "links")

    def __init__(self, first: int, key: str | None) -> None:
        self.first = first
        self.key = key
        self.label = ""
        self.links: list[str] = []


class Sections:
    """Opens and closes titles, headings, notes, the abstract and the bibliography."""

    HEADING_TAGS = ("h1", "h2", "h3", "h4", "h5", "h6")

    def __init__(self, flow: Flow) -> None:
        self._flow = flow
        self._deferred_notes: list[str] = []  # footnotes of the heading being read
        self.title: str | None = None
        self.head_title: str | None = None
        self.sections = 0  # headings outside the abstract and references
        self.bib_entries = 0
        self.fatal = False  # LaTeXML reported a fatal conversion error
        self._entry: _Entry | None = None

    # --- starts (each returns whether it took the element) ----------------------------------

    def start_title(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        flow = self._flow
        kinds = [name for name in classes if name.startswith("ltx_title_")]
        kind = kinds[0] if kinds else ""
        if sink is not flow.flow:
            flow.block(tag)
        elif kind in ("ltx_title_abstract", "ltx_title_bibliography"):
            flow.start_skip(tag)  # replaced by the fixed "## Abstract" / "## References"
        elif (kind == "ltx_title_document" or (tag == "h1" and not kind)) and self.title is None:
            flow.push_sink(tag, TITLE)
        elif kind in _HEADING_LEVELS or (not kind and tag in _PLAIN_HEADING_LEVELS):
            flow.flush()
            heading = flow.push_sink(tag, HEADING)
            heading.depth = _HEADING_LEVELS.get(kind) or _PLAIN_HEADING_LEVELS.get(tag, 2)
        else:  # theorem, proof, keywords...: a run-in label for the next paragraph
            flow.flush()
            flow.push_sink(tag, RUNIN)
        return True

    def start_note(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        if classes.isdisjoint(_KEPT_NOTE_ROLES) or sink.kind in NO_NOTE_SINKS:
            self._flow.start_skip(tag)
        else:
            self._flow.push_sink(tag, NOTE)
        return True

    def start_note_mark(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        if sink.kind != NOTE:
            return False
        self._flow.push_sink(tag, NOTE_MARK)
        return True

    def start_error(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        self._flow.push_sink(tag, ERROR)
        return True

    def start_abstract(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        return self._start_part(tag, sink, "## Abstract", ABSTRACT)

    def start_bibliography(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        return self._start_part(tag, sink, "## References", BIBLIOGRAPHY)

    def _start_part(self, tag: str, sink: Sink, heading: str, kind: str) -> bool:
        flow = self._flow
        if sink is not flow.flow:
            return False
        flow.flush()
        flow.emit(Block.HEADING, heading)
        if kind == ABSTRACT:
            flow.in_abstract += 1
        else:
            flow.in_bibliography += 1
        flow.push(Frame(tag, kind))
        return True

    def start_bib_tag(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        self._flow.push_sink(tag, BIB_TAG)
        return True

    def start_bib_list(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        self._flow.block(tag)
        return True

    def start_bib_item(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        flow = self._flow
        flow.boundary()
        flow.push(Frame(tag, BIB_ITEM, state=_Entry(len(flow.blocks), attributes.get("id"))))
        self._entry = flow.stack[-1].state  # type: ignore[assignment]
        return True

    def link(self, attributes: Attributes) -> None:
        """An `<a>` inside a bibliography entry: its address may state the entry's DOI or arXiv id."""
        href = attributes.get("href")
        if self._entry is not None and href and len(self._entry.links) < _MAX_LINKS:
            self._entry.links.append(href)

    def start_bib_block(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        sink.parts.append(" ")
        self._flow.plain(tag)
        return True

    # --- ends of elements without a sink ----------------------------------------------------

    def close_abstract(self, frame: Frame) -> None:
        self._flow.flush()
        self._flow.in_abstract -= 1

    def close_bibliography(self, frame: Frame) -> None:
        self._flow.flush()
        self._flow.in_bibliography -= 1

    def close_bib_item(self, frame: Frame) -> None:
        flow = self._flow
        flow.flush()
        self.bib_entries += 1
        entry = frame.state
        if self._entry is entry:
            self._entry = None
        if not isinstance(entry, _Entry):
            return
        text = " ".join(block.text for block in flow.blocks[entry.first :])
        printed = _printed_label(entry.label)
        if printed and text.startswith(printed):
            text = text[len(printed) :].lstrip()
        if not text:
            return
        links = " ".join(entry.links)
        label = entry.label[1:-1].strip() if entry.label[:1] in "[(" and entry.label[-1:] in "])" else entry.label
        record = Reference(
            label=label or str(self.bib_entries),
            text=text,
            key=entry.key,
            arxiv_id=bibids.arxiv_id_in(text) or bibids.arxiv_id_in(links),
            doi=bibids.doi_in(text) or bibids.doi_in(links),
        )
        flow.group(entry.first, record)

    # --- ends of sinks ----------------------------------------------------------------------

    def close_head_title(self, frame: Frame, sink: Sink) -> None:
        self.head_title = sink.text()

    def close_title(self, frame: Frame, sink: Sink) -> None:
        self.title = sink.text() or None

    def close_heading(self, frame: Frame, sink: Sink) -> None:
        flow = self._flow
        text = sink.text()
        if text:
            flow.emit(Block.HEADING, "#" * sink.depth + " " + text)
            flow.blocks[-1].number = sink.number or None
            if not flow.in_abstract and not flow.in_bibliography:
                self.sections += 1
        if self._deferred_notes:
            flow.emit(Block.PARA, " ".join(self._deferred_notes))
            self._deferred_notes = []

    def close_runin(self, frame: Frame, sink: Sink) -> None:
        text = sink.text()
        if text:
            self._flow.runin = f"{self._flow.runin} {text}".strip()

    def close_note(self, frame: Frame, sink: Sink) -> None:
        text = sink.text()
        if not text:
            return
        note = f"[^{sink.label or '*'}: {text}]"
        parent = self._flow.sinks[-1]
        if parent.kind == HEADING:
            self._deferred_notes.append(note)
        else:
            parent.parts.append(" " + note)

    def close_note_mark(self, frame: Frame, sink: Sink) -> None:
        parent = self._flow.sinks[-1]
        if parent.kind == NOTE and not parent.label:
            parent.label = sink.text()

    def close_error(self, frame: Frame, sink: Sink) -> None:
        if "fatal error" in sink.text().lower():
            self.fatal = True

    def close_bib_tag(self, frame: Frame, sink: Sink) -> None:
        label = sink.text()
        if label:
            self._flow.sinks[-1].parts.append(_printed_label(label) + " ")
            if self._entry is not None and not self._entry.label:
                self._entry.label = label


def _printed_label(label: str) -> str:
    """How an entry's label leads its paragraph: `[12]`, `(Smith 2020)`, a bare label bracketed."""
    return label if not label or label[0] in "[(" else f"[{label}]"
