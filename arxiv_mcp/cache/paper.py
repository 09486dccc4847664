"""What the cache knows of a paper as a whole, not of one version: the versions it holds,
the version marked latest, and the paper's notes (small JSON values other layers keep with it).

A reader asks for all of it at once (`paper`): one `PaperRecord`, read under one holding of
the lock, so a read's choices (which version, which sources are known to be missing) rest on
one consistent view and cost one lock, not one per question. A part of `store.Cache`, on the
`Ledger` it shares: it reads the index mirror and journals notes under the ledger's lock.

Keys are `ids.PaperId`s, valid by construction: nothing here checks an id again. A paper's
facts are per paper, so a key's version, if any, is ignored.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..ids import PaperId
from .disk import best_effort
from .ledger import Ledger
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
    """The per-paper part of `store.Cache`: a paper's versions, latest mark and notes."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def paper(self, pid: PaperId) -> PaperRecord:
        """Everything the cache knows of `pid`'s paper, read at once."""
        ledger = self.ledger
        with ledger.locked():
            state = ledger.state
            versions = state.by_paper.get(pid.id)
            notes = state.notes.get(pid.id)
            return PaperRecord(
                tuple(sorted(versions)) if versions else (),
                ledger.latest(pid.id),
                MappingProxyType(dict(notes)) if notes else MappingProxyType({}),
                ledger.clock(),
            )

    def versions(self, pid: PaperId) -> list[int]:
        """Versions of a paper with anything cached."""
        return list(self.paper(pid).versions)

    def get_note(self, pid: PaperId, name: str) -> Any | None:
        with self.ledger.locked():
            return self.ledger.state.notes.get(pid.id, {}).get(name)

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
        with best_effort(f"a note on {pid.id}"), self.ledger.locked():
            self.ledger.index.append(Note(pid.id, name, value))
