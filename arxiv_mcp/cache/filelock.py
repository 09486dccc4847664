"""One lock for both the threads of this process and the other processes sharing a folder.

`fcntl.flock` excludes other processes (and other open descriptions of the lock file), a
`threading.RLock` excludes other threads of this process; the lock is re-entrant so that a
locked operation may call another.

The lock file also records whether its last holder finished: its first byte is set to "1" on
taking the lock and back to "0" on a clean release, followed by the machine's boot id. A holder
killed mid-update (or a reboot, which may drop unsynced writes) shows up to the next holder as
`interrupted`, which tells the cache to check its index against the files.
"""

from __future__ import annotations

import fcntl
import os
import threading
from pathlib import Path

BUSY, CLEAN = b"1", b"0"


def _read_boot_id() -> bytes | None:
    try:
        with open("/proc/sys/kernel/random/boot_id", "rb") as handle:
            return handle.read().strip() or None
    except OSError:
        return None


# None where the platform does not say; the cache then checks its files on every start.
BOOT_ID = _read_boot_id()


class ProcessLock:
    def __init__(self, path: Path):
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        self._thread_lock = threading.RLock()
        self._depth = 0
        self.interrupted = False

    def acquire(self) -> bool:
        """Take the lock; return True when this is the outermost acquisition (then `interrupted` is fresh)."""
        self._thread_lock.acquire()
        if self._depth == 0:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX)
                stamp = BUSY + (BOOT_ID or b"")
                previous = os.pread(self._fd, 64, 0)
                self.interrupted = previous != CLEAN + (BOOT_ID or b"")
                if previous[1:] == stamp[1:]:
                    os.pwrite(self._fd, BUSY, 0)
                else:
                    os.ftruncate(self._fd, 0)
                    os.pwrite(self._fd, stamp, 0)
            except BaseException:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
                self._thread_lock.release()
                raise
        self._depth += 1
        return self._depth == 1

    def release(self, *, finished: bool = True) -> None:
        """Let go; `finished=False` leaves the mark that the update may be half done."""
        self._depth -= 1
        if self._depth == 0:
            try:
                if finished:
                    os.pwrite(self._fd, CLEAN, 0)
            finally:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
        self._thread_lock.release()

    def close(self) -> None:
        with self._thread_lock:
            if self._fd >= 0:
                os.close(self._fd)
                self._fd = -1
