"""Cross-process locks whose waits are bounded and whose holders cannot wedge the others.

`LeasedLock` is an OS file lock (`oslock`: flock on POSIX, msvcrt on Windows) with a lease:
the holder writes its pid and the wall-clock moment its lease runs out (its call's deadline
plus a grace: a live holder never holds past it) into the lock file. A waiter polls, so its
wait ends at its own call's deadline or cancellation with `Busy` ("locked by another process
(pid N), retry in N s"). A holder stopped by SIGSTOP or a debugger keeps its OS lock forever,
so the lock is generational: the current generation number lives in `<path>.gen` and each
generation has its own lock file. A waiter that finds the lease run out takes the OS lock of
the next generation and, still seeing the old number, publishes the new one: only the holder
of generation g+1's OS lock may move the number from g to g+1, so two takers cannot both win
and the number never goes back. A holder whose generation has moved on was superseded: it
must stop (`superseded()`), and the connection and cache locks check that before going on.

`ProcessLock` (the cache lock) adds a re-entrant thread lock and a mark of whether the last
holder finished: the lock file's first byte is "1" while held and "0" after a clean release,
followed by the machine's boot id. A holder killed mid-update, a reboot (which may drop
unsynced writes), a lease taken over (a fresh generation has no mark) or a superseded holder
that went on (it leaves `<path>.dirty`) shows up to the next holder as `interrupted`, which
tells the cache to check its index against the files.
"""

from __future__ import annotations

import logging
import math
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .. import budget
from ..errors import Throttled
from .disk import write_failure
from .oslock import LOCKER, OPEN_FLAGS, Locker, read_at, write_at

log = logging.getLogger(__name__)

BUSY, CLEAN = b"1", b"0"
_MARK_SIZE = 64
_LEASE_AT, _LEASE_SIZE = 64, 64
"""Where the holder's "pid expiry" is written, after the mark."""
_GEN_WIDTH = 20
POLL_S = 0.02
"""How often a waiter tries a lock another holds (an OS lock cannot time out)."""
GRACE_S = 2.0
"""How long past its deadline a holder's lease lasts: a live holder ends within a read
timeout slice of its deadline, so this is slack for a loaded machine, not for real work."""
MAX_WAITERS = 8
STUCK_S = 1.0
"""Threads of one process that may wait for the cache lock at once, once it has been held for
STUCK_S (cache holdings take milliseconds: longer means another process keeps it); more are
refused at once."""
NO_BUDGET_LEASE_S = 600.0
"""The lease of work outside any tool call (start-up, scripts); such work has no deadline."""


class Busy(Throttled):
    """A lock is held by another process (or call) for longer than this call may wait."""


def _read_boot_id() -> bytes | None:
    try:
        with open("/proc/sys/kernel/random/boot_id", "rb") as handle:
            return handle.read().strip() or None
    except OSError:
        return None


# None where the platform does not say; the cache then checks its files on every start.
BOOT_ID = _read_boot_id()


def call_lease() -> float:
    """A holder's lease: the time its call has left (it never holds past that) plus a grace."""
    left = budget.remaining()
    return (NO_BUDGET_LEASE_S if left is None else max(0.0, left)) + GRACE_S


@dataclass
class Holding:
    fd: int
    generation: int


@dataclass(frozen=True)
class Holder:
    pid: int
    expires: float  # wall clock


