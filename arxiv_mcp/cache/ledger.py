"""The cache's bookkeeping: the home's lock, the journaled index it guards, the sessions and
their pins, the batched access times, and eviction (least recently accessed first, pinned
papers never).

A part of `store.Cache` (it owns one `Ledger`, which the other parts share). Every change to
the index happens inside `locked()`, which first catches up with other processes' journal
lines and sessions, and reconciles the index with the files when the previous holder died
mid-update; an entry is unrecorded before its files are removed (`drop`). It reads no tier
file: tiers.py writes and reads those.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from .. import errors
from ..ids import PaperId
from ..models import SessionInfo
from .access import AccessLog
from .atomic import clean_stale_tmp, discard
from .disk import write_failure
from .eviction import evict
from .filelock import BOOT_ID, ProcessLock
from .files import TIERS, versioned_id
from .home import prepare as prepare_home
from .home import unusable as home_unusable
from .index import IndexState, JournaledIndex
from .records import Drop, Key
from .sessions import SessionStore

logger = logging.getLogger(__name__)


class Ledger:
    """The lock, the index (and how long its latest-version marks stay fresh), sessions and
    pins, access times and eviction of one cache home."""

    def __init__(
        self,
        home: Path,
        *,
        max_papers: int,
        max_bytes: int,
        meta_ttl_s: float,
        session_ttl_s: float,
        clock: Callable[[], float],
    ) -> None:
        self.home = home
        self.papers = home / "papers"
        self.tmp = home / "tmp"
        self.max_papers = max_papers
        self.max_bytes = max_bytes
        self.meta_ttl_s = meta_ttl_s
        self.clock = clock
        prepare_home(home)
        try:
            self.lock = ProcessLock(home / ".lock")
        except OSError as exc:
            raise home_unusable(home, exc) from None
        self.index = JournaledIndex(home, self.tmp)
        self.sessions = SessionStore(home / "sessions.json", self.tmp, session_ttl_s)
        # Without a boot id a power cut cannot be told apart, so the files are checked on every start.
        self.index.needs_reconcile = BOOT_ID is None
        # Nothing that grows with the cache is read here, so a server answers `initialize` at
        # once: the index is loaded (and recovered, compacted, tidied) by the first call that
        # takes the lock, and any other call waits for it on the lock.
        self.started = False
        self.access = AccessLog()
        self.index.before_writing = self.flush_accesses

    @property
    def state(self) -> IndexState:
        return self.index.state

    def close(self) -> None:
        """Journal the batched accesses and release the open files; the home stays usable."""
        if self.access.due(float("inf")):
            with contextlib.suppress(errors.ArxivMcpError, OSError), self.locked():
                self.flush_accesses()
        self.release_files()

    def release_files(self) -> None:
        self.index.close()
        self.sessions.close()
        self.lock.close()

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the cache lock, having caught up with other processes' changes first.

        If the previous holder died mid-update (or the machine rebooted), or the index was
        damaged, the index is first reconciled with the files. An unexpected exception here
        leaves that mark for the next holder; refused input is raised before any change.
        """
        outermost = self.lock.acquire()
        finished = False
        try:
            if outermost:
                self.index.refresh()
                self.sessions.refresh()
                if self.lock.interrupted or self.index.needs_reconcile:
                    self._reconcile()
                self.access.absorb(self.state)
                if not self.started:
                    self._first_use()
            yield
            if outermost:
                if self.access.due(self.clock()):
                    self.flush_accesses()
                self._compact_if_long()
            finished = True
        except (errors.ArxivMcpError, ValueError):
            finished = True
            raise
        except OSError as exc:
            if not outermost:
                raise  # the outermost holder converts it, leaving the mark for the next holder
            raise write_failure(exc) from None
        finally:
            if outermost:
                self.index.release()  # on Windows no cache file stays open outside the lock
            self.lock.release(finished=finished)

    def _first_use(self) -> None:
        """What a new Cache does once, under the lock: clear a killed writer's temporary files
        and apply the bounds (they may have been lowered since the last run)."""
        self.started = True
        clean_stale_tmp(self.tmp)
        self.evict()

    def _compact_if_long(self) -> None:
        """Fold a long journal; on a full disk it stays long (and correct) until there is room."""
        try:
            self.index.compact_if_long()
        except OSError as exc:
            logger.warning("could not compact the cache journal (%s); it is kept as it is", exc)

    def latest(self, paper_id: str) -> tuple[int, float] | None:
        """The version last marked as the paper's latest, and until when (cache clock) that mark
        is fresh: the metadata TTL after it was made. Read under the lock."""
        mark = self.state.latest.get(paper_id)
        return None if mark is None else (mark[0], mark[1] + self.meta_ttl_s)

    def touch(self, key: Key) -> None:
        self.access.note(self.state, key, self.clock())

    def flush_accesses(self) -> None:
        """Journal the batched accesses (access.py); a read never fails for want of room."""
        try:
            self.access.flush(self.state, self.index.append)
        except OSError as exc:
            logger.warning("could not note accesses in the cache journal (%s)", exc)

    def drop(self, key: Key, tiers: list[str] | None, reason: str) -> None:
        """Unrecord tiers of an entry (all of it when None), then remove their files."""
        entry = self.state.entries.get(key)
        if entry is None:
            return
        present = [t for t in (tiers or TIERS) if t in entry.tiers]
        if not present:
            return
        names = [entry.tiers[tier].file_name(key, tier) for tier in present]
        logger.info("evicting %s tiers=%s (%s)", versioned_id(*key), ",".join(present) if tiers else "all", reason)
        self.index.append(Drop(key, None if tiers is None else tuple(tiers)))
        for name in names:
            discard(self.papers / name)

    def evict(self, protect: Key | None = None) -> None:
        """Enforce the bounds (eviction.py), pinned papers never evicted."""
        self.sessions.expire(self.clock())
        pinned = set(self.sessions.pins())
        evict(self.state, self.max_papers, self.max_bytes, pinned, protect, self.drop)

    def _reconcile(self) -> None:
        from .recovery import reconcile  # rarely needed: not imported by every first call

        adopted = reconcile(self.index, self.papers)
        if adopted:
            logger.warning(_ADOPTED, adopted, self.papers)
            self.evict()

    # ----- sessions and pins -----------------------------------------------------------------

    def start_session(self, session_id: str | None = None) -> SessionInfo:
        """Open a session (or return the open one of that id); its pins keep papers from eviction."""
        with self.locked():
            return self.sessions.start(session_id, self.clock())

    def end_session(self, session_id: str) -> SessionInfo:
        """Close a session and release its pins (papers pinned by other sessions stay pinned).

        Returns the session as it was, no longer open; `pinned` lists the released pins.
        """
        with self.locked():
            ended = self.sessions.end(session_id, self.clock())
            self.evict()
            return ended

    def session_status(self, session_id: str) -> SessionInfo:
        with self.locked():
            return self.sessions.status(session_id, self.clock())

    def pin(self, session_id: str, pid: PaperId) -> None:
        """Keep a paper version from eviction while the session is open (it may be cached later)."""
        key = version_key(pid)
        with self.locked():
            self.sessions.pin(session_id, key, self.clock())


_ADOPTED = (
    "the cache index did not know %d file(s) in %s; adopted them (they count against "
    "ARXIV_MCP_MAX_DISK_MB, and clear_cache removes them)"
)


def paper_key(pid: PaperId) -> str:
    """The id of a key. A PaperId is valid by construction (ids.py): its type is all there is
    left to check, so nothing a caller passes can name a path outside the cache."""
    if type(pid) is not PaperId:
        raise ValueError(f"a cache key is an ids.PaperId, not {pid!r}")
    return pid.id


def version_key(pid: PaperId) -> Key:
    """The index key of a paper version: tiers are kept per exact version."""
    paper_id = paper_key(pid)
    if pid.version is None:
        raise ValueError(f"a cache tier belongs to one version; {pid} names none")
    return paper_id, pid.version
