"""The time budget, cancellation and progress channel of the tool call running on this thread.

A tool call sets them once; the HTTP client, the rate limiter, single-flight and the
extractors read them without every function in between passing them along. Each tool call
runs in its own worker thread with its own context, so calls never see each other's budget.

Waiting is where a call spends its time, so every wait goes through here: `sleep` and
`check` notice a cancelled call (the client sent `notifications/cancelled`, or went away)
and a passed deadline, and end the work instead of finishing it for nobody.

Upstream work is also admitted here. Worker threads are a fixed pool shared by every tool:
calls that wait on arXiv (whose one-request-every-3-s rule makes them queue anyway) may hold
at most MAX_UPSTREAM_CALLS of them; one more is refused at once with the time a slot is
sure to free, so cheap local tools always find a thread.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from .errors import Cancelled, OutOfTime, Throttled

Progress = Callable[[str, float, float | None], None]

MAX_UPSTREAM_CALLS = 16
"""Tool calls that may wait on upstream at once (anyio's worker pool has 40 threads)."""
_SLICE_S = 0.1
"""How often a waiting call looks for its cancellation."""


@dataclass
class _Call:
    deadline: float
    seconds: float
    progress: Progress | None
    cancelled: Callable[[], bool] | None
    upstream: bool = False


_call: ContextVar[_Call | None] = ContextVar("arxiv_mcp_call", default=None)
_admitted_lock = threading.Lock()
_admitted: dict[int, float] = {}  # id(call) -> its deadline, for calls holding an upstream slot
_ending = threading.Event()


@contextmanager
def tool_call(
    seconds: float, progress: Progress | None = None, cancelled: Callable[[], bool] | None = None
) -> Iterator[None]:
    """Give the enclosed work `seconds` in total (waits for the rate limiter included).

    `cancelled` answers whether the client still wants the answer; it is polled, so it
    must be cheap and callable from the worker thread."""
    call = _Call(time.monotonic() + seconds, seconds, progress, cancelled)
    token = _call.set(call)
    try:
        yield
    finally:
        _call.reset(token)
        if call.upstream:
            with _admitted_lock:
                _admitted.pop(id(call), None)


def deadline() -> float | None:
    """Absolute `time.monotonic()` by which the current call must end, if any."""
    call = _call.get()
    return None if call is None else call.deadline


def remaining() -> float | None:
    call = _call.get()
    return None if call is None else call.deadline - time.monotonic()


def end_every_call() -> None:
    """The client has gone for good (stdio's stdin closed): every call still running stops at
    its next check. Seen from any thread, unlike the SDK's cancellation, which only the worker
    thread running the call can read: a watcher waiting on an upstream's head sees this too."""
    _ending.set()


def check_cancelled() -> None:
    """Raise Cancelled when the client no longer wants this call's answer."""
    if _ending.is_set():
        raise Cancelled("the client went away (its stdin closed)")
    call = _call.get()
    if call is not None and call.cancelled is not None and call.cancelled():
        raise Cancelled("the client cancelled this call")


def check(doing: str, advice: str = "try again (a second try is often faster)") -> None:
    """Raise Cancelled, or OutOfTime naming what took too long, when the work must stop now."""
    check_cancelled()
    call = _call.get()
    if call is not None and time.monotonic() >= call.deadline:
        raise out_of_time(doing, advice)


def out_of_time(doing: str, advice: str = "try again (a second try is often faster)") -> OutOfTime:
    """The error for a call whose time ran out while `doing`."""
    call = _call.get()
    seconds = f"{call.seconds:g} s, " if call is not None else ""
    return OutOfTime(f"{doing} took longer than this call may take ({seconds}ARXIV_MCP_DEADLINE_S); {advice}")


def sleep(seconds: float) -> None:
    """time.sleep that ends early with Cancelled when the call is cancelled."""
    end = time.monotonic() + seconds
    while True:
        check_cancelled()
        left = end - time.monotonic()
        if left <= 0:
            return
        time.sleep(min(left, _SLICE_S))


def admit_upstream() -> None:
    """Take one of the MAX_UPSTREAM_CALLS upstream slots for this call (once per call), or
    raise Throttled at once with the time by which a slot is certain to be free."""
    call = _call.get()
    if call is None or call.upstream:
        return
    with _admitted_lock:
        if len(_admitted) >= MAX_UPSTREAM_CALLS:
            wait = max(1.0, min(_admitted.values()) - time.monotonic())
            raise Throttled(
                f"The server is busy: {len(_admitted)} calls are already waiting on arXiv or Semantic "
                f"Scholar (at most {MAX_UPSTREAM_CALLS} at once; more would only queue behind arXiv's "
                f"one-request-every-3-seconds rule). Nothing was sent; retry in {wait:.0f} s, or use "
                "cached papers and the local tools meanwhile.",
                retry_after_seconds=round(wait, 1),
            )
        _admitted[id(call)] = call.deadline
        call.upstream = True


def report(message: str, done: float, total: float | None = None) -> None:
    """Tell the client how slow work is going; a no-op when it asked for no progress."""
    call = _call.get()
    if call is not None and call.progress is not None:
        call.progress(message, done, total)
