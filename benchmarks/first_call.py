"""The first call of a new server process on a large cache, and where its time goes.

    python benchmarks/first_call.py [--papers 10000] [--runs 5] [--home DIR] [--long-journal]
        [--against OTHER_TREE --against-home ITS_HOME]

Builds (or reuses, with --home) a cache of N papers with the project's own code
(library_scale.build), then starts a new server process per run and times, right after
`initialize`, the first call of one tool (list_cached, cache_stats, search_cached in turn:
each is the first of its own process): its wall time as the client sees it, and the CPU time
the server process spent on it (all its threads, from /proc/<pid>/task/*/schedstat on Linux:
a loaded machine stretches wall time, not the work). In-process, it splits the cache's part:
reading the index snapshot (JSON) and building its state, in CPU milliseconds (process_time),
and what else every first call pays: importing the service.
Goal (issue 35): any first call <= 100 ms at 10,000 papers.

Each tree's package is byte-compiled first, as an installed package is: where
PYTHONDONTWRITEBYTECODE is set, a tree without `__pycache__` would otherwise compile every
module it imports in every process (several milliseconds of a first call).
"""

from __future__ import annotations

import argparse
import compileall
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "benchmarks"))

import library_scale  # noqa: E402
from run import StdioServer, ours, server_env  # noqa: E402

from arxiv_mcp.cache import index  # noqa: E402
from tests.fake_arxiv import FakeArxiv  # noqa: E402

TOOLS = {"list_cached": {}, "cache_stats": {}, "search_cached": {"query": library_scale.QUERIES[0]}}


def index_cpu_ms(home: Path, runs: int) -> tuple[float, float]:
    """Parsing the snapshot and building the mirror, as `JournaledIndex` does (the collector paused)."""
    data = (home / "index.json").read_bytes()
    parse, build = [], []
    for _ in range(runs):
        with index.collector_paused():
            started = time.process_time()
            body = json.loads(data)
            parsed = time.process_time()
            index.IndexState.from_json(body)
            parse.append(parsed - started)
            build.append(time.process_time() - parsed)
    return min(parse) * 1000, min(build) * 1000


_IMPORT_SERVICE = (
    "import time, arxiv_mcp.server; started = time.process_time(); import arxiv_mcp.service; "
    "print(time.process_time() - started)"
)


def service_import_cpu_ms(runs: int) -> float:
    """CPU the first call spends importing the service (start-up imported the server), in a new process."""
    spent = [
        float(subprocess.check_output([sys.executable, "-c", _IMPORT_SERVICE], cwd=REPO_ROOT)) for _ in range(runs)
    ]
    return statistics.median(spent) * 1000


def lengthen_journal(home: Path) -> int:
    """Pad the home's journal with accesses of cached papers up to just under the length that
    makes a cache compact it: what a new process at most replays. Returns its length."""
    paper_ids, versions, accessed, _titles = json.loads((home / "index.json").read_bytes())["entries"]
    keys = [list(key) for key in zip(paper_ids, versions, strict=True)]
    limit = max(index.COMPACT_MIN_BYTES, (home / "index.json").stat().st_size // 8)
    journal = home / "journal.jsonl"
    size, at = journal.stat().st_size, max(accessed)
    with journal.open("a", encoding="utf-8") as out:
        for number in range(len(keys) * 100):
            line = json.dumps(
                {"o": "touch", "k": keys[number * 7919 % len(keys)], "a": at + number / 10}, separators=(",", ":")
            )
            line += "\n"
            if size + len(line) > limit:
                break
            size += out.write(line)
    return size


def server_cpu_s(pid: int) -> float:
    """CPU seconds the process has run, over all its threads (nan where /proc has no schedstat)."""
    total = 0
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            total += int((task / "schedstat").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return float("nan")
    return total / 1e9


def first_call(server: StdioServer, tool: str, arguments: dict[str, str]) -> tuple[float, float]:
    """Wall and server CPU seconds of `tool`'s call, the first after `initialize`."""
    with server:
        server.initialize()
        ran = server_cpu_s(server.proc.pid)
        started = time.perf_counter()
        server.call(tool, **arguments)
        return time.perf_counter() - started, server_cpu_s(server.proc.pid) - ran


def of_tree(tree: Path, env: dict[str, str]) -> StdioServer:
    """The server of another source tree (say main's, for a before/after in one run)."""
    launch = f"import runpy, sys; sys.path.insert(0, {str(tree)!r}); runpy.run_module('arxiv_mcp', run_name='__main__')"
    return StdioServer([sys.executable, "-c", launch], env)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--home", type=Path, help="a cache home built before (kept); else a new one, removed after")
    parser.add_argument("--long-journal", action="store_true", help="first pad the journal to its longest (see above)")
    parser.add_argument("--against", type=Path, help="another source tree, run interleaved with this one")
    parser.add_argument("--against-home", type=Path, help="its copy of the cache home (its own format)")
    args = parser.parse_args(argv)
    if args.against and not args.against_home:
        parser.error("--against needs --against-home: trees of different snapshot formats cannot share a home")
    home = args.home or Path(tempfile.mkdtemp(prefix="arxiv-mcp-first-call-")) / "home"
    if not (home / "index.json").exists():
        started = time.monotonic()
        library_scale.build(home, args.papers)
        print(f"built {args.papers} papers in {time.monotonic() - started:.0f} s", file=sys.stderr)
    if args.long_journal:
        print(f"journal padded to {lengthen_journal(home) / 1024:.0f} KB", file=sys.stderr)
    for tree in (REPO_ROOT, args.against):
        if tree is not None:
            compileall.compile_dir(tree / "arxiv_mcp", quiet=1)
    settings = {"ARXIV_MCP_MAX_PAPERS": str(args.papers + 1000), "ARXIV_MCP_MAX_DISK_MB": "100000"}
    sides = {"this tree": None, f"{args.against}": args.against} if args.against else {"this tree": None}
    measured: dict[tuple[str, str], list[tuple[float, float]]] = {}
    with FakeArxiv([]) as fake:
        for _ in range(args.runs):
            for tool, arguments in TOOLS.items():
                for side, tree in sides.items():
                    if tree is None:
                        server = ours(server_env(fake, home, **settings))
                    else:
                        server = of_tree(tree, server_env(fake, args.against_home, **settings))
                    measured.setdefault((side, tool), []).append(first_call(server, tool, arguments))
    parse_ms, build_ms = index_cpu_ms(home, args.runs)
    print(f"first call in a new process at {args.papers} papers (median of {args.runs}; wall, server CPU):")
    for (side, tool), figures in measured.items():
        wall, cpu = (statistics.median(f[i] for f in figures) * 1000 for i in (0, 1))
        print(f"  {side:<28} {tool:<14} {wall:7.1f} ms  {cpu:7.1f} ms")
    print(f"index snapshot: parse {parse_ms:.1f} ms, state {build_ms:.1f} ms (CPU, best of {args.runs})")
    print(f"service import: {service_import_cpu_ms(args.runs):.1f} ms (CPU, median of {args.runs})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
