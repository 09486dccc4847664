"""The time budget and progress channel of the tool call running on this thread.

A tool call sets both once; the HTTP client and the extractors read them without every
function in between passing them along. Each tool call runs in its own worker thread
with its own context, so calls never see each other's budget.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

Progress = Callable[[str, float, float | None], None]

_deadline: ContextVar[float | None] = ContextVar("arxiv_mcp_deadline", default=None)
_progress: ContextVar[Progress | None] = ContextVar("arxiv_mcp_progress", default=None)


@contextmanager
def tool_call(seconds: float, progress: Progress | None = None) -> Iterator[None]:
    """Give the enclosed work `seconds` in total (waits for the rate limiter included)."""
    t1 = _deadline.set(time.monotonic() + seconds)
    t2 = _progress.set(progress)
    try:
        yield
    finally:
        _deadline.reset(t1)
        _progress.reset(t2)


def deadline() -> float | None:
    """Absolute `time.monotonic()` by which the current call must end, if any."""
    return _deadline.get()


def remaining() -> float | None:
    d = _deadline.get()
    return None if d is None else d - time.monotonic()


def report(message: str, done: float, total: float | None = None) -> None:
    """Tell the client how slow work is going; a no-op when it asked for no progress."""
    cb = _progress.get()
    if cb is not None:
        cb(message, done, total)
