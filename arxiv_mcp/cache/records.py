"""The cache index's records, typed: what it keeps of each tier file, and the journal's
operations. The one place that knows their on-disk form, JSON objects with short keys
(`to_disk`/`from_disk`, `encode`/`decode`), and that validates what it reads: a malformed
line or snapshot entry raises ValueError and is never half applied.

Short keys on disk:  tier record  b size, h sha256, n file name (raw tiers), ct content type
(raw), f fetched at (meta), m method and x extractor version (text);  operation  o kind,
k [paper id, version], t tier (put) or tiers (drop), i tier record, a when, ti title,
L marked latest at, front (adopted at the old end), p paper id, n note name, v note value.

A snapshot keeps a tier record's seven fields by position instead, null where absent: format 3
(index.py) a column per field and tier, format 2 a row per record (read by `from_row`).
Positions need no per-record object in the JSON, which is most of what reading a snapshot of
10,000 papers cost.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from .files import RAW_KINDS, TIERS, check_paper_id, check_version, digest, file_name, parse_file_name

Key = tuple[str, int]
_DIGEST = re.compile("[0-9a-f]{64}")
_HEX_DIGITS = b"0123456789abcdef"


_SHORT_KEYS = ("b", "h", "n", "ct", "f", "m", "x")
"""The on-disk keys of TierRecord's fields, in the order of its fields (and of a snapshot row)."""
RECORD_WIDTH = len(_SHORT_KEYS)


class TierRecord(NamedTuple):
    """One tier file of a paper version as the index knows it (a named tuple: a snapshot
    holds one per tier file, and a tuple is the cheapest immutable record to build)."""

    size: int
    digest: str | None = None  # sha256 of the bytes; None for entries older than checksums
    name: str | None = None  # raw tiers: the file's name (its suffix follows its bytes)
    content_type: str | None = None  # raw tiers
    fetched_at: float | None = None  # metadata
    method: str | None = None  # text
    extractor_version: int | None = None  # text

    def file_name(self, key: Key, tier: str) -> str:
        """The file this record of `tier` names: a raw file's suffix followed its bytes, so the
        record keeps it; metadata and text names follow from the key alone."""
        if tier in RAW_KINDS and self.name is not None:
            return self.name
        return file_name(*key, tier)

    def check(self, data: bytes) -> None:
        """Raise ValueError unless `data` is what the index recorded (its size, and its checksum
        where one was recorded: entries written before checksums existed carry none)."""
        if len(data) != self.size:
            raise ValueError(f"{len(data)} bytes where {self.size} were stored")
        if self.digest is not None and digest(data) != self.digest:
            raise ValueError("its checksum does not match what was stored")

    def to_disk(self) -> dict[str, Any]:
        return {short: value for short, value in zip(_SHORT_KEYS, self, strict=True) if value is not None}

    @classmethod
    def from_disk(cls, key: Key, tier: str, raw: object) -> TierRecord:
        if type(raw) is not dict:
            raise ValueError(f"malformed tier {tier!r}: {raw!r}")
        return cls.from_row(key, tier, list(map(raw.get, _SHORT_KEYS)))

    @classmethod
    def from_row(cls, key: Key, tier: str, row: Sequence[Any]) -> TierRecord:
        # Run once per tier of every entry when a snapshot is read (most of the first call at
        # 10,000 papers): each field is read and checked once.
        if tier not in TIERS or len(row) != RECORD_WIDTH:
            raise ValueError(f"malformed tier {tier!r}: {row!r}")
        size, digest, name, content_type, fetched_at, method, version = row
        if type(size) is not int or size < 0:
            raise ValueError(f"malformed size in {row!r}")
        if digest is not None and (type(digest) is not str or _DIGEST.fullmatch(digest) is None):
            raise ValueError(f"malformed checksum in {row!r}")
        if fetched_at is not None:
            fetched_at = number(fetched_at)
        if tier not in RAW_KINDS:
            method = method if type(method) is str else None
            return cls(size, digest, None, None, fetched_at, method, version if type(version) is int else None)
        # A raw file's name must name this very tier, or a planted index could make eviction
        # remove files outside the cache.
        if type(name) is not str or parse_file_name(name) != (*key, tier) or type(content_type) is not str:
            raise ValueError(f"raw tier with a malformed file name or type: {row!r}")
        return cls(size, digest, name, content_type, fetched_at)


