"""How the cache index scales: hit and insert latency at growing numbers of cached papers.

Run: python benchmarks/cache_index.py [--sizes 200,2000,10000,50000] [--home DIR]

For each size it fills a fresh cache home with that many papers (metadata only, written without
fsync to build quickly; bounds far above the size so nothing is evicted), then times
  hit          get_meta of a random cached version (index lookup, file read, journaled touch)
  insert       put_meta of a new paper, as the server does it (file fsync'ed, renamed, journaled)
  insert-nosync  the same without the fsync: the index's own share of an insert
  open         a new Cache on the filled home (snapshot load + journal replay + disk reconcile)
  compact      folding the journal into a new snapshot (happens once the journal is long)
and prints medians (p90 in brackets).
"""

from __future__ import annotations

import argparse
import functools
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arxiv_mcp.cache import atomic  # noqa: E402
from arxiv_mcp.cache import tiers as cache_module  # noqa: E402
from arxiv_mcp.cache.store import Cache  # noqa: E402
from arxiv_mcp.ids import PaperId  # noqa: E402


def _record(number: int) -> dict:
    return {
        "title": f"A study of benchmark paper number {number} and its consequences",
        "authors": [f"Author {number % 97}", f"Author {number % 89}"],
        "summary": "An abstract of typical length. " * 20,
        "categories": ["cs.LG", "stat.ML"],
    }


def _paper_id(number: int) -> str:
    return f"{2000 + number // 100000 % 100:04d}.{number % 100000:05d}"


def _timed(calls) -> list[float]:
    times = []
    for call in calls:
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return times


def _summary(times: list[float]) -> str:
    ordered = sorted(times)
    return f"{statistics.median(ordered) * 1000:8.3f} ms [{ordered[int(len(ordered) * 0.9)] * 1000:7.3f}]"


def _build(cache: Cache, size: int) -> None:
    durable_stage = cache_module.stage
    cache_module.stage = functools.partial(atomic.stage, durable=False)
    try:
        for number in range(size):
            cache.put_meta(PaperId(_paper_id(number), 1), _record(number), latest=False)
    finally:
        cache_module.stage = durable_stage


def _open_and_load(home: Path, limits: dict) -> None:
    """A new Cache reads nothing until its first call: `open` times both."""
    with Cache(home, **limits) as cache:
        cache.stats()


def run(size: int, root: Path, rng: random.Random) -> str:
    home = root / f"cache-{size}"
    limits = {"max_papers": 10**7, "max_bytes": 2**50}
    cache = Cache(home, **limits)
    start = time.perf_counter()
    _build(cache, size)
    build_s = time.perf_counter() - start

    hits = _timed(
        functools.partial(cache.get_meta, _paper_id(rng.randrange(size)), 1) for _ in range(min(3000, 10 * size))
    )
    fresh = iter(range(size, size + 10**6))
    inserts = _timed(
        functools.partial(cache.put_meta, _paper_id(next(fresh)), 1, _record(0), latest=True) for _ in range(200)
    )
    durable_stage = cache_module.stage
    cache_module.stage = functools.partial(atomic.stage, durable=False)
    try:
        nosync = _timed(
            functools.partial(cache.put_meta, _paper_id(next(fresh)), 1, _record(0), latest=True) for _ in range(500)
        )
    finally:
        cache_module.stage = durable_stage
    cache.close()

    opens = _timed(lambda: _open_and_load(home, limits) for _ in range(3))
    reopened = Cache(home, **limits)
    compacts = _timed(reopened.ledger.index.compact for _ in range(3))
    reopened.close()
    shutil.rmtree(home)
    return (
        f"{size:>7} | {_summary(hits)} | {_summary(inserts)} | {_summary(nosync)} | "
        f"{statistics.median(opens) * 1000:8.1f} ms | {statistics.median(compacts) * 1000:8.1f} ms | {build_s:6.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="200,2000,10000,50000")
    parser.add_argument("--home", type=Path, default=None, help="folder for the scratch caches (default: a temp dir)")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="cache-bench-", dir=args.home))
    rng = random.Random(1)
    header = (
        f"{'papers':>7} | {'hit (p90)':>22} | {'insert (p90)':>22} | {'insert-nosync (p90)':>22} | "
        f"{'open':>11} | {'compact':>11} | build"
    )
    print(header)
    print("-" * len(header))
    try:
        for size in (int(s) for s in args.sizes.split(",")):
            print(run(size, root, rng), flush=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
