"""An arXiv `search_query` (as `upstream.query` composes it) answered from the mirror in SQL.

The query is parsed the way arXiv reads it (binary operators group to the right, a field
before a parenthesis covers the group, an unquoted stopword matches nothing) into a tree;
each leaf is a set of papers (an FTS5 match, or the same words matched in Python without
FTS5; a category; a date range; an id) and each operator a set operation, so the mirror finds
the papers the API finds. Dates sort exactly as the API does (submittedDate is the first
version's date, lastUpdatedDate the latest's; ties by id). Relevance is FTS5's bm25 over
title, authors and abstract (ties: the later harvested first), arXiv's own ranking being
unknowable offline.

`covered` says whether the mirror can answer at all: the query must be narrowed to mirrored
categories (a `cat:` conjunct every term of which is mirrored), use only fields the mirror
holds, and ask for no day after its last sync.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import InvalidInput
from ..words import STOPWORDS
from . import words as mwords
from .store import SLOTS, MirrorStore, _cat_where, row_base

_COLUMNS = {"ti": "title", "au": "authors", "abs": "abstract", "co": "comments", "jr": "journal_ref"}
_ALL = tuple(_COLUMNS.values())
_TOKEN = re.compile(
    r"""\s*(?:(?P<open>\()|(?P<close>\))|(?P<field>[A-Za-z]+):(?P<fopen>\()?|"(?P<phrase>[^"]*)"|\[(?P<range>[^\]]*)\]|(?P<word>[^\s()"]+))""",
    re.X,
)
_OPS = ("AND", "OR", "ANDNOT")
BM25_WEIGHTS = (3.0, 2.0, 1.0, 0.5, 0.5, 0.0)
"""Title words count most, then authors, then the abstract; categories not at all (FTS column order)."""
_ALL_FTS = "{title authors abstract comments journal_ref}"


@dataclass(frozen=True)
class Text:
    field: str
    """ti, au, abs, co, jr or all."""
    words: tuple[str, ...]
    phrase: bool


@dataclass(frozen=True)
class Cat:
    term: str


@dataclass(frozen=True)
class Dates:
    column: str
    """published or updated."""
    low: str
    high: str


@dataclass(frozen=True)
class Id:
    value: str


@dataclass(frozen=True)
class Other:
    """A field the mirror does not hold (rn:): the API must answer."""

    field: str


@dataclass(frozen=True)
class Binary:
    op: str
    left: Node
    right: Node


Node = Text | Cat | Dates | Id | Other | Binary


class _Parser:
    def __init__(self, query: str):
        self.toks = [m for m in _TOKEN.finditer(query) if m.group(0).strip()]
        self.i = 0

    def peek(self) -> re.Match[str] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def expr(self, field: str | None) -> Node:
        left = self.unary(field)
        tok = self.peek()
        if tok is None or tok.group("close"):
            return left
        op = tok.group("word") if tok.group("word") in _OPS else None
        if op:
            self.i += 1
        return Binary(op or "OR", left, self.expr(field))  # side by side is OR, as arXiv reads it

    def unary(self, field: str | None) -> Node:
        tok = self.peek()
        if tok is None:
            raise InvalidInput("the query ends where a term was expected")
        self.i += 1
        if tok.group("open") or tok.group("fopen"):
            inner = self.expr(tok.group("field").lower() if tok.group("fopen") else field)
            if self.peek() is not None and self.peek().group("close"):  # type: ignore[union-attr]
                self.i += 1
            return inner
        if tok.group("field"):
            value = self.peek()
            if value is None:
                raise InvalidInput(f"{tok.group(0).strip()} has no value")
            self.i += 1
            return _leaf(tok.group("field"), value)
        if tok.group("close"):
            raise InvalidInput("a ')' without its '('")
        return _leaf(field or "all", tok)


def _leaf(field: str, tok: re.Match[str]) -> Node:
    name = field.lower()
    raw = tok.group("phrase") if tok.group("phrase") is not None else (tok.group("word") or tok.group("range") or "")
    if name in ("submitteddate", "lastupdateddate"):
        low, _, high = (tok.group("range") or "").partition(" TO ")
        return Dates("published" if name == "submitteddate" else "updated", _stamp(low, False), _stamp(high, True))
    if name == "cat":
        return Cat(raw.strip().lower())
    if name == "id":
        return Id(re.sub(r"v\d+$", "", raw.strip().lower()))
    if name in _COLUMNS or name == "all":
        return Text(name, tuple(mwords.tokens(raw)), tok.group("phrase") is not None)
    return Other(name)


def _stamp(value: str, end: bool) -> str:
    """arXiv's YYYYMMDDHHMM as the ISO time stored dates compare with (`*`: no bound)."""
    text = value.strip()
    if text in ("", "*"):
        return "9999-12-31T23:59:59Z" if end else "1000-01-01T00:00:00Z"
    d = (text + "000000000000")[:12]
    return f"{d[:4]}-{d[4:6]}-{d[6:8]}T{d[8:10]}:{d[10:12]}:{'59' if end else '00'}Z"


