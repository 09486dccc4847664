"""Where a warm read_paper's time goes, in one process: ours against the bare `page` tool.

`python -m benchmarks.warm_read [--calls N] [--rounds R] [--profile]` from the repository
root. Both servers are driven through the SDK's in-memory client (no pipes, no process
start; the client does not re-check answers, like run.py's), interleaved call by call, so what is left between them is what arxiv-mcp adds to a
warm read: its middleware, its tool function and the SDK's validation of its structured
answer. CPU time (`time.thread_time` of the caller plus the worker thread cannot be split in
one process, so `process_time`) is printed beside the wall time: a loaded machine moves the
wall time far more. The floor is measured twice: the bare tool as it is (no output schema),
and the same tool declaring our output model, which makes the SDK validate the page as it
validates ours. `--profile` prints the top of a cProfile of our calls.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from benchmarks import bare_server  # noqa: E402
from benchmarks.run import PAGE_SIZE, PAPER_HTML, bench_papers  # noqa: E402
from tests.fake_arxiv import FakeArxiv  # noqa: E402


async def _measure(calls: int, rounds: int, profile: bool, fake: FakeArxiv, home: Path) -> None:
    from mcp.client import Client

    from arxiv_mcp.config import load
    from arxiv_mcp.server import build_server

    config = load({**fake.env(), "ARXIV_MCP_HOME": str(home)})
    args = {"paper_id": PAPER_HTML, "page": 1, "page_size": PAGE_SIZE}
    async with (
        Client(build_server(config)) as ours,
        Client(bare_server.build()) as floor,
        Client(bare_server.build(typed=True)) as typed,
    ):
        first = await ours.call_tool("read_paper", args)
        page_file = home.parent / "floor-page.json"
        page = {"text": first.content[0].text, "structured": first.structured_content}
        page_file.write_text(json.dumps(page))
        page_args = {"path": str(page_file)}
        for _ in range(50):
            await ours.call_tool("read_paper", args)
            await floor.call_tool("page", page_args)
            await typed.call_tool("page", page_args)
        for _ in range(rounds):
            wall: dict[str, list[float]] = {"ours": [], "floor": [], "floor, typed": []}
            cpu: dict[str, list[float]] = {name: [] for name in wall}
            for _ in range(calls):
                for name, client, tool, arguments in (
                    ("floor", floor, "page", page_args),
                    ("ours", ours, "read_paper", args),
                    ("floor, typed", typed, "page", page_args),
                ):
                    c0, w0 = time.process_time(), time.perf_counter()
                    await _call(client, tool, arguments)
                    wall[name].append(time.perf_counter() - w0)
                    cpu[name].append(time.process_time() - c0)
            _print_round(wall, cpu)
        if profile:
            profiler = cProfile.Profile()
            profiler.enable()
            for _ in range(calls):
                await _call(ours, "read_paper", args)
            profiler.disable()
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)


async def _call(client: Any, tool: str, arguments: dict[str, Any]) -> Any:
    """A tools/call as a client that does not check the answer against the output schema
    sends it (run.py's raw JSON-RPC client does not either): what is timed is the server's."""
    from mcp import types

    request = types.CallToolRequest(params=types.CallToolRequestParams(name=tool, arguments=arguments))
    result = await client.session.send_request(request, types.CallToolResult)
    if result.is_error:
        raise RuntimeError(f"{tool} failed: {result.content[0].text}")
    return result


def _print_round(wall: dict[str, list[float]], cpu: dict[str, list[float]]) -> None:
    def ms(values: list[float]) -> float:
        return statistics.median(values) * 1000

    def mean_ms(values: list[float]) -> float:
        return statistics.fmean(values) * 1000

    line = []
    for name in wall:
        line.append(f"{name}: wall p50 {ms(wall[name]):.3f} ms, cpu mean {mean_ms(cpu[name]):.3f} ms")
    ratios = [
        f"ours/{name} {ms(wall['ours']) / ms(wall[name]):.2f}x (cpu {mean_ms(cpu['ours']) / mean_ms(cpu[name]):.2f}x)"
        for name in ("floor", "floor, typed")
    ]
    print("; ".join(line))
    print("   " + "; ".join(ratios))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    import anyio

    with FakeArxiv(bench_papers()) as fake, tempfile.TemporaryDirectory() as scratch:
        home = Path(scratch) / "home"

        async def run() -> Any:
            await _measure(args.calls, args.rounds, args.profile, fake, home)

        anyio.run(run)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
