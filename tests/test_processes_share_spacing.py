"""Several server processes on one cache home keep arXiv's spacing together, even when one
of them is killed mid-way, and leave a cache that loads within its bounds.

The spacing is checked where arXiv would see it: the gaps between the requests' arrivals at
the fake are all at least `INTERVAL` (the next slot counts from when the previous request went
out, not from its booked start). Each worker also appends the start its limiter booked to a
shared file: those are at least `INTERVAL` apart too, and no request arrived unbooked."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import anyio
import pytest

from arxiv_mcp.cache.store import Cache
from tests import jsonrpc, platforms
from tests.conftest import paper

WORKER = """
import os, sys
from arxiv_mcp.config import load
from arxiv_mcp.service import ArxivService
svc = ArxivService(load())
limiter = svc.http.arxiv.limiter
booked = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND | os.O_CREAT)
acquire = limiter.acquire
def acquire_and_note(*args, **kwargs):
    start = acquire(*args, **kwargs)
    os.write(booked, repr(start).encode() + b"\\n")  # before the request is sent
    return start
limiter.acquire = acquire_and_note
for pid in sys.argv[2:]:
    svc.get_paper(pid)
    svc.read_paper(pid + "v1")
    print(pid, flush=True)
"""
INTERVAL = 0.25


@platforms.posix_signals
def test_three_processes_one_home_one_killed(fake, tmp_path):
    ids = [f"2403.{i:05d}" for i in range(18)]
    for pid in ids:
        fake.add(paper(pid, f"Paper {pid}", source=None))
    home = tmp_path / "home"
    starts_file = tmp_path / "booked-starts"
    env = jsonrpc.fake_environment(
        fake,
        home,
        ARXIV_MCP_MIN_INTERVAL_S=str(INTERVAL),
        ARXIV_MCP_MAX_PAPERS="8",
        PYTHONPATH=os.getcwd(),
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(starts_file), *ids[k::3]],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for k in range(3)
    ]
    time.sleep(2.5)
    procs[1].send_signal(signal.SIGKILL)
    for p in procs:
        p.wait(timeout=120)
    assert procs[0].returncode == 0, procs[0].stderr.read()
    assert procs[2].returncode == 0, procs[2].stderr.read()
    assert procs[1].returncode == -signal.SIGKILL

    booked = sorted(float(line) for line in starts_file.read_text(encoding="utf-8").split())
    arrivals = sorted(r.t for r in fake.requests)
    assert len(arrivals) > 20
    assert all(b - a >= INTERVAL - 1e-9 for a, b in zip(booked, booked[1:]))
    # Every request that arrived was booked first (a killed worker may have booked one it never sent).
    assert len(booked) >= len(arrivals)
    gaps = [b - a for a, b in zip(arrivals, arrivals[1:])]
    assert min(gaps) >= INTERVAL, sorted(gaps)[:3]

    cache = Cache(home, max_papers=8)
    assert cache.verify() == []
    assert cache.stats().papers <= 8


# --- through the MCP client: two servers on one home ------------------------------------------


@pytest.mark.anyio
async def test_gaps_at_arxiv_are_never_under_the_interval(fake, make_config, connect):
    ids = [f"2403.{i:05d}" for i in range(6)]
    for pid in ids:
        fake.add(paper(pid, f"Paper {pid}", source=None))
    config = make_config(ARXIV_MCP_MIN_INTERVAL_S=INTERVAL)
    async with connect(config=config) as a, connect(config=config) as b:
        async with anyio.create_task_group() as group:
            for k, pid in enumerate(ids):
                group.start_soon(get_paper, (a, b)[k % 2], pid)
    arrivals = sorted(r.t for r in fake.requests)
    assert len(arrivals) == len(ids)
    assert min(b - a for a, b in zip(arrivals, arrivals[1:])) >= INTERVAL


@pytest.mark.anyio
async def test_a_retry_after_is_in_force_for_the_other_server_before_it_gets_the_connection(fake, make_config, connect):
    fake.add(paper("2403.00001", "Throttled first"))
    fake.add(paper("2403.00002", "Asked meanwhile"))
    fake.fault("/api/", "status", status=503, retry_after="2", times=1)
    config = make_config(ARXIV_MCP_MIN_INTERVAL_S="0.1", ARXIV_MCP_DEADLINE_S="20")
    async with connect(config=config) as a, connect(config=config) as b:
        async with anyio.create_task_group() as group:
            group.start_soon(get_paper, a, "2403.00001")
            await anyio.sleep(0.05)
            group.start_soon(get_paper, b, "2403.00002")
    throttled, *rest = sorted(r.t for r in fake.requests)
    assert len(rest) == 2
    assert rest[0] - throttled >= 2.0  # whichever server asked next waited the whole pause


async def get_paper(client, pid: str) -> None:
    with anyio.fail_after(30):
        result = await client.call_tool("get_paper", {"paper_id": pid})
    assert not result.is_error, result.content[0].text
