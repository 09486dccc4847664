"""The streaming reader behind `html_document`: HTMLParser events -> the handler units.

One pass of the standard library's `HTMLParser` over an explicit, depth-capped element
stack (`Flow`), so hostile nesting cannot recurse or grow memory without bound. Which unit
an element goes to is decided by two dispatch tables: element starts by tag and LaTeXML
class (in a fixed priority order, each handler taking the element or passing it on), and
element ends by the kind their start recorded. Inside the author block, its own unit
(`AuthorBlock`) reads every element. Counters refuse a page beyond any paper (text, table
cells, notes, elements) as soon as it crosses the bound.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser
from typing import cast

from ...errors import ExtractionError
from ..bibids import arxiv_id_in
from ..document import Document
from .authors import AuthorBlock
from .floats import ALGORITHM_CLASSES, Floats
from .flow import Flow
from .lists import Lists
from .math import Math
from .page import write_document
from .parts import (
    ABSTRACT,
    AFFILIATION,
    AUTHOR_MARK,
    AUTHOR_NOTE,
    AUTHOR_NOTES,
    AUTHOR_SINKS,
    AUTHORS,
    BIB_ITEM,
    BIB_TAG,
    BIBLIOGRAPHY,
    BLOCK,
    BLOCK_TAGS,
    CAPTION,
    CELL,
    CONTACT,
    CREATOR,
    DOC,
    EQ_NUMBER,
    EQ_ROW,
    EQ_UNIT,
    ERROR,
    FLOAT,
    FLOAT_CAPTION,
    HEAD_TITLE,
    HEADING,
    INLINE_TABLE,
    ITEM,
    ITEM_TAG,
    LINE,
    LIST,
    LISTING,
    NAME,
    NAME_LINES,
    NOTE,
    NOTE_MARK,
    PAPER_LINK,
    PRE,
    PUBNOTE,
    PUBNOTES,
    ROW,
    RUNIN,
    SILENT_SINKS,
    SKIP,
    TABLE,
    TAP,
    TEX_MATH,
    TEX_READING,
    TITLE,
    Frame,
    Sink,
    collapse,
)
from .pubnotes import PubNotes
from .sections import Sections
from .tables import Tables

_LINK_LOOKBACK = 64
"""Text parts a paper link looks back over for its id already written."""
_CODE_SINKS = frozenset({PRE, LINE})
_MAX_DEPTH = 2000  # deeper elements are parsed for text but not tracked
# What no paper comes near (the largest real pages hold ~1M characters of text, a few
# thousand table cells and notes): a page beyond one is refused before it costs the memory
# and the time of the call.
_MAX_TEXT_CHARS = 8_000_000
_MAX_CELLS = 250_000
_MAX_ELEMENTS = 2_500_000  # ~20 s of reading; real pages hold ~12,000 per MB, 1.2M at the download limit
_MAX_NOTES = 100_000
_MIN_BODY_CHARS = 500  # the shortest real fixture body is ~8,000; stubs are < 200
_DIAGNOSTIC_CHARS = 4000  # text kept from outside the document to name a stub page

_VOID_TAGS = frozenset(
    "area base basefont br col command embed frame hr img input isindex keygen link meta param source track wbr".split()
)
_DROPPED_TAGS = frozenset(
    "script style noscript template nav header footer button form select option textarea "
    "svg object iframe canvas video audio dialog picture map".split()
)
_DROPPED_CLASSES = frozenset(
    (
        "ltx_page_header ltx_page_footer ltx_page_navbar ltx_page_logo ltx_TOC ltx_rdf "
        "ltx_listing_data ltx_note_type ltx_pagination package-alerts sr-only is-sr-only "
        "visually-hidden keyboard-glossary back-to-reference-btn desktop_header mob_header "
        "tikz-overlay"
    ).split()
)
_DROPPED_CLASS_PREFIXES = ("ar5iv-", "html-header")
# Notes of the front matter wherever LaTeXML puts them (often before the title).
_FRONT_NOTE_ROLES = frozenset(("ltx_role_institutetext", "ltx_role_affiliationtext", "ltx_role_thanks"))
_THANKS_PUBNOTE_ROLES = frozenset(("ltx_role_thanks", "ltx_role_footnote", "ltx_role_note"))
_HEAD_TITLE_ID = re.compile(r"^\[[^\]]{1,40}\]\s*")  # ar5iv: "[1706.03762] Title"
_STUB_PHRASES = ("html is not available", "no html for", "no content available", "conversion to html had a fatal error")

Attributes = dict[str, str | None]
StartRule = Callable[[str, Attributes, frozenset[str], Sink], bool]


class PageParser(HTMLParser):
    """HTMLParser events -> the units' blocks, plus what the stub check needs."""

    def __init__(self, authored: bool = False) -> None:
        super().__init__(convert_charrefs=True)
        self._authored = authored
        self._flow = flow = Flow()
        self._overflow = 0
        self._doc = 0
        self._saw_doc = False
        self._abs_page = False
        self._outside_text: list[str] = []
        self._outside_chars = 0
        self._chars = 0
        self._cells = 0
        self._elements = 0
        self._notes = 0
        self._sections = Sections(flow)
        self._floats = Floats(flow)
        self._tables = Tables(flow, self._floats)
        self._lists = Lists(flow)
        self._math = Math(flow)
        self._authors = AuthorBlock(flow)
        self._pubnotes = PubNotes(flow)
        self._tag_rules, self._class_rules = self._start_rules()
        self._frame_ends, self._sink_ends = self._end_rules()

    def _start_rules(self) -> tuple[dict[str, tuple[int, StartRule]], dict[str, tuple[int, StartRule]]]:
        """Element starts by tag and by class, in priority order (the first listed is tried first)."""
        sections, tables, lists, floats = self._sections, self._tables, self._lists, self._floats
        ordered: list[tuple[tuple[str, ...], tuple[str, ...], StartRule]] = [  # (tags, classes, handler)
            (("math",), (), self._math.start),
            ((), ("ltx_ERROR",), sections.start_error),
            ((), ("ltx_note",), self._start_note),
            ((), ("ltx_pubnotes",), self._pubnotes.start_block),
            ((), ("ltx_pubnote",), self._start_pubnote),
            ((), ("ltx_note_name",), self._pubnotes.start_name),
            ((), ("ltx_note_mark", "ltx_tag_note"), sections.start_note_mark),
            (Sections.HEADING_TAGS, ("ltx_title",), sections.start_title),
            ((), ("ltx_authors",), self._authors.start_block),
            ((), ("ltx_abstract",), sections.start_abstract),
            ((), ("ltx_bibliography",), sections.start_bibliography),
            ((), ("ltx_tag_bibitem",), sections.start_bib_tag),
            ((), ("ltx_biblist",), sections.start_bib_list),
            ((), ("ltx_bibitem",), sections.start_bib_item),
            ((), ("ltx_bibblock",), sections.start_bib_block),
            ((), ("ltx_tag_item",), lists.start_item_tag),
            (("figure",), ("ltx_figure", "ltx_table", *ALGORITHM_CLASSES), floats.start_float),
            (("figcaption",), (), floats.start_caption),
            ((), ("ltx_cite",), floats.start_cite),
            (("a",), (), self._start_link),
            (("table",), ("ltx_tabular",), tables.start_table),
            (("tbody",), (), tables.start_body),
            (("tr",), ("ltx_tr",), tables.start_row),
            (("td", "th"), ("ltx_td",), tables.start_cell),
            (("caption",), (), tables.start_caption),
            (("ul", "ol", "dl"), tuple(Lists.LIST_CLASSES), lists.start_list),
            (("li", "dt", "dd"), (), lists.start_item),
            ((), ("ltx_listing",), lists.start_listing),
            ((), ("ltx_listingline",), lists.start_listing_line),
            (("pre",), (), lists.start_pre),
            ((), ("ltx_tag",), floats.start_tag),
        ]
        by_tag: dict[str, tuple[int, StartRule]] = {}
        by_class: dict[str, tuple[int, StartRule]] = {}
        for priority, (tags, classes, handler) in enumerate(ordered):
            by_tag.update((tag, (priority, handler)) for tag in tags)
            by_class.update((name, (priority, handler)) for name in classes)
        return by_tag, by_class

    def _end_rules(
        self,
    ) -> tuple[dict[str, Callable[[Frame], None]], dict[str, Callable[[Frame, Sink], None]]]:
        """Element ends by the kind their start recorded: frames without a sink, and sinks."""
        flow, sections, tables, lists, math, authors, floats = (
            self._flow,
            self._sections,
            self._tables,
            self._lists,
            self._math,
            self._authors,
            self._floats,
        )

        def end_skip(frame: Frame) -> None:
            flow.skip -= 1

        def end_doc(frame: Frame) -> None:
            flow.flush()
            self._doc -= 1

        frame_ends: dict[str, Callable[[Frame], None]] = {
            SKIP: end_skip,
            BLOCK: lambda frame: flow.boundary(),
            ROW: tables.close_row,
            TEX_MATH: math.close_tex_math,
            TEX_READING: math.close_annotation,
            DOC: end_doc,
            ABSTRACT: sections.close_abstract,
            BIBLIOGRAPHY: sections.close_bibliography,
            BIB_ITEM: sections.close_bib_item,
            TABLE: tables.close_table,
            LIST: lists.close_list,
            LISTING: lists.close_listing,
            CREATOR: authors.close_creator,
            PUBNOTES: self._pubnotes.close_block,
            PAPER_LINK: self._close_paper_link,
            FLOAT: floats.close_float,
            FLOAT_CAPTION: floats.close_caption,
            EQ_UNIT: tables.close_body,
        }
        sink_ends: dict[str, Callable[[Frame, Sink], None]] = {
            HEAD_TITLE: sections.close_head_title,
            TITLE: sections.close_title,
            HEADING: sections.close_heading,
            RUNIN: sections.close_runin,
            NOTE: sections.close_note,
            NOTE_MARK: sections.close_note_mark,
            ERROR: sections.close_error,
            BIB_TAG: sections.close_bib_tag,
            ITEM_TAG: lists.close_item_tag,
            ITEM: lists.close_item,
            LINE: lists.close_line,
            PRE: lists.close_pre,
            CELL: tables.close_cell,
            CAPTION: tables.close_caption,
            EQ_NUMBER: tables.close_number,
            INLINE_TABLE: tables.close_inline,
            EQ_ROW: tables.close_equation_row,
            AUTHORS: authors.close_block,
            NAME: authors.close_name,
            NAME_LINES: authors.close_name,
            AFFILIATION: authors.close_affiliation,
            CONTACT: authors.close_contact,
            AUTHOR_NOTES: authors.close_author_notes,
            AUTHOR_NOTE: authors.close_note,
            AUTHOR_MARK: authors.close_mark,
            TAP: floats.close_tap,
            PUBNOTE: self._pubnotes.close_note,
        }
        return frame_ends, sink_ends

    # --- HTMLParser callbacks ------------------------------------------------------------

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        flow = self._flow
        self._elements += 1
        if self._elements > _MAX_ELEMENTS:
            raise ExtractionError(f"The HTML page has over {_MAX_ELEMENTS:,} elements, far beyond any paper.")
        if tag in ("td", "th"):
            self._cells += 1
            if self._cells > _MAX_CELLS:
                raise ExtractionError(f"The HTML page has over {_MAX_CELLS:,} table cells, far beyond any paper.")
        if tag in _VOID_TAGS:
            self._void(tag, attrs)
            return
        if len(flow.stack) >= _MAX_DEPTH:
            self._overflow += 1
            return
        if flow.skip:
            if not self._math.start_annotation(tag, attrs):
                flow.plain(tag)
            return
        attributes = dict(attrs)
        class_attr = attributes.get("class") or ""
        classes = frozenset(class_attr.split()) if class_attr else frozenset()
        if _hidden(tag, attributes, classes):
            flow.start_skip(tag)
        elif tag == "title" and not self._doc and self._sections.head_title is None:
            flow.push_sink(tag, HEAD_TITLE)
        elif not self._doc:
            if "ltx_document" in classes or (self._authored and tag == "body"):
                self._doc += 1
                self._saw_doc = True
                flow.push(Frame(tag, DOC))
            elif self._authored and tag not in ("html", "head"):
                self._doc += 1  # a hand-written page without <body>: the paper starts at its first element
                self._saw_doc = True
                self._start_in_document(tag, attributes, classes)
            else:
                flow.plain(tag)
        else:
            self._start_in_document(tag, attributes, classes)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID_TAGS:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if self._overflow:
            self._overflow -= 1
            return
        flow = self._flow
        if not flow.open.get(tag):
            return
        while flow.stack:
            frame = flow.stack.pop()
            flow.open[frame.tag] -= 1
            if frame.kind is not None:
                self._close(frame)
            if frame.tag == tag:
                break

    def handle_data(self, data: str) -> None:
        flow = self._flow
        self._chars += len(data)
        if self._chars > _MAX_TEXT_CHARS:
            raise ExtractionError(
                f"The HTML page holds over {_MAX_TEXT_CHARS:,} characters of text, far beyond any paper."
            )
        if flow.skip:
            if self._math.reading and self._math.tex is not None:
                self._math.tex.parts.append(data)
            return
        sink = flow.sinks[-1]
        if sink is flow.flow and not self._doc:
            if self._outside_chars < _DIAGNOSTIC_CHARS:
                self._outside_text.append(data)
                self._outside_chars += len(data)
            return
        if sink.kind not in SILENT_SINKS:
            # a literal dollar beside LaTeXML's $-delimited math stays escaped, as Markdown writes
            # it ("\\$5M", not "$5M ... $2" read as a formula); code keeps its dollars, and so does
            # an authored page, whose dollars may open its own TeX math (MathJax's `$x$`)
            escape = "$" in data and not self._authored and sink.kind not in _CODE_SINKS
            sink.parts.append(data.replace("$", "\\$") if escape else data)

    # --- element starts and ends -----------------------------------------------------------

    def _void(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._flow.skip:
            return
        if tag == "meta":
            name = dict(attrs).get("name") or ""
            if name.startswith("citation_"):
                self._abs_page = True
        elif not self._doc:
            return
        elif tag == "br":
            sink = self._flow.sinks[-1]
            if sink.kind in AUTHOR_SINKS:
                self._authors.line_break(sink)
            elif sink.kind == PRE:
                sink.parts.append("\n")
            else:
                sink.parts.append(" ")
        elif tag == "hr":
            self._flow.boundary()
        elif tag == "img":
            self._floats.image(dict(attrs))

    def _start_in_document(self, tag: str, attributes: Attributes, classes: frozenset[str]) -> None:
        sink = self._flow.sinks[-1]
        if sink.kind in AUTHOR_SINKS and "ltx_ERROR" not in classes:
            self._authors.start(tag, attributes, classes, sink)
            return
        rules: list[tuple[int, StartRule]] = []
        rule = self._tag_rules.get(tag)
        if rule is not None:
            rules.append(rule)
        for name in classes:
            rule = self._class_rules.get(name)
            if rule is not None:
                rules.append(rule)
        if len(rules) > 1:
            rules.sort(key=_priority)
        for _, handler in rules:
            if handler(tag, attributes, classes, sink):
                return
        if tag in BLOCK_TAGS:
            self._flow.block(tag)
        else:
            self._flow.plain(tag)

    def _start_note(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        """Front-matter notes and the title's notes belong to the author block; others are footnotes.

        A `\\footnotetext` before the first section is the front matter's too ("Equal
        contribution", ICML's affiliation notice): papers write it right after the title."""
        self._notes += 1
        if self._notes > _MAX_NOTES:
            raise ExtractionError(f"The HTML page has over {_MAX_NOTES:,} notes, far beyond any paper.")
        front_text = "ltx_role_footnotetext" in classes and not self._sections.sections
        if sink.kind == TITLE or front_text or not classes.isdisjoint(_FRONT_NOTE_ROLES):
            self._authors.start_note(tag, classes, sink)
            return True
        return self._sections.start_note(tag, attributes, classes, sink)

    def _start_pubnote(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        """latexml-oxide's notes of the title: a `\\thanks` goes with the author notes, the
        publication metadata (DOI, journal, CCS concepts) is read as short lines."""
        if not classes.isdisjoint(_THANKS_PUBNOTE_ROLES):
            self._authors.start_note(tag, classes, sink)
        else:
            self._pubnotes.start_note(tag)
        return True

    def _start_link(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        """An `<a>` is plain text; its address may name a citation's entry or an entry's ids.
        On an authored page (an HTML-only e-print: a proceedings index, typically) a link to an
        arXiv paper is the content: its id follows the link's text unless that text states it
        (`download` becomes `download arXiv:1604.02246`)."""
        self._floats.link(attributes)
        self._sections.link(attributes)
        paper = arxiv_id_in(attributes.get("href") or "") if self._authored else None
        if paper is None:
            return False
        self._flow.push(Frame(tag, PAPER_LINK, state=(paper, sink)))  # a frame's own sink is one it opened
        return True

    def _close_paper_link(self, frame: Frame) -> None:
        """Once per paragraph: a title linked to the abstract and a `download` link to the PDF
        name one paper (the last parts suffice, and keep a long paragraph linear)."""
        paper, sink = cast(tuple[str, Sink], frame.state)
        if sink.kind not in SILENT_SINKS and paper not in "".join(sink.parts[-_LINK_LOOKBACK:]):
            sink.parts.append(f" arXiv:{paper}")

    def _close(self, frame: Frame) -> None:
        sink = frame.sink
        if sink is not None:
            self._flow.sinks.pop()
            end = self._sink_ends.get(sink.kind)
            if end is not None:
                end(frame, sink)
        else:
            frame_end = self._frame_ends.get(frame.kind or "")
            if frame_end is not None:
                frame_end(frame)

    # --- the result ---------------------------------------------------------------------

    def finish(self) -> Document:
        flow = self._flow
        while flow.stack:
            frame = flow.stack.pop()
            flow.open[frame.tag] -= 1
            if frame.kind is not None:
                self._close(frame)
        flow.flush()
        self._reject_stub()
        sections = self._sections
        title = sections.title or _HEAD_TITLE_ID.sub("", sections.head_title or "").strip() or "Untitled"
        return write_document(title, self._authors.render(), flow.blocks)

    def _reject_stub(self) -> None:
        if self._sections.fatal:
            raise ExtractionError("The page is ar5iv's 'Conversion to HTML had a Fatal error' notice, not the paper.")
        if not self._saw_doc:
            outside = collapse(" ".join(self._outside_text)).lower()
            if any(phrase in outside for phrase in _STUB_PHRASES):
                raise ExtractionError("arXiv has no HTML rendition of this paper (its 'HTML is not available' page).")
            if self._abs_page:
                raise ExtractionError(
                    "The HTML address answered with the paper's abstract page (arXiv redirects there when no "
                    "HTML rendition exists), so there is no full text in it."
                )
            raise ExtractionError(
                "The page is not LaTeXML output (no ltx_document element), so it holds no paper text."
            )
        body_chars = sum(
            len(child.text) for block in self._flow.blocks for child in (block.children or (block,)) if child.body
        )
        if body_chars < _MIN_BODY_CHARS:
            raise ExtractionError(
                f"The HTML rendition has only {body_chars} characters of body text besides the title and "
                "abstract: a stub or a failed conversion."
            )
        if not self._sections.sections and not self._sections.bib_entries:
            raise ExtractionError(
                "The HTML rendition has neither section headings nor a bibliography, so it does not look "
                "like a converted paper."
            )


def _priority(rule: tuple[int, StartRule]) -> int:
    return rule[0]


def _hidden(tag: str, attributes: Attributes, classes: frozenset[str]) -> bool:
    if tag in _DROPPED_TAGS or "hidden" in attributes:
        return True
    if classes and (
        not classes.isdisjoint(_DROPPED_CLASSES) or any(name.startswith(_DROPPED_CLASS_PREFIXES) for name in classes)
    ):
        return True
    style = attributes.get("style")
    if style and "display" in style:
        compact = style.replace(" ", "").lower()
        return "display:none" in compact
    return False
