"""LaTeX source -> clean text in the shared extractor format.

Format (shared with the HTML and PDF extractors): first line `# <title>`, then the authors,
`## Abstract`, numbered `##`/`###`/`####` headings, paragraphs separated by one blank line,
math kept as `$...$` / `$$...$$`, and no body line starting with `#`.

Paper source is untrusted data, so nothing is ever executed, and expansion is one level deep:
a pure environment alias such as `\\def\\beq{\\begin{equation}}` is looked up in a table, and
a short zero-argument text macro (`\\newcommand{\\gorc}{S2ORC}`) has its body spliced in once,
as tokens in text and as LaTeX inside math; a body is never scanned for further macros, so a
definition cannot recurse, and the total inserted is capped. Scanning is single-pass over a
token list with precomputed brace/environment matching, memoised forward searches and no
nested regex quantifiers, so hostile input cannot make it hang or recurse deeply.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ...errors import ExtractionError
from ..archive import read_source
from ..shape import escape_body
from .source import (
    LINE_BREAK,
    RESERVED_NAMES,
    Assembler,
    Macro,
    decode,
    environment_aliases,
    find_main,
    split_document,
    text_macros,
    theorem_names,
)
from .tokens import (
    AMP,
    BEGIN,
    CMD,
    DMATH,
    END,
    LBRACE,
    LBRACKET,
    MATH,
    NEWLINE,
    PAR,
    RAW,
    RBRACKET,
    TEXT,
    VERB,
    Token,
    match_brackets,
    match_groups,
    tokenize,
)

log = logging.getLogger(__name__)

# ---------------------------------------------------------------------------------------------
# Public entry points
# ---------------------------------------------------------------------------------------------


def source_to_text(data: bytes) -> str:
    """An e-print's bytes -> text; a PDF-only source raises so the caller uses the PDF path."""
    bundle = read_source(data)
    if bundle.kind == "pdf":
        raise ExtractionError(
            "This paper's source is a PDF (a PDF-only submission); read it through the PDF path instead."
        )
    if bundle.kind == "html":
        return _html_source_to_text(bundle.files)
    return latex_to_text(bundle.files)


def latex_to_text(files: dict[str, bytes], *, max_chars: int = 20_000_000) -> str:
    """Convert the files of a LaTeX source (name -> bytes) to clean text with headings."""
    main = find_main(files)
    source = Assembler(files, max_chars).assemble(main)
    preamble, body = split_document(source)
    aliases = environment_aliases(source)
    theorems = theorem_names(preamble)
    expansion = _Expansion(text_macros(source, _PROTECTED_MACROS))

    meta = _Meta()
    _Converter(expansion.tokens(tokenize(preamble, aliases)), meta, theorems, preamble=True).run()
    converter = _Converter(expansion.tokens(tokenize(body, aliases)), meta, theorems, preamble=False)
    converter.run()
    text = _render(meta, converter.front.blocks, converter.body.blocks)
    if not text.strip():
        raise ExtractionError(
            f"The LaTeX source ({main}) produced no text; read the paper's PDF or HTML version instead."
        )
    return text


def _html_source_to_text(files: dict[str, bytes]) -> str:
    from ..html import html_to_text

    (page,) = files.values()
    return html_to_text(decode(page), authored=True)


# ---------------------------------------------------------------------------------------------
# Output sinks
# ---------------------------------------------------------------------------------------------

Block = tuple[str, str]  # (kind, text); kinds: h (heading), p, li, math, verb, table


def _finish(raw: str) -> str:
    lines = (" ".join(line.split()) for line in raw.split(LINE_BREAK))
    return "\n".join(line for line in lines if line)


