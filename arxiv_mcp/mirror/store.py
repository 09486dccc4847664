"""The mirror's one sqlite3 database: papers, every version, categories, harvest state.

Everything a harvested page changes (its records and the set's token and last datestamp)
is written in one transaction, so a kill loses at most the page in flight and a restart
resumes from a token that matches what is stored. A paper is keyed by its id: a record
sent again (a new version, a later harvest) replaces the old one, so nothing is stored
twice. Full-text search uses FTS5 where this interpreter's sqlite has it; elsewhere the
same words are matched by `words.tokens` in Python (slower, the same results), with one
warning. WAL mode lets readers (tool calls in other processes) read while a harvest writes.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..upstream.oai import Record, Version
from . import words

log = logging.getLogger(__name__)

DB_NAME = "mirror.sqlite3"
TEXT_COLUMNS = ("title", "authors", "abstract", "comments", "journal_ref")
"""The columns full-text search reads, in FTS column order."""
_warned_no_fts = False

_SCHEMA = """
CREATE TABLE IF NOT EXISTS papers(
  rowid INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, title TEXT NOT NULL, authors TEXT NOT NULL,
  abstract TEXT NOT NULL, comments TEXT, journal_ref TEXT, doi TEXT, categories TEXT NOT NULL,
  classes TEXT NOT NULL, published TEXT NOT NULL, updated TEXT NOT NULL, version INTEGER NOT NULL,
  datestamp TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS papers_published ON papers(published);
CREATE INDEX IF NOT EXISTS papers_updated ON papers(updated);
CREATE TABLE IF NOT EXISTS versions(
  paper INTEGER NOT NULL, version INTEGER NOT NULL, date TEXT NOT NULL, size TEXT NOT NULL,
  PRIMARY KEY(paper, version)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS cats(cat TEXT NOT NULL, paper INTEGER NOT NULL, published TEXT NOT NULL,
  PRIMARY KEY(cat, paper)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS cats_day ON cats(cat, published);
CREATE TABLE IF NOT EXISTS sets(
  spec TEXT PRIMARY KEY, name TEXT NOT NULL, token TEXT, from_date TEXT, last_datestamp TEXT,
  last_response TEXT, last_sync TEXT, pages INTEGER NOT NULL DEFAULT 0, harvested INTEGER NOT NULL DEFAULT 0);
"""
_FTS = (  # external content: the text lives once, in papers; the index holds only the words
    "CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(title, authors, abstract, comments, journal_ref, categories, "
    "content='papers', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2')"
)


SLOTS = 1024
"""A paper's rowid is the second its first version was submitted times SLOTS, plus a free slot:
rowid order is submission order, which FTS5 reads in order and ranges over without the table."""


def row_base(iso: str) -> int:
    """The first rowid of the second `iso` (2024-01-05T12:00:00Z) names."""
    from datetime import UTC, datetime

    try:
        moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return 0
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return max(0, int(moment.timestamp())) * SLOTS


def _free(db: sqlite3.Connection, published: str) -> int:
    base = row_base(published)
    taken = db.execute(
        "SELECT max(rowid) FROM papers WHERE rowid BETWEEN ? AND ?", (base, base + SLOTS - 1)
    ).fetchone()[0]
    if taken is None:
        return base
    if taken + 1 < base + SLOTS:
        return int(taken) + 1
    raise ValueError(f"more than {SLOTS} papers submitted in the second of {published}")


@dataclass(frozen=True)
class SetState:
    spec: str
    name: str
    token: str | None
    from_date: str | None
    last_datestamp: str | None
    last_response: str | None
    last_sync: str | None
    pages: int
    harvested: int


@dataclass(frozen=True)
class StoredPaper:
    id: str
    title: str
    authors: list[str]
    abstract: str
    comments: str | None
    journal_ref: str | None
    doi: str | None
    categories: list[str]
    classes: list[str]
    published: str
    updated: str
    version: int
    versions: list[Version]


class MirrorStore:
    """One connection per thread to the mirror database at `home/mirror.sqlite3`."""

    def __init__(self, home: Path, *, fts: bool | None = None):
        self.path = home / DB_NAME
        self._local = threading.local()
        self._fts_wanted = fts
        self.fts = False
        home.mkdir(parents=True, exist_ok=True)
        self.db.executescript(_SCHEMA)  # its own transaction
        with self.write() as db:
            self.fts = self._make_fts(db)

    def _make_fts(self, db: sqlite3.Connection) -> bool:
        """FTS5 when this sqlite has it (`fts=False`: as if it had not, for tests)."""
        global _warned_no_fts
        if self._fts_wanted is not False:
            if db.execute("SELECT 1 FROM sqlite_master WHERE name='fts'").fetchone():
                return True
            try:
                db.execute(_FTS)
                return True
            except sqlite3.OperationalError:
                pass
        if not _warned_no_fts:
            _warned_no_fts = True
            log.warning(
                "this Python's sqlite has no FTS5: mirror searches match words in Python (same results, slower)"
            )
        return False

    @property
    def db(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=30.0, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA mmap_size=1073741824")  # reads from the OS's page cache, no copies
            conn.execute("PRAGMA cache_size=-32768")  # 32 MB of pages per connection
            conn.create_function("mirror_match", 3, words.match_text, deterministic=True)
            self._local.conn = conn
        return conn

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One transaction: all of it is stored, or none of it."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    # --- harvest state ----------------------------------------------------------------------

    def set_state(self, spec: str) -> SetState | None:
        row = self.db.execute(
            "SELECT spec, name, token, from_date, last_datestamp, last_response, last_sync, pages, harvested "
            "FROM sets WHERE spec=?",
            (spec,),
        ).fetchone()
        return SetState(*row) if row else None

    def sets(self) -> list[SetState]:
        rows = self.db.execute(
            "SELECT spec, name, token, from_date, last_datestamp, last_response, last_sync, pages, harvested "
            "FROM sets ORDER BY name"
        ).fetchall()
        return [SetState(*r) for r in rows]

    def begin_set(self, spec: str, name: str, from_date: str | None) -> None:
        """A harvest of `spec` starts (without a token): from `from_date`, or from the start."""
        with self.write() as db:
            db.execute("INSERT OR IGNORE INTO sets(spec, name) VALUES (?, ?)", (spec, name))
            db.execute("UPDATE sets SET token=NULL, from_date=?, pages=0 WHERE spec=?", (from_date, spec))

    def store_page(self, spec: str, records: Iterable[Record], token: str | None, response_date: str) -> int:
        """A page's records and the set's next token, in one transaction. With no token the
        harvest of the set is complete: its sync time is the page's responseDate."""
        changed = 0
        with self.write() as db:
            last = None
            for record in records:
                changed += self._put(db, record)
                last = max(last or "", record.datestamp)
            db.execute(
                "UPDATE sets SET token=?, last_datestamp=COALESCE(?, last_datestamp), pages=pages+1, "
                "harvested=harvested+? WHERE spec=?",
                (token, last, changed, spec),
            )
            if token is None:
                db.execute(
                    "UPDATE sets SET last_response=?, last_sync=?, from_date=NULL WHERE spec=?",
                    (response_date, response_date, spec),
                )
        return changed

    def _put(self, db: sqlite3.Connection, r: Record) -> int:
        old = db.execute("SELECT rowid FROM papers WHERE id=?", (r.id,)).fetchone()
        if old is not None:
            self._remove(db, old[0])
        if r.deleted or not r.versions:
            return 1 if old is not None else 0
        authors = json.dumps(r.authors, ensure_ascii=False)
        cur = db.execute(
            "INSERT INTO papers(rowid, id, title, authors, abstract, comments, journal_ref, doi, categories, classes, "
            "published, updated, version, datestamp) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                old[0]
                if old is not None and old[0] // SLOTS == row_base(r.published) // SLOTS
                else _free(db, r.published),
                r.id,
                r.title,
                authors,
                r.abstract,
                r.comments,
                r.journal_ref,
                r.doi,
                " ".join(r.categories),
                json.dumps(r.classes),
                r.published,
                r.updated,
                r.versions[-1].version,
                r.datestamp,
            ),
        )
        rowid = cur.lastrowid
        db.executemany(
            "INSERT INTO versions(paper, version, date, size) VALUES (?,?,?,?)",
            [(rowid, v.version, v.date, v.size) for v in r.versions],
        )
        db.executemany(
            "INSERT OR IGNORE INTO cats(cat, paper, published) VALUES (?,?,?)",
            [(c.lower(), rowid, r.published) for c in r.categories],
        )
        if self.fts:
            db.execute(
                "INSERT INTO fts(rowid, title, authors, abstract, comments, journal_ref, categories) "
                "VALUES (?,?,?,?,?,?,?)",
                (
                    rowid,
                    r.title,
                    " ; ".join(r.authors),
                    r.abstract,
                    r.comments or "",
                    r.journal_ref or "",
                    words.cat_tokens(r.categories),
                ),
            )
        return 1

    def _remove(self, db: sqlite3.Connection, rowid: int) -> None:
        if self.fts:
            title, authors, abstract, comments, journal, cats = db.execute(
                "SELECT title, authors, abstract, comments, journal_ref, categories FROM papers WHERE rowid=?", (rowid,)
            ).fetchone()
            db.execute(
                "INSERT INTO fts(fts, rowid, title, authors, abstract, comments, journal_ref, categories) "
                "VALUES ('delete',?,?,?,?,?,?,?)",
                (
                    rowid,
                    title,
                    " ; ".join(json.loads(authors)),
                    abstract,
                    comments or "",
                    journal or "",
                    words.cat_tokens(cats.split()),
                ),
            )
        db.execute("DELETE FROM versions WHERE paper=?", (rowid,))
        db.execute("DELETE FROM cats WHERE paper=?", (rowid,))
        db.execute("DELETE FROM papers WHERE rowid=?", (rowid,))

    # --- reading ----------------------------------------------------------------------------

    def papers(self, ids: list[str]) -> dict[str, StoredPaper]:
        """The stored papers among `ids` (versionless), keyed by id."""
        found: dict[str, StoredPaper] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self.db.execute(f"SELECT {_PAPER_COLUMNS} FROM papers WHERE id IN ({marks})", chunk).fetchall()
            found.update((p.id, p) for p in self._papers(rows))
        return found

    def by_rowids(self, rowids: list[int]) -> list[StoredPaper]:
        """Papers in the order of `rowids`."""
        if not rowids:
            return []
        marks = ",".join("?" * len(rowids))
        rows = self.db.execute(f"SELECT {_PAPER_COLUMNS} FROM papers WHERE rowid IN ({marks})", rowids).fetchall()
        by_row = {row[0]: paper for row, paper in zip(rows, self._papers(rows), strict=True)}
        return [by_row[r] for r in rowids if r in by_row]

    def _papers(self, rows: list[tuple[Any, ...]]) -> list[StoredPaper]:
        versions: dict[int, list[Version]] = {}
        if rows:
            marks = ",".join("?" * len(rows))
            for paper, version, date, size in self.db.execute(
                f"SELECT paper, version, date, size FROM versions WHERE paper IN ({marks}) ORDER BY paper, version",
                [r[0] for r in rows],
            ):
                versions.setdefault(paper, []).append(Version(version, date, size))
        return [
            StoredPaper(
                id=r[1],
                title=r[2],
                authors=json.loads(r[3]),
                abstract=r[4],
                comments=r[5],
                journal_ref=r[6],
                doi=r[7],
                categories=r[8].split(),
                classes=json.loads(r[9]),
                published=r[10],
                updated=r[11],
                version=r[12],
                versions=versions.get(r[0], []),
            )
            for r in rows
        ]

    def count_under(self, prefix: str) -> int:
        """Papers listed in an archive (`cs`: any cs.* category) or one category."""
        where, args = _cat_where([prefix])
        return int(self.db.execute(f"SELECT count(DISTINCT paper) FROM cats WHERE {where}", args).fetchone()[0])

    def per_day(self, terms: list[str], day_from: str, day_to: str) -> dict[str, int]:
        """Papers first submitted each day (UTC, from `published`) in any of the categories."""
        where, args = _cat_where(terms)
        rows = self.db.execute(
            f"SELECT substr(published, 1, 10) AS day, count(DISTINCT paper) FROM cats WHERE ({where}) "
            "AND published >= ? AND published < ? GROUP BY day",
            [*args, day_from, day_to + "T99"],
        ).fetchall()
        return dict(rows)

    def titles_between(self, terms: list[str], day_from: str, day_to: str) -> list[str]:
        where, args = _cat_where(terms, "c.cat")
        rows = self.db.execute(
            f"SELECT DISTINCT p.rowid, p.title FROM cats c JOIN papers p ON p.rowid=c.paper WHERE ({where}) "
            "AND c.published >= ? AND c.published < ?",
            [*args, day_from, day_to + "T99"],
        ).fetchall()
        return [t for _, t in rows]

    def size_bytes(self) -> int:
        total = 0
        for suffix in ("", "-wal", "-shm"):
            try:
                total += self.path.with_name(self.path.name + suffix).stat().st_size
            except OSError:
                pass
        return total

    def record_count(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM papers").fetchone()[0])


_PAPER_COLUMNS = (
    "rowid, id, title, authors, abstract, comments, journal_ref, doi, categories, classes, published, updated, version"
)


def _cat_where(terms: list[str], column: str = "cat") -> tuple[str, list[str]]:
    """SQL matching any of arXiv's `cat:` terms (`cs.LG`: it and any `cs.LG.*`; `astro-ph*`:
    every category starting so), as ranges the (cat, paper) index serves."""
    parts, args = [], []
    for term in terms:
        t = term.lower()
        if t.endswith("*"):
            parts.append(f"({column} >= ? AND {column} < ?)")
            args.extend([t[:-1], _after(t[:-1])])
        else:
            parts.append(f"({column} = ? OR ({column} > ? AND {column} < ?))")
            args.extend([t, t + ".", t + "/"])  # "/" follows "." in ASCII: every "t.x"
    return " OR ".join(parts) or "0", args


def _after(prefix: str) -> str:
    """The least string after every string starting with `prefix`."""
    return prefix[:-1] + chr(ord(prefix[-1]) + 1) if prefix else "\uffff"
