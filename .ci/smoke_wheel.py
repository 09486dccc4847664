"""Call a tool through an installed `arxiv-mcp`, as a client would: the wheel works on its own.

Usage: python .ci/smoke_wheel.py /path/to/venv/bin/arxiv-mcp

Starts the command over stdio with a throw-away cache home, initialises, lists the tools and
calls list_categories (offline: no request leaves the machine), then closes stdin and expects
a clean exit. Exits non-zero, saying why, on any other outcome. Standard library only (with
the repository's tests/jsonrpc.py, the raw client the tests use), so it runs with any Python.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository's tests.jsonrpc

from tests import jsonrpc  # noqa: E402


def main(command: str) -> int:
    messages = [
        *jsonrpc.handshake("smoke"),
        jsonrpc.request(2, "tools/list"),
        jsonrpc.call_tool(3, "list_categories", {"group": "cs"}),
    ]
    with tempfile.TemporaryDirectory() as home:
        env = jsonrpc.environment()
        env["ARXIV_MCP_HOME"] = home
        talk = jsonrpc.converse([command], messages, env)
    tools = talk.answers.get(2, {}).get("result", {}).get("tools", [])
    call = talk.answers.get(3, {}).get("result", {})
    listed = call.get("structuredContent", {}).get("categories", [])
    problems = [
        f"exit status {talk.status}" if talk.status else "",
        "" if len(tools) == 20 else f"{len(tools)} tools listed, expected 20",
        "" if not call.get("isError") and any(c["id"] == "cs.AI" for c in listed) else f"list_categories: {call}",
    ]
    problems = [p for p in problems if p]
    if problems:
        print(f"smoke test of {command} failed: {'; '.join(problems)}\n{talk.stderr}", file=sys.stderr)
        return 1
    print(f"smoke test of {command}: {len(tools)} tools, list_categories gave {len(listed)} cs categories")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
