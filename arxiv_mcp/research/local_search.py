"""Ranked search over cached papers, with no upstream request (BM25F, standard library only).

Each field (title, authors, abstract, body text) keeps its own term frequencies and length
normalisation, and a match in the title counts for more than one in the abstract, which
counts for more than one in the body. The index keeps term counts, never the texts: per
paper only its title and abstract survive, as the source of result snippets.
"""

from __future__ import annotations

import functools
import heapq
import io
import json
import math
import operator
import os
import re
import struct
import sys
import threading
import unicodedata
import zlib
from array import array
from collections import Counter
from collections.abc import Callable, KeysView, Mapping
from pathlib import Path
from typing import BinaryIO, cast

from .. import bounds
from ..cache import osfiles
from ..cache.listing import Signature
from ..errors import InvalidInput
from ..words import STOPWORDS, singular

K1 = 1.2
B = 0.75
FIELDS = ("title", "authors", "abstract", "text")
FIELD_WEIGHTS = (4.0, 2.0, 2.0, 1.0)  # same order as FIELDS
SNIPPET_CHARS = 200
_SNIPPET_LEAD = 60

FILE_MAGIC = b"AXLIBIX1"
FILE_FORMAT = 4

_TF_BITS = 8
_TF_CAP = (1 << _TF_BITS) - 1  # per-field counts saturate long before this under BM25
assert len(FIELDS) * _TF_BITS == 32, "_scores unrolls exactly four one-byte fields"
_WORD_RE = re.compile(r"[^\W_]+")
_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+")


def tokenize(text: str) -> list[str]:
    """Lowercase words without accents, stopwords or 1-char tokens, lightly stemmed."""
    terms = (_term(word) for word in _WORD_RE.findall(text.lower()))
    return [term for term in terms if term]


@functools.lru_cache(maxsize=65_536)
def _term(word: str) -> str:
    """One lowercased word as an index term, or "" when it carries no meaning.

    Interned, so the per-paper term lists share the strings the postings dict holds.
    """
    if not word.isascii():
        word = "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))
        word = word.casefold()
    if len(word) < 2 or word in STOPWORDS:
        return ""
    return sys.intern(_stem(word))


def _stem(word: str) -> str:
    """Plural and -ing/-ed endings only: enough to match "models"/"modeling"/"model"."""
    plural = singular(word)
    if plural != word:
        return plural
    for suffix in ("ing", "ed"):
        stem = word[: -len(suffix)]
        if word.endswith(suffix) and len(stem) >= 4 and any(v in stem for v in "aeiouy"):
            if stem[-1] == stem[-2] and stem[-1] not in "aeiousz":
                stem = stem[:-1]
            return stem
    return word


def _term_counts(text: str) -> dict[str, int]:
    """Term frequencies of a text; normalises each distinct word once, not each occurrence."""
    counts: dict[str, int] = {}
    get, term_of = counts.get, _term
    for word, count in Counter(_WORD_RE.findall(text.lower())).items():
        term = term_of(word)
        if term:
            counts[term] = get(term, 0) + count
    return counts


class IndexLies(ValueError):
    """A loaded index file says something impossible that its checksum could not show."""


