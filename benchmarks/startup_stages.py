"""Where arxiv-mcp's start-up time goes, stage by stage, in a fresh interpreter.

Run as `python -m benchmarks.startup_stages` (benchmarks/run.py does, several times); prints
one JSON object of seconds per stage. Nothing else is imported first, so each stage pays for
exactly the modules it adds: the MCP SDK (the floor pays this too), what start-up imports of
arxiv-mcp (the command, settings, server.py), loading the settings, build_server (stored
tool schemas, the cache home checked), and the bare server's build for comparison. Last, what
start-up leaves to the first tool call: importing and building the service (cache, readers,
upstream clients), not part of start-up.
"""

from __future__ import annotations

import asyncio
import json
import time


def main() -> None:
    marks = [time.perf_counter()]
    import mcp.server.mcpserver  # noqa: F401

    marks.append(time.perf_counter())
    from arxiv_mcp import cli  # noqa: F401
    from arxiv_mcp.config import load
    from arxiv_mcp.server import build_server

    marks.append(time.perf_counter())
    config = load()
    marks.append(time.perf_counter())
    server = build_server(config)
    marks.append(time.perf_counter())
    from benchmarks.bare_server import build

    build()
    marks.append(time.perf_counter())
    from arxiv_mcp.service import ArxivService

    ArxivService(config)
    marks.append(time.perf_counter())
    names = ["import_mcp", "import_arxiv_mcp", "config", "build_server", "bare_build", "first_call_service"]
    stages: dict[str, float] = {name: marks[i + 1] - marks[i] for i, name in enumerate(names)}
    stages["tools"] = len(asyncio.run(server.list_tools()))
    print(json.dumps(stages))


if __name__ == "__main__":
    main()
