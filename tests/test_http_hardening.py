"""The streamable-HTTP transport cannot be locked up or shut out, through the real console
entry point on loopback: idle and dripping connections are closed, sessions are capped per
token and owned by it, two Authorization headers are refused, a lone surrogate gets a one-line
answer, and a client that drops its connection ends its work.

Every socket goes to 127.0.0.1; every wait is bounded."""

from __future__ import annotations

import http.client
import json
import os
import secrets
import socket
import time

import pytest
import requests

from arxiv_mcp import http_limits, http_sessions
from tests import jsonrpc, platforms

if not platforms.WINDOWS:
    import resource
from tests.conftest import html_paper, paper
from tests.test_http_transport import _call, serving

PAPER_ID = "2401.00010"
HANDSHAKE = "2025-06-18"
ACCEPT = "application/json, text/event-stream"


def _json_of(answer: requests.Response) -> dict:
    """The JSON-RPC message of a response, whether sent as JSON or as one SSE event."""
    if answer.headers.get("content-type", "").startswith("text/event-stream"):
        data = [line[5:] for line in answer.text.splitlines() if line.startswith("data:")]
        return json.loads(data[-1])
    return answer.json()


def _open_session(url: str, **headers: str) -> requests.Response:
    """A handshake-era `initialize`; its response carries the new Mcp-Session-Id."""
    body = jsonrpc.initialize(0, "t", HANDSHAKE)
    answer = requests.post(url, json=body, headers={"Accept": ACCEPT, **headers}, timeout=30)
    if answer.status_code == 200:
        sid = answer.headers["mcp-session-id"]
        requests.post(url, json=jsonrpc.INITIALIZED, headers=_in(sid, **headers), timeout=30).raise_for_status()
    return answer


def _in(session_id: str, **headers: str) -> dict[str, str]:
    return {
        "Accept": ACCEPT,
        "Content-Type": "application/json",
        "Mcp-Session-Id": session_id,
        "MCP-Protocol-Version": HANDSHAKE,
        **headers,
    }


@pytest.fixture
def two_tokens():
    return secrets.token_urlsafe(24), secrets.token_urlsafe(24)


def test_a_lone_surrogate_over_http_gets_one_line_in_both_protocol_forms(fake, tmp_path):
    with serving(fake, tmp_path) as (port, _log):
        url = f"http://127.0.0.1:{port}/mcp"
        modern = _call(url, "search_papers", {"query": "\ud800"})
        assert modern.status_code == 200, modern.text
        text = modern.json()["result"]["content"][0]["text"]
        assert "query holds a lone UTF-16 surrogate" in text and "\n" not in text
        sid = _open_session(url).headers["mcp-session-id"]
        for name, arguments in [("get_paper", {"paper_id": "x\udfff"}), ("list_categories", {"group": "\ud800"})]:
            answer = requests.post(
                url, data=json.dumps(jsonrpc.call_tool(1, name, arguments)), headers=_in(sid), timeout=30
            )
            result = _json_of(answer)["result"]
            assert result["isError"] and "lone UTF-16 surrogate" in result["content"][0]["text"], name
        valid_pair = _call(url, "search_papers", {"query": "\U0001f600 attention"})
        assert not valid_pair.json()["result"]["isError"]


def test_two_authorization_headers_are_refused(fake, tmp_path, two_tokens):
    right, other = two_tokens
    with serving(fake, tmp_path, env={"ARXIV_MCP_HTTP_TOKEN": f"{right},{other}"}) as (port, _log):
        for pair in ([right, "wrong-token-wrong-token"], [right, right], [right, other]):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            body = json.dumps(jsonrpc.call_tool(1, "cache_stats", {})).encode()
            conn.putrequest("POST", "/mcp", skip_accept_encoding=True)
            conn.putheader("Content-Type", "application/json")
            conn.putheader("Accept", ACCEPT)
            for token in pair:
                conn.putheader("Authorization", f"Bearer {token}")
            conn.putheader("Content-Length", str(len(body)))
            conn.endheaders(body)
            answer = conn.getresponse()
            assert answer.status == 400 and b"one Authorization header" in answer.read()
            conn.close()