def check_digests(digests: list[str]) -> None:
    """What `from_row` checks of each checksum, of many at once at C speed (a snapshot's
    10,000 records): each 64 characters long, all of them lowercase hex digits together;
    ValueError when one is malformed."""
    if not digests:
        return
    try:
        joined = "".join(digests).encode("ascii")
    except (TypeError, UnicodeEncodeError):
        raise ValueError("a malformed checksum in the snapshot") from None
    if set(map(len, digests)) != {64} or joined.translate(None, _HEX_DIGITS):
        raise ValueError("a malformed checksum in the snapshot")


@dataclass(frozen=True, slots=True)
class Put:
    """A tier file was renamed into place (or adopted, `front`: at the old end of the order)."""

    key: Key
    tier: str
    record: TierRecord
    at: float
    title: str | None = None
    latest_at: float | None = None
    front: bool = False


@dataclass(frozen=True, slots=True)
class Touch:
    key: Key
    at: float


@dataclass(frozen=True, slots=True)
class Drop:
    """Tiers unrecorded (the whole entry when `tiers` is None), before their files go."""

    key: Key
    tiers: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Note:
    """A small JSON value kept with a paper; None deletes it."""

    paper_id: str
    name: str
    value: Any


@dataclass(frozen=True, slots=True)
class Forget:
    """A paper's notes and latest mark, once none of its versions is cached."""

    paper_id: str


Operation = Put | Touch | Drop | Note | Forget


def encode(op: Operation) -> dict[str, Any]:
    """An operation as its journal line's JSON object."""
    if isinstance(op, Put):
        out: dict[str, Any] = {"o": "put", "k": list(op.key), "t": op.tier, "i": op.record.to_disk(), "a": op.at}
        if op.title is not None:
            out["ti"] = op.title
        if op.latest_at is not None:
            out["L"] = op.latest_at
        if op.front:
            out["front"] = True
        return out
    if isinstance(op, Touch):
        return {"o": "touch", "k": list(op.key), "a": op.at}
    if isinstance(op, Drop):
        return {"o": "drop", "k": list(op.key), "t": None if op.tiers is None else list(op.tiers)}
    if isinstance(op, Note):
        return {"o": "note", "p": op.paper_id, "n": op.name, "v": op.value}
    return {"o": "forget", "p": op.paper_id}


def decode(raw: object) -> Operation:
    """A journal line's JSON object as an operation; ValueError when anything is malformed."""
    if not isinstance(raw, dict):
        raise ValueError(f"not an operation: {raw!r}")
    kind = raw.get("o")
    if kind == "put":
        key, tier = key_of(raw.get("k")), raw.get("t")
        if not isinstance(tier, str) or tier not in TIERS:
            raise ValueError(f"malformed tier {tier!r}")
        title = raw.get("ti")
        if title is not None and not isinstance(title, str):
            raise ValueError(f"malformed title {title!r}")
        latest_at = raw.get("L")
        return Put(
            key,
            tier,
            TierRecord.from_disk(key, tier, raw.get("i")),
            number(raw.get("a")),
            title,
            None if latest_at is None else number(latest_at),
            bool(raw.get("front")),
        )
    if kind == "touch":
        return Touch(key_of(raw.get("k")), number(raw.get("a")))
    if kind == "drop":
        tiers = raw.get("t")
        if tiers is not None and (not isinstance(tiers, list) or not set(tiers) <= set(TIERS)):
            raise ValueError(f"malformed tiers {tiers!r}")
        return Drop(key_of(raw.get("k")), None if tiers is None else tuple(tiers))
    if kind == "note":
        name = raw.get("n")
        if not isinstance(name, str):
            raise ValueError(f"malformed note name {name!r}")
        return Note(check_paper_id(raw.get("p")), name, raw.get("v"))
    if kind == "forget":
        return Forget(check_paper_id(raw.get("p")))
    raise ValueError(f"unknown operation {kind!r}")


def key_of(raw: object) -> Key:
    if not isinstance(raw, list) or len(raw) != 2:
        raise ValueError(f"malformed key {raw!r}")
    return check_paper_id(raw[0]), check_version(raw[1])


def number(raw: object) -> float:
    if isinstance(raw, bool) or not isinstance(raw, (int, float)):
        raise ValueError(f"not a number: {raw!r}")
    return float(raw)
