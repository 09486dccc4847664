"""Composing arXiv API queries from search_papers arguments.

arXiv's parser OR-s words that stand side by side, groups binary operators to the right
(`a AND b OR c` is `a AND (b OR c)`), and drops stopwords from AND-ed word lists, which
can leave a query that matches nothing. So every composed part is parenthesised, words are
joined with an explicit AND, and stopwords are left out unless they sit in a quoted phrase.
Query syntax: https://info.arxiv.org/help/api/user-manual.html#query_details
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from datetime import UTC, date, datetime

from ..errors import InvalidInput
from ..words import STOPWORDS

SORT_BY = ("relevance", "submittedDate", "lastUpdatedDate")
SORT_ORDER = ("descending", "ascending")
MAX_RESULTS_CAP = 2000
MAX_QUERY_CHARS = 4000
"""A longer composed query makes a URL that arXiv's servers refuse; say so before sending."""
RESULT_WINDOW = 30000


_FIELDED = re.compile(r"\b(ti|au|abs|co|jr|cat|rn|id|all|submittedDate|lastUpdatedDate):", re.I)
_BOOLEAN = re.compile(r"(^|\s)(AND|OR|ANDNOT)(\s|$)")
_TOKEN = re.compile(r'"([^"]*)"|(\S+)')
_WORD_CHARS = re.compile(r"[^\w.\-+']", re.UNICODE)


def is_advanced(query: str) -> bool:
    """True when the user wrote arXiv query syntax themselves; it is passed on as written."""
    return bool(_FIELDED.search(query) or _BOOLEAN.search(query))


def _terms(text: str) -> list[tuple[str, bool]]:
    """Words and quoted phrases of plain text: (term, is_phrase)."""
    out: list[tuple[str, bool]] = []
    for phrase, word in _TOKEN.findall(text):
        if phrase.strip():
            out.append((" ".join(_WORD_CHARS.sub(" ", phrase).split()), True))
        elif word:
            for piece in _WORD_CHARS.sub(" ", word).split():
                piece = piece.strip(".-+'")
                if piece:
                    out.append((piece, False))
    return [(t, p) for t, p in out if t]


def words_clause(field: str, text: str, *, joiner: str = "AND") -> str | None:
    """`field:w1 AND field:w2 AND field:"a phrase"`, stopwords dropped outside phrases.

    When every word is a stopword the whole text becomes one quoted phrase, which arXiv
    matches with its stopwords kept."""
    terms = _terms(text)
    kept = [(t, p) for t, p in terms if p or t.lower() not in STOPWORDS]
    if not kept:
        if not terms:
            return None
        kept = [(" ".join(t for t, _ in terms), True)]
    parts = [f'{field}:"{t}"' if p or " " in t else f"{field}:{t}" for t, p in kept]
    return parts[0] if len(parts) == 1 else "(" + f" {joiner} ".join(parts) + ")"


def author_clause(text: str) -> str | None:
    """An author name: each comma- or ';'-separated name is a phrase; several are AND-ed."""
    names = [" ".join(_WORD_CHARS.sub(" ", n).split()) for n in re.split(r"[;,]| and ", text)]
    names = [n for n in names if n]
    if not names:
        return None
    parts = [f'au:"{n}"' if " " in n else f"au:{n}" for n in names]
    return parts[0] if len(parts) == 1 else "(" + " AND ".join(parts) + ")"


def parse_date(name: str, value: str) -> date:
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value.strip()):
        raise InvalidInput(f"{name}={value!r} is not a date: use YYYY-MM-DD, e.g. 2024-01-31")
    try:
        d = date.fromisoformat(value.strip())
    except ValueError:
        raise InvalidInput(f"{name}={value!r} is not a real calendar date: use YYYY-MM-DD") from None
    today = datetime.now(UTC).date()
    if d > today:
        raise InvalidInput(f"{name}={value} is in the future (today is {today} UTC)")
    if d < date(1991, 1, 1):
        raise InvalidInput(f"{name}={value} is before arXiv began (1991-08)")
    return d


def date_clause(date_from: str | None, date_to: str | None) -> str | None:
    if not date_from and not date_to:
        return None
    d1 = parse_date("date_from", date_from) if date_from else date(1991, 1, 1)
    d2 = parse_date("date_to", date_to) if date_to else datetime.now(UTC).date()
    if d1 > d2:
        raise InvalidInput(f"date_from {d1} is after date_to {d2}; swap them")
    return f"submittedDate:[{d1:%Y%m%d}0000 TO {d2:%Y%m%d}2359]"


@dataclass(frozen=True)
class Composed:
    search_query: str
    relaxed: str | None
    """An OR-ed form of a plain multi-word query, tried once when the AND-ed one finds nothing."""


@dataclass(frozen=True)
class SearchFilters:
    """What a search narrows by, besides ids and paging: one record from the tool to the query."""

    query: str | None = None
    category: str | None = None
    """Category ids as the user gave them (comma-separated); the caller turns them into a clause."""
    author: str | None = None
    title: str | None = None
    abstract: str | None = None
    date_from: str | None = None
    date_to: str | None = None

    def any(self) -> bool:
        return any(getattr(self, f.name) for f in fields(self))


def compose(filters: SearchFilters, category_clause: str | None = None) -> Composed:
    """AND-combine every given part, each parenthesised, category first."""
    composed = _compose(
        query=filters.query,
        category_clause=category_clause,
        author=filters.author,
        title=filters.title,
        abstract=filters.abstract,
        date_from=filters.date_from,
        date_to=filters.date_to,
    )
    if len(composed.search_query) > MAX_QUERY_CHARS:
        raise InvalidInput(
            f"The query is too long for arXiv ({len(composed.search_query)} characters once "
            f"composed; at most {MAX_QUERY_CHARS}): keep the distinctive words, or split "
            "it into several searches"
        )
    return composed


def _compose(*, query, category_clause, author, title, abstract, date_from, date_to) -> Composed:
    base: list[str] = []
    if category_clause:
        base.append(category_clause)
    for clause in (
        author_clause(author) if author else None,
        words_clause("ti", title) if title else None,
        words_clause("abs", abstract) if abstract else None,
        date_clause(date_from, date_to),
    ):
        if clause:
            base.append(clause)
    relaxed = None
    if query and query.strip():
        q = query.strip()
        if is_advanced(q):
            main = f"({q})"
        else:
            main = words_clause("all", q)
            if main and len([t for t, p in _terms(q) if p or t.lower() not in STOPWORDS]) >= 3:
                relaxed = words_clause("all", q, joiner="OR")
        if main:
            base_plus = base + [main]
            joined = " AND ".join(base_plus)
            relaxed_q = " AND ".join(base + [relaxed]) if relaxed else None
            return Composed(joined, relaxed_q)
    if not base:
        raise InvalidInput(
            "Nothing to search for: give query, title, author, abstract, category, a date range, or id_list"
        )
    return Composed(" AND ".join(base), None)