def test_another_token_holder_cannot_use_or_delete_a_session(fake, tmp_path, two_tokens):
    mine, theirs = ({"Authorization": f"Bearer {t}"} for t in two_tokens)
    with serving(fake, tmp_path, env={"ARXIV_MCP_HTTP_TOKEN": ",".join(two_tokens)}) as (port, _log):
        url = f"http://127.0.0.1:{port}/mcp"
        sid = _open_session(url, **mine).headers["mcp-session-id"]
        assert requests.delete(url, headers=_in(sid, **theirs), timeout=30).status_code == 404
        listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
        assert requests.post(url, json=listing, headers=_in(sid, **theirs), timeout=30).status_code == 404
        assert "tools" in _json_of(requests.post(url, json=listing, headers=_in(sid, **mine), timeout=30))["result"]
        assert requests.delete(url, headers=_in(sid, **mine), timeout=30).status_code < 300


def test_sessions_are_capped_per_token_so_one_client_cannot_shut_out_another(fake, tmp_path, two_tokens):
    greedy, other = ({"Authorization": f"Bearer {t}"} for t in two_tokens)
    with serving(fake, tmp_path, env={"ARXIV_MCP_HTTP_TOKEN": ",".join(two_tokens)}) as (port, _log):
        url = f"http://127.0.0.1:{port}/mcp"
        opened = [_open_session(url, **greedy) for _ in range(http_sessions.PER_CLIENT)]
        assert all(a.status_code == 200 for a in opened)
        refused = _open_session(url, **greedy)
        assert refused.status_code == 429 and "DELETE" in refused.text
        assert _open_session(url, **other).status_code == 200
        first = opened[0].headers["mcp-session-id"]
        assert requests.delete(url, headers=_in(first, **greedy), timeout=30).status_code < 300
        assert _open_session(url, **greedy).status_code == 200  # one ended, one may open


