"""The cache home's folders, made and proved writable: the one check start-up makes.

`prepare` is what `Cache` does first, and what the server does before it answers
`initialize` (it builds the `Cache` on the first call that needs it): a home that cannot be
used stops start-up with one line, before a client is told the server is ready. Nothing here
reads what the cache holds, so it costs the same at 10 papers and at 10,000.
"""

from __future__ import annotations

from pathlib import Path

from .. import errors
from .atomic import discard, stage

FOLDERS = ("papers", "searches", "tmp")
"""The home's subfolders (store.py's layout)."""


class HomeUnusable(errors.ArxivMcpError):
    """The cache home cannot be created or written at all (checked once, at start-up)."""


def prepare(home: Path) -> None:
    """Make `home` and its folders, and write (then remove) a temporary file in it: a read-only
    home fails here, not at the first read. Raises HomeUnusable, naming the cause and the fix."""
    try:
        for folder in (home, *(home / name for name in FOLDERS)):
            folder.mkdir(parents=True, exist_ok=True)
        discard(stage(b"", home / "tmp", durable=False))
    except OSError as exc:
        raise unusable(home, exc) from None


def unusable(home: Path, exc: OSError) -> HomeUnusable:
    """The one-line error for a home the OS refuses (`exc`)."""
    why = exc.strerror or str(exc)
    if isinstance(exc, (FileExistsError, NotADirectoryError)):
        why = "a file stands where a folder belongs"
    return HomeUnusable(
        f"ARXIV_MCP_HOME={str(home)!r} cannot be used as the cache folder "
        f"({exc.filename or home}: {why}): point ARXIV_MCP_HOME at a folder this user can write"
    )
