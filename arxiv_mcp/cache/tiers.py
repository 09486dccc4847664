"""The tier files of paper versions: metadata, extracted text and raw files (PDF, e-print).

A part of `store.Cache`, on the `Ledger` it shares. A tier's file is staged whole, renamed
into place and recorded (its size and sha256) under the lock, then the bounds are applied;
read back, its bytes are checked against that record, and a file that no longer matches is
dropped, not served. A write the disk refuses is one CacheWriteFailed that names the cause
and the fix; a file too big for the cache, or shut out by pins, is CacheFull.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, BinaryIO

from .. import errors
from ..ids import PaperId
from . import osfiles
from .atomic import discard, stage
from .disk import best_effort, write_failure
from .files import (
    RAW_KINDS,
    decode_meta,
    decode_text,
    digest,
    encode_meta,
    encode_text,
    file_name,
    kept_title,
    title_of,
    versioned_id,
)
from .ledger import Ledger, paper_key, version_key
from .readmemo import ReadMemo
from .records import Drop, Key, Put, TierRecord
from .warm import TextOrigin

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


class TierFiles:
    """Each tier's file written whole then recorded, and read back checked against its record."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self._papers = ledger.papers
        self._texts = ReadMemo()

    def get_meta(self, pid: PaperId, *, allow_stale: bool = False) -> CachedMeta | None:
        """Metadata of a version, or (a bare id) of the version last marked latest within the TTL."""
        paper_id, version = paper_key(pid), pid.version
        ledger = self.ledger
        with ledger.locked():
            stale = False
            if version is None:
                mark = ledger.latest(paper_id)
                if mark is None:
                    return None
                version, fresh_until = mark
                stale = ledger.clock() >= fresh_until
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
        key = version_key(pid)
        if not isinstance(record, dict):
            raise ValueError("record must be a dict")
        now = self.ledger.clock()
        payload = _json_bytes(encode_meta, key[0], key[1], record, now, now if latest else None)
        tier_record = TierRecord(len(payload), digest(payload), fetched_at=now)
        put = Put(key, "meta", tier_record, now, title_of(record), now if latest else None)
        with best_effort(f"metadata of {versioned_id(*key)}"):
            self._commit(put, payload, file_name(*key, "meta"))

    def get_text(self, pid: PaperId) -> CachedText | None:
        key = version_key(pid)
        with self.ledger.locked():
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

    def put_text(
        self, pid: PaperId, text: str, *, method: str, extractor_version: int, title: str | None = None
    ) -> None:
        """Store extracted text, and the title it states (list_cached shows it until metadata
        is fetched); CacheWriteFailed when the disk refuses it (the caller still has the text)."""
        key = version_key(pid)
        if not isinstance(text, str) or not isinstance(method, str) or type(extractor_version) is not int:
            raise ValueError("text and method must be str, extractor_version an int")
        title = kept_title(title)
        payload = _json_bytes(encode_text, key[0], key[1], text, method, extractor_version, title)
        record = TierRecord(len(payload), digest(payload), method=method, extractor_version=extractor_version)
        self._commit(Put(key, "text", record, self.ledger.clock(), title), payload, file_name(*key, "text"))

    def get_raw(self, pid: PaperId, kind: str) -> CachedRaw | None:
        """Where a raw file lives, once its bytes are checked against the index (a truncated or
        altered file is dropped and None returned, so the caller fetches it again)."""
        key = version_key(pid)
        _check_kind(kind)
        with self.ledger.locked():
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
        keys = [version_key(pid) for pid in pids]
        with self.ledger.locked():
            entries = [self.ledger.state.entries.get(key) for key in keys]
            return {
                key[1]: {kind: record for kind, record in entry.tiers.items() if kind in RAW_KINDS} if entry else {}
                for key, entry in zip(keys, entries)
            }

    def put_raw(self, pid: PaperId, kind: str, data: bytes, content_type: str) -> CachedRaw:
        """Store a PDF or source file and return where it lives; CacheFull if it cannot be kept."""
        key = version_key(pid)
        _check_kind(kind)
        if not isinstance(data, (bytes, bytearray, memoryview)) or not isinstance(content_type, str):
            raise ValueError("data must be bytes and content_type a str")
        data = bytes(data)
        limit = self.ledger.max_bytes
        if len(data) > limit:
            raise CacheFull(
                f"The {kind} of {versioned_id(*key)} is {len(data) / 2**20:.1f} MB, more than the whole cache "
                f"may hold (ARXIV_MCP_MAX_DISK_MB={limit / 2**20:g}); raise that setting to keep it."
            )
        name = file_name(*key, kind, data[:512])
        record = TierRecord(len(data), digest(data), name=name, content_type=content_type)
        if not self._commit(Put(key, kind, record, self.ledger.clock()), data, name):
            raise CacheFull(
                f"Pinned papers fill the cache, so the {kind} of {versioned_id(*key)} could not be kept; "
                "end sessions you no longer need (end_session) or raise ARXIV_MCP_MAX_DISK_MB."
            )
        return CachedRaw(self._papers / name, len(data), content_type)

    def stage(self, payload: bytes, *, durable: bool = True) -> Path:
        """`payload` written whole as a temporary file in the home, ready to be renamed into place."""
        try:
            return stage(payload, self.ledger.tmp, durable=durable)
        except OSError as exc:
            raise write_failure(exc) from None

    def _commit(self, put: Put, payload: bytes, name: str) -> bool:
        """Write a tier's file whole as `name`, record it (`put`, its time taken again under the
        lock), evict; True if the tier is still cached afterwards."""
        key, tier = put.key, put.tier
        ledger = self.ledger
        staged, moved = self.stage(payload), False
        try:
            with ledger.locked():
                entry = ledger.state.entries.get(key)
                old = entry.tiers.get(tier) if entry else None
                old_name = old.file_name(key, tier) if old else None
                osfiles.FILES.replace(staged, self._papers / name)
                moved = True
                ledger.index.append(replace(put, at=ledger.clock()))
                if old_name not in (None, name):
                    discard(self._papers / old_name)
                ledger.evict(protect=key)
                entry = ledger.state.entries.get(key)
                return entry is not None and tier in entry.tiers
        finally:
            if not moved:
                discard(staged)

    def _open_tier(self, key: Key, tier: str) -> Opened | None:
        """Open a tier's file and count the access (needs the lock); None when not cached."""
        entry = self.ledger.state.entries.get(key)
        info = entry.tiers.get(tier) if entry else None
        if info is None:
            return None
        path = self._papers / info.file_name(key, tier)
        try:
            handle = _open_for_reading(path)
        except FileNotFoundError:
            logger.warning("cache file %s vanished; forgetting it", path)
            self.ledger.index.append(Drop(key, (tier,)))
            return None
        self.ledger.touch(key)
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
            with self.ledger.locked():
                entry = self.ledger.state.entries.get(key)
                if entry is not None and entry.tiers.get(tier) == info:
                    self.ledger.drop(key, [tier], "damaged")
            return None


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


def _check_kind(kind: str) -> None:
    if kind not in RAW_KINDS:
        raise ValueError(f"raw kind must be one of {RAW_KINDS}, not {kind!r}")
