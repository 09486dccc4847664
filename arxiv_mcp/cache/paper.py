"""What the cache knows of a paper as a whole, not of one version: the versions it holds,
the version marked latest, and the paper's notes (small JSON values other layers keep with it).

A reader asks for all of it at once (`paper`): one `PaperRecord`, read under one holding of
the lock, so a read's choices (which version, which sources are known to be missing) rest on
one consistent view and cost one lock, not one per question. A part of `store.Cache` kept
apart (Cache inherits it); it works on the index mirror Cache owns, under Cache's lock.

Keys are `ids.PaperId`s, valid by construction: nothing here checks an id again. A paper's
facts are per paper, so a key's version, if any, is ignored.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..ids import PaperId
from .disk import best_effort
from .index import IndexState, JournaledIndex
from .records import Note

MAX_NOTE_BYTES = 16384


@dataclass(frozen=True)
class PaperRecord:
    """One paper as the cache knows it at one moment."""

    versions: tuple[int, ...] = ()
    """The versions with anything cached, in order."""
    latest: tuple[int, float] | None = None
    """The version last marked as the paper's latest, and until when (cache clock) that mark
    is fresh (the metadata TTL after it was made)."""
    notes: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    """The paper's notes by name (read-only: a note is changed through `put_note`)."""
    at: float = 0.0
    """When it was read (cache clock)."""

    def note(self, name: str) -> Any | None:
        return self.notes.get(name)

    @property
    def fresh_latest(self) -> int | None:
        """The version marked latest, while that mark is fresh (as `get_meta` of a bare id)."""
        return self.latest[0] if self.latest is not None and self.at < self.latest[1] else None


class PaperFacts:
    """The per-paper part of `store.Cache`."""

    # What Cache provides (see store.py).
    meta_ttl_s: float
    _index: JournaledIndex
    _clock: Callable[[], float]
    _locked: Callable[[], AbstractContextManager[None]]

    @property
    def _state(self) -> IndexState:
        return self._index.state

    def paper(self, pid: PaperId) -> PaperRecord:
        """Everything the cache knows of `pid`'s paper, read at once."""
        with self._locked():
            versions = self._state.by_paper.get(pid.id)
            mark = self._state.latest.get(pid.id)
            notes = self._state.notes.get(pid.id)
            return PaperRecord(
                tuple(sorted(versions)) if versions else (),
                None if mark is None else (mark[0], mark[1] + self.meta_ttl_s),
                MappingProxyType(dict(notes)) if notes else MappingProxyType({}),
                self._clock(),
            )

    def versions(self, pid: PaperId) -> list[int]:
        """Versions of a paper with anything cached."""
        return list(self.paper(pid).versions)

    def get_note(self, pid: PaperId, name: str) -> Any | None:
        with self._locked():
            return self._state.notes.get(pid.id, {}).get(name)

    def put_note(self, pid: PaperId, name: str, value: Any) -> None:
        """Keep a small JSON value with a paper (None deletes it); gone when the paper is evicted.

        A hint for later calls: when the disk refuses it, a warning is logged and nothing else fails.
        """
        if not isinstance(name, str) or not 1 <= len(name) <= 64:
            raise ValueError("a note key is a string of 1 to 64 characters")
        try:
            size = len(json.dumps(value))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"a note value must be JSON: {exc}") from None
        if size > MAX_NOTE_BYTES:
            raise ValueError(f"a note value may take at most {MAX_NOTE_BYTES} bytes as JSON")
        with best_effort(f"a note on {pid.id}"), self._locked():
            self._index.append(Note(pid.id, name, value))
