"""Who may talk to the streamable-HTTP transport, checked before any request reaches MCP.

A web page on any site can make the browser send requests to a local port. Two headers tell
such requests apart from an MCP client: Host, which DNS rebinding cannot choose (the browser
sends the attacker's name), and Origin, which a browser sets on every cross-site request. So
whatever the bind address, Host must name this server (the bound address or a loopback name,
with the port) and Origin, when present, must be one of those. Off loopback anyone on the
network can connect, so a bearer token (`ARXIV_MCP_HTTP_TOKEN`) is required as well; it is
compared in constant time and never logged or echoed. The token a request presents names its
client (several tokens, several clients) for session ownership: the guard records its digest
in the ASGI scope under `CLIENT_KEY`. A request with two Authorization headers is refused:
servers and proxies disagree on which one counts.

The guard also reads each POST body itself, within `BODY_TIMEOUT_S` and `MAX_BODY_BYTES` (a
body dripped a byte at a time would hold a connection and its worker forever), repairs lone
surrogates in it (`surrogates.repair_message`, as stdio does), counts each client's sessions
(`http_sessions.SessionBook`), and marks the scope under `GONE_KEY` once the client drops the
connection, which the tools read as a cancellation (the SDK does not cancel a handshake-era
request whose connection is gone). Every refusal closes its connection.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import anyio

from . import surrogates
from .config import ConfigError
from .http_sessions import SessionBook

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
CLIENT_KEY = "arxiv_mcp.token_client"
GONE_KEY = "arxiv_mcp.connection_gone"
BODY_TIMEOUT_S = 10.0
"""A request body must have arrived this long after its headers."""
MAX_BODY_BYTES = 4 * 2**20
"""The SDK's own limit on a request body."""
Refusal = tuple[int, str, list[tuple[bytes, bytes]]]


def is_loopback(host: str) -> bool:
    if host.lower().rstrip(".") == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, tokens: tuple[str, ...]) -> None:
    """Refuse to serve beyond loopback without a token: the tools include `clear_cache`."""
    if not tokens and not is_loopback(host):
        raise ConfigError(
            f"--host {host} is reachable beyond this machine: set ARXIV_MCP_HTTP_TOKEN (16 or more "
            "visible characters; clients send it as 'Authorization: Bearer <token>'), or bind 127.0.0.1"
        )


def allowed_hosts(bind: str, port: int) -> list[str]:
    """Host header values naming this server: the bound address and the loopback names, each
    with the port (as a client writes them: an IPv6 address in brackets)."""
    bound = bind.strip("[]")
    try:
        bound = f"[{bound}]" if ipaddress.ip_address(bound).version == 6 else bound
    except ValueError:
        pass  # a host name stays as it is
    names = dict.fromkeys(name.lower() for name in (bound, *LOOPBACK_NAMES))
    return [f"{name}:{port}" for name in names]


