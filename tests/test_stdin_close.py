"""A real stdio server ends within 5 s of its stdin closing, whatever its call is blocked on:
an upstream dripping its response head a byte at a time (where the SDK's cancellation cannot
reach: the head is read in one blocking call, watched from another thread), or a lock held by
a stopped process (the cache's, or arXiv's one connection). Each call's own deadline is 60 s
and the holder's lease 122 s, so an exit within 5 s is the closed stdin's doing."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from tests import jsonrpc, platforms
from tests.conftest import paper
from tests.test_deadlines import HeadDripper
from tests.test_stopped_holders import server_env, stopped_holder

PID = "2403.00001"
EXITS_WITHIN_S = 5


def start_and_block(env: dict[str, str]) -> subprocess.Popen:
    """A stdio server whose one get_paper call is under way (and blocked, by the caller's setup)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "arxiv_mcp"],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    initialize, initialized = jsonrpc.handshake("test")
    proc.stdin.write(json.dumps(initialize).encode() + b"\n")
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["id"] == 1
    call = jsonrpc.call_tool(2, "get_paper", {"paper_id": PID})
    proc.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in (initialized, call)))
    proc.stdin.flush()
    return proc


def close_stdin_and_wait(proc: subprocess.Popen) -> int:
    """Close stdin; the exit status, or fail when the server is still running 5 s later."""
    proc.stdin.close()
    try:
        return proc.wait(timeout=EXITS_WITHIN_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the server was still running {EXITS_WITHIN_S} s after its stdin closed")


def test_a_server_waiting_on_a_dripping_head_exits_when_stdin_closes(fake, tmp_path):
    dripper = HeadDripper()
    env = server_env(fake, tmp_path / "home", deadline=60)
    env["ARXIV_MCP_API_URL"] = dripper.url + "/api/query"
    proc = start_and_block(env)
    try:
        deadline = time.monotonic() + 30
        while dripper.connections == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert dripper.connections == 1  # the call waits on the head now
        assert close_stdin_and_wait(proc) == 0
    finally:
        proc.kill()
        proc.wait()
        dripper.close()


@platforms.posix_signals
@platforms.linux_proc
@pytest.mark.parametrize("lock", ["cache", "connection"])
def test_a_server_waiting_on_a_stopped_lock_holder_exits_when_stdin_closes(fake, tmp_path, lock):
    fake.add(paper(PID, "Nobody waits for this"))
    home = tmp_path / "home"
    holder = stopped_holder(lock, home, seconds=120)
    proc = start_and_block(server_env(fake, home, deadline=60))
    try:
        time.sleep(1.0)  # the call now waits for the lock
        assert close_stdin_and_wait(proc) == 0
    finally:
        proc.kill()
        proc.wait()
        holder.process.kill()
        holder.process.wait()
    assert not fake.requests
