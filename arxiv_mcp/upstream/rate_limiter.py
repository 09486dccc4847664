"""Polite spacing of upstream requests, and single-flight for identical work.

arXiv asks for one request every three seconds. Every request start is booked as a slot
on one timeline: a thread lock orders the threads of this process and, when a state file
is given, an OS file lock orders every process sharing the cache home (several clients
each start their own server). The timeline is `time.monotonic()`, which on Linux is one
clock for the whole machine, so processes can compare it. Nobody holds a lock while
sleeping: a caller books the next free slot, releases, then sleeps until its slot.
"""

from __future__ import annotations

import fcntl
import os
import struct
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from ..errors import Throttled

T = TypeVar("T")
_SLOT = struct.Struct("<d")


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
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.interval = interval
        self.name = name
        self._state_file = state_file
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
                wait = round(start - now, 1)
                raise Throttled(
                    f"{self.name} requests are queued for the next {wait:g} s, longer than this "
                    f"call may wait; try again in {wait:g} seconds",
                    retry_after_seconds=wait,
                )
            return start + self.interval

        now, booked_before = self._exchange(book)
        start = max(now, booked_before)
        if start > now:
            self._sleep(start - now)
        return start

    def defer(self, seconds: float) -> None:
        """Push every later start back: an upstream Retry-After applies to all callers."""
        self._exchange(lambda booked, now: max(booked, now + seconds))

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
    its exception. Nothing is remembered once the work ends: caching is the cache's job.
    """

    class _Call:
        __slots__ = ("event", "result", "error")

        def __init__(self):
            self.event = threading.Event()
            self.result = None
            self.error: BaseException | None = None

    def __init__(self):
        self._lock = threading.Lock()
        self._calls: dict[object, SingleFlight._Call] = {}

    def do(self, key: object, work: Callable[[], T]) -> T:
        with self._lock:
            call = self._calls.get(key)
            leader = call is None
            if leader:
                call = self._calls[key] = SingleFlight._Call()
        if not leader:
            call.event.wait()
            if call.error is not None:
                raise call.error
            return call.result
        try:
            call.result = work()
            return call.result
        except BaseException as exc:
            call.error = exc
            raise
        finally:
            with self._lock:
                del self._calls[key]
            call.event.set()
