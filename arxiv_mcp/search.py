"""What a search finds, cache first: the service checks the arguments and cuts the papers
down to summaries; this decides which request (if any) answers.

A query that is really an id, an arXiv URL or a DOI is looked up instead of searched. An
id list is answered from the catalog (one request for the ids not cached), or, with filters,
by one id_list request that applies them. A query is AND-ed first and OR-ed only when that
matches nothing; each answer page is kept for the search TTL (shorter when sorted by date,
where new submissions change page 1).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .cache.store import Cache
from .catalog import Catalog
from .config import Config
from .errors import InvalidInput, NotFound
from .ids import parse, parse_many
from .upstream import query as q
from .upstream.arxiv_api import ArxivApi, search_params
from .upstream.atom import Feed, Paper
from .upstream.http import HttpClient
from .upstream.rate_limiter import SingleFlight
from .words import counted

if TYPE_CHECKING:
    from .mirror.source import MirrorSource

DATE_SORTED_SEARCH_TTL_S = 60.0


@dataclass
class Hits:
    """What a search found, before it is cut down to summaries."""

    total: int
    papers: list[Paper]
    query: str | None
    missing: list[str] | None = None
    note: str | None = None
    invalid: list[str] | None = None
    source: str = ""
    as_of: str = ""


@dataclass(frozen=True)
class Searcher:
    """The search policy over the service's shared parts (built once, by the service)."""

    api: ArxivApi
    cache: Cache
    catalog: Catalog
    flights: SingleFlight
    http: HttpClient
    config: Config
    mirror: MirrorSource | None = None

    def find(
        self,
        filters: q.SearchFilters,
        id_list: list[str] | None,
        start: int,
        max_results: int,
        sort_by: str,
        sort_order: str,
    ) -> Hits:
        """The papers that answer a search whose arguments the caller has checked."""
        looked_up = self._query_as_lookup(filters.query, id_list)
        if looked_up is not None:
            filters, id_list = replace(filters, query=None), looked_up
        cat = self._category_clause(filters.category) if filters.category else None
        if id_list:
            return self._search_ids(id_list, filters, cat)
        composed = q.compose(filters, cat)
        if self.mirror is None:
            return self._search_query(composed, start, max_results, sort_by, sort_order)
        why_not = self.mirror.why_not(composed.search_query)
        if why_not is None:
            return self._search_mirror(composed, start, max_results, sort_by, sort_order)
        hits = self._search_query(composed, start, max_results, sort_by, sort_order)
        return replace(
            hits, source="api", note=_join_notes(f"Asked arXiv's API, not the local mirror: {why_not}.", hits.note)
        )

    def _search_mirror(self, composed: q.Composed, start: int, max_results: int, sort_by: str, sort_order: str) -> Hits:
        """The same query answered by the mirror (no request): AND-ed, then OR-ed if that finds nothing."""
        assert self.mirror is not None
        sent, note = composed.search_query, None
        found = self.mirror.search(sent, start, max_results, sort_by, sort_order)
        if not found.total and composed.relaxed:
            sent, note = composed.relaxed, RELAXED_NOTE
            found = self.mirror.search(sent, start, max_results, sort_by, sort_order)
        if not found.total:
            note = _no_hits_note(composed)
        return Hits(found.total, found.papers, sent, note=note, source="mirror", as_of=found.as_of)

    def _query_as_lookup(self, query: str | None, id_list: list[str] | None) -> list[str] | None:
        """The ids to look up when the whole query is really an id, an arXiv URL or a DOI
        (searched as words it would match nothing useful); None for a real query.

        arXiv's own DOIs (10.48550/arXiv.ID) are ids. arXiv's API has no DOI field, so a
        journal DOI is resolved to its arXiv id through Semantic Scholar (one request)."""
        if id_list or not query or not query.strip():
            return None
        try:
            return [str(parse(query))]
        except InvalidInput:
            pass
        doi = _journal_doi(query)
        if doi is None:
            return None
        from .upstream import s2

        arxiv_id = s2.arxiv_id_for_doi(self.http, self.config.s2_url, doi, cache=self.cache)
        if arxiv_id is None:
            raise NotFound(
                f"The DOI {doi} is not an arXiv DOI, and Semantic Scholar knows no arXiv version "
                "of it. Search by its title (title=...) to find a preprint."
            )
        return [arxiv_id]

    def _category_clause(self, category: str) -> str:
        from . import categories

        names = [c.strip() for c in category.split(",") if c.strip()]
        if not names:
            raise InvalidInput("category is empty; give an id like cs.AI (see list_categories)")
        terms = list(dict.fromkeys(t for n in names for t in categories.cat_terms(n)))  # archives too
        parts = [f"cat:{t}" for t in terms]
        return parts[0] if len(parts) == 1 else "(" + " OR ".join(parts) + ")"

    def _search_query(self, composed: q.Composed, start: int, max_results: int, sort_by: str, sort_order: str) -> Hits:
        params = search_params(composed.search_query, start, max_results, sort_by, sort_order)
        key = _search_key(params)
        # One call of any process on the home asks; the others find its answer kept.
        return self._kept(key) or self.flights.do(key, lambda: self._kept(key) or self._fetched(composed, params, key))

    def _kept(self, key: str) -> Hits | None:
        cached = self.cache.get_search(key)
        if not cached:
            return None
        return Hits(
            cached["total"], [Paper.from_dict(d) for d in cached["papers"]], cached["query"], note=cached.get("note")
        )

    def _fetched(self, composed: q.Composed, params: dict[str, str], key: str) -> Hits:
        sort_by = params["sortBy"]
        ttl = (
            self.config.search_ttl_s
            if sort_by == "relevance"
            else min(self.config.search_ttl_s, DATE_SORTED_SEARCH_TTL_S)
        )
        feed, sent, note = self._strict_or_relaxed(composed, params, ttl)
        for paper in feed.papers:
            self.cache.put_meta(paper.pid, paper.to_dict(), latest=True)
        note = _join_notes(note, _skipped_note(feed)) if feed.total_results else _no_hits_note(composed)
        if ttl > 0:
            self.cache.put_search(
                key,
                {
                    "total": feed.total_results,
                    "query": sent,
                    "note": note,
                    "papers": [p.to_dict() for p in feed.papers],
                },
                ttl,
            )
        return Hits(feed.total_results, feed.papers, sent, note=note)

    def _strict_or_relaxed(
        self, composed: q.Composed, params: dict[str, str], ttl: float
    ) -> tuple[Feed, str, str | None]:
        """The page from the AND-ed query, or from the OR-ed one when the AND-ed one matches
        nothing. Which one served is remembered per query (whatever the page), so page 2 of a
        relaxed search pages the same relaxed query, with one request."""
        mark = "relaxed:" + _search_key({k: v for k, v in params.items() if k not in ("start", "max_results")})
        relaxed = dict(params, search_query=composed.relaxed) if composed.relaxed else None
        if relaxed and self.cache.get_search(mark):
            return self.api.query(relaxed), relaxed["search_query"], RELAXED_NOTE
        feed = self.api.query(params)  # inside the search's flight
        if feed.total_results or not relaxed:
            return feed, composed.search_query, None
        if ttl > 0:
            self.cache.put_search(mark, {"relaxed": True}, ttl)
        return self.api.query(relaxed), relaxed["search_query"], RELAXED_NOTE

    def _search_ids(self, id_list: list[str], filters: q.SearchFilters, cat: str | None) -> Hits:
        pids, invalid = parse_many(id_list)  # a repeated id is looked up once, a malformed one listed
        if filters.any():
            composed = q.compose(filters, cat)
            wire = list(dict.fromkeys(p.wire_id for p in pids))
            feed = self.api.by_ids(wire, composed.search_query)
            matched = {p.id: p for p in feed.papers}
            found = {pid: matched[pid.id] for pid in pids if pid.id in matched}
            sent = composed.search_query
        else:
            found, sent = self.catalog.papers(pids), None
        # Two spellings of one version (2401.12345 and 2401.12345v2 when v2 is the latest) are one paper.
        papers = list({(p.id, p.version): p for p in (found[pid] for pid in pids if pid in found)}.values())
        missing = [str(p) for p in pids if p not in found]
        return Hits(len(papers), papers, sent, missing=missing, invalid=invalid or None)


