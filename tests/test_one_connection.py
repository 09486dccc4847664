"""Several server processes on one cache home, each a real stdio MCP server, behave as one
polite client of arXiv: one transfer at a time, one fetch of a paper they all want, and no
work left running for a client that went away.

Overlap is judged from the fake's own log by causality, not by timing: an answer is over
once its last write has begun (`FakeArxiv.finished`), and a client that waited for the whole
answer can only start its next request after that.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from contextlib import AsyncExitStack

import anyio
import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

from tests import jsonrpc
from tests.conftest import html_paper, paper

pytestmark = pytest.mark.anyio

GENEROUS_S = 60.0


def server_env(fake, home) -> dict[str, str]:
    return jsonrpc.fake_environment(fake, home, ARXIV_MCP_DEADLINE_S="60", ARXIV_MCP_TIMEOUT_S="10")


def stdio_server(fake, home) -> Client:
    return Client(StdioServerParameters(command=sys.executable, args=["-m", "arxiv_mcp"], env=server_env(fake, home)))


async def until(condition) -> None:
    with anyio.fail_after(GENEROUS_S):
        while not condition():
            await anyio.sleep(0.05)


def assert_one_transfer_at_a_time(fake) -> None:
    answered = sorted(fake.finished, key=lambda item: item[0].t)
    assert len(answered) == len(fake.requests)
    for (earlier, last_write), (later, _) in zip(answered, answered[1:]):
        assert later.t > last_write, f"{later.path} started while {earlier.path} was still arriving"


async def test_no_arxiv_request_starts_while_another_is_transferring(fake, tmp_path):
    fake.add(paper("2403.00001", "A slow PDF"))
    fake.add(paper("2403.00002", "Metadata one"))
    fake.add(paper("2403.00003", "Metadata two"))
    fake.fault("/pdf/", "drip_chunked", size=128, interval=0.1)  # about 1.5 s
    async with stdio_server(fake, tmp_path / "home") as a, stdio_server(fake, tmp_path / "home") as b:
        async with anyio.create_task_group() as group:
            group.start_soon(a.call_tool, "download_paper", {"paper_id": "2403.00001v1"})
            await until(lambda: fake.requests_to("/pdf/"))
            group.start_soon(b.call_tool, "get_paper", {"paper_id": "2403.00002"})
            group.start_soon(b.call_tool, "get_paper", {"paper_id": "2403.00003"})
    assert [r.path for r in fake.requests].count("/api/query") == 3  # A's metadata, then B's two
    assert_one_transfer_at_a_time(fake)


async def test_three_processes_reading_one_paper_fetch_it_once(fake, tmp_path):
    fake.add(html_paper("2403.00001", "Wanted by everyone"))
    fake.fault("/html/", "drip_chunked", size=2048, interval=0.2)  # about 2 s
    texts = []
    async with AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(stdio_server(fake, tmp_path / "home")) for _ in range(3)]

        async def read(client) -> None:
            result = await client.call_tool("read_paper", {"paper_id": "2403.00001v1"})
            assert not result.is_error, result.content[0].text
            texts.append(result.structured_content["text"])

        async with anyio.create_task_group() as group:
            for client in clients:
                group.start_soon(read, client)
    assert len(texts) == 3 and len(set(texts)) == 1
    assert [r.path for r in fake.requests] == ["/html/2403.00001v1"]


async def test_ten_concurrent_reads_in_one_process_fetch_once(fake, connect):
    fake.add(html_paper("2403.00001", "Wanted ten times"))
    fake.fault("/html/", "drip_chunked", size=4096, interval=0.1)
    async with connect() as client:
        results = []
        async with anyio.create_task_group() as group:
            for _ in range(10):
                group.start_soon(lambda: _append(results, client))
    assert len(results) == 10 and not any(r.is_error for r in results)
    assert [r.path for r in fake.requests] == ["/html/2403.00001v1"]


async def _append(results: list, client) -> None:
    results.append(await client.call_tool("read_paper", {"paper_id": "2403.00001v1"}))


def test_a_client_that_closes_stdin_leaves_no_work_running(fake, tmp_path):
    fake.add(paper("2403.00001", "Nobody waits for this"))
    fake.fault("/api/", "status", status=503, retry_after="1", times=50)  # four attempts over 3 s
    proc = subprocess.Popen(
        [sys.executable, "-m", "arxiv_mcp"],
        env=server_env(fake, tmp_path / "home"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    messages = [*jsonrpc.handshake("test"), jsonrpc.call_tool(2, "get_paper", {"paper_id": "2403.00001"})]
    try:
        proc.stdin.write(json.dumps(messages[0]).encode() + b"\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["id"] == 1
        for message in messages[1:]:
            proc.stdin.write(json.dumps(message).encode() + b"\n")
        proc.stdin.flush()
        started = time.monotonic()
        while not fake.requests_to("/api/"):
            assert time.monotonic() - started < GENEROUS_S
            time.sleep(0.02)
        proc.stdin.close()  # the client is gone
        proc.wait(timeout=GENEROUS_S)
    finally:
        proc.kill()
        proc.wait()
    time.sleep(1.5)  # past the next retry, had one been scheduled
    assert len(fake.requests_to("/api/")) <= 2  # today: all four attempts, for nobody