def parse(query: str) -> Node:
    parser = _Parser(query)
    tree = parser.expr(None)
    if parser.peek() is not None:
        raise InvalidInput("the query has an unmatched ')'")
    return tree


def conjuncts(node: Node) -> list[Node]:
    if isinstance(node, Binary) and node.op == "AND":
        return conjuncts(node.left) + conjuncts(node.right)
    return [node]


def leaves(node: Node) -> list[Node]:
    return leaves(node.left) + leaves(node.right) if isinstance(node, Binary) else [node]


def category_terms(node: Node) -> list[str] | None:
    """The cat: terms when `node` is only categories OR-ed, else None."""
    if isinstance(node, Cat):
        return [node.term]
    if isinstance(node, Binary) and node.op == "OR":
        left, right = category_terms(node.left), category_terms(node.right)
        return None if left is None or right is None else left + right
    return None


def covered(tree: Node, mirrored: list[str], as_of_day: str) -> str | None:
    """None when the mirror answers `tree`; else why the API must (a sentence)."""
    if any(isinstance(leaf, Other) for leaf in leaves(tree)):
        return "the query uses a field the mirror does not hold"
    narrowing = [terms for c in conjuncts(tree) if (terms := category_terms(c)) is not None]
    if not narrowing:
        return "the query is not narrowed to a category"
    if not any(all(within(t, mirrored) for t in terms) for terms in narrowing):
        return f"the query reaches outside the mirrored categories ({', '.join(mirrored)})"
    newest = max((c.high[:10] for c in conjuncts(tree) if isinstance(c, Dates)), default=None)
    if newest is not None and newest > as_of_day:
        return f"the query asks for days after the mirror's last sync ({as_of_day})"
    return None


def within(term: str, mirrored: list[str]) -> bool:
    """Whether the papers a `cat:` term matches all lie in mirrored categories or archives."""
    t = term.lower().removesuffix("*")
    for m in (x.lower() for x in mirrored):
        if t == m or t.startswith(m + "."):
            return True
    return False


# --- evaluation -----------------------------------------------------------------------------


@dataclass
class Found:
    total: int
    rowids: list[int]


def search(store: MirrorStore, tree: Node, sort_by: str, sort_order: str, start: int, limit: int) -> Found:
    """The page `start`..`start+limit` of the papers matching `tree`, in the asked order."""
    plan = _plan(tree) if store.fts else None
    if plan is None:
        return _search_sets(store, tree, sort_by, sort_order, start, limit)
    match, ranges, range_args, filters, filter_args = plan
    desc = sort_order == "descending"
    first, then = ("DESC", "ASC") if desc else ("ASC", "DESC")
    weights = ", ".join(str(w) for w in BM25_WEIGHTS)
    if filters or sort_by == "lastUpdatedDate":  # the papers' own columns: join them
        source = f"FROM fts JOIN papers p ON p.rowid = fts.rowid WHERE fts MATCH ?{ranges}{filters}"
        args: list[object] = [match, *range_args, *filter_args]
    else:  # the index alone counts, ranks and orders by submission (rowid)
        source, args = f"FROM fts WHERE fts MATCH ?{ranges}", [match, *range_args]
    total = int(store.db.execute(f"SELECT count(*) {source}", args).fetchone()[0])
    if sort_by == "relevance":  # bm25 is lower for a better match
        order = f"bm25(fts, {weights}) {then}, fts.rowid {first}"
    elif sort_by == "submittedDate":
        order = f"fts.rowid {first}"
    else:
        order = f"p.updated {first}, p.id {first}"
    rows = store.db.execute(f"SELECT fts.rowid {source} ORDER BY {order} LIMIT ? OFFSET ?", [*args, limit, start])
    return Found(total, [r[0] for r in rows])


