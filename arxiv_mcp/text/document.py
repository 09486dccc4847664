"""A paper version as readers point at it: its text, and typed blocks laid over that text.

Every extractor (HTML, LaTeX, PDF) returns a `Document`; the cache keeps it per version and
every view reads it. Invariants:
- `text` is the shared text shape (`shape.py`): headings as `#` lines, `## Page N` markers
  from paged sources, no body line starting with `#`. Pages, the outline and find work on it
  unchanged, so page numbers and offsets mean the same in every view.
- `blocks` lie over `text` in document order without overlapping: a block is `text[start:end]`
  with its kind and, for the kinds that carry one, its record (the heading's printed number,
  a figure's caption, a table's rows, an equation's LaTeX, a bibliography entry's ids). Text
  between marked blocks is paragraphs (split at blank lines) or page markers.
- `citations` lie inside blocks: each is the citation as the paper prints it (`[12]`,
  `(Smith et al., 2020)`) and the labels or keys of the entries it names.
- Numbers are strings as printed (`4.2`, `IV.A`, `B`, `3b`, `A.1`), never positions.
A `DocumentBuilder` is the sink an extractor writes to: it tracks offsets itself, so no
extractor computes a span. `Document.from_text` reads a legacy text (headings only).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from dataclasses import fields as dataclass_fields
from enum import StrEnum
from typing import Any, TypeVar

from .shape import HEADING_RE, heading, is_page_title

R = TypeVar("R")

FORMAT = 1
"""Version of the JSON form; a cached document of another format is re-made from its raw file."""


class Kind(StrEnum):
    HEADING = "heading"
    PARAGRAPH = "paragraph"
    LIST = "list"
    FIGURE = "figure"
    TABLE = "table"
    EQUATION = "equation"
    REFERENCE = "reference"
    PAGE = "page"
    STATEMENT = "statement"
    ALGORITHM = "algorithm"
    FOOTNOTE = "footnote"


@dataclass(frozen=True)
class Heading:
    level: int
    title: str
    """As printed, the number included (`4.2 Training`)."""
    number: str | None = None
    """The printed number alone (`4.2`, `IV.A`, `B` for an appendix), None when unnumbered."""


@dataclass(frozen=True)
class Subfigure:
    letter: str
    """`b` for `(b)`."""
    caption: str
    images: tuple[str, ...] = ()


@dataclass(frozen=True)
class Figure:
    label: str
    """As printed: `Figure 3`, `Fig. 3`, `FIG. 3`."""
    number: str
    caption: str
    """The caption without its label."""
    subfigures: tuple[Subfigure, ...] = ()
    images: tuple[str, ...] = ()
    """Where the images are: a member path of the e-print, or a URL (absolute, or relative to
    the HTML page it came from). Data, never a path on this machine."""
    anchor: str | None = None
    """The source's own name for it (`\\label` key, HTML id), so references to it resolve."""


@dataclass(frozen=True)
class Table:
    label: str
    """As printed: `Table 2`, `TABLE II`."""
    number: str
    caption: str
    rows: tuple[tuple[str, ...], ...] = ()
    """Cells as printed, a spanned cell repeated over the cells it covers; math as `$...$`."""
    header_rows: int = 0
    approximate: bool = False
    """Rows recovered from a layout (a PDF), not from markup."""
    anchor: str | None = None


@dataclass(frozen=True)
class Equation:
    number: str
    """As printed, without parentheses: `7`, `2.3`, `A.1`."""
    latex: str
    anchor: str | None = None


@dataclass(frozen=True)
class Reference:
    label: str
    """How the paper numbers or names the entry: `12`, `Smith et al., 2020`."""
    text: str
    """The entry as one readable line."""
    key: str | None = None
    """The cite key or HTML id the citations use."""
    arxiv_id: str | None = None
    doi: str | None = None


@dataclass(frozen=True)
class Statement:
    """A theorem-like block (theorem, lemma, definition, remark, ...) or a proof, as the paper
    names and numbers it; its text is the block's span of the document."""

    kind: str
    """What it is, in one word (`theorem` for a printed `Thm.`): the kinds of `heads.WORDS`."""
    label: str
    """As printed: `Theorem`, `Lemma`, `Main Theorem`, `Proof`."""
    number: str | None = None
    """As printed (`2.3`, `A.1`, `5`), None when unnumbered (`Proof`, `Remark`)."""
    note: str | None = None
    """The words printed in parentheses after the number: `Main`, `Cauchy-Schwarz`."""
    proves: str | None = None
    """For a proof: the label and number of the statement it proves (`Theorem 2.3`), when the
    paper says or it directly follows one."""


