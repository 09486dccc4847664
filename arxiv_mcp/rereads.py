"""What warm reads made, kept in memory and used again while the cache proves it current.

A read made from the cache alone (no request, nothing written, the cache's proof in hand:
cache/warm.py) is kept twice by the service: the text a paper id reads (so another page, a
section or a search in the same paper needs no lock and opens no file), and each read_paper
answer keyed by the arguments that chose it (the paper id as given, page, page size,
section), so the same page asked again is the very same answer. Either is used again once
the cache has checked its proof (two `stat`s) and counted the access. When the proof fails
(any process evicted, re-extracted, replaced or dropped the paper, marked another version as
the latest, changed anything else in the index; the file changed; a bare id's metadata
expired) the entry is dropped and the read made as usual, which keeps it again. Sessions are
not the memo's business: the service checks the session and pins on every call, hit or not.
What is kept is shared between calls and threads: callers must not mutate it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

from .cache.store import Cache
from .cache.warm import Proof

TEXTS_KEPT = 8
"""Texts kept: the few papers being read at once (as readmemo.py and reading.py keep theirs);
a text holds its whole document."""
PAGES_KEPT = 16
"""Pages kept (each at most 100,000 characters): a few pages of each of those papers."""


V = TypeVar("V")


class Rereads(Generic[V]):
    def __init__(self, cache: Cache, kept: int) -> None:
        self._cache = cache
        self._kept = kept
        self._entries: OrderedDict[Hashable, tuple[V, Proof]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> tuple[V, Proof] | None:
        """What was kept for `key` and its proof, if the cache proves it current (an access)."""
        with self._lock:
            kept = self._entries.get(key)
        if kept is None:
            return None
        if not self._cache.holds(kept[1]):
            with self._lock:
                if self._entries.get(key) is kept:
                    del self._entries[key]
            return None
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
        return kept

    def keep(self, key: Hashable, value: V, proof: Proof | None) -> None:
        """Keep `value`, made by a read the cache proved (nothing when `proof` is None)."""
        if proof is None:
            return
        with self._lock:
            self._entries[key] = (value, proof)
            self._entries.move_to_end(key)
            while len(self._entries) > self._kept:
                self._entries.popitem(last=False)