RELAXED_NOTE = "No paper matched every word, so this shows papers matching any of them."
_JOURNAL_DOI = re.compile(r"(?:doi:\s*|https?://(?:dx\.)?doi\.org/)?(10\.[0-9]{4,9}/\S+)", re.I)


def _search_key(params: dict[str, str]) -> str:
    return "search:" + hashlib.sha256(json.dumps(params, sort_keys=True).encode()).hexdigest()


def _journal_doi(text: str) -> str | None:
    """The DOI when the whole text is one (bare, doi:, or a doi.org URL), else None."""
    m = _JOURNAL_DOI.fullmatch(text.strip().rstrip(".,;"))
    return m.group(1) if m else None


def _no_hits_note(composed: q.Composed) -> str:
    """What to try when nothing matched: a search that ends with nothing to do is a dead end."""
    tried = " (the any-word retry found nothing either)" if composed.relaxed else ""
    dated = "; widen or drop the date range" if "submittedDate:" in composed.search_query else ""
    cat = "; drop or widen the category" if "cat:" in composed.search_query else ""
    return (
        f"Nothing matched{tried}. Try fewer or broader words, a synonym, title= for words of the "
        f"title, or author= alone{dated}{cat}."
    )


def _skipped_note(feed: Feed) -> str | None:
    cut = f"arXiv's answer held {feed.cut} more entries than asked for; they were left out." if feed.cut else None
    if not feed.skipped:
        return cut
    n = len(feed.skipped)
    skipped = f"{counted(n, 'entry', 'entries')} of arXiv's answer could not be read and {'was' if n == 1 else 'were'} left out ({feed.skipped[0]})."
    return _join_notes(skipped, cut)


def _join_notes(*notes: str | None) -> str | None:
    return " ".join(n for n in notes if n) or None