@dataclass(frozen=True)
class Algorithm:
    """An algorithm or a code listing float: its caption and its body as code."""

    label: str
    """As printed: `Algorithm`, `Listing`, `Procedure`."""
    number: str | None
    caption: str
    code: str
    """The body, one line per printed line, as a code block shows it."""
    anchor: str | None = None


@dataclass(frozen=True)
class Footnote:
    """A footnote; its block stands right after the paragraph (or block) that carries its mark."""

    mark: str
    """As printed: `3`, `*`, `†`."""
    text: str


Record = Heading | Figure | Table | Equation | Reference | Statement | Algorithm | Footnote
_RECORD_KINDS: dict[type, Kind] = {
    Heading: Kind.HEADING,
    Figure: Kind.FIGURE,
    Table: Kind.TABLE,
    Equation: Kind.EQUATION,
    Reference: Kind.REFERENCE,
    Statement: Kind.STATEMENT,
    Algorithm: Kind.ALGORITHM,
    Footnote: Kind.FOOTNOTE,
}


@dataclass(frozen=True)
class Block:
    kind: Kind
    start: int
    end: int
    record: Record | None = None


@dataclass(frozen=True)
class Citation:
    start: int
    end: int
    """`text[start:end]` is the citation as printed."""
    targets: tuple[str, ...]
    """Labels or keys of the entries it names, in order."""


@dataclass(frozen=True)
class Anchor:
    """A link whose target the text does not show: `\\href{url}{words}`, `<a href=url>words</a>`."""

    url: str
    text: str
    """The words the link stands on, as the source writes them."""


DAMAGED = "damaged"
STAMP = "stamp"
"""The notes' key of arXiv's side stamp (the PDF reader writes it)."""


@dataclass(frozen=True)
class Document:
    text: str
    blocks: tuple[Block, ...] = ()
    citations: tuple[Citation, ...] = ()
    notes: dict[str, str] = field(default_factory=dict)
    """Facts the source states outside the text, e.g. `stamp`: arXiv's side stamp of a PDF,
    or DAMAGED: one line saying the PDF was damaged and how much of it was read."""
    anchors: tuple[Anchor, ...] = ()
    """Link targets hidden behind words, in source order (text/links.py lists them)."""

    @classmethod
    def from_text(cls, text: str) -> Document:
        """A document of a text in the shared shape whose only structure is its headings."""
        builder = DocumentBuilder()
        builder.add_text(text)
        return builder.build()

    def records(self, kind: type[R]) -> list[R]:
        """Every record of one type, in document order."""
        return [record for block in self.blocks if isinstance(record := block.record, kind)]

    def blocks_of(self, kind: Kind) -> list[Block]:
        return [block for block in self.blocks if block.kind is kind]

    def to_json(self) -> str:
        return json.dumps(
            {
                "format": FORMAT,
                "text": self.text,
                "blocks": [_block_json(block) for block in self.blocks],
                "citations": [[c.start, c.end, list(c.targets)] for c in self.citations],
                "anchors": [[a.url, a.text] for a in self.anchors],
                "notes": self.notes,
            },
            ensure_ascii=False,
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, data: str) -> Document:
        """The document `to_json` wrote; ValueError for any other payload (re-make it then)."""
        try:
            raw = json.loads(data)
        except json.JSONDecodeError as exc:
            raise ValueError(f"not a cached document: {exc}") from exc
        return cls.from_parsed(raw)

    @classmethod
    def from_parsed(cls, raw: Any) -> Document:
        """`from_json` of a payload already parsed (a reader that looked at its text first)."""
        try:
            if raw.get("format") != FORMAT:
                raise ValueError(f"document format {raw.get('format')!r}")
            return cls(
                text=raw["text"],
                blocks=tuple(_block_from_json(item) for item in raw["blocks"]),
                citations=tuple(Citation(s, e, tuple(t)) for s, e, t in raw["citations"]),
                notes=dict(raw["notes"]),
                anchors=tuple(Anchor(str(u), str(t)) for u, t in raw.get("anchors", ())),
            )
        except (KeyError, TypeError, AttributeError, IndexError) as exc:
            raise ValueError(f"not a cached document: {exc}") from exc


def _block_json(block: Block) -> list[Any]:
    item: list[Any] = [block.kind.value, block.start, block.end]
    if block.record is not None:
        item.append(asdict(block.record))
    return item


