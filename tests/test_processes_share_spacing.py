"""Several server processes on one cache home keep arXiv's spacing together, even when one
of them is killed mid-way, and leave a cache that loads within its bounds."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from arxiv_mcp.cache.store import Cache
from tests.conftest import paper

WORKER = """
import sys
from arxiv_mcp.config import load
from arxiv_mcp.service import ArxivService
svc = ArxivService(load())
for pid in sys.argv[1:]:
    svc.get_paper(pid)
    svc.read_paper(pid + "v1")
    print(pid, flush=True)
"""
INTERVAL = 0.25


def test_three_processes_one_home_one_killed(fake, tmp_path):
    ids = [f"2403.{i:05d}" for i in range(18)]
    for pid in ids:
        fake.add(paper(pid, f"Paper {pid}", source=None))
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARXIV_MCP_")}
    env.update(
        fake.env(),
        ARXIV_MCP_HOME=str(home),
        ARXIV_MCP_MIN_INTERVAL_S=str(INTERVAL),
        ARXIV_MCP_MAX_PAPERS="8",
        PYTHONPATH=os.getcwd(),
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, *ids[k::3]],
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

    starts = sorted(r.t for r in fake.requests)
    assert len(starts) > 20
    gaps = [b - a for a, b in zip(starts, starts[1:])]
    # Arrival times at the fake: loopback adds well under 10 ms of jitter to the booked starts.
    assert min(gaps) >= INTERVAL - 0.01, min(gaps)

    cache = Cache(home, max_papers=8)
    assert cache.verify() == []
    assert cache.stats()["papers"] <= 8
