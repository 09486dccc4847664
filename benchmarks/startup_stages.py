"""Where arxiv-mcp's start-up time goes, stage by stage, in a fresh interpreter.

Run as `python -m benchmarks.startup_stages` (benchmarks/run.py does, several times); prints
one JSON object of seconds per stage. Nothing else is imported first, so each stage pays for
exactly the modules it adds: the MCP SDK (the floor pays this too), arxiv-mcp's own modules,
the service (cache home, limiters), build_server (one pydantic schema per tool), and the bare
server's one-tool build for comparison.
"""

from __future__ import annotations

import asyncio
import json
import time


def main() -> None:
    marks = [time.perf_counter()]
    import mcp.server.mcpserver  # noqa: F401

    marks.append(time.perf_counter())
    from arxiv_mcp.config import load
    from arxiv_mcp.server import build_server
    from arxiv_mcp.service import ArxivService

    marks.append(time.perf_counter())
    config = load()
    service = ArxivService(config)
    marks.append(time.perf_counter())
    server = build_server(config, service)
    marks.append(time.perf_counter())
    from benchmarks.bare_server import build

    build()
    marks.append(time.perf_counter())
    names = ["import_mcp", "import_arxiv_mcp", "service", "build_server", "bare_build"]
    stages = {name: marks[i + 1] - marks[i] for i, name in enumerate(names)}
    stages["tools"] = len(asyncio.run(server.list_tools()))
    print(json.dumps(stages))


if __name__ == "__main__":
    main()
