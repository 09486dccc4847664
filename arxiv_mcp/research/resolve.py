"""References checked against arXiv: which paper each one names, and how sure that is.

Economy: every stated id is looked up in batches of at most 50 (one id_list request each),
after what the metadata source already holds; a reference without an id (or whose id names
another paper) costs at most one fielded search, `au:<first surname> AND (ti:w1 OR ...)`, and
references that make the same search share it. The call's deadline is kept: before each
request the time left is checked, and when it (or arXiv's patience) runs out the references
not yet checked say so and are listed for the next call.

Trust: a reference is `exact` or `likely` only when its title fits the paper's (see
`likeness`) and its first author, when stated, is among the paper's; a fabricated title is
never a typo of a real one. Everything looked up goes through one `MetadataSource`, so a
local mirror can answer instead of the API.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from .. import budget
from ..errors import Cancelled, InvalidInput, UpstreamError
from ..ids import PaperId
from ..models import Candidate, Evidence, Resolution, ResolvedReference, Verdict
from ..upstream.atom import Paper
from ..upstream.query import words_clause
from ..words import STOPWORDS
from . import citations, likeness
from .citations import Citation
from .plaintext import words

BATCH = 50
"""Ids per id_list request."""
SEARCH_RESULTS = 20
MAX_TITLE_WORDS = 8
MARGIN_S = 1.0
"""Time a request needs at the least; with less left, nothing more is asked."""
VERDICTS: tuple[Verdict, ...] = ("exact", "likely", "mismatch", "ambiguous", "not_found", "invalid", "not_checked")


class MetadataSource(Protocol):
    """Where paper metadata comes from: the cache, a mirror, the API."""

    def known(self, pids: list[PaperId]) -> dict[PaperId, Paper]:
        """What is at hand without a request."""
        ...

    def fetch(self, pids: list[PaperId]) -> dict[PaperId, Paper]:
        """One request for all of `pids` (at most BATCH)."""
        ...

    def absent(self, pids: list[PaperId]) -> set[PaperId]:
        """Those of `pids` known not to be on arXiv, without a request."""
        ...

    def searched(self, search_query: str, max_results: int) -> list[Paper] | None:
        """A search's answer when it is at hand without a request, else None."""
        ...

    def search(self, search_query: str, max_results: int) -> list[Paper]:
        """The best `max_results` papers for an arXiv query: one request."""
        ...


@dataclass
class _Lookups:
    """What the lookups found, and what they could not reach."""

    source: MetadataSource
    papers: dict[PaperId, Paper] = field(default_factory=dict)
    looked_up: set[PaperId] = field(default_factory=set)
    searches: dict[str, list[Paper]] = field(default_factory=dict)
    requests: int = 0
    stopped: str | None = None
    max_searches: int | None = None
    sent: int = 0
    """Title searches sent upstream (those answered from the cache are free)."""

    def _may_ask(self) -> bool:
        left = budget.remaining()
        if self.stopped is None and left is not None and left < MARGIN_S:
            self.stopped = "the call's time ran out"
        return self.stopped is None

    def _ask(self, work: Callable[[], None]) -> None:
        try:
            work()
        except Cancelled:
            raise
        except (UpstreamError, InvalidInput) as exc:  # arXiv refusing a request leaves its references unchecked
            self.stopped = str(exc)

    def ids(self, pids: list[PaperId]) -> None:
        held = self.source.known(pids)
        self.papers.update(held)
        self.looked_up.update(held)
        todo = [p for p in pids if p not in held]
        absent = self.source.absent(todo)
        self.looked_up.update(absent)
        todo = [p for p in todo if p not in absent]
        for start in range(0, len(todo), BATCH):
            chunk = todo[start : start + BATCH]
            if not self._may_ask():
                return

            def fetch(chunk: list[PaperId] = chunk) -> None:
                self.requests += 1
                self.papers.update(self.source.fetch(chunk))
                self.looked_up.update(chunk)

            self._ask(fetch)

    def search(self, query: str) -> None:
        if query in self.searches:
            return
        kept = self.source.searched(query, SEARCH_RESULTS)
        if kept is not None:
            self.searches[query] = kept
            return
        if self.max_searches is not None and self.sent >= self.max_searches:
            self.stopped = self.stopped or f"max_lookups={self.max_searches} title searches were sent"
            return
        if not self._may_ask():
            return

        def run() -> None:
            self.requests += 1
            self.sent += 1
            self.searches[query] = self.source.search(query, SEARCH_RESULTS)

        self._ask(run)


