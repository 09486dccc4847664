"""What the cache's file handling needs from the OS, on POSIX and on Windows, behind one interface.

`FILES` is the platform's `Files`; the cache asks it instead of assuming POSIX:

- `keeps_replaced_open`: whether a file may stay open while it is replaced or removed. POSIX
  allows it (the open file lives on), and the cache uses that to pin an inode so it cannot
  be reused. Windows refuses to replace or remove a file someone has open (Python's `open`
  does not share delete access), so there nothing of the cache stays open outside the cache
  lock, and a file's identity is its file id alone (NTFS ids carry a sequence number, so a
  freed id is not handed straight to a newer file).
- `fsync_dir`: a rename made durable. Windows cannot open a directory with `os.open`; NTFS
  journals its metadata, so there is nothing to do.
- `process_alive`: `os.kill(pid, 0)` on POSIX; on Windows `os.kill` would deliver Ctrl-C (0
  is `CTRL_C_EVENT`) or terminate, so the process is asked for its exit code instead.
- `replace`/`unlink` retry briefly on Windows while a reader of another process still has the
  file open (readers hold cache files only for one read, never across a wait).

`BINARY` goes into every `os.open`: a text-mode descriptor on Windows turns "\\n" into "\\r\\n"
and stops reading at Ctrl-Z.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

BINARY = getattr(os, "O_BINARY", 0)
STILL_ACTIVE = 259
"""The exit code Windows reports for a process still running."""
SHARING_RETRY_S = (0.01, 0.02, 0.05, 0.1, 0.2, 0.4)
"""The waits between tries of a replace or removal a Windows reader holds up (under a second in all)."""


class Files(Protocol):
    name: str
    keeps_replaced_open: bool

    def fsync_dir(self, directory: Path) -> None: ...

    def process_alive(self, pid: int) -> bool: ...

    def replace(self, source: Path, target: Path) -> None: ...

    def unlink(self, path: Path) -> None: ...


class PosixFiles:
    name = "posix"
    keeps_replaced_open = True

    def fsync_dir(self, directory: Path) -> None:
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def process_alive(self, pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True

    def replace(self, source: Path, target: Path) -> None:
        os.replace(source, target)

    def unlink(self, path: Path) -> None:
        os.unlink(path)


class WindowsFiles:
    """`exit_code(pid)`: the process's exit code (STILL_ACTIVE while it runs), None when there is
    no such process, or -1 when it exists but may not be asked."""

    name = "windows"
    keeps_replaced_open = False

    def __init__(self, exit_code: Callable[[int], int | None], sleep: Callable[[float], None] = time.sleep):
        self._exit_code = exit_code
        self._sleep = sleep

    def fsync_dir(self, directory: Path) -> None:
        """Nothing: a directory cannot be opened as a file, and NTFS journals the rename itself."""

    def process_alive(self, pid: int) -> bool:
        code = self._exit_code(pid)
        return code is not None and code in (STILL_ACTIVE, -1)

    def replace(self, source: Path, target: Path) -> None:
        self._retrying(lambda: os.replace(source, target))

    def unlink(self, path: Path) -> None:
        self._retrying(lambda: os.unlink(path))

    def _retrying(self, action: Callable[[], None]) -> None:
        for wait in SHARING_RETRY_S:
            try:
                action()
                return
            except PermissionError:  # another process is reading the file right now
                self._sleep(wait)
        action()


def _windows_exit_code(pid: int) -> int | None:  # pragma: no cover - runs on Windows only
    import ctypes

    kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined,unused-ignore]
    handle = kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
    if not handle:
        return -1 if ctypes.get_last_error() == 5 else None  # type: ignore[attr-defined,unused-ignore]  # ERROR_ACCESS_DENIED: it exists
    try:
        code = ctypes.c_ulong()
        if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
            return -1
        return int(code.value)
    finally:
        kernel32.CloseHandle(handle)


FILES: Files = WindowsFiles(_windows_exit_code) if os.name == "nt" else PosixFiles()
