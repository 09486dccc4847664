"""The call's deadline over the wait for an answer's status line and headers.

A socket timeout bounds each read, not their sum: an upstream that drips its status line
and headers a byte a second never trips it, and `http.client` reads them in one blocking
call the transport cannot look into between bytes. So while a connection waits for its
response head, a watcher thread shuts the socket down when the call's deadline passes or
the call is cancelled; the blocked read then fails at once, and the transport reports the
deadline (`_stop_if_time_is_up`). The connect is bounded by its own timeout (cut to the time
left), the body by the transport's piecewise reads, so connect, head and body together end
at the deadline.

Imported on the first upstream request, with `requests` (it builds on urllib3's classes).
"""

from __future__ import annotations

import contextvars
import socket
import threading
import time
from typing import Any

from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

from .. import budget
from ..errors import Cancelled

_SLICE_S = 0.1
"""How often the watcher looks for a cancellation."""


def _cancelled(context: contextvars.Context) -> bool:
    try:
        context.run(budget.check_cancelled)
    except Cancelled:
        return True
    return False


def _watch(sock: socket.socket, deadline: float, context: contextvars.Context, done: threading.Event) -> None:
    while not done.wait(min(_SLICE_S, max(0.0, deadline - time.monotonic()))):
        if time.monotonic() >= deadline or _cancelled(context):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass  # already closed: the read has ended anyway
            return


class _Watched:
    """Mixed into urllib3's connections: the wait for the response head is watched."""

    sock: socket.socket | None

    def getresponse(self, *args: Any, **kwargs: Any) -> Any:
        deadline = budget.deadline()
        if deadline is None or self.sock is None:
            return super().getresponse(*args, **kwargs)  # type: ignore[misc]
        done = threading.Event()
        watcher = threading.Thread(
            target=_watch,
            args=(self.sock, deadline, contextvars.copy_context(), done),
            name="arxiv-mcp-head-watch",
            daemon=True,
        )
        watcher.start()
        try:
            return super().getresponse(*args, **kwargs)  # type: ignore[misc]
        finally:
            done.set()


class _HTTPConnection(_Watched, HTTPConnection):
    pass


class _HTTPSConnection(_Watched, HTTPSConnection):
    pass


class _HTTPPool(HTTPConnectionPool):
    ConnectionCls = _HTTPConnection


class _HTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _HTTPSConnection


class DeadlineAdapter(HTTPAdapter):
    """requests' adapter whose connections keep the call's deadline while the head arrives."""

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _HTTPPool, "https": _HTTPSPool}
