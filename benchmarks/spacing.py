"""Request spacing as arXiv sees it: the gaps between requests' arrivals at the fake arXiv.

Run: python benchmarks/spacing.py [--interval 3] [--requests 6]

Three cases, each on a fresh cache home with `ARXIV_MCP_MIN_INTERVAL_S=interval`:
  one process     `--requests` metadata fetches from one server process, one after another
  two processes   the same split over two server processes on one home, concurrently
  after a 503     the first request answered 503 with Retry-After 2*interval while the other
                  process waits for the connection: the gap after the 503
Prints the smallest, median and largest gap (arXiv asks for no gap under the interval).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import jsonrpc  # noqa: E402
from tests.conftest import paper  # noqa: E402
from tests.fake_arxiv import FakeArxiv  # noqa: E402

WORKER = """
import sys
from arxiv_mcp import budget
from arxiv_mcp.config import load
from arxiv_mcp.service import ArxivService
svc = ArxivService(load())
for pid in sys.argv[1:]:
    with budget.tool_call(120):
        svc.get_paper(pid)
"""


def _run(fake: FakeArxiv, interval: float, groups: list[list[str]]) -> list[float]:
    fake.clear_log()
    with tempfile.TemporaryDirectory() as home:
        env = jsonrpc.environment()
        root = str(Path(__file__).resolve().parent.parent)
        env.update(fake.env(), ARXIV_MCP_HOME=home, ARXIV_MCP_MIN_INTERVAL_S=str(interval), PYTHONPATH=root)
        procs = [subprocess.Popen([sys.executable, "-c", WORKER, *ids], env=env) for ids in groups]
        for proc in procs:
            if proc.wait(timeout=600) != 0:
                raise SystemExit("a worker failed")
    arrivals = sorted(r.t for r in fake.requests)
    return [b - a for a, b in zip(arrivals, arrivals[1:])]


def _show(label: str, gaps: list[float], interval: float) -> None:
    under = sum(gap < interval for gap in gaps)
    print(
        f"{label:14} gaps: min {min(gaps):.3f} s, median {statistics.median(gaps):.3f} s, "
        f"max {max(gaps):.3f} s; under {interval:g} s: {under} of {len(gaps)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--interval", type=float, default=3.0)
    parser.add_argument("--requests", type=int, default=6)
    args = parser.parse_args()
    ids = [f"2403.{i:05d}" for i in range(3 * args.requests)]
    with FakeArxiv() as fake:
        for pid in ids:
            fake.add(paper(pid, f"Paper {pid}"))
        batch = iter([ids[k : k + args.requests] for k in range(0, len(ids), args.requests)])
        _show("one process", _run(fake, args.interval, [next(batch)]), args.interval)
        both = next(batch)
        _show("two processes", _run(fake, args.interval, [both[0::2], both[1::2]]), args.interval)
        fake.fault("/api/", "status", status=503, retry_after=f"{2 * args.interval:g}", times=1)
        last = next(batch)
        gaps = _run(fake, args.interval, [last[:1], last[1:2]])
        print(f"after a 503    gap after a Retry-After of {2 * args.interval:g} s: {gaps[0]:.3f} s")


if __name__ == "__main__":
    main()
