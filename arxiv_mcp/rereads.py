"""Warm read_paper answers kept in memory, served again while the cache proves them current.

A page read from the cache alone (no request, nothing written, the cache's proof in hand:
cache/warm.py) is kept, keyed by the arguments that chose it (the paper id as given, page,
page size, section). Asked again, it is served once the cache has checked its proof (two
`stat`s, no lock, no file opened) and counted the access. When the proof fails (any process
evicted, re-extracted, replaced or dropped the paper, marked another version as the latest,
changed anything else in the index; the file changed; a bare id's metadata expired) the
entry is dropped and the page is read as usual, which keeps it again. Sessions are not the
memo's business: the service checks the session and pins on every call, hit or not.
Answers are shared between calls: callers must not mutate them.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

from .cache.store import Cache
from .cache.warm import Proof, Stamp
from .reading import Text

KEPT = 32
"""Answers kept: the pages of the few papers being read at once."""


class Rereads:
    def __init__(self, cache: Cache, kept: int = KEPT) -> None:
        self._cache = cache
        self._kept = kept
        self._answers: OrderedDict[Hashable, tuple[Any, Proof]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, asked: Hashable) -> Any | None:
        """The answer kept for `asked` if the cache proves it current (an access), else None."""
        with self._lock:
            kept = self._answers.get(asked)
        if kept is None:
            return None
        if not self._cache.holds(kept[1]):
            with self._lock:
                if self._answers.get(asked) is kept:
                    del self._answers[asked]
            return None
        with self._lock:
            if asked in self._answers:
                self._answers.move_to_end(asked)
        return kept[0]

    def keep(self, asked: Hashable, answer: Any, full: Text, since: Stamp | None) -> None:
        """Keep `answer`, made from `full` by a read that began when the index was `since`,
        if that read was made from the cache alone and nothing changed meanwhile."""
        proof = self._cache.proof(full.origin, since, full.until)
        if proof is None:
            return
        with self._lock:
            self._answers[asked] = (answer, proof)
            self._answers.move_to_end(asked)
            while len(self._answers) > self._kept:
                self._answers.popitem(last=False)
