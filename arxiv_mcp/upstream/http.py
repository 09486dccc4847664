"""Upstream HTTP: the one place that talks to arXiv, ar5iv and Semantic Scholar.

`Transport` owns the wire (one kept-alive `requests.Session`, timeouts, the size cap, the
User-Agent). `HttpClient` owns the policy: every request to an arXiv host waits for the
shared limiter, transient failures are retried with capped, jittered exponential back-off
that honours Retry-After, throttling in all of arXiv's disguises is recognised, and the
whole call stays inside the tool call's time budget.

`requests` is imported on the first upstream request, not at import: start-up (and a
session served from the cache alone) does not pay for it.
"""

from __future__ import annotations

import email.utils
import logging
import random
import socket
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urljoin, urlsplit

from .. import __version__, budget
from ..config import Config
from ..errors import Throttled, Unreachable, UpstreamError
from .rate_limiter import MAX_PAUSE_S, RateLimiter

if TYPE_CHECKING:  # imported on the first request (see above)
    import requests

log = logging.getLogger(__name__)

USER_AGENT = f"arxiv-mcp-reader/{__version__}"
"""The project and version; the operator's contact (ARXIV_MCP_CONTACT) is added when set."""


def user_agent(contact: str | None) -> str:
    """What arXiv asks of API clients: name the client and, when the operator gave one, a way
    to reach them. No project address is invented: none that exists is known to this code."""
    if not contact:
        return USER_AGENT
    return f"{USER_AGENT} ({'mailto:' + contact if '@' in contact and '://' not in contact else '+' + contact})"


CONNECT_TIMEOUT_S = 10.0
DOWN_FOR_S = 20.0
_READ_TIMEOUT_FLOOR_S = 0.05
_CHUNK = 16 * 1024
"""At most this much is read before the deadline and cancellation are checked again."""


@dataclass
class Response:
    url: str
    status: int
    headers: Mapping[str, str]
    content: bytes = field(repr=False)

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")


class _Transient(Exception):
    """A failed attempt worth retrying; carries what the final error should say."""

    def __init__(
        self, reason: str, status: int | None = None, retry_after: float | None = None, unreachable: bool = False
    ):
        super().__init__(reason)
        self.reason = reason
        self.status = status
        self.retry_after = retry_after
        self.unreachable = unreachable
        self.longer_than_left = False


class TooLarge(UpstreamError):
    pass


class Transport:
    """One session, kept-alive connections, bounded reads."""

    def __init__(self, config: Config):
        self.read_timeout = config.timeout_s
        self.user_agent = user_agent(config.contact)
        self._session: requests.Session | None = None
        self._session_lock = threading.Lock()

    @property
    def session(self) -> requests.Session:
        """The kept-alive `requests.Session`, made on first use."""
        with self._session_lock:
            if self._session is None:
                import requests

                from .watchdog import DeadlineAdapter

                session = requests.Session()
                session.mount("http://", DeadlineAdapter())
                session.mount("https://", DeadlineAdapter())
                session.headers["User-Agent"] = self.user_agent
                session.trust_env = False  # a proxy variable must not reroute test or mirror traffic
                self._session = session
            return self._session

    def fetch(
        self,
        url: str,
        params: Mapping[str, str] | None,
        headers: Mapping[str, str] | None,
        max_bytes: int,
        *,
        sent: Callable[[], None] = lambda: None,
        check: Callable[[], None] = lambda: None,
    ) -> Response:
        """GET `url`, reading the body in small pieces: every blocking read waits at most
        the read timeout or the time the call has left, whichever is shorter, and the
        deadline, cancellation and `check` are run before every piece, however slowly it
        comes (the head's wait is watched by `watchdog`). `sent` is called once the answer
        has begun, when the upstream has certainly seen the request."""
        read_timeout = self._read_timeout()
        check()
        with self.session.get(
            url,
            params=params,
            headers=headers,
            stream=True,
            allow_redirects=False,
            timeout=(min(CONNECT_TIMEOUT_S, read_timeout), read_timeout),
        ) as r:
            sent()
            declared = r.headers.get("Content-Length")
            if declared and declared.isdigit() and int(declared) > max_bytes:
                raise TooLarge(_too_large(url, max_bytes))
            body = self._read_body(r, url, max_bytes, check)
            if declared and declared.isdigit() and "Content-Encoding" not in r.headers and len(body) != int(declared):
                from requests.exceptions import ChunkedEncodingError

                raise ChunkedEncodingError("body shorter than its Content-Length")
            return Response(r.url, r.status_code, dict(r.headers), bytes(body))

    def _read_timeout(self) -> float:
        remaining = budget.remaining()
        return self.read_timeout if remaining is None else max(_READ_TIMEOUT_FLOOR_S, min(self.read_timeout, remaining))

    def _read_body(self, r: requests.Response, url: str, max_bytes: int, check: Callable[[], None]) -> bytearray:
        import requests
        from urllib3.exceptions import DecodeError, ProtocolError, ReadTimeoutError

        sock = _socket_of(r.raw)
        body = bytearray()
        while True:
            budget.check(f"Downloading from {_where(url)}")
            check()
            if sock is not None:
                sock.settimeout(self._read_timeout())
            try:
                piece = r.raw.read1(_CHUNK, decode_content=True)
            except ReadTimeoutError as exc:
                raise requests.exceptions.ReadTimeout(str(exc)) from None
            except DecodeError as exc:
                raise requests.exceptions.ContentDecodingError(str(exc)) from None
            except ProtocolError as exc:
                raise requests.exceptions.ChunkedEncodingError(str(exc)) from None
            if not piece:
                return body
            body += piece
            if len(body) > max_bytes:
                raise TooLarge(_too_large(url, max_bytes))


