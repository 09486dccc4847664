"""Polite spacing of upstream requests, one connection at a time, and single-flight.

arXiv asks for one request every three seconds over a single connection. Every request
start is booked as a slot on one timeline: a thread lock orders the threads of this process
and, when a state file is given, a leased file lock (`cache.filelock`) orders every process
sharing the cache home (several clients each start their own server). The timeline is wall
time (`time.time()`), the one clock every process reads the same way, after a reboot and on
another machine sharing the home over NFS; a booked slot further ahead than any pause we
honour (`PLAUSIBLE_AHEAD_S`: a clock set back, a file from a broken writer) is discarded
with a warning instead of holding every request. The booking lock is never held while
sleeping: a caller books the next free slot, releases, then sleeps.

The interval counts from when a request actually went out: after each attempt (retries
too) `sent(at)` pushes the next slot to `at + interval`, `at` being the moment its answer
began (or it failed), by which time the upstream has certainly seen it. A booked slot alone
would count from before the connection was made.

The single connection is a second lock, held for a whole transfer (slot wait included, so
slots are booked in the order transfers happen): no request to arXiv starts while another,
of any process on the home, is still arriving, and an upstream's Retry-After is booked
before it is handed on. Waiting for it is bounded by the call's deadline and ends when the
call is cancelled; a holder stopped by SIGSTOP or a debugger blocks it only until its lease
(its own call's deadline) runs out, and if it resumes it stops before reading on
(`Connection.check`), so two transfers never overlap.

SingleFlight collapses identical work within the process and, given a lock folder, across
processes: the second process waits for the first, then finds the result in the cache.
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import struct
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from .. import budget
from ..cache.disk import write_failure
from ..cache.filelock import Holder, Holding, LeasedLock
from ..cache.oslock import OPEN_FLAGS, read_at, write_at
from ..errors import Cancelled, OutOfTime, Throttled

log = logging.getLogger(__name__)

T = TypeVar("T")
_SLOT = struct.Struct("<d")
MAX_PAUSE_S = 3600.0
"""The longest pause an upstream Retry-After may impose on every process (a sanity bound)."""
PLAUSIBLE_AHEAD_S = MAX_PAUSE_S + 600.0
"""A booked slot further ahead than this (the longest pause plus a queue of calls) is not
ours to honour: a clock set back, or a writer on another machine with a wrong clock."""
EXCHANGE_LEASE_S = 5.0
"""The lease of the booking lock, held for a read and a write of a few bytes."""
FLIGHT_STRIPES = 256
"""Cross-process single-flight lock files: keys share them by hash, so the folder stays small."""


def _waiting_message(what: str) -> Callable[[Holder | None, float], str]:
    def message(holder: Holder | None, retry: float) -> str:
        who = "another process" if holder is None else f"another process (pid {holder.pid})"
        if holder is not None and holder.pid == os.getpid():
            who = "another call of this server"
        return f"{what} is held by {who}; nothing was sent; retry in {math.ceil(retry)} s"

    return message


@contextmanager
def _leased(lock: LeasedLock) -> Iterator[Holding]:
    holding = lock.acquire()
    try:
        yield holding
    finally:
        lock.release(holding)


class Connection:
    """The holding of the one connection: `check()` before each read of the transfer."""

    def __init__(self, lock: LeasedLock | None, holding: Holding | None, name: str):
        self._lock, self._holding, self._name = lock, holding, name

    def check(self) -> None:
        """Stop (Cancelled) if another process took the connection over: this holder was
        stopped past its lease and must not read on beside the new holder's transfer."""
        if self._lock is not None and self._holding is not None and self._lock.superseded(self._holding):
            raise Cancelled(
                f"this call was paused past its lease on the connection to {self._name} and another "
                "process took the connection over; try again"
            )