def _plan(tree: Node) -> tuple[str, str, list[object], str, list[object]] | None:
    """One FTS5 query for the words and categories, a rowid range for submission dates (rowids
    are in submission order, `store.SLOTS`), and SQL filters on the papers for the rest; None
    when the tree does not split so (a date inside an OR): the set path answers that."""
    match: list[str] = []
    ranges, filters = "", ""
    range_args: list[object] = []
    args: list[object] = []
    for part in conjuncts(tree):
        if _indexed(part):
            match.append(f"({_fts_expr(part)})")
        elif isinstance(part, Dates) and part.column == "published":
            ranges += " AND fts.rowid BETWEEN ? AND ?"
            range_args += [row_base(part.low), row_base(part.high) + SLOTS - 1]
        elif isinstance(part, Dates):
            filters += f" AND p.{part.column} >= ? AND p.{part.column} <= ?"
            args += [part.low, part.high]
        elif isinstance(part, Id):
            filters += " AND p.id = ?"
            args.append(part.value)
        else:
            return None
    return (" AND ".join(match), ranges, range_args, filters, args) if match else None


def _indexed(node: Node) -> bool:
    return all(isinstance(leaf, Cat) or (isinstance(leaf, Text) and _searchable(leaf)) for leaf in leaves(node))


def _search_sets(store: MirrorStore, tree: Node, sort_by: str, sort_order: str, start: int, limit: int) -> Found:
    """The general path: each leaf a set of rowids, each operator a set operation."""
    sql, args = _set_sql(store, tree)
    total = int(store.db.execute(f"SELECT count(*) FROM ({sql})", args).fetchone()[0])
    desc = sort_order == "descending"
    if sort_by != "relevance" or not total:
        column = "updated" if sort_by == "lastUpdatedDate" else "published"
        way = "DESC" if desc else "ASC"
        rows = store.db.execute(
            f"SELECT rowid FROM papers WHERE rowid IN ({sql}) ORDER BY {column} {way}, id {way} LIMIT ? OFFSET ?",
            [*args, limit, start],
        ).fetchall()
        return Found(total, [r[0] for r in rows])
    return Found(total, _by_relevance(store, tree, sql, args, desc, start, limit))


def _by_relevance(
    store: MirrorStore, tree: Node, sql: str, args: list[object], desc: bool, start: int, limit: int
) -> list[int]:
    """bm25 of the query's words (FTS5; without it, weighted counts), ties newest first, then by id."""
    text = [c for c in conjuncts(tree) if _pure_text(c)]
    rows = store.db.execute(f"SELECT rowid, published, id FROM papers WHERE rowid IN ({sql})", args).fetchall()
    if text and store.fts:
        weights = ", ".join(str(w) for w in BM25_WEIGHTS)
        match = " AND ".join(f"({_fts_expr(c)})" for c in text)
        scores = dict(store.db.execute(f"SELECT rowid, bm25(fts, {weights}) FROM fts WHERE fts MATCH ?", [match]))
    else:
        leaves_ = [leaf for c in text for leaf in leaves(c) if isinstance(leaf, Text)]
        scores = {rowid: -_score(leaves_, tuple(columns)) for rowid, *columns in _texts(store, [r[0] for r in rows])}
    ranked = sorted(rows, key=lambda r: (scores.get(r[0], 0.0), _neg(r[1]), r[2]))
    if not desc:
        ranked.reverse()
    return [r[0] for r in ranked[start : start + limit]]


