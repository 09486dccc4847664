"""What a PDF's text prints about its own structure, as a `Document` over that same text.

Reads the lines `engine` made of the text, as it made them (not the text joined and split
again), and writes them through a `DocumentBuilder`, line for line, marking what the page
prints. A page's start and a heading come as what they are (layout.PageLine, HeadingLine:
their type, a heading's level, title and number), never found again from their `#`; every
other line is the page's text.

- Headings keep their printed number (`4.2`, `B`, and `IV.A` for REVTeX's "A." under
  "IV."): the heading lines are the ones `layout` chose, numbered as it wrote them
  (`layout.Numbering`).
- Captions: a line opening with a label and its number and a stop (`Figure 3:`, `Fig. 3.`,
  `FIG. 3.`, `Table 2:`, `Figure 1 |`), or a lone `TABLE I` line with its caption below, is a
  figure or table block running to the caption's paragraph end. A label a sentence carried
  to a line start ("shown in" / "Figure 3. Then ...") is not one. A table's caption is
  followed by the table's lines: those that read as rows (short, or mostly numbers) go into
  its block. Its record's approximate rows are those, or, for a caption under its table,
  the rows right over it (when they outnumber those under it, or those run into the next
  caption), in columns from where the engine placed them (`tables`). Each label and number
  once, the first caption.
- Equations: a line ending in a number in parentheses (`(7)`, `(2.3)`) that reads as math
  (or is the number alone) is a numbered display equation, when its number continues the
  numbering (the longest chain of numbers that follow one another, as headings are found).
  A PDF holds no LaTeX: the record's `latex` is the equation's line as printed (the line
  above when the number stands alone).
- References: the section a `References`/`Bibliography` heading opens (else a final run
  of `[1]`, `[2]`, ... lines) is split into entries: `[12]`/`[Abc99]` labels, `12.` numbers
  in sequence, or author-year entries (each starts at a blank line or an author's name
  after an entry's end). Entries never span a page marker: an entry broken by a page is one
  record, its first part the block. Ids come from `bibids`.
- Footnotes: at a page's end (where `order` puts those a paragraph ran past), a run of
  lines each footnote of which opens with its mark (`7`, `∗`) and a capitalised word or a URL,
  the mark printed raised earlier on the page ("model.7"): `Footnote` blocks with the mark
  as printed; a collaboration's list of institutes under its marks is none.
- Citations `[12]`, `[3-5]`, `[3, 7]`, and author-year ones (`Smith et al., 2020`), in
  paragraphs and captions name the entries with those labels.
The text is the engine's, read as paragraphs: the lines of a paragraph (and of a caption or
an entry) joined on one line, with a space, or with nothing after a hyphen the engine left at a
line end (dropped before a lower-case rest: "arX-" + "iv:2206.15227"); list items, table rows,
headings and page markers stay lines, and a marked block stands apart between blank lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from .. import labels
from ..bibids import arxiv_id_in, doi_in
from ..document import Document, DocumentBuilder, Equation, Figure, Footnote, Kind, Record, Reference, Table
from .chain import longest_chain
from .layout import HeadingLine, Marked, PageLine
from .params import PARAMS
from .reading_order import FOOTNOTE_MARK, FOOTNOTE_START, may_name_label
from .sentences import ends_sentence, ends_with_stop
from .tables import looks_tabular, pieces_of, placed_apart, placed_rows, reads_as_row, text_cells

# --- captions: the grammar of a caption line, a printed label (labels) and what follows it ---

_CAPTION = re.compile(labels.PRINTED_LABEL + r"(?:\s*[:.|]\s*|\s+[—–]\s*)(?P<caption>\S.*)?$")
_LONE_LABEL = re.compile(labels.PRINTED_LABEL + r"\.?$")
"""A label alone on its line (`TABLE I`), its caption below."""
_GLUED = re.compile(r"(?<=\s)" + labels.PRINTED_LABEL + r"[:|]\s*(?P<caption>\S.*)$")
"""A caption the engine put after a figure's last words ("Tight Figure 4: ...")."""
_STRONG_SEPARATOR = re.compile(r"\s*[:|]")
"""A colon or a bar after a label, which no reference entry opens with (a stop may)."""
# words a sentence puts before "Figure 3": the label then came to a line start by wrapping
_LEADS_IN = frozenset("in of see and to from by with cf. also as than shows shown for on at".split())