def _closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes `sock` within `seconds` (EOF or reset)."""
    sock.settimeout(seconds)
    try:
        return sock.recv(1024) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def _limit_descriptors(limit: int):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

    return apply


@platforms.posix_rlimits
def test_idle_and_dripping_connections_are_closed_and_cannot_lock_out_a_client(fake, tmp_path, monkeypatch):
    """300 silent sockets against a 256-descriptor server (the lock-out seen): a client still
    gets its answers meanwhile, and every silent or dripping socket is closed in bounded time."""
    import subprocess

    real_popen = subprocess.Popen

    def low_limit_popen(*args, **kwargs):
        return real_popen(*args, preexec_fn=_limit_descriptors(256), **kwargs)

    monkeypatch.setattr(subprocess, "Popen", low_limit_popen)
    fake.add(html_paper(PAPER_ID, "Still reachable"))
    with serving(fake, tmp_path) as (port, _log):
        url = f"http://127.0.0.1:{port}/mcp"
        idle = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(300)]
        drip = socket.create_connection(("127.0.0.1", port), timeout=10)
        drip.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1")
        started = time.monotonic()
        for _ in range(3):
            answer = _call(url, "get_paper", {"paper_id": PAPER_ID})
            assert answer.status_code == 200 and not answer.json()["result"]["isError"]
        assert time.monotonic() - started < 20
        deadline = time.monotonic() + http_limits.HEAD_TIMEOUT_S + 10
        for sock in [*idle, drip]:
            assert _closed_within(sock, max(0.1, deadline - time.monotonic())), "a silent connection stayed open"
            sock.close()
        assert _call(url, "cache_stats", {}).status_code == 200


def test_a_body_dripped_byte_by_byte_is_cut_off(fake, tmp_path, monkeypatch):
    from arxiv_mcp import http_guard

    with serving(fake, tmp_path) as (port, _log):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(
            f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Accept: {ACCEPT}\r\nContent-Length: 1000\r\n\r\n{{".encode()
        )
        started = time.monotonic()
        sock.settimeout(http_guard.BODY_TIMEOUT_S + 15)
        answer = b""
        while True:
            try:
                chunk = sock.recv(4096)
            except ConnectionResetError:
                break
            if not chunk:
                break
            answer += chunk
            if time.monotonic() - started < 1:
                sock.sendall(b" ")  # a byte now and then: still far too slow
        assert answer.startswith(b"HTTP/1.1 408"), answer[:80]
        assert time.monotonic() - started < http_guard.BODY_TIMEOUT_S + 10
        sock.close()


def test_a_dropped_handshake_era_connection_ends_its_download(fake, tmp_path):
    """The client of a session drops its connection while the PDF is stalled: the download
    stops and nothing more is fetched for that call (it went on 4.6, 11.9, 20.8 s later)."""
    fake.add(paper(PAPER_ID, "Dropped mid-download"))
    fake.fault("/pdf/", "stall", times=10, delay=30)
    env = {"ARXIV_MCP_TIMEOUT_S": "2", "ARXIV_MCP_DEADLINE_S": "60"}  # each stalled read retried after 2 s
    with serving(fake, tmp_path, env=env) as (port, _log):
        url = f"http://127.0.0.1:{port}/mcp"
        sid = _open_session(url).headers["mcp-session-id"]
        body = json.dumps(jsonrpc.call_tool(1, "download_paper", {"paper_id": PAPER_ID})).encode()
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(
            f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nAccept: {ACCEPT}\r\n"
            f"Mcp-Session-Id: {sid}\r\nMCP-Protocol-Version: {HANDSHAKE}\r\nContent-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        deadline = time.monotonic() + 20
        while not fake.requests_to("/pdf/") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert fake.requests_to("/pdf/"), "the download never started"
        sock.close()
        dropped = time.monotonic()
        time.sleep(10)  # past two retry spacings: a download still running would have asked again
        late = [r for r in fake.requests_to("/pdf/") if r.t > dropped]
        assert not late, f"PDF requests started {[round(r.t - dropped, 1) for r in late]} s after the drop"
        assert _call(url, "cache_stats", {}).status_code == 200


def test_what_an_http_client_reads_names_no_server_path(fake, tmp_path):
    with serving(fake, tmp_path) as (port, _log):
        url = f"http://127.0.0.1:{port}/mcp"
        stats = _call(url, "cache_stats", {})
        assert stats.json()["result"]["structuredContent"]["home"] == "$ARXIV_MCP_HOME"
        assert str(tmp_path) not in stats.text and "Cache $ARXIV_MCP_HOME:" in stats.text


def test_an_error_over_http_names_the_home_as_a_variable(make_config):
    from arxiv_mcp.errors import ArxivMcpError
    from arxiv_mcp.server import _client_log_handler, _error_result, _for_http

    config = make_config()
    paths = _client_log_handler(config)
    papers, tmp = config.home / "papers" / "x", config.home.resolve() / "tmp"
    error = _error_result(ArxivMcpError(f"cannot write {papers} or {tmp}"))
    shown = _for_http(error, paths).content[0].text
    expected = f"cannot write $ARXIV_MCP_HOME{os.sep}papers{os.sep}x or $ARXIV_MCP_HOME{os.sep}tmp"
    assert shown == expected and error.content[0].text != shown


@pytest.mark.anyio
async def test_a_lone_surrogate_from_semantic_scholar_reaches_a_real_http_client_repaired(fake, tmp_path):
    from mcp.client import Client

    from tests.test_upstream_lies import s2_page

    fake.add(paper(PAPER_ID, "Cited", citations=[], references=[]))
    fake.fault("/s2/", "malformed", body=s2_page(2).replace(b"Cited work 0", b"Broken \\udc00 title"))
    with serving(fake, tmp_path) as (port, _log):
        async with Client(f"http://127.0.0.1:{port}/mcp") as client:
            result = await client.call_tool("get_references", {"paper_id": PAPER_ID, "limit": 10})
    assert not result.is_error, result.content[0].text
    assert "Broken \ufffd title" in [n["title"] for n in result.structured_content["neighbours"]]
