"""The decoded bodies of the text files read last, so a warm read does not read, hash and
parse the same file again (a paper is read page after page).

Invariant: a body is served from here only for the same index record (size and checksum)
and the same file on disk, seen by `fstat` of the file just opened under the index: device,
inode, size, modification and change times. Files are replaced by rename (a new inode) and a
write in place moves the change time, which no program can set back, so a file that changed
since it was checked is read, checked and decoded again. (File times move by the kernel's
tick, a few ms: a write in place within one tick of the file's previous change keeps its
times; the cache's own writes always make a new inode.) Bodies are shared: callers
must not mutate them (text bodies hold only strings and numbers).
"""

from __future__ import annotations

import io
import os
import threading
from collections import OrderedDict
from typing import Any, BinaryIO

from .records import TierRecord

KEPT = 8
"""Bodies kept: the few papers being read at once (a text body is its whole document)."""

Stamp = tuple[int, int, int, int, int]
"""What identifies a file's bytes without reading them (device, inode, size, times)."""


def stamp_of(st: os.stat_result) -> Stamp:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


class ReadMemo:
    """A small LRU of decoded file bodies keyed by what identifies the file's bytes."""

    def __init__(self, kept: int = KEPT) -> None:
        self._kept = kept
        self._bodies: OrderedDict[object, tuple[TierRecord, Stamp, Any]] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def stamp(handle: BinaryIO) -> Stamp | None:
        """None for bytes already read into memory (on Windows a tier file is read under the
        lock): there is no file to compare, so the memo is passed by."""
        try:
            return stamp_of(os.fstat(handle.fileno()))
        except io.UnsupportedOperation:
            return None

    def get(self, name: object, record: TierRecord, stamp: Stamp | None) -> Any | None:
        with self._lock:
            kept = self._bodies.get(name)
            if stamp is None or kept is None or kept[0] != record or kept[1] != stamp:
                return None
            self._bodies.move_to_end(name)
            return kept[2]

    def put(self, name: object, record: TierRecord, stamp: Stamp | None, body: Any) -> None:
        if stamp is None:
            return
        with self._lock:
            self._bodies[name] = (record, stamp, body)
            self._bodies.move_to_end(name)
            while len(self._bodies) > self._kept:
                self._bodies.popitem(last=False)
