"""The three-tier disk cache: metadata, extracted text and raw files of paper versions.

Layout under the cache home:
  papers/     one file per tier and paper version (`2401.12345v2.meta.json`, `.text.json`,
              `.pdf`, `.source[.gz|.tar|.pdf]`), each written whole (temporary file + rename)
  searches/   short-lived answers (searches, trends, Semantic Scholar), one file per key (answers.py)
  tmp/        temporary files being written
  index.json, journal.jsonl   the index (see index.py)
  sessions.json               open sessions and their pins (see sessions.py)
  .lock       flock'ed around every index change, so server processes can share the home

The index is a mirror of `papers/`: a file is renamed into place and then recorded, under the
lock; an entry is unrecorded and then its file removed. A process killed in between leaves a
whole file the index does not know, and a mark in the lock file; the next holder of the lock
sees the mark and reconciles the index with the files (recovery.py: adopting whole unknown
files, forgetting missing ones). So the cache always loads, serves only whole entries and loses
nothing except by the eviction rules.

Eviction (after every insert) follows eviction.py: least recently accessed first, pinned papers
never, the entry just inserted only as a last resort.

Every tier's size and sha256 are in the index, so a file that no longer matches is dropped,
not served. A write the disk refuses is one CacheWriteFailed that names the cause and the fix.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import budget, errors
from ..models import CachedPaper, CacheStats, ClearResult, SessionInfo
from .answers import AnswerStore
from .atomic import clean_stale_tmp, discard, stage
from .eviction import evict
from .filelock import BOOT_ID, Busy, ProcessLock
from .files import (
    RAW_KINDS,
    TIERS,
    check_bytes,
    check_paper_id,
    check_version,
    decode_meta,
    decode_text,
    digest,
    encode_meta,
    encode_text,
    file_name,
    stored_name,
    title_of,
    versioned_id,
)
from .index import IndexState, JournaledIndex, Key
from .recovery import problems, reconcile
from .sessions import SessionStore

logger = logging.getLogger(__name__)

STARTUP_LOCK_WAIT_S = 0.5
"""How long start-up waits for the cache lock before leaving its tidying for later."""
MAX_NOTE_BYTES = 16384
# A hit on the most recently accessed entry within this many seconds is not journaled again.
TOUCH_STEP_S = 1.0


class CacheFull(errors.ArxivMcpError):
    """A file cannot be kept within ARXIV_MCP_MAX_DISK_MB (too big, or pinned papers fill the cache)."""


class CacheWriteFailed(errors.ArxivMcpError):
    """The disk refused a write into the cache home (full, a file-size limit, read-only)."""


class HomeUnusable(errors.ArxivMcpError):
    """The cache home cannot be created or written at all (checked once, at start-up)."""


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


@dataclass
class CachedMeta:
    record: dict
    fetched_at: float
    stale: bool


@dataclass
class CachedText:
    text: str
    method: str
    extractor_version: int


@dataclass
class CachedRaw:
    path: Path
    bytes: int
    content_type: str


class Cache:
    def __init__(
        self,
        home: Path,
        *,
        max_papers: int = 200,
        max_bytes: int = 2048 * 2**20,
        meta_ttl_s: float = 86400,
        session_ttl_s: float = 604800,
        clock: Callable[[], float] = time.time,
    ):
        if type(max_papers) is not int or max_papers < 1:
            raise ValueError(f"max_papers must be a positive integer, not {max_papers!r}")
        if type(max_bytes) is not int or max_bytes < 1:
            raise ValueError(f"max_bytes must be a positive integer, not {max_bytes!r}")
        if not meta_ttl_s >= 0 or not session_ttl_s > 0:
            # A TTL of 0 (ARXIV_MCP_META_TTL_S=0) makes every "latest" lookup ask arXiv again,
            # the old answer still served, marked stale, when arXiv cannot be reached.
            raise ValueError("meta_ttl_s must be >= 0 and session_ttl_s positive")
        self.home = Path(home).expanduser().absolute()
        self.max_papers = max_papers
        self.max_bytes = max_bytes
        self.meta_ttl_s = meta_ttl_s
        self._clock = clock
        self._papers = self.home / "papers"
        self._searches = self.home / "searches"
        self._tmp = self.home / "tmp"
        try:
            for folder in (self.home, self._papers, self._searches, self._tmp):
                folder.mkdir(parents=True, exist_ok=True)
            discard(stage(b"", self._tmp, durable=False))  # a read-only home fails here, not at the first read
            self._lock = ProcessLock(self.home / ".lock")
        except OSError as exc:
            why = exc.strerror or str(exc)
            if isinstance(exc, (FileExistsError, NotADirectoryError)):
                why = "a file stands where a folder belongs"
            raise HomeUnusable(
                f"ARXIV_MCP_HOME={str(self.home)!r} cannot be used as the cache folder "
                f"({exc.filename or self.home}: {why}): point ARXIV_MCP_HOME at a folder this user can write"
            ) from None
        self._index = JournaledIndex(self.home, self._tmp)
        self._sessions = SessionStore(self.home / "sessions.json", self._tmp, session_ttl_s)
        self._answers = AnswerStore(
            self._searches, lambda payload: self._stage(payload, durable=False), self._locked, clock
        )
        # Without a boot id a power cut cannot be told apart, so the files are checked on every start.
        self._index.needs_reconcile = BOOT_ID is None
        try:  # bounded: a server stopped while holding the lock must not keep this one from starting
            with budget.tool_call(STARTUP_LOCK_WAIT_S), self._locked():
                clean_stale_tmp(self._tmp)
                self._evict()
        except Busy as exc:
            logger.warning("start-up tidying of the cache is left for later: %s", exc)

    def close(self) -> None:
        """Release this object's open files; the cache home stays usable by other Cache objects."""
        self._index.close()
        self._sessions.close()
        self._lock.close()

    def __enter__(self) -> Cache:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def __del__(self) -> None:
        if hasattr(self, "_sessions"):
            self.close()

    # ----- metadata, text, raw files -------------------------------------------------------

    def get_meta(self, paper_id: str, version: int | None, *, allow_stale: bool = False) -> CachedMeta | None:
        """Metadata of a version, or (version None) of the version last marked latest within the TTL."""
        paper_id = check_paper_id(paper_id)
        if version is not None:
            check_version(version)
        with self._locked():
            stale = False
            if version is None:
                mark = self._state.latest.get(paper_id)
                if mark is None:
                    return None
                version, marked_at = mark
                stale = self._clock() - marked_at >= self.meta_ttl_s
                if stale and not allow_stale:
                    return None
            opened = self._open_tier((paper_id, version), "meta")
        if opened is None:
            return None
        body = self._read_whole(opened, (paper_id, version), "meta", decode_meta)
        return None if body is None else CachedMeta(body["record"], body["fetched_at"], stale)

    def put_meta(self, paper_id: str, version: int, record: dict, *, latest: bool) -> None:
        """Store metadata; `latest` also marks this version as the paper's latest as of now.

        A copy of an answer already in hand: when the disk refuses it, a warning is logged and
        the call that fetched it carries on (it is fetched again next time).
        """
        key = (check_paper_id(paper_id), check_version(version))
        if not isinstance(record, dict):
            raise ValueError("record must be a dict")
        now = self._clock()
        payload = _json_bytes(encode_meta, key[0], key[1], record, now, now if latest else None)
        extra: dict[str, Any] = {"ti": title_of(record)}
        if latest:
            extra["L"] = now
        info = {"b": len(payload), "f": now, "h": digest(payload)}
        with _best_effort(f"metadata of {versioned_id(*key)}"):
            self._commit(key, "meta", payload, info, file_name(*key, "meta"), extra)

    def get_text(self, paper_id: str, version: int) -> CachedText | None:
        key = (check_paper_id(paper_id), check_version(version))
        with self._locked():
            opened = self._open_tier(key, "text")
        if opened is None:
            return None
        body = self._read_whole(opened, key, "text", decode_text)
        return None if body is None else CachedText(body["text"], body["method"], body["extractor_version"])

    def put_text(self, paper_id: str, version: int, text: str, *, method: str, extractor_version: int) -> None:
        """Store extracted text; CacheWriteFailed when the disk refuses it (the caller still has the text)."""
        key = (check_paper_id(paper_id), check_version(version))
        if not isinstance(text, str) or not isinstance(method, str) or type(extractor_version) is not int:
            raise ValueError("text and method must be str, extractor_version an int")
        payload = _json_bytes(encode_text, key[0], key[1], text, method, extractor_version)
        info = {"b": len(payload), "m": method, "x": extractor_version, "h": digest(payload)}
        self._commit(key, "text", payload, info, file_name(*key, "text"), {})

    def get_raw(self, paper_id: str, version: int, kind: str) -> CachedRaw | None:
        """Where a raw file lives, once its bytes are checked against the index (a truncated or
        altered file is dropped and None returned, so the caller fetches it again)."""
        key = (check_paper_id(paper_id), check_version(version))
        _check_kind(kind)
        with self._locked():
            opened = self._open_tier(key, kind)
        if opened is None:
            return None
        if self._read_whole(opened, key, kind, None) is None:
            return None
        info = opened[1]
        return CachedRaw(self._papers / info["n"], info["b"], info["ct"])

    def put_raw(self, paper_id: str, version: int, kind: str, data: bytes, content_type: str) -> CachedRaw:
        """Store a PDF or source file and return where it lives; CacheFull if it cannot be kept."""
        key = (check_paper_id(paper_id), check_version(version))
        _check_kind(kind)
        if not isinstance(data, (bytes, bytearray, memoryview)) or not isinstance(content_type, str):
            raise ValueError("data must be bytes and content_type a str")
        data = bytes(data)
        if len(data) > self.max_bytes:
            raise CacheFull(
                f"The {kind} of {versioned_id(*key)} is {len(data) / 2**20:.1f} MB, more than the whole cache "
                f"may hold (ARXIV_MCP_MAX_DISK_MB={self.max_bytes / 2**20:g}); raise that setting to keep it."
            )
        name = file_name(*key, kind, data[:512])
        info = {"b": len(data), "n": name, "ct": content_type, "h": digest(data)}
        if not self._commit(key, kind, data, info, name, {}):
            raise CacheFull(
                f"Pinned papers fill the cache, so the {kind} of {versioned_id(*key)} could not be kept; "
                "end sessions you no longer need (end_session) or raise ARXIV_MCP_MAX_DISK_MB."
            )
        return CachedRaw(self._papers / name, len(data), content_type)

    def versions(self, paper_id: str) -> list[int]:
        """Versions of a paper with anything cached."""
        paper_id = check_paper_id(paper_id)
        with self._locked():
            return sorted(self._state.by_paper.get(paper_id, ()))

    # ----- per-paper notes and search answers ------------------------------------------------

    def get_note(self, paper_id: str, key: str) -> Any | None:
        paper_id = check_paper_id(paper_id)
        with self._locked():
            return self._state.notes.get(paper_id, {}).get(key)

    def put_note(self, paper_id: str, key: str, value: Any) -> None:
        """Keep a small JSON value with a paper (None deletes it); gone when the paper is evicted.

        A hint for later calls: when the disk refuses it, a warning is logged and nothing else fails.
        """
        paper_id = check_paper_id(paper_id)
        if not isinstance(key, str) or not 1 <= len(key) <= 64:
            raise ValueError("a note key is a string of 1 to 64 characters")
        try:
            size = len(json.dumps(value))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"a note value must be JSON: {exc}") from None
        if size > MAX_NOTE_BYTES:
            raise ValueError(f"a note value may take at most {MAX_NOTE_BYTES} bytes as JSON")
        with _best_effort(f"a note on {paper_id}"), self._locked():
            self._index.append({"o": "note", "p": paper_id, "n": key, "v": value})

    def get_search(self, key: str) -> dict | None:
        """A stored answer (a search, trends or Semantic Scholar page), as the JSON it was put."""
        return self._answers.get(key)

    def put_search(self, key: str, value: dict, ttl_s: float) -> None:
        """Keep an answer for `ttl_s` seconds (see answers.py). When the disk refuses it, a
        warning is logged and the answer is simply not remembered."""
        with _best_effort("a search answer"):
            self._answers.put(key, value, ttl_s)

    # ----- sessions ------------------------------------------------------------------------

    def start_session(self, session_id: str | None = None) -> SessionInfo:
        """Open a session (or return the open one of that id); its pins keep papers from eviction."""
        with self._locked():
            return self._sessions.start(session_id, self._clock())

    def end_session(self, session_id: str) -> SessionInfo:
        """Close a session and release its pins (papers pinned by other sessions stay pinned).

        Returns the session as it was, no longer open; `pinned` lists the released pins.
        """
        with self._locked():
            ended = self._sessions.end(session_id, self._clock())
            self._evict()
            return ended

    def session_status(self, session_id: str) -> SessionInfo:
        with self._locked():
            return self._sessions.status(session_id, self._clock())

    def pin(self, session_id: str, paper_id: str, version: int) -> None:
        """Keep a paper version from eviction while the session is open (it may be cached later)."""
        key = (check_paper_id(paper_id), check_version(version))
        with self._locked():
            self._sessions.pin(session_id, key, self._clock())

    # ----- overview and maintenance ----------------------------------------------------------

    def stats(self) -> CacheStats:
        """The cache's size against its bounds; `home` is the absolute folder (a rendering may shorten it)."""
        with self._locked():
            self._sessions.expire(self._clock())
            return CacheStats(
                papers=len(self._state.entries),
                bytes=self._state.total_bytes,
                bytes_by_tier=dict(self._state.bytes_by_tier),
                max_papers=self.max_papers,
                max_bytes=self.max_bytes,
                open_sessions=len(self._sessions.sessions),
                home=str(self.home),
            )

    def list_cached(self) -> list[CachedPaper]:
        """Cached paper versions, most recently accessed first."""
        with self._locked():
            self._sessions.expire(self._clock())
            pins = self._sessions.pins()
            return [
                CachedPaper(
                    paper_id=entry.paper_id,
                    version=entry.version,
                    title=entry.title,
                    bytes=entry.bytes,
                    tiers=[tier for tier in TIERS if tier in entry.tiers],
                    pinned_by=sorted(pins.get(key, [])),
                    last_access=entry.last_access,
                )
                for key, entry in reversed(self._state.entries.items())
            ]

    def clear(self, drop_pinned: bool = False) -> ClearResult:
        """Evict every unpinned paper (with drop_pinned, also those pinned by the caller's own
        sessions: another client's pins always stay) and all search answers."""
        with self._locked():
            self._sessions.expire(self._clock())
            pins = self._sessions.pins()
            kept_back = self._sessions.others_pins() if drop_pinned else pins.keys()
            cleared = ClearResult(evicted=[], kept_pinned=[])
            for key, entry in list(self._state.entries.items()):
                if key in kept_back:
                    cleared.kept_pinned.append(versioned_id(*key))
                    continue
                cleared.bytes_freed += entry.bytes
                self._drop(key, None, "clear_cache")
                cleared.evicted.append(versioned_id(*key))
            for paper_id in list(self._state.notes.keys() | self._state.latest.keys()):
                if paper_id not in self._state.by_paper:
                    self._index.append({"o": "forget", "p": paper_id})
            if drop_pinned and pins:
                self._sessions.unpin_all()
            self._answers.clear()
            return cleared

    def iter_documents(
        self, only: set[tuple[str, int]] | None = None
    ) -> Iterator[tuple[str, int, dict | None, str | None]]:
        """(paper_id, version, metadata record, text) of every cached version (or of those in
        `only`), read lazily.

        Reading is not an access: it leaves the eviction order alone.
        """
        with self._locked():
            listing = [
                (key, {tier: self._papers / stored_name(key, tier, info) for tier, info in entry.tiers.items()})
                for key, entry in reversed(self._state.entries.items())
                if only is None or key in only
            ]
        for (paper_id, version), paths in listing:
            meta = _read_quietly(paths.get("meta"), paper_id, version, decode_meta)
            text = _read_quietly(paths.get("text"), paper_id, version, decode_text)
            if meta is None and text is None:
                continue
            yield paper_id, version, meta["record"] if meta else None, text["text"] if text else None

    def verify(self) -> list[str]:
        """Problems found by checking every indexed file against its record (empty when healthy)."""
        with self._locked():
            return problems(self._state, self._papers)

    # ----- internals -------------------------------------------------------------------------

    @property
    def _state(self) -> IndexState:
        return self._index.state

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold the cache lock, having caught up with other processes' changes first.

        If the previous holder died mid-update (or the machine rebooted), or the index was
        damaged, the index is first reconciled with the files. An unexpected exception here
        leaves that mark for the next holder; refused input is raised before any change.
        """
        outermost = self._lock.acquire()
        finished = False
        try:
            if outermost:
                self._index.refresh()
                self._sessions.refresh()
                if self._lock.interrupted or self._index.needs_reconcile:
                    self._reconcile()
            yield
            if outermost:
                self._compact_if_long()
            finished = True
        except (errors.ArxivMcpError, ValueError):
            finished = True
            raise
        except OSError as exc:
            if not outermost:
                raise  # the outermost holder converts it, leaving the mark for the next holder
            raise _write_failed(exc) from None
        finally:
            self._lock.release(finished=finished)

    def _compact_if_long(self) -> None:
        """Fold a long journal; on a full disk it stays long (and correct) until there is room."""
        try:
            self._index.compact_if_long()
        except OSError as exc:
            logger.warning("could not compact the cache journal (%s); it is kept as it is", exc)

    def _stage(self, payload: bytes, *, durable: bool = True) -> Path:
        try:
            return stage(payload, self._tmp, durable=durable)
        except OSError as exc:
            raise _write_failed(exc) from None

    def _commit(self, key: Key, tier: str, payload: bytes, info: dict, name: str, extra: dict) -> bool:
        """Write a tier's file whole, record it, evict; True if the tier is still cached afterwards."""
        staged, moved = self._stage(payload), False
        try:
            with self._locked():
                entry = self._state.entries.get(key)
                old = entry.tiers.get(tier) if entry else None
                old_name = stored_name(key, tier, old) if old else None
                os.replace(staged, self._papers / name)
                moved = True
                self._index.append({"o": "put", "k": list(key), "t": tier, "i": info, "a": self._clock(), **extra})
                if old_name not in (None, name):
                    discard(self._papers / old_name)
                self._evict(protect=key)
                entry = self._state.entries.get(key)
                return entry is not None and tier in entry.tiers
        finally:
            if not moved:
                discard(staged)

    def _open_tier(self, key: Key, tier: str):
        """Open a tier's file and count the access (needs the lock); None when not cached."""
        entry = self._state.entries.get(key)
        info = entry.tiers.get(tier) if entry else None
        if info is None:
            return None
        path = self._papers / stored_name(key, tier, info)
        try:
            handle = open(path, "rb")
        except FileNotFoundError:
            logger.warning("cache file %s vanished; forgetting it", path)
            self._index.append({"o": "drop", "k": list(key), "t": [tier]})
            return None
        self._touch(key)
        return handle, info

    def _read_whole(self, opened, key: Key, tier: str, decode):
        """Read and decode an opened tier file (decode None: check its bytes only); a file that
        no longer matches what was stored is dropped from the cache and None returned."""
        handle, info = opened
        with handle:
            data = handle.read()
        try:
            check_bytes(data, info)
            return decode(data, *key) if decode else data
        except ValueError as exc:
            logger.warning("cache file for %s %s is damaged (%s); dropping it", versioned_id(*key), tier, exc)
            with self._locked():
                entry = self._state.entries.get(key)
                if entry is not None and entry.tiers.get(tier) == info:
                    self._drop(key, [tier], "damaged")
            return None

    def _touch(self, key: Key) -> None:
        now = self._clock()
        entries = self._state.entries
        if next(reversed(entries)) == key and now - entries[key].last_access < TOUCH_STEP_S:
            return
        try:
            self._index.append({"o": "touch", "k": list(key), "a": now})
        except OSError as exc:  # a read must not fail because its access time cannot be noted
            logger.warning("could not note an access in the cache journal (%s)", exc)

    def _drop(self, key: Key, tiers: list[str] | None, reason: str) -> None:
        """Unrecord tiers of an entry (all of it when None), then remove their files."""
        entry = self._state.entries.get(key)
        if entry is None:
            return
        present = [t for t in (tiers or TIERS) if t in entry.tiers]
        if not present:
            return
        names = [stored_name(key, tier, entry.tiers[tier]) for tier in present]
        logger.info("evicting %s tiers=%s (%s)", versioned_id(*key), ",".join(present) if tiers else "all", reason)
        self._index.append({"o": "drop", "k": list(key), "t": tiers})
        for name in names:
            discard(self._papers / name)

    def _evict(self, protect: Key | None = None) -> None:
        """Enforce the bounds (eviction.py), pinned papers never evicted."""
        self._sessions.expire(self._clock())
        pinned = set(self._sessions.pins())
        evict(self._state, self.max_papers, self.max_bytes, pinned, protect, self._drop)

    def _reconcile(self) -> None:
        adopted = reconcile(self._index, self._papers)
        if adopted:
            logger.warning(
                "the cache index did not know %d file(s) in %s; adopted them (they count against "
                "ARXIV_MCP_MAX_DISK_MB, and clear_cache removes them)",
                adopted,
                self._papers,
            )
            self._evict()


def _write_failed(exc: OSError) -> CacheWriteFailed:
    return CacheWriteFailed(f"The cache folder (ARXIV_MCP_HOME) refused a write: {disk_problem(exc)}.")


@contextmanager
def _best_effort(what: str) -> Iterator[None]:
    """For copies of answers already in hand: a refused write is a warning, not a failed call."""
    try:
        yield
    except CacheWriteFailed as exc:
        logger.warning("%s was not cached: %s", what, exc)


def _json_bytes(encode, *args) -> bytes:
    try:
        return encode(*args)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"not storable as JSON: {exc}") from None


def _check_kind(kind: str) -> None:
    if kind not in RAW_KINDS:
        raise ValueError(f"raw kind must be one of {RAW_KINDS}, not {kind!r}")


def _read_quietly(path: Path | None, paper_id: str, version: int, decode) -> dict | None:
    if path is None:
        return None
    try:
        return decode(path.read_bytes(), paper_id, version)
    except (FileNotFoundError, ValueError):
        return None
