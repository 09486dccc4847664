"""The document being converted: its front matter record (`Meta`) and the final rendering.

Front matter is gathered out of order (a title in the preamble, authors and affiliations in any
of a dozen class conventions, an abstract environment or paragraph); `render` puts it first, in
the shared text shape: `# title`, the author line, the affiliations, the title-page notes
(` [^text]`, as body footnotes are written), `## Abstract`, then the body.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..shape import escape_body
from .references import Labels
from .sinks import Block

_ABSTRACT_HEADING_RE = re.compile(r"(?i)\A\s*abstract\s*([.:\u2014\u2013-])?\s*")


@dataclass
class Meta:
    title: str = ""
    authors: list[str] = field(default_factory=list)
    abstract: list[Block] = field(default_factory=list)
    labels: Labels = field(default_factory=Labels)
    affiliations: list[str] = field(default_factory=list)
    document_class: str = ""
    float_names: dict[str, str] = field(default_factory=dict)  # "Figure" -> "Fig." (`source.float_names`)
    doi_prefix: str = "doi:"  # what \\doi{X} prints before X (`references.doi_prefix`)
    notes: list[str] = field(default_factory=list)  # title-page footnotes (\\thanks, \\fntext)
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


def render(meta: Meta, front: list[Block], body: list[Block]) -> str:
    blocks: list[Block] = []
    if meta.title:
        blocks.append(("h", "# " + " ".join(meta.title.split())))
    if meta.authors:
        blocks.append(("p", meta.author_line()))
    if meta.affiliations:
        blocks.append(("p", "; ".join(meta.affiliations)))
    if meta.notes:
        blocks.append(("p", " ".join(f"[^{note}]" for note in meta.notes)))
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
