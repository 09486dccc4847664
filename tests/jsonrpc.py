"""MCP over stdio as raw JSON-RPC lines, the way a client writes them, with no SDK in between.

The messages, a server process's environment, and one conversation with it: every message
written, every stdout line read until each request has its answer, then stdin closed and the
exit awaited. Standard library only: .ci/smoke_wheel.py runs it with any Python against an
installed wheel, and benchmarks use it as tests do.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PROTOCOL_VERSION = "2025-06-18"
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
ANSWER_WITHIN_S = 120
"""A server that never answers is killed after this, so it cannot hang a test or CI."""


def environment(**settings: str) -> dict[str, str]:
    """The environment of a server process: this one's without its ARXIV_MCP_ settings (a
    developer's own must not change what a test or benchmark sees), plus `settings`."""
    return {**{k: v for k, v in os.environ.items() if not k.startswith("ARXIV_MCP_")}, **settings}


def fake_environment(fake: Any, home: Path, **settings: str) -> dict[str, str]:
    """`environment` for a server reading from the fake arXiv `fake`, its cache home in `home`;
    `settings` win over the fake's own."""
    return environment(**{**fake.env(), "ARXIV_MCP_HOME": str(home), **settings})


def request(ident: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "method": method, **({"params": params} if params is not None else {})}


def call_tool(ident: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return request(ident, "tools/call", {"name": name, "arguments": arguments})


def initialize_params(client: str, protocol: str = PROTOCOL_VERSION) -> dict[str, Any]:
    """What a client named `client`, with no capabilities, says in `initialize`."""
    return {"protocolVersion": protocol, "capabilities": {}, "clientInfo": {"name": client, "version": "0"}}


def initialize(ident: int, client: str, protocol: str = PROTOCOL_VERSION) -> dict[str, Any]:
    return request(ident, "initialize", initialize_params(client, protocol))


def handshake(client: str) -> list[dict[str, Any]]:
    """`initialize` (id 1) and the `initialized` notification, from a client named `client`."""
    return [initialize(1, client), INITIALIZED]


@dataclass
class Conversation:
    answers: dict[Any, dict[str, Any]]
    """Each answer by its request id."""
    lines: list[bytes]
    """Every line the server wrote to stdout, as written."""
    stderr: str
    status: int
    """The exit status (-9: killed, having not exited within a minute of stdin closing)."""


def converse(
    argv: list[str], messages: list[dict[str, Any]], env: dict[str, str], cwd: str | Path | None = None
) -> Conversation:
    """Write every message, read until every request has its answer, then close stdin (a
    tool call runs in a worker thread: stdin closed at once would end the server before it
    answers) and wait for the exit. stderr goes to a file: a full pipe would stop the server."""
    pending = {m["id"] for m in messages if "id" in m}
    answers: dict[Any, dict[str, Any]] = {}
    lines: list[bytes] = []
    with tempfile.TemporaryFile() as stderr:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, env=env, cwd=cwd)
        assert proc.stdin and proc.stdout
        watchdog = threading.Timer(ANSWER_WITHIN_S, proc.kill)
        watchdog.start()
        try:
            proc.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in messages))
            proc.stdin.flush()
            while pending:
                line = proc.stdout.readline()
                if not line:
                    break
                lines.append(line)
                answer = json.loads(line)
                if answer.get("id") in pending:
                    answers[answer["id"]] = answer
                    pending.discard(answer["id"])
            proc.stdin.close()
            lines.extend(proc.stdout.readlines())
            try:
                status = proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                status = proc.wait()
        finally:
            watchdog.cancel()
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        stderr.seek(0)
        return Conversation(answers, lines, stderr.read().decode("utf-8", "replace"), status)
