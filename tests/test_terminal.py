"""`arxiv-mcp` typed in a terminal: one line on stderr says what it is, Ctrl-C quits at once.

The server runs on a real pseudo-terminal that is its controlling terminal, so the ^C written
to the terminal reaches it as SIGINT exactly as a keypress does.
"""

from __future__ import annotations

import os
import selectors
import subprocess
import sys

from arxiv_mcp import __version__
from tests import jsonrpc, platforms

if not platforms.WINDOWS:
    import fcntl
    import pty
    import termios

pytestmark = platforms.posix_terminal


def _on_terminal(tmp_path):
    controller, terminal = pty.openpty()
    env = jsonrpc.environment()
    env["ARXIV_MCP_HOME"] = str(tmp_path / "home")
    proc = subprocess.Popen(
        [sys.executable, "-m", "arxiv_mcp"],
        stdin=terminal,
        stdout=terminal,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,
        preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0),
    )
    os.close(terminal)
    return proc, controller


def test_started_by_hand_it_says_what_it_is_and_ctrl_c_quits(tmp_path):
    proc, controller = _on_terminal(tmp_path)
    try:
        with selectors.DefaultSelector() as waiting:  # epoll/kqueue: no limit on descriptor numbers
            waiting.register(proc.stderr, selectors.EVENT_READ)
            assert waiting.select(30), "nothing on stderr within 30 s"
        first = proc.stderr.readline().decode()
        assert first.startswith(f"arxiv-mcp {__version__}: an MCP server") and "MCP client" in first
        assert "normally starts it" in first and "Ctrl-C" in first
        os.write(controller, b"\x03")  # the terminal turns ^C into SIGINT for its foreground group
        assert proc.wait(timeout=20) == 130
        assert proc.stderr.read().decode() == ""  # quietly: no traceback, no second message
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(controller)


def test_started_by_a_client_it_says_nothing(tmp_path):
    env = jsonrpc.environment()
    env["ARXIV_MCP_HOME"] = str(tmp_path / "home")
    done = subprocess.run([sys.executable, "-m", "arxiv_mcp"], input=b"", capture_output=True, env=env, timeout=60)
    assert done.returncode == 0 and done.stderr == b"" and done.stdout == b""