class LeasedLock:
    """An OS lock with a lease, taken by polling; several threads may share one object."""

    def __init__(
        self,
        path: Path,
        busy_message: Callable[[Holder | None, float], str],
        *,
        lease: Callable[[], float] = call_lease,
        locker: Locker = LOCKER,
        clock: Callable[[], float] = time.time,
    ):
        self.path = path
        self._busy_message = busy_message
        self._lease = lease
        self._locker = locker
        self._clock = clock
        self._gen_lock = threading.Lock()
        self._gen_fd = -1

    def file(self, generation: int) -> Path:
        return self.path if generation == 0 else self.path.with_name(f"{self.path.name}.{generation}")

    def acquire(self) -> Holding:
        """Take the lock; wait while the call has time and is wanted, else raise Busy or Cancelled
        (or the cache's clear write failure when the disk refuses the lock's few bytes)."""
        try:
            return self._acquire()
        except OSError as exc:
            raise write_failure(exc) from None

    def _acquire(self) -> Holding:
        while True:
            generation = self.generation()
            fd = os.open(self.file(generation), OPEN_FLAGS, 0o644)
            try:
                locked = self._locker.try_lock(fd)
                if locked and self.generation() == generation:
                    self._write_lease(fd)
                    return Holding(fd, generation)
                holder = None if locked else _read_holder(fd)
            except BaseException:
                os.close(fd)  # closing lets go of a lock taken here
                raise
            if locked:
                self._locker.unlock(fd)  # taken over while this one was opening it: go again
            os.close(fd)
            if locked:
                continue
            if holder is not None and holder.expires < self._clock():
                taken = self._take_over(generation, holder)
                if taken is not None:
                    return taken
                continue
            self._wait(holder)

    def release(self, holding: Holding) -> None:
        try:
            self._locker.unlock(holding.fd)
        finally:
            os.close(holding.fd)

    def superseded(self, holding: Holding) -> bool:
        """Whether another process took this holding's lease over (this holder must stop)."""
        return self.generation() != holding.generation

    def renew(self, holding: Holding) -> None:
        """Push this holding's lease forward (work outside a call proving it is alive)."""
        self._write_lease(holding.fd)

    def holder(self) -> Holder | None:
        """Who holds the current generation's lock, as its lease says (None if unknown)."""
        try:
            fd = os.open(self.file(self.generation()), os.O_RDONLY | getattr(os, "O_BINARY", 0))
        except OSError:
            return None
        try:
            return _read_holder(fd)
        finally:
            os.close(fd)

    def generation(self) -> int:
        with self._gen_lock:
            raw = read_at(self._gen(), _GEN_WIDTH, 0)
        return int(raw) if raw.strip().isdigit() else 0

    def close(self) -> None:
        with self._gen_lock:
            if self._gen_fd >= 0:
                os.close(self._gen_fd)
                self._gen_fd = -1

    def __del__(self) -> None:
        # A raw descriptor is not closed by the garbage collector: a limiter or a service
        # dropped without close() (tests make hundreds) would otherwise keep it for good.
        try:
            self.close()
        except Exception:  # at interpreter shutdown, os or the lock may be gone already
            pass

    def _gen(self) -> int:
        if self._gen_fd < 0:
            self._gen_fd = os.open(self.path.with_name(self.path.name + ".gen"), OPEN_FLAGS, 0o644)
        return self._gen_fd

    def _take_over(self, generation: int, holder: Holder) -> Holding | None:
        """Become the holder of generation+1, if nobody else did first (None then)."""
        fd = os.open(self.file(generation + 1), OPEN_FLAGS, 0o644)
        if not self._locker.try_lock(fd):
            os.close(fd)
            return None
        if self.generation() != generation:
            self.release(Holding(fd, generation + 1))
            return None
        with self._gen_lock:
            write_at(self._gen(), b"%0*d" % (_GEN_WIDTH, generation + 1), 0)
        log.warning(
            "%s: process %d let its lease run out %.1f s ago without releasing the lock (stopped or hung); "
            "taking it over",
            self.path.name,
            holder.pid,
            self._clock() - holder.expires,
        )
        self._write_lease(fd)
        _unlink_quietly(self.file(generation))  # its holder keeps its descriptor; nobody else needs the file
        return Holding(fd, generation + 1)

    def _wait(self, holder: Holder | None) -> None:
        budget.check_cancelled()
        left = budget.remaining()
        if left is not None and left <= POLL_S:
            retry = 1.0 if holder is None else max(1.0, holder.expires - self._clock())
            raise Busy(self._busy_message(holder, retry), retry_after_seconds=math.ceil(retry))
        budget.sleep(POLL_S)

    def _write_lease(self, fd: int) -> None:
        record = b"%d %.3f\n" % (os.getpid(), self._clock() + self._lease())
        write_at(fd, record.ljust(_LEASE_SIZE), _LEASE_AT)


def _read_holder(fd: int) -> Holder | None:
    try:
        pid, expires = read_at(fd, _LEASE_SIZE, _LEASE_AT).split()
        return Holder(int(pid), float(expires))
    except (OSError, ValueError):
        return None  # not written yet (the holder is between its lock and its lease)