def _texts(store: MirrorStore, rowids: list[int]) -> list[tuple[int, str, str, str, str, str]]:
    marks = ",".join("?" * len(rowids))
    return store.db.execute(
        f"SELECT rowid, title, authors, abstract, comments, journal_ref FROM papers WHERE rowid IN ({marks})", rowids
    ).fetchall()


def _neg(iso: str) -> tuple[int, ...]:
    return tuple(-ord(c) for c in iso)


def _score(texts: list[Text], columns: tuple[str, ...]) -> float:
    toks = [mwords.tokens(c or "") for c in columns]
    return sum(
        w * mwords.count(t, list(leaf.words)) for leaf in texts for w, t in zip(BM25_WEIGHTS, toks, strict=False)
    )


def _pure_text(node: Node) -> bool:
    return all(isinstance(leaf, Text) and _searchable(leaf) for leaf in leaves(node))


def _searchable(leaf: Text) -> bool:
    return bool(leaf.words) and (leaf.phrase or len(leaf.words) > 1 or leaf.words[0] not in STOPWORDS)


def _fts_expr(node: Node) -> str:
    if isinstance(node, Binary):
        op = "NOT" if node.op == "ANDNOT" else node.op
        return f"({_fts_expr(node.left)} {op} {_fts_expr(node.right)})"
    if isinstance(node, Cat):  # an archive's token stands in every paper of its categories
        wild = node.term.endswith("*")
        return f'{{categories}} : "{mwords.cat_token(node.term.rstrip("*"))}"' + (" *" if wild else "")
    assert isinstance(node, Text)
    phrase = '"' + " ".join(w.replace('"', '""') for w in node.words) + '"'
    return f"{_ALL_FTS} : {phrase}" if node.field == "all" else f"{{{_COLUMNS[node.field]}}} : {phrase}"


_SET_OPS = {"AND": "INTERSECT", "OR": "UNION", "ANDNOT": "EXCEPT"}


def _set_sql(store: MirrorStore, node: Node) -> tuple[str, list[object]]:
    """SQL selecting the rowids of the papers matching `node`, with its arguments. Words AND-ed,
    OR-ed or excluded among themselves are one FTS5 query (its doclists do the set work)."""
    if store.fts and _pure_text(node):
        return "SELECT rowid FROM fts WHERE fts MATCH ?", [_fts_expr(node)]
    if isinstance(node, Binary) and node.op == "AND":
        parts = conjuncts(node)
        words = [p for p in parts if store.fts and _pure_text(p)]
        pieces = [_set_sql(store, p) for p in parts if not (store.fts and _pure_text(p))]
        if words:
            pieces.insert(
                0, ("SELECT rowid FROM fts WHERE fts MATCH ?", [" AND ".join(f"({_fts_expr(w)})" for w in words)])
            )
        return " INTERSECT ".join(f"SELECT * FROM ({sql})" for sql, _ in pieces), [
            a for _, args in pieces for a in args
        ]
    if isinstance(node, Binary):
        left, largs = _set_sql(store, node.left)
        right, rargs = _set_sql(store, node.right)
        return f"SELECT * FROM ({left}) {_SET_OPS[node.op]} SELECT * FROM ({right})", [*largs, *rargs]
    if isinstance(node, Cat):
        where, args = _cat_where([node.term])
        return f"SELECT paper FROM cats WHERE {where}", list(args)
    if isinstance(node, Dates):
        return f"SELECT rowid FROM papers WHERE {node.column} >= ? AND {node.column} <= ?", [node.low, node.high]
    if isinstance(node, Id):
        return "SELECT rowid FROM papers WHERE id = ?", [node.value]
    if isinstance(node, Text) and _searchable(node):
        columns = _ALL if node.field == "all" else (_COLUMNS[node.field],)
        test = " OR ".join(f"mirror_match({c}, ?, 0) > 0" for c in columns)
        return f"SELECT rowid FROM papers WHERE {test}", [" ".join(node.words)] * len(columns)
    return "SELECT rowid FROM papers WHERE 0", []
