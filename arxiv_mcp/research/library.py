"""The local library: ranked search over the papers already in the cache, offline.

The BM25F index lives in memory and follows the cache: each search first compares the
cache's listing (index work only, no file reads) with what is indexed, and reads the files
of just the papers that arrived or changed. One entry per paper: its newest cached version.
"""

from __future__ import annotations

import threading

from ..cache.store import Cache
from ..models import LibraryHit
from ..text.document import Document
from .local_search import LocalIndex


class Library:
    def __init__(self, cache: Cache):
        self.cache = cache
        self.index = LocalIndex()
        self._indexed: dict[str, tuple[int, bool]] = {}  # paper id -> (version, has text)
        self._titles: dict[str, str] = {}
        self._lock = threading.Lock()

    def _sync(self) -> None:
        wanted: dict[str, tuple[int, bool]] = {}
        for entry in self.cache.list_cached():
            if "meta" not in entry.tiers and "text" not in entry.tiers:
                continue
            sig = (entry.version, "text" in entry.tiers)
            if sig > wanted.get(entry.paper_id, (0, False)):
                wanted[entry.paper_id] = sig
        for pid in set(self._indexed) - set(wanted):
            self.index.remove(pid)
            del self._indexed[pid]
            self._titles.pop(pid, None)
        changed = {(pid, sig[0]) for pid, sig in wanted.items() if self._indexed.get(pid) != sig}
        if not changed:
            return
        for pid, _version, record, text in self.cache.iter_documents(changed):
            record = record or {}
            self._titles[pid] = record.get("title", "")
            self.index.add(
                pid,
                title=record.get("title", ""),
                abstract=record.get("abstract", ""),
                authors=" ".join(a.get("name", "") for a in record.get("authors", [])),
                text=_plain(text),
            )
            self._indexed[pid] = wanted[pid]

    def search(self, query: str, limit: int) -> list[LibraryHit]:
        """The best `limit` cached papers for `query`, best first (scores rounded for display)."""
        with self._lock:
            self._sync()
            return [
                LibraryHit(pid, self._indexed[pid][0], self._titles.get(pid) or None, round(score, 3), snippet)
                for pid, score, snippet in self.index.search(query, limit)
            ]


def _plain(payload: str | None) -> str:
    """The words of a cached text: the cache keeps a version's document (its JSON form); a
    payload of an older extractor is plain text (indexed as is until it is re-made)."""
    if not payload:
        return ""
    try:
        return Document.from_json(payload).text
    except ValueError:
        return payload