def search_query(c: Citation) -> str | None:
    """The one fielded search for a citation's title (and first author), or None."""
    if not c.title:
        return None
    # arXiv's index splits words at hyphens and apostrophes (`non-stationary`, `Google's`)
    spaced = re.sub(r"[-\u2010'\u2019]", " ", c.title)
    chosen = [w for w in dict.fromkeys(words(spaced)) if w not in STOPWORDS and len(w) >= 2 and w.isascii()]
    if len(chosen) > MAX_TITLE_WORDS:
        keep = set(sorted(chosen, key=len, reverse=True)[:MAX_TITLE_WORDS])
        chosen = [w for w in chosen if w in keep]
    if not chosen:
        return None
    if c.first_author and c.first_author.isascii():
        return f"au:{c.first_author} AND {words_clause('ti', ' '.join(chosen), joiner='OR')}"
    return words_clause("ti", " ".join(chosen))


def resolve(
    texts: list[str], source: MetadataSource, bibtex: Callable[[Paper], str], *, max_searches: int | None = None
) -> Resolution:
    """A verdict for each of `texts`, in order; `bibtex` writes a paper's entry as export_bibtex
    does. Past `max_searches` title searches sent, the references that need one are not checked."""
    cites = [citations.parse(t) for t in texts]
    look = _Lookups(source, max_searches=max_searches)
    budget.report("looking up the stated ids", 0, len(cites))
    look.ids(list(dict.fromkeys(c.pid.with_version(None) for c in cites if c.pid)))
    for c in cites:
        query = search_query(c) if _needs_search(c, look) else None
        if query and not _answered_before(c, query, look):
            budget.report("searching arXiv for titles", len(look.searches), len(cites))
            look.search(query)
    items = [_Judge(c, look, bibtex).item() for c in cites]
    summary: dict[str, int] = {v: n for v in VERDICTS if (n := sum(1 for i in items if i.verdict == v))}
    unchecked = [i.input for i in items if i.verdict == "not_checked"]
    return Resolution(items, summary, look.requests, unchecked)


def _answered_before(c: Citation, query: str, look: _Lookups) -> bool:
    """Whether a search made for another reference already found the paper `c` names (two
    spellings of one citation): then its answer, with every rival it holds, answers `c` too.
    Only when `c` names its first author: without one, rivals by other authors that the other
    search (by its own author) could not see would go unnoticed."""
    if c.first_author is None:
        return False
    for found in list(look.searches.values()):
        if any(_score(c, p).acceptable for p in found):
            look.searches[query] = found
            return True
    return False


def _needs_search(c: Citation, look: _Lookups) -> bool:
    if not c.title:
        return False
    if c.pid is None:
        return True
    pid = c.pid.with_version(None)
    if pid not in look.looked_up:
        return False
    paper = look.papers.get(pid)
    return paper is None or likeness.title_fit(c.title, paper.title).fit == "different"


@dataclass
class _Scored:
    paper: Paper
    title: likeness.TitleFit
    author: likeness.AuthorFit | None
    year_difference: int | None

    @property
    def acceptable(self) -> bool:
        if self.author is None:  # no author to confirm it: the title alone must carry it
            return self.title.fit in ("same", "close")
        return self.title.fit != "different" and self.author != "no"

    def rank(self) -> tuple[int, int, float, int]:
        author = ("first", "listed", None, "no").index(self.author)
        return (likeness.FITS.index(self.title.fit), author, -self.title.similarity, abs(self.year_difference or 0))

    def candidate(self) -> Candidate:
        return Candidate(self.paper.id, self.paper.title, self.title.similarity)


def _score(c: Citation, paper: Paper) -> _Scored:
    names = [a.name for a in paper.authors]
    title = likeness.title_fit(c.title, paper.title) if c.title else likeness.TitleFit("same", 1.0)
    author = likeness.author_fit(c.first_author, names) if c.first_author else None
    year = int(paper.published[:4]) if paper.published[:4].isdigit() else None
    diff = c.year - year if c.year is not None and year is not None else None
    return _Scored(paper, title, author, diff)


