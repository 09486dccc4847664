"""A real server process for hostile tests (issue 34's acceptance): `python -m arxiv_mcp` under
an address-space cap (RLIMIT_AS) that writes its pid to a file, and what a test reads of it
from /proc: CPU time (the server is idle when it stops growing) and peak RSS.

The cap is set inside the server's own interpreter before the package is imported, so the pid
is the server's, not a wrapper's: its /proc entry is the one measured."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.types import CallToolResult

IDLE_WITHIN_S = 5.0
"""The acceptance's bound: the server's CPU time stands still within this of each answer."""
PAST_DEADLINE_S = 5.0
"""The acceptance's bound: each answer comes within the call's deadline and this."""
PROC = Path("/proc/self/stat").exists()
"""Whether a process's CPU time and peak RSS can be read (Linux)."""

_LAUNCH = (
    "import os, resource, runpy, sys; "
    "cap = int(sys.argv[1]); resource.setrlimit(resource.RLIMIT_AS, (cap, cap)); "
    "open(sys.argv[2], 'w').write(str(os.getpid())); "
    "sys.argv = ['arxiv_mcp', *sys.argv[3:]]; runpy.run_module('arxiv_mcp', run_name='__main__')"
)


def capped_command(memory_cap: int, pid_file: Path, *args: str) -> list[str]:
    """The command running the server with `args` (such as `--transport http`) under `memory_cap`
    bytes of address space, writing its pid to `pid_file`."""
    return [sys.executable, "-c", _LAUNCH, str(memory_cap), str(pid_file), *args]


@dataclass(frozen=True)
class CappedServer:
    """A stdio server's parameters for the SDK's client, its call deadline, and where it
    writes its pid."""

    params: StdioServerParameters
    deadline_s: float
    pid_file: Path

    def pid(self) -> int:
        return int(self.pid_file.read_text())


def capped_server(fake: Any, home: Path, *, deadline_s: float, memory_cap: int, name: str = "server") -> CappedServer:
    """A stdio server on `home` reading from `fake`; `name` tells apart servers on one home."""
    pid_file = home.parent / f"{name}.pid"
    settings = {**fake.env(), "ARXIV_MCP_HOME": str(home), "ARXIV_MCP_DEADLINE_S": str(deadline_s)}
    command, *args = capped_command(memory_cap, pid_file)
    return CappedServer(StdioServerParameters(command=command, args=args, env=settings), deadline_s, pid_file)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def idle_within(pid: int, seconds: float = IDLE_WITHIN_S) -> bool:
    """Whether the server's CPU time stands still for half a second within `seconds`."""
    end = time.monotonic() + seconds
    before = cpu_seconds(pid)
    while time.monotonic() < end:
        await anyio.sleep(0.5)
        now = cpu_seconds(pid)
        if now - before < 0.05:
            return True
        before = now
    return False


async def timed(call: Awaitable[Any]) -> tuple[Any, Exception | None, float]:
    """The call's result (or the exception it raised: a failed resource read raises in the
    client) and the seconds it took."""
    started = time.monotonic()
    try:
        result, error = await call, None
    except Exception as exc:
        result, error = None, exc
    return result, error, time.monotonic() - started


async def answer(client: Client, server: CappedServer, tool: str, arguments: dict[str, Any]) -> CallToolResult:
    """The tool's result, checked to come within the deadline + 5 s and, where /proc tells, to
    leave the server idle within 5 s."""
    result, error, took = await timed(client.call_tool(tool, arguments))
    assert error is None, error
    assert took < server.deadline_s + PAST_DEADLINE_S, (tool, took)
    assert not PROC or await idle_within(server.pid()), f"{tool} left the server busy"
    assert isinstance(result, CallToolResult)
    return result
