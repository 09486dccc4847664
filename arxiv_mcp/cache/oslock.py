"""Exclusive OS file locks on an open descriptor, on POSIX and on Windows, never blocking.

One interface, `Locker`: `try_lock(fd)` takes the lock or answers False at once, `unlock(fd)`
lets go; closing the descriptor also lets go. Callers poll, so every wait stays bounded by
the call's deadline and ends when the call is cancelled (an OS lock cannot time out).

- POSIX (`FlockLocker`): `flock` of the whole file. It belongs to the open file description,
  so a second `os.open` of the same file, by another thread of this process or by another
  process, is excluded.
- Windows (`MsvcrtLocker`): `msvcrt.locking` of one byte at `LOCK_OFFSET`, far past anything
  written. It belongs to the handle, so it excludes as `flock` does; and since Windows locks
  are mandatory, locking the byte range of the content would stop the others from reading
  the holder's pid and lease, which they need to say who holds it and to take over a lease
  nobody renews.

`fcntl` and `msvcrt` are imported only here, and only the one the platform has: the package
must import on Windows, where there is no `fcntl`. `read_at`/`write_at` stand in for
`os.pread`/`os.pwrite`, which Windows lacks too. Files are opened with `O_BINARY` there (a
text-mode descriptor would turn the lease's newline into two bytes).
"""

from __future__ import annotations

import errno
import importlib
import os
from collections.abc import Callable
from types import ModuleType
from typing import Protocol

LOCK_OFFSET = 1 << 30
"""The byte Windows locks: past any lock file's content (locking beyond the end is allowed)."""
OPEN_FLAGS = os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0)


class Locker(Protocol):
    name: str

    def try_lock(self, fd: int) -> bool:
        """Take the exclusive lock on `fd`'s file, or answer False if another holds it."""
        ...

    def unlock(self, fd: int) -> None: ...


class FlockLocker:
    name = "flock"

    def __init__(self, fcntl: ModuleType):
        self._fcntl = fcntl

    def try_lock(self, fd: int) -> bool:
        try:
            self._fcntl.flock(fd, self._fcntl.LOCK_EX | self._fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def unlock(self, fd: int) -> None:
        self._fcntl.flock(fd, self._fcntl.LOCK_UN)


class MsvcrtLocker:
    name = "msvcrt"
    _BUSY = {errno.EACCES, errno.EDEADLK, getattr(errno, "EDEADLOCK", errno.EDEADLK)}

    def __init__(self, msvcrt: ModuleType):
        self._msvcrt = msvcrt

    def try_lock(self, fd: int) -> bool:
        os.lseek(fd, LOCK_OFFSET, os.SEEK_SET)
        try:
            self._msvcrt.locking(fd, self._msvcrt.LK_NBLCK, 1)
        except OSError as exc:
            if exc.errno in self._BUSY:
                return False
            raise
        return True

    def unlock(self, fd: int) -> None:
        os.lseek(fd, LOCK_OFFSET, os.SEEK_SET)
        self._msvcrt.locking(fd, self._msvcrt.LK_UNLCK, 1)


def _platform_locker() -> Locker:
    try:
        return FlockLocker(importlib.import_module("fcntl"))
    except ImportError:
        return MsvcrtLocker(importlib.import_module("msvcrt"))


LOCKER: Locker = _platform_locker()


def read_at(fd: int, size: int, offset: int) -> bytes:
    """`os.pread`, or a seek and a read where there is none (the caller owns the descriptor's
    position: every user of one descriptor holds a thread lock)."""
    pread: Callable[[int, int, int], bytes] | None = getattr(os, "pread", None)
    if pread is not None:
        return pread(fd, size, offset)
    os.lseek(fd, offset, os.SEEK_SET)
    return os.read(fd, size)


def write_at(fd: int, data: bytes, offset: int) -> None:
    """`os.pwrite` of all of `data` (or a seek and writes where there is none)."""
    pwrite = getattr(os, "pwrite", None)
    view = memoryview(data)
    while view:
        if pwrite is not None:
            written = pwrite(fd, view, offset)
        else:
            os.lseek(fd, offset, os.SEEK_SET)
            written = os.write(fd, view)
        view, offset = view[written:], offset + written