def _is_table(name: str) -> bool:
    return name.lower().startswith("tab")


# --- equations --------------------------------------------------------------------------

_EQUATION = re.compile(r"(?P<body>.*?)\s*\((?P<number>\d{1,3}(?:\.\d{1,3})?)(?P<sub>[a-z]?)\)$")
_MATHS = re.compile(r"[=<>≤≥≈∼∝+−×·∑∏∫∂∇√∈→^_|]")
_PROSE_WORD = re.compile(r"\b[a-z]{4,}\b")

# --- references -----------------------------------------------------------------------------

_REFERENCES_TITLE = re.compile(r"(?:[\dIVX]+\.?\s+)?(?:references|bibliography|literature cited)", re.IGNORECASE)
_BRACKET_ENTRY = re.compile(r"\[(?P<label>[^\]\s]{1,24})\]\s+(?=\S)")
_NUMBER_ENTRY = re.compile(r"(?P<label>\d{1,4})\.?(?:\s+(?=\S)|$)")  # the number alone: its entry below
_AUTHOR_START = re.compile(
    r"(?:[A-Z][\w'’\-]+(?: [A-Z][\w'’\-]+)?,? (?:[A-Z]\.[ -]?){1,3}[,:&]|"  # Smith, J., / Smith J.,
    r"(?:[A-Z]\.[ -]?){1,3} ?[A-Z][\w'’\-]+[,:.]|"  # J. Smith,
    r"[A-Z][\w'’\-]+, [A-Z][\w'’\-]+(?: [A-Z]\.)?,|"  # Smith, John,
    r"[A-Z][\w'’\-]+ (?:[A-Z]\.? )?[A-Z][\w'’\-]+(?:,| and ))"  # John D Smith, / John Smith and
)
_ENTRY_END = re.compile(r"[.)\d]$")
_CITATION = re.compile(r"\[(?P<body>\d{1,4}(?:\s*[,–—-]\s*\d{1,4})*)\]")


@dataclass(frozen=True)
class _Mark:
    """A block over lines [start, end) of the text."""

    start: int
    end: int
    kind: Kind
    record: Record
    flowed: int | None = None
    """Lines from `start` written as one paragraph (None: all); a table's rows stay lines."""


def pdf_document(lines: list[str], notes: dict[str, str] | None = None) -> Document:
    """The document of a PDF text's `lines` in the shared shape (see the module docstring)."""
    references = _before_captions(lines, _reference_range(lines))
    entries = list(_entries(lines, references)) if references else []
    full = full_line(lines)
    found = [*_captions(lines, references, full), *_equations(lines, references), *entries]
    marks = sorted([*found, *_footnotes(lines, references)], key=lambda mark: mark.start)
    labels = _Labels.of(mark.record.label for mark in entries if isinstance(mark.record, Reference))
    sink = _Sink(DocumentBuilder())
    sink.builder.notes.update(notes or {})
    _write(sink, lines, marks, labels, int(PARAMS.short_line * full))
    return sink.flushed().build()


# --- writing --------------------------------------------------------------------------------


