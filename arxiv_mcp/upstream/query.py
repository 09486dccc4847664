"""Composing arXiv API queries from search_papers arguments.

arXiv's parser OR-s words that stand side by side, groups binary operators to the right
(`a AND b OR c` is `a AND (b OR c)`), and drops stopwords from AND-ed word lists, which
can leave a query that matches nothing. So every composed part is parenthesised, words are
joined with an explicit AND, and stopwords are left out unless they sit in a quoted phrase.

A query written in arXiv's syntax is normalised, not passed on as typed, because arXiv's
reading of it surprises: it has no `NOT` (the word is searched, OR-ed in: inclusion where
exclusion was meant), lower-case `and`/`or` are words, and two terms side by side are
OR-ed. So `NOT`, `AND NOT` and (between fielded terms) `not` become `ANDNOT`; lower-case
`and`/`or` between fielded terms become operators; terms side by side are joined with
`AND`, as the tool promises; a plain word among fielded terms is searched in all fields.
A leading minus excludes, as in web search (`transformers -vision`, `-"computer vision"`): it
becomes ANDNOT, since arXiv would search the word (its `-` is punctuation) and include it.
Query syntax: https://info.arxiv.org/help/api/user-manual.html#query_details
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from datetime import UTC, date, datetime
from typing import get_args

from ..errors import InvalidInput
from ..models import SortBy, SortOrder
from ..words import STOPWORDS

SORT_BY: tuple[SortBy, ...] = get_args(SortBy)
SORT_ORDER: tuple[SortOrder, ...] = get_args(SortOrder)
MAX_QUERY_CHARS = 4000
"""A longer composed query makes a URL that arXiv's servers refuse; say so before sending."""


_FIELDED = re.compile(r"\b(ti|au|abs|co|jr|cat|rn|id|all|submittedDate|lastUpdatedDate):", re.I)
_BOOLEAN = re.compile(r"(^|\s)(AND|OR|ANDNOT|NOT)(\s|$)")
_ADVANCED_TOKEN = re.compile(
    r"""\s*(?:
      (?P<lpar>\() | (?P<rpar>\)) |
      (?P<field>(?:ti|au|abs|co|jr|cat|rn|id|all|submittedDate|lastUpdatedDate):)\s*
        (?P<value>"[^"]*"|\[[^\]]*\]|\(|[^\s()"]+)? |
      (?P<phrase>"[^"]*") |
      (?P<word>[^\s()"]+) |
      (?P<stray>\S)
    )""",
    re.X | re.I,
)
_OPERATOR_WORDS = ("AND", "OR", "NOT", "ANDNOT")
_TOKEN = re.compile(r'"([^"]*)"|(\S+)')
_WORD_CHARS = re.compile(r"[^\w.\-+']", re.UNICODE)
_ADVANCED_MINUS = re.compile(r"(^|\s)-(?=[^\s-]|$)")
_EXCLUDED = re.compile(r'(?:^|(?<=\s))-(?P<term>"[^"]*"|[^\s"-]\S*)')
"""`-word` or `-"a phrase"` after a space or at the start: a term to exclude."""


def _split_excluded(text: str) -> tuple[str, str]:
    """(the text without its excluded terms, the excluded terms)."""
    excluded = " ".join(m.group("term") for m in _EXCLUDED.finditer(text))
    return _EXCLUDED.sub(" ", text), excluded


def _without(field: str, text: str) -> tuple[str | None, str | None]:
    """The clause of the words to include and the OR-ed clause of those to exclude."""
    kept, excluded = _split_excluded(text)
    if excluded and not words_clause(field, kept):
        raise InvalidInput(
            f"{text.strip()!r} only excludes words (a leading minus means 'not'): add a word to search for, "
            "e.g. 'transformers -vision'"
        )
    return words_clause(field, kept), words_clause(field, excluded, joiner="OR") if excluded else None


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
class _Tok:
    kind: str
    """"open", "close", "term", "op" or "word" (a plain word)."""
    text: str
    fielded: bool = False


def _advanced_tokens(query: str) -> list[_Tok]:
    out: list[_Tok] = []
    for m in _ADVANCED_TOKEN.finditer(query):
        if m.group("lpar"):
            out.append(_Tok("open", "("))
        elif m.group("rpar"):
            out.append(_Tok("close", ")"))
        elif m.group("field"):
            value = m.group("value") or '""'
            kind = "open" if value == "(" else "term"
            out.append(_Tok(kind, m.group("field") + value, fielded=True))
        elif m.group("phrase"):
            out.append(_Tok("term", m.group("phrase")))
        elif m.group("word"):
            out.append(_Tok("word", m.group("word")))
    return out


