"""How well a cited title and author fit a paper: the scores behind resolve's verdicts.

A title fits when every word the citation states is one of the paper's (a typo of one, a
plural of one, a hyphen dropped), and the paper's words the citation lacks are few or are the
end it cut off (`Denoising Diffusion Probabilistic...`) or one side of a colon (a journal
dropping the subtitle). A word the citation states that the paper lacks is a different
claim: a fabricated or misremembered title is never a typo of a real one, so one such word
makes a title not fit, however similar the letters look.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Literal

from ..words import STOPWORDS, singular
from .plaintext import fold, words

Fit = Literal["same", "close", "truncated", "part", "different"]
FITS: tuple[Fit, ...] = ("same", "close", "part", "truncated", "different")
"""Best first."""
_TYPO = 0.8
"""Letters two spellings of one word share at least (`represntations`, `colour`)."""


@dataclass(frozen=True)
class TitleFit:
    fit: Fit
    similarity: float
    """Letters in common, 0-1, the two titles' words compared in order."""


def _same_word(a: str, b: str) -> bool:
    if a == b or singular(a) == singular(b):
        return True
    return min(len(a), len(b)) >= 4 and SequenceMatcher(None, a, b).ratio() >= _TYPO


def _pairs(these: list[str], those: list[str]) -> tuple[list[str], bool]:
    """Words of `these` (stopwords aside) left over when each is paired with a word of `those`
    it spells, one to one (a word stated twice must be in the title twice), and whether the
    paired words come in the title's order (`reasoning latent` is not `latent reasoning`)."""
    free = [(i, o) for i, o in enumerate(those) if o not in STOPWORDS]
    left: list[str] = []
    places: list[int] = []
    for w in these:
        if w in STOPWORDS:
            continue
        match = next((k for k, (_, o) in enumerate(free) if o == w), None)
        if match is None:
            match = next((k for k, (_, o) in enumerate(free) if _same_word(w, o)), None)
        if match is None:
            left.append(w)
        else:
            places.append(free.pop(match)[0])
    return left, places == sorted(places)


def _unmatched(these: list[str], those: list[str]) -> list[str]:
    return _pairs(these, those)[0]


def _similarity(a: list[str], b: list[str]) -> float:
    return round(SequenceMatcher(None, " ".join(a), " ".join(b)).ratio(), 3)


def _prefix(a: list[str], b: list[str]) -> bool:
    """`a` is the beginning of `b` (its last word may be cut short)."""
    if len(a) < 3 or len(a) >= len(b):
        return False
    head, last = a[:-1], a[-1]
    return all(_same_word(x, y) for x, y in zip(head, b, strict=False)) and (
        b[len(a) - 1].startswith(last) or _same_word(last, b[len(a) - 1])
    )


def title_fit(cited: str, actual: str) -> TitleFit:
    """How `cited` fits the paper titled `actual`, its hyphens read as joining words
    (`pre-training` is `pretraining`) or as separating them (`word-representations`),
    whichever fits better."""
    joined = _fit(words(cited), words(actual), actual)
    if joined.fit == "same":
        return joined
    spaced = _fit(words(cited.replace("-", " ")), words(actual.replace("-", " ")), actual)
    return min(joined, spaced, key=lambda f: (FITS.index(f.fit), -f.similarity))


def _fit(a: list[str], b: list[str], actual: str) -> TitleFit:
    if not a or not b:
        return TitleFit("different", 0.0)
    similarity = _similarity(a, b)
    (foreign, in_order), missing = _pairs(a, b), _unmatched(b, a)
    if not in_order:  # the same words in another order: another title, or a garbled one
        return TitleFit("different", similarity)
    content = [w for w in a if w not in STOPWORDS]
    if not foreign and not missing and similarity >= 0.85:
        return TitleFit("same", similarity)
    if not foreign and len(missing) <= 1 and len(content) >= 4 and similarity >= 0.85:
        return TitleFit("close", similarity)
    if _prefix(a, b) and (len(content) >= 3 or (len(content) == 2 and len(a) >= 4)) and len(a) >= 0.4 * len(b):
        return TitleFit("truncated", similarity)
    if ":" in actual:
        for side in actual.split(":", 1):
            part = words(side)
            if len(part) >= 2 and not _unmatched(a, part) and not _unmatched(part, a):
                return TitleFit("part", similarity)
    return TitleFit("different", similarity)


AuthorFit = Literal["first", "listed", "no"]


def author_fit(surname: str, names: list[str]) -> AuthorFit:
    """Whether the cited first author's `surname` (folded) is the paper's first author, one
    of its first five, or none of them."""
    for rank, name in enumerate(names[:5]):
        parts = fold(name).replace("-", " ").split()
        if any(p == surname or (len(p) >= 5 and SequenceMatcher(None, p, surname).ratio() >= 0.85) for p in parts):
            return "first" if rank == 0 else "listed"
        joined = "".join(parts)
        if len(surname) >= 6 and surname in joined:
            return "first" if rank == 0 else "listed"
    return "no"
