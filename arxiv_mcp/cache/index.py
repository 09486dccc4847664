"""The cache index: an in-memory mirror kept in step, across processes, by a snapshot plus a journal.

`index.json` is a snapshot written atomically (temporary file, fsync, rename) and tagged with a
generation number. `journal.jsonl` starts with a header naming the generation it continues and
then holds one JSON operation per line, appended under the cache's file lock, so a cache hit costs
one short append instead of a rewrite. Every process applies the same operations in the same
order, so their mirrors agree; a process notices others' work by the journal growing (new lines
to apply) or being replaced (a compaction: reload the snapshot). Each process keeps the journal
open between calls; on Windows, which refuses to replace an open file, it lets go at the end of
every lock hold (`release`) and reopens it by its file id at the next.

A torn last line (a writer killed mid-append) is cut off; a line that does not parse is skipped
and flagged, and so is a missing or corrupt snapshot: the caller then reconciles the index
with the files on disk, which are the ground truth.
"""

from __future__ import annotations

import gc
import json
import logging
import operator
import os
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import repeat
from pathlib import Path
from typing import Any

from . import osfiles
from .atomic import write_atomic
from .files import MAX_VERSION, RAW_KINDS, TIERS, check_paper_id, check_paper_ids, check_version
from .oslock import read_at
from .records import (
    RECORD_WIDTH,
    Drop,
    Key,
    Note,
    Operation,
    Put,
    TierRecord,
    Touch,
    check_digests,
    decode,
    encode,
    number,
)

logger = logging.getLogger(__name__)

SNAPSHOT_FORMAT = 3
"""3 keeps the entries as columns (a list per field, `_add_columns`), which a load checks a
column at a time; 2, a row per entry (records.py), and 1, records as objects, are still read."""
FREEZE_AFTER = 20_000
"""Objects made by a snapshot read beyond which they are frozen (a few thousand papers)."""
# The journal is folded into a new snapshot once it outgrows both this and an eighth of the
# snapshot: a new process replays all of it, and a byte of journal costs about three of snapshot
# to read, so its first call reads at most ~40% more than the snapshot alone.
COMPACT_MIN_BYTES = 1 << 18


class Entry:
    """One cached paper version: its tiers (each with its size and provenance) and last access."""

    __slots__ = ("paper_id", "version", "last_access", "title", "tiers")

    def __init__(self, paper_id: str, version: int, last_access: float, title: str | None = None):
        self.paper_id = paper_id
        self.version = version
        self.last_access = last_access
        self.title = title
        self.tiers: dict[str, TierRecord] = {}

    @property
    def bytes(self) -> int:
        return sum(record.size for record in self.tiers.values())


