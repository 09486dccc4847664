"""Polite spacing of upstream requests, one connection at a time, and single-flight.

arXiv asks for one request every three seconds over a single connection. Every request
start is booked as a slot on one timeline: a thread lock orders the threads of this process
and, when a state file is given, an OS file lock orders every process sharing the cache home
(several clients each start their own server). The timeline is `time.monotonic()`, which on
Linux is one clock for the whole machine, so processes can compare it. The booking lock is
never held while sleeping: a caller books the next free slot, releases, then sleeps.

The single connection is a second lock, a file lock held for a whole transfer (slot wait
included, so slots are booked in the order transfers happen): no request to arXiv starts
while another, of any process on the home, is still arriving. Waiting for it is bounded by
the call's deadline and ends when the call is cancelled.

SingleFlight collapses identical work within the process and, given a lock folder, across
processes: the second process waits for the first, then finds the result in the cache.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import struct
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from .. import budget
from ..errors import Cancelled, OutOfTime, Throttled

T = TypeVar("T")
_SLOT = struct.Struct("<d")
_POLL_S = 0.02
"""How often a waiter tries a file lock that another process holds (flock cannot time out)."""
MAX_PAUSE_S = 3600.0
"""The longest pause an upstream Retry-After may impose on every process (a sanity bound)."""
FLIGHT_STRIPES = 256
"""Cross-process single-flight lock files: keys share them by hash, so the folder stays small."""


@contextmanager
def _file_lock(path: Path, waiting_for: str) -> Iterator[None]:
    """Hold an exclusive flock on `path` (a fresh open file: it excludes other threads of this
    process as well as other processes); wait while the call has time and is wanted."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                budget.check(waiting_for)
                budget.sleep(_POLL_S)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


class RateLimiter:
    """Books request starts at least `interval` seconds apart.

    `clock` and `sleep` are injectable so tests prove the spacing without waiting.
    """

    def __init__(
        self,
        interval: float,
        *,
        name: str = "arXiv",
        state_file: Path | None = None,
        connection_file: Path | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = budget.sleep,
    ):
        self.interval = interval
        self.name = name
        self._state_file = state_file
        self._connection_file = connection_file
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.Lock()
        self._booked = 0.0  # the earliest free start, when there is no state file

    def acquire(self, deadline: float | None = None) -> float:
        """Wait for this caller's slot and return its start time on the clock.

        Raises Throttled at once, booking nothing, when the slot would start after `deadline`.
        """

        def book(booked: float, now: float) -> float:
            start = max(now, booked)
            if deadline is not None and start > deadline:
                if start <= now:
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
    def connection(self) -> Iterator[None]:
        """Hold the single connection for one transfer (a no-op without a connection file)."""
        if self._connection_file is None:
            yield
            return
        waiting = (
            f"Waiting for the one connection to {self.name} (another transfer of this server, or of "
            "another process on this cache home, still holds it)"
        )
        with _file_lock(self._connection_file, waiting):
            yield

    def _exchange(self, update: Callable[[float, float], float]) -> tuple[float, float]:
        """Atomically replace the booked slot with update(booked, now); return (now, booked)."""
        with self._lock:
            if self._state_file is None:
                now = self._clock()
                booked = self._booked
                self._booked = update(booked, now)
                return now, booked
            self._state_file.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self._state_file, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                raw = os.pread(fd, _SLOT.size, 0)
                booked = _SLOT.unpack(raw)[0] if len(raw) == _SLOT.size else 0.0
                now = self._clock()
                if booked > now + 3600:  # booked before a reboot restarted the clock
                    booked = 0.0
                os.pwrite(fd, _SLOT.pack(update(booked, now)), 0)
                return now, booked
            finally:
                os.close(fd)


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
            while not call.event.wait(_POLL_S * 5):
                budget.check("Waiting for the same request made by another call")
            if isinstance(call.error, (Cancelled, OutOfTime)):
                continue
            if call.error is not None:
                raise call.error
            return call.result

    def _across_processes(self, key: object, work: Callable[[], T]) -> T:
        assert self._lock_dir is not None
        stripe = hashlib.sha1(repr(key).encode()).digest()[0] % FLIGHT_STRIPES
        held = self._held.__dict__.setdefault("stripes", set())
        if stripe in held:  # nested work whose key shares a stripe: this thread holds it already
            return work()
        waiting = "Waiting for another process on this cache home fetching the same paper"
        with _file_lock(self._lock_dir / f"flight-{stripe:02x}", waiting):
            held.add(stripe)
            try:
                return work()
            finally:
                held.discard(stripe)

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
