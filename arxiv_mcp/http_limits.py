"""Connection limits of the HTTP transport, below ASGI: what uvicorn itself leaves open.

uvicorn closes a keep-alive connection idle after a response, but never one that has not yet
sent a whole request: 300 sockets opened and left silent (or dripping a header byte a second)
were never closed, used up the process's descriptors and locked every client out, including
one already connected. `GuardedH11Protocol` adds two rules:

- a connection must deliver a whole request head within `HEAD_TIMEOUT_S` of opening, or of
  its previous response, or it is closed;
- at most `MAX_WAITING` connections may be waiting for their request head at once (a
  connection that has not sent one has not authenticated either); when another opens, the
  longest-waiting one is closed, so a flood of silent sockets churns among itself while a
  client that speaks at once still gets through. All connections together stay under
  `max_connections()`, derived from the descriptor limit, which start-up also raises to
  the hard limit.

The body's pace is `HttpGuard`'s to bound (it reads each body within a time limit).
Windows has no descriptor limit (nor the `resource` module): there the cap is what its
`select()` takes (512 sockets), in case the event loop is a selector one.
"""

from __future__ import annotations

import asyncio
import importlib
from types import ModuleType
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

HEAD_TIMEOUT_S = 10.0
MAX_WAITING = 32
_SPARE_DESCRIPTORS = 64
"""Descriptors kept for the cache, the limiter and upstream connections."""
WINDOWS_SOCKETS = 512
"""The sockets Windows' select() takes, standing in for the descriptor limit there."""


def _resource() -> ModuleType | None:
    try:
        return importlib.import_module("resource")
    except ImportError:  # Windows
        return None


_RESOURCE = _resource()


def raise_descriptor_limit() -> int:
    """Lift the soft descriptor limit to the hard one (a no-op when not allowed); the soft
    limit then in force."""
    resource = _RESOURCE
    if resource is None:
        return WINDOWS_SOCKETS
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else soft, hard))
        except (ValueError, OSError):
            pass
    return int(resource.getrlimit(resource.RLIMIT_NOFILE)[0])


def max_connections(soft_limit: int | None = None) -> int:
    """Open HTTP connections the descriptor limit leaves room for (at least 16, at most 4096)."""
    resource = _RESOURCE
    if soft_limit is None:
        soft_limit = WINDOWS_SOCKETS if resource is None else resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if resource is not None and soft_limit == resource.RLIM_INFINITY:
        return 4096
    return max(16, min(4096, soft_limit - _SPARE_DESCRIPTORS))


class GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with the head timeout and the connection caps above."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > max_connections():
            self.transport.abort()
            return
        waiting = [c for c in self.connections if isinstance(c, GuardedH11Protocol) and c._head_timer is not None]
        self._await_head()
        if len(waiting) >= MAX_WAITING:
            oldest = min(waiting, key=lambda c: c._head_timer.when() if c._head_timer else 0.0)
            oldest._close_waiting()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        scope = self.scope
        super().handle_events()
        if self.scope is not scope:  # a request head arrived
            self._stop_head_timer()

    def on_response_complete(self) -> None:
        if not self.transport.is_closing():
            self._await_head()  # before the parent reads a pipelined request, which stops it
        super().on_response_complete()

    def _await_head(self) -> None:
        self._stop_head_timer()
        self._head_timer = self.loop.call_later(HEAD_TIMEOUT_S, self._close_waiting)

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _close_waiting(self) -> None:
        """Close a connection still waiting for its request head (never one mid-request)."""
        self._stop_head_timer()
        if not self.transport.is_closing():
            self.transport.close()