class LocalIndex:
    """An in-memory inverted index of cached papers; safe to share between threads.

    Postings are (slot, packed field counts) pairs, where a slot is a paper's row in the
    per-paper arrays and each field's count takes one byte. A term's pairs are a run of the
    `base` array (as loaded from the library file, `to_bytes`/`from_bytes`) followed by those
    added since, in `_postings`. A removed paper's slot is only marked dead (its id None):
    scoring skips dead slots and counts only live ones, so scores are those of an index built
    afresh from the live papers; once dead slots outnumber live ones the postings are rebuilt.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._clear()

    def _clear(self) -> None:
        self._base = array("I")
        self._base_runs: dict[str, int] = {}  # a term's number: its run ends at _base_ends[number]
        self._base_ends = array("I")  # in pairs, each term's run starting where the one before ends
        self._base_slots = 0
        self._base_checked: set[str] = set()
        self._postings: dict[str, array[int]] = {}
        self._slot_of: dict[str, int] = {}
        self._doc_ids: list[str | None] = []
        self._snippet_sources = _Sources()
        self._lengths = [array("I") for _ in FIELDS]
        self._length_totals = [0] * len(FIELDS)
        self._dead = 0

    def __len__(self) -> int:
        return len(self._slot_of)

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._slot_of

    def ids(self) -> KeysView[str]:
        """The ids of the papers indexed (a live view: compare it, do not keep it)."""
        return self._slot_of.keys()

    def title(self, doc_id: str) -> str:
        """The indexed title of a paper, whitespace collapsed ("" when unknown)."""
        with self._lock:
            slot = self._slot_of.get(doc_id)
            return "" if slot is None else self._snippet_sources[slot][0]

    def add(self, doc_id: str, *, title: str, abstract: str = "", authors: str = "", text: str = "") -> None:
        """Index a paper, replacing any earlier entry under the same id."""
        field_counts = [_term_counts(value or "") for value in (title, authors, abstract, text)]
        lengths = [sum(counts.values()) for counts in field_counts]
        packed: dict[str, int] = {}
        get = packed.get
        for field, counts in enumerate(field_counts):
            shift = field * _TF_BITS
            for term, count in counts.items():
                packed[term] = get(term, 0) | ((count if count < _TF_CAP else _TF_CAP) << shift)
        with self._lock:
            self._remove(doc_id)
            slot = len(self._doc_ids)
            self._slot_of[doc_id] = slot
            self._doc_ids.append(doc_id)
            self._snippet_sources.append(" ".join(title.replace("\0", " ").split()), " ".join(abstract.split()))
            for field, length in enumerate(lengths):
                self._lengths[field].append(length)
                self._length_totals[field] += length
            all_postings = self._postings
            for term, value in packed.items():
                postings = all_postings.get(term)
                if postings is None:
                    postings = all_postings[term] = array("I")
                postings.append(slot)
                postings.append(value)

    def remove(self, doc_id: str) -> None:
        """Forget a paper; unknown ids are ignored (eviction may race with indexing)."""
        with self._lock:
            self._remove(doc_id)

    def search(self, query: str, limit: int = 10) -> list[tuple[str, float, str]]:
        """Best papers first, as (doc_id, score, snippet); the snippet is the best matching
        title or abstract sentence, at most 200 chars."""
        bounds.LIMIT.check(limit)
        if not (query or "").strip():
            raise InvalidInput("query is empty: pass a few words, e.g. 'sparse attention'.")
        terms = list(dict.fromkeys(tokenize(query)))
        if not terms:
            raise InvalidInput(
                f"query {query!r} has no searchable words (common words and single "
                "characters are ignored): add a more specific term."
            )
        with self._lock:
            scores = self._scores(terms)
            doc_ids = self._doc_ids
            best = heapq.nsmallest(limit, scores.items(), key=lambda item: (-item[1], doc_ids[item[0]] or ""))
            return [
                (doc_id, score, _snippet(*self._snippet_sources[slot], set(terms)))
                for slot, score in best
                if (doc_id := self._doc_ids[slot]) is not None
            ]

    def _runs(self, term: str) -> list[array[int]]:
        """A term's postings: its run of the base, then what was added since. A base run is
        checked the first time it is read: a slot the file did not hold is IndexLies."""
        runs = []
        run = self._base_run(term)
        if run:
            if term not in self._base_checked:
                if max(run[0::2]) >= self._base_slots:
                    raise IndexLies(f"the postings of {term!r} name a paper the file does not hold")
                self._base_checked.add(term)
            runs.append(run)
        added = self._postings.get(term)
        if added:
            runs.append(added)
        return runs

    def _base_run(self, term: str) -> array[int]:
        """A term's postings as loaded from the library file (empty when it had none)."""
        number = self._base_runs.get(term)
        if number is None:
            return array("I")
        ends = self._base_ends
        return self._base[2 * ends[number - 1] if number else 0 : 2 * ends[number]]

    def _scores(self, terms: list[str]) -> dict[int, float]:
        documents = len(self._slot_of)
        if not documents:
            return {}
        a0, a1, a2, a3 = (max(total / documents, 1e-9) for total in self._length_totals)
        l0, l1, l2, l3 = self._lengths
        w0, w1, w2, w3 = FIELD_WEIGHTS
        doc_ids, dead, cap = self._doc_ids, self._dead, _TF_CAP
        scores: dict[int, float] = {}
        get = scores.get
        for term in terms:
            runs = self._runs(term)
            if dead:
                frequency = sum(1 for run in runs for slot in run[0::2] if doc_ids[slot] is not None)
            else:
                frequency = sum(len(run) for run in runs) // 2
            if not frequency:
                continue
            idf = math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5))
            for run in runs:
                pairs = iter(run)
                for slot, packed in zip(pairs, pairs):
                    if dead and doc_ids[slot] is None:
                        continue
                    # The four fields unrolled (the hot loop); the same sums, in the same order,
                    # as `weight * count / (1 - B + B * length / average)` over FIELDS.
                    weighted = 0.0
                    count = packed & cap
                    if count:
                        weighted += w0 * count / (1 - B + B * l0[slot] / a0)
                    count = (packed >> 8) & cap
                    if count:
                        weighted += w1 * count / (1 - B + B * l1[slot] / a1)
                    count = (packed >> 16) & cap
                    if count:
                        weighted += w2 * count / (1 - B + B * l2[slot] / a2)
                    count = packed >> 24
                    if count:
                        weighted += w3 * count / (1 - B + B * l3[slot] / a3)
                    scores[slot] = get(slot, 0.0) + idf * weighted * (K1 + 1) / (K1 + weighted)
        return scores

    def _remove(self, doc_id: str) -> None:
        slot = self._slot_of.pop(doc_id, None)
        if slot is None:
            return
        for field, lengths in enumerate(self._lengths):
            self._length_totals[field] -= lengths[slot]
            lengths[slot] = 0
        self._doc_ids[slot] = None
        self._snippet_sources.clear(slot)
        self._dead += 1
        if not self._slot_of:
            self._clear()  # nothing live: start afresh, keeping no dead postings
        elif self._dead > max(len(self._slot_of), 64):
            self._rebuild()

    def _rebuild(self) -> None:
        """Renumber the live slots and drop the dead ones' postings (work proportional to the
        index, done once dead slots outnumber live ones, so amortised over the removals)."""
        renumber: dict[int, int] = {}
        for slot, doc_id in enumerate(self._doc_ids):
            if doc_id is not None:
                renumber[slot] = len(renumber)
        postings: dict[str, array[int]] = {}
        for term in self._base_runs.keys() | self._postings.keys():
            kept = array("I")
            for run in self._runs(term):
                pairs = iter(run)
                for slot, packed in zip(pairs, pairs):
                    new = renumber.get(slot)
                    if new is not None:
                        kept.append(new)
                        kept.append(packed)
            if kept:
                postings[term] = kept
        live = list(renumber)
        self._base, self._base_runs, self._base_ends, self._postings = array("I"), {}, array("I"), postings
        self._doc_ids = [self._doc_ids[slot] for slot in live]
        sources = _Sources()
        for slot in live:
            sources.append(*self._snippet_sources[slot])
        self._snippet_sources = sources
        self._lengths = [array("I", (lengths[slot] for slot in live)) for lengths in self._lengths]
        self._slot_of = {doc_id: slot for slot, doc_id in enumerate(self._doc_ids) if doc_id is not None}
        self._dead = 0

    # ----- the library file ----------------------------------------------------------------

    def to_bytes(self, signatures: Mapping[str, Signature]) -> bytes:
        """The whole index, with each live paper's signature (what the caller indexed of it),
        as one file: a small JSON header of counts, then packed arrays (per-paper lengths,
        snippet-source ends and checksums, signature versions, each term's end in the
        postings, the postings) and NUL-joined texts (ids, terms, checksums), which a load
        takes as they are (no JSON list, no object per paper or term is parsed), all under
        one checksum; then the snippet sources, each slot's under its own (`_Sources`)."""
        with self._lock:
            terms = sorted(self._base_runs.keys() | self._postings.keys())
            blob, ends = array("I"), array("I")
            added = self._postings
            for term in terms:
                blob += self._base_run(term)
                more = added.get(term)
                if more:
                    blob += more
                ends.append(len(blob) // 2)
            sources, source_ends, source_sums = self._snippet_sources.packed()
            ids = ["" if doc_id is None else doc_id for doc_id in self._doc_ids]
            signed = [signatures[doc_id] if doc_id else (0, None, None) for doc_id in ids]
            versions = array("I", (signature[0] for signature in signed))
            checksums = [checksum or "" for signature in signed for checksum in signature[1:]]
            texts = [_joined(ids), _joined(terms), _joined(checksums)]
            header = {
                "format": FILE_FORMAT,
                "byteorder": sys.byteorder,
                "slots": len(ids),
                "terms": len(terms),
                "pairs": len(blob) // 2,
                "texts": [len(text) for text in texts],
            }
            arrays = [*self._lengths, source_ends, source_sums, versions, ends, blob]
        head = json.dumps(header, separators=(",", ":")).encode()
        body = b"".join([struct.pack("<Q", len(head)), head, *(a.tobytes() for a in arrays), *texts])
        return b"".join([FILE_MAGIC, struct.pack("<I", zlib.crc32(body)), body, sources])

    @classmethod
    def load(cls, path: Path) -> tuple[LocalIndex, dict[str, Signature]]:
        """The library file at `path` (see `from_bytes`). Where a file replaced by another
        process stays readable through one held open (`os.pread`, not Windows), the snippet
        sources stay on disk, read a slot at a time as a search shows it: a load reads the
        postings and lists only (a third of the file at 10,000 papers)."""
        if not _SOURCES_IN_PLACE:
            return cls.from_bytes(path.read_bytes())
        file = open(path, "rb")  # kept open by the index it loads (_OnDisk), closed with it
        try:
            return cls._read(file.read, lambda at, size: _OnDisk(file, at, size))
        except BaseException:
            file.close()
            raise

    @classmethod
    def from_bytes(cls, data: bytes) -> tuple[LocalIndex, dict[str, Signature]]:
        """Rebuild an index written by `to_bytes`, with its signatures; ValueError if it is
        damaged or of another format (an older one: the caller rebuilds it from the papers)."""
        view, file = memoryview(data), io.BytesIO(data)
        return cls._read(file.read, lambda at, size: view[at:])

    @classmethod
    def _read(cls, read: Callable[[int], bytes], sources: _SourcesAt) -> tuple[LocalIndex, dict[str, Signature]]:
        """The file's checksummed part from `read` (checked whole, as far as a load looks: counts,
        lengths, distinct ids and terms, runs in order), then its snippet sources from `sources`."""
        lead = read(len(FILE_MAGIC) + 12)
        if lead[: len(FILE_MAGIC)] != FILE_MAGIC or len(lead) < len(FILE_MAGIC) + 12:
            raise ValueError("not a library index file")
        checksum, head_size = struct.unpack_from("<IQ", lead, len(FILE_MAGIC))
        file = _Sections(read, zlib.crc32(lead[len(FILE_MAGIC) + 4 :]))
        header = json.loads(file.take(head_size))
        if not isinstance(header, dict) or header.get("format") != FILE_FORMAT:
            raise ValueError("a library index of another format")
        slots, term_count, pairs = (_count(header.get(name)) for name in ("slots", "terms", "pairs"))
        file.swap = header.get("byteorder") != sys.byteorder
        *lengths, source_ends, source_sums, versions = (file.numbers(slots) for _ in range(len(FIELDS) + 3))
        ends, base = file.numbers(term_count), file.numbers(2 * pairs)
        id_bytes, term_bytes, checksum_bytes = header["texts"]
        ids, terms = file.texts(id_bytes, slots), file.texts(term_bytes, term_count)
        written = file.texts(checksum_bytes, 2 * slots)
        checksums = list(map(_NONE_FOR_EMPTY.get, written, written))  # "" (none) as None, at C speed
        if file.checksum != checksum:
            raise ValueError("its checksum does not match (a damaged file)")
        blob = sources(file.read_bytes, source_ends[-1] if slots else 0)
        if len(blob) != (source_ends[-1] if slots else 0):
            raise ValueError("the snippet sources are not the length their ends say")
        _check_runs(ends, pairs)
        index = cls()
        index._base_runs = dict(zip(terms, range(term_count)))
        slot_of = dict(zip(ids, range(slots)))
        signatures = dict(zip(ids, zip(versions.tolist(), checksums[0::2], checksums[1::2])))
        dead = ids.count("")
        if dead:
            del slot_of[""], signatures[""]
        if len(index._base_runs) != term_count or len(slot_of) != slots - dead:
            raise ValueError("terms or paper ids that are not distinct")
        index._lengths, index._base, index._base_ends = lengths, base, ends
        index._snippet_sources = _Sources(blob, source_ends, source_sums)
        index._doc_ids = [doc_id or None for doc_id in ids] if dead else cast("list[str | None]", ids)
        index._base_slots, index._slot_of, index._dead = slots, slot_of, dead
        index._length_totals = [sum(lengths) for lengths in index._lengths]
        return index, signatures


_SOURCES_IN_PLACE = hasattr(os, "pread") and osfiles.FILES.keeps_replaced_open
"""Whether a loaded library file's snippet sources are read from the open file as needed."""


_NONE_FOR_EMPTY: dict[str, str | None] = {"": None}


def _joined(texts: list[str]) -> bytes:
    """Texts that hold no NUL (ids, terms, checksums), as one UTF-8 text they are split from."""
    return "\0".join(texts).encode()


def _count(value: object) -> int:
    if type(value) is not int or value < 0:
        raise ValueError("a header without its counts")
    return value


class _Sections:
    """Reads a library file's checksummed parts in order, each as long as the header says,
    keeping the checksum of what it read and how many bytes (`read_bytes`)."""

    def __init__(self, read: Callable[[int], bytes], checksum: int):
        self._read, self.checksum, self.swap = read, checksum, False
        self.read_bytes = len(FILE_MAGIC) + 12

    def take(self, size: int) -> bytes:
        part = self._read(size)
        if len(part) != size:
            raise ValueError("the file is shorter than its header says")
        self.checksum = zlib.crc32(part, self.checksum)
        self.read_bytes += size
        return part

    def numbers(self, count: int) -> array[int]:
        numbers = array("I")
        numbers.frombytes(self.take(4 * count))
        if self.swap:
            numbers.byteswap()
        return numbers

    def texts(self, size: int, count: int) -> list[str]:
        texts = str(self.take(_count(size)), "utf-8").split("\0") if count else []
        if len(texts) != count:
            raise ValueError("a list of texts that is not as long as its header says")
        return texts


class _OnDisk:
    """The snippet sources of a library file held open: a slice is read when asked for."""

    def __init__(self, file: BinaryIO, at: int, size: int):
        self._file, self._at, self._size = file, at, size
        if os.fstat(file.fileno()).st_size != at + size:
            raise ValueError("the snippet sources are not the length their ends say")

    def __del__(self) -> None:
        self._file.close()

    def __len__(self) -> int:
        return self._size

    def __getitem__(self, part: slice) -> bytes:
        start, stop, _ = part.indices(self._size)
        return os.pread(self._file.fileno(), max(stop - start, 0), self._at + start)


_Blob = bytes | memoryview | _OnDisk
_SourcesAt = Callable[[int, int], _Blob]
"""Where a file's snippet sources are read from, given their offset and length."""


def _check_runs(ends: array[int], pairs: int) -> None:
    """Each term's postings end at or after the previous term's, the last at the postings'
    end (a file whose checksum holds may still lie, written by a bug or by hand)."""
    if (ends[-1] if ends else 0) != pairs or not all(map(operator.le, ends, ends[1:])):
        raise ValueError("a term's postings end before they start, or past the postings")


class _Sources:
    """Each slot's snippet sources (title, abstract). Those loaded from the library file stay
    one UTF-8 blob (title NUL abstract per slot, `ends` marking where each slot's ends, `sums`
    its checksum), in memory or on disk: a search decodes only the papers it shows, so a load
    neither reads nor parses 10,000 abstracts. A slot's bytes are checked when decoded, as
    postings are when first read: ends out of order, a checksum that does not match (a damaged
    file) or bytes that are not whole UTF-8 are IndexLies."""

    def __init__(self, blob: _Blob = b"", ends: array[int] | None = None, sums: array[int] | None = None):
        self._blob = blob
        self._ends = ends if ends is not None else array("I")
        self._sums = sums if sums is not None else array("I")
        self._more: list[tuple[str, str]] = []
        self._cleared: set[int] = set()

    def __getitem__(self, slot: int) -> tuple[str, str]:
        loaded = len(self._ends)
        if slot >= loaded:
            return self._more[slot - loaded]
        if slot in self._cleared:
            return "", ""
        start, end = self._ends[slot - 1] if slot else 0, self._ends[slot]
        try:
            if start > end:
                raise ValueError("snippet sources out of order")
            part = self._blob[start:end]
            if zlib.crc32(part) != self._sums[slot]:
                raise ValueError("their checksum does not match")
            title, _, abstract = str(part, "utf-8").partition("\0")
        except ValueError as lie:  # UnicodeDecodeError: not UTF-8, or a slot cut inside a character
            raise IndexLies(f"the snippet sources of slot {slot} are unsound ({lie})") from None
        return title, abstract

    def append(self, title: str, abstract: str) -> None:
        self._more.append((title, abstract))

    def clear(self, slot: int) -> None:
        loaded = len(self._ends)
        if slot >= loaded:
            self._more[slot - loaded] = ("", "")
        else:
            self._cleared.add(slot)

    def packed(self) -> tuple[bytes, array[int], array[int]]:
        parts, ends, sums, size = [], array("I"), array("I"), 0
        for slot in range(len(self._ends) + len(self._more)):
            title, abstract = self[slot]
            part = f"{title}\0{abstract}".encode()
            parts.append(part)
            size += len(part)
            ends.append(size)
            sums.append(zlib.crc32(part))
        return b"".join(parts), ends, sums


def _snippet(title: str, abstract: str, terms: set[str]) -> str:
    """The title or abstract sentence holding the most query terms (the title on ties)."""
    best, best_hits = title, len(terms & set(tokenize(title)))
    for sentence in _SENTENCE_END_RE.split(abstract):
        hits = len(terms & set(tokenize(sentence)))
        if hits > best_hits:
            best, best_hits = sentence, hits
    return _trim(best, terms)


def _trim(sentence: str, terms: set[str]) -> str:
    """At most SNIPPET_CHARS of the sentence, starting a little before its first query term."""
    if len(sentence) <= SNIPPET_CHARS:
        return sentence
    lowered = sentence.lower()
    first = next((m.start() for m in _WORD_RE.finditer(lowered) if _term(m.group()) in terms), 0)
    start = 0 if first < _SNIPPET_LEAD else sentence.find(" ", first - _SNIPPET_LEAD, first) + 1
    prefix = "…" if start else ""
    room = SNIPPET_CHARS - len(prefix)
    if len(sentence) - start <= room:
        return prefix + sentence[start:]
    cut = sentence.rfind(" ", start, start + room - 1)
    end = cut if cut > max(first, start + room // 2) else start + room - 1
    return prefix + sentence[start:end] + "…"
