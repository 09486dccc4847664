"""arXiv's search_query language for the fake arXiv: parse once, match against indexed papers.

Behaviour copied from what the real API does (see the project notes), including the parts a
client must work around: juxtaposed terms are OR-ed, binary operators group to the right, and
an unquoted stopword matches nothing, which empties any AND it sits in.
"""

from __future__ import annotations

import fnmatch
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

TEXT_FIELDS = ("ti", "abs", "co", "jr", "rn", "all")
FIELDS = frozenset(TEXT_FIELDS + ("au", "cat", "id"))
DATE_FIELDS = {"submitteddate": "submitted", "lastupdateddate": "updated"}
OPERATORS = ("AND", "OR", "ANDNOT")

STOPWORDS = frozenset(
    """a an and are as at be but by for from has have if in into is it its no not of on or such
    that the their then there these they this to was were will with""".split()
)


class QuerySyntaxError(ValueError):
    """The search_query cannot be parsed; the fake answers HTTP 400 like arXiv."""


_LETTERS = str.maketrans({"ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "ß": "ss", "æ": "ae", "Æ": "AE", "đ": "d"})
"""Letters NFKD does not decompose, folded as search engines' ASCII folding does (Sørensen, Łukasz)."""


def fold(text: str) -> str:
    """Lower-case and strip accents so 'Wübben' and 'wubben' compare equal."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_LETTERS))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()


def words(text: str) -> list[str]:
    """Tokens on non-alphanumerics (underscore included, so au:del_maestro is two words)."""
    return re.findall(r"[^\W_]+", fold(text))


@dataclass
class SearchDoc:
    """One paper flattened into what the query language can see."""

    fields: dict[str, list[str]]
    author_names: list[list[str]]
    categories: list[str]
    ids: set[str]
    submitted: datetime
    updated: datetime
    all_parts: list[list[str]] = field(default_factory=list)


def make_doc(
    *,
    paper_id: str,
    versions: int,
    title: str,
    abstract: str,
    authors: list[str],
    categories: list[str],
    comment: str | None,
    journal_ref: str | None,
    report_no: str | None,
    submitted: datetime,
    updated: datetime,
) -> SearchDoc:
    texts = {
        "ti": words(title),
        "abs": words(abstract),
        "co": words(comment or ""),
        "jr": words(journal_ref or ""),
        "rn": words(report_no or ""),
    }
    author_names = [words(name) for name in authors]
    ids = {paper_id.lower()} | {f"{paper_id.lower()}v{k}" for k in range(1, versions + 1)}
    all_parts = [texts["ti"], texts["abs"], texts["co"], texts["jr"], texts["rn"], *author_names]
    return SearchDoc(
        fields=texts,
        author_names=author_names,
        categories=[c.lower() for c in categories],
        ids=ids,
        submitted=submitted,
        updated=updated,
        all_parts=all_parts,
    )


# ---- syntax tree -------------------------------------------------------------------------


@dataclass(frozen=True)
class Term:
    field: str
    value: str
    phrase: bool


@dataclass(frozen=True)
class DateRange:
    which: str
    low: str
    high: str


@dataclass(frozen=True)
class Binary:
    op: str
    left: object
    right: object


# ---- tokenizer ---------------------------------------------------------------------------

_TOKEN = re.compile(
    r"""
    \s*(?:
      (?P<lpar>\() | (?P<rpar>\)) |
      (?P<prefix>[A-Za-z]+):(?=\S) |
      "(?P<phrase>[^"]*)" |
      \[(?P<range>[^\]]*)\] |
      (?P<word>[^\s()"]+)
    )""",
    re.VERBOSE,
)


def _tokens(query: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    query = query.strip()
    while pos < len(query):
        match = _TOKEN.match(query, pos)
        if not match or match.end() == pos:
            rest = query[pos:].strip()
            if not rest:
                break
            raise QuerySyntaxError(f"cannot parse search_query near {rest[:30]!r}")
        pos = match.end()
        kind = match.lastgroup
        assert kind is not None
        value = match.group(kind)
        if kind == "word" and value in OPERATORS:
            kind = "op"
        out.append((kind, value))
    return out


# ---- parser ------------------------------------------------------------------------------


class _Parser:
    """expr := unit [op] expr, right-grouped; a missing op means OR (what arXiv does)."""

    def __init__(self, tokens: list[tuple[str, str]]):
        self.tokens = tokens
        self.pos = 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        token = self.peek()
        if token is None:
            raise QuerySyntaxError("search_query ends too early (dangling operator or prefix?)")
        self.pos += 1
        return token

    def expr(self, default_field: str) -> object:
        left = self.unit(default_field)
        token = self.peek()
        if token is None or token[0] == "rpar":
            return left
        op = "OR"
        if token[0] == "op":
            op = token[1]
            self.take()
        right = self.expr(default_field)
        return Binary(op, left, right)

    def unit(self, default_field: str) -> object:
        kind, value = self.take()
        if kind == "prefix":
            return self.prefixed(value)
        return self.operand(default_field, kind, value, f"unexpected {value!r} in search_query")

    def prefixed(self, prefix: str) -> object:
        name = prefix.lower()
        if name in DATE_FIELDS:
            kind, value = self.take()
            if kind != "range":
                raise QuerySyntaxError(f"{prefix} needs a range like [202401010000 TO 202401312359]")
            return _date_range(DATE_FIELDS[name], value)
        if name not in FIELDS:
            raise QuerySyntaxError(f"unknown field prefix {prefix!r}")
        kind, value = self.take()
        return self.operand(name, kind, value, f"{prefix}: must be followed by a word or a quoted phrase")

    def operand(self, field: str, kind: str, value: str, refusal: str) -> object:
        """A parenthesised group, a phrase or a word searched in `field`; else `refusal`."""
        if kind == "lpar":
            inner = self.expr(field)
            if self.take()[0] != "rpar":
                raise QuerySyntaxError("unbalanced parentheses in search_query")
            return inner
        if kind in ("phrase", "word"):
            return Term(field, value, kind == "phrase")
        raise QuerySyntaxError(refusal)


def _date_range(which: str, text: str) -> DateRange:
    parts = text.split()
    if len(parts) != 3 or parts[1] != "TO":
        raise QuerySyntaxError(f"bad date range [{text}]")
    low, high = parts[0], parts[2]
    for bound in (low, high):
        if bound != "*" and not re.fullmatch(r"\d{8}|\d{12}|\d{14}", bound):
            raise QuerySyntaxError(f"bad date {bound!r}: use YYYYMMDDHHMM")
    return DateRange(which, low, high)


def parse(query: str) -> object:
    """The syntax tree of a search_query; QuerySyntaxError when arXiv would answer 400."""
    tokens = _tokens(query)
    if not tokens:
        raise QuerySyntaxError("empty search_query")
    parser = _Parser(tokens)
    tree = parser.expr("all")
    if parser.peek() is not None:
        raise QuerySyntaxError("unbalanced parentheses in search_query")
    return tree


# ---- matching ----------------------------------------------------------------------------


def _count_sequence(tokens: list[str], seq: list[str]) -> int:
    n = len(seq)
    return sum(1 for i in range(len(tokens) - n + 1) if tokens[i : i + n] == seq)


def _author_hits(names: list[list[str]], term_words: list[str], phrase: bool) -> int:
    """Every word in one author's name; a one-letter word stands for an initial."""

    def has(name: list[str], word: str) -> bool:
        if len(word) == 1:
            return any(token.startswith(word) for token in name)
        return word in name

    hits = 0
    for name in names:
        if phrase:
            hits += _count_sequence(name, term_words)
        elif all(has(name, word) for word in term_words):
            hits += 1
    return hits


def _term_score(term: Term, doc: SearchDoc) -> int:
    if term.field == "id":
        return int(term.value.strip().lower() in doc.ids)
    if term.field == "cat":
        pattern = term.value.strip().lower()
        return sum(1 for cat in doc.categories if fnmatch.fnmatchcase(cat, pattern) or cat.startswith(pattern + "."))
    term_words = words(term.value)
    if not term_words:
        return 0
    if term.field == "au":
        return _author_hits(doc.author_names, term_words, term.phrase)
    if not term.phrase and any(word in STOPWORDS for word in term_words):
        return 0
    parts = doc.all_parts if term.field == "all" else [doc.fields[term.field]]
    total = 0
    for tokens in parts:
        if term.phrase:
            total += _count_sequence(tokens, term_words)
        else:
            counts = Counter(tokens)
            if all(counts[word] for word in term_words):
                total += sum(counts[word] for word in term_words)
    return total


def _in_range(rng: DateRange, doc: SearchDoc) -> bool:
    stamp = (doc.submitted if rng.which == "submitted" else doc.updated).strftime("%Y%m%d%H%M%S")
    if rng.low != "*" and stamp[: len(rng.low)] < rng.low:
        return False
    if rng.high != "*" and stamp[: len(rng.high)] > rng.high:
        return False
    return True


def score(tree: object, doc: SearchDoc) -> int | None:
    """None when the paper does not match, else a relevance score (higher is better)."""
    if isinstance(tree, Term):
        hits = _term_score(tree, doc)
        return hits if hits else None
    if isinstance(tree, DateRange):
        return 0 if _in_range(tree, doc) else None
    assert isinstance(tree, Binary)
    left = score(tree.left, doc)
    if tree.op == "AND":
        if left is None:
            return None
        right = score(tree.right, doc)
        return None if right is None else left + right
    if tree.op == "ANDNOT":
        if left is None:
            return None
        return left if score(tree.right, doc) is None else None
    right = score(tree.right, doc)
    if left is None and right is None:
        return None
    return (left or 0) + (right or 0)
