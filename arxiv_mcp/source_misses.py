"""What a paper's text sources are known not to have: typed records and their one stored form.

A miss says that `source` (html, source, pdf, ar5iv) had nothing usable for `version` of a
paper, why, when it was seen (`at`, epoch seconds) and, for a miss worth re-checking, `until`
when it stops counting (None: for good). ar5iv renders one version per paper, so its miss
has `version` None and stands for the paper.

Invariant: the cache note is read and written only here (`load`, `dump`), so the stored form
(a JSON object keyed "html:v3" / "ar5iv:paper", values {"reason", "at", "until"?}) is known
in one place; a note that does not parse is read as what it can give, entry by entry, and an
unreadable entry is dropped (it only costs one request to learn again).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

NOTE = "failed_sources"
"""The cache note the misses of one paper are kept under."""
_PAPER = "paper"
"""The key tail of a per-paper miss (ar5iv), in place of "v<version>"."""


@dataclass(frozen=True)
class SourceMiss:
    """One source known to have nothing for one version (or, with version None, the paper)."""

    source: str
    version: int | None
    reason: str
    at: float
    until: float | None = None

    def counts(self, now: float) -> bool:
        """Whether the miss still holds at `now` (a miss with no `until` holds for good)."""
        return self.until is None or self.until > now

    @property
    def key(self) -> str:
        return f"{self.source}:{_PAPER if self.version is None else f'v{self.version}'}"


def load(note: Any) -> dict[str, SourceMiss]:
    """The misses of a stored note, by key; entries that do not parse are left out."""
    if not isinstance(note, dict):
        return {}
    misses = {}
    for key, value in note.items():
        miss = _parse(key, value)
        if miss is not None:
            misses[miss.key] = miss
    return misses


def dump(misses: dict[str, SourceMiss]) -> dict[str, dict[str, object]]:
    """The stored form of `misses` (what `load` reads back)."""
    stored: dict[str, dict[str, object]] = {}
    for miss in misses.values():
        entry: dict[str, object] = {"reason": miss.reason, "at": miss.at}
        if miss.until is not None:
            entry["until"] = miss.until
        stored[miss.key] = entry
    return stored


def _parse(key: object, value: object) -> SourceMiss | None:
    if not isinstance(key, str) or not isinstance(value, dict):
        return None
    source, _, tail = key.partition(":")
    if tail == _PAPER:
        version = None
    elif tail[:1] == "v" and tail[1:].isdigit():
        version = int(tail[1:])
    else:
        return None
    at, until = value.get("at", 0.0), value.get("until")
    if not isinstance(at, (int, float)) or not (until is None or isinstance(until, (int, float))):
        return None
    return SourceMiss(source, version, str(value.get("reason", ""))[:200], float(at), until)
