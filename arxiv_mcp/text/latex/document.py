"""The document being converted: its front matter record (`Meta`) and the final rendering.

Front matter is gathered out of order (a title in the preamble, authors and affiliations in any
of a dozen class conventions, an abstract environment or paragraph); `render` puts it first, in
the shared text shape: `# title`, the author line, the affiliations, the title-page notes
(` [^text]`, as body footnotes are written), `## Abstract`, then the body.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..document import Algorithm, Document, DocumentBuilder, Kind
from ..shape import escape_body
from . import pace
from .drafts import Draft, finish
from .graphics import Graphics
from .numbering import Shape
from .references import Labels
from .sinks import Block, spaced

_OWN_MARK_RE = re.compile(r"\$(?:\{\})?\^")
_CONTENT_RE = re.compile(r"[^\W_]")  # a letter or digit: a front block of punctuation alone prints nothing
_ABSTRACT_HEADING_RE = re.compile(r"(?i)\A\s*abstract\s*([.:\u2014\u2013-])?\s*")


@dataclass
class Meta:
    """What the document's two walks (its preamble's, then its body's) learn of it as a whole,
    and what the settings read before them decide: the front matter `render` puts first, the
    labels the placeholders resolve to, and how the paper numbers and names what it numbers."""

    # the front matter
    title: str = ""
    authors: list[str] = field(default_factory=list)
    abstract: list[Block] = field(default_factory=list)
    affiliations: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # title-page footnotes (\\thanks, \\fntext)
    author_marks: dict[int, list[str]] = field(default_factory=dict)
    group: list[int] = field(default_factory=list)  # authors the next unlabelled affiliation is of
    affiliation_numbers: dict[str, str] = field(default_factory=dict)
    after_affiliation: bool = False
    # what \\ref and \\cite print, and where \\includegraphics and \\doi point
    labels: Labels = field(default_factory=Labels)
    files: Graphics = field(default_factory=lambda: Graphics([], "", []))
    doi_prefix: str = "doi:"  # what \\doi{X} prints before X (`references.doi_prefix`)
    # how the paper numbers (`numbering.Numbers` keeps the counts of each walk)
    document_class: str = ""
    numbering: str = ""  # "revtex" (IV.A), "ieee" (IV-A) or "" (4.1): `convert._numbering`
    within: dict[str, str] = field(default_factory=dict)  # counter -> the unit it is numbered within
    shapes: dict[str, Shape] = field(default_factory=dict)  # counter -> how it prints (`numbering.Shape`)
    counters: set[str] = field(default_factory=set)  # the paper's own (\\newcounter: `counters`)
    # what its captions print before their number
    float_names: dict[str, str] = field(default_factory=dict)  # "Figure" -> "Fig." (`source.float_names`)
    new_floats: dict[str, str] = field(default_factory=dict)  # \\newfloat's environment -> its printed name
    caption_formats: dict[str, str] = field(default_factory=dict)  # \\DeclareCaptionLabelFormat's, by name
    label_formats: dict[str, str] = field(default_factory=dict)  # float kind ("" for all) -> format name
    caption_type: str = ""  # \\captionsetup{type=table}: the kind the next \\caption is
    toggles: dict[str, bool] = field(default_factory=dict)  # etoolbox's, as set so far (`engine.cmd_toggle`)
    units: dict[str, str] = field(default_factory=dict)  # the paper's \\DeclareSIUnit, by name
    wrappers: dict[str, str] = field(default_factory=dict)  # an own environment -> the one it opens

    def add_author(self, name: str, marks: str) -> None:
        if self.after_affiliation:
            self.group = []
            self.after_affiliation = False
        self.group.append(len(self.authors))
        if marks:
            self.author_marks[len(self.authors)] = [marks]
        self.authors.append(name)

    def add_affiliation(self, text: str, label: str) -> None:
        """Each affiliation once, as `$^{n}$text`; the authors carry the marks (never glued). One
        that starts with its own mark (`$^1$ Lab A \\\\ $^2$ Lab B`) is printed as the authors wrote it."""
        if _OWN_MARK_RE.match(text):
            self.affiliations.append(text)
            return
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


def _split_front(front: list[Block]) -> tuple[list[Block], list[Block]]:
    """Without an abstract environment, find an 'Abstract' paragraph in the front matter."""
    for k, block in enumerate(front):
        if block.kind != "p":
            continue
        m = _ABSTRACT_HEADING_RE.match(block.text)
        if not m:
            continue
        rest = block.text[m.end() :].strip()
        if not rest and k + 1 < len(front):
            return front[:k], front[k + 1 :]
        if rest and m.group(1):
            return front[:k], [Block("p", rest)] + front[k + 1 :]
    return front, []


def render(meta: Meta, front: list[Block], body: list[Block]) -> Document:
    """The Document: front matter first, then the body, each block written through the builder
    as the shared text shape has it (one blank line between blocks, list items on their own
    lines), placeholders resolved, citations marked with their keys. Linear in the blocks: each
    is written once, its placeholders resolved by constant-time lookups (`references.Labels`)."""
    blocks: list[Block] = []
    if meta.title:
        blocks.append(Block("h", "# " + " ".join(meta.title.split())))
    if meta.authors:
        blocks.append(Block("p", meta.author_line()))
    if meta.affiliations:
        blocks.append(Block("p", "; ".join(meta.affiliations)))
    if meta.notes:
        blocks.append(Block("p", " ".join(f"[^{note}]" for note in meta.notes)))
    abstract = list(meta.abstract)
    # separators written between front-matter commands (`\\author{A},\\author{B}`): the author
    # line has its own
    front = [block for block in front if _CONTENT_RE.search(block.text)]
    if not abstract:
        front, abstract = _split_front(front)
    blocks.extend(front)
    if abstract:
        blocks.append(Block("h", "## Abstract"))
        blocks.extend(abstract)
    blocks.extend(body)
    return _Writer(meta.labels).write(_entries_joined(blocks))


def _entries_joined(blocks: list[Block]) -> list[Block]:
    """Neighbouring blocks of one bibliography entry as one block: a merged part a blank line
    parted from its entry (`crossrefs.cmd_bibitem`). Linear: each text is joined once."""
    out: list[Block] = []
    run: list[str] = []
    for k, block in enumerate(blocks):
        pace.tick(k)
        entry = isinstance(block.record, Draft) and block.record.kind is Kind.REFERENCE
        if run and entry and block.record is out[-1].record:
            run.append(block.text)
            continue
        if len(run) > 1:
            out[-1] = out[-1]._replace(text="".join(run))
        out.append(block)
        run = [block.text]
    if len(run) > 1:
        out[-1] = out[-1]._replace(text="".join(run))
    return out


class _Writer:
    def __init__(self, labels: Labels):
        self.labels = labels
        self.builder = DocumentBuilder()

    def write(self, blocks: list[Block]) -> Document:
        for k, (before, block) in enumerate(spaced(blocks)):
            pace.tick(k)
            if before == "\n":
                self.builder.add_text(before)
            else:
                self.builder.separate()
            self.one(block)
        if self.builder.length:
            self.builder.separate()
        document = self.builder.build()
        text = document.text.rstrip("\n") + "\n" if document.text else ""
        return Document(text, document.blocks, document.citations, document.notes)

    def one(self, block: Block) -> None:
        if block.kind == "h":
            hashes, _, title = block.text.partition(" ")
            number = block.record if isinstance(block.record, str) else None
            self.builder.heading(len(hashes), self.labels.resolve(title), number)
            return
        record = block.record
        if not isinstance(record, (Algorithm, Draft)):
            for printed, targets in self.labels.pieces(escape_body(block.text)):
                if targets is None:
                    self.builder.add_text(printed)
                else:
                    self.builder.cite(printed, targets)
            return
        pieces = list(self.labels.pieces(escape_body(block.text)))
        text = "".join(printed for printed, _ in pieces)
        cites = [(printed, targets) for printed, targets in pieces if targets is not None]
        if isinstance(record, Algorithm):  # made whole by `algorithms`
            self.builder.block(Kind.ALGORITHM, text, record, cites)
        else:
            text = self.labels.with_year(record.key, text) if record.kind is Kind.REFERENCE else text
            self.builder.block(
                record.kind, text, finish(record, self.labels.resolve, self.labels.entry_label, text), cites
            )