def _socket_of(raw: object) -> socket.socket | None:
    """The socket under a streamed urllib3 response (its public `connection`), to shorten its
    timeout as time runs out (None if this urllib3 hides it: reads are then bounded by the
    first timeout only)."""
    sock = getattr(getattr(raw, "connection", None), "sock", None)
    return sock if isinstance(sock, socket.socket) else None


def _stop_if_time_is_up(url: str) -> None:
    """A read that failed because its timeout was cut to the call's last moments is the
    deadline, not a fault of the upstream: say so, and retry nothing."""
    left = budget.remaining()
    if left is not None and left < 2 * _READ_TIMEOUT_FLOOR_S:
        raise budget.out_of_time(f"Downloading from {_where(url)}")


def _too_large(url: str, max_bytes: int) -> str:
    return (
        f"The answer from {_where(url)} is larger than the {max_bytes // 2**20} MB cap "
        "(ARXIV_MCP_MAX_DOWNLOAD_MB); raise the cap if you really need this file"
    )


def _where(url: str) -> str:
    return urlsplit(url).netloc or url


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After header: delta-seconds or an HTTP date, capped at
    an hour (a sanity bound: the pause is shared by every process on the home)."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        seconds = float(value)
    else:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when is None:
            return None
        seconds = when.timestamp() - (time.time() if now is None else now)
    return max(0.0, min(seconds, MAX_PAUSE_S))


def _is_throttle(resp: Response) -> bool:
    if resp.status in (429, 406):
        return True
    return resp.status == 503 or (
        resp.status == 200 and len(resp.content) < 64 and resp.content.strip() == b"Rate exceeded."
    )


@dataclass(frozen=True)
class _Upstream:
    """What differs between the services we ask: the limiter that spaces them (and names
    them in messages), how many attempts a request gets, and the headers it carries."""

    limiter: RateLimiter
    attempts: int
    headers: dict[str, str] | None = None


ARXIV_ATTEMPTS = 4
S2_ATTEMPTS = 2
"""Semantic Scholar is a side source (references, citations, DOI lookups; never a paper or
its text): one retry, so a failing S2 does not hold a call through arXiv's back-off ladder."""


