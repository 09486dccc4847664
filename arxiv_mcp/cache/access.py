"""Access times of cached entries, batched: a warm read writes nothing to disk.

A read moves its entry to the recent end of this process's mirror at once (so this process's
evictions see it) and keeps the access here; the accesses reach the journal, and so the other
processes, together: at the next change this process journals anyway, once the oldest is
ACCESS_FLUSH_S old, or when the cache is closed. Nothing is fsync'ed on the way. What a crash
can lose is only those unjournaled accesses, that is eviction order (least recently used),
never a file or an entry.

A warm read answered without the lock (warm.py) keeps its access aside (`later`, any thread):
it reaches the mirror at the next holding of the lock (`absorb`, before anything is evicted)
and then goes the same way.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from .index import IndexState
from .records import Key, Operation, Touch

ACCESS_FLUSH_S = 5.0
# A hit on the most recently accessed entry within this many seconds is not noted again.
TOUCH_STEP_S = 1.0


class AccessLog:
    def __init__(self) -> None:
        self._pending: dict[Key, float] = {}
        self._oldest = 0.0
        self._later: dict[Key, float] = {}
        self._later_since = 0.0
        self._later_lock = threading.Lock()

    def note(self, state: IndexState, key: Key, now: float) -> None:
        """Count an access to `key` (which `state` holds) in this process's mirror."""
        entries = state.entries
        if next(reversed(entries)) == key and now - entries[key].last_access < TOUCH_STEP_S:
            return
        if not self._pending:
            self._oldest = now
        self._pending[key] = now
        entries[key].last_access = now
        entries.move_to_end(key)

    def later(self, key: Key, now: float) -> None:
        """Count an access made without the cache lock; `absorb` applies it."""
        with self._later_lock:
            if not self._later:
                self._later_since = now
            self._later[key] = now

    def absorb(self, state: IndexState) -> None:
        """Apply the accesses kept by `later` to the mirror (needs the lock)."""
        with self._later_lock:
            later, self._later, since = self._later, {}, self._later_since
        for key, when in later.items():
            entry = state.entries.get(key)
            if entry is not None and entry.last_access < when:
                self.note(state, key, when)
        if later and self._pending:  # the batch is as old as the first access kept aside
            self._oldest = min(self._oldest, since)

    def due(self, now: float) -> bool:
        if self._later and now - self._later_since >= ACCESS_FLUSH_S:
            return True
        return bool(self._pending) and now - self._oldest >= ACCESS_FLUSH_S

    def flush(self, state: IndexState, append: Callable[[Operation], None]) -> None:
        """Journal the pending accesses of entries still cached (needs the lock)."""
        pending, self._pending = self._pending, {}
        for key, when in pending.items():
            if key in state.entries:
                append(Touch(key, when))
