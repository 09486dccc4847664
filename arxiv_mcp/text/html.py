"""arXiv LaTeXML HTML and ar5iv pages -> the shared Markdown-ish full-text format.

One streaming pass of the standard library's `HTMLParser` over an explicit, depth-capped
element stack, so hostile nesting cannot recurse or grow memory without bound.

Output (shared with the LaTeX and PDF extractors; `textview` pages it):
- `# Title`, then the authors as one plain paragraph, then `## Abstract` and the abstract.
- Headings `##` section/appendix/chapter, `###` subsection, `####` subsubsection, `#####`
  paragraph-level titles, each with its number ("## 2 Related Work"); `## References` for the
  bibliography, one paragraph per entry with its label ("[12] ...").
- Paragraphs separated by one blank line, whitespace collapsed; a body line never starts
  with `#` (a leading `#` is written `\\#`).
- Math is the LaTeX of `alttext`: inline `$...$`; display math and equation tables become
  their own `$$...$$` paragraph, followed by the equation number ("(3)") when there is one.
- Footnotes stay inline where they are cited, as ` [^N: text]`; a footnote in a heading is
  written as a paragraph right after that heading, footnotes in the title or author block
  are dropped.
- Lists are `- item` / `1. item` lines (nested lists indented by two spaces), tables are
  `| a | b |` rows, captions ("Figure 1: ...") are paragraphs, links keep their text.
- Dropped: scripts, styles, site chrome (arXiv and ar5iv headers, footers, TOC, feedback
  UI, buttons), hidden elements, images, SVG, LaTeXML `ltx_ERROR` markers.

Stub pages raise `ExtractionError`: ar5iv's fatal-conversion page, arXiv's "HTML is not
available" page, an abs page served instead of the paper, and any page whose body (outside
title, authors, abstract and references) is under `_MIN_BODY_CHARS` characters or which has
neither a section heading nor a bibliography.
"""

from __future__ import annotations

import logging
import re
from html.parser import HTMLParser
from typing import cast

from .. import budget
from ..errors import ArxivMcpError, ExtractionError
from .shape import escape_line

logger = logging.getLogger(__name__)

