"""Open sessions and the paper versions they pin, kept in `sessions.json` beside the cache index.

The file is small and rewritten whole (atomically) on every change, under the cache's lock;
other processes notice a new file by its inode number and reload it. On POSIX each process keeps
the file it last read open, so that inode cannot be freed and handed to a newer file; Windows
refuses to replace an open file, so there it is closed at once (`osfiles`). Sessions cannot be
rebuilt from the paper files, so they live apart from the index and survive its rebuild.

Each session belongs to the client that started it (`acting_for`): over HTTP several clients
share one server, and none may see, end or unpin another's sessions, nor learn their ids. The
stored key is `<client>/<session id>` (a `/` never occurs in a session id, so keys of different
clients cannot collide); the stdio client, the only one of its process, stores the bare id. Every
pin still protects its paper from eviction and from another client's `clear_cache`.

The store also owns what a session id may be, how long an unused session lives (`ttl_s`) and
the `SessionInfo` a tool returns; the cache only holds the lock and evicts after a session ends.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from .. import errors
from ..models import SessionInfo
from . import osfiles
from .atomic import write_atomic
from .files import check_paper_id, check_version, versioned_id

logger = logging.getLogger(__name__)

Key = tuple[str, int]
SESSIONS_FORMAT = 1
SESSION_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")
# A session's last-use time advances in steps of this many seconds, so that a busy session
# does not rewrite the file on every call; far finer than any sensible session lifetime.
TOUCH_STEP_S = 60.0

_client: ContextVar[str | None] = ContextVar("arxiv_mcp_session_client", default=None)


@contextmanager
def acting_for(client: str | None) -> Iterator[None]:
    """Scope the session calls made inside (in this context and the threads it starts) to
    `client`: an opaque name without `/`, or None for the process's only (stdio) client."""
    if client is not None and "/" in client:
        raise ValueError("a client name cannot contain '/'")
    token = _client.set(client)
    try:
        yield
    finally:
        _client.reset(token)


def _key(session_id: str) -> str:
    client = _client.get()
    return session_id if client is None else f"{client}/{session_id}"


def _own_prefix() -> str | None:
    client = _client.get()
    return None if client is None else client + "/"


def _is_own(key: str) -> bool:
    prefix = _own_prefix()
    return "/" not in key if prefix is None else key.startswith(prefix)


