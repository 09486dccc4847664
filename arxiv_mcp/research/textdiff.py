"""Two texts compared as a reader would: sentences added and removed, words changed, numbers moved.

Pure functions over strings, no document and no request, so `versions.py` can run them on
any pair of passages (sections, captions, abstracts). Invariants:
- equal texts (whitespace aside) give no difference at all: nothing is invented;
- every sentence said to be added is in the second text and not the first, and the reverse;
- a number change `a -> b` is reported only where the words around it line up.
"""

from __future__ import annotations

import functools
import re
from difflib import SequenceMatcher

from ..words import STOPWORDS

_SENTENCE_END_RE = re.compile(r"\s(?:(?<=[.!?]\s)\s*(?=[A-Z(\[\\$\"'“0-9])|(?<=\n)\s*\n)")
"""Blanks after a sentence's stop before a capital, a digit or an opening mark, or a blank line.
Written to start with the blank (each alternative does) so the scan skips other characters fast."""
_FLAT_END_RE = re.compile(r" (?<=[.!?] )(?=[A-Z(\[\\$\"'“0-9])")
"""`_SENTENCE_END_RE`'s first alternative in a text whose blanks are single spaces."""
_BLANK_LINE_RE = re.compile(r"\n\s*\n")
_OTHER_ASCII_BLANKS = "".join(c for c in map(chr, range(128)) if c.isspace() and c not in " \n")
"""What `str.split` splits ASCII at, besides spaces and line breaks."""
_WORD_RE = re.compile(r"\S+")
_NUMBER_RE = re.compile(r"[-+−]?\d+(?:[.,]\d+)*%?")
_EDGE_PUNCTUATION = ".,;:()[]{}\"'“”"
_REFERENCE_WORDS = frozenset(
    ("section", "sec", "sections", "figure", "fig", "figs", "table", "tables", "eq", "equation")
)
_REFERENCE_WORDS |= {"appendix", "algorithm", "theorem", "lemma", "ref", "chapter"}
EXCERPT_CHARS = 240
MAX_SENTENCES = 5
MAX_NUMBERS = 8


def flat(text: str) -> str:
    """Whitespace collapsed: two texts that differ only in line breaks are the same text. Most
    of a paper's running text is ASCII whose only blanks are single spaces and line breaks:
    there, replacing the line breaks is the same text at a sixth of the cost of a split."""
    if text.isascii():
        joined = text.replace("\n", " ")
        if "  " not in joined and joined[:1] != " " and joined[-1:] != " ":
            if not any(blank in text for blank in _OTHER_ASCII_BLANKS):
                return joined
    return " ".join(text.split())


def sentences(text: str) -> list[str]:
    return list(_sentences(text))


@functools.lru_cache(maxsize=64)
def _sentences(text: str) -> tuple[str, ...]:
    """Kept for the texts compared last: a changed section is split for its similarity, its
    sentences added and removed, and its numbers (a long section's split is most of that).
    A text without a blank line (most sections' running text) is flattened first and split
    at single spaces: the same sentences, each split point's blanks being one run, in half
    the time."""
    if _BLANK_LINE_RE.search(text) is None:
        return tuple(s for s in _FLAT_END_RE.split(flat(text)) if s)
    return tuple(s for s in (flat(part) for part in _SENTENCE_END_RE.split(text)) if s)


def words(text: str) -> list[str]:
    return _WORD_RE.findall(text)


def same_words(a: str, b: str) -> bool:
    """`flat(a) == flat(b)`, from the texts' sentences, which a comparison of texts that differ
    splits anyway: sentences split only at blanks, so joined they are the text flattened."""
    return a == b or " ".join(_sentences(a)) == " ".join(_sentences(b))


def similarity(a: str, b: str) -> float:
    """How much of two texts is the same, 0 to 1 (1.0 for equal texts): by words for a few
    sentences, by whole sentences (their characters) for longer texts, where a word-by-word
    match costs most of a long paper's comparison and says no more."""
    if same_words(a, b):
        return 1.0
    sa, sb = sentences(a), sentences(b)
    if len(sa) + len(sb) > 8:
        return _by_sentences(sa, sb, SequenceMatcher(None, sa, sb, autojunk=False))
    return _by_words(a, b)


def _by_sentences(sa: list[str], sb: list[str], matcher: SequenceMatcher[str]) -> float:
    same = sum(sum(len(s) for s in sa[i : i + size]) for i, _, size in matcher.get_matching_blocks())
    total = sum(map(len, sa)) + sum(map(len, sb))
    return round(2 * same / total, 3) if total else 0.0