_FEED_CHARS = 1 << 18
_TOO_BIG_FOR_DEADLINE = (
    "the page is too big to read in time: raise ARXIV_MCP_DEADLINE_S, or use download_paper for the PDF"
)
_MAX_DEPTH = 2000  # deeper elements are parsed for text but not tracked
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
_BLOCK_TAGS = frozenset(
    "address article aside blockquote body caption center dd details div dl dt fieldset "
    "figcaption figure h1 h2 h3 h4 h5 h6 hr html legend li main ol p pre section summary "
    "table tbody td tfoot th thead tr ul".split()
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
_EQUATION_TABLE_CLASSES = frozenset(("ltx_equation", "ltx_equationgroup", "ltx_eqn_table"))
_KEPT_NOTE_ROLES = frozenset(("ltx_role_footnote", "ltx_role_endnote"))
_BULLETS = frozenset("•·∙⋅◦∘○●▪▫■□–—-*∗⋆★►▶▸‣⁃")

# Sinks whose text never reaches the output, or that cannot hold math or footnotes.
_SILENT_SINKS = frozenset(("discard", "closed_name"))
_NO_MATH_SINKS = frozenset(("discard", "closed_name", "name", "mark"))
_NO_NOTE_SINKS = frozenset(
    ("discard", "closed_name", "name", "mark", "title", "headtitle", "eqno", "error", "itemtag", "bibtag")
)

_INVISIBLE: dict[int, str | None] = {code: None for code in (*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F)}
_INVISIBLE.update(
    {
        code: None
        for code in (
            0xAD,
            0x180E,
            0x200B,
            0x200C,
            0x200D,
            0x200E,
            0x200F,
            0x2060,
            0x2061,
            0x2062,
            0x2063,
            0x2064,
            0xFEFF,
            *range(0x202A, 0x202F),
            *range(0x2066, 0x206A),
        )
    }
)
_INVISIBLE[0xA0] = " "
_ALTTEXT_LINE_WRAP = re.compile(r"(?<!\\)%\n[ \t]*")  # LaTeXML wraps long alttext as "%\n"
_HEAD_TITLE_ID = re.compile(r"^\[[^\]]{1,40}\]\s*")  # ar5iv: "[1706.03762] Title"
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([,;])")
_REPEATED_COMMAS = re.compile(r",(?:\s*,)+")
_STUB_PHRASES = ("html is not available", "no html for", "no content available", "conversion to html had a fatal error")


def html_to_text(html: str, *, authored: bool = False) -> str:
    """Clean text of an arXiv HTML (LaTeXML) or ar5iv page; `ExtractionError` for stubs.

    `authored` marks a page the authors wrote themselves (an HTML-only e-print): it has no
    LaTeXML document element, so its whole `<body>` is the paper."""
    parser = _PageParser(authored=authored)
    try:
        page = _defuse(html)
        for start in range(0, len(page), _FEED_CHARS):  # fed in pieces, so the deadline is seen
            budget.check("Extracting the HTML page", _TOO_BIG_FOR_DEADLINE)
            parser.feed(page[start : start + _FEED_CHARS])
        parser.close()
        return parser.finish()
    except ArxivMcpError:  # a stub page, or the deadline
        raise
    except Exception as exc:  # the stdlib parser's reactions to hostile markup vary by version
        logger.warning("HTML page could not be parsed", exc_info=True)
        raise ExtractionError(
            f"The HTML page could not be parsed ({type(exc).__name__}); "
            "read the paper from its LaTeX source or PDF instead."
        ) from exc


def _defuse(html: str) -> str:
    """Neutralise the constructs that make `HTMLParser` rescan to the end of input.

    Python's parser looks ahead for a construct's terminator and, when there is none,
    gives up one character at a time: an unterminated tag after the last `>`, or many
    `<!--` / `<![` openers, make it quadratic. Comments are removed in one forward scan,
    `<![` sections are made text, and any `<` after the last `>` is escaped.
    """
    if "<!--" in html:
        pieces: list[str] = []
        position = 0
        while True:
            opening = html.find("<!--", position)
            if opening < 0:
                pieces.append(html[position:])
                break
            pieces.append(html[position:opening])
            closing = html.find("-->", opening + 4)
            if closing < 0:
                break  # an unterminated comment runs to the end of the document
            position = closing + 3
        html = "".join(pieces)
    html = html.replace("<![", "&lt;![")
    last_gt = html.rfind(">")
    if html.find("<", last_gt + 1) >= 0:
        html = html[: last_gt + 1] + html[last_gt + 1 :].replace("<", "&lt;")
    return html


def _collapse(text: str) -> str:
    return " ".join(text.translate(_INVISIBLE).split())


def _clean_alttext(alttext: str) -> str:
    return _collapse(_ALTTEXT_LINE_WRAP.sub("", alttext))


class _Sink:
    """Where text goes while an element is open: the page flow or a capturing element."""

    __slots__ = ("kind", "parts", "segments", "label", "number", "depth", "ordered", "index", "continued")

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.parts: list[str] = []
        self.segments: list[tuple[bool, str]] = []  # equation rows: (is_display_math, text)
        self.label = ""
        self.number = ""
        self.depth = 0
        self.ordered = False
        self.index = 0
        self.continued = False

    def text(self) -> str:
        return _collapse("".join(self.parts))


class _Frame:
    """One open element: its tag and what closing it must undo."""

    __slots__ = ("tag", "kind", "sink", "state")

    def __init__(self, tag: str, kind: str | None = None, sink: _Sink | None = None, state: object = None) -> None:
        self.tag = tag
        self.kind = kind
        self.sink = sink
        self.state = state


class _ListState:
    __slots__ = ("ordered", "count", "pending_term")

    def __init__(self, ordered: bool) -> None:
        self.ordered = ordered
        self.count = 0
        self.pending_term = ""


class _TableState:
    __slots__ = ("equations", "sink_depth", "rows", "row", "caption")

    def __init__(self, equations: bool, sink_depth: int) -> None:
        self.equations = equations
        self.sink_depth = sink_depth
        self.rows: list[str] = []
        self.row: list[str] | None = None
        self.caption = ""


class _Block:
    __slots__ = ("kind", "text", "body")

    def __init__(self, kind: str, text: str, body: bool) -> None:
        self.kind = kind  # "heading", "para" or "lines"
        self.text = text
        self.body = body


class _PageParser(HTMLParser):
    """The streaming reader: HTMLParser events -> blocks, plus what a stub check needs."""

    def __init__(self, authored: bool = False) -> None:
        super().__init__(convert_charrefs=True)
        self._authored = authored
        self._stack: list[_Frame] = []
        self._open: dict[str, int] = {}
        self._overflow = 0
        self._skip = 0
        self._tex_math: _Sink | None = None  # a <math> without alttext: read its TeX annotation
        self._tex_reading = False
        self._doc = 0
        self._saw_doc = False
        self._flow = _Sink("flow")
        self._sinks: list[_Sink] = [self._flow]
        self._blocks: list[_Block] = []
        self._runin = ""
        self._deferred_notes: list[str] = []
        self._lists: list[_ListState] = []
        self._lines: list[str] | None = None
        self._tables: list[_TableState] = []
        self._title: str | None = None
        self._head_title: str | None = None
        self._authors: list[str] = []
        self._in_abstract = 0
        self._in_bibliography = 0
        self._sections = 0
        self._bib_entries = 0
        self._fatal = False
        self._abs_page = False
        self._outside_text: list[str] = []
        self._outside_chars = 0

    # --- HTMLParser callbacks ------------------------------------------------------------

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _VOID_TAGS:
            self._void(tag, attrs)
            return
        if len(self._stack) >= _MAX_DEPTH:
            self._overflow += 1
            return
        if self._skip:
            if self._tex_math is not None and tag == "annotation" and ("encoding", "application/x-tex") in attrs:
                self._push(_Frame(tag, "tex"))
                self._tex_reading = True
            else:
                self._push(_Frame(tag))
            return
        attributes = dict(attrs)
        class_attr = attributes.get("class") or ""
        classes = frozenset(class_attr.split()) if class_attr else frozenset()
        if self._hidden(tag, attributes, classes):
            self._start_skip(tag)
        elif tag == "title" and not self._doc and self._head_title is None:
            self._push_sink(tag, "headtitle")
        elif not self._doc:
            if "ltx_document" in classes or (self._authored and tag == "body"):
                self._doc += 1
                self._saw_doc = True
                self._push(_Frame(tag, "doc"))
            else:
                self._push(_Frame(tag))
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
        if not self._open.get(tag):
            return
        while self._stack:
            frame = self._stack.pop()
            self._open[frame.tag] -= 1
            if frame.kind is not None:
                self._close(frame)
            if frame.tag == tag:
                break

    def handle_data(self, data: str) -> None:
        if self._skip:
            if self._tex_reading and self._tex_math is not None:
                self._tex_math.parts.append(data)
            return
        sink = self._sinks[-1]
        if sink is self._flow and not self._doc:
            if self._outside_chars < _DIAGNOSTIC_CHARS:
                self._outside_text.append(data)
                self._outside_chars += len(data)
            return
        if sink.kind not in _SILENT_SINKS:
            sink.parts.append(data)

    # --- element starts -----------------------------------------------------------------

    def _void(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._skip:
            return
        if tag == "meta":
            name = dict(attrs).get("name") or ""
            if name.startswith("citation_"):
                self._abs_page = True
        elif not self._doc:
            return
        elif tag == "br":
            sink = self._sinks[-1]
            if sink.kind == "name":
                sink.kind = "closed_name"  # names end at the first line break; affiliations follow
            elif sink.kind == "pre":
                sink.parts.append("\n")
            else:
                sink.parts.append(" ")
        elif tag == "hr":
            self._boundary()

    def _hidden(self, tag: str, attributes: dict[str, str | None], classes: frozenset[str]) -> bool:
        if tag in _DROPPED_TAGS or "hidden" in attributes:
            return True
        if classes and (
            not classes.isdisjoint(_DROPPED_CLASSES)
            or any(name.startswith(_DROPPED_CLASS_PREFIXES) for name in classes)
        ):
            return True
        style = attributes.get("style")
        if style and "display" in style:
            compact = style.replace(" ", "").lower()
            return "display:none" in compact
        return False

    def _start_in_document(self, tag: str, attributes: dict[str, str | None], classes: frozenset[str]) -> None:
        sink = self._sinks[-1]
        if tag == "math":
            self._start_math(tag, attributes)
        elif "ltx_ERROR" in classes:
            self._push_sink(tag, "error")
        elif "ltx_note" in classes:
            self._start_note(tag, classes, sink)
        elif sink.kind == "note" and ("ltx_note_mark" in classes or "ltx_tag_note" in classes):
            self._push_sink(tag, "mark")
        elif sink.kind in ("discard", "name", "closed_name"):
            self._start_in_authors(tag, classes, sink)
        elif "ltx_title" in classes or tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self._start_title(tag, classes, sink)
        elif "ltx_authors" in classes and sink is self._flow:
            self._push_sink(tag, "discard")
        elif "ltx_abstract" in classes and sink is self._flow:
            self._flush()
            self._emit("heading", "## Abstract")
            self._in_abstract += 1
            self._push(_Frame(tag, "abstract"))
        elif "ltx_bibliography" in classes and sink is self._flow:
            self._flush()
            self._emit("heading", "## References")
            self._in_bibliography += 1
            self._push(_Frame(tag, "bibliography"))
        elif "ltx_tag_bibitem" in classes:
            self._push_sink(tag, "bibtag")
        elif "ltx_biblist" in classes:
            self._boundary()
            self._push(_Frame(tag, "block"))
        elif "ltx_bibitem" in classes:
            self._boundary()
            self._push(_Frame(tag, "bibitem"))
        elif "ltx_bibblock" in classes:
            sink.parts.append(" ")
            self._push(_Frame(tag))
        elif "ltx_tag_item" in classes and sink.kind == "item" and not sink.label:
            self._push_sink(tag, "itemtag")
        elif tag == "table" or "ltx_tabular" in classes:
            self._start_table(tag, classes, sink)
        elif tag == "tr" or "ltx_tr" in classes:
            self._start_row(tag, sink)
        elif tag in ("td", "th") or "ltx_td" in classes:
            self._start_cell(tag, classes, sink)
        elif tag == "caption" and self._tables and len(self._sinks) == self._tables[-1].sink_depth:
            self._push_sink(tag, "caption")
        elif tag in ("ul", "ol", "dl") or not classes.isdisjoint(("ltx_itemize", "ltx_enumerate", "ltx_description")):
            self._start_list(tag, classes, sink)
        elif tag in ("li", "dt", "dd") and self._lists and (sink is self._flow or sink.kind == "item"):
            self._start_item(tag, sink)
        elif "ltx_listing" in classes and sink is self._flow:
            self._flush()
            self._lines = [] if self._lines is None else self._lines
            self._push(_Frame(tag, "listing"))
        elif "ltx_listingline" in classes and self._lines is not None and sink is self._flow:
            self._push_sink(tag, "line")
        elif tag == "pre" and sink is self._flow:
            self._flush()
            self._push_sink(tag, "pre")
        elif tag in _BLOCK_TAGS:
            self._boundary()
            self._push(_Frame(tag, "block"))
        else:
            self._push(_Frame(tag))

    def _start_skip(self, tag: str) -> None:
        self._skip += 1
        self._push(_Frame(tag, "skip"))

    def _start_math(self, tag: str, attributes: dict[str, str | None]) -> None:
        parent = self._stack[-1] if self._stack else None
        alttext = attributes.get("alttext")
        display = attributes.get("display") == "block"
        beside_equation = parent is not None and parent.kind == "eqcell"
        if alttext is None:  # rare: fall back to the TeX annotation inside the MathML
            self._tex_math = _Sink("tex")
            self._skip += 1
            self._push(_Frame(tag, "texmath", state=(display, beside_equation)))
            return
        self._emit_math(_clean_alttext(alttext), display, beside_equation)
        self._start_skip(tag)

    def _start_note(self, tag: str, classes: frozenset[str], sink: _Sink) -> None:
        if classes.isdisjoint(_KEPT_NOTE_ROLES) or sink.kind in _NO_NOTE_SINKS:
            self._start_skip(tag)
        else:
            self._push_sink(tag, "note")

    def _start_in_authors(self, tag: str, classes: frozenset[str], sink: _Sink) -> None:
        if sink.kind == "discard" and "ltx_personname" in classes:
            self._push_sink(tag, "name")
        elif sink.kind == "name" and (tag == "sup" or "ltx_author_notes" in classes or "ltx_contact" in classes):
            self._start_skip(tag)
        elif sink.kind == "name" and tag in _BLOCK_TAGS:
            sink.kind = "closed_name"
            self._push(_Frame(tag))
        else:
            self._push(_Frame(tag))

    def _start_title(self, tag: str, classes: frozenset[str], sink: _Sink) -> None:
        kinds = [name for name in classes if name.startswith("ltx_title_")]
        kind = kinds[0] if kinds else ""
        if sink is not self._flow:
            self._boundary()
            self._push(_Frame(tag, "block"))
        elif kind in ("ltx_title_abstract", "ltx_title_bibliography"):
            self._start_skip(tag)  # replaced by the fixed "## Abstract" / "## References"
        elif (kind == "ltx_title_document" or (tag == "h1" and not kind)) and self._title is None:
            self._push_sink(tag, "title")
        elif kind in _HEADING_LEVELS or (not kind and tag in _PLAIN_HEADING_LEVELS):
            self._flush()
            sink = self._push_sink(tag, "heading")
            sink.depth = _HEADING_LEVELS.get(kind) or _PLAIN_HEADING_LEVELS.get(tag, 2)
        else:  # theorem, proof, keywords...: a run-in label for the next paragraph
            self._flush()
            self._push_sink(tag, "runin")

    def _start_table(self, tag: str, classes: frozenset[str], sink: _Sink) -> None:
        if not classes.isdisjoint(_EQUATION_TABLE_CLASSES):
            self._boundary()
            self._tables.append(_TableState(True, len(self._sinks)))
            self._push(_Frame(tag, "table"))
        elif tag == "table" and sink is self._flow:
            self._flush()
            self._tables.append(_TableState(False, len(self._sinks)))
            self._push(_Frame(tag, "table"))
        elif sink is self._flow:  # LaTeXML's inline <span class="ltx_tabular"> inside a sentence
            self._push_sink(tag, "inline")
        else:  # a table inside a cell, list item, caption or note is read inline
            self._boundary()
            self._push(_Frame(tag, "block"))

    def _start_row(self, tag: str, sink: _Sink) -> None:
        table = self._tables[-1] if self._tables else None
        if table is not None and len(self._sinks) == table.sink_depth:
            if table.equations:
                self._push_sink(tag, "eqrow")
                return
            table.row = []
            self._push(_Frame(tag, "row", state=table))
            return
        self._boundary()
        self._push(_Frame(tag, "block"))

    def _start_cell(self, tag: str, classes: frozenset[str], sink: _Sink) -> None:
        table = self._tables[-1] if self._tables else None
        depth = len(self._sinks)
        if table is not None and table.equations and sink.kind == "eqrow" and depth == table.sink_depth + 1:
            if "ltx_eqn_eqno" in classes:
                self._push_sink(tag, "eqno")
            else:
                sink.parts.append(" ")
                self._push(_Frame(tag, "eqcell"))
        elif table is not None and not table.equations and table.row is not None and depth == table.sink_depth:
            self._push_sink(tag, "cell")
        else:
            self._boundary()
            self._push(_Frame(tag, "block"))

    def _start_list(self, tag: str, classes: frozenset[str], sink: _Sink) -> None:
        if sink is self._flow:
            self._flush()
            if self._lines is None:
                self._lines = []
        elif sink.kind == "item":
            self._emit_item_line(sink)  # the item's text so far, before its nested list
        else:
            self._boundary()
            self._push(_Frame(tag, "block"))
            return
        self._lists.append(_ListState(tag == "ol" or "ltx_enumerate" in classes))
        self._push(_Frame(tag, "list"))

    def _start_item(self, tag: str, sink: _Sink) -> None:
        if sink.kind == "item":
            self._emit_item_line(sink)
        state = self._lists[-1]
        item = self._push_sink(tag, "item")
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
        self._stack[-1].state = state

    # --- element ends -------------------------------------------------------------------

    def _close(self, frame: _Frame) -> None:
        kind = frame.kind
        if kind == "skip":
            self._skip -= 1
        elif kind == "block":
            self._boundary()
        elif kind == "row":
            if isinstance(frame.state, _TableState):
                self._end_row(frame.state)
        elif kind == "texmath":
            self._skip -= 1
            sink, self._tex_math, self._tex_reading = self._tex_math, None, False
            display, beside_equation = cast(tuple[bool, bool], frame.state)
            if sink is not None:
                self._emit_math(_clean_alttext("".join(sink.parts)), display, beside_equation)
        elif frame.sink is not None:
            self._sinks.pop()
            self._close_sink(frame, frame.sink)
        elif kind == "doc":
            self._flush()
            self._doc -= 1
        elif kind == "abstract":
            self._flush()
            self._in_abstract -= 1
        elif kind == "bibliography":
            self._flush()
            self._in_bibliography -= 1
        elif kind == "bibitem":
            self._flush()
            self._bib_entries += 1
        elif kind == "table":
            self._close_table()
        elif kind == "list":
            self._close_list()
        elif kind == "listing":
            if not self._lists:
                self._emit_lines()
        elif kind == "tex":
            self._tex_reading = False

    def _close_sink(self, frame: _Frame, sink: _Sink) -> None:
        kind = sink.kind
        parent = self._sinks[-1]
        if kind == "headtitle":
            self._head_title = sink.text()
        elif kind == "title":
            self._title = sink.text() or None
        elif kind == "heading":
            self._close_heading(sink)
        elif kind == "runin":
            text = sink.text()
            if text:
                self._runin = f"{self._runin} {text}".strip()
        elif kind in ("name", "closed_name"):
            self._add_author(sink.text())
        elif kind == "note":
            self._close_note(sink, parent)
        elif kind == "mark":
            if parent.kind == "note" and not parent.label:
                parent.label = sink.text()
        elif kind == "error":
            if "fatal error" in sink.text().lower():
                self._fatal = True
        elif kind == "bibtag":
            label = sink.text()
            if label:
                parent.parts.append((label if label[0] in "[(" else f"[{label}]") + " ")
        elif kind == "itemtag":
            if parent.kind == "item":
                parent.label = sink.text()
        elif kind == "item":
            self._close_item(frame, sink)
        elif kind == "line":
            if self._lines is not None:
                self._lines.append(sink.text())
        elif kind == "pre":
            text = "".join(sink.parts).translate(_INVISIBLE)
            lines = [line.rstrip() for line in text.split("\n")]
            self._emit_lines([line for line in lines if line.strip()])
        elif kind == "cell":
            table = self._tables[-1] if self._tables else None
            if table is not None and table.row is not None:
                table.row.append(sink.text().replace("|", "\\|"))
        elif kind == "caption":
            if self._tables:
                self._tables[-1].caption = sink.text()
        elif kind == "eqno":
            if parent.kind == "eqrow":
                parent.number = sink.text()
        elif kind == "inline":
            parent.parts.append(f" {sink.text()} ")
        elif kind == "eqrow":
            self._close_equation_row(sink, parent)

    def _close_heading(self, sink: _Sink) -> None:
        text = sink.text()
        if text:
            self._emit("heading", "#" * sink.depth + " " + text)
            if not self._in_abstract and not self._in_bibliography:
                self._sections += 1
        if self._deferred_notes:
            self._emit("para", " ".join(self._deferred_notes))
            self._deferred_notes = []

    def _close_note(self, sink: _Sink, parent: _Sink) -> None:
        text = sink.text()
        if not text:
            return
        note = f"[^{sink.label or '*'}: {text}]"
        if parent.kind == "heading":
            self._deferred_notes.append(note)
        else:
            parent.parts.append(" " + note)

    def _close_item(self, frame: _Frame, sink: _Sink) -> None:
        state = frame.state
        if frame.tag == "dt" and isinstance(state, _ListState):
            self._flush_pending_term(state)
            state.pending_term = sink.text() or sink.label
            return
        self._emit_item_line(sink)

    def _close_list(self) -> None:
        state = self._lists.pop()
        self._flush_pending_term(state, depth=len(self._lists) + 1)
        if not self._lists and len(self._sinks) == 1:
            self._emit_lines()

    def _close_table(self) -> None:
        table = self._tables.pop()
        if table.equations:
            return
        if table.row is not None:
            self._end_row(table)
        if table.caption:
            self._emit("para", table.caption)
        if table.rows:
            self._emit("lines", "\n".join(table.rows))

    def _close_equation_row(self, sink: _Sink, parent: _Sink) -> None:
        rendered = self._render_equation_row(sink)
        if not rendered:
            return
        if parent is self._flow:
            self._flush()
            self._emit("para", rendered)
        else:
            parent.parts.append(f" {rendered} ")

    # --- building blocks ----------------------------------------------------------------

    def _push(self, frame: _Frame) -> None:
        self._stack.append(frame)
        self._open[frame.tag] = self._open.get(frame.tag, 0) + 1

    def _push_sink(self, tag: str, kind: str) -> _Sink:
        sink = _Sink(kind)
        self._sinks.append(sink)
        self._push(_Frame(tag, kind, sink))
        return sink

    def _boundary(self) -> None:
        """A block edge: ends the flow paragraph; inside a capture it is just a space."""
        sink = self._sinks[-1]
        if sink is self._flow:
            self._flush()
        else:
            sink.parts.append(" ")

    def _end_row(self, table: _TableState) -> None:
        cells = table.row or []
        table.row = None
        if any(cells):
            table.rows.append("| " + " | ".join(cells) + " |")

    def _flush(self) -> None:
        parts = self._flow.parts
        if not parts:
            return
        text = _collapse("".join(parts))
        parts.clear()
        if text:
            if self._runin:
                text = f"{self._runin} {text}"
                self._runin = ""
            self._emit("para", text)

    def _emit(self, kind: str, text: str) -> None:
        if self._runin and kind != "para":
            runin, self._runin = self._runin, ""
            self._emit("para", runin)
        body = kind != "heading" and not self._in_abstract and not self._in_bibliography
        self._blocks.append(_Block(kind, text, body))

    def _emit_lines(self, lines: list[str] | None = None) -> None:
        if lines is None:
            lines, self._lines = self._lines or [], None
        kept = [line for line in lines if line.strip()]
        if kept:
            self._emit("lines", "\n".join(kept))

    def _emit_math(self, latex: str, display: bool, beside_equation: bool) -> None:
        sink = self._sinks[-1]
        if not latex or sink.kind in _NO_MATH_SINKS:
            return
        if sink.kind == "eqrow" and (display or beside_equation or latex.startswith("\\displaystyle")):
            if sink.parts:
                sink.segments.append((False, "".join(sink.parts)))
                sink.parts = []
            sink.segments.append((True, latex))
        elif display and sink is self._flow:
            self._flush()
            self._emit("para", f"$${latex}$$")
        elif display:
            sink.parts.append(f" $${latex}$$ ")
        else:
            # "$a$$b$" reads as display math: adjacent inline formulas keep a space between them
            after_math = bool(sink.parts) and sink.parts[-1].endswith("$")
            sink.parts.append(f"{' ' if after_math else ''}${latex}$")

    def _render_equation_row(self, sink: _Sink) -> str:
        segments = list(sink.segments)
        if sink.parts:
            segments.append((False, "".join(sink.parts)))
        pieces: list[str] = []
        run: list[str] = []
        for is_math, text in segments:
            if is_math:
                run.append(text)
                continue
            text = _collapse(text)
            if not text:
                continue
            if run:
                pieces.append("$$" + " ".join(run) + "$$")
                run = []
            pieces.append(text)
        if run:
            pieces.append("$$" + " ".join(run) + "$$")
        if not pieces:
            return ""
        if sink.number:
            pieces.append(sink.number)
        return " ".join(pieces)

    def _emit_item_line(self, sink: _Sink) -> None:
        text = sink.text()
        sink.parts = []
        indent = "  " * (sink.depth - 1)
        if sink.continued:
            line = f"{indent}  {text}" if text else ""
        else:
            line = f"{indent}{self._item_marker(sink)} {text}".rstrip()
            sink.continued = True
        if line.strip() and self._lines is not None:
            self._lines.append(line)
        elif line.strip():
            self._flow.parts.append(" " + line.strip())

    @staticmethod
    def _item_marker(sink: _Sink) -> str:
        label = sink.label
        if sink.ordered:
            return label or f"{sink.index}."
        if label and not (len(label) <= 2 and all(char in _BULLETS for char in label)):
            return f"- {label}"
        return "-"

    def _flush_pending_term(self, state: _ListState, depth: int | None = None) -> None:
        if state.pending_term and self._lines is not None:
            indent = "  " * ((depth or len(self._lists)) - 1)
            self._lines.append(f"{indent}- {state.pending_term}")
        state.pending_term = ""

    def _add_author(self, name: str) -> None:
        name = _REPEATED_COMMAS.sub(",", _SPACE_BEFORE_PUNCT.sub(r"\1", name)).strip(" ,;")
        if name:
            self._authors.append(name)

    # --- the result ---------------------------------------------------------------------

    def finish(self) -> str:
        while self._stack:
            frame = self._stack.pop()
            self._open[frame.tag] -= 1
            if frame.kind is not None:
                self._close(frame)
        self._flush()
        self._reject_stub()
        title = self._title or _HEAD_TITLE_ID.sub("", self._head_title or "").strip() or "Untitled"
        out = [f"# {title}"]
        if self._authors:
            out.append(escape_line(", ".join(self._authors)))
        before_first_heading = True
        for block in self._blocks:
            if block.kind == "heading":
                before_first_heading = False
                out.append(block.text)
            elif before_first_heading and block.kind == "para" and block.text == title:
                continue  # a title page that repeats the title as a paragraph
            else:
                out.append("\n".join(escape_line(line.rstrip()) for line in block.text.split("\n")))
        return "\n\n".join(out)

    def _reject_stub(self) -> None:
        advice = "Read the paper from its LaTeX source or PDF instead."
        if self._fatal:
            raise ExtractionError(
                "The page is ar5iv's 'Conversion to HTML had a Fatal error' notice, not the paper. " + advice
            )
        if not self._saw_doc:
            outside = _collapse(" ".join(self._outside_text)).lower()
            if any(phrase in outside for phrase in _STUB_PHRASES):
                raise ExtractionError(
                    "arXiv has no HTML rendition of this paper (its 'HTML is not available' page). " + advice
                )
            if self._abs_page:
                raise ExtractionError(
                    "The HTML address answered with the paper's abstract page (arXiv redirects there when no "
                    "HTML rendition exists), so there is no full text in it. " + advice
                )
            raise ExtractionError(
                "The page is not LaTeXML output (no ltx_document element), so it holds no paper text. " + advice
            )
        body_chars = sum(len(block.text) for block in self._blocks if block.body)
        if body_chars < _MIN_BODY_CHARS:
            raise ExtractionError(
                f"The HTML rendition has only {body_chars} characters of body text besides the title and "
                "abstract: a stub or a failed conversion. " + advice
            )
        if not self._sections and not self._bib_entries:
            raise ExtractionError(
                "The HTML rendition has neither section headings nor a bibliography, so it does not look "
                "like a converted paper. " + advice
            )