class _Judge:
    """The verdict on one citation from what the lookups found."""

    def __init__(self, c: Citation, look: _Lookups, bibtex: Callable[[Paper], str]):
        self.c, self.look, self.bibtex = c, look, bibtex
        query = search_query(c)
        self.searched = look.searches.get(query) if query else None

    def item(self) -> ResolvedReference:
        c = self.c
        if c.pid is None and c.id_problem:
            return self._invalid()
        if c.pid is not None:
            return self._stated()
        if not c.title:
            return self._plain("not_found", 0.0, note="neither an arXiv id nor a title could be read from it")
        if self.searched is None:
            return self._unchecked()
        return self._by_title()

    def _evidence(self, s: _Scored | None = None, note: str | None = None) -> Evidence:
        return Evidence(
            id_given=str(self.c.pid) if self.c.pid else None,
            title_similarity=s.title.similarity if s and self.c.title else None,
            first_author_match=None if s is None or s.author is None else s.author != "no",
            year_difference=s.year_difference if s else None,
            note=note,
        )

    def _plain(
        self, verdict: Verdict, confidence: float, note: str, cands: list[Candidate] | None = None
    ) -> ResolvedReference:
        return ResolvedReference(
            self.c.raw, verdict, confidence, None, None, [], None, self._evidence(note=note), None, cands or []
        )

    def _unchecked(self) -> ResolvedReference:
        why = self.look.stopped or "the call's time ran out"
        return self._plain("not_checked", 0.0, f"not checked: {why}")

    def _paper_item(
        self,
        verdict: Verdict,
        confidence: float,
        s: _Scored,
        note: str | None = None,
        cands: list[Candidate] | None = None,
    ) -> ResolvedReference:
        p = s.paper
        return ResolvedReference(
            input=self.c.raw,
            verdict=verdict,
            confidence=round(confidence, 2),
            arxiv_id=p.id,
            title=p.title,
            authors=[a.name for a in p.authors],
            year=int(p.published[:4]) if p.published[:4].isdigit() else None,
            evidence=self._evidence(s, note),
            bibtex=self.bibtex(p) if verdict in ("exact", "likely") else None,
            candidates=cands or [],
        )

    def _ranked(self) -> list[_Scored]:
        return sorted((_score(self.c, p) for p in self.searched or []), key=_Scored.rank)

    def _named_by_title(self) -> list[_Scored]:
        return [s for s in self._ranked() if s.acceptable]

    def _invalid(self) -> ResolvedReference:
        cands = [s.candidate() for s in self._named_by_title()[:3]]
        hint = f"; its title names arXiv:{cands[0].arxiv_id}" if cands else ""
        return self._plain("invalid", 0.0, f"not an arXiv id: {self.c.id_problem}{hint}", cands)

    def _stated(self) -> ResolvedReference:
        assert self.c.pid is not None
        pid = self.c.pid.with_version(None)
        if pid not in self.look.looked_up:
            return self._unchecked()
        paper = self.look.papers.get(pid)
        if paper is None:
            named = self._named_by_title()
            if named:
                note = f"arXiv has no paper {pid}; the title stated is arXiv:{named[0].paper.id}"
                return self._plain("mismatch", 0.0, note, [s.candidate() for s in named[:3]])
            return self._plain("not_found", 0.0, f"arXiv has no paper {pid}")
        s = _score(self.c, paper)
        if not self.c.title:
            return self._paper_item("exact", 1.0, s, note="the id exists; no title was stated to compare")
        if s.title.fit == "same" and s.author != "no":
            return self._paper_item("exact", 0.98 if s.author else 0.95, s)
        if s.title.fit != "different":
            doubt = "the stated first author is not among the paper's" if s.author == "no" else None
            return self._paper_item("likely", 0.75 if s.author != "no" else 0.6, s, doubt)
        named = [x for x in self._named_by_title() if x.paper.id != paper.id]
        note = f"the id is arXiv:{paper.id}, titled {paper.title!r}; the stated title {self.c.title!r} is not its title"
        if named:
            note += f" (it is arXiv:{named[0].paper.id})"
        return self._paper_item("mismatch", 0.0, s, note, [x.candidate() for x in named[:3]])

    def _by_title(self) -> ResolvedReference:
        ranked = self._ranked()
        named = [s for s in ranked if s.acceptable]
        if not named:
            close = [s.candidate() for s in ranked if s.title.similarity >= 0.5][:3]
            return self._plain("not_found", 0.0, "no arXiv paper has this title and first author", close)
        best = named[0]
        rivals = [s for s in named[1:] if _tied(best, s, self.c.first_author is None)]
        if rivals:
            cands = [s.candidate() for s in [best, *rivals][:3]]
            return self._plain("ambiguous", 0.3, f"{1 + len(rivals)} papers fit equally well", cands)
        exact = best.title.fit == "same" and best.author == "first" and best.year_difference in (None, 0)
        if exact:
            return self._paper_item("exact", 0.95, best)
        confidence = 0.85 if best.author == "first" else 0.7
        return self._paper_item("likely", confidence - (0.1 if abs(best.year_difference or 0) > 1 else 0), best)


def _tied(best: _Scored, other: _Scored, no_author: bool) -> bool:
    """Whether `other` fits as well as `best`: same kind of fit, the same author evidence,
    similar letters, and no year to tell them apart."""
    if other.paper.id == best.paper.id or other.title.fit != best.title.fit or other.author != best.author:
        return False
    window = 0.05 if no_author else 0.02
    if best.title.similarity - other.title.similarity > window:
        return False
    return abs(other.year_difference or 0) == abs(best.year_difference or 0)