class IndexState:
    """The index itself: entries in least-recently-accessed-first order, latest markers, notes.

    Changed only through `apply`, which validates an operation completely before changing
    anything, so a malformed line can be skipped without leaving a half-applied change.
    """

    def __init__(self) -> None:
        self.entries: OrderedDict[Key, Entry] = OrderedDict()
        self.by_paper: dict[str, set[int]] = {}
        self.latest: dict[str, tuple[int, float]] = {}
        self.notes: dict[str, dict[str, Any]] = {}
        self.bytes_by_tier: dict[str, int] = dict.fromkeys(TIERS, 0)

    @property
    def total_bytes(self) -> int:
        return sum(self.bytes_by_tier.values())

    def apply(self, op: Operation) -> None:
        """Apply one (validated, see records.py) operation to the mirror."""
        if isinstance(op, Put):
            self._put(op)
        elif isinstance(op, Touch):
            entry = self.entries.get(op.key)
            if entry is not None:
                entry.last_access = op.at
                self.entries.move_to_end(op.key)
        elif isinstance(op, Drop):
            self._drop(op.key, op.tiers)
        elif isinstance(op, Note):
            if op.value is None:
                self.notes.get(op.paper_id, {}).pop(op.name, None)
                if not self.notes.get(op.paper_id, True):
                    del self.notes[op.paper_id]
            else:
                self.notes.setdefault(op.paper_id, {})[op.name] = op.value
        else:
            self.notes.pop(op.paper_id, None)
            self.latest.pop(op.paper_id, None)

    def _put(self, op: Put) -> None:
        key, tier = op.key, op.tier
        entry = self.entries.get(key)
        if entry is None:
            entry = Entry(key[0], key[1], op.at)
            self.entries[key] = entry
            self.by_paper.setdefault(key[0], set()).add(key[1])
            if op.front:
                self.entries.move_to_end(key, last=False)
        if not op.front:
            entry.last_access = op.at
            self.entries.move_to_end(key)
        old = entry.tiers.get(tier)
        if old is not None:
            self.bytes_by_tier[tier] -= old.size
        entry.tiers[tier] = op.record
        self.bytes_by_tier[tier] += op.record.size
        if tier == "meta" or (op.title is not None and "meta" not in entry.tiers):
            entry.title = op.title  # the metadata's title, else the one the text states
        if op.latest_at is not None:
            self.latest[key[0]] = (key[1], op.latest_at)

    def _drop(self, key: Key, tiers: tuple[str, ...] | None) -> None:
        entry = self.entries.get(key)
        if entry is None:
            return
        for tier in list(entry.tiers) if tiers is None else tiers:
            record = entry.tiers.pop(tier, None)
            if record is not None:
                self.bytes_by_tier[tier] -= record.size
        if entry.tiers:
            return
        del self.entries[key]
        versions = self.by_paper[key[0]]
        versions.discard(key[1])
        if not versions:
            del self.by_paper[key[0]]
            self.latest.pop(key[0], None)
            self.notes.pop(key[0], None)

    def to_json(self, generation: int) -> dict[str, Any]:
        """The snapshot: each entry field a column (least recently accessed first), each
        tier's records columns of their fields after the positions of their entries."""
        entries = list(self.entries.values())
        tiers: dict[str, list[list[Any]]] = {}
        for position, entry in enumerate(entries):
            for tier, record in entry.tiers.items():
                tiers.setdefault(tier, [[] for _ in range(RECORD_WIDTH + 1)])[0].append(position)
                for column, value in zip(tiers[tier][1:], record):
                    column.append(value)
        latest = self.latest
        return {
            "format": SNAPSHOT_FORMAT,
            "generation": generation,
            "entries": [[getattr(entry, name) for entry in entries] for name in _ENTRY_COLUMNS],
            "tiers": tiers,
            "latest": [list(latest), [mark[0] for mark in latest.values()], [mark[1] for mark in latest.values()]],
            "notes": self.notes,
        }

    @classmethod
    def from_json(cls, body: object) -> tuple[IndexState, int]:
        """Rebuild a state from a snapshot (this format or an earlier one); raise ValueError
        (or a subclass) on anything malformed."""
        if not isinstance(body, dict) or body.get("format") not in (1, 2, SNAPSHOT_FORMAT):
            raise ValueError("not an index snapshot of a known format")
        generation = body.get("generation")
        if type(generation) is not int:
            raise ValueError("snapshot without a generation")
        state = cls()
        if body["format"] == 1:
            state._add_rows_of_format_1(body["entries"])
        elif body["format"] == 2:
            state._add_rows(body["entries"])
        else:
            state._add_columns(body["entries"], body["tiers"])
        if body["format"] == SNAPSHOT_FORMAT:
            state._add_latest_columns(*body["latest"])
        else:
            state._add_latest(body["latest"])
        for paper_id, notes in body["notes"].items():
            if not isinstance(notes, dict):
                raise ValueError("malformed notes")
            state.notes[check_paper_id(paper_id)] = dict(notes)
        return state, generation

    def _add_columns(self, columns: list[list[Any]], tiers: dict[str, list[list[Any]]]) -> None:
        """Entries as the snapshot keeps them (`to_json`), each column checked at once (types
        by the set of them, bounds by min and max, ids and checksums by one pass each): a load
        builds the entries and records, and runs no Python per field."""
        paper_ids, versions, accessed, titles = columns
        count = len(paper_ids)
        if not all(type(column) is list and len(column) == count for column in columns):
            raise ValueError("snapshot columns of different lengths")
        check_paper_ids(paper_ids)
        if count and (_types(versions) != {int} or min(versions) < 1 or max(versions) > MAX_VERSION):
            raise ValueError("a snapshot entry of a malformed version")
        if not _types(titles) <= _TEXT_OR_NONE:
            raise ValueError("a malformed title in the snapshot")
        if not _types(accessed) <= {float}:
            accessed = [number(at) for at in accessed]
        entries = list(map(Entry, paper_ids, versions, accessed, titles))
        for tier, record_columns in tiers.items():
            self._add_tier_columns(entries, tier, record_columns)
        self.entries = OrderedDict(zip(zip(paper_ids, versions), entries))
        if len(self.entries) != count or not all(map(_TIERS_OF, entries)):
            raise ValueError("a snapshot entry twice, or without tiers")
        self.by_paper = {paper_id: {version} for paper_id, version in zip(paper_ids, versions)}
        if len(self.by_paper) != count:  # papers with more than one version cached
            for paper_id, version in zip(paper_ids, versions):
                self.by_paper[paper_id].add(version)

    def _add_tier_columns(self, entries: list[Entry], tier: str, columns: list[list[Any]]) -> None:
        """One tier's records (columns of their fields, after their entries' positions)."""
        if tier not in TIERS or type(columns) is not list or len(columns) != RECORD_WIDTH + 1:
            raise ValueError(f"malformed tier {tier!r} in the snapshot")
        positions, sizes, digests, *rest = columns
        if not all(type(column) is list and len(column) == len(positions) for column in columns):
            raise ValueError(f"columns of tier {tier!r} of different lengths")
        if positions and (
            _types(positions) != {int}
            or min(positions) < 0
            or max(positions) >= len(entries)
            or len(set(positions)) != len(positions)
        ):
            raise ValueError(f"tier {tier!r} of entries the snapshot does not hold, or twice")
        records: list[TierRecord]
        if tier in _PLAIN_TIERS and _plain_columns(sizes, digests, *rest):
            check_digests([digest for digest in digests if digest is not None])
            records = list(map(tuple.__new__, repeat(TierRecord), zip(*columns[1:])))
        else:
            records = [
                TierRecord.from_row((entries[at].paper_id, entries[at].version), tier, row)
                for at, row in zip(positions, zip(*columns[1:]))
            ]
        for at, record in zip(positions, records):
            entries[at].tiers[tier] = record
        self.bytes_by_tier[tier] += sum(sizes)  # each checked a whole number by now

    def _add_latest_columns(self, paper_ids: list[Any], versions: list[Any], marked: list[Any]) -> None:
        """The latest marks as columns: (paper id, its latest version, when it was marked)."""
        if not len(paper_ids) == len(versions) == len(marked):
            raise ValueError("latest columns of different lengths")
        if not self.by_paper.keys() >= set(paper_ids):
            check_paper_ids(paper_ids)
        if versions and (_types(versions) != {int} or min(versions) < 1 or max(versions) > MAX_VERSION):
            raise ValueError("a latest mark of a malformed version")
        if not _types(marked) <= {float}:
            marked = [number(at) for at in marked]
        self.latest.update(zip(paper_ids, zip(versions, marked)))

    def _add_latest(self, marks: dict[str, Any]) -> None:
        """The latest marks as formats 1 and 2 kept them: {paper id: [version, marked at]}."""
        by_paper, latest = self.by_paper, self.latest
        for paper_id, (version, marked_at) in marks.items():
            if (
                paper_id in by_paper
                and type(version) is int
                and 0 < version <= MAX_VERSION
                and type(marked_at) is float
            ):
                latest[paper_id] = (version, marked_at)  # checked as below, inline: one per paper
            else:
                paper_id = paper_id if paper_id in by_paper else check_paper_id(paper_id)
                latest[paper_id] = (check_version(version), number(marked_at))

    def _add_rows(self, rows: list[list[Any]]) -> None:
        """Entries as a snapshot keeps them: [paper id, version, last access, title, then per
        tier its name and its record's row (records.py)], least recently accessed first.

        Written out for speed, as the first call of a process at 10,000 papers waits for it:
        the ids are checked in one pass, each entry's other fields inline."""
        width = RECORD_WIDTH + 1
        entries, by_paper, totals, from_row = self.entries, self.by_paper, self.bytes_by_tier, TierRecord.from_row
        made, digests = TierRecord._make, []
        check_paper_ids([row[0] for row in rows])
        for row in rows:
            paper_id, version, last_access, title = row[0], row[1], row[2], row[3]
            key = (paper_id, version)
            if type(version) is not int or not 0 < version <= MAX_VERSION or key in entries:
                raise ValueError(f"a snapshot entry of a malformed version, or twice: {key!r}")
            if title is not None and type(title) is not str:
                raise ValueError(f"malformed title {title!r}")
            entry = Entry(paper_id, version, last_access if type(last_access) is float else number(last_access), title)
            tiers = entry.tiers
            for at in range(4, len(row), width):
                tier, fields = row[at], row[at + 1 : at + width]
                if tier in _PLAIN_TIERS and _plain_row(fields):
                    # As from_row would make it (nothing to normalise), its checksum checked below.
                    record = tiers[tier] = made(fields)
                    if fields[1] is not None:
                        digests.append(fields[1])
                else:
                    record = tiers[tier] = from_row(key, tier, fields)
                totals[tier] += record.size
            if not tiers or len(row) - 4 != width * len(tiers):
                raise ValueError(f"a snapshot entry without tiers, or a tier twice: {key!r}")
            entries[key] = entry
            versions = by_paper.get(paper_id)
            if versions is None:
                by_paper[paper_id] = {version}
            else:
                versions.add(version)
        check_digests(digests)

    def _add_rows_of_format_1(self, rows: list[list[Any]]) -> None:
        """Entries as format 1 kept them, each tier record an object: an upgraded cache loads."""
        for paper_id, version, last_access, title, tiers in rows:
            key = self._key(paper_id, version)
            whole = isinstance(tiers, dict)
            records = {tier: TierRecord.from_disk(key, tier, raw) for tier, raw in tiers.items()} if whole else {}
            self._add(key, last_access, title, records, whole)

    def _key(self, paper_id: object, version: object) -> Key:
        # The cheap checks of `records.key_of` inline: this runs for every entry of a snapshot.
        if type(paper_id) is not str or paper_id not in self.by_paper:
            paper_id = check_paper_id(paper_id)
        return paper_id, check_version(version)

    def _add(self, key: Key, last_access: object, title: object, tiers: dict[str, TierRecord], whole: bool) -> None:
        """Add one snapshot entry (at the recent end); ValueError when it is malformed."""
        if not whole or not tiers or key in self.entries:
            raise ValueError("snapshot entry without tiers, or twice")
        if title is not None and type(title) is not str:
            raise ValueError(f"malformed title {title!r}")
        entry = Entry(key[0], key[1], number(last_access), title)
        entry.tiers = tiers
        self.entries[key] = entry
        versions = self.by_paper.get(key[0])
        if versions is None:
            versions = self.by_paper[key[0]] = set()
        versions.add(key[1])
        bytes_by_tier = self.bytes_by_tier
        for tier, record in tiers.items():
            bytes_by_tier[tier] += record.size


