"""The per-call deadline, cancellation and the worker-thread bound hold, through a real MCP client.

Slow answers come from the fake's drip faults (the genuine body, a byte or a chunk at a
time). Assertions are on what happened (which error, how many requests, in what order);
where a test must say "it ended", it says "before" a bound many times the expected time,
so a loaded machine cannot make it fail.
"""

from __future__ import annotations

import re
import socket
import threading
import time

import anyio
import pytest
from mcp.shared.exceptions import MCPError

from arxiv_mcp.budget import MAX_UPSTREAM_CALLS
from tests.conftest import html_paper, paper

pytestmark = pytest.mark.anyio

PID = "2403.00001"
DEADLINE_S = 3
GENEROUS_S = 30.0
"""Far beyond any expected time: only a call that does not stop at its deadline reaches it."""


def settings(make_config, **extra):
    return make_config(
        **{"ARXIV_MCP_TIMEOUT_S": 10, "ARXIV_MCP_DEADLINE_S": DEADLINE_S, "ARXIV_MCP_MAX_DOWNLOAD_MB": 64, **extra}
    )


async def timed_call(client, tool: str, args: dict):
    started = time.monotonic()
    with anyio.fail_after(GENEROUS_S):
        result = await client.call_tool(tool, args)
    return result, time.monotonic() - started


def error_text(result) -> str:
    assert result.is_error, result.content[0].text
    return result.content[0].text


def out_of_time(result) -> str:
    text = error_text(result)
    assert "took longer than this call may take" in text and "ARXIV_MCP_DEADLINE_S" in text, text
    assert "0 seconds" not in text, text
    return text


async def until(condition, what: str) -> None:
    """Wait for `condition()`; fail only after GENEROUS_S."""
    with anyio.fail_after(GENEROUS_S):
        while not condition():
            await anyio.sleep(0.05)


@pytest.mark.parametrize(
    "path, tool, args, fault",
    [
        ("/api/", "get_paper", {"paper_id": PID}, {"kind": "drip", "interval": 0.5}),
        ("/api/", "get_paper", {"paper_id": PID}, {"kind": "drip_chunked", "interval": 0.5, "size": 16}),
        ("/pdf/", "download_paper", {"paper_id": PID + "v1"}, {"kind": "drip", "interval": 0.5}),
        ("/pdf/", "download_paper", {"paper_id": PID + "v1"}, {"kind": "drip_chunked", "interval": 0.5, "size": 64}),
    ],
    ids=["api-drip", "api-drip-chunked", "pdf-drip", "pdf-drip-chunked"],
)
async def test_a_dripped_answer_ends_at_the_deadline(fake, make_config, connect, path, tool, args, fault):
    fake.add(paper(PID, "Slow answers"))
    kind = fault.pop("kind")
    fake.fault(path, kind, times=10, **fault)
    async with connect(config=settings(make_config)) as client:
        result, took = await timed_call(client, tool, args)
        text = out_of_time(result)
        assert "Downloading" in text
        assert took < GENEROUS_S
        assert len(fake.requests_to(path)) == 1  # no retry once the time is up
        fake.clear_faults()
        again = await client.call_tool(tool, args)
        assert not again.is_error, again.content[0].text


async def test_a_resource_read_keeps_the_deadline(fake, make_config, connect):
    fake.add(html_paper(PID, "Slow answers"))
    fake.fault("/html/", "drip", times=10, interval=0.5)
    async with connect(config=settings(make_config)) as client:
        started = time.monotonic()
        with anyio.fail_after(GENEROUS_S), pytest.raises(Exception) as err:
            await client.read_resource(f"arxiv://paper/{PID}v1/text")
        assert "ARXIV_MCP_DEADLINE_S" in str(err.value)
        assert time.monotonic() - started < GENEROUS_S
    assert len(fake.requests_to("/html/")) == 1


async def test_a_huge_page_stops_at_the_deadline_and_says_why(fake, make_config, connect):
    fake.add(html_paper(PID, "A very long page"))
    fake.fault("/html/", "huge_page", size=45 * 2**20)
    async with connect(config=settings(make_config)) as client:
        result, took = await timed_call(client, "read_paper", {"paper_id": PID + "v1"})
    text = out_of_time(result)
    assert "HTML" in text and "download_paper" in text
    assert took < GENEROUS_S
    # Out of time is not a broken source: nothing else is fetched, nothing remembered as missing.
    assert [r.path for r in fake.requests] == [f"/html/{PID}v1"]


# --- cancellation ---------------------------------------------------------------------------


async def abandon(client, tool: str, args: dict, after_s: float) -> None:
    """Call `tool` and give up after `after_s`: the client sends `notifications/cancelled`.
    (In process, the server's answer to the cancel may still arrive; it is not looked at.)"""
    try:
        await client.call_tool(tool, args, read_timeout_seconds=after_s)
    except MCPError as exc:
        assert "timed out" in str(exc)


async def test_a_cancelled_call_stops_retrying(fake, make_config, connect):
    fake.add(paper(PID, "Cancelled"))
    fake.fault("/api/", "status", status=503, retry_after="1", times=50)  # attempts at 0, 1, 2, 3 s
    async with connect(config=settings(make_config, ARXIV_MCP_DEADLINE_S=60)) as client:
        await abandon(client, "get_paper", {"paper_id": PID}, after_s=0.5)
        await anyio.sleep(4.5)
        assert len(fake.requests_to("/api/")) <= 2  # today: all four attempts


