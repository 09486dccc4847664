"""The vocabulary of the HTML reader: named kinds, the open-element frame, the capture sink.

Every open element is a `Frame`; an element whose text is captured (a title, a table cell,
an author name) also opens a `Sink`, and the reader writes text to the innermost sink. A
frame's or sink's kind names what closing it must do; the handler units
(`sections`, `tables`, `lists`, `math`, `authors`) each own the
kinds they open and close, so each kind means one thing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# --- sink kinds: where text goes while an element is open -------------------------------
FLOW = "flow"  # the page itself: text becomes paragraphs
HEAD_TITLE = "headtitle"  # <title> in <head>, the fallback title
TITLE = "title"  # the document title
HEADING = "heading"  # a section heading
RUNIN = "runin"  # a theorem/proof/keywords label that runs into the next paragraph
NOTE = "note"  # a body footnote or endnote
NOTE_MARK = "mark"  # a note's mark ("3"), its label
ERROR = "error"  # LaTeXML's ltx_ERROR marker text
BIB_TAG = "bibtag"  # a bibliography entry's label ("[12]")
ITEM_TAG = "itemtag"  # a list item's own label
ITEM = "item"  # a list item
LINE = "line"  # one line of a code listing
PRE = "pre"  # preformatted text
CELL = "cell"  # a table cell
CAPTION = "caption"  # a table caption
EQ_NUMBER = "eqno"  # an equation's number
INLINE_TABLE = "inline"  # a tabular read as words inside its sentence
EQ_ROW = "eqrow"  # one row of an equation table
TEX_SOURCE = "tex"  # the TeX annotation of a <math> that has no alttext
AUTHORS = "authors"  # the author block, outside any name, affiliation or note in it
NAME = "name"  # an author's name, up to its first line break
NAME_LINES = "namelines"  # what a name element holds after its first break: affiliation lines
AFFILIATION = "affiliation"  # an ltx_contact affiliation or address, or a front-matter note naming them
CONTACT = "contact"  # an e-mail, web page or ORCID contact
AUTHOR_NOTES = "authornotes"  # ltx_author_notes: text written straight into it is a note
AUTHOR_NOTE = "authornote"  # a \thanks or footnote in the author block or the title
AUTHOR_MARK = "authormark"  # a superscript mark in a name or affiliation line
TAP = "tap"  # a printed label or citation read on the side: its text also goes on to the parent
PUBNOTE = "pubnote"  # one publication-metadata note (oxide's DOI, journal, CCS concepts)

# --- frame kinds: elements without a sink whose end still does something ----------------
SKIP = "skip"  # a dropped element: everything inside is ignored
BLOCK = "block"  # a block element: its edges end a paragraph
DOC = "doc"  # the LaTeXML document element (or an authored page's body)
ABSTRACT = "abstract"
BIBLIOGRAPHY = "bibliography"
BIB_ITEM = "bibitem"
TABLE = "table"
ROW = "row"
EQ_CELL = "eqcell"  # an equation table's cell: math in it is display math
LIST = "list"
LISTING = "listing"
TEX_MATH = "texmath"  # a <math> without alttext, read from its TeX annotation
TEX_READING = "texreading"  # the TeX annotation itself, while it is read
CREATOR = "creator"  # one ltx_creator (an author, or a group of them) in the author block
FLOAT = "float"  # a figure or table float: its blocks become one block with its record
FLOAT_CAPTION = "floatcaption"  # a float's caption: a block element whose paragraphs are the caption
EQ_UNIT = "equnit"  # an equation table's (or its tbody's) extent: its rows are one numbered equation
PUBNOTES = "pubnotes"  # oxide's block of publication-metadata notes
PAPER_LINK = "paperlink"  # an authored page's link to an arXiv paper: the id follows its text

# Sinks whose text never reaches the output, or that cannot hold math or footnotes.
SILENT_SINKS = frozenset((AUTHORS,))
NO_MATH_SINKS = frozenset((AUTHORS, NAME, NOTE_MARK))
NO_NOTE_SINKS = frozenset((NOTE_MARK, TITLE, HEAD_TITLE, EQ_NUMBER, ERROR, ITEM_TAG, BIB_TAG))
AUTHOR_SINKS = frozenset((AUTHORS, NAME, NAME_LINES, AFFILIATION, CONTACT, AUTHOR_NOTES, AUTHOR_NOTE, AUTHOR_MARK))

BLOCK_TAGS = frozenset(
    "address article aside blockquote body caption center dd details div dl dt fieldset "
    "figcaption figure h1 h2 h3 h4 h5 h6 hr html legend li main ol p pre section summary "
    "table tbody td tfoot th thead tr ul".split()
)

INVISIBLE: dict[int, str | None] = {code: None for code in (*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F)}
INVISIBLE.update(
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
INVISIBLE[0xA0] = " "
_ALTTEXT_LINE_WRAP = re.compile(r"(?<!\\)%\n[ \t]*")  # LaTeXML wraps long alttext as "%\n"


def collapse(text: str) -> str:
    """One line of text: invisible characters dropped, whitespace runs made one space."""
    return " ".join(text.translate(INVISIBLE).split())


def clean_alttext(alttext: str) -> str:
    alttext = _ALTTEXT_LINE_WRAP.sub("", alttext)
    return collapse(_drop_outer_dollars(alttext) if "$" in alttext else alttext)


def _drop_outer_dollars(latex: str) -> str:
    """The formula without "$" signs outside any brace group.

    siunitx's `\\SI` inside math leaves text-mode switches in the alttext
    ("M/${10}^{12}...$"): written inside `$...$` they would end the formula early and read
    as `$$`. A `$` inside a group (`\\text{for all $x$}`) is real math-in-text and stays.
    """
    out: list[str] = []
    depth = 0
    escaped = False
    for char in latex:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "{":
            depth += 1
        elif char == "}":
            depth = max(0, depth - 1)
        elif char == "$" and depth == 0:
            continue
        out.append(char)
    return "".join(out)


class Sink:
    """Where text goes while an element is open: the page flow or a capturing element."""

    __slots__ = ("kind", "parts", "segments", "label", "number", "depth", "ordered", "index", "continued", "raw")

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
        self.raw: list[tuple[int, str]] = []  # equation rows: (cell index, alttext as the page has it)

    def text(self) -> str:
        return collapse("".join(self.parts))


class Frame:
    """One open element: its tag and what closing it must undo."""

    __slots__ = ("tag", "kind", "sink", "state")

    def __init__(self, tag: str, kind: str | None = None, sink: Sink | None = None, state: object = None) -> None:
        self.tag = tag
        self.kind = kind
        self.sink = sink
        self.state = state


Inline = tuple[str, object]
"""Something written inside a block, found there by its text: a citation as printed with its
bibitem ids (a tuple of str), or a numbered equation's row with its record."""


class Block:
    """One written block of the page: a heading line, a paragraph, lines kept as lines, or a
    group of blocks that is one figure, table, equation or bibliography entry (`record`)."""

    __slots__ = ("kind", "text", "body", "number", "inline", "record", "children")

    HEADING = "heading"
    PARA = "para"
    LINES = "lines"
    GROUP = "group"

    def __init__(self, kind: str, text: str, body: bool) -> None:
        self.kind = kind
        self.text = text
        self.body = body  # counts as body text for the stub check (not title, abstract or references)
        self.number: str | None = None  # a heading's printed number (its ltx_tag)
        self.inline: Sequence[Inline] = ()  # citations and equations written inside it, in order
        self.record: object = None  # a group's record (document.Figure, Table, Equation, Reference)
        self.children: Sequence[Block] = ()  # a group's blocks
