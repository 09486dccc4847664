"""Open sessions and the paper versions they pin, kept in `sessions.json` beside the cache index.

The file is small and rewritten whole (atomically) on every change, under the cache's lock;
other processes notice a new file by its inode number and reload it. Each process keeps the file
it last read open, so that inode cannot be freed and handed to a newer file. Sessions cannot be
rebuilt from the paper files, so they live apart from the index and survive its rebuild.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from .atomic import write_atomic
from .files import check_paper_id, check_version

logger = logging.getLogger(__name__)

Key = tuple[str, int]
SESSIONS_FORMAT = 1
# A session's last-use time advances in steps of this many seconds, so that a busy session
# does not rewrite the file on every call; far finer than any sensible session lifetime.
TOUCH_STEP_S = 60.0


class SessionStore:
    """Every call needs the cache lock held."""

    def __init__(self, path: Path, tmp_dir: Path):
        self.path = path
        self._tmp_dir = tmp_dir
        self.sessions: dict[str, dict] = {}
        self._fd = -1
        self._inode: int | None = None
        self._pins: dict[Key, list[str]] | None = None

    def refresh(self) -> None:
        """Reload the file if another process (or another Cache object) replaced it."""
        try:
            inode = os.stat(self.path).st_ino
        except FileNotFoundError:
            inode = None
        if inode != self._inode:
            self._load()

    def save(self) -> None:
        body = {"format": SESSIONS_FORMAT, "sessions": self.sessions}
        write_atomic(self.path, json.dumps(body, separators=(",", ":")).encode(), self._tmp_dir)
        self._hold(os.open(self.path, os.O_RDONLY))
        self._pins = None

    def close(self) -> None:
        self._hold(-1)

    def pins(self) -> dict[Key, list[str]]:
        """Pinned paper versions, each with the sessions pinning it."""
        if self._pins is None:
            pins: dict[Key, list[str]] = {}
            for session_id, session in self.sessions.items():
                for paper_id, version in session["pinned"]:
                    pins.setdefault((paper_id, version), []).append(session_id)
            self._pins = pins
        return self._pins

    def create(self, session_id: str, now: float) -> dict:
        session = {"created": now, "last_used": now, "pinned": []}
        self.sessions[session_id] = session
        self.save()
        return session

    def touch(self, session_id: str, now: float) -> None:
        session = self.sessions[session_id]
        if now - session["last_used"] >= TOUCH_STEP_S:
            session["last_used"] = now
            self.save()

    def pin(self, session_id: str, key: Key, now: float) -> None:
        session = self.sessions[session_id]
        if [key[0], key[1]] in session["pinned"]:
            self.touch(session_id, now)
            return
        session["pinned"].append([key[0], key[1]])
        session["last_used"] = max(session["last_used"], now)
        self.save()

    def end(self, session_id: str) -> None:
        del self.sessions[session_id]
        self.save()

    def expire(self, now: float, ttl_s: float) -> list[str]:
        """Close the sessions untouched for `ttl_s`; return their ids."""
        expired = [sid for sid, session in self.sessions.items() if now - session["last_used"] >= ttl_s]
        for session_id in expired:
            del self.sessions[session_id]
        if expired:
            logger.info("closed %d session(s) unused for %.0f s: %s", len(expired), ttl_s, ", ".join(expired))
            self.save()
        return expired

    def unpin_all(self) -> None:
        for session in self.sessions.values():
            session["pinned"] = []
        self.save()

    def _hold(self, fd: int) -> None:
        """Keep `fd` (the current file) open in place of the previous one."""
        if self._fd >= 0:
            os.close(self._fd)
        self._fd = fd
        self._inode = os.fstat(fd).st_ino if fd >= 0 else None

    def _load(self) -> None:
        self._pins = None
        self.sessions = {}
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except FileNotFoundError:
            self._hold(-1)
            return
        self._hold(fd)
        try:
            with os.fdopen(os.dup(fd), "rb") as handle:
                self.sessions = _parse(handle.read())
        except (ValueError, TypeError, KeyError) as exc:
            aside = self.path.with_name("sessions.json.corrupt")
            os.replace(self.path, aside)
            self._hold(-1)
            logger.warning(
                "session file %s is unreadable (%s); kept as %s, starting with no sessions", self.path, exc, aside
            )


def _parse(data: bytes) -> dict[str, dict]:
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