class SessionStore:
    """Every call needs the cache lock held; each sees only the calling client's sessions.
    A session unused for `ttl_s` seconds is closed by the next call that looks."""

    def __init__(self, path: Path, tmp_dir: Path, ttl_s: float):
        self.path = path
        self.ttl_s = ttl_s
        self._tmp_dir = tmp_dir
        self._all: dict[str, dict[str, Any]] = {}
        self._fd = -1
        self._inode: int | None = None
        self._pins: dict[Key, list[str]] | None = None

    @property
    def sessions(self) -> dict[str, dict[str, Any]]:
        """The calling client's open sessions by session id (the records themselves: read them,
        change them through the methods below)."""
        cut = len(_own_prefix() or "")
        return {key[cut:]: session for key, session in self._all.items() if _is_own(key)}

    def last_used_first(self) -> list[str]:
        """The calling client's open session ids, the most recently used first."""
        mine = self.sessions
        return sorted(mine, key=lambda session_id: (-mine[session_id]["last_used"], session_id))

    def refresh(self) -> None:
        """Reload the file if another process (or another Cache object) replaced it."""
        try:
            inode = os.stat(self.path).st_ino
        except FileNotFoundError:
            inode = None
        if inode != self._inode:
            self._load()

    def save(self, *, durable: bool = True) -> None:
        body = {"format": SESSIONS_FORMAT, "sessions": self._all}
        write_atomic(self.path, json.dumps(body, separators=(",", ":")).encode(), self._tmp_dir, durable=durable)
        self._hold(os.open(self.path, os.O_RDONLY | osfiles.BINARY))
        self._pins = None

    def close(self) -> None:
        self._hold(-1)

    def pins(self) -> dict[Key, list[str]]:
        """Every pinned paper version (whoever pins it), each with the calling client's sessions
        pinning it: a version pinned only by other clients maps to an empty list."""
        cut = len(_own_prefix() or "")
        return {key: [k[cut:] for k in keys if _is_own(k)] for key, keys in self._all_pins().items()}

    def others_pins(self) -> set[Key]:
        """Paper versions pinned by another client's sessions."""
        return {key for key, keys in self._all_pins().items() if not all(_is_own(k) for k in keys)}

    def _all_pins(self) -> dict[Key, list[str]]:
        if self._pins is None:
            pins: dict[Key, list[str]] = {}
            for stored_key, session in self._all.items():
                for paper_id, version in session["pinned"]:
                    pins.setdefault((paper_id, version), []).append(stored_key)
            self._pins = pins
        return self._pins

    # --- what the session tools do ---------------------------------------------------------

    def start(self, session_id: str | None, now: float) -> SessionInfo:
        """Open a session (or return the open one of that id); a new id when none is given."""
        if session_id is not None:
            check_session_id(session_id)
        self.expire(now)
        if session_id is None:
            session_id = "s-" + secrets.token_hex(6)
            while session_id in self.sessions:
                session_id = "s-" + secrets.token_hex(6)
        if session_id in self.sessions:
            self._touch(session_id, now)
        else:
            self._all[_key(session_id)] = {"created": now, "last_used": now, "pinned": []}
            self.save()
        return self._view(session_id)

    def status(self, session_id: str, now: float) -> SessionInfo:
        self._open(session_id, now)
        self._touch(session_id, now)
        return self._view(session_id)

    def end(self, session_id: str, now: float) -> SessionInfo:
        """Close a session and release its pins; the session as it was, no longer open."""
        self._open(session_id, now)
        view = self._view(session_id)
        del self._all[_key(session_id)]
        self.save()
        view.open = False
        return view

    def pin(self, session_id: str, key: Key, now: float) -> None:
        session = self._open(session_id, now)
        if [key[0], key[1]] in session["pinned"]:
            self._touch(session_id, now)
            return
        session["pinned"].append([key[0], key[1]])
        session["last_used"] = max(session["last_used"], now)
        self.save()

    def expire(self, now: float) -> int:
        """Close every client's sessions untouched for `ttl_s`; return how many.

        The log line gives the number, not the ids: it may reach the calling client, and
        the ids may be other clients'."""
        expired = [key for key, session in self._all.items() if now - session["last_used"] >= self.ttl_s]
        for key in expired:
            del self._all[key]
        if expired:
            logger.info("closed %d session(s) unused for %.0f s", len(expired), self.ttl_s)
            self.save()
        return len(expired)

    def unpin_all(self) -> None:
        """Release every pin of the calling client's sessions (other clients' pins stay)."""
        for key, session in self._all.items():
            if _is_own(key):
                session["pinned"] = []
        self.save()

    def _open(self, session_id: str, now: float) -> dict[str, Any]:
        check_session_id(session_id)
        self.expire(now)
        session = self.sessions.get(session_id)
        if session is None:
            raise errors.NotFound(
                f"No open session '{session_id}': it was ended, closed after {self.ttl_s / 86400:g} days unused, or "
                "never started. Call start_session (you may reuse the same id) and fetch the papers again to pin them."
            )
        return session

    def _touch(self, session_id: str, now: float) -> None:
        session = self._all[_key(session_id)]
        if now - session["last_used"] >= TOUCH_STEP_S:
            session["last_used"] = now
            self.save(durable=False)  # a read's bookkeeping: a crash may lose it, costing a minute of lifetime

    def _view(self, session_id: str) -> SessionInfo:
        session = self._all[_key(session_id)]
        return SessionInfo(
            session_id=session_id,
            created=session["created"],
            last_used=session["last_used"],
            pinned=[versioned_id(p, v) for p, v in session["pinned"]],
            expires_at=session["last_used"] + self.ttl_s,
        )

    def _hold(self, fd: int) -> None:
        """Remember `fd`'s file as the current one, keeping it open in place of the previous one
        where the platform lets others replace an open file."""
        if self._fd >= 0:
            os.close(self._fd)
        self._fd = fd
        self._inode = os.fstat(fd).st_ino if fd >= 0 else None
        if fd >= 0 and not osfiles.FILES.keeps_replaced_open:
            os.close(fd)
            self._fd = -1

    def _load(self) -> None:
        self._pins = None
        self._all = {}
        try:
            fd = os.open(self.path, os.O_RDONLY | osfiles.BINARY)
        except FileNotFoundError:
            self._hold(-1)
            return
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read()
        self._hold(fd)
        try:
            self._all = _parse(data)
        except (ValueError, TypeError, KeyError) as exc:
            aside = self.path.with_name("sessions.json.corrupt")
            osfiles.FILES.replace(self.path, aside)
            self._hold(-1)
            logger.warning(
                "session file %s is unreadable (%s); kept as %s, starting with no sessions", self.path, exc, aside
            )


def check_session_id(session_id: object) -> None:
    if not isinstance(session_id, str) or not SESSION_ID.fullmatch(session_id):
        raise errors.InvalidInput(
            f"Invalid session_id {session_id!r}: use 1-64 characters of letters, digits, '_', '.' or '-', "
            "or call start_session without an id to get one."
        )


def _parse(data: bytes) -> dict[str, dict[str, Any]]:
    body = json.loads(data)
    if not isinstance(body, dict) or body.get("format") != SESSIONS_FORMAT or not isinstance(body["sessions"], dict):
        raise ValueError("not a session file of a known format")
    sessions = {}
    for session_id, raw in body["sessions"].items():
        pinned = [[check_paper_id(p), check_version(v)] for p, v in raw["pinned"]]
        sessions[session_id] = {
            "created": float(raw["created"]),
            "last_used": float(raw["last_used"]),
            "pinned": pinned,
        }
    return sessions
