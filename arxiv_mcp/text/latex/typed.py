"""Captions the authors typed by hand instead of `\\caption`: `{\\bf Figure 1.} A plot.` in a
figure, `Table 2: ...` under a tabular, plain TeX's `\\topinsert ... Fig. 3. ... \\endinsert`,
`Algorithm 2. Search.` in an algorithm float. LaTeX numbers nothing there; the number is the
one typed, read only at the start of a float's text (or of a paragraph of an algorithm's), so
prose that mentions a figure is never taken for a caption. A label is read with the names and
numbers of the one caption grammar a PDF's captions are read with (`text/labels`), an
algorithm's names added."""

from __future__ import annotations

import re
from typing import NamedTuple

from .. import labels
from .sinks import Discard

MAX_TYPED = 4000  # characters of a figure's body kept to look for a typed caption
_ALGORITHM_PRINTED = "Algorithm|Listing|Procedure|Function"
_TYPED_RE = re.compile(
    rf"\A\s*(?P<name>(?P<figure>{labels.FIGURE_PRINTED})|(?P<table>{labels.TABLE_PRINTED})|{_ALGORITHM_PRINTED})"
    rf"\s?(?P<number>{labels.PRINTED_NUMBER})\s*[.:|]\s*(?P<caption>.*)",
    re.S,
)


class TypedText(Discard):
    """A figure's body: drawing, not text (nothing of it is printed), but its first characters
    are kept to find a typed caption."""

    def __init__(self) -> None:
        super().__init__()
        self.typed: list[str] = []
        self.size = 0

    def write(self, text: str) -> None:
        if self.size < MAX_TYPED:
            self.typed.append(text)
            self.size += len(text)

    def newline(self) -> None:
        self.write(" ")

    def text(self) -> str:
        return " ".join("".join(self.typed).split())


class Typed(NamedTuple):
    kind: str  # figure, table or algorithm
    name: str  # as typed: `Fig.`
    label: str  # as typed: `Fig. 3`
    number: str
    caption: str


def typed_caption(text: str, algorithm: bool = False) -> Typed | None:
    """The caption typed at the start of `text`, if any: a figure's or a table's, or with
    `algorithm` an algorithm's (which may be its label alone)."""
    found = _TYPED_RE.match(text)
    if found is None:
        return None
    kind = "figure" if found.group("figure") else "table" if found.group("table") else "algorithm"
    if (kind == "algorithm") != algorithm or not (found.group("caption") or algorithm):
        return None
    name, number = found.group("name"), found.group("number")
    return Typed(kind, name, f"{name} {number}", number, " ".join(found.group("caption").split()))
