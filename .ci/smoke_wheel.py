"""Call a tool through an installed `arxiv-mcp`, as a client would: the wheel works on its own.

Usage: python .ci/smoke_wheel.py /path/to/venv/bin/arxiv-mcp

Starts the command over stdio with a throw-away cache home, initialises, lists the tools and
calls list_categories (offline: no request leaves the machine), then closes stdin and expects
a clean exit. Exits non-zero, saying why, on any other outcome. Standard library only, so it
runs with any Python.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading


def _converse(command: str, messages: list[dict], env: dict[str, str]) -> tuple[dict, str, int]:
    """Send every message, read answers until the last request's, then close stdin (a tool
    call runs in a worker thread; stdin closed at once would end the server before it answers)."""
    last = messages[-1]["id"]
    proc = subprocess.Popen(
        [command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True
    )
    assert proc.stdin and proc.stdout and proc.stderr
    watchdog = threading.Timer(120, proc.kill)  # a server that never answers must not hang CI
    watchdog.start()
    proc.stdin.write("".join(json.dumps(m) + "\n" for m in messages))
    proc.stdin.flush()
    answers: dict = {}
    for line in proc.stdout:
        answer = json.loads(line)
        answers[answer.get("id")] = answer
        if answer.get("id") == last:
            break
    proc.stdin.close()
    try:
        status = proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        status = -9
    watchdog.cancel()
    return answers, proc.stderr.read(), status


def main(command: str) -> int:
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "smoke", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "list_categories", "arguments": {"group": "cs"}},
        },
    ]
    with tempfile.TemporaryDirectory() as home:
        env = {k: v for k, v in os.environ.items() if not k.startswith("ARXIV_MCP_")}
        env["ARXIV_MCP_HOME"] = home
        answers, stderr, status = _converse(command, messages, env)
    tools = answers.get(2, {}).get("result", {}).get("tools", [])
    call = answers.get(3, {}).get("result", {})
    listed = call.get("structuredContent", {}).get("categories", [])
    problems = [
        f"exit status {status}" if status else "",
        "" if len(tools) == 17 else f"{len(tools)} tools listed, expected 17",
        "" if not call.get("isError") and any(c["id"] == "cs.AI" for c in listed) else f"list_categories: {call}",
    ]
    problems = [p for p in problems if p]
    if problems:
        print(f"smoke test of {command} failed: {'; '.join(problems)}\n{stderr}", file=sys.stderr)
        return 1
    print(f"smoke test of {command}: {len(tools)} tools, list_categories gave {len(listed)} cs categories")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
