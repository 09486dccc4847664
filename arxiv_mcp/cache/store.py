"""The three-tier disk cache: metadata, extracted text and raw files of paper versions.

Layout under the cache home:
  papers/     one file per tier and paper version (`2401.12345v2.meta.json`, `.text.json`,
              `.pdf`, `.source[.gz|.tar|.pdf]`), each written whole (temporary file + rename)
  searches/   short-lived answers (searches, trends, Semantic Scholar), one file per key (answers.py)
  tmp/        temporary files being written
  index.json, journal.jsonl   the index (see index.py)
  sessions.json               open sessions and their pins (see sessions.py)
  .lock       flock'ed around every index change, so server processes can share the home

The index is a mirror of `papers/`: a file is renamed into place and then recorded, under the
lock; an entry is unrecorded and then its file removed. A process killed in between leaves a
whole file the index does not know, and a mark in the lock file; the next holder of the lock
sees the mark and reconciles the index with the files (recovery.py: adopting whole unknown
files, forgetting missing ones). So the cache always loads, serves only whole entries and loses
nothing except by the eviction rules.

Eviction (after every insert) follows eviction.py: least recently accessed first, pinned papers
never, the entry just inserted only as a last resort.

Every tier's size and sha256 are in the index, so a file that no longer matches is dropped,
not served. A write the disk refuses is one CacheWriteFailed that names the cause and the fix.

Callers name a paper or a paper version by an `ids.PaperId`, valid by construction (made by
`ids.parse` at the tool's boundary, or checked when made from parts): file names are built
from it without checking it again. What the cache reads back from disk (file names, index
lines, snapshot rows) it checks itself.

`Cache` is made of parts it owns, one concern each, and its methods are theirs: `Ledger`
(ledger.py: the lock, the index, sessions and pins, access times, eviction), which the others
share; `TierFiles` (tiers.py: each tier's file written whole and read back checked);
`PaperFacts` (paper.py: a paper as a whole, one `PaperRecord` per read); `CacheOverview`
(overview.py: the cache as the cache tools show it); `WarmChecks` (warm.py: proofs that a warm
read holds); `AnswerStore` (answers.py: short-lived answers).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .answers import AnswerStore
from .disk import best_effort
from .ledger import Ledger
from .overview import CacheOverview
from .paper import PaperFacts
from .tiers import CachedMeta, CachedRaw, CachedText, CacheFull, TierFiles
from .warm import WarmChecks

__all__ = ["Cache", "CacheFull", "CachedMeta", "CachedRaw", "CachedText"]


class Cache:
    """One cache home, through the parts it is made of (see above)."""

    def __init__(
        self,
        home: Path,
        *,
        max_papers: int = 200,
        max_bytes: int = 2048 * 2**20,
        meta_ttl_s: float = 86400,
        session_ttl_s: float = 604800,
        clock: Callable[[], float] = time.time,
    ):
        if type(max_papers) is not int or max_papers < 1:
            raise ValueError(f"max_papers must be a positive integer, not {max_papers!r}")
        if type(max_bytes) is not int or max_bytes < 1:
            raise ValueError(f"max_bytes must be a positive integer, not {max_bytes!r}")
        if not meta_ttl_s >= 0 or not session_ttl_s > 0:
            # A TTL of 0 (ARXIV_MCP_META_TTL_S=0) makes every "latest" lookup ask arXiv again,
            # the old answer still served, marked stale, when arXiv cannot be reached.
            raise ValueError("meta_ttl_s must be >= 0 and session_ttl_s positive")
        self.home = Path(home).expanduser().absolute()
        ledger = self.ledger = Ledger(
            self.home,
            max_papers=max_papers,
            max_bytes=max_bytes,
            meta_ttl_s=meta_ttl_s,
            session_ttl_s=session_ttl_s,
            clock=clock,
        )
        tiers = self.tiers = TierFiles(ledger)
        self.answers = AnswerStore(
            self.home / "searches", lambda payload: tiers.stage(payload, durable=False), ledger.locked, clock
        )
        papers, warm = PaperFacts(ledger), WarmChecks(ledger)
        overview = CacheOverview(ledger, self.answers)
        # Its methods are its parts' own, under the names callers know.
        self.get_meta = tiers.get_meta
        self.put_meta = tiers.put_meta
        self.get_text = tiers.get_text
        self.put_text = tiers.put_text
        self.get_raw = tiers.get_raw
        self.put_raw = tiers.put_raw
        self.raw_records = tiers.raw_records
        self.paper = papers.paper
        self.versions = papers.versions
        self.get_note = papers.get_note
        self.put_note = papers.put_note
        self.start_session = ledger.start_session
        self.end_session = ledger.end_session
        self.session_status = ledger.session_status
        self.pin = ledger.pin
        self.stats = overview.stats
        self.list_cached = overview.list_cached
        self.list_page = overview.list_page
        self.library_listing = overview.library_listing
        self.clear = overview.clear
        self.iter_documents = overview.iter_documents
        self.verify = overview.verify
        self.paper_ids = overview.paper_ids
        self.index_stamp = warm.index_stamp
        self.proof = warm.proof
        self.holds = warm.holds

    def get_search(self, key: str) -> dict[str, Any] | None:
        """A stored answer (a search, trends or Semantic Scholar page), as the JSON it was put."""
        return self.answers.get(key)

    def put_search(self, key: str, value: dict[str, Any], ttl_s: float) -> None:
        """Keep an answer for `ttl_s` seconds (see answers.py). When the disk refuses it, a
        warning is logged and the answer is simply not remembered."""
        with best_effort("a search answer"):
            self.answers.put(key, value, ttl_s)

    @property
    def meta_ttl_s(self) -> float:
        """How long metadata stays fresh (ARXIV_MCP_META_TTL_S): a paper's "latest version" mark
        (the ledger keeps it) and the answers the catalog stores."""
        return self.ledger.meta_ttl_s

    def close(self) -> None:
        """Release this object's open files; the cache home stays usable by other Cache objects."""
        self.ledger.close()

    def __enter__(self) -> Cache:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __del__(self) -> None:
        if hasattr(self, "ledger"):
            self.ledger.release_files()
