"""A write the disk refused, said once: `CacheWriteFailed`, with the cause and the fix.

Every write under the cache home (tier files, the index, the lock and schedule files of
filelock.py and the rate limiter) reports a refused write through `write_failure`, so a full
disk or a read-only folder reads the same whichever file met it. Imports nothing of the cache:
the lock and the store both build on it.
"""

from __future__ import annotations

import errno
import logging
from collections.abc import Iterator
from contextlib import contextmanager

from .. import errors

logger = logging.getLogger(__name__)


class CacheWriteFailed(errors.ArxivMcpError):
    """The disk refused a write into the cache home (full, a file-size limit, read-only)."""


# Why a write failed, and the fix, by errno; anything else gets the system's own words.
_DISK_FIXES = {
    errno.ENOSPC: "the disk is full: free space on it, lower ARXIV_MCP_MAX_DISK_MB, or point ARXIV_MCP_HOME at a "
    "disk with room (clear_cache frees the cache's own files)",
    errno.EDQUOT: "the disk quota is used up: free space within the quota or point ARXIV_MCP_HOME elsewhere",
    errno.EFBIG: "the file is larger than this process may write (a file-size limit, ulimit -f): raise the limit "
    "in the client's launch settings or lower ARXIV_MCP_MAX_DOWNLOAD_MB",
    errno.EROFS: "the file system is read-only: point ARXIV_MCP_HOME at a writable folder",
    errno.EACCES: "permission denied: make the folder writable by this user or point ARXIV_MCP_HOME elsewhere",
    errno.EPERM: "permission denied: make the folder writable by this user or point ARXIV_MCP_HOME elsewhere",
}


def disk_problem(exc: OSError) -> str:
    """The cause and the fix of a failed cache write, for a message a person can act on."""
    fix = _DISK_FIXES.get(exc.errno or 0)
    if fix is not None:
        return fix
    return f"{exc.strerror or exc}: check the folder or point ARXIV_MCP_HOME elsewhere"


def write_failure(exc: OSError) -> CacheWriteFailed:
    """A write under the cache home that the disk refused, as one error a person can act on."""
    return CacheWriteFailed(f"The cache folder (ARXIV_MCP_HOME) refused a write: {disk_problem(exc)}.")


@contextmanager
def best_effort(what: str) -> Iterator[None]:
    """For copies of answers already in hand: a refused write is a warning, not a failed call."""
    try:
        yield
    except CacheWriteFailed as exc:
        logger.warning("%s was not cached: %s", what, exc)
