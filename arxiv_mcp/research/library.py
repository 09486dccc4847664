"""The local library: ranked search over the papers already in the cache, offline.

The BM25F index is kept in `library.idx` beside the cache index, so a new process loads it
(a fraction of a second at 10,000 papers) instead of reading every paper again. It is derived
data, checked against the cache rather than trusted: each search compares the cache's listing
(index work only, no file reads) with what the index holds, by version and the checksums of
the metadata and text files, and reads the files of just the papers that arrived, changed
(re-fetched, re-extracted) or went. One entry per paper: its newest cached version.

The file is rewritten whole (temporary file, rename) once enough has changed since it was
written, so several processes on one home may rewrite it in turn: each file is complete and
each reader checks it against the cache anyway. A missing, damaged (checksum) or foreign file,
or one of an older format, is rebuilt from the paper files, and so is one whose checksum holds
but whose contents lie (ids or terms repeated, runs out of order, found at load; postings
naming papers the file lacks and snippet sources that are not UTF-8, found when first read).
A crash loses at most the unsaved changes, which the next search of any process redoes.
"""

from __future__ import annotations

import logging
import threading

from ..cache.atomic import write_atomic
from ..cache.files import heading_title
from ..cache.index import collector_paused
from ..cache.listing import Signature
from ..cache.store import Cache
from ..models import LibraryHit
from .local_search import IndexLies, LocalIndex

logger = logging.getLogger(__name__)

INDEX_FILE = "library.idx"
SAVE_AFTER = 20
"""Papers indexed or forgotten since the file was written that make a search rewrite it: a new
process re-reads at most this many papers, and a busy cache is not rewritten on every call."""


class Library:
    def __init__(self, cache: Cache):
        self.cache = cache
        self.path = cache.home / INDEX_FILE
        self.index = LocalIndex()
        self._indexed: dict[str, Signature] = {}
        self._loaded = False
        self._unsaved = 0
        self._lock = threading.Lock()

    def search(self, query: str, limit: int) -> list[LibraryHit]:
        """The best `limit` cached papers for `query`, best first (scores rounded for display)."""
        with self._lock:
            try:
                return self._search(query, limit)
            except IndexLies as lie:  # the loaded file lied where a load does not look: rebuild
                logger.warning("the library index %s is unsound (%s); rebuilding it from the papers", self.path, lie)
                self.index, self._indexed, self._unsaved = LocalIndex(), {}, SAVE_AFTER
                return self._search(query, limit)

    def _search(self, query: str, limit: int) -> list[LibraryHit]:
        self._sync()
        return [
            LibraryHit(pid, self._indexed[pid][0], self.index.title(pid) or None, round(score, 3), snippet)
            for pid, score, snippet in self.index.search(query, limit)
        ]

    def _sync(self) -> None:
        if not self._loaded:
            self._load()
        wanted = self.cache.library_listing()
        if not self._unsaved and wanted == self._indexed:  # the usual case: no checksum hashed
            return
        gone = self._indexed.keys() - wanted.keys()  # set operations on the views: C speed
        for pid in gone:
            self.index.remove(pid)
            del self._indexed[pid]
        changed = {(pid, sig[0]) for pid, sig in wanted.items() - self._indexed.items()}
        for pid, _version, record, text in self.cache.iter_documents(changed) if changed else ():
            record = record or {}
            plain = _plain(text)
            self.index.add(
                pid,
                title=record.get("title") or heading_title(plain) or "",
                abstract=record.get("abstract", ""),
                authors=" ".join(a.get("name", "") for a in record.get("authors", [])),
                text=plain,
            )
            self._indexed[pid] = wanted[pid]
        self._unsaved += len(gone) + len(changed)
        if self._unsaved >= SAVE_AFTER or (self._unsaved and not self.path.exists()):
            self._save()

    def _load(self) -> None:
        """Start from the library file when it is there and whole; otherwise from nothing."""
        self._loaded = True
        try:
            with collector_paused():  # tens of thousands of lasting objects (cache/index.py)
                index, indexed = LocalIndex.load(self.path)
        except FileNotFoundError:
            return
        except OSError as exc:
            logger.warning("could not read the library index %s (%s); rebuilding it", self.path, exc)
            return
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
            logger.warning("the library index %s is unreadable (%s); rebuilding it from the papers", self.path, exc)
            self._unsaved = SAVE_AFTER  # the rebuilt index replaces the file at once
            return
        self.index, self._indexed = index, indexed

    def _save(self) -> None:
        data = self.index.to_bytes(self._indexed)
        try:
            write_atomic(self.path, data, self.cache.home / "tmp", durable=False)
        except OSError as exc:  # derived data: the next search of any process tries again
            logger.warning("could not write the library index %s (%s)", self.path, exc)
            return
        self._unsaved = 0


def _plain(payload: str | None) -> str:
    """The words of a cached text: the cache keeps a version's document (its JSON form); a
    payload of an older extractor is plain text (indexed as is until it is re-made)."""
    if not payload:
        return ""
    from ..text.document import Document  # only when texts are indexed, not for every search

    try:
        return Document.from_json(payload).text
    except ValueError:
        return payload
