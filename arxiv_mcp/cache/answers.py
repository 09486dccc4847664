"""Short-lived answers (searches, category trends, Semantic Scholar pages), one JSON file per key.

They live in `searches/` apart from the paper tiers: no index entry, no pin, no eviction order,
only a deadline inside each file and a cap on how many files are kept (the oldest go first).
An answer is a copy of something fetched a moment ago, so losing one only costs a request.
Callers store plain JSON: each turns its typed record into a dict at this boundary and back.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from . import osfiles
from .atomic import discard

MAX_ENTRIES = 500


class AnswerStore:
    """Needs the cache's lock around a write (`locked`) and its staging of temporary files
    (`stage`, which raises the cache's write errors), so it shares the home's rules."""

    def __init__(
        self,
        folder: Path,
        stage: Callable[[bytes], Path],
        locked: Callable[[], AbstractContextManager[None]],
        clock: Callable[[], float],
    ):
        self.folder = folder
        self._stage = stage
        self._locked = locked
        self._clock = clock

    def get(self, key: str) -> dict[str, Any] | None:
        """The answer kept under `key`, or None when there is none, it expired or it is unreadable."""
        try:
            body = json.loads(self._path(key).read_bytes())
        except (FileNotFoundError, ValueError):
            return None
        if not isinstance(body, dict) or body.get("key") != key or not isinstance(body.get("value"), dict):
            return None
        expires_at = body.get("expires_at")
        if not isinstance(expires_at, (int, float)) or expires_at <= self._clock():
            return None
        value: dict[str, Any] = body["value"]
        return value

    def put(self, key: str, value: dict[str, Any], ttl_s: float) -> None:
        """Keep an answer for `ttl_s` seconds; only the newest MAX_ENTRIES are kept."""
        path = self._path(key)
        if not isinstance(value, dict) or not ttl_s > 0:
            raise ValueError("a search answer is a dict kept for a positive number of seconds")
        body = {"key": key, "expires_at": self._clock() + ttl_s, "value": value}
        try:
            payload = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
        except (TypeError, ValueError) as exc:
            raise ValueError(f"a search answer must be JSON: {exc}") from None
        staged, moved = self._stage(payload), False
        try:
            with self._locked():
                osfiles.FILES.replace(staged, path)
                moved = True
                self._trim()
        finally:
            if not moved:
                discard(staged)

    def clear(self) -> None:
        for path in self.folder.glob("*.json"):
            discard(path)

    def _path(self, key: str) -> Path:
        if not isinstance(key, str) or not key:
            raise ValueError("a search key is a non-empty string")
        return self.folder / (hashlib.sha256(key.encode()).hexdigest()[:40] + ".json")

    def _trim(self) -> None:
        aged = []
        with os.scandir(self.folder) as entries:
            for entry in entries:
                if not entry.name.endswith(".json"):
                    continue
                try:
                    aged.append((entry.stat().st_mtime_ns, entry.path))
                except FileNotFoundError:
                    continue
        if len(aged) <= MAX_ENTRIES:
            return
        aged.sort()
        for _, path in aged[: len(aged) - MAX_ENTRIES]:
            discard(Path(path))