class HttpGuard:
    """ASGI wrapper that answers 421 to a foreign Host, 403 to a foreign Origin, 401 to a
    missing or wrong token, 400 to two Authorization headers, 408 and 413 to a slow or huge
    body and 429 to one session too many, and passes everything else (and the lifespan) to
    `app`."""

    def __init__(self, app: App, hosts: list[str], tokens: tuple[str, ...], book: SessionBook | None = None):
        self._app = app
        self._hosts = frozenset(h.lower() for h in hosts)
        self._origins = frozenset(f"{scheme}://{h}" for h in self._hosts for scheme in ("http", "https"))
        self._tokens = [token.encode() for token in tokens]
        self._book = book or SessionBook()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        headers = _headers(scope)
        refusal = self._refusal(scope, headers)
        if refusal is None and self._tokens:
            client = self._client(headers.get("authorization", ""))
            if client is None:
                refusal = 401, "Send 'Authorization: Bearer <ARXIV_MCP_HTTP_TOKEN>'", [(b"www-authenticate", b"Bearer")]
            scope[CLIENT_KEY] = client
        if refusal is None and scope.get("method") == "POST":
            body, refusal = await _read_body(receive)
            if body is None:
                return  # the client left before its request was whole: nobody to answer
            body = surrogates.repair_message(body)
            receive = _replaying(body, receive)
            if refusal is None and "mcp-session-id" not in headers and _opens_session(body):
                refusal = self._session_refusal(scope)
        if refusal is not None:
            await _answer(send, *refusal)
            return
        await self._app(scope, _watching(receive, scope), self._observing(scope, headers.get("mcp-session-id"), send))

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> Refusal | None:
        if headers.get("host", "").lower() not in self._hosts:
            return 421, "Host not allowed: connect to this server by its bound address or localhost", []
        origin = headers.get("origin")
        if origin is not None and origin.lower() not in self._origins:
            return 403, "Origin not allowed: this server does not serve web pages of other sites", []
        if sum(name.lower() == b"authorization" for name, _ in scope.get("headers", [])) > 1:
            return 400, "Send one Authorization header, not several", []
        return None

    def _client(self, authorization: str) -> str | None:
        """The digest naming the client whose token is presented, or None for no valid token."""
        scheme, _, value = authorization.strip().partition(" ")
        presented = value.strip().encode("latin-1", "replace")
        # every token is compared, each in constant time: no timing tells a near miss or which one
        matches = [hmac.compare_digest(presented, token) for token in self._tokens]
        if scheme.lower() != "bearer" or not any(matches):
            return None
        return "t" + hashlib.sha256(presented).hexdigest()[:24]

    def _session_refusal(self, scope: Scope) -> Refusal | None:
        if self._book.full(scope.get(CLIENT_KEY) or "http"):
            return 429, self._book.refusal(), []
        return None

    def _observing(self, scope: Scope, session_id: str | None, send: Send) -> Send:
        """`send`, booking the session a response opens, touches or ends to its client."""
        client = scope.get(CLIENT_KEY) or "http"

        async def observed(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status = message["status"]
                opened = dict(message.get("headers", [])).get(b"mcp-session-id")
                if opened and status < 300 and opened.decode("latin-1") != session_id:
                    self._book.opened(client, opened.decode("latin-1"))
                if session_id and (status == 404 or (scope.get("method") == "DELETE" and status < 300)):
                    self._book.closed(client, session_id)
                elif session_id:
                    self._book.touched(client, session_id)
            await send(message)

        return observed


async def _read_body(receive: Receive) -> tuple[bytes | None, Refusal | None]:
    """The whole request body, or a refusal when it is too slow or too large (then the body
    read so far, for nobody); None when the client disconnected first."""
    chunks: list[bytes] = []
    size = 0
    with anyio.move_on_after(BODY_TIMEOUT_S) as timer:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None, None
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > MAX_BODY_BYTES:
                return b"", (413, f"Request body over {MAX_BODY_BYTES // 2**20} MB", [])
            if not message.get("more_body"):
                break
    if timer.cancelled_caught:
        return b"", (408, f"The request body did not arrive within {BODY_TIMEOUT_S:g} s", [])
    return b"".join(chunks), None


def _replaying(body: bytes, receive: Receive) -> Receive:
    """A receive that gives the body already read, then what the client sends next."""
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def replay() -> MutableMapping[str, Any]:
        return pending.pop() if pending else await receive()

    return replay


def _watching(receive: Receive, scope: Scope) -> Receive:
    async def watched() -> MutableMapping[str, Any]:
        message = await receive()
        if message["type"] == "http.disconnect":
            scope[GONE_KEY] = True
        return message

    return watched


def _opens_session(body: bytes) -> bool:
    """Whether a POST body is an `initialize` request (the one that opens a session)."""
    if b"initialize" not in body:
        return False
    try:
        message = json.loads(body)
    except (ValueError, RecursionError):
        return False
    return isinstance(message, dict) and message.get("method") == "initialize"


def _headers(scope: Scope) -> dict[str, str]:
    """The request headers (the first of each name), decoded as ASGI servers pass them."""
    found: dict[str, str] = {}
    for name, value in scope.get("headers", []):
        found.setdefault(name.decode("latin-1").lower(), value.decode("latin-1"))
    return found


async def _answer(send: Send, status: int, text: str, extra: list[tuple[bytes, bytes]]) -> None:
    body = text.encode()
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        *extra,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
