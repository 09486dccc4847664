"""Who may talk to the streamable-HTTP transport, checked before any request reaches MCP.

A web page on any site can make the browser send requests to a local port. Two headers tell
such requests apart from an MCP client: Host, which DNS rebinding cannot choose (the browser
sends the attacker's name), and Origin, which a browser sets on every cross-site request. So
whatever the bind address, Host must name this server (the bound address or a loopback name,
with the port) and Origin, when present, must be one of those. Off loopback anyone on the
network can connect, so a bearer token (`ARXIV_MCP_HTTP_TOKEN`) is required as well; it is
compared in constant time and never logged or echoed. The token a request presents names its
client (several tokens, several clients) for session ownership: the guard records its digest
in the ASGI scope under `CLIENT_KEY`.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from .config import ConfigError

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
CLIENT_KEY = "arxiv_mcp.token_client"


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
    """ASGI wrapper that answers 421 to a foreign Host, 403 to a foreign Origin and 401 to a
    missing or wrong token, and passes everything else (and the lifespan) to `app`."""

    def __init__(self, app: App, hosts: list[str], tokens: tuple[str, ...]):
        self._app = app
        self._hosts = frozenset(h.lower() for h in hosts)
        self._origins = frozenset(f"{scheme}://{h}" for h in self._hosts for scheme in ("http", "https"))
        self._tokens = [token.encode() for token in tokens]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = _headers(scope)
            refusal = self._refusal(headers)
            if refusal is None and self._tokens:
                client = self._client(headers.get("authorization", ""))
                if client is None:
                    refusal = (
                        401,
                        "Send 'Authorization: Bearer <ARXIV_MCP_HTTP_TOKEN>'",
                        [(b"www-authenticate", b"Bearer")],
                    )
                scope[CLIENT_KEY] = client
            if refusal is not None:
                await _answer(send, *refusal)
                return
        await self._app(scope, receive, send)

    def _refusal(self, headers: dict[str, str]) -> tuple[int, str, list[tuple[bytes, bytes]]] | None:
        if headers.get("host", "").lower() not in self._hosts:
            return 421, "Host not allowed: connect to this server by its bound address or localhost", []
        origin = headers.get("origin")
        if origin is not None and origin.lower() not in self._origins:
            return 403, "Origin not allowed: this server does not serve web pages of other sites", []
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


def _headers(scope: Scope) -> dict[str, str]:
    """The request headers (the first of each name), decoded as ASGI servers pass them."""
    found: dict[str, str] = {}
    for name, value in scope.get("headers", []):
        found.setdefault(name.decode("latin-1").lower(), value.decode("latin-1"))
    return found


async def _answer(send: Send, status: int, text: str, extra: list[tuple[bytes, bytes]]) -> None:
    body = text.encode()
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode()), *extra]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
