"""A process stopped (SIGSTOP, Ctrl-Z, a debugger) while holding the cache lock or arXiv's one
connection freezes nobody: real stdio servers on the same home answer `initialize` and the
tools that need no cache at once, fail cache and arXiv calls within their deadline naming the
holder's pid and when to retry, and take over once the holder's lease has run out (without two
transfers overlapping: the holder, resumed, finds itself superseded and stops). That they exit
soon after stdin closes whatever they wait for is tests/test_stdin_close.py.

The holder is a small script taking the lock through the same classes the server uses, with
a lease of its own call's deadline plus the grace, then stopping itself."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import anyio
import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

from arxiv_mcp.cache.filelock import ProcessLock
from arxiv_mcp.cache.store import Cache
from tests import jsonrpc, platforms
from tests.conftest import paper

pytestmark = pytest.mark.anyio

DEADLINE_S = 2
ANSWERED_WITHIN_S = DEADLINE_S + 5
HOLDER = """
import os, signal, sys
from pathlib import Path
from arxiv_mcp import budget
from arxiv_mcp.cache.filelock import ProcessLock
from arxiv_mcp.errors import Cancelled
from arxiv_mcp.upstream.rate_limiter import RateLimiter

which, home, seconds = sys.argv[1], Path(sys.argv[2]), float(sys.argv[3])
with budget.tool_call(seconds):
    if which == "cache":
        lock = ProcessLock(home / ".lock")
        lock.acquire()
        print("held", flush=True)
        os.kill(os.getpid(), signal.SIGSTOP)
        lock.release()
        print("released", flush=True)
    else:
        limiter = RateLimiter(0.1, state_file=home / "ratelimit-arxiv", connection_file=home / "locks" / "arxiv-connection")
        with limiter.connection() as connection:
            print("held", flush=True)
            os.kill(os.getpid(), signal.SIGSTOP)
            try:
                connection.check()
                print("went on", flush=True)
            except Cancelled as exc:
                print("stopped:", exc, flush=True)
"""


def server_env(fake, home, deadline: float = DEADLINE_S) -> dict[str, str]:
    return jsonrpc.fake_environment(
        fake,
        home,
        ARXIV_MCP_DEADLINE_S=str(deadline),
        ARXIV_MCP_TIMEOUT_S="5",
        ARXIV_MCP_MIN_INTERVAL_S="0.1",
        PYTHONPATH=os.getcwd(),
    )


@dataclass
class Holder:
    """The stopped process, its cache home, when it took the lock, and what it said once resumed."""

    process: subprocess.Popen
    home: Path
    taken: float
    out: str = ""


def stopped_holder(which: str, home: Path, seconds: float) -> Holder:
    """A process holding `which` lock with a lease of `seconds` + grace, stopped."""
    Cache(home).close()
    process = subprocess.Popen(
        [sys.executable, "-c", HOLDER, which, str(home), str(seconds)],
        env={**os.environ, "PYTHONPATH": os.getcwd()},
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout.readline().strip() == "held"
    taken = time.monotonic()
    while _state(process.pid) != "T":
        time.sleep(0.01)
    return Holder(process, home, taken)


def _state(pid: int) -> str:
    with open(f"/proc/{pid}/stat") as handle:
        return handle.read().rsplit(")", 1)[1].split()[0]


@contextlib.asynccontextmanager
async def served_beside_a_stopped_holder(fake, tmp_path: Path, which: str, seconds: float):
    """A stdio server on a home where a stopped process holds `which` lock; the holder is
    resumed when the block ends, however it ends."""
    holder = stopped_holder(which, tmp_path / "home", seconds)
    try:
        server = StdioServerParameters(
            command=sys.executable, args=["-m", "arxiv_mcp"], env=server_env(fake, holder.home)
        )
        async with Client(server) as client:
            yield client, holder
    finally:
        holder.process.send_signal(signal.SIGCONT)
        holder.out, _ = holder.process.communicate(timeout=30)


async def call(client, tool: str, args: dict | None = None):
    with anyio.fail_after(ANSWERED_WITHIN_S):
        return await client.call_tool(tool, args or {})


@platforms.posix_signals
@platforms.linux_proc
async def test_a_stopped_cache_lock_holder_freezes_no_other_server(fake, tmp_path):
    fake.add(paper("2403.00001", "After the take-over"))
    # its lease: 15 s; start-up leaves what needs the lock for later
    async with served_beside_a_stopped_holder(fake, tmp_path, "cache", seconds=13) as (client, holder):
        assert time.monotonic() < holder.taken + 15, "start-up waited for the holder's lease to end"
        assert not (await call(client, "list_categories")).is_error  # needs no cache
        busy = await call(client, "cache_stats")
        assert busy.is_error
        text = busy.content[0].text
        assert f"The cache is locked by another process (pid {holder.process.pid}), retry in" in text, text
        await anyio.sleep(max(0.0, holder.taken + 15.5 - time.monotonic()))  # the lease has run out
        stats = await call(client, "cache_stats")
        assert not stats.is_error, stats.content[0].text
        got = await call(client, "get_paper", {"paper_id": "2403.00001"})
        assert not got.is_error, got.content[0].text
    assert holder.out.strip() == "released"  # it finished; the next holder checks the index
    with Cache(holder.home) as cache:
        assert cache.verify() == []
        assert [p.paper_id for p in cache.list_cached()] == ["2403.00001"]


@platforms.posix_signals
@platforms.linux_proc
async def test_a_stopped_connection_holder_blocks_arxiv_only_until_its_lease_ends(fake, tmp_path):
    fake.add(paper("2403.00001", "Waited for"))
    # its lease: 10 s
    async with served_beside_a_stopped_holder(fake, tmp_path, "connection", seconds=8) as (client, holder):
        busy = await call(client, "get_paper", {"paper_id": "2403.00001"})
        assert busy.is_error
        text = busy.content[0].text
        assert f"The one connection to arXiv is held by another process (pid {holder.process.pid})" in text, text
        assert "nothing was sent" in text and not fake.requests
        await anyio.sleep(max(0.0, holder.taken + 10.5 - time.monotonic()))
        got = await call(client, "get_paper", {"paper_id": "2403.00001"})
        assert not got.is_error, got.content[0].text
    # it does not read on
    assert holder.out.startswith("stopped:") and "took the connection over" in holder.out, holder.out


async def test_calls_queued_on_a_held_cache_never_starve_the_tools_that_need_none(make_config, connect):
    """More calls wait on a held cache than the server has worker threads (40). Once it has been
    held a while, the waiters past a few are refused, so a call that needs no cache gets a thread
    at once; were they all kept, it would wait for their deadline (`call` allows it 7 s)."""
    config = make_config(ARXIV_MCP_DEADLINE_S="30")
    async with connect(config=config) as client:
        held = ProcessLock(config.home / ".lock")  # another holder, as a stopped process would be
        held.acquire()
        answers: list = []

        async def stats() -> None:
            with anyio.fail_after(40):  # their deadline, not `call`'s 7 s: the client gives up on none
                answers.append(await client.call_tool("cache_stats", {}))

        try:
            async with anyio.create_task_group() as group:
                for _ in range(45):
                    group.start_soon(stats)
                await anyio.sleep(1.5)  # every call has reached the lock
                try:
                    assert not (await call(client, "list_categories")).is_error
                finally:
                    held.release()  # the calls still waiting take the cache in turn
        finally:
            held.close()
    refused = [a for a in answers if a.is_error]
    assert len(answers) == 45 and refused
    assert all("The cache is locked by" in a.content[0].text for a in refused)
