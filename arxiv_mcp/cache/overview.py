"""What the cache tools show and do to the cache as a whole: its size, its listing in pages,
what the local library indexes, clearing, reading every document, a health check.

A part of `store.Cache`, on the `Ledger` it shares: it works on the index mirror, the
sessions and the files, each method under the ledger's lock, and reads no paper file except
where it says so (`iter_documents`, `verify`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ..models import CachedPaper, CacheStats, ClearResult
from . import listing
from .answers import AnswerStore
from .files import decode_meta, decode_text, versioned_id
from .ledger import Ledger
from .records import Forget


class CacheOverview:
    """The cache as a whole, as the cache tools show it and clear it."""

    def __init__(self, ledger: Ledger, answers: AnswerStore) -> None:
        self.ledger = ledger
        self.answers = answers

    def stats(self) -> CacheStats:
        """The cache's size against its bounds; `home` is the absolute folder (a rendering may shorten it)."""
        ledger = self.ledger
        with ledger.locked():
            ledger.sessions.expire(ledger.clock())
            return CacheStats(
                papers=len(ledger.state.entries),
                bytes=ledger.state.total_bytes,
                bytes_by_tier=dict(ledger.state.bytes_by_tier),
                max_papers=ledger.max_papers,
                max_bytes=ledger.max_bytes,
                open_sessions=len(ledger.sessions.sessions),
                home=str(ledger.home),
                sessions=ledger.sessions.last_used_first()[:20],
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
        ledger = self.ledger
        with ledger.locked():
            ledger.sessions.expire(ledger.clock())
            pins = ledger.sessions.pins()
            rows, matched = listing.page(
                ledger.state, pins, sort=sort, offset=offset, limit=limit, pinned_only=pinned_only
            )
            return rows, matched, len(ledger.state.entries)

    def library_listing(self) -> dict[str, listing.Signature]:
        """What the local library indexes: each paper's newest version with metadata or text."""
        with self.ledger.locked():
            return listing.newest_documents(self.ledger.state)

    def clear(self, drop_pinned: bool = False) -> ClearResult:
        """Evict every unpinned paper (with drop_pinned, also those pinned by the caller's own
        sessions: another client's pins always stay) and all search answers."""
        ledger = self.ledger
        with ledger.locked():
            ledger.sessions.expire(ledger.clock())
            pins = ledger.sessions.pins()
            kept_back = ledger.sessions.others_pins() if drop_pinned else pins.keys()
            cleared = ClearResult(evicted=[], kept_pinned=[])
            for key, entry in list(ledger.state.entries.items()):
                if key in kept_back:
                    cleared.kept_pinned.append(versioned_id(*key))
                    continue
                cleared.bytes_freed += entry.bytes
                ledger.drop(key, None, "clear_cache")
                cleared.evicted.append(versioned_id(*key))
            for paper_id in list(ledger.state.notes.keys() | ledger.state.latest.keys()):
                if paper_id not in ledger.state.by_paper:
                    ledger.index.append(Forget(paper_id))
            if drop_pinned and pins:
                ledger.sessions.unpin_all()
            self.answers.clear()
            return cleared

    def iter_documents(
        self, only: set[tuple[str, int]] | None = None
    ) -> Iterator[tuple[str, int, dict[str, Any] | None, str | None]]:
        """(paper_id, version, metadata record, text) of every cached version (or of those in
        `only`), read lazily.

        Reading is not an access: it leaves the eviction order alone.
        """
        with self.ledger.locked():
            listing = [
                (key, {tier: self.ledger.papers / info.file_name(key, tier) for tier, info in entry.tiers.items()})
                for key, entry in reversed(self.ledger.state.entries.items())
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
        with self.ledger.locked():
            from .recovery import problems  # a health check's: not imported by every first call

            return problems(self.ledger.state, self.ledger.papers)

    def paper_ids(self, prefix: str = "") -> list[str]:
        """Ids of the cached papers starting with `prefix`, in order (for completions)."""
        with self.ledger.locked():
            return sorted(paper_id for paper_id in self.ledger.state.by_paper if paper_id.startswith(prefix))


def _read_quietly(
    path: Path | None, paper_id: str, version: int, decode: Callable[[bytes, str, int], dict[str, Any]]
) -> dict[str, Any] | None:
    if path is None:
        return None
    try:
        return decode(path.read_bytes(), paper_id, version)
    except (FileNotFoundError, ValueError):
        return None