_KINDS = {kind.value: kind for kind in Kind}
_FIELDS = {record_type: frozenset(f.name for f in dataclass_fields(record_type)) for record_type in _RECORD_KINDS}


def _block_from_json(item: list[Any]) -> Block:
    kind = _KINDS[item[0]]
    record = record_from_json(kind, item[3]) if len(item) > 3 else None
    return _restored(Block, {"kind": kind, "start": item[1], "end": item[2], "record": record})


def record_from_json(kind: Kind, fields: dict[str, Any]) -> Record:
    """The record of a block of `kind` as `to_json` wrote it (a reader of the JSON that
    builds only the records it needs); KeyError or TypeError for any other form."""
    if kind is Kind.FIGURE:
        subfigures = tuple(
            _restored(Subfigure, {**s, "images": tuple(s["images"])}, {"letter", "caption", "images"})
            for s in fields["subfigures"]
        )
        fields = {**fields, "subfigures": subfigures, "images": tuple(fields["images"])}
    elif kind is Kind.TABLE:
        fields = {**fields, "rows": tuple(tuple(row) for row in fields["rows"])}
    record_type = _RECORD_TYPES[kind]
    return _restored(record_type, fields, _FIELDS[record_type])


_RECORD_TYPES = {kind: record_type for record_type, kind in _RECORD_KINDS.items()}


def _restored(cls: type[R], fields: dict[str, Any], names: frozenset[str] | set[str] | None = None) -> R:
    """An instance of a frozen dataclass with exactly `fields`, as `to_json` wrote them.

    Not through `__init__`: a frozen dataclass sets each field through `object.__setattr__`,
    and for a paper's few hundred blocks that cost more than parsing its whole JSON, while the
    first structural read of a cached paper must stay within 2x of a page read. The records
    have no `__post_init__` to skip; the field names are checked instead."""
    if names is not None and fields.keys() != names:
        raise KeyError(f"{cls.__name__} fields {sorted(fields)}")
    instance = object.__new__(cls)
    instance.__dict__.update(fields)
    return instance


_NUMBER_RE = re.compile(
    r"(?P<appendix>(?:Appendix|APPENDIX)\s+)?"
    r"(?P<number>(?:\d+|[IVXLC]+|[A-Z])(?:\.(?:\d+|[A-Z]))*(?:(?<=[IVXLC])-[A-Z](?:\d+)?)?)(?P<stop>[.:])?(?=\s+\S|$)"
)


def printed_number(title: str) -> str | None:
    """The number a heading title starts with (`4.2 Training` -> `4.2`, `IV.A Setup` -> `IV.A`,
    IEEE's `III-A Setup` -> `III-A`, `Appendix B Proofs` -> `B`), or None. A lone capital is a
    number only after `Appendix` or before a stop (`A. Proofs`): `A Case Study` is a title, not
    appendix A."""
    match = _NUMBER_RE.match(title.strip())
    if not match:
        return None
    number = match.group("number")
    if len(number) == 1 and number.isalpha() and not (match.group("appendix") or match.group("stop")):
        return None
    return number


