"""How many MCP sessions each HTTP client may hold, so that no client can shut out another.

The SDK's session manager caps the sessions of everyone together (10,000 by default), and a
session lives until its idle timeout (30 minutes by default): one token holder opening
sessions in a loop filled the cap and every new handshake-era client got 503 for half an
hour. `SessionBook` sits in front of it, in the guard, and counts per client (the token digest
`HttpGuard` names, or "http" for tokenless loopback): a session is booked to its client when
the response opening it carries a new `Mcp-Session-Id`, touched by every request naming it,
and forgotten on DELETE, on a 404 for it, or once unused for `IDLE_S` (the idle timeout the
SDK is given too, so both forget a session at about the same time). A client holding
`PER_CLIENT` live sessions gets 429 for another until one ends or expires. The global cap
(`max_sessions`) is what every client may hold together, so it never binds before a client's
own cap: with 33 tokens and a fixed cap of 1,024, 32 clients at their caps left the 33rd a 503
for 15 minutes.

Which client may use a session is the SDK's check (the owner it records from `scope["user"]`,
set by `server.py`); this book only counts. It is bounded: at most `PER_CLIENT` live entries
per client, stale ones pruned on each booking.
"""

from __future__ import annotations

import time
from collections import OrderedDict

IDLE_S = 900.0
"""A session with no request for this long is closed (by the SDK) and forgotten here."""
PER_CLIENT = 32
"""Live sessions one client (one token, or every tokenless loopback client) may hold."""


def max_sessions(tokens: int) -> int:
    """Sessions of all clients together (the SDK's cap): each client's allowance, for each
    token (every request then carries one), or the one tokenless loopback client. Memory is
    bounded by the number of tokens (config: at most 64), about 45 kB a session."""
    return PER_CLIENT * max(1, tokens)


class SessionBook:
    def __init__(self, per_client: int = PER_CLIENT, idle_s: float = IDLE_S) -> None:
        self._per_client = per_client
        self._idle_s = idle_s
        self._clients: dict[str, OrderedDict[str, float]] = {}

    def full(self, client: str) -> bool:
        """Whether `client` already holds as many live sessions as it may."""
        return len(self._live(client)) >= self._per_client

    def opened(self, client: str, session_id: str) -> None:
        self._live(client)[session_id] = time.monotonic()

    def touched(self, client: str, session_id: str) -> None:
        sessions = self._clients.get(client)
        if sessions is not None and session_id in sessions:
            sessions[session_id] = time.monotonic()
            sessions.move_to_end(session_id)

    def closed(self, client: str, session_id: str) -> None:
        sessions = self._clients.get(client)
        if sessions is not None:
            sessions.pop(session_id, None)

    def refusal(self) -> str:
        return (
            f"This client already has {self._per_client} open MCP sessions: end one (HTTP DELETE with its "
            f"Mcp-Session-Id) or reuse it; sessions unused for {self._idle_s / 60:g} minutes close by themselves."
        )

    def _live(self, client: str) -> OrderedDict[str, float]:
        sessions = self._clients.setdefault(client, OrderedDict())
        stale = time.monotonic() - self._idle_s
        while sessions and next(iter(sessions.values())) < stale:  # least recently used first
            sessions.popitem(last=False)
        return sessions
