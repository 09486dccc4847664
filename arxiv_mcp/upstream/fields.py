"""Upstream text cut to sane lengths: what arXiv or Semantic Scholar sends is bounded before
anyone stores, renders or returns it.

A real title is under 300 characters, an abstract under 2,000 (arXiv's own limit is 1,920),
and the largest collaborations list about 3,000 authors; a feed that sends a 5 MB title or
20,000 authors is lying, and passing that on costs the model its context and the cache its
room. Each field is cut to a bound well above any real value, and the cut is said in the
field itself (a title ends with "[cut: N characters in all]", an author list ends with the
entry "and N more"), so every rendering shows it. Lone surrogates are repaired here too
(`surrogates.repair`): JSON can carry them, no UTF-8 answer can.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypeVar

from ..surrogates import repair

MAX_TITLE = 1_000
MAX_ABSTRACT = 10_000
MAX_SHORT = 1_000
"""Comment, journal reference, DOI, author name, affiliation."""
MAX_AUTHORS = 200
MAX_LIST = 50
"""Categories, classes, affiliations of one author."""
MORE = re.compile(r"and (\d+) more")
"""The name of the entry that ends a cut author list."""

T = TypeVar("T")


def cut_text(text: str, limit: int) -> str:
    """`text` (repaired) of at most about `limit` characters, saying where it was cut."""
    text = repair(text)
    if len(text) <= limit:
        return text
    return f"{text[:limit].rstrip()} … [cut: {len(text):,} characters in all]"


def cut_list(items: Sequence[T], limit: int) -> list[T]:
    """The first `limit` items."""
    return list(items[:limit])


def more_authors(total: int, kept: int) -> str:
    return f"and {total - kept} more"