def _by_words(a: str, b: str) -> float:
    wa, wb = words(a), words(b)
    if not wa or not wb:
        return 0.0
    return round(SequenceMatcher(None, wa, wb, autojunk=False).ratio(), 3)


def short(text: str, limit: int = EXCERPT_CHARS) -> str:
    text = flat(text)
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def sentence_changes(a: str, b: str) -> tuple[list[str], list[str]]:
    """(sentences removed from `a`, sentences added in `b`), in their order."""
    removed, added, _ = _sentence_diff(a, b)
    return removed, added


def sentence_diff(a: str, b: str) -> tuple[list[str], list[str], float]:
    """`sentence_changes` and `similarity` of two texts that differ (whitespace aside), from
    one matching of their sentences: the second one costs as much as the first."""
    removed, added, matcher = _sentence_diff(a, b)
    sa, sb = sentences(a), sentences(b)
    return removed, added, _by_sentences(sa, sb, matcher) if len(sa) + len(sb) > 8 else _by_words(a, b)


def _sentence_diff(a: str, b: str) -> tuple[list[str], list[str], SequenceMatcher[str]]:
    sa, sb = sentences(a), sentences(b)
    removed: list[str] = []
    added: list[str] = []
    matcher = SequenceMatcher(None, sa, sb, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "delete"):
            removed += sa[i1:i2]
        if tag in ("replace", "insert"):
            added += sb[j1:j2]
    return removed, added, matcher


def number_changes(removed: list[str], added: list[str]) -> list[str]:
    """`accuracy 91.2 -> 92.7` for each number that changed inside a sentence that otherwise
    stayed: each removed sentence is paired with the added one most like it."""
    found: list[str] = []
    free = list(added)
    for old in removed:
        scores = [similarity(old, new) for new in free]
        at = max(range(len(free)), key=scores.__getitem__, default=None)  # the first of the best
        if at is None or scores[at] < 0.5:
            continue
        best = free.pop(at)
        found += [f"{label} {a} -> {b}".strip() for label, a, b in numbers_between(words(old), words(best))]
    return list(dict.fromkeys(found))[:MAX_NUMBERS]


def numbers_between(old: list[str], new: list[str]) -> list[tuple[str, str, str]]:
    """(what it measures, before, after) for each number that changed where the words line up."""
    changes = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag != "replace" or i2 - i1 != j2 - j1:
            continue
        for k in range(i2 - i1):
            before, after = old[i1 + k].strip(_EDGE_PUNCTUATION), new[j1 + k].strip(_EDGE_PUNCTUATION)
            label = _label_before(old, i1 + k)
            if before != after and _NUMBER_RE.fullmatch(before) and _NUMBER_RE.fullmatch(after):
                if label.casefold().rstrip(".") not in _REFERENCE_WORDS:  # "Section 6 -> 7": a renumbering
                    changes.append((label, before, after))
    return changes


def _label_before(tokens: list[str], index: int) -> str:
    """The nearest word before a number that is not itself a number (what the number measures)."""
    for token in reversed(tokens[max(0, index - 5) : index]):
        word = token.strip(_EDGE_PUNCTUATION)
        if word and not _NUMBER_RE.fullmatch(word) and word.casefold() not in STOPWORDS:
            return word
    return ""


def word_diff(a: str, b: str, context: int = 4) -> str:
    """The changed words of two short texts, `[-old-]{+new+}`, with a few words around each
    change (each word shown once); '' when they are the same text."""
    wa, wb = words(a), words(b)
    if wa == wb:
        return ""
    changes = [op for op in SequenceMatcher(None, wa, wb, autojunk=False).get_opcodes() if op[0] != "equal"]
    pieces: list[str] = []
    shown = 0  # words of `a` written so far
    for n, (_, i1, i2, j1, j2) in enumerate(changes):
        lead_from = max(shown, i1 - context)
        if lead_from > shown:
            pieces.append("…")
        pieces += wa[lead_from:i1]
        if i2 > i1:
            pieces.append("[-" + " ".join(wa[i1:i2]) + "-]")
        if j2 > j1:
            pieces.append("{+" + " ".join(wb[j1:j2]) + "+}")
        next_change = changes[n + 1][1] if n + 1 < len(changes) else len(wa)
        shown = min(next_change, i2 + context)
        pieces += wa[i2:shown]
    if shown < len(wa):
        pieces.append("…")
    return " ".join(pieces)
