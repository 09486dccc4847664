"""Ranked search over cached papers, with no upstream request (BM25F, standard library only).

Each field (title, authors, abstract, body text) keeps its own term frequencies and length
normalisation, and a match in the title counts for more than one in the abstract, which
counts for more than one in the body. The index keeps term counts, never the texts: per
paper only its title and abstract survive, as the source of result snippets.
"""

from __future__ import annotations

import functools
import math
import re
import sys
import threading
import unicodedata
from array import array
from collections import Counter

from .. import bounds
from ..errors import InvalidInput
from ..words import STOPWORDS, singular

K1 = 1.2
B = 0.75
FIELDS = ("title", "authors", "abstract", "text")
FIELD_WEIGHTS = (4.0, 2.0, 2.0, 1.0)  # same order as FIELDS
SNIPPET_CHARS = 200
_SNIPPET_LEAD = 60

_TF_BITS = 8
_TF_CAP = (1 << _TF_BITS) - 1  # per-field counts saturate long before this under BM25
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


class LocalIndex:
    """An in-memory inverted index of cached papers; safe to share between threads.

    Postings per term are one flat array of (slot, packed field counts) pairs, where a slot
    is a paper's row in the per-paper arrays and each field's count takes one byte.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._postings: dict[str, array] = {}
        self._slot_of: dict[str, int] = {}
        self._doc_ids: list[str | None] = []
        self._terms: list[tuple[str, ...]] = []
        self._snippet_sources: list[tuple[str, str]] = []
        self._lengths = [array("I") for _ in FIELDS]
        self._length_totals = [0] * len(FIELDS)
        self._free_slots: list[int] = []

    def __len__(self) -> int:
        return len(self._slot_of)

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
            slot = self._free_slots.pop() if self._free_slots else self._new_slot()
            self._slot_of[doc_id] = slot
            self._doc_ids[slot] = doc_id
            self._snippet_sources[slot] = (" ".join(title.split()), " ".join(abstract.split()))
            for field, length in enumerate(lengths):
                self._lengths[field][slot] = length
                self._length_totals[field] += length
            all_postings = self._postings
            for term, value in packed.items():
                postings = all_postings.get(term)
                if postings is None:
                    postings = all_postings[term] = array("I")
                postings.append(slot)
                postings.append(value)
            self._terms[slot] = tuple(packed)

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
            best = sorted(scores.items(), key=lambda item: (-item[1], self._doc_ids[item[0]]))[:limit]
            return [
                (doc_id, score, _snippet(*self._snippet_sources[slot], set(terms)))
                for slot, score in best
                if (doc_id := self._doc_ids[slot]) is not None  # a removed paper's slot scores nothing
            ]

    def _scores(self, terms: list[str]) -> dict[int, float]:
        documents = len(self._slot_of)
        if not documents:
            return {}
        averages = [max(total / documents, 1e-9) for total in self._length_totals]
        lengths = self._lengths
        scores: dict[int, float] = {}
        for term in terms:
            postings = self._postings.get(term)
            if not postings:
                continue
            frequency = len(postings) // 2
            idf = math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5))
            pairs = iter(postings)
            for slot, packed in zip(pairs, pairs):
                weighted = 0.0
                for field, weight in enumerate(FIELD_WEIGHTS):
                    count = (packed >> (field * _TF_BITS)) & _TF_CAP
                    if count:
                        norm = 1 - B + B * lengths[field][slot] / averages[field]
                        weighted += weight * count / norm
                scores[slot] = scores.get(slot, 0.0) + idf * weighted * (K1 + 1) / (K1 + weighted)
        return scores

    def _new_slot(self) -> int:
        slot = len(self._doc_ids)
        self._doc_ids.append(None)
        self._terms.append(())
        self._snippet_sources.append(("", ""))
        for lengths in self._lengths:
            lengths.append(0)
        return slot

    def _remove(self, doc_id: str) -> None:
        slot = self._slot_of.pop(doc_id, None)
        if slot is None:
            return
        for term in self._terms[slot]:
            postings = self._postings[term]
            position = 2 * postings[0::2].index(slot)
            del postings[position : position + 2]
            if not postings:
                del self._postings[term]
        for field, lengths in enumerate(self._lengths):
            self._length_totals[field] -= lengths[slot]
            lengths[slot] = 0
        self._doc_ids[slot] = None
        self._terms[slot] = ()
        self._snippet_sources[slot] = ("", "")
        self._free_slots.append(slot)


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
