"""HTTP sessions under load (issue 34.8), through a real `arxiv-mcp --transport http` process on
loopback: what README's "Serve over streamable HTTP" promises must hold however many clients
press on it. No client can shut out another, even when every other token holds all the
sessions it may; a session id is its client's only, whichever token guesses it; an MCP session
unused for ARXIV_MCP_SESSION_TTL_S closes and releases its pins, whoever holds the cache; and
the per-client cap is per token however many tokens are configured. The server runs under an
address-space cap (issue 34's acceptance: under load, within bounded memory)."""

from __future__ import annotations

import secrets
import time
from concurrent.futures import ThreadPoolExecutor

import requests

from arxiv_mcp import http_sessions
from tests import platforms
from tests.conftest import html_paper
from tests.hostile import PROC, peak_rss_mb
from tests.test_http_hardening import _in, _json_of, _open_session
from tests.test_http_transport import _call, serving

PAPER = "2401.00010"
MEMORY_CAP = None if platforms.WINDOWS else 2 * 2**30
"""The server's address space (RLIMIT_AS, which Windows lacks): 1,056 open sessions fit in it."""
PEAK_RSS_MB = 500
"""The server's peak RSS with 1,056 sessions open (115 MB measured)."""


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_every_token_at_its_cap_still_leaves_room_for_the_last_one(fake, tmp_path):
    """33 clients: 32 of them open every session they may (32 each, 1,024 in all). Before, the
    server's global cap was 1,024: the 33rd client got 503 until one of the others' sessions
    expired, 15 minutes later."""
    tokens = [secrets.token_urlsafe(24) for _ in range(33)]
    *greedy, last = tokens
    with serving(fake, tmp_path, env={"ARXIV_MCP_HTTP_TOKEN": ",".join(tokens)}, memory_cap=MEMORY_CAP) as (port, _log):
        url = f"http://127.0.0.1:{port}/mcp"

        def fill(token: str) -> list[int]:
            return [_open_session(url, **bearer(token)).status_code for _ in range(http_sessions.PER_CLIENT)]

        with ThreadPoolExecutor(8) as pool:
            statuses = [s for batch in pool.map(fill, greedy) for s in batch]
        assert statuses == [200] * (32 * http_sessions.PER_CLIENT)
        assert _open_session(url, **bearer(greedy[0])).status_code == 429  # each at its own cap
        assert _open_session(url, **bearer(last)).status_code == 200, "shut out by the others"
        if PROC:
            peak = peak_rss_mb(int((tmp_path / f"server-{port}.pid").read_text()))
            assert peak < PEAK_RSS_MB, f"peak RSS {peak:.0f} MB with 1,056 sessions open"


def test_a_guessed_session_id_is_refused_to_every_other_token(fake, tmp_path):
    tokens = [secrets.token_urlsafe(24) for _ in range(5)]
    owner, *others = tokens
    with serving(fake, tmp_path, env={"ARXIV_MCP_HTTP_TOKEN": ",".join(tokens)}, memory_cap=MEMORY_CAP) as (port, _log):
        url = f"http://127.0.0.1:{port}/mcp"
        opened = _open_session(url, **bearer(owner))
        assert opened.status_code == 200, (opened.status_code, opened.text[:300])
        sid = opened.headers["mcp-session-id"]
        listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
        for token in others:
            used = requests.post(url, json=listing, headers=_in(sid, **bearer(token)), timeout=30)
            ended = requests.delete(url, headers=_in(sid, **bearer(token)), timeout=30)
            assert (used.status_code, ended.status_code) == (404, 404), (used.text[:300], ended.text[:300])
        for made_up in (sid[:-1] + ("0" if sid[-1] != "0" else "1"), "x" * 4096, "../../etc"):
            answer = requests.post(url, json=listing, headers=_in(made_up, **bearer(owner)), timeout=30)
            assert answer.status_code in (400, 404), (made_up[:20], answer.status_code, answer.text[:300])
        assert (
            "tools"
            in _json_of(requests.post(url, json=listing, headers=_in(sid, **bearer(owner)), timeout=30))["result"]
        )


def test_an_unused_session_closes_and_releases_its_pins(fake, tmp_path):
    fake.add(html_paper(PAPER, "Pinned, then forgotten"))
    token = secrets.token_urlsafe(24)
    env = {"ARXIV_MCP_HTTP_TOKEN": token, "ARXIV_MCP_SESSION_TTL_S": "2"}
    with serving(fake, tmp_path, env=env, memory_cap=MEMORY_CAP) as (port, _log):
        url = f"http://127.0.0.1:{port}/mcp"

        def call(name: str, arguments: dict) -> dict:
            answer = _call(url, name, arguments, **bearer(token))
            return answer.json()["result"]

        assert not call("start_session", {"session_id": "task"})["isError"]
        assert not call("get_paper", {"paper_id": PAPER, "session_id": "task"})["isError"]
        assert call("cache_stats", {})["structuredContent"]["sessions"] == ["task"]
        time.sleep(3)  # unused longer than ARXIV_MCP_SESSION_TTL_S
        assert call("cache_stats", {})["structuredContent"]["sessions"] == []
        cleared = call("clear_cache", {})["structuredContent"]
        assert cleared["kept_pinned"] == [] and cleared["evicted"] == [PAPER + "v1"]
        status = call("session_status", {"session_id": "task"})
        assert status["isError"] and "start_session" in status["content"][0]["text"]


def test_a_client_at_its_cap_may_open_again_once_a_session_goes_unused():
    """The per-client book forgets a session unused for its idle time (the SDK is given the same
    and closes it): the cap is of live sessions. (15 minutes in the server; 50 ms here.)"""
    book = http_sessions.SessionBook(per_client=2, idle_s=0.05)
    book.opened("a", "s1")
    book.opened("a", "s2")
    assert book.full("a") and not book.full("b")
    book.touched("a", "s1")
    time.sleep(0.1)
    assert not book.full("a")