class RateLimiter:
    """Books request starts at least `interval` seconds apart.

    `clock` (wall time) and `sleep` are injectable so tests prove the spacing without waiting.
    """

    def __init__(
        self,
        interval: float,
        *,
        name: str = "arXiv",
        state_file: Path | None = None,
        connection_file: Path | None = None,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = budget.sleep,
    ):
        self.interval = interval
        self.name = name
        self._state_file = state_file
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.Lock()
        self._booked = 0.0  # the earliest free start, when there is no state file
        self._state_lock = (
            None
            if state_file is None
            else LeasedLock(
                state_file.with_name(state_file.name + ".lock"),
                _waiting_message(f"The {name} request schedule"),
                lease=lambda: EXCHANGE_LEASE_S,
                clock=clock,
            )
        )
        self._connection_lock = (
            None
            if connection_file is None
            else LeasedLock(connection_file, _waiting_message(f"The one connection to {name}"), clock=clock)
        )

    def acquire(self, within: float | None = None) -> float:
        """Wait for this caller's slot and return its start time on the clock.

        Raises Throttled at once, booking nothing, when the slot would start more than
        `within` seconds from now.
        """

        def book(booked: float, now: float) -> float:
            start = max(now, booked)
            if within is not None and start > now + within:
                if within <= 0:
                    raise OutOfTime(f"This call has no time left to send a request to {self.name}; try again")
                wait = round(start - now, 1)
                raise Throttled(
                    f"{self.name} requests are held back for the next {wait:g} s ({self.name} asked for a "
                    "pause, or other calls are ahead), longer than this call may wait; nothing was "
                    f"sent; try again in {wait:g} seconds",
                    retry_after_seconds=wait,
                )
            return start + self.interval

        now, booked_before = self._exchange(book)
        start = max(now, booked_before)
        if start > now:
            self._sleep(start - now)
        return start

    def now(self) -> float:
        return self._clock()

    def sent(self, at: float | None = None) -> None:
        """A request went out (its answer began, or it failed) at `at`: the next starts an
        interval later, however late it went out after its slot."""
        at = self._clock() if at is None else at
        self._exchange(lambda booked, now: max(booked, at + self.interval))

    def defer(self, seconds: float) -> None:
        """Push every later start back: an upstream Retry-After applies to all callers (and,
        through the state file, to every process), however long this call itself may wait."""
        seconds = min(seconds, MAX_PAUSE_S)
        self._exchange(lambda booked, now: max(booked, now + seconds))

    def paused_for(self) -> float:
        """Seconds until the next free slot (0 when a request could start now)."""
        now, booked = self._exchange(lambda booked, now: booked)
        return max(0.0, booked - now)

    @contextmanager
    def connection(self) -> Iterator[Connection]:
        """Hold the single connection for one transfer (a no-op without a connection file)."""
        if self._connection_lock is None:
            yield Connection(None, None, self.name)
            return
        try:
            self._connection_lock.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise write_failure(exc) from None
        with _leased(self._connection_lock) as holding:
            yield Connection(self._connection_lock, holding, self.name)

    def _exchange(self, update: Callable[[float, float], float]) -> tuple[float, float]:
        """Atomically replace the booked slot with update(booked, now); return (now, booked)."""
        with self._lock:
            if self._state_file is None or self._state_lock is None:
                now = self._clock()
                booked = self._plausible(self._booked, now)
                self._booked = update(booked, now)
                return now, booked
            try:
                self._state_file.parent.mkdir(parents=True, exist_ok=True)
                return self._exchange_in_file(self._state_file, self._state_lock, update)
            except OSError as exc:
                raise write_failure(exc) from None

    def _exchange_in_file(
        self, state_file: Path, state_lock: LeasedLock, update: Callable[[float, float], float]
    ) -> tuple[float, float]:
        with _leased(state_lock) as holding:
            fd = os.open(state_file, OPEN_FLAGS, 0o600)
            try:
                raw = read_at(fd, _SLOT.size, 0)
                now = self._clock()
                booked = self._plausible(_SLOT.unpack(raw)[0] if len(raw) == _SLOT.size else 0.0, now)
                new = update(booked, now)
                if not state_lock.superseded(holding):  # paused past the lease: the slot moved on
                    write_at(fd, _SLOT.pack(new), 0)
                return now, booked
            finally:
                os.close(fd)

    def _plausible(self, booked: float, now: float) -> float:
        if math.isfinite(booked) and booked <= now + PLAUSIBLE_AHEAD_S:
            return booked
        log.warning(
            "the %s request schedule held a slot %.0f s ahead, more than any pause is honoured (%.0f s): a clock "
            "set back, or another machine on this home with a wrong clock; it is discarded",
            self.name,
            booked - now,
            PLAUSIBLE_AHEAD_S,
        )
        return 0.0


_FETCHING_SAME = _waiting_message("The fetch of this paper (single-flight across the processes on this home)")


class SingleFlight:
    """Collapses concurrent calls with the same key into one execution.

    The first caller runs the work; the others wait on its event and get its result or
    its exception, except a cancellation or a deadline, which were the leader's own: then
    one of them leads again. Nothing is remembered once the work ends: caching is the
    cache's job. With `lock_dir`, the leader also holds a file lock for the key, so a
    leader in another process on the same home waits; `work` must look in the cache first.
    """

    class _Call:
        __slots__ = ("event", "result", "error")

        def __init__(self) -> None:
            self.event = threading.Event()
            self.result: Any = None
            self.error: BaseException | None = None

    def __init__(self, lock_dir: Path | None = None):
        self._lock = threading.Lock()
        self._calls: dict[object, SingleFlight._Call] = {}
        self._lock_dir = lock_dir
        self._held = threading.local()
        self._stripes: dict[int, LeasedLock] = {}

    def do(self, key: object, work: Callable[[], T]) -> T:
        budget.admit_upstream()
        while True:
            with self._lock:
                running = self._calls.get(key)
                if running is None:
                    call = self._calls[key] = SingleFlight._Call()
            if running is None:
                return self._lead(key, call, work)
            call = running
            while not call.event.wait(0.1):
                budget.check("Waiting for the same request made by another call")
            if isinstance(call.error, (Cancelled, OutOfTime)):
                continue
            if call.error is not None:
                raise call.error
            result: T = call.result
            return result

    def _across_processes(self, key: object, work: Callable[[], T]) -> T:
        assert self._lock_dir is not None
        stripe = hashlib.sha1(repr(key).encode()).digest()[0] % FLIGHT_STRIPES
        held = self._held.__dict__.setdefault("stripes", set())
        if stripe in held:  # nested work whose key shares a stripe: this thread holds it already
            return work()
        with _leased(self._stripe_lock(stripe)):
            held.add(stripe)
            try:
                return work()
            finally:
                held.discard(stripe)

    def _stripe_lock(self, stripe: int) -> LeasedLock:
        assert self._lock_dir is not None
        with self._lock:
            lock = self._stripes.get(stripe)
            if lock is None:
                try:
                    self._lock_dir.mkdir(parents=True, exist_ok=True)
                except OSError as exc:
                    raise write_failure(exc) from None
                lock = self._stripes[stripe] = LeasedLock(self._lock_dir / f"flight-{stripe:02x}", _FETCHING_SAME)
            return lock

    def _lead(self, key: object, call: SingleFlight._Call, work: Callable[[], T]) -> T:
        try:
            result = work() if self._lock_dir is None else self._across_processes(key, work)
            call.result = result
            return result
        except BaseException as exc:
            call.error = exc
            raise
        finally:
            with self._lock:
                del self._calls[key]
            call.event.set()
