"""Whole-or-nothing file writes: stage in a temporary file, optionally fsync, rename into place.

Temporary files live in one folder and carry the writer's process id in their name, so a
process starting later can tell the leftovers of a killed writer from a live writer's work.
What differs on Windows (renames, removals, directory fsync, asking after a process) goes
through `osfiles.FILES`.
"""

from __future__ import annotations

import logging
import os
import tempfile
import time
from pathlib import Path

from . import osfiles

logger = logging.getLogger(__name__)

TMP_SUFFIX = ".tmp"
# A temporary file this old is a leftover even if its process id now names a live process
# (process ids are reused); no honest write takes this long.
STALE_TMP_AGE_S = 3600.0


def stage(data: bytes, tmp_dir: Path, *, durable: bool = True) -> Path:
    """Write `data` to a new temporary file in `tmp_dir` and return its path; fsync when durable."""
    fd, name = tempfile.mkstemp(prefix=f"{os.getpid()}.", suffix=TMP_SUFFIX, dir=tmp_dir)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        if durable:
            os.fsync(fd)
    except BaseException:
        os.close(fd)
        discard(Path(name))
        raise
    os.close(fd)
    return Path(name)


def write_atomic(path: Path, data: bytes, tmp_dir: Path, *, durable: bool = True) -> None:
    """Replace `path` with `data` so that readers see either the old or the new file, never a mix."""
    staged = stage(data, tmp_dir, durable=durable)
    try:
        osfiles.FILES.replace(staged, path)
    except BaseException:
        discard(staged)
        raise
    if durable:
        fsync_dir(path.parent)


def fsync_dir(directory: Path) -> None:
    """Make a rename inside `directory` survive a power cut."""
    osfiles.FILES.fsync_dir(directory)


def discard(path: Path) -> None:
    """Remove a file if it is there."""
    try:
        osfiles.FILES.unlink(path)
    except FileNotFoundError:
        pass


def clean_stale_tmp(tmp_dir: Path, *, now: float | None = None) -> int:
    """Remove temporary files left by writers that died; return how many were removed."""
    now = time.time() if now is None else now
    removed = 0
    try:
        entries = list(os.scandir(tmp_dir))
    except FileNotFoundError:
        return 0
    for entry in entries:
        if not entry.name.endswith(TMP_SUFFIX):
            continue
        owner, _, _ = entry.name.partition(".")
        try:
            age = now - entry.stat(follow_symlinks=False).st_mtime
        except FileNotFoundError:
            continue
        leftover = not owner.isdigit() or age > STALE_TMP_AGE_S
        if not leftover:
            pid = int(owner)
            leftover = pid != os.getpid() and not osfiles.FILES.process_alive(pid)
        if leftover:
            discard(Path(entry.path))
            removed += 1
    if removed:
        logger.info("removed %d temporary file(s) left by interrupted writers in %s", removed, tmp_dir)
    return removed