class _Sink:
    """Collects blocks; text is written into the current paragraph until par()."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.parts: list[str] = []
        self.marker = ""

    def write(self, text: str) -> None:
        self.parts.append(text)

    def newline(self) -> None:
        self.parts.append(LINE_BREAK)

    def start_item(self, marker: str) -> None:
        self.par()
        self.marker = marker

    def par(self) -> None:
        text = _finish("".join(self.parts)) if self.parts else ""
        if text:
            self.blocks.append(("li", self.marker + text) if self.marker else ("p", text))
        self.parts = []
        self.marker = ""

    def block(self, kind: str, text: str) -> None:
        self.par()
        self.blocks.append((kind, text))

    def flat(self, separator: str = " ") -> str:
        """All collected text on one line; `\\` line breaks become `separator`."""
        self.par()
        return " ".join(separator.join(separator.join(t.split("\n")) for _, t in self.blocks).split())

    def flat_blocks(self) -> list[Block]:
        self.par()
        return list(self.blocks)


class _Discard(_Sink):
    def write(self, text: str) -> None:
        pass

    def newline(self) -> None:
        pass

    def block(self, kind: str, text: str) -> None:
        pass


class _TableSink(_Sink):
    """Rows of a tabular: `&` ends a cell, `\\\\` ends a row."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.cells: list[str] = []

    def par(self) -> None:
        self.parts.append(" ")

    def block(self, kind: str, text: str) -> None:
        self.parts.append(" " + text + " ")

    def newline(self) -> None:
        self.end_row()

    def end_cell(self) -> None:
        self.cells.append(" ".join("".join(self.parts).replace(LINE_BREAK, " ").split()))
        self.parts = []

    def end_row(self) -> None:
        self.end_cell()
        if any(self.cells):
            self.rows.append(self.cells)
        self.cells = []

    def plain(self) -> str:
        """A table nested in a table cell: its cells as words, so nesting cannot grow the text."""
        self.end_row()
        return " ".join(cell for row in self.rows for cell in row if cell)

    def render(self) -> str:
        self.end_row()
        return "\n".join("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in self.rows)


# ---------------------------------------------------------------------------------------------
# Converter
# ---------------------------------------------------------------------------------------------

_LIST_ENVS = {
    "itemize": "-",
    "itemize*": "-",
    "compactitem": "-",
    "asparaitem": "-",
    "inparaitem": "-",
    "dinglist": "-",
    "enumerate": "1",
    "enumerate*": "1",
    "compactenum": "1",
    "asparaenum": "1",
    "inparaenum": "1",
    "description": "d",
    "description*": "d",
    "compactdesc": "d",
    "list": "-",
}
_FIGURE_ENVS = {"figure", "figure*", "wrapfigure", "SCfigure", "sidewaysfigure", "sidewaysfigure*"}
_TABLE_FLOATS = {"table", "table*", "wraptable", "sidewaystable", "sidewaystable*", "SCtable"}
_TABULAR_SPECS = {
    "tabular": "om",
    "tabular*": "mom",
    "tabularx": "mom",
    "tabulary": "mom",
    "longtable": "om",
    "longtable*": "om",
    "supertabular": "om",
    "xtabular": "om",
    "array": "om",
}
_DISCARD_ENVS = {
    "tikzpicture",
    "picture",
    "pspicture",
    "filecontents",
    "filecontents*",
    "pgfpicture",
    "axis",
    "tocentry",
}
_ENV_SPECS = {
    "minipage": "ooom",
    "multicols": "mo",
    "multicols*": "mo",
    "wrapfigure": "omom",
    "wraptable": "omom",
    "subfigure": "om",
    "subtable": "om",
    "list": "mm",
    "thebibliography": "m",
    "adjustbox": "m",
    "spacing": "m",
    "tcolorbox": "o",
    "mdframed": "o",
    "algorithm": "o",
    "algorithmic": "o",
    "figure": "o",
    "figure*": "o",
    "table": "o",
    "table*": "o",
    "center": "",
    "otherlanguage": "m",
    "sloppypar": "",
    "IEEEkeywords": "",
    "CJK": "mm",
    "CJK*": "mm",
    "floatrow": "o",
}
_HEADING_LEVELS = {"section": 0, "subsection": 1, "subsubsection": 2}
_CHAPTER_LEVELS = {"chapter": 0, "section": 1, "subsection": 2, "subsubsection": 3}
_SKIP_SPECS = {
    # o = optional [..], m = one argument, d = a TeX dimension, P = \def parameter text,
    # = = an optional '=', r = parenthesised (..) -- all dropped; later arguments stay as text.
    "label": "m",
    "vspace": "m",
    "vspace*": "m",
    "hspace": "m",
    "hspace*": "m",
    "includegraphics": "om",
    "includegraphics*": "om",
    "bibliographystyle": "m",
    "bibliography": "m",
    "thispagestyle": "m",
    "pagestyle": "m",
    "setlength": "mm",
    "addtolength": "mm",
    "setcounter": "mm",
    "addtocounter": "mm",
    "color": "om",
    "pagecolor": "om",
    "usepackage": "om",
    "RequirePackage": "om",
    "documentclass": "om",
    "thanks": "m",
    "thanks*": "m",
    "nocite": "m",
    "cline": "m",
    "cmidrule": "rom",
    "rule": "omm",
    "phantom": "m",
    "hphantom": "m",
    "vphantom": "m",
    "fontsize": "mm",
    "linespread": "m",
    "definecolor": "mmm",
    "numberwithin": "mm",
    "captionsetup": "om",
    "hypersetup": "m",
    "graphicspath": "m",
    "includeonly": "m",
    "enlargethispage": "m",
    "titlerunning": "m",
    "authorrunning": "m",
    "orcid": "m",
    "orcidlink": "m",
    "affiliation": "m",
    "affil": "om",
    "address": "m",
    "institute": "m",
    "inst": "m",
    "email": "m",
    "pacs": "m",
    "date": "m",
    "markboth": "mm",
    "markright": "m",
    "lstset": "m",
    "tikzset": "m",
    "pgfplotsset": "m",
    "usetikzlibrary": "m",
    "newcounter": "mo",
    "stepcounter": "m",
    "refstepcounter": "m",
    "hyphenation": "m",
    "DeclareMathOperator": "mm",
    "DeclareMathOperator*": "mm",
    "addbibresource": "om",
    "newlength": "m",
    "settowidth": "mm",
    "setstretch": "m",
    "raisebox": "moo",
    "resizebox": "mm",
    "resizebox*": "mm",
    "scalebox": "mo",
    "parbox": "ooom",
    "makebox": "oo",
    "framebox": "oo",
    "textcolor": "om",
    "colorbox": "om",
    "fcolorbox": "mm",
    "multicolumn": "mm",
    "multicolumn*": "mm",
    "multirow": "omo",
    "hyperref": "o",
    "hyperlink": "m",
    "hypertarget": "m",
    "newenvironment": "moomm",
    "renewenvironment": "moomm",
    "newcommand": "moom",
    "newcommand*": "moom",
    "renewcommand": "moom",
    "renewcommand*": "moom",
    "providecommand": "moom",
    "providecommand*": "moom",
    "DeclareRobustCommand": "moom",
    "def": "mPm",
    "gdef": "mPm",
    "edef": "mPm",
    "xdef": "mPm",
    "let": "m=m",
    "newif": "m",
    "newtheorem": "momo",
    "newtheorem*": "mm",
    "theoremstyle": "m",
    "addcontentsline": "mmm",
    "vskip": "d",
    "hskip": "d",
    "kern": "d",
    "subfloat": "o",
    "footnotemark": "o",
    "includepdf": "om",
    "input": "m",
    "include": "m",
    "subfile": "m",
    "pgfdeclareimage": "omm",
    "special": "m",
    "pdfbookmark": "omm",
    "belowpdfbookmark": "mm",
    "pretolerance": "=",
    "tolerance": "=",
    "setlist": "om",
    "SetKwInOut": "mm",
    "SetKw": "mm",
    "abovedisplayskip": "=d",
    "belowdisplayskip": "=d",
    "parskip": "=d",
    "parindent": "=d",
    "baselineskip": "=d",
    "textwidth": "=d",
    "columnsep": "=d",
    "itemsep": "=d",
    "bibpunct": "omm",
    "setcitestyle": "m",
    "doi": "m",
    "keywordsname": "",
    "acmConference": "omm",
    "copyrightyear": "m",
    "acmYear": "m",
    "setcopyright": "m",
    "acmDOI": "m",
    "acmISBN": "m",
    "acmPrice": "m",
    "ccsdesc": "om",
    "received": "m",
    "accepted": "m",
    "published": "m",
    "journal": "m",
    "volume": "m",
    "runningtitle": "m",
    "shorttitle": "m",
    "shortauthors": "m",
    "correspondingauthor": "m",
    "icmltitlerunning": "m",
    "icmlkeywords": "m",
    "icmlaffiliation": "mm",
    "icmlcorrespondingauthor": "mm",
    "icmlsetsymbol": "mm",
    "Thanks": "m",
    "arrayrulecolor": "om",
    "rowcolor": "om",
    "cellcolor": "om",
    "columncolor": "om",
    "printAffiliationsAndNotice": "m",
    "AtBeginDocument": "m",
    "AtEndDocument": "m",
}
_PAR_COMMANDS = {
    "par",
    "vskip",
    "vspace",
    "vspace*",
    "bigskip",
    "medskip",
    "smallskip",
    "newpage",
    "clearpage",
    "cleardoublepage",
    "pagebreak",
    "bigbreak",
    "medbreak",
    "smallbreak",
    "maketitle",
    "centerline",
}
_SYMBOLS = {
    "ldots": "\u2026",
    "dots": "\u2026",
    "textellipsis": "\u2026",
    "LaTeX": "LaTeX",
    "TeX": "TeX",
    "LaTeXe": "LaTeX2e",
    "BibTeX": "BibTeX",
    "copyright": "\u00a9",
    "textendash": "\u2013",
    "textemdash": "\u2014",
    "S": "\u00a7",
    "P": "\u00b6",
    "dag": "\u2020",
    "ddag": "\u2021",
    "pounds": "\u00a3",
    "textdegree": "\u00b0",
    "textbackslash": "\\",
    "textasciitilde": "~",
    "textbar": "|",
    "textless": "<",
    "textgreater": ">",
    "slash": "/",
    "quad": " ",
    "qquad": " ",
    "enspace": " ",
    "enskip": " ",
    "hfill": " ",
    "hfil": " ",
    "space": " ",
    "nobreakspace": " ",
    "ss": "\u00df",
    "o": "\u00f8",
    "O": "\u00d8",
    "aa": "\u00e5",
    "AA": "\u00c5",
    "ae": "\u00e6",
    "AE": "\u00c6",
    "oe": "\u0153",
    "OE": "\u0152",
    "l": "\u0142",
    "L": "\u0141",
    "i": "\u0131",
    "j": "\u0237",
    "textregistered": "\u00ae",
    "texttrademark": "\u2122",
    "euro": "\u20ac",
    "textquoteright": "\u2019",
    "textquoteleft": "\u2018",
    "textquotedblleft": "\u201c",
    "textquotedblright": "\u201d",
    "textbullet": "\u2022",
    "textperiodcentered": "\u00b7",
    "textasciicircum": "^",
    "textunderscore": "_",
    "and": ", ",
    "AND": ", ",
    "And": ", ",
    "newblock": " ",
    "linebreak": " ",
    "allowbreak": "",
    "textsection": "\u00a7",
    "checkmark": "\u2713",
    "times": "\u00d7",
    "pm": "\u00b1",
    "textpm": "\u00b1",
    "textmu": "\u00b5",
    "ie": "i.e.",
    "eg": "e.g.",
    "etal": "et al.",
    "etc": "etc.",
    "wrt": "w.r.t.",
}
_ALGORITHM_WORDS = {
    "State": "",
    "STATE": "",
    "Statex": "",
    "If": "if ",
    "IF": "if ",
    "ElsIf": "else if ",
    "ELSIF": "else if ",
    "Else": "else",
    "ELSE": "else",
    "For": "for ",
    "FOR": "for ",
    "ForAll": "for all ",
    "FORALL": "for all ",
    "While": "while ",
    "WHILE": "while ",
    "Repeat": "repeat",
    "Until": "until ",
    "Return": "return ",
    "RETURN": "return ",
    "Require": "Require: ",
    "REQUIRE": "Require: ",
    "Ensure": "Ensure: ",
    "ENSURE": "Ensure: ",
    "Input": "Input: ",
    "Output": "Output: ",
    "KwIn": "Input: ",
    "KwOut": "Output: ",
    "KwData": "Data: ",
    "KwResult": "Result: ",
    "EndIf": "end",
    "ENDIF": "end",
    "EndFor": "end",
    "ENDFOR": "end",
    "EndWhile": "end",
    "ENDWHILE": "end",
    "Procedure": "procedure ",
    "EndProcedure": "end",
    "Function": "function ",
    "EndFunction": "end",
}
_TITLE_FONTS = {
    "bf",
    "bfseries",
    "textbf",
    "Large",
    "LARGE",
    "large",
    "huge",
    "Huge",
    "sc",
    "scshape",
    "boldmath",
}
_CITE_COMMANDS = {
    "cite",
    "cite*",
    "citet",
    "citet*",
    "citep",
    "citep*",
    "citealt",
    "citealp",
    "citeauthor",
    "citeyear",
    "citeyearpar",
    "parencite",
    "textcite",
    "autocite",
    "autocites",
    "footcite",
    "Cite",
    "Citet",
    "Citep",
    "citenum",
    "onlinecite",
    "supercite",
    "smartcite",
    "nocite",
}
_REF_COMMANDS = {
    "ref",
    "eqref",
    "autoref",
    "cref",
    "Cref",
    "pageref",
    "vref",
    "Vref",
    "nameref",
    "Eqref",
    "crefrange",
    "subref",
    "labelcref",
    "fref",
    "Fref",
}
_DIMENSION_RE = re.compile(
    r"[ \t]*(?:=[ \t]*)?-?(?:\d+(?:\.\d*)?|\.\d+)[ \t]*(?:cm|mm|pt|in|em|ex|bp|pc|sp|dd|cc|mu)"
    r"(?:[ \t]*(?:plus|minus)[ \t]*-?(?:\d+(?:\.\d*)?|\.\d+)[ \t]*(?:fill|fil|cm|mm|pt|in|em|ex))*"
)
_ABSTRACT_HEADING_RE = re.compile(r"(?i)\A\s*abstract\s*([.:\u2014\u2013-])?\s*")


@dataclass
class _Meta:
    title: str = ""
    authors: list[str] = field(default_factory=list)
    abstract: list[Block] = field(default_factory=list)


def _letter(number: int) -> str:
    return chr(ord("A") + number - 1) if 1 <= number <= 26 else str(number)


class _Converter:
    """One linear pass over the tokens; work at a closing brace/\\end is queued on a stack."""

    def __init__(self, toks: list[Token], meta: _Meta, theorems: dict[str, str], *, preamble: bool):
        self.toks = toks
        self.match = match_groups(toks)
        self.bracket = match_brackets(toks)
        self.meta = meta
        self.theorems = theorems
        self.preamble = preamble
        self.front = _Discard() if preamble else _Sink()
        self.body = _Sink()
        self.in_front = not preamble
        self.sinks: list[_Sink] = [self.front]
        self.pending: list[tuple[int, Callable[[], None]]] = []
        self.lists: list[list] = []
        self.floats: list[tuple[str, _Sink]] = []
        self.meta_depth = 0
        self.stacked_cells = 0
        self.appendix = False
        self.has_chapters = any(t == (CMD, "chapter") or t == (CMD, "chapter*") for t in toks)
        self.counters = [0, 0, 0, 0]
        self.need_title = not preamble and not meta.title and (CMD, "title") not in toks
        self.handlers: dict[str, Callable[[int, str], int]] = {
            "title": self.cmd_title,
            "author": self.cmd_author,
            "abstract": self.cmd_abstract,
            "footnote": self.cmd_footnote,
            "footnote*": self.cmd_footnote,
            "footnotetext": self.cmd_footnote,
            "item": self.cmd_item,
            "item*": self.cmd_item,
            "bibitem": self.cmd_bibitem,
            "caption": self.cmd_caption,
            "caption*": self.cmd_caption,
            "subcaption": self.cmd_caption,
            "captionof": self.cmd_captionof,
            "appendix": self.cmd_appendix,
            "href": self.cmd_href,
            "textbf": self.cmd_font,
            "textsc": self.cmd_font,
            "maketitle": self.cmd_maketitle,
            "makecell": self.cmd_cell_lines,
            "thead": self.cmd_cell_lines,
            "shortstack": self.cmd_cell_lines,
            "specialcell": self.cmd_cell_lines,
            "Centerstack": self.cmd_cell_lines,
        }
        for name in (
            "part",
            "part*",
            "chapter",
            "chapter*",
            "section",
            "section*",
            "subsection",
            "subsection*",
            "subsubsection",
            "subsubsection*",
            "paragraph",
            "paragraph*",
            "subparagraph",
            "subparagraph*",
        ):
            self.handlers[name] = self.cmd_heading
        for name in _CITE_COMMANDS:
            self.handlers[name] = self.cmd_cite
        for name in _REF_COMMANDS:
            self.handlers[name] = self.cmd_ref

    # -- plumbing -------------------------------------------------------------------------------

    @property
    def sink(self) -> _Sink:
        return self.sinks[-1]

    def run(self) -> None:
        toks, n, i = self.toks, len(self.toks), 0
        while i < n:
            while self.pending and self.pending[-1][0] <= i:
                self.pending.pop()[1]()
            kind, value = toks[i]
            if kind == TEXT or kind == RAW:
                self.sink.write(value)
                nxt = i + 1
            elif kind == CMD:
                nxt = self.command(i, value)
            elif kind == LBRACE:
                nxt = self.open_group(i)
            elif kind == PAR:
                self.sink.par()
                nxt = i + 1
            elif kind == MATH:
                self.sink.write(f"${value}$")
                nxt = i + 1
            elif kind == DMATH:
                self.sink.block("math", f"$${value}$$")
                nxt = i + 1
            elif kind == BEGIN:
                nxt = self.begin(i, value)
            elif kind == END:
                self.sink.par()
                nxt = i + 1
            elif kind == NEWLINE:
                if self.stacked_cells:
                    self.sink.write(" ")
                else:
                    self.sink.newline()
                nxt = i + 1
            elif kind == AMP:
                if isinstance(self.sink, _TableSink):
                    self.sink.end_cell()
                else:
                    self.sink.write(" ")
                nxt = i + 1
            elif kind == LBRACKET or kind == RBRACKET:
                self.sink.write(kind)
                nxt = i + 1
            elif kind == VERB:
                self.sink.block("verb", value)
                nxt = i + 1
            else:
                nxt = i + 1
            i = max(nxt, i + 1)
        while self.pending:
            self.pending.pop()[1]()
        self.sinks[0].par()

    def later(self, index: int, action: Callable[[], None]) -> None:
        self.pending.append((index, action))

    def push(self, sink: _Sink) -> _Sink:
        self.sinks.append(sink)
        return sink

    def pop(self, sink: _Sink) -> _Sink:
        for k in range(len(self.sinks) - 1, 0, -1):
            if self.sinks[k] is sink:
                del self.sinks[k]
                break
        return sink

    def skip_space(self, i: int) -> int:
        toks, n = self.toks, len(self.toks)
        while i < n and toks[i][0] == TEXT and not toks[i][1].strip():
            i += 1
        return i

    def group(self, i: int) -> tuple[int, int] | None:
        """(open, close) of the `{...}` argument starting at i (after spaces), if any."""
        j = self.skip_space(i)
        if j < len(self.toks) and self.toks[j][0] == LBRACE and self.match[j] > j:
            return j, self.match[j]
        return None

    def optional(self, i: int) -> tuple[int, int] | None:
        """(open, close) of a `[...]` argument at i, if any."""
        j = self.skip_space(i)
        if j < len(self.toks) and self.toks[j][0] == LBRACKET and self.bracket[j] > j:
            return j, self.bracket[j]
        return None

    def argument_end(self, i: int) -> int:
        """Index just past one mandatory argument (a group or a single token) at i."""
        toks = self.toks
        j = self.skip_space(i)
        if j >= len(toks):
            return j
        kind, value = toks[j]
        if kind == LBRACE:
            return self.match[j] + 1 if self.match[j] > j else j + 1
        if kind == TEXT:
            rest = value.lstrip()[1:]
            toks[j] = (TEXT, rest)
            return j if rest else j + 1
        if kind in (CMD, MATH, RAW):
            return j + 1
        return i

    def raw_text(self, i: int) -> tuple[str, int] | None:
        """Plain text of the group at i (keys, labels) and the index after it."""
        g = self.group(i)
        if g is None:
            return None
        a, b = g
        text = "".join(v for k, v in self.toks[a + 1 : b] if k in (TEXT, RAW))
        return text, b + 1

    def skip_spec(self, i: int, spec: str) -> int:
        toks = self.toks
        for code in spec:
            if code == "o":
                opt = self.optional(i)
                if opt:
                    i = opt[1] + 1
            elif code == "m":
                i = self.argument_end(i)
            elif code == "P":
                k = i
                while k < len(toks) and k - i < 20 and toks[k][0] not in (LBRACE, PAR):
                    k += 1
                i = k if k < len(toks) and toks[k][0] == LBRACE else i
            elif code in "=dr" and i < len(toks) and toks[i][0] == TEXT:
                value = toks[i][1]
                if code == "=":
                    stripped = value.lstrip()
                    value = stripped[1:] if stripped.startswith("=") else value
                elif code == "d":
                    m = _DIMENSION_RE.match(value)
                    value = value[m.end() :] if m else value
                else:
                    stripped = value.lstrip()
                    close = stripped.find(")")
                    value = stripped[close + 1 :] if stripped.startswith("(") and close > 0 else value
                toks[i] = (TEXT, value)
            elif code == "d" and i < len(toks) and toks[i][0] == CMD:
                i += 1
        return i

    def capture(self, i: int, done: Callable[[_Sink], None], sink: _Sink | None = None) -> int:
        """Send the group at i to a fresh sink and call done(sink) at its closing brace."""
        g = self.group(i)
        if g is None:
            return i
        target = self.push(sink or _Sink())
        self.later(g[1], lambda: done(self.pop(target)))
        return g[0] + 1

    # -- tokens ---------------------------------------------------------------------------------

    def open_group(self, i: int) -> int:
        if self.in_front and self.need_title and self.match[i] > i:
            j = self.skip_space(i + 1)
            if j < len(self.toks) and self.toks[j][0] == CMD and self.toks[j][1] in _TITLE_FONTS:
                return self.capture(i, self.maybe_title)
        return i + 1

    def maybe_title(self, sink: _Sink) -> None:
        text = sink.flat()
        if self.need_title and 3 <= len(text) <= 300 and any(c.isalpha() for c in text):
            self.meta.title = text
            self.need_title = False
        elif text:
            self.sink.write(f" {text} ")

    def command(self, i: int, name: str) -> int:
        handler = self.handlers.get(name)
        if handler is not None:
            return handler(i + 1, name)
        if name in _SYMBOLS:
            self.sink.write(_SYMBOLS[name])
            return i + 1
        if name in _ALGORITHM_WORDS:
            self.sink.newline()
            self.sink.write(_ALGORITHM_WORDS[name])
            return i + 1
        nxt = self.skip_spec(i + 1, _SKIP_SPECS[name]) if name in _SKIP_SPECS else i + 1
        if name in _PAR_COMMANDS:
            self.sink.par()
        if name == "newline":
            self.sink.newline()
        return nxt

    def begin(self, i: int, env: str) -> int:
        self.sink.par()
        end = self.match[i]
        if end < 0:
            return i + 1
        j = i + 1
        if env in _DISCARD_ENVS:
            return end + 1
        if env == "abstract":
            target = self.push(_Sink())
            self.later(end, lambda: self.keep_abstract(self.pop(target)))
            return j
        if env in _FIGURE_ENVS:
            self.floats.append(("Figure", self.sink))
            target = self.push(_Discard())
            self.later(end, lambda: (self.pop(target), self.floats.pop()))
            return self.skip_spec(j, _ENV_SPECS.get(env, "o"))
        if env in _TABLE_FLOATS:
            self.floats.append(("Table", self.sink))
            self.later(end, self.floats.pop)
            return self.skip_spec(j, _ENV_SPECS.get(env, "o"))
        if env in _TABULAR_SPECS:
            if env.startswith("longtable"):
                self.floats.append(("Table", self.sink))
                self.later(end, self.floats.pop)
            table = self.push(_TableSink())
            self.later(end, lambda: self.finish_table(table))
            return self.skip_spec(j, _TABULAR_SPECS[env])
        if env in _LIST_ENVS:
            self.lists.append([_LIST_ENVS[env], 0])
            self.later(end, self.lists.pop)
            return self.skip_spec(j, _ENV_SPECS.get(env, "o"))
        if env == "thebibliography":
            self.sink.block("h", "## References")
            return self.skip_spec(j, "m")
        if env in ("appendix", "appendices"):
            self.start_appendix()
            return j
        base = env.rstrip("*")
        if base in self.theorems:
            return self.theorem(j, self.theorems[base])
        if env in ("keywords", "IEEEkeywords"):
            self.sink.write("Keywords: ")
            return j
        if env in ("acknowledgments", "acknowledgements", "acks"):
            self.sink.block("h", "## Acknowledgments")
            return j
        return self.skip_spec(j, _ENV_SPECS.get(env, "o"))

    def theorem(self, j: int, label: str) -> int:
        opt = self.optional(j)
        if opt is None:
            self.sink.write(f"{label}. ")
            return j
        a, b = opt
        self.sink.write(f"{label} (")
        self.toks[b] = (TEXT, "). ")
        return a + 1

    def finish_table(self, table: _TableSink) -> None:
        self.pop(table)
        if isinstance(self.sink, _TableSink):
            self.sink.write(" " + table.plain() + " ")
            return
        rows = table.render()
        if rows:
            self.sink.block("table", rows)

    # -- commands -------------------------------------------------------------------------------

    def cmd_heading(self, i: int, name: str) -> int:
        base = name.rstrip("*")
        opt = self.optional(i)
        if opt:
            i = opt[1] + 1
        if self.group(i) is None:
            return i
        if base in ("part", "chapter", "section") and not self.preamble:
            self.end_front()
        hashes, number = self.heading_number(base, numbered=not name.endswith("*"))

        def done(sink: _Sink) -> None:
            title = sink.flat()
            head = " ".join(x for x in ("#" * hashes, number, title) if x)
            self.sink.block("h", head)

        return self.capture(i, done)

    def heading_number(self, base: str, numbered: bool) -> tuple[int, str]:
        if base == "paragraph":
            return 5, ""
        if base == "subparagraph":
            return 6, ""
        if base == "part":
            return 2, ""
        levels = _CHAPTER_LEVELS if self.has_chapters else _HEADING_LEVELS
        level = levels.get(base, 0)
        if not numbered:
            return 2 + level, ""
        self.counters[level] += 1
        for k in range(level + 1, len(self.counters)):
            self.counters[k] = 0
        top = _letter(self.counters[0]) if self.appendix else str(self.counters[0])
        return 2 + level, ".".join([top] + [str(c) for c in self.counters[1 : level + 1]])

    def end_front(self) -> None:
        if self.in_front:
            self.in_front = False
            self.need_title = False
            self.front.par()
            self.sinks[0] = self.body

    def start_appendix(self) -> None:
        self.appendix = True
        self.counters = [0, 0, 0, 0]

    def cmd_appendix(self, i: int, name: str) -> int:
        self.start_appendix()
        return i

    def cmd_title(self, i: int, name: str) -> int:
        opt = self.optional(i)
        if opt:
            i = opt[1] + 1

        def done(sink: _Sink) -> None:
            self.meta_depth -= 1
            if not self.meta.title:
                self.meta.title = sink.flat()

        if self.group(i) is None:
            return i
        self.meta_depth += 1
        return self.capture(i, done)

    def cmd_author(self, i: int, name: str) -> int:
        opt = self.optional(i)
        if opt:
            i = opt[1] + 1

        def done(sink: _Sink) -> None:
            self.meta_depth -= 1
            text = sink.flat(", ").replace(" ,", ",").strip(" ,")
            if text:
                self.meta.authors.append(text)

        if self.group(i) is None:
            return i
        self.meta_depth += 1
        return self.capture(i, done)

    def cmd_abstract(self, i: int, name: str) -> int:
        if self.group(i) is None:
            return i
        return self.capture(i, self.keep_abstract)

    def keep_abstract(self, sink: _Sink) -> None:
        """The abstract closes the front matter: what follows is body even without a section."""
        self.meta.abstract.extend(sink.flat_blocks())
        self.end_front()

    def cmd_maketitle(self, i: int, name: str) -> int:
        self.sink.par()
        if self.meta.abstract:
            self.end_front()
        return i

    def cmd_footnote(self, i: int, name: str) -> int:
        i = self.skip_spec(i, "o")
        g = self.group(i)
        if g is None:
            return i
        if self.meta_depth:
            return g[1] + 1
        self.sink.write(" [^")
        self.toks[g[1]] = (TEXT, "]")
        return g[0] + 1

    def cmd_font(self, i: int, name: str) -> int:
        if self.in_front and self.need_title and self.group(i) is not None:
            return self.capture(i, self.maybe_title)
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

    def cmd_href(self, i: int, name: str) -> int:
        return i + 1 if i < len(self.toks) and self.toks[i][0] == RAW else i

    def cmd_cite(self, i: int, name: str) -> int:
        for _ in range(2):
            opt = self.optional(i)
            if opt:
                i = opt[1] + 1
        found = self.raw_text(i)
        if found is None:
            return i
        keys = [k.strip() for k in found[0].split(",") if k.strip()]
        if keys and name != "nocite":
            self.sink.write("[" + ", ".join(keys) + "]")
        return found[1]

    def bracketed(self, i: int, after: str = "") -> int:
        """Write the raw argument at `i` as `[label]` (labels and bib keys are not text)."""
        found = self.raw_text(i)
        if found is None:
            return i
        label = " ".join(found[0].split())
        if label:
            self.sink.write(f"[{label}]{after}")
        return found[1]

    def cmd_ref(self, i: int, name: str) -> int:
        return self.bracketed(i)

    def cmd_item(self, i: int, name: str) -> int:
        kind, depth = ("-", 1)
        if self.lists:
            kind, depth = self.lists[-1][0], len(self.lists)
        marker = "- "
        if kind == "1":
            self.lists[-1][1] += 1
            marker = f"{self.lists[-1][1]}. "
        self.sink.start_item("  " * min(depth - 1, 6) + marker)
        opt = self.optional(i)
        if opt:
            a, b = opt
            self.toks[a] = (TEXT, "")
            self.toks[b] = (TEXT, ": " if kind == "d" else " ")
        return i

    def cmd_bibitem(self, i: int, name: str) -> int:
        self.sink.par()
        opt = self.optional(i)
        if opt:
            i = opt[1] + 1
        return self.bracketed(i, " ")

    def cmd_caption(self, i: int, name: str) -> int:
        opt = self.optional(i)
        if opt:
            i = opt[1] + 1
        label, target = self.floats[-1] if self.floats else ("Figure", self.sink)
        return self.capture(i, lambda sink: self.emit_caption(target, label, sink))

    def cmd_captionof(self, i: int, name: str) -> int:
        found = self.raw_text(i)
        if found is None:
            return i
        label = "Table" if "table" in found[0].lower() else "Figure"
        i = found[1]
        opt = self.optional(i)
        if opt:
            i = opt[1] + 1
        target = self.sink
        return self.capture(i, lambda sink: self.emit_caption(target, label, sink))

    def emit_caption(self, target: _Sink, label: str, sink: _Sink) -> None:
        text = sink.flat()
        if text:
            target.block("p", f"{label}: {text}")


# ---------------------------------------------------------------------------------------------
# User text macros: splicing the collected definitions into the tokens
# ---------------------------------------------------------------------------------------------

MAX_MACRO_EXPANSION = 1_000_000  # characters of macro bodies inserted per paper, at most

_MATH_CONTROL_RE = re.compile(r"\\(?:([A-Za-z]+)|.)", re.DOTALL)
_DEFINERS = {
    "def",
    "gdef",
    "edef",
    "xdef",
    "let",
    "newcommand",
    "newcommand*",
    "renewcommand",
    "renewcommand*",
    "providecommand",
    "providecommand*",
    "DeclareRobustCommand",
}
_XSPACE_EXCEPTIONS = set(",.'/?;:!~-)\u2013\u2014\u201d")
# Names the tokenizer or converter give a meaning of their own: a redefinition is not applied.
_PROTECTED_MACROS = frozenset(
    RESERVED_NAMES
    | set(_SKIP_SPECS)
    | _PAR_COMMANDS
    | set(_ALGORITHM_WORDS)
    | _CITE_COMMANDS
    | _REF_COMMANDS
    | set(_HEADING_LEVELS)
    | set(_CHAPTER_LEVELS)
    | {
        "part",
        "abstract",
        "footnotetext",
        "bibitem",
        "subcaption",
        "captionof",
        "appendix",
        "href",
        "url",
        "path",
        "verb",
        "textbf",
        "textsc",
        "maketitle",
        "makecell",
        "thead",
        "shortstack",
        "specialcell",
        "Centerstack",
        "and",
        "AND",
        "And",
        "newblock",
        "ensuremath",
        "xspace",
        "subparagraph",
    }
)


class _Expansion:
    """Splices macro bodies into a token list, once each; the bodies themselves are never scanned."""

    def __init__(self, macros: dict[str, Macro]):
        self.macros = macros
        self.budget = MAX_MACRO_EXPANSION
        self.warned = False

    def affordable(self, macro: Macro) -> bool:
        if macro.cost <= self.budget:
            return True
        if not self.warned:
            log.warning("more than %d characters of macro bodies; later uses stay unexpanded", MAX_MACRO_EXPANSION)
            self.warned = True
        return False

    def tokens(self, toks: list[Token]) -> list[Token]:
        if not self.macros:
            return toks
        out: list[Token] = []
        for k, (kind, value) in enumerate(toks):
            macro = self.macros.get(value) if kind == CMD else None
            if macro is not None and self.affordable(macro) and not _being_defined(toks, k):
                self.budget -= macro.cost
                self.splice(out, macro, toks[k + 1] if k + 1 < len(toks) else None)
            elif (kind == MATH or kind == DMATH) and "\\" in value:
                out.append((kind, _MATH_CONTROL_RE.sub(lambda m, v=value: self.in_math(m, v), value)))
            else:
                out.append((kind, value))
        return out

    @staticmethod
    def splice(out: list[Token], macro: Macro, following: Token | None) -> None:
        """The body's tokens; math never touches other math (`$a$$b$` would read as `$$`)."""
        if macro.text and macro.text[0][0] == MATH and out and out[-1][0] == MATH:
            out.append((TEXT, " "))
        out.extend(macro.text)
        ends_in_math = bool(macro.text) and macro.text[-1][0] == MATH
        math_follows = following is not None and following[0] == MATH
        if (macro.xspace and _xspace_adds_space(following)) or (ends_in_math and math_follows):
            out.append((TEXT, " "))

    def in_math(self, m: re.Match, latex: str) -> str:
        macro = self.macros.get(m.group(1) or "")
        if macro is None or macro.math is None or not self.affordable(macro):
            return m.group()
        self.budget -= macro.cost
        glue = " " if m.start() > 0 and latex[m.start() - 1].isalpha() and macro.math[:1].isalpha() else ""
        return glue + macro.math


def _being_defined(toks: list[Token], k: int) -> bool:
    """The macro name right after \\def, \\newcommand{ ... or \\let is its definition, not a use."""
    j = k - 1
    while j >= 0 and toks[j][0] == TEXT and not toks[j][1].strip() and k - j < 4:
        j -= 1
    if j >= 0 and toks[j][0] == LBRACE:
        j -= 1
    if j >= 0 and toks[j][0] == CMD and toks[j][1] in _DEFINERS:
        return True
    return (CMD, "let") in toks[max(0, k - 4) : k]


def _xspace_adds_space(following: Token | None) -> bool:
    """\\xspace: a space unless punctuation, a brace, a space or a footnote follows."""
    if following is None:
        return False
    kind, value = following
    if kind == TEXT:
        return bool(value) and not value[0].isspace() and value[0] not in _XSPACE_EXCEPTIONS
    if kind == CMD:
        return value not in ("footnote", "footnotemark", "xspace")
    return kind in (MATH, RAW, LBRACKET)


# ---------------------------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------------------------


def _split_front(front: list[Block]) -> tuple[list[Block], list[Block]]:
    """Without an abstract environment, find an 'Abstract' paragraph in the front matter."""
    for k, (kind, text) in enumerate(front):
        if kind != "p":
            continue
        m = _ABSTRACT_HEADING_RE.match(text)
        if not m:
            continue
        rest = text[m.end() :].strip()
        if not rest and k + 1 < len(front):
            return front[:k], front[k + 1 :]
        if rest and m.group(1):
            return front[:k], [("p", rest)] + front[k + 1 :]
    return front, []


def _render(meta: _Meta, front: list[Block], body: list[Block]) -> str:
    blocks: list[Block] = []
    if meta.title:
        blocks.append(("h", "# " + " ".join(meta.title.split())))
    if meta.authors:
        separator = "; " if any("," in author for author in meta.authors) else ", "
        blocks.append(("p", separator.join(meta.authors)))
    abstract = list(meta.abstract)
    if not abstract:
        front, abstract = _split_front(front)
    blocks.extend(front)
    if abstract:
        blocks.append(("h", "## Abstract"))
        blocks.extend(abstract)
    blocks.extend(body)

    out: list[str] = []
    previous = ""
    for kind, text in blocks:
        if not text.strip():
            continue
        rendered = text if kind == "h" else escape_body(text)
        if out:
            out.append("\n" if kind == "li" and previous == "li" else "\n\n")
        out.append(rendered)
        previous = kind
    return "".join(out) + "\n" if out else ""