class HttpClient:
    """The upstream policy: limiter, retries, back-off, budget, and clear failures."""

    def __init__(
        self,
        config: Config,
        transport: Transport,
        arxiv_limiter: RateLimiter,
        s2_limiter: RateLimiter,
        *,
        backoff_s: float = 1.0,
        sleep: Callable[[float], None] = budget.sleep,
    ) -> None:
        self.config = config
        self.transport = transport
        key = config.s2_api_key
        self.arxiv = _Upstream(arxiv_limiter, ARXIV_ATTEMPTS)
        self.s2 = _Upstream(s2_limiter, S2_ATTEMPTS, {"x-api-key": key} if key else None)
        self.backoff_s = backoff_s
        self._sleep = sleep
        self._arxiv_hosts = config.arxiv_hosts()
        self._down_until: dict[str, float] = {}

    def get(
        self,
        url: str,
        *,
        params: Mapping[str, str] | None = None,
        follow_redirects: bool = True,
        max_bytes: int | None = None,
    ) -> Response:
        """GET through the limiter with retries. Returns any answer below 500 that is not
        throttling (404s and error feeds are the caller's to read); raises UpstreamError,
        Throttled or Unreachable otherwise."""
        max_bytes = max_bytes or self.config.max_download_bytes
        for _ in range(4):
            resp = self._get_once(url, params, max_bytes)
            location = resp.headers.get("Location") if 300 <= resp.status < 400 else None
            if not (follow_redirects and location):
                return resp
            url, params = urljoin(resp.url, location), None
            if urlsplit(url).netloc.lower() not in self._arxiv_hosts:
                return resp  # never carry our traffic (or a key) to a host we were not configured for
        raise UpstreamError(f"{_where(url)} redirected too many times; try again later")

    def _get_once(self, url: str, params: Mapping[str, str] | None, max_bytes: int) -> Response:
        host = urlsplit(url).netloc.lower()
        upstream = self.s2 if url.startswith(self.config.s2_url + "/") else self.arxiv
        limiter, attempts, service = upstream.limiter, upstream.attempts, upstream.limiter.name
        budget.admit_upstream()
        self._fail_fast(host, service)
        last: _Transient | None = None
        for attempt in range(1, attempts + 1):
            budget.check(f"Waiting to ask {service}")
            with limiter.connection() as connection:
                limiter.acquire(budget.remaining())
                outcome = self._attempt(url, params, upstream.headers, max_bytes, limiter, connection.check)
                if isinstance(outcome, _Transient) and outcome.retry_after is not None:
                    # booked before the connection is handed on, so no process asks before it ends
                    limiter.defer(outcome.retry_after)
            if isinstance(outcome, Response):
                self._down_until.pop(host, None)
                return outcome
            last = outcome
            log.info(
                "%s request to %s failed (%s), attempt %d of %d", service, _where(url), last.reason, attempt, attempts
            )
            if (last.unreachable and attempt >= 2) or attempt == attempts:
                break
            wait = last.retry_after
            if wait is None:
                wait = min(30.0, self.backoff_s * 2 ** (attempt - 1)) * random.uniform(0.75, 1.25)
                if last.unreachable:
                    wait = min(wait, 0.5)
            left = budget.remaining()
            if left is not None and wait > left:
                last.longer_than_left = True
                break
            if last.retry_after is None:
                self._sleep(wait)
        assert last is not None
        raise self._final_error(host, service, last, attempt)

    def _attempt(
        self,
        url: str,
        params: Mapping[str, str] | None,
        headers: Mapping[str, str] | None,
        max_bytes: int,
        limiter: RateLimiter,
        check: Callable[[], None],
    ) -> Response | _Transient:
        """One request: the answer to return, or the transient failure to retry. The next
        request's slot counts from when this one's answer began (or it failed)."""
        import requests

        started = time.monotonic()
        went_out: list[float] = []
        try:
            resp = self.transport.fetch(
                url, params, headers, max_bytes, sent=lambda: went_out.append(limiter.now()), check=check
            )
        except requests.exceptions.ConnectionError as exc:
            _stop_if_time_is_up(url)
            refused = _is_connect_failure(exc)
            return _Transient("could not connect" if refused else "the connection broke", unreachable=refused)
        except (
            requests.exceptions.Timeout,
            requests.exceptions.ChunkedEncodingError,
            requests.exceptions.ContentDecodingError,
        ) as exc:
            _stop_if_time_is_up(url)
            return _Transient(
                "timed out" if isinstance(exc, requests.exceptions.Timeout) else "the answer was cut short"
            )
        finally:
            limiter.sent(went_out[0] if went_out else None)
        log.debug(
            "GET %s -> %s (%d bytes, %.2f s)", _where(url), resp.status, len(resp.content), time.monotonic() - started
        )
        if _is_throttle(resp):
            return _Transient(
                f"HTTP {resp.status}" + (" 'Rate exceeded.'" if resp.status == 200 else ""),
                status=resp.status,
                retry_after=parse_retry_after(resp.headers.get("Retry-After")),
            )
        if resp.status == 200 and not resp.content:
            return _Transient("an empty answer")
        if resp.status >= 500:
            return _Transient(
                f"HTTP {resp.status}",
                status=resp.status,
                retry_after=parse_retry_after(resp.headers.get("Retry-After")),
            )
        return resp

    def _fail_fast(self, host: str, service: str) -> None:
        until = self._down_until.get(host)
        if until and time.monotonic() < until:
            raise Unreachable(
                f"{service} ({host}) is unreachable (it refused connections seconds ago); "
                f"check the network and try again in {until - time.monotonic():.0f} "
                "seconds. Cached papers are still available.",
                retry_after_seconds=round(until - time.monotonic(), 1),
            )

    def _final_error(self, host: str, service: str, last: _Transient, attempts: int) -> UpstreamError:
        if last.unreachable:
            self._down_until[host] = time.monotonic() + DOWN_FOR_S
            return Unreachable(
                f"{service} ({host}) is unreachable: {last.reason}. Check the network "
                "connection; papers already cached are still served."
            )
        retry = last.retry_after if last.retry_after is not None else 30.0
        tried = f"after retrying ({attempts} attempts)" if attempts > 1 else "at the first attempt"
        if last.longer_than_left and last.retry_after is not None:
            tried += f"; it asked for a {retry:.0f} s wait, longer than this call may still wait, so no retry was made"
        elif last.longer_than_left:
            tried += "; no time was left in this call for a retry"
        if last.status in (429, 406, 503) or "Rate exceeded" in last.reason:
            shared = " (every call of this server, and of others on this cache home, waits it out)"
            return Throttled(
                f"{service} is throttling requests ({last.reason}) {tried}; wait {retry:.0f} seconds"
                f"{shared if last.retry_after is not None else ''} and try again.",
                status=last.status,
                retry_after_seconds=retry,
            )
        return UpstreamError(
            f"{service} failed to answer ({last.reason}) {tried}; try again in {retry:.0f} seconds.",
            status=last.status,
            retry_after_seconds=retry,
        )


def _is_connect_failure(exc: Exception) -> bool:
    import requests
    from urllib3.exceptions import NewConnectionError

    if isinstance(exc, requests.exceptions.ConnectTimeout):
        return True
    reason = getattr(exc.args[0], "reason", None) if exc.args else None
    return isinstance(reason, NewConnectionError)
