"""LaTeX source -> clean text in the shared extractor format.

Format (shared with the HTML and PDF extractors): first line `# <title>`, then the authors,
`## Abstract`, numbered `##`/`###`/`####` headings, paragraphs separated by one blank line,
math kept as `$...$` / `$$...$$`, and no body line starting with `#`.

This module is the engine: it walks the tokens once. What each known command or environment
means is in `specs.py`; the paper's own macros are expanded, with their bounds, by `macros.py`
before the walk. Paper source is untrusted data, so nothing is ever executed. Scanning is single-pass over a
token list with precomputed brace/environment matching, memoised forward searches and no
nested regex quantifiers, so hostile input cannot make it hang or recurse deeply.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from ...errors import ExtractionError
from ..archive import SourceBundle, read_source
from ..shape import escape_body
from .macros import PROTECTED_MACROS, Expansion, definitions, text_macros
from .references import Labels, bib_label, cite_mark, entry_mark, numeric_citations, ref_mark
from .source import (
    LINE_BREAK,
    Assembler,
    decode,
    environment_aliases,
    find_main,
    package_sources,
    split_document,
    theorem_names,
)
from .specs import (
    ALGORITHM_WORDS,
    CHAPTER_LEVELS,
    CITE_COMMANDS,
    CLASS_AUTHORS,
    DISCARD_ENVS,
    ENV_SPECS,
    FIGURE_ENVS,
    HEADING_LEVELS,
    LIST_ENVS,
    PAR_COMMANDS,
    REF_COMMANDS,
    SKIP_SPECS,
    SYMBOLS,
    TABLE_FLOATS,
    TABULAR_SPECS,
    TITLE_FONTS,
)
from .templates import Templates, template_definitions
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
    RBRACE,
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
    return bundle_to_text(read_source(data))


def bundle_to_text(bundle: SourceBundle) -> str:
    """The text of an e-print's usable files: LaTeX, or the authors' own HTML page."""
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
    found = definitions(package_sources(files, source) + "\n" + source, PROTECTED_MACROS)
    expansion = Expansion(text_macros(found))
    templates = Templates(template_definitions(found), expansion)

    meta = _Meta(labels=Labels(numeric=numeric_citations(preamble)))
    _Converter(expansion.tokens(tokenize(templates.expand(preamble), aliases)), meta, theorems, preamble=True).run()
    converter = _Converter(expansion.tokens(tokenize(templates.expand(body), aliases)), meta, theorems, preamble=False)
    converter.run()
    if not meta.authors:
        default = _DOCUMENT_CLASS_RE.search(preamble)
        if default and default.group(1) in CLASS_AUTHORS:
            meta.authors.append(CLASS_AUTHORS[default.group(1)])
    text = meta.labels.resolve(_render(meta, converter.front.blocks, converter.body.blocks))
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

SinkT = TypeVar("SinkT", bound="_Sink")
Block = tuple[str, str]  # (kind, text); kinds: h (heading), p, li, math, verb, table


# A space left after "(" by a dropped argument (`(\\bibinfo {year}\n{1980})`) is not in the print.
_OPEN_PAREN_SPACE_RE = re.compile(r"\( (?=\w)")


def _finish(raw: str) -> str:
    lines = (_OPEN_PAREN_SPACE_RE.sub("(", " ".join(line.split())) for line in raw.split(LINE_BREAK))
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

_DIMENSION_RE = re.compile(
    r"[ \t]*(?:=[ \t]*)?-?(?:\d+(?:\.\d*)?|\.\d+)[ \t]*(?:cm|mm|pt|in|em|ex|bp|pc|sp|dd|cc|mu)"
    r"(?:[ \t]*(?:plus|minus)[ \t]*-?(?:\d+(?:\.\d*)?|\.\d+)[ \t]*(?:fill|fil|cm|mm|pt|in|em|ex))*"
)
_MARK_SPACE_RE = re.compile(r"(\$\^\{\d+\}\$) ")  # `\\and \\pagebreak[0] Name`: the mark sits on the name
_DOCUMENT_CLASS_RE = re.compile(r"\\document(?:class|style)[ \t]*(?:\[[^\]]*\])?[ \t]*\{[ \t]*([^{}\s]+)[ \t]*\}")
_ABSTRACT_HEADING_RE = re.compile(r"(?i)\A\s*abstract\s*([.:\u2014\u2013-])?\s*")


@dataclass
class _Meta:
    title: str = ""
    authors: list[str] = field(default_factory=list)
    abstract: list[Block] = field(default_factory=list)
    labels: Labels = field(default_factory=Labels)
    affiliations: list[str] = field(default_factory=list)
    author_marks: dict[int, list[str]] = field(default_factory=dict)
    group: list[int] = field(default_factory=list)  # authors the next unlabelled affiliation is of
    affiliation_numbers: dict[str, str] = field(default_factory=dict)
    after_affiliation: bool = False

    def add_author(self, name: str, marks: str) -> None:
        if self.after_affiliation:
            self.group = []
            self.after_affiliation = False
        self.group.append(len(self.authors))
        if marks:
            self.author_marks[len(self.authors)] = [marks]
        self.authors.append(name)

    def add_affiliation(self, text: str, label: str) -> None:
        """Each affiliation once, as `$^{n}$text`; the authors carry the marks (never glued)."""
        if label:
            self.affiliations.append(f"$^{{{label}}}${text}")
            return
        number = self.affiliation_numbers.get(text)
        if number is None:
            number = self.affiliation_numbers[text] = str(len(self.affiliation_numbers) + 1)
            self.affiliations.append(f"$^{{{number}}}${text}")
        for k in self.group:
            marks = self.author_marks.setdefault(k, [])
            if number not in marks:
                marks.append(number)
        self.after_affiliation = True

    def author_line(self) -> str:
        names = [
            name + (f"$^{{{','.join(self.author_marks[k])}}}$" if k in self.author_marks else "")
            for k, name in enumerate(self.authors)
        ]
        separator = "; " if any("," in author for author in self.authors) else ", "
        return separator.join(names)


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
        self.pending: list[tuple[int, Callable[[], object]]] = []
        self.lists: list[list] = []
        self.floats: list[tuple[str, _Sink]] = []
        self.meta_depth = 0
        self.stacked_cells = 0
        self.appendix = False
        self.current_label: tuple[str, str] = ("", "")
        self.institutes = 0
        self.counts: dict[str, int] = {}
        self.has_chapters = any(t == (CMD, "chapter") or t == (CMD, "chapter*") for t in toks)
        self.counters = [0, 0, 0, 0]
        self.need_title = not preamble and not meta.title and (CMD, "title") not in toks
        self.handlers: dict[str, Callable[[int, str], int]] = {
            "title": self.cmd_title,
            "author": self.cmd_author,
            "collaboration": self.cmd_author,
            "affiliation": self.cmd_affiliation,
            "altaffiliation": self.cmd_affiliation,
            "address": self.cmd_affiliation,
            "affil": self.cmd_affiliation,
            "institute": self.cmd_institute,
            "and": self.cmd_and,
            "thanksref": self.cmd_thanksref,
            "inst": self.cmd_inst,
            "AtlasTitle": self.cmd_title,
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
            "doi": self.cmd_doi,
            "label": self.cmd_label,
            "@stepequation": self.cmd_step_equation,
            "texorpdfstring": self.cmd_first_of_two,
            "@firstoftwo": self.cmd_first_of_two,
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
        for name in CITE_COMMANDS:
            self.handlers[name] = self.cmd_cite
        for name in REF_COMMANDS:
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

    def later(self, index: int, action: Callable[[], object]) -> None:
        self.pending.append((index, action))

    def push(self, sink: SinkT) -> SinkT:
        self.sinks.append(sink)
        return sink

    def pop(self, sink: SinkT) -> SinkT:
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
            if j < len(self.toks) and self.toks[j][0] == CMD and self.toks[j][1] in TITLE_FONTS:
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
        if name in SYMBOLS:
            self.sink.write(SYMBOLS[name])
            return i + 1
        if name in ALGORITHM_WORDS:
            self.sink.newline()
            self.sink.write(ALGORITHM_WORDS[name])
            return i + 1
        nxt = self.skip_spec(i + 1, SKIP_SPECS[name]) if name in SKIP_SPECS else i + 1
        if name in PAR_COMMANDS:
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
        if env in DISCARD_ENVS:
            return end + 1
        if env == "abstract":
            target = self.push(_Sink())
            self.later(end, lambda: self.keep_abstract(self.pop(target)))
            return j
        if env in FIGURE_ENVS:
            self.floats.append(("Figure", self.sink))
            target = self.push(_Discard())
            self.later(end, lambda: (self.pop(target), self.floats.pop()))
            return self.skip_spec(j, ENV_SPECS.get(env, "o"))
        if env in TABLE_FLOATS:
            self.floats.append(("Table", self.sink))
            self.later(end, self.floats.pop)
            return self.skip_spec(j, ENV_SPECS.get(env, "o"))
        if env in TABULAR_SPECS:
            if env.startswith("longtable"):
                self.floats.append(("Table", self.sink))
                self.later(end, self.floats.pop)
            table = self.push(_TableSink())
            self.later(end, lambda: self.finish_table(table))
            return self.skip_spec(j, TABULAR_SPECS[env])
        if env in LIST_ENVS:
            self.lists.append([LIST_ENVS[env], 0])
            self.later(end, self.lists.pop)
            return self.skip_spec(j, ENV_SPECS.get(env, "o"))
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
        return self.skip_spec(j, ENV_SPECS.get(env, "o"))

    def theorem(self, j: int, label: str) -> int:
        self.step(label)
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
        if number:
            self.current_label = ("appendix" if self.appendix and "." not in number else "section", number)

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
        levels = CHAPTER_LEVELS if self.has_chapters else HEADING_LEVELS
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
        """\\author[a,b]{Name} (elsarticle, authblk: the labels of the name's affiliations) or
        \\author{Name} (REVTeX, aastex: the \\affiliation commands that follow give them)."""
        opt = self.optional(i)
        marks = ""
        if opt:
            marks = "".join(v for k, v in self.toks[opt[0] + 1 : opt[1]] if k == TEXT).strip()
            i = opt[1] + 1

        def done(sink: _Sink) -> None:
            self.meta_depth -= 1
            text = sink.flat(", ").replace(" ,", ",").strip(" ,")
            if text:
                self.meta.add_author(text, marks)

        if self.group(i) is None:
            return i
        self.meta_depth += 1
        return self.capture(i, done)

    def cmd_affiliation(self, i: int, name: str) -> int:
        """\\affiliation/\\address/\\affil: with a [label] it is that label's; without, it belongs
        to the authors named since the previous one (REVTeX, aastex), numbered once per text."""
        opt = self.optional(i)
        label = ""
        if opt:
            label = "".join(v for k, v in self.toks[opt[0] + 1 : opt[1]] if k == TEXT).strip()
            i = opt[1] + 1
        if self.group(i) is None:
            return i

        def done(sink: _Sink) -> None:
            self.meta_depth -= 1
            text = sink.flat(", ").replace(" ,", ",").strip(" ,")
            if text:
                self.meta.add_affiliation(text, label)

        self.meta_depth += 1
        return self.capture(i, done)

    def cmd_institute(self, i: int, name: str) -> int:
        """svjour/llncs \\institute{A \\label{a} \\and B}: numbered 1, 2, ... in order, which is
        what \\thanksref{a} and \\inst{1} print."""
        if self.group(i) is None:
            return i
        self.institutes = 1
        self.current_label = ("institute", "1")

        def done(sink: _Sink) -> None:
            self.meta_depth -= 1
            self.institutes = 0
            text = _MARK_SPACE_RE.sub(r"\1", sink.flat("; ").replace(" ;", ";").strip(" ;"))
            if text:
                self.meta.affiliations.append("$^{1}$" + text)

        self.meta_depth += 1
        return self.capture(i, done)

    def cmd_and(self, i: int, name: str) -> int:
        if not self.institutes:
            self.sink.write(", ")
            return i
        self.institutes += 1
        self.current_label = ("institute", str(self.institutes))
        self.sink.newline()
        self.sink.write(f"$^{{{self.institutes}}}$")
        return i

    def cmd_thanksref(self, i: int, name: str) -> int:
        found = self.keys(i)
        if found is None:
            return i
        self.sink.write(cite_mark("thanksref", found[0]))
        return found[1]

    def cmd_inst(self, i: int, name: str) -> int:
        found = self.raw_text(i)
        if found is None:
            return i
        if found[0].strip():
            self.sink.write(f"$^{{{''.join(found[0].split())}}}$")
        return found[1]

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
        """The link target is not text; a target the tokenizer left as a group (\\href spliced
        in from a macro such as REVTeX's \\Eprint) is skipped as well."""
        if i < len(self.toks) and self.toks[i][0] == RAW:
            return i + 1
        g = self.group(i)
        return g[1] + 1 if g else i

    def cmd_doi(self, i: int, name: str) -> int:
        found = self.raw_text(i)
        if found is None:
            return i
        if found[0].strip():
            self.sink.write("doi:" + "".join(found[0].split()))
        return found[1]

    def cmd_first_of_two(self, i: int, name: str) -> int:
        """\\texorpdfstring{TeX}{PDF string}: the printed first branch; the second is blanked."""
        first = self.group(i)
        if first is None:
            return i
        second = self.group(first[1] + 1)
        if second is not None:
            for k in range(second[0], second[1] + 1):
                self.toks[k] = (TEXT, "")
        return first[0] + 1

    def keys(self, i: int) -> tuple[list[str], int] | None:
        """The comma-separated keys of the raw argument at `i` and the index after it."""
        found = self.raw_text(i)
        if found is None:
            return None
        return [k for k in ("".join(part.split()) for part in found[0].split(",")) if k], found[1]

    def cmd_cite(self, i: int, name: str) -> int:
        for _ in range(2):
            opt = self.optional(i)
            if opt:
                i = opt[1] + 1
        found = self.keys(i)
        if found is None:
            return i
        if found[0] and name != "nocite":
            self.sink.write(cite_mark(name, found[0]))
        return found[1]

    def cmd_ref(self, i: int, name: str) -> int:
        found = self.keys(i)
        if found is None:
            return i
        self.sink.write(", ".join(ref_mark(name, key) for key in found[0]))
        return found[1]

    def cmd_label(self, i: int, name: str) -> int:
        found = self.keys(i)
        if found is None:
            return i
        for key in found[0]:
            self.meta.labels.refs.setdefault(key, self.current_label)
        return found[1]

    def cmd_step_equation(self, i: int, name: str) -> int:
        self.counts["equation"] = self.counts.get("equation", 0) + 1
        self.current_label = ("equation", str(self.counts["equation"]))
        return i

    def step(self, kind: str) -> str:
        """Advance the counter of `kind` (figure, table, a theorem's name) and make it the target
        of the next \\label, as \\refstepcounter does."""
        self.counts[kind] = self.counts.get(kind, 0) + 1
        number = str(self.counts[kind])
        self.current_label = (kind.lower() if kind in ("Figure", "Table") else "theorem", number)
        return number

    def cmd_item(self, i: int, name: str) -> int:
        kind, depth = ("-", 1)
        if self.lists:
            kind, depth = self.lists[-1][0], len(self.lists)
        marker = "- "
        if kind == "1":
            self.lists[-1][1] += 1
            marker = f"{self.lists[-1][1]}. "
            self.current_label = ("item", str(self.lists[-1][1]))
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
        optional, parts = self.label_text(*opt) if opt else (None, [])
        found = self.keys(opt[1] + 1 if opt else i)
        if found is None or not found[0]:
            return i
        key = found[0][0]
        self.counts["bibitem"] = self.counts.get("bibitem", 0) + 1
        self.meta.labels.bib.setdefault(key, bib_label(self.counts["bibitem"], optional, parts))
        self.sink.write(entry_mark(key) + " ")
        return found[1]

    def label_text(self, a: int, b: int) -> tuple[str, list[str]]:
        """Plain text of the tokens a..b (a bibitem's optional label) and of its top-level groups."""
        text: list[str] = []
        parts: list[str] = []
        depth = 0
        for kind, value in self.toks[a + 1 : b]:
            if kind == LBRACE:
                depth += 1
                if depth == 1:
                    parts.append("")
            elif kind == RBRACE:
                depth -= 1
            elif kind in (TEXT, RAW, MATH):
                text.append(value)
                if depth >= 1 and parts:
                    parts[-1] += value
        return "".join(text), parts

    def cmd_caption(self, i: int, name: str) -> int:
        opt = self.optional(i)
        if opt:
            i = opt[1] + 1
        label, target = self.floats[-1] if self.floats else ("Figure", self.sink)
        label = f"{label} {self.step(label)}"
        return self.capture(i, lambda sink: self.emit_caption(target, label, sink))

    def cmd_captionof(self, i: int, name: str) -> int:
        found = self.raw_text(i)
        if found is None:
            return i
        label = "Table" if "table" in found[0].lower() else "Figure"
        label = f"{label} {self.step(label)}"
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
        blocks.append(("p", meta.author_line()))
    if meta.affiliations:
        blocks.append(("p", "; ".join(meta.affiliations)))
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