_ENTRY_COLUMNS = ("paper_id", "version", "last_access", "title")
"""The entry fields a snapshot keeps, a column each, in this order."""
_TEXT_OR_NONE = {str, type(None)}
_TIERS_OF = operator.attrgetter("tiers")


def _types(column: list[Any]) -> set[type]:
    """The types of a column's values, found at C speed (bool is not int: it is its own type)."""
    return set(map(type, column))


def _plain_columns(*columns: list[Any]) -> bool:
    """Whether a metadata or text tier's columns are already what `TierRecord.from_row` makes
    of each row (as `_plain_row`), so the rows themselves are the records (checksums still
    to check)."""
    sizes, digests, names, content_types, fetched, methods, versions = columns
    return (
        _types(sizes) <= {int}
        and (not sizes or min(sizes) >= 0)
        and _types(digests) <= _TEXT_OR_NONE
        and _types(names) <= {type(None)}
        and _types(content_types) <= {type(None)}
        and _types(fetched) <= {float, type(None)}
        and _types(methods) <= _TEXT_OR_NONE
        and _types(versions) <= {int, type(None)}
    )


_PLAIN_TIERS = frozenset(TIERS) - frozenset(RAW_KINDS)
"""The tiers whose record names no file of its own (metadata, text): most of a snapshot's."""