def full_line(lines: list[str]) -> int:
    """The length of a full line of text: most lines of a paragraph run the full width of
    their column, and a line well short of it ends its paragraph (or is a title)."""
    # a list: sorted takes it as it is
    lengths = sorted([len(line) for line in lines if line and not isinstance(line, Marked)])
    return lengths[(len(lengths) * 3) // 4] if len(lengths) >= 4 else 0


class _Sink:
    """The builder, with consecutive plain text gathered into one piece: a paper has tens of
    thousands of lines, and a builder call per line cost more than reading them."""

    def __init__(self, builder: DocumentBuilder) -> None:
        self.builder = builder
        self.pending: list[str] = []
        # the list's own append, called for every line and joint: no method of ours in between
        self.add_text: Callable[[str], None] = self.pending.append

    def flushed(self) -> DocumentBuilder:
        """The builder, given the text gathered so far: for what follows it (a citation, a block)."""
        if self.pending:
            self.builder.add_text("".join(self.pending))
            self.pending.clear()
        return self.builder


def _write(sink: _Sink, lines: list[str], marks: list[_Mark], labels: _Labels, short: int) -> None:
    """The lines and marked blocks in order; the lines of a paragraph on one line."""
    position = 0
    separated, joint = True, None  # after a marked piece (the builder separated it); what ends the last line
    for mark in [*marks, None]:
        end = len(lines) if mark is None else mark.start
        if mark is not None and mark.start < position:
            continue
        for index in range(position, end):
            line = lines[index]
            if separated and not line:
                continue
            if joint is not None:
                sink.add_text(joint)
            separated, joint = False, None
            if isinstance(line, HeadingLine):
                sink.flushed().heading(line.level, line.name, line.number)
                separated = True
                continue
            following = lines[index + 1] if index + 1 < end else ""
            joins = len(line) >= short and _continues(line, following)
            broken = joins and _broken(line, following)  # its hyphen goes, and nothing joins it
            written = line[:-1] if broken else line
            _write_line(sink, written, labels)
            joint = ("" if broken else _joint(line, following)) if joins else "\n"
        if mark is None:
            break
        rendered = _rendered(lines[mark.start : mark.end], mark.flowed)
        cites = [] if mark.kind is Kind.REFERENCE else _citations(rendered, labels)
        sink.flushed().block(
            mark.kind, rendered, mark.record, [(rendered[start:end], targets) for start, end, targets in cites]
        )
        separated, joint = True, None
        position = mark.end


_ITEM = re.compile(r"[•◦▪‣∙·*–-]\s|\(?[a-z0-9]{1,3}\)\s")


def _continues(line: str, following: str) -> bool:
    """Whether `following` goes on the paragraph of `line`: both sentences' words (not a
    heading, a page marker, a list item, or a line of capitalised words and numbers: a
    table's, a figure's, an author list)."""
    if not line or not following or isinstance(line, Marked) or isinstance(following, Marked) or _ITEM.match(following):
        return False
    if FOOTNOTE_START.match(following) and (ends_sentence(line) or not following[0].isdigit()):
        return False  # a footnote under the page's last paragraph ("... figure 3." / "7 The model ...")
    return not looks_tabular(line) and not looks_tabular(following)


def _write_line(sink: _Sink, line: str, labels: _Labels) -> None:
    position = 0
    # most lines hold no citation to look for: no "[", and no author-year label to name
    if labels.names and ("[" in line or labels.author_year) and not isinstance(line, Marked):
        for start, end, targets in _citations(line, labels):
            if start < position:
                continue
            sink.add_text(line[position:start])
            sink.flushed().cite(line[start:end], targets)
            position = end
    sink.add_text(line[position:])


_AUTHOR_YEAR_CITATION = re.compile(
    r"(?P<name>[A-Z][\w'’\-]+)(?: et al\.?| (?:and|&) [A-Z][\w'’\-]+)?,? [(\[]?(?P<year>(?:1[89]|20)\d\d[a-z]?)\b"
)


@dataclass(frozen=True)
class _Labels:
    """The labels of the reference entries, which citations name."""

    names: frozenset[str]
    author_year: bool
    """Whether one is an author-year label (`Smith 2020`, the only kind with a space): only
    then is every line searched for author-year citations (a search that cost as much as
    writing the lines, on a paper numbering its references)."""

    @classmethod
    def of(cls, labels: Iterable[str]) -> _Labels:
        names = frozenset(labels)
        return cls(names, any(" " in label for label in names))


def _citations(line: str, labels: _Labels) -> list[tuple[int, int, list[str]]]:
    """(start, end, targets) of the citations in a line: `[12]`, `[3-5]`, and an author-year
    `Smith et al., 2020` or `Smith and Lee (2020)` naming an entry labelled `Smith 2020`."""
    found = []
    for match in _CITATION.finditer(line) if "[" in line else ():
        targets = [label for label in _cited(match["body"]) if label in labels.names]
        if targets:
            found.append((match.start(), match.end(), targets))
    for match in _AUTHOR_YEAR_CITATION.finditer(line) if labels.author_year and _YEAR.search(line) else ():
        label = f"{match['name']} {match['year']}"
        if label in labels.names:
            found.append((match.start(), match.end(), [label]))
    return sorted(found)


def _cited(body: str) -> Iterator[str]:
    for part in body.split(","):
        bounds = re.split(r"\s*[–—-]\s*", part.strip())
        if len(bounds) == 2 and int(bounds[0]) < int(bounds[1]) <= int(bounds[0]) + 50:
            yield from (str(number) for number in range(int(bounds[0]), int(bounds[1]) + 1))
        elif len(bounds) == 1:
            yield bounds[0]


def _rendered(lines: list[str], flowed: int | None) -> str:
    """A block's lines as the text shows them: its paragraph on one line, a table's rows below."""
    cut = len(lines) if flowed is None else flowed
    return "\n".join([_joined([line for line in lines[:cut] if line]), *lines[cut:]]).strip("\n")


def _broken(text: str, following: str) -> bool:
    """A word the engine left broken at a line end ("arX-" + "iv:2206.15227"): its hyphen goes."""
    return text.endswith("-") and text[-2:-1].isalpha() and following[:1].islower()


def _joint(text: str, following: str) -> str:
    """What goes between two lines of a paragraph: a space, or nothing after a hyphen kept
    ("Wolf-" + "Rayet") or inside a URL broken at a slash."""
    last = text[text.rfind(" ") + 1 :]
    return "" if (text.endswith("-") and text[-2:-1].isalpha()) or ("://" in last and last.endswith("/")) else " "


# --- captions -------------------------------------------------------------------------------


def _is_break(line: str) -> bool:
    return not line or isinstance(line, Marked)


def _captions(lines: list[str], references: tuple[int, int] | None, full: int) -> Iterator[_Mark]:
    seen: set[tuple[bool, str]] = set()
    index = claimed = 0  # claimed: lines before it are a block's (a caption, a table's rows below it)
    while index < len(lines):
        if references and references[0] <= index < references[1]:
            index = references[1]
            continue
        found = _caption_at(lines, index)
        if found is None:
            index += 1
            continue
        name, number, label, first, body_start = found
        key = (_is_table(name), number)
        end = _caption_end(lines, index, body_start, full)
        if _is_table(name):  # its first row the engine placed as cells apart ends it
            end = next((row for row in range(body_start, end) if placed_apart(pieces_of(lines[row]))), end)
        if key in seen or end <= index:
            index += 1
            continue
        seen.add(key)
        caption = " ".join([first, *lines[body_start:end]]).strip()
        if _is_table(name):
            rows_end, rows = _table_rows(lines, end)
            above = _rows_above(lines, index, claimed)
            # the caption under its table: the rows below it are fewer (text's), or the next caption's
            after = rows_end < len(lines) and opens_caption(lines, rows_end)
            under = bool(above) and (len(above) > len(rows) or after)
            table = Table(label, number, caption, above if under else rows, approximate=True)
            yield _Mark(index, rows_end, Kind.TABLE, table, end - index)
            claimed = end if under else rows_end
            index = rows_end
        else:
            yield _Mark(index, end, Kind.FIGURE, Figure(label, number, caption))
            index = claimed = end


def opens_caption(lines: list[str], index: int) -> bool:
    """Whether line `index` of `lines` opens a figure's or a table's caption."""
    return _caption_at(lines, index) is not None


def _caption_at(lines: list[str], index: int) -> tuple[str, str, str, str, int] | None:
    """(name, number, label, caption's first words, index of its next line) for a caption line."""
    line = lines[index]
    if not may_name_label(line):
        return None
    previous = next((lines[i] for i in range(index - 1, max(-1, index - 3), -1) if lines[i]), "")
    if previous.split()[-1:] and previous.split()[-1].lower() in _LEADS_IN:
        return None
    match = _CAPTION.match(line) or _glued_caption(line)
    if match is not None:
        return match["name"], match["number"], match["label"], match["caption"] or "", index + 1
    lone = _LONE_LABEL.fullmatch(line)
    if lone is not None and index + 1 < len(lines) and not _is_break(lines[index + 1]):
        return lone["name"], lone["number"], lone["label"], "", index + 1
    return None


def _glued_caption(line: str) -> re.Match[str] | None:
    """A caption the engine put after a figure's last words ("Tight Figure 4: ..."): a label
    with a colon after at most three words, which prose does not write."""
    match = _GLUED.search(line, 1)
    return match if match is not None and len(line[: match.start()].split()) <= 3 else None


def _caption_end(lines: list[str], first: int, start: int, full: int) -> int:
    """Where a caption ends: at a blank line or another caption, or after a line that ends a
    sentence short of a full line or before a line that reads as a table's or a figure's."""
    end = start
    if first < start and _ends_caption(lines[first], lines[start] if start < len(lines) else "", full):
        return end
    while end < len(lines) and not _is_break(lines[end]) and end - start < PARAMS.max_caption_lines:
        if _CAPTION.match(lines[end]):
            break
        end += 1
        if _ends_caption(lines[end - 1], lines[end] if end < len(lines) else "", full):
            break
    return end


def _ends_caption(line: str, following: str, full: int) -> bool:
    return ends_with_stop(line) and (len(line) < PARAMS.paragraph_end * full or looks_tabular(following))


def _table_rows(lines: list[str], start: int) -> tuple[int, tuple[tuple[str, ...], ...]]:
    """Where the table's lines after its caption end, and those lines as approximate rows."""
    index = start + 1 if start < len(lines) and not lines[start] else start
    texts: list[str] = []
    while index < len(lines) and len(texts) < PARAMS.max_table_rows and _is_row(lines[index]):
        texts.append(lines[index])
        index += 1
    rows = _rows(texts)
    return (index, rows) if rows else (start, ())


def _rows_above(lines: list[str], caption: int, claimed: int) -> tuple[tuple[str, ...], ...]:
    """The rows of a table over its caption (line `caption`): the lines right above it that read
    as rows, none before `claimed`; none unless two at least."""
    first = caption
    while first > claimed and caption - first < PARAMS.max_table_rows and _is_row(lines[first - 1]):
        first -= 1
    if caption - first < 2:
        return ()
    return _rows(lines[first:caption])


def _rows(texts: list[str]) -> tuple[tuple[str, ...], ...]:
    """A table's lines as approximate rows: in columns where the engine placed them
    (tables.placed_rows), else read from the text."""
    placed = placed_rows([pieces_of(text) for text in texts])
    return tuple(cells or text_cells(text) for text, cells in zip(texts, placed))


def _is_row(line: str) -> bool:
    if _is_break(line) or _CAPTION.match(line) or _glued_caption(line):
        return False
    return reads_as_row(line)


# --- equations ------------------------------------------------------------------------------


def _equations(lines: list[str], references: tuple[int, int] | None) -> Iterator[_Mark]:
    candidates: list[tuple[int, tuple[int, ...], str]] = []
    for index, line in enumerate(lines):
        if references and references[0] <= index < references[1]:
            continue
        match = _EQUATION.fullmatch(line) if line.endswith(")") else None  # the test first: a lazy pattern per line
        if match is None or _is_break(line) or _CAPTION.match(line):
            continue
        body = match["body"]
        if body and ((not _MATHS.search(body) and len(body) > 12) or len(_PROSE_WORD.findall(body)) > 4):
            continue
        key = tuple(int(part) for part in match["number"].split("."))
        candidates.append((index, key, match["number"] + match["sub"]))
    for index, _, number in _equation_chain(candidates):
        latex = _EQUATION.fullmatch(lines[index])["body"]  # type: ignore[index]
        if len(latex.strip(" ,.;")) < 3 and index:  # the number alone: the equation is the line above
            latex = f"{lines[index - 1]} {latex}"
        yield _Mark(index, index + 1, Kind.EQUATION, Equation(number, latex.strip()))


def _next_equation(previous: tuple[int, ...] | None, key: tuple[int, ...]) -> bool:
    if previous is None:
        return key[-1] == 1
    if previous == key:
        return True  # (3a), (3b): one number, two lines
    if len(key) != len(previous):
        return False
    return key[:-1] == previous[:-1] and key[-1] == previous[-1] + 1 or key[:-1] > previous[:-1] and key[-1] == 1


def _equation_chain(candidates: list[tuple[int, tuple[int, ...], str]]) -> list[tuple[int, tuple[int, ...], str]]:
    """The longest run of candidates, in order, each following the one before (_next_equation),
    of two at least; repeats of a number (not a sub-letter) are left out."""
    keys = [key for _, key, _ in candidates]
    seen: dict[tuple[int, ...], list[int]] = {}  # the indexes of the candidates of each number
    for index, key in enumerate(keys):
        seen.setdefault(key, []).append(index)

    def earlier(index: int) -> Iterable[int]:
        """The candidates before `index` in the window that its number may follow: those of its
        own number and of the number before it, but any for a section's first one ((3.1) after
        (2.7)). Testing each candidate against every one in the window cost a paper with a
        hundred numbered equations thousands of tests; a number has at most two to look up."""
        key, low = keys[index], max(0, index - PARAMS.equation_window)
        if len(key) > 1 and key[-1] == 1:
            return range(low, index)
        numbers = (key, (*key[:-1], key[-1] - 1))
        return sorted(i for number in numbers for i in seen.get(number, ()) if low <= i < index)

    chain = longest_chain(keys, _next_equation, earlier)
    kept: dict[str, tuple[int, tuple[int, ...], str]] = {}
    for index in chain if len(chain) >= 2 else ():
        kept.setdefault(candidates[index][2], candidates[index])
    return list(kept.values())


# --- footnotes ------------------------------------------------------------------------------


def _footnotes(lines: list[str], references: tuple[int, int] | None) -> Iterator[_Mark]:
    """The footnotes at each page's end (order moved there those a paragraph ran past): a run of
    lines to the page's end, each footnote opening with its mark (on a line of its own, as
    pdfium may give it) and a capitalised word or a URL, its mark printed raised earlier on the
    page ("model.7", "Smith∗", "Aider1")."""
    page = 0
    for index in [*(i for i, line in enumerate(lines) if isinstance(line, PageLine)), len(lines)]:
        if not (references and references[0] <= index and page < references[1]):
            yield from _page_footnotes(lines, page, index)
        page = index + 1


def _page_footnotes(lines: list[str], start: int, end: int) -> Iterator[_Mark]:
    starts: list[int] = []
    for index in range(end - 1, start, -1):
        line = lines[index]
        if (
            isinstance(line, Marked)
            or _CAPTION.match(line)
            or (starts or [end])[-1] - index > PARAMS.max_footnote_lines
        ):
            break
        following = lines[index + 1] if index + 1 < end else ""
        alone = FOOTNOTE_MARK.fullmatch(line) is not None and (following[:1].isupper() or following[:4] == "http")
        if FOOTNOTE_START.match(line) or _URL_NOTE.match(line) or alone:
            starts.append(index)
    body = "\n".join(lines[start : starts[-1]]) if starts else ""
    ends = [end, *starts]
    for first, last in zip(reversed(starts), reversed(ends[:-1])):
        mark = FOOTNOTE_MARK.match(lines[first])[0]  # type: ignore[index]
        if not re.search(rf"[^\W\d_][.,;:)\u2019\u201d]?{re.escape(mark)}(?![\d.,]?\d)", body):
            continue
        text = _joined([line for line in lines[first:last] if line])[len(mark) :].strip()
        if _AFFILIATION.match(text):
            continue
        while last > first and not lines[last - 1]:
            last -= 1
        yield _Mark(first, last, Kind.FOOTNOTE, Footnote(mark, text))


# a collaboration's list of institutes, each under the mark its authors carry, is no footnote
_AFFILIATION = re.compile(
    r"(?:[A-Z][\w.-]*,? ){0,5}(?:Universit|Institut|Department|Dipartimento|Laborator|College|School)"
)
_URL_NOTE = re.compile(f"(?:{FOOTNOTE_MARK.pattern}) ?https?://")


# --- references -----------------------------------------------------------------------------


def _reference_range(lines: list[str]) -> tuple[int, int] | None:
    """Lines [start, end) of the references section, without its heading."""
    start = None
    for index, line in enumerate(lines):
        if not isinstance(line, HeadingLine):
            continue
        if _REFERENCES_TITLE.fullmatch(line.name):
            start = index + 1
        elif start is not None:
            return start, index
    if start is not None:
        return start, len(lines)
    return _unheaded_references(lines)


def _before_captions(lines: list[str], span: tuple[int, int] | None) -> tuple[int, int] | None:
    """The references up to the first caption after them (`Figure 3: ...`, a label, its number
    and a colon or a bar, which no entry opens with): an appendix without a heading found
    (the Transformer paper's attention figures) follows them, not part of the last entry."""
    if span is None:
        return None
    start, end = span
    for index in range(start, end):
        line = lines[index]
        opened = _CAPTION.match(line) if may_name_label(line) else None
        if opened is not None and _STRONG_SEPARATOR.match(line, opened.end("label")):
            return (start, index) if index > start else None
    return span


def _unheaded_references(lines: list[str]) -> tuple[int, int] | None:
    """Where no heading opens them (REVTeX): the last run, in the second half, of entries
    numbered from 1 (`[1]`, `1.` or `1`), at least two bracketed or five plain ones."""
    for index in range(len(lines) - 1, len(lines) // 2 - 1, -1):
        first = _BRACKET_ENTRY.match(lines[index]) or _NUMBER_ENTRY.match(lines[index])
        if first is None or first["label"] != "1":
            continue
        end = next((i for i in range(index, len(lines)) if isinstance(lines[i], HeadingLine)), len(lines))
        body = [(i, lines[i]) for i in range(index, end)]
        bracketed = lines[index].startswith("[")
        found = [start for start in _entry_starts(body) if start[1] is not None]
        if len(found) >= (2 if bracketed else 5):
            return index, end
    return None


def _entries(lines: list[str], span: tuple[int, int]) -> Iterator[_Mark]:
    start, end = span
    body = [(index, lines[index]) for index in range(start, end)]
    starts = _entry_starts(body)
    for number, (first, label) in enumerate(starts):
        last = starts[number + 1][0] if number + 1 < len(starts) else end
        parts = [line for line in lines[first:last] if line and not isinstance(line, Marked)]
        block_end = next((i for i in range(first, last) if isinstance(lines[i], Marked)), last)
        while block_end > first and not lines[block_end - 1]:
            block_end -= 1
        text = _joined(parts)
        if label is None:
            label = _author_year(text) or str(number + 1)
        else:
            text = text[text.index(label) + len(label) :].lstrip("]. ").strip()
        yield _Mark(first, block_end, Kind.REFERENCE, Reference(label, text, None, arxiv_id_in(text), doi_in(text)))


# the word boundary before the year tested after its first two digits: a scan then jumps
# from a 1 or a 2 to the next instead of trying the boundary at every character
_YEAR = re.compile(r"(?:1[89]|20)(?<![\w–-]\d\d)\d\d[a-z]?\b(?![.:/–-]\d)")
"""A year; not the head of an arXiv id or a number (`1803.05457`, `2020:113`), nor an end of a
page range (`1876–1902`)."""
_INITIAL = re.compile(r"(?:[A-Z]\.-?){1,3}")


def _author_year(text: str) -> str | None:
    """`Smith 2020` for an author-year entry: its first author's surname and its year."""
    year = _YEAR.search(text)
    # the first author ends at a comma, an "and", or a full stop that ends no initial ("J. Austin")
    words = re.split(r",| and |(?<![A-Z])\. (?=[A-Z][a-z])", text, maxsplit=1)[0].split()
    if not year or not words:
        return None
    # "Smith J." and "Smith": the surname first; "J. Smith", "A. N. Carr", "John D Smith": last
    if _INITIAL.fullmatch(words[0]):  # "J. Smith", "A. N. Carr"
        surname = words[-1]
    else:
        surname = words[0] if len(words) == 1 or _INITIAL.fullmatch(words[1]) else words[-1]
    return f"{surname.strip('.')} {year[0]}"


def _joined(parts: list[str]) -> str:
    text = ""
    for part in parts:
        text = part if not text else text + _joint(text, part) + part if not _broken(text, part) else text[:-1] + part
    return text


def _entry_starts(body: list[tuple[int, str]]) -> list[tuple[int, str | None]]:
    """(line index, label) of each entry; label None for author-year entries."""
    bracketed = [(i, m["label"]) for i, line in body if (m := _BRACKET_ENTRY.match(line))]
    if len(bracketed) >= 2:
        return bracketed
    numbered = _numbered_starts(body)
    if len(numbered) >= 2:
        return numbered
    return _author_year_starts(body)


def _numbered_starts(body: list[tuple[int, str]]) -> list[tuple[int, str | None]]:
    starts: list[tuple[int, str | None]] = []
    expected = 1
    for index, line in body:
        match = _NUMBER_ENTRY.match(line)
        if match and int(match["label"]) == expected:
            starts.append((index, match["label"]))
            expected += 1
    return starts


def _author_year_starts(body: list[tuple[int, str]]) -> list[tuple[int, str | None]]:
    starts: list[tuple[int, str | None]] = []
    after_break = True
    previous = ""
    for index, line in body:
        if _is_break(line):
            after_break = after_break or not line
            continue
        if after_break or (_ENTRY_END.search(previous) and _AUTHOR_START.match(line)):
            starts.append((index, None))
        after_break = False
        previous = line
    return starts