class DocumentBuilder:
    """The sink an extractor writes to, in document order; offsets are tracked here.

    `add_text` appends text in the shared shape (headings found in it become heading blocks,
    the rest paragraphs); `heading`, `block` and `cite` append marked pieces. Blank lines
    between pieces are the caller's: `separate()` ends the current paragraph.
    """

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._length = 0
        self._marked: list[Block] = []
        self._citations: list[Citation] = []
        self._separator: tuple[int, int] | None = None  # (start, end) of the last separator written
        self.notes: dict[str, str] = {}

    @property
    def length(self) -> int:
        return self._length

    def add_text(self, text: str) -> None:
        self._append(text)

    def separate(self) -> None:
        """End the current line and paragraph: at most one blank line between pieces."""
        tail = "".join(self._parts[-2:])[-2:] if self._parts else "\n\n"
        if self._length == 0 or tail == "\n\n":
            return
        start = self._append("\n" if tail.endswith("\n") else "\n\n")
        self._separator = (start, self._length)

    def heading(self, level: int, title: str, number: str | None = None) -> None:
        """A heading line; `number` defaults to the number the title starts with."""
        self.separate()
        line = heading(level, title)
        title = line.lstrip("#").strip()
        start = self._append(line)
        record = Heading(level, title, number if number is not None else printed_number(title))
        self._marked.append(Block(Kind.HEADING, start, self._length, record))
        self.separate()

    def block(
        self,
        kind: Kind,
        rendered: str,
        record: Record | None = None,
        cites: Iterable[tuple[str, Iterable[str]]] = (),
    ) -> None:
        """A whole block (figure, table, equation, reference entry, list) rendered as `rendered`.

        `cites` are the citations printed in it (a caption's `[12]`), in order: each is placed
        where its printed text next stands in `rendered`; one that is not there is left out."""
        if record is not None and _RECORD_KINDS[type(record)] is not kind:
            raise ValueError(f"a {type(record).__name__} record in a {kind} block")
        self.separate()
        start = self._append(rendered)
        position = 0
        for printed, targets in cites:
            found = rendered.find(printed, position) if printed else -1
            if found >= 0:
                position = found + len(printed)
                self._citations.append(Citation(start + found, start + position, tuple(targets)))
        self._marked.append(Block(kind, start, self._length, record))
        self.separate()

    def inline(self, kind: Kind, rendered: str, record: Record | None = None) -> None:
        """A block written inside the paragraph or list being written (a numbered equation in
        a list item): marked like `block`, without ending the text around it."""
        if record is not None and _RECORD_KINDS[type(record)] is not kind:
            raise ValueError(f"a {type(record).__name__} record in a {kind} block")
        start = self._append(rendered)
        self._marked.append(Block(kind, start, self._length, record))

    def cite(self, printed: str, targets: Iterable[str]) -> None:
        """A citation as printed, inside the paragraph being written."""
        start = self._append(printed)
        self._citations.append(Citation(start, self._length, tuple(targets)))

    def build(self) -> Document:
        text = "".join(self._parts)
        if self._separator is not None and self._separator[1] == len(text):
            text = text[: self._separator[0]]  # a separator after the last piece separates nothing
        marked = sorted(self._marked, key=lambda block: block.start)
        blocks = list(_fill(text, marked))
        return Document(text=text, blocks=tuple(blocks), citations=tuple(self._citations), notes=dict(self.notes))

    def _append(self, piece: str) -> int:
        start = self._length
        if piece:
            self._parts.append(piece)
            self._length += len(piece)
        return start


_PARAGRAPH_BREAK_RE = re.compile(r"\n[ \t\r]*\n\s*")


def _fill(text: str, marked: list[Block]) -> Iterator[Block]:
    """The marked blocks, with the text between them read as headings, page markers and paragraphs."""
    position = 0
    for block in marked:
        if block.start < position:
            continue  # overlapping marks: the earlier one wins
        yield from _unmarked(text, position, block.start)
        yield block
        position = block.end
    yield from _unmarked(text, position, len(text))


def _unmarked(text: str, start: int, end: int) -> Iterator[Block]:
    for piece_start, piece_end in _pieces(text, start, end):
        yield from _paragraphs_and_headings(text, piece_start, piece_end)


def _pieces(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """Spans of `text[start:end]` between blank lines, their outer whitespace trimmed."""
    position = start
    for match in _PARAGRAPH_BREAK_RE.finditer(text, start, end):
        yield from _trimmed(text, position, match.start())
        position = match.end()
    yield from _trimmed(text, position, end)


def _trimmed(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start < end:
        yield start, end


def _paragraphs_and_headings(text: str, start: int, end: int) -> Iterator[Block]:
    """A piece with no blank line in it may still hold heading lines (a heading directly
    above its first paragraph): those are headings, the lines between them a paragraph."""
    position = start
    for line_start in _hash_line_starts(text, start, end):
        line_end = text.find("\n", line_start, end)
        line_end = end if line_end < 0 else line_end
        match = HEADING_RE.fullmatch(text[line_start:line_end].rstrip())
        if not match:
            continue
        yield from _paragraph(text, position, line_start)
        title = match.group(2)
        if is_page_title(title):
            yield Block(Kind.PAGE, line_start, line_end)
        else:
            yield Block(Kind.HEADING, line_start, line_end, Heading(len(match.group(1)), title, printed_number(title)))
        position = line_end
    yield from _paragraph(text, position, end)


def _hash_line_starts(text: str, start: int, end: int) -> Iterator[int]:
    """Where the lines of `text[start:end]` that start with `#` start: only those may be
    headings, and looking for them costs far less than matching every line of a paper."""
    if text.startswith("#", start, end):
        yield start
    found = text.find("\n#", start, end)
    while found >= 0:
        yield found + 1
        found = text.find("\n#", found + 1, end)


def _paragraph(text: str, start: int, end: int) -> Iterator[Block]:
    for piece_start, piece_end in _trimmed(text, start, end):
        yield Block(Kind.PARAGRAPH, piece_start, piece_end)
