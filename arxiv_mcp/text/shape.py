"""The shared text shape every extractor writes and every view reads.

The only structure in extracted text is its heading lines: `#` to `######`, one space, the
title. `# Title` opens the paper; sections are `##` and deeper, with their number in the
title when the paper numbers them (`## 2 Related Work`). Paged sources (PDF) also mark
each page with `## Page N`; those markers are for paging, never part of the outline. A
body line never starts with `#` (ignoring leading blanks): the extractors escape it as `\\#`,
so a `#` in the paper can never be mistaken for a heading. Where a text writes math as TeX
between dollars (LaTeX and HTML sources), a literal dollar is written `\\$`, so a price is
never mistaken for a formula.
"""

from __future__ import annotations

import re

MAX_LEVEL = 6

HEADING_RE = re.compile(r"(#{1,6})[ \t]+(\S[^\n]*?)[ \t\r]*(?=\n|\Z)")
"""A heading line at a line start: group 1 is the hashes, group 2 the title."""

_PAGE_TITLE_RE = re.compile(r"Page \d+")

MATH_RE = re.compile(r"(?<!\\)(?:\$\$(?:[^$\\]|\\.)+?\$\$|\$(?:[^$\\]|\\.)+?\$)", re.DOTALL)
"""TeX math between dollars, `$$display$$` or `$inline$`, as the shape and arXiv's titles write
it: an escaped `\\$` is a literal dollar, never a delimiter."""


def heading(level: int, title: str) -> str:
    """The heading line for `title` at `level` (1-6), its whitespace collapsed."""
    return "#" * max(1, min(MAX_LEVEL, level)) + " " + " ".join(title.split())


def page_heading(number: int) -> str:
    """The marker that opens page `number` (from 1) of a paged source."""
    return f"## Page {number}"


PAGE_MARKER_RE = re.compile(r"(?m)^## Page \d+[ \t\r]*(?:\n|\Z)")
"""A page marker line (page_heading's), with its line end."""


def is_page_title(title: str) -> bool:
    """Whether a heading's title is a page marker (`Page N`), not a section."""
    return _PAGE_TITLE_RE.fullmatch(title) is not None


def escape_line(line: str) -> str:
    """`line` as a body line: a leading `#` (after blanks) becomes `\\#`."""
    body = line.lstrip()
    return line[: len(line) - len(body)] + "\\" + body if body.startswith("#") else line


def escape_body(text: str) -> str:
    """Every line of `text` escaped as a body line."""
    return "\n".join(escape_line(line) for line in text.split("\n"))
