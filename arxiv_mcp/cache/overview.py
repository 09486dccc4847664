"""What the cache tools show and do to the cache as a whole: its size, its listing in pages,
what the local library indexes, clearing, reading every document, a health check.

A part of `store.Cache` kept apart (Cache inherits it): it works on the index mirror, the
sessions and the files that Cache owns, each method under Cache's lock, and reads no paper
file except where it says so (`iter_documents`, `verify`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from ..models import CachedPaper, CacheStats, ClearResult
from . import listing
from .answers import AnswerStore
from .files import decode_meta, decode_text, versioned_id
from .index import IndexState, JournaledIndex
from .records import Forget, Key
from .sessions import SessionStore


class CacheOverview:
    # What Cache provides (see store.py).
    home: Path
    max_papers: int
    max_bytes: int
    _papers: Path
    _index: JournaledIndex
    _sessions: SessionStore
    _answers: AnswerStore
    _clock: Callable[[], float]
    _locked: Callable[[], AbstractContextManager[None]]
    _drop: Callable[[Key, list[str] | None, str], None]

    @property
    def _state(self) -> IndexState:
        return self._index.state

    def stats(self) -> CacheStats:
        """The cache's size against its bounds; `home` is the absolute folder (a rendering may shorten it)."""
        with self._locked():
            self._sessions.expire(self._clock())
            return CacheStats(
                papers=len(self._state.entries),
                bytes=self._state.total_bytes,
                bytes_by_tier=dict(self._state.bytes_by_tier),
                max_papers=self.max_papers,
                max_bytes=self.max_bytes,
                open_sessions=len(self._sessions.sessions),
                home=str(self.home),
                sessions=self._sessions.last_used_first()[:20],
            )

    def list_cached(
        self, *, sort: str = "recent", offset: int = 0, limit: int | None = None, pinned_only: bool = False
    ) -> list[CachedPaper]:
        """Cached paper versions (most recently accessed first by default); see `list_page`."""
        return self.list_page(sort=sort, offset=offset, limit=limit, pinned_only=pinned_only)[0]

    def list_page(
        self, *, sort: str = "recent", offset: int = 0, limit: int | None = None, pinned_only: bool = False
    ) -> tuple[list[CachedPaper], int, int]:
        """A page of cached paper versions (listing.py), the entries the listing has in all
        (after `pinned_only`) and the cached paper versions in all."""
        with self._locked():
            self._sessions.expire(self._clock())
            pins = self._sessions.pins()
            rows, matched = listing.page(
                self._state, pins, sort=sort, offset=offset, limit=limit, pinned_only=pinned_only
            )
            return rows, matched, len(self._state.entries)

    def library_listing(self) -> dict[str, listing.Signature]:
        """What the local library indexes: each paper's newest version with metadata or text."""
        with self._locked():
            return listing.newest_documents(self._state)

    def clear(self, drop_pinned: bool = False) -> ClearResult:
        """Evict every unpinned paper (with drop_pinned, also those pinned by the caller's own
        sessions: another client's pins always stay) and all search answers."""
        with self._locked():
            self._sessions.expire(self._clock())
            pins = self._sessions.pins()
            kept_back = self._sessions.others_pins() if drop_pinned else pins.keys()
            cleared = ClearResult(evicted=[], kept_pinned=[])
            for key, entry in list(self._state.entries.items()):
                if key in kept_back:
                    cleared.kept_pinned.append(versioned_id(*key))
                    continue
                cleared.bytes_freed += entry.bytes
                self._drop(key, None, "clear_cache")
                cleared.evicted.append(versioned_id(*key))
            for paper_id in list(self._state.notes.keys() | self._state.latest.keys()):
                if paper_id not in self._state.by_paper:
                    self._index.append(Forget(paper_id))
            if drop_pinned and pins:
                self._sessions.unpin_all()
            self._answers.clear()
            return cleared

    def iter_documents(
        self, only: set[tuple[str, int]] | None = None
    ) -> Iterator[tuple[str, int, dict[str, Any] | None, str | None]]:
        """(paper_id, version, metadata record, text) of every cached version (or of those in
        `only`), read lazily.

        Reading is not an access: it leaves the eviction order alone.
        """
        with self._locked():
            listing = [
                (key, {tier: self._papers / info.file_name(key, tier) for tier, info in entry.tiers.items()})
                for key, entry in reversed(self._state.entries.items())
                if only is None or key in only
            ]
        for (paper_id, version), paths in listing:
            meta = _read_quietly(paths.get("meta"), paper_id, version, decode_meta)
            text = _read_quietly(paths.get("text"), paper_id, version, decode_text)
            if meta is None and text is None:
                continue
            yield paper_id, version, meta["record"] if meta else None, text["text"] if text else None

    def verify(self) -> list[str]:
        """Problems found by checking every indexed file against its record (empty when healthy)."""
        with self._locked():
            from .recovery import problems  # a health check's: not imported by every first call

            return problems(self._state, self._papers)

    def paper_ids(self, prefix: str = "") -> list[str]:
        """Ids of the cached papers starting with `prefix`, in order (for completions)."""
        with self._locked():
            return sorted(paper_id for paper_id in self._state.by_paper if paper_id.startswith(prefix))


def _read_quietly(
    path: Path | None, paper_id: str, version: int, decode: Callable[[bytes, str, int], dict[str, Any]]
) -> dict[str, Any] | None:
    if path is None:
        return None
    try:
        return decode(path.read_bytes(), paper_id, version)
    except (FileNotFoundError, ValueError):
        return None