def _plain_row(fields: list[Any]) -> bool:
    """Whether a metadata or text record's row is already in the form `TierRecord.from_row`
    makes of it (every field of its type or null, no file name or content type), so the row
    itself can be the record; its checksum, if any, is still to be checked."""
    size, digest, name, content_type, fetched_at, method, version = fields
    return (
        len(fields) == RECORD_WIDTH
        and type(size) is int
        and size >= 0
        and (digest is None or type(digest) is str)
        and name is None
        and content_type is None
        and (fetched_at is None or type(fetched_at) is float)
        and (method is None or type(method) is str)
        and (version is None or type(version) is int)
    )


class JournaledIndex:
    """Keeps an `IndexState` in step with `index.json` + `journal.jsonl`; every call needs the cache lock."""

    def __init__(self, home: Path, tmp_dir: Path):
        self.snapshot_path = home / "index.json"
        self.journal_path = home / "journal.jsonl"
        self._tmp_dir = tmp_dir
        self.state = IndexState()
        self.generation = 0
        self.needs_reconcile = False
        self.written = False
        self.before_writing: Callable[[], None] | None = None
        self._fd = -1
        self._inode = -1
        self._offset = 0
        self._snapshot_bytes = 0
        self._outdated = False  # the snapshot read is of an older format

    def refresh(self) -> None:
        """Catch up with what other processes wrote since this process last looked (and start
        counting `written` afresh: whether this holder of the lock has appended anything)."""
        self.written = False
        try:
            st = os.stat(self.journal_path)
        except FileNotFoundError:
            self.load()
            return
        if self._fd < 0 and st.st_ino == self._inode:
            self._reopen_journal()
        if self._fd < 0 or st.st_ino != self._inode or st.st_size < self._offset:
            self.load()
        elif st.st_size > self._offset:
            self._replay(read_at(self._fd, st.st_size - self._offset, self._offset), self._offset)

    def load(self) -> None:
        """Read the snapshot and replay its journal; flag a reconcile when either is damaged."""
        with collector_paused():
            self._load()

    def _load(self) -> None:
        self._close_journal()
        snapshot = self._read_snapshot()
        header, lines_at, data = self._read_journal()
        journal_generation = header.get("generation") if header else None
        if snapshot is not None:
            self.state, self.generation = snapshot
            if journal_generation == self.generation:
                self._open_journal()
                self._replay(data[lines_at:], lines_at)
                if self._outdated:
                    self._upgrade()
                return
            if data and (journal_generation is None or journal_generation > self.generation):
                logger.warning(
                    "cache journal %s does not continue the snapshot; salvaging its lines", self.journal_path
                )
                self._salvage(data[lines_at:])
            # A missing journal, or one a compaction had not replaced yet: what it recorded
            # after the snapshot is unknown, so the files are checked (and any unknown adopted).
            if not data:
                logger.warning("cache journal %s is missing; checking the files against the index", self.journal_path)
            self.needs_reconcile = True
        else:
            self.state, self.generation = IndexState(), 0
            if data:
                logger.warning(
                    "cache index %s is missing; rebuilding it from the journal and the files", self.snapshot_path
                )
                self._salvage(data[lines_at:])
            self.needs_reconcile = True
        if isinstance(journal_generation, int):
            self.generation = max(self.generation, journal_generation)
        self.compact()

    def append(self, op: Operation) -> None:
        """Record one operation (the journal first, then the mirror); needs `refresh` first.
        The first of a lock holder's appends is preceded by `before_writing`'s (batched accesses
        made before it, so every process sees them in the order this one applied them)."""
        if not self.written:
            self.written = True
            if self.before_writing is not None:
                self.before_writing()
        line = (json.dumps(encode(op), ensure_ascii=False, separators=(",", ":")) + "\n").encode()
        view = memoryview(line)
        try:
            while view:
                view = view[os.write(self._fd, view) :]
        except OSError:
            os.ftruncate(self._fd, self._offset)  # leave no torn line for the next append to run into
            raise
        self._offset += len(line)
        self.state.apply(op)

    def compact_if_long(self) -> None:
        if self._offset > max(COMPACT_MIN_BYTES, self._snapshot_bytes // 8):
            self.compact()

    def compact(self) -> None:
        """Fold the journal into a new snapshot and start a fresh journal of the next generation.

        The snapshot is renamed into place before the journal, so a crash in between leaves a
        journal of an older generation, which `load` recognises as already folded in.
        """
        self.generation += 1
        body = json.dumps(self.state.to_json(self.generation), ensure_ascii=False, separators=(",", ":")).encode()
        write_atomic(self.snapshot_path, body, self._tmp_dir)
        self._close_journal()  # Windows refuses to replace a file this process has open
        write_atomic(self.journal_path, self._header(), self._tmp_dir)
        self._snapshot_bytes = len(body)
        self._open_journal()

    def close(self) -> None:
        self._close_journal()

    def _upgrade(self) -> None:
        """Write a snapshot of an older format anew, so only the first process after an upgrade
        reads the slower format; on a full disk the old one serves until the next compaction."""
        try:
            self.compact()
        except OSError as exc:
            logger.warning("could not rewrite the cache index %s in the current format (%s)", self.snapshot_path, exc)

    def release(self) -> None:
        """Let go of the journal at the end of a lock hold where open files block a replace
        (Windows: another process's compaction), remembering its identity and length so the
        next `refresh` reopens it and reads only what others appended."""
        if not osfiles.FILES.keeps_replaced_open and self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def _header(self) -> bytes:
        return (json.dumps({"o": "head", "generation": self.generation}) + "\n").encode()

    def _reopen_journal(self) -> None:
        """Reopen the journal `release` let go of, if it is still the same file."""
        fd = os.open(self.journal_path, os.O_RDWR | os.O_APPEND | osfiles.BINARY)
        if os.fstat(fd).st_ino == self._inode:
            self._fd = fd
        else:
            os.close(fd)

    def _open_journal(self) -> None:
        self._fd = os.open(self.journal_path, os.O_RDWR | os.O_APPEND | osfiles.BINARY)
        st = os.fstat(self._fd)
        self._inode = st.st_ino
        self._offset = st.st_size

    def _close_journal(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
        self._fd = -1
        self._inode = -1

    def _read_snapshot(self) -> tuple[IndexState, int] | None:
        try:
            data = self.snapshot_path.read_bytes()
        except FileNotFoundError:
            return None
        try:
            body = json.loads(data)
            state, generation = IndexState.from_json(body)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
            aside = self.snapshot_path.with_name("index.json.corrupt")
            osfiles.FILES.replace(self.snapshot_path, aside)
            logger.warning(
                "cache index %s is unreadable (%s); kept as %s, rebuilding from the files",
                self.snapshot_path,
                exc,
                aside,
            )
            return None
        self._snapshot_bytes = len(data)
        self._outdated = body["format"] != SNAPSHOT_FORMAT
        return state, generation

    def _read_journal(self) -> tuple[dict[str, Any] | None, int, bytes]:
        """The journal's header (None if missing or garbled), where its lines start, and its bytes."""
        try:
            data = self.journal_path.read_bytes()
        except FileNotFoundError:
            return None, 0, b""
        first, newline, _ = data.partition(b"\n")
        try:
            header = json.loads(first) if newline else None
        except ValueError:
            header = None
        if isinstance(header, dict) and header.get("o") == "head" and type(header.get("generation")) is int:
            return header, len(first) + 1, data
        return None, 0, data

    def _replay(self, data: bytes, start: int) -> None:
        """Apply the complete lines of `data` (which begins at journal offset `start`)."""
        end = data.rfind(b"\n") + 1
        if end < len(data):
            logger.warning("cutting a torn line off the end of cache journal %s", self.journal_path)
            os.ftruncate(self._fd, start + end)
            self.needs_reconcile = True
        self._apply_lines(data[:end])
        self._offset = start + end

    def _salvage(self, data: bytes) -> None:
        self._apply_lines(data[: data.rfind(b"\n") + 1])
        self.needs_reconcile = True

    def _apply_lines(self, data: bytes) -> None:
        lines = [line for line in data.splitlines() if line.strip()]
        try:  # one parse for the lot is much faster than one per line; a bad line falls back
            ops = json.loads(b"[" + b",".join(lines) + b"]")
        except ValueError:
            ops = None
        if not isinstance(ops, list) or len(ops) != len(lines):
            ops = [_parse_or_none(line) for line in lines]
        skipped = 0
        for op in ops:
            try:
                self.state.apply(decode(op))
            except (ValueError, TypeError, KeyError, AttributeError):
                skipped += 1
        if skipped:
            logger.warning("skipped %d unreadable line(s) in cache journal %s", skipped, self.journal_path)
            self.needs_reconcile = True


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cycle collector while a snapshot (or another large derived file, the
    library's index) is read: every object made then is kept,
    so its passes would find nothing, yet each walks the objects of the whole process (at
    10,000 papers they cost more than reading the snapshot). A large mirror is then frozen
    (gc.freeze: moved out of the collector's sight), else the first full pass after it, soon
    and inside some call, walks it all again; it holds no cycles, so it is still freed when a
    reload replaces it."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        if gc.get_count()[0] >= FREEZE_AFTER:
            gc.freeze()
        gc.enable()


def _parse_or_none(line: bytes) -> object:
    try:
        return json.loads(line)
    except ValueError:
        return None