def _minus_as_andnot(query: str) -> str:
    """`-term` (after a space or at the start, outside quotes) as `ANDNOT term`, as in a plain query."""
    parts = query.split('"')
    parts[::2] = [_ADVANCED_MINUS.sub(r"\1ANDNOT ", part) for part in parts[::2]]
    return '"'.join(parts)


def _is_operator(toks: list[_Tok], i: int) -> bool:
    """Upper-case AND/OR/NOT/ANDNOT always operate; lower-case ones only between fielded
    terms (`ti:x and au:y`), since among plain words they are just words."""
    word = toks[i].text
    if word.upper() not in _OPERATOR_WORDS:
        return False
    if word.isupper():
        return True

    def operator_word(t: _Tok) -> bool:
        return t.kind == "word" and t.text.upper() in _OPERATOR_WORDS

    # Look past neighbouring operator words, so `ti:x and not au:y` reads as one operator.
    before = next((t for t in reversed(toks[:i]) if not operator_word(t)), None)
    after = next((t for t in toks[i + 1 :] if not operator_word(t)), None)
    return bool(
        before and after and (before.fielded or before.kind == "close") and (after.fielded or after.kind == "open")
    )


def _operators(toks: list[_Tok]) -> list[_Tok]:
    """Operator words become operators; NOT (alone or after AND) becomes ANDNOT."""
    out: list[_Tok] = []
    for i, tok in enumerate(toks):
        if tok.kind != "word" or not _is_operator(toks, i):
            out.append(tok)
            continue
        op = tok.text.upper()
        prev = out[-1] if out else None
        if op == "NOT" and prev is not None and prev.kind == "op":
            if prev.text != "AND":
                raise InvalidInput(
                    f"'{prev.text} NOT' cannot be searched: arXiv has only 'a ANDNOT b' (a, but not b); rewrite the query"
                )
            out[-1] = _Tok("op", "ANDNOT")
            continue
        if prev is None or prev.kind in ("op", "open"):
            raise InvalidInput(
                f"'{tok.text}' needs a term before it: arXiv combines two terms, e.g. "
                "'transformers ANDNOT vision' or 'ti:graph AND au:smith'"
            )
        out.append(_Tok("op", "ANDNOT" if op == "NOT" else op))
    if out and out[-1].kind == "op":
        raise InvalidInput(f"The query ends with '{out[-1].text}': give a term after it")
    return out


def normalise_advanced(query: str) -> str:
    """arXiv syntax with the surprises of arXiv's parser taken out (see the module docstring)."""
    toks = _operators(_advanced_tokens(_minus_as_andnot(query)))
    out = ""
    prev: _Tok | None = None
    in_field: list[bool] = []  # per open parenthesis: does a field prefix (ti:( ... )) cover it?
    for i, tok in enumerate(toks):
        if tok.kind == "word":
            word = _WORD_CHARS.sub(" ", tok.text).strip(" .-+'")
            by_adjacency = not (prev and prev.kind == "op") and not (i + 1 < len(toks) and toks[i + 1].kind == "op")
            if not word or (word.lower() in STOPWORDS and by_adjacency):
                continue  # a stopword AND-ed in would empty the query
            field = "" if in_field and in_field[-1] else "all:"
            tok = _Tok("term", f'{field}"{word}"' if " " in word else f"{field}{word}")
        if prev and prev.kind in ("term", "close") and tok.kind in ("term", "open"):
            out += " AND"
        if tok.kind == "open":
            in_field.append(tok.fielded or bool(in_field and in_field[-1]))
        elif tok.kind == "close" and in_field:
            in_field.pop()
        glue = "" if not out or out.endswith("(") or tok.kind == "close" else " "
        out += glue + tok.text
        prev = tok
    if not out.strip("() "):
        raise InvalidInput("The query has no term to search for once its operators are read")
    return out


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


def _compose(
    *,
    query: str | None,
    category_clause: str | None,
    author: str | None,
    title: str | None,
    abstract: str | None,
    date_from: str | None,
    date_to: str | None,
) -> Composed:
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
    relaxed: str | None = None
    if query and query.strip():
        q = query.strip()
        main: str | None
        if is_advanced(q):
            main = f"({normalise_advanced(q)})"
        else:
            main, excluded = _without("all", q)
            kept = _split_excluded(q)[0]
            if main and len([t for t, p in _terms(kept) if p or t.lower() not in STOPWORDS]) >= 2:
                relaxed = words_clause("all", kept, joiner="OR")
            if excluded:
                main = f"({main} ANDNOT {excluded})"
                relaxed = f"({relaxed} ANDNOT {excluded})" if relaxed else None
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
