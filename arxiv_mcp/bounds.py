"""Every numeric bound on a tool argument, declared once.

The service checks an argument with its bound before any upstream request (one wording for
every tool), and `server.py` copies the same numbers into the tool's input schema as
`minimum`/`maximum` (`minItems`/`maxItems` for lists), so a client sees what is accepted
before it calls.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import InvalidInput

MAX_RESULTS_CAP = 2000
"""arXiv's API answers at most this many entries per request."""
RESULT_WINDOW = 30000
"""arXiv's API pages no further than this many entries into one query's results."""


@dataclass(frozen=True)
class Bound:
    """A whole-number argument from `low` to `high` (no upper end when None)."""

    name: str
    low: int
    high: int | None = None
    unit: str = ""

    def accepts(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        if self.high is None:
            return f"a whole number of {self.low} or more{unit}"
        return f"a whole number from {self.low} to {self.high}{unit}"

    def check(self, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not self._inside(value):
            raise InvalidInput(f"{self.name} must be {self.accepts()}; got {value!r}.")
        return value

    def _inside(self, value: int) -> bool:
        return value >= self.low and (self.high is None or value <= self.high)

    def schema(self) -> dict[str, Any]:
        return {"minimum": self.low} | ({} if self.high is None else {"maximum": self.high})


@dataclass(frozen=True)
class CountBound:
    """A list argument holding `low` to `high` items."""

    name: str
    low: int
    high: int
    items: str

    def check(self, values: list[Any] | None) -> list[Any]:
        values = list(values or [])
        if not self.low <= len(values) <= self.high:
            span = f"{self.low} to {self.high}" if self.low else f"at most {self.high}"
            raise InvalidInput(f"{self.name} takes {span} {self.items}; got {len(values)}.")
        return values

    def schema(self) -> dict[str, Any]:
        return ({"minItems": self.low} if self.low else {}) | {"maxItems": self.high}


@dataclass(frozen=True)
class TextBound:
    """A text argument of at most `high` characters: what a reader types to look for, never
    a document (a 4 MB query was searched for and echoed back whole)."""

    name: str
    high: int

    def check(self, value: str) -> str:
        if len(value) > self.high:
            raise InvalidInput(
                f"{self.name} is {len(value):,} characters long; at most {self.high:,}: keep the distinctive "
                'words or a short "quoted phrase".'
            )
        return value

    def schema(self) -> dict[str, Any]:
        return {"maxLength": self.high}


PAGE = Bound("page", 1)
PAGE_SIZE = Bound("page_size", 1000, 100_000, "characters")
START = Bound("start", 0)
OFFSET = Bound("offset", 0, 10**6)
"""list_cached's: no cache holds more papers (ARXIV_MCP_MAX_PAPERS is at most 10**6)."""
MAX_RESULTS = Bound("max_results", 1, MAX_RESULTS_CAP)
ABSTRACT_MAX_CHARS = Bound("abstract_max_chars", 0, unit="characters")
MAX_HITS = Bound("max_hits", 1, 100)
LIMIT = Bound("limit", 1, 100)
WINDOW_DAYS = Bound("window_days", 1, 365, "days")
MAX_VERSION = 999
"""The highest version an id may name (`ids.py` refuses `v1000` as implausible)."""
FROM_VERSION = Bound("from_version", 1, MAX_VERSION)
TO_VERSION = Bound("to_version", 1, MAX_VERSION)
PAPER_IDS = CountBound("paper_ids", 1, 50, "ids")
ID_LIST = CountBound("id_list", 0, 100, "ids")
REFERENCES = CountBound("references", 1, 100, "references (ids or citations)")
MAX_LOOKUPS = Bound("max_lookups", 0, 100)
FIND_QUERY = TextBound("query", 1000)
"""find_in_paper's and search_cached's words: a phrase, never a page."""
