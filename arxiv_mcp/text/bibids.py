"""The arXiv id and the DOI a bibliography entry states, however it states them.

One reading for every extractor, so an entry says the same ids whether it came from HTML,
a `.bbl` or a PDF's reference list. An entry states an arXiv id by an `arXiv:` prefix
(`arXiv:2401.12345v2`, `arXiv preprint arXiv:2401.12345`), an arxiv.org URL, an `eprint`
field, arXiv's DOI (`10.48550/arXiv.2401.12345`), DBLP's `CoRR, abs/1409.0473` (CoRR is arXiv's
computer science section) or an old-style id (`hep-th/9901001`); a bare
`2401.12345` alone is not taken (page and report numbers look the same). Every candidate goes
through `ids.parse`, so an id that cannot exist is never reported.
"""

from __future__ import annotations

import re

from .. import ids
from ..errors import InvalidInput

_NEW_ID = ids.NEW_STYLE + ids.VERSION
_OLD_ID = ids.OLD_STYLE + ids.VERSION
_ARXIV_ID_RE = re.compile(
    rf"(?:arxiv\s*[:.]?\s*(?:e-?prints?\s*,?\s*)?(?:abs/)?|arxiv\.org/(?:abs|pdf|html)/|10\.48550/arxiv\.|corr\s*,?\s*abs/)"
    rf"(?P<id>{_NEW_ID}|{_OLD_ID})"
    rf"|(?<![\w/.])(?P<old>{_OLD_ID})(?![\w/])",
    re.IGNORECASE,
)
# Every match of _ARXIV_ID_RE holds "arxiv", "corr" or "/" and seven digits (its old id), read with
# the same flags: an entry holding neither is not scanned with the whole pattern, which is
# tried at every letter of it (most entries of a paper's references have no arXiv id).
_ARXIV_ID_HINT = re.compile(r"arxiv|/\d{7}|corr", re.IGNORECASE)
_DOI_RE = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>{}]+)", re.IGNORECASE)
_YEAR = re.compile(r"(?<![\d.\-\u2013/:])(?:19|20)\d\d(?![\d\-\u2013]|\.\d)")
"""A year: not a piece of a number, an id, or a range (`pages 1957-1978`, `1957--1978`)."""
_PARENTHESISED_YEAR = re.compile(r"\(((?:19|20)\d\d)[a-z]?\)")


def arxiv_id_in(text: str) -> str | None:
    """The first arXiv id `text` states, normalised (version kept when stated), or None."""
    if _ARXIV_ID_HINT.search(text) is None:
        return None
    for match in _ARXIV_ID_RE.finditer(text):
        candidate = match.group("id") or match.group("old")
        found = _parsed(candidate)
        if found:
            return found
    return None


def eprint_id(field: str) -> str | None:
    """An `eprint` field's id (`2401.12345`, `arXiv:2401.12345`, `hep-th/9901001`), or None."""
    return _parsed(field.strip())


def publication_year(entry: str) -> int | None:
    """The year an entry was published: `(2018)` when it puts one in brackets (APA), else the
    last year it prints outside ids, DOIs and page ranges (`2020, 1957-1978` is 2020)."""
    bare = _ARXIV_ID_RE.sub(" ", _DOI_RE.sub(" ", entry))
    bracketed = _PARENTHESISED_YEAR.search(bare)
    if bracketed:
        return int(bracketed.group(1))
    years = [int(m.group()) for m in _YEAR.finditer(bare)]
    return years[-1] if years else None


def doi_in(text: str) -> str | None:
    """The first DOI `text` states (bare, `doi:`, or a doi.org URL), without arXiv's own DOIs."""
    for match in _DOI_RE.finditer(text):
        doi = _trim(match.group(1))
        if not doi.lower().startswith("10.48550/arxiv."):
            return doi
    return None


def _trim(doi: str) -> str:
    """Sentence punctuation after a DOI is not part of it; a closing bracket is, when the DOI
    opened it (`10.1016/0370-2693(82)90087-4`)."""
    while doi:
        last = doi[-1]
        if last in ".,;:'" or (last in ")]}" and doi.count(last) > doi.count({")": "(", "]": "[", "}": "{"}[last])):
            doi = doi[:-1]
        else:
            return doi
    return doi


def _parsed(candidate: str) -> str | None:
    try:
        return ids.parse(candidate).versioned
    except InvalidInput:
        return None
