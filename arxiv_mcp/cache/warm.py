"""Proof that a read made from the cache would read the same now, checked without the lock.

A warm read that is answered again (a page read twice, a model going back) needs neither the
cache lock nor any file opened, as long as two things hold, each seen by one `stat`:
- the index has not changed: every change to it, by any process (an insert, an eviction, a
  re-extraction, a latest-version mark, a note, a recovery, the batched access times), is an
  append to `journal.jsonl` or a compaction that replaces it, so the journal's device, inode,
  size, modification and change times move. Its stat is taken before the read and must be
  the same after it (else the read proves nothing: something changed meanwhile) and at every
  later check.
- the text file read is still the very file there, unchanged: its stat matches the `fstat` of
  the file the read decoded (readmemo.py's stamp; the cache replaces files by rename, a new
  inode, so a replaced or damaged file fails the check and is read, checked, dropped as ever).
A proof also ends at a moment (`until`): the version a bare id reads holds only while the
metadata that named it is fresh. Anything else the answer depends on lives in the index.
(Stamps share readmemo.py's limit: file times move by the kernel's tick, so only a write in
place of the same size within one tick, which the cache never makes, keeps a stamp. Where tier
files are read into memory under the lock, on Windows, there is no file to stamp: no proof.)

A proof that holds counts as an access (least recently used order): the access waits in this
process (`AccessLog.later`), reaches the mirror at the next holding of the lock, before any
eviction, and the journal with the batch (access.py), which a check that finds the batch due
writes itself when the lock is free at once. A crash loses only those access times.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass

from .. import budget, errors
from .ledger import Ledger
from .readmemo import Stamp, stamp_of
from .records import Key


def stat_stamp(path: str | os.PathLike[str]) -> Stamp | None:
    """The file's stamp, as readmemo.py takes it of an open file; None when it is not there."""
    try:
        return stamp_of(os.stat(path))
    except OSError:
        return None


@dataclass(frozen=True)
class TextOrigin:
    """The text file a read decoded: its entry, its path and its stamp when read."""

    key: Key
    path: str
    stamp: Stamp


@dataclass(frozen=True)
class Proof:
    """A read made from the cache alone: the index as it was, the file read, and until when
    (cache clock) the read's choices hold."""

    index: Stamp
    origin: TextOrigin
    until: float


class WarmChecks:
    """The part of `store.Cache` that proves warm reads, on the `Ledger` it shares."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def index_stamp(self) -> Stamp | None:
        """The index journal's stamp: take it before a read that may be proved afterwards."""
        return stat_stamp(self.ledger.index.journal_path)

    def proof(self, origin: TextOrigin | None, since: Stamp | None, until: float | None) -> Proof | None:
        """A proof of a read that began when the journal was `since` and decoded `origin`;
        None when the index changed meanwhile, or the read was not made from the cache alone."""
        if origin is None or since is None or until is None or self.index_stamp() != since:
            return None
        return Proof(since, origin, until)

    def holds(self, proof: Proof) -> bool:
        """Whether the read `proof` stands for would read the same now; if so it counts as an
        access to its entry."""
        now = self.ledger.clock()
        if (
            now >= proof.until
            or self.index_stamp() != proof.index
            or stat_stamp(proof.origin.path) != proof.origin.stamp
        ):
            return False
        access = self.ledger.access
        access.later(proof.origin.key, now)
        if access.due(now):
            self._flush_soon()
        return True

    def _flush_soon(self) -> None:
        """Journal the batched accesses if the lock is free now (a budget of no time: another
        process's holding is not waited for); a read never fails for that, the next one tries again."""
        with contextlib.suppress(errors.ArxivMcpError, OSError), budget.tool_call(0.0), self.ledger.locked():
            pass  # the holding itself applies and journals what is due (Ledger.locked)