async def test_a_cancelled_download_stops_downloading(fake, make_config, connect):
    fake.add(paper(PID, "Cancelled"))
    fake.fault("/pdf/", "drip", times=5, interval=0.5)  # a few KB: half an hour at this pace
    async with connect(config=settings(make_config, ARXIV_MCP_DEADLINE_S=3600)) as client:
        await abandon(client, "download_paper", {"paper_id": PID + "v1"}, after_s=2)
        # The server hangs up on the drip: the fake sees its answer end.
        await until(lambda: any(r.path.startswith("/pdf/") for r, _ in fake.finished), "the download stopped")
        assert len(fake.requests_to("/pdf/")) == 1


# --- a bounded share of the worker threads ---------------------------------------------------


async def test_slow_downloads_never_starve_the_local_tools(fake, make_config, connect):
    ids = [f"2403.{n:05d}" for n in range(1, 46)]
    for pid in ids:
        fake.add(paper(pid, f"Paper {pid}"))
    fake.fault("/pdf/", "drip", times=100, interval=0.5)
    results: list = []
    async with connect(config=settings(make_config, ARXIV_MCP_DEADLINE_S=600)) as client:

        async def download(pid: str) -> None:
            results.append(await client.call_tool("download_paper", {"paper_id": pid + "v1"}))

        async with anyio.create_task_group() as group:
            for pid in ids:
                group.start_soon(download, pid)
            # More calls than the bound are refused at once, each saying when to come back ...
            await until(lambda: len(results) >= len(ids) - MAX_UPSTREAM_CALLS, "the refusals")
            # ... and the local tools answer while the slow downloads still hold their threads.
            with anyio.fail_after(GENEROUS_S):
                local = [
                    await client.call_tool("cache_stats", {}),
                    await client.call_tool("list_categories", {"group": "cs"}),
                    await client.call_tool("start_session", {}),
                ]
            assert not any(r.is_error for r in local)
            assert len(results) == len(ids) - MAX_UPSTREAM_CALLS
            for refused in results:
                text = error_text(refused)
                assert "busy" in text and re.search(r"retry in [1-9]\d* s", text), text
            group.cancel_scope.cancel()  # the client gives up on the slow ones: their threads end


# --- a Retry-After longer than the call may wait ---------------------------------------------


async def test_a_long_retry_after_is_shared_and_told_truthfully(fake, make_config, connect):
    fake.add(paper(PID, "Throttled"))
    fake.add(paper("2403.00002", "Throttled too"))
    fake.fault("/api/", "status", status=503, retry_after="600", times=50)
    config = settings(make_config, ARXIV_MCP_DEADLINE_S=20)
    async with connect(config=config) as client:
        first = error_text(await client.call_tool("get_paper", {"paper_id": PID}))
    assert "600 s" in first and "no retry was made" in first and "after retrying" not in first, first
    assert "wait 600 seconds" in first
    # A second server on the same home (another client's process) does not ask arXiv again.
    async with connect(config=config) as other:
        second = error_text(await other.call_tool("get_paper", {"paper_id": "2403.00002"}))
    found = re.search(r"try again in (\d+(?:\.\d)?) seconds", second)
    assert found, second
    waited = float(found.group(1))
    assert 550 <= waited <= 600 and "nothing was sent" in second, second
    assert len(fake.requests_to("/api/")) == 1


# --- an answer whose status line and headers drip ---------------------------------------------


class HeadDripper:
    """A hostile upstream: it reads the request, then sends its status line and headers one
    byte every `interval` seconds, for ever (each byte comes well within any read timeout)."""

    HEAD = b"HTTP/1.1 200 OK\r\n" + b"X-Slow: " + b"a" * 10_000 + b"\r\n"

    def __init__(self, interval: float = 0.2):
        self.interval = interval
        self.connections = 0
        self._server = socket.create_server(("127.0.0.1", 0))
        self._stop = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.getsockname()[1]}"

    def _serve(self) -> None:
        self._server.settimeout(0.1)
        while not self._stop.is_set():
            try:
                conn, _ = self._server.accept()
            except TimeoutError:
                continue
            except OSError:
                return  # closed
            self.connections += 1
            threading.Thread(target=self._drip, args=(conn,), daemon=True).start()

    def _drip(self, conn: socket.socket) -> None:
        with conn:
            conn.recv(65536)
            for byte in self.HEAD:
                if self._stop.wait(self.interval):
                    return
                try:
                    conn.sendall(bytes([byte]))
                except OSError:
                    return  # the client gave up: what the test waits for

    def close(self) -> None:
        self._stop.set()
        self._server.close()


@pytest.mark.parametrize(
    "setting, tool, args",
    [
        ("ARXIV_MCP_API_URL", "get_paper", {"paper_id": PID}),
        ("ARXIV_MCP_SITE_URL", "download_paper", {"paper_id": PID + "v1"}),
        ("ARXIV_MCP_S2_URL", "get_references", {"paper_id": PID + "v1"}),
    ],
    ids=["api", "pdf", "s2"],
)
async def test_an_answer_whose_head_drips_ends_at_the_deadline(fake, make_config, connect, setting, tool, args):
    fake.add(paper(PID, "Slow heads"))
    fake.add(paper("2403.00002", "Not held behind it"))
    dripper = HeadDripper()
    try:
        url = dripper.url + ("/api/query" if setting == "ARXIV_MCP_API_URL" else "")
        async with connect(config=settings(make_config, **{setting: url})) as client:
            if setting != "ARXIV_MCP_API_URL":
                assert not (await client.call_tool("get_paper", {"paper_id": PID})).is_error
            result, took = await timed_call(client, tool, args)
            out_of_time(result)
            assert took < DEADLINE_S + 5
            assert dripper.connections == 1  # no retry once the time is up
            if setting != "ARXIV_MCP_API_URL":  # the connection was handed on at the deadline
                other, took = await timed_call(client, "get_paper", {"paper_id": "2403.00002"})
                assert not other.is_error and took < DEADLINE_S, other.content[0].text
    finally:
        dripper.close()