def _unlink_quietly(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass  # Windows keeps a file another process has open; it is only litter


def cache_busy(holder: Holder | None, retry: float) -> str:
    who = "another process" if holder is None else f"another process (pid {holder.pid})"
    if holder is not None and holder.pid == os.getpid():
        who = "another call of this server"
    return (
        f"The cache is locked by {who}, retry in {math.ceil(retry)} s (a server stopped with Ctrl-Z or a "
        "debugger holds it until its lease runs out); tools that need no cache still answer"
    )


class ProcessLock:
    """The cache lock: re-entrant within a thread, exclusive across threads and processes."""

    def __init__(self, path: Path, *, locker: Locker = LOCKER):
        self._lock = LeasedLock(path, cache_busy, locker=locker)
        self._dirty = path.with_name(path.name + ".dirty")
        self._thread_lock = threading.RLock()
        self._waiters_lock = threading.Lock()
        self._waiters = 0
        self._taken_at = 0.0  # when the outermost holder of this process took (or began waiting for) it
        self._depth = 0
        self._holding: Holding | None = None
        self.interrupted = False
        self._lock.generation()  # opens (creates) the generation file: a read-only home fails here

    def acquire(self) -> bool:
        """Take the lock; return True when this is the outermost acquisition (then `interrupted` is fresh)."""
        self._take_thread_lock()
        if self._depth == 0:
            self._taken_at = time.monotonic()
            try:
                holding = self._lock.acquire()
                try:
                    self.interrupted = self._stamp(holding.fd)
                except BaseException as exc:
                    self._lock.release(holding)
                    if isinstance(exc, OSError):
                        raise write_failure(exc) from None
                    raise
                self._holding = holding
            except BaseException:
                self._thread_lock.release()
                raise
        self._depth += 1
        return self._depth == 1

    def release(self, *, finished: bool = True) -> None:
        """Let go; `finished=False` leaves the mark that the update may be half done."""
        self._depth -= 1
        if self._depth == 0 and self._holding is not None:
            holding, self._holding = self._holding, None
            try:
                if self._lock.superseded(holding):
                    log.warning(
                        "the cache lock was taken over while this process held it; the next holder checks the index"
                    )
                    self._dirty.touch()
                elif finished:
                    write_at(holding.fd, CLEAN, 0)
            finally:
                self._lock.release(holding)
        self._thread_lock.release()

    def close(self) -> None:
        self._lock.close()

    def _take_thread_lock(self) -> None:
        """Another thread of this process holds the lock: wait as for another process, but
        once it has been held for STUCK_S, with at most MAX_WAITERS threads waiting (the
        worker threads are shared by every tool: calls queued on a held cache must not starve
        those that need no cache). A burst of quick holdings queues as ever."""
        if self._thread_lock.acquire(blocking=False):
            return
        with self._waiters_lock:
            self._waiters += 1
        counted = True
        try:
            while not self._thread_lock.acquire(timeout=POLL_S * 5):
                budget.check_cancelled()
                left = budget.remaining()
                with self._waiters_lock:
                    stuck = time.monotonic() - self._taken_at > STUCK_S
                    if (self._waiters > MAX_WAITERS and stuck) or (left is not None and left <= 0):
                        self._waiters -= 1  # counted out at once, so the others see the queue shrink
                        counted = False
                        break
            else:
                return
        finally:
            if counted:
                with self._waiters_lock:
                    self._waiters -= 1
        holder = self._lock.holder()
        retry = 1.0 if holder is None else max(1.0, holder.expires - time.time())
        raise Busy(cache_busy(holder, retry), retry_after_seconds=math.ceil(retry))

    def _stamp(self, fd: int) -> bool:
        """Mark the lock busy; answer whether the previous holder left an unfinished update."""
        stamp = BUSY + (BOOT_ID or b"")
        previous = read_at(fd, _MARK_SIZE, 0).rstrip(b" \0")
        interrupted = previous != CLEAN + (BOOT_ID or b"")
        if self._dirty.exists():
            interrupted = True
            _unlink_quietly(self._dirty)
        if previous[1:] == stamp[1:]:
            write_at(fd, BUSY, 0)
        else:
            write_at(fd, stamp.ljust(_MARK_SIZE), 0)
        return interrupted
