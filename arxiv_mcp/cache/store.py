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

Callers name a paper or a paper version by an `ids.PaperId`, valid by construction (made by
`ids.parse` at the tool's boundary, or checked when made from parts): file names are built
from it without checking it again. What the cache reads back from disk (file names, index
lines, snapshot rows) it checks itself. What it knows of a paper as a whole is paper.py's.
"""

from __future__ import annotations

import contextlib
import io
import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, BinaryIO

from .. import errors
from ..ids import PaperId
from ..models import SessionInfo
from . import osfiles
from .access import AccessLog
from .answers import AnswerStore
from .atomic import clean_stale_tmp, discard, stage
from .disk import best_effort, write_failure
from .eviction import evict
from .filelock import BOOT_ID, ProcessLock
from .files import (
    RAW_KINDS,
    TIERS,
    decode_meta,
    decode_text,
    digest,
    encode_meta,
    encode_text,
    file_name,
    title_of,
    versioned_id,
)
from .home import prepare as prepare_home
from .home import unusable as home_unusable
from .index import JournaledIndex
from .overview import CacheOverview
from .paper import PaperFacts
from .readmemo import ReadMemo
from .records import Drop, Key, Put, TierRecord
from .sessions import SessionStore
from .warm import TextOrigin, WarmChecks

logger = logging.getLogger(__name__)

Opened = tuple[BinaryIO, TierRecord]
"""An open tier file and its index record."""
Decoder = Callable[[bytes, str, int], dict[str, Any]]


class CacheFull(errors.ArxivMcpError):
    """A file cannot be kept within ARXIV_MCP_MAX_DISK_MB (too big, or pinned papers fill the cache)."""


@dataclass
class CachedMeta:
    record: dict[str, Any]
    fetched_at: float
    stale: bool


@dataclass
class CachedText:
    text: str
    method: str
    extractor_version: int
    origin: TextOrigin | None = None  # the file decoded, for a proof that a read made from it holds (warm.py)


@dataclass
class CachedRaw:
    path: Path
    bytes: int
    content_type: str


class Cache(CacheOverview, PaperFacts, WarmChecks):
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
        prepare_home(self.home)
        try:
            self._lock = ProcessLock(self.home / ".lock")
        except OSError as exc:
            raise home_unusable(self.home, exc) from None
        self._index = JournaledIndex(self.home, self._tmp)
        self._sessions = SessionStore(self.home / "sessions.json", self._tmp, session_ttl_s)
        self._answers = AnswerStore(
            self._searches, lambda payload: self._stage(payload, durable=False), self._locked, clock
        )
        # Without a boot id a power cut cannot be told apart, so the files are checked on every start.
        self._index.needs_reconcile = BOOT_ID is None
        # Nothing that grows with the cache is read here, so a server answers `initialize` at
        # once: the index is loaded (and recovered, compacted, tidied) by the first call that
        # takes the lock, and any other call waits for it on the lock.
        self._started = False
        self._access = AccessLog()
        self._texts = ReadMemo()
        self._index.before_writing = self._flush_accesses

    def close(self) -> None:
        """Release this object's open files; the cache home stays usable by other Cache objects."""
        if self._access.due(float("inf")):
            with contextlib.suppress(errors.ArxivMcpError, OSError), self._locked():
                self._flush_accesses()
        self._release_files()

    def _release_files(self) -> None:
        self._index.close()
        self._sessions.close()
        self._lock.close()

    def __enter__(self) -> Cache:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __del__(self) -> None:
        if hasattr(self, "_sessions"):
            self._release_files()

    # ----- metadata, text, raw files -------------------------------------------------------

    def get_meta(self, pid: PaperId, *, allow_stale: bool = False) -> CachedMeta | None:
        """Metadata of a version, or (a bare id) of the version last marked latest within the TTL."""
        paper_id, version = _paper_id(pid), pid.version
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

    def put_meta(self, pid: PaperId, record: dict[str, Any], *, latest: bool) -> None:
        """Store metadata; `latest` also marks this version as the paper's latest as of now.

        A copy of an answer already in hand: when the disk refuses it, a warning is logged and
        the call that fetched it carries on (it is fetched again next time).
        """
        key = _key(pid)
        if not isinstance(record, dict):
            raise ValueError("record must be a dict")
        now = self._clock()
        payload = _json_bytes(encode_meta, key[0], key[1], record, now, now if latest else None)
        tier_record = TierRecord(len(payload), digest(payload), fetched_at=now)
        put = Put(key, "meta", tier_record, now, title_of(record), now if latest else None)
        with best_effort(f"metadata of {versioned_id(*key)}"):
            self._commit(put, payload, file_name(*key, "meta"))

    def get_text(self, pid: PaperId) -> CachedText | None:
        key = _key(pid)
        with self._locked():
            opened = self._open_tier(key, "text")
        if opened is None:
            return None
        stamp = ReadMemo.stamp(opened[0])
        if (body := self._read_text(opened, key, stamp)) is None:
            return None
        origin = None if stamp is None else TextOrigin(key, str(self._papers / file_name(*key, "text")), stamp)
        return CachedText(body["text"], body["method"], body["extractor_version"], origin)

    def _read_text(self, opened: Opened, key: Key, stamp: Any) -> Any:
        """A text file's body, from the memo when the very same file was read last (readmemo.py)."""
        body = self._texts.get(key, opened[1], stamp)
        if body is not None:
            opened[0].close()
            return body
        body = self._read_whole(opened, key, "text", decode_text)
        if body is not None:
            self._texts.put(key, opened[1], stamp, body)
        return body

    def put_text(self, pid: PaperId, text: str, *, method: str, extractor_version: int) -> None:
        """Store extracted text; CacheWriteFailed when the disk refuses it (the caller still has the text)."""
        key = _key(pid)
        if not isinstance(text, str) or not isinstance(method, str) or type(extractor_version) is not int:
            raise ValueError("text and method must be str, extractor_version an int")
        payload = _json_bytes(encode_text, key[0], key[1], text, method, extractor_version)
        record = TierRecord(len(payload), digest(payload), method=method, extractor_version=extractor_version)
        self._commit(Put(key, "text", record, self._clock()), payload, file_name(*key, "text"))

    def get_raw(self, pid: PaperId, kind: str) -> CachedRaw | None:
        """Where a raw file lives, once its bytes are checked against the index (a truncated or
        altered file is dropped and None returned, so the caller fetches it again)."""
        key = _key(pid)
        _check_kind(kind)
        with self._locked():
            opened = self._open_tier(key, kind)
        if opened is None:
            return None
        if self._read_whole(opened, key, kind, None) is None:
            return None
        record = opened[1]
        return CachedRaw(self._papers / record.file_name(key, kind), record.size, record.content_type or "")

    def raw_records(self, pids: list[PaperId]) -> dict[int, dict[str, TierRecord]]:
        """What the index records of each version's raw files (size, content type), by kind,
        the files unread and all in one look: for a caller that states their sizes, where
        reading and checking them would cost more than the texts read from them."""
        keys = [_key(pid) for pid in pids]
        with self._locked():
            entries = [self._state.entries.get(key) for key in keys]
            return {
                key[1]: {kind: record for kind, record in entry.tiers.items() if kind in RAW_KINDS} if entry else {}
                for key, entry in zip(keys, entries)
            }

    def put_raw(self, pid: PaperId, kind: str, data: bytes, content_type: str) -> CachedRaw:
        """Store a PDF or source file and return where it lives; CacheFull if it cannot be kept."""
        key = _key(pid)
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
        record = TierRecord(len(data), digest(data), name=name, content_type=content_type)
        if not self._commit(Put(key, kind, record, self._clock()), data, name):
            raise CacheFull(
                f"Pinned papers fill the cache, so the {kind} of {versioned_id(*key)} could not be kept; "
                "end sessions you no longer need (end_session) or raise ARXIV_MCP_MAX_DISK_MB."
            )
        return CachedRaw(self._papers / name, len(data), content_type)

    # ----- search answers ---------------------------------------------------------------------

    def get_search(self, key: str) -> dict[str, Any] | None:
        """A stored answer (a search, trends or Semantic Scholar page), as the JSON it was put."""
        return self._answers.get(key)

    def put_search(self, key: str, value: dict[str, Any], ttl_s: float) -> None:
        """Keep an answer for `ttl_s` seconds (see answers.py). When the disk refuses it, a
        warning is logged and the answer is simply not remembered."""
        with best_effort("a search answer"):
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

    def pin(self, session_id: str, pid: PaperId) -> None:
        """Keep a paper version from eviction while the session is open (it may be cached later)."""
        key = _key(pid)
        with self._locked():
            self._sessions.pin(session_id, key, self._clock())

    # ----- internals -------------------------------------------------------------------------

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
                self._access.absorb(self._state)
                if not self._started:
                    self._first_use()
            yield
            if outermost:
                if self._access.due(self._clock()):
                    self._flush_accesses()
                self._compact_if_long()
            finished = True
        except (errors.ArxivMcpError, ValueError):
            finished = True
            raise
        except OSError as exc:
            if not outermost:
                raise  # the outermost holder converts it, leaving the mark for the next holder
            raise write_failure(exc) from None
        finally:
            if outermost:
                self._index.release()  # on Windows no cache file stays open outside the lock
            self._lock.release(finished=finished)

    def _first_use(self) -> None:
        """What a new Cache does once, under the lock: clear a killed writer's temporary files
        and apply the bounds (they may have been lowered since the last run)."""
        self._started = True
        clean_stale_tmp(self._tmp)
        self._evict()

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
            raise write_failure(exc) from None

    def _commit(self, put: Put, payload: bytes, name: str) -> bool:
        """Write a tier's file whole as `name`, record it (`put`, its time taken again under the
        lock), evict; True if the tier is still cached afterwards."""
        key, tier = put.key, put.tier
        staged, moved = self._stage(payload), False
        try:
            with self._locked():
                entry = self._state.entries.get(key)
                old = entry.tiers.get(tier) if entry else None
                old_name = old.file_name(key, tier) if old else None
                osfiles.FILES.replace(staged, self._papers / name)
                moved = True
                self._index.append(replace(put, at=self._clock()))
                if old_name not in (None, name):
                    discard(self._papers / old_name)
                self._evict(protect=key)
                entry = self._state.entries.get(key)
                return entry is not None and tier in entry.tiers
        finally:
            if not moved:
                discard(staged)

    def _open_tier(self, key: Key, tier: str) -> Opened | None:
        """Open a tier's file and count the access (needs the lock); None when not cached."""
        entry = self._state.entries.get(key)
        info = entry.tiers.get(tier) if entry else None
        if info is None:
            return None
        path = self._papers / info.file_name(key, tier)
        try:
            handle = _open_for_reading(path)
        except FileNotFoundError:
            logger.warning("cache file %s vanished; forgetting it", path)
            self._index.append(Drop(key, (tier,)))
            return None
        self._touch(key)
        return handle, info

    def _read_whole(self, opened: Opened, key: Key, tier: str, decode: Decoder | None) -> Any:
        """Read and decode an opened tier file (decode None: check its bytes only); a file that
        no longer matches what was stored is dropped from the cache and None returned."""
        handle, info = opened
        with handle:
            data = handle.read()
        try:
            info.check(data)
            return decode(data, *key) if decode else data
        except ValueError as exc:
            logger.warning("cache file for %s %s is damaged (%s); dropping it", versioned_id(*key), tier, exc)
            with self._locked():
                entry = self._state.entries.get(key)
                if entry is not None and entry.tiers.get(tier) == info:
                    self._drop(key, [tier], "damaged")
            return None

    def _touch(self, key: Key) -> None:
        self._access.note(self._state, key, self._clock())

    def _flush_accesses(self) -> None:
        """Journal the batched accesses (access.py); a read never fails for want of room."""
        try:
            self._access.flush(self._state, self._index.append)
        except OSError as exc:
            logger.warning("could not note accesses in the cache journal (%s)", exc)

    def _drop(self, key: Key, tiers: list[str] | None, reason: str) -> None:
        """Unrecord tiers of an entry (all of it when None), then remove their files."""
        entry = self._state.entries.get(key)
        if entry is None:
            return
        present = [t for t in (tiers or TIERS) if t in entry.tiers]
        if not present:
            return
        names = [entry.tiers[tier].file_name(key, tier) for tier in present]
        logger.info("evicting %s tiers=%s (%s)", versioned_id(*key), ",".join(present) if tiers else "all", reason)
        self._index.append(Drop(key, None if tiers is None else tuple(tiers)))
        for name in names:
            discard(self._papers / name)

    def _evict(self, protect: Key | None = None) -> None:
        """Enforce the bounds (eviction.py), pinned papers never evicted."""
        self._sessions.expire(self._clock())
        pinned = set(self._sessions.pins())
        evict(self._state, self.max_papers, self.max_bytes, pinned, protect, self._drop)

    def _reconcile(self) -> None:
        from .recovery import reconcile  # rarely needed: not imported by every first call

        adopted = reconcile(self._index, self._papers)
        if adopted:
            logger.warning(_ADOPTED, adopted, self._papers)
            self._evict()


_ADOPTED = (
    "the cache index did not know %d file(s) in %s; adopted them (they count against "
    "ARXIV_MCP_MAX_DISK_MB, and clear_cache removes them)"
)


def _open_for_reading(path: Path) -> BinaryIO:
    """A tier file opened under the lock, to be read after it: on Windows, where an open file
    cannot be evicted or replaced by another process, its bytes are read while the lock is held."""
    handle = open(path, "rb")
    if osfiles.FILES.keeps_replaced_open:
        return handle
    with handle:
        return io.BytesIO(handle.read())


def _json_bytes(encode: Callable[..., bytes], *args: Any) -> bytes:
    try:
        return encode(*args)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"not storable as JSON: {exc}") from None


def _paper_id(pid: PaperId) -> str:
    """The id of a key. A PaperId is valid by construction (ids.py): its type is all there is
    left to check, so nothing a caller passes can name a path outside the cache."""
    if type(pid) is not PaperId:
        raise ValueError(f"a cache key is an ids.PaperId, not {pid!r}")
    return pid.id


def _key(pid: PaperId) -> Key:
    """The index key of a paper version: tiers are kept per exact version."""
    paper_id = _paper_id(pid)
    if pid.version is None:
        raise ValueError(f"a cache tier belongs to one version; {pid} names none")
    return paper_id, pid.version


def _check_kind(kind: str) -> None:
    if kind not in RAW_KINDS:
        raise ValueError(f"raw kind must be one of {RAW_KINDS}, not {kind!r}")
