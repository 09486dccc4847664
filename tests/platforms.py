"""What a test needs of the OS, as skip marks: on Windows or macOS a test skips, saying why,
where the OS lacks the tool the test itself uses (the product's behaviour there is tested
through stand-ins: tests/test_locks.py, tests/test_osfiles.py)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

WINDOWS = sys.platform == "win32"
LINUX = sys.platform.startswith("linux")

posix_signals = pytest.mark.skipif(
    WINDOWS, reason="kills or stops a process with SIGKILL/SIGSTOP, which Windows does not have"
)
posix_rlimits = pytest.mark.skipif(
    WINDOWS, reason="limits a process with setrlimit (the resource module), which Windows does not have"
)
posix_permissions = pytest.mark.skipif(
    WINDOWS, reason="makes a folder read-only with chmod and drops root, which Windows does not do"
)
posix_terminal = pytest.mark.skipif(
    WINDOWS, reason="runs the server on a pseudo-terminal (pty), which Windows does not have"
)
posix_fcntl = pytest.mark.skipif(WINDOWS, reason="uses fcntl (flock, or Linux locks standing in for msvcrt)")
dev_full = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="stands /dev/full (Linux) in for a full disk")
linux_locks = pytest.mark.skipif(
    not LINUX, reason="the msvcrt stand-in is built on Linux open-file-description locks and /proc/self/fd"
)
posix_user_homes = pytest.mark.skipif(
    WINDOWS, reason="~name of an unknown user: Windows reads it as a sibling of one's own home folder"
)
linux_proc = pytest.mark.skipif(not LINUX, reason="reads a process's state from /proc (Linux)")


def set_user_home(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    """Make `home` the user's home folder for `~` (HOME; USERPROFILE is what Windows reads)."""
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
