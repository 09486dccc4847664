"""Metadata and search: a paper's detail, searches of arXiv (or the mirror), BibTeX, the
papers a list of references names, category trends, the day's announcements, the taxonomy.

A part of `service.ArxivService`, on its `Parts`. Metadata comes from the catalog (the cache
first, then one request); what a call shows of a paper it asked for by id is pinned to the
call's session, while a search's hits are only candidates and pin nothing.
"""

from __future__ import annotations

import time
from dataclasses import asdict, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from . import bounds
from .errors import InvalidInput
from .ids import PaperId, parse, parse_many
from .models import (
    Announcements,
    Bibtex,
    CategoryList,
    LinkItem,
    PaperDetail,
    PaperSummary,
    Resolution,
    SearchResult,
    Trends,
)
from .service_parts import Parts

if TYPE_CHECKING:
    from .search import Hits
    from .upstream.atom import Paper

TRENDS_TTL_S = 3600.0
SUMMARY_FIELDS = ("id", "version", "title", "primary_category", "categories", "published", "updated")
"""What a search summary and a paper's detail both say of a paper, named as the paper names them."""
DETAIL_FIELDS = (*SUMMARY_FIELDS, "authors", "abstract", "doi", "journal_ref", "comment", "classes")
"""What a paper's detail copies from the paper as it is."""


class PaperTools:
    """get_paper, search_papers, export_bibtex, resolve_references, trends, list_new, categories."""

    def __init__(self, parts: Parts) -> None:
        self.parts = parts

    def get_paper(self, paper_id: str, session_id: str | None = None) -> PaperDetail:
        pid = parse(paper_id)
        self.parts.check_session(session_id)
        paper, stale = self.parts.catalog.paper(pid)
        self.parts.pin(session_id, paper.pid)
        return self._with_history(self.detail(paper, stale))

    def _with_history(self, detail: PaperDetail) -> PaperDetail:
        """A mirrored paper's detail says so, and lists every version's date and size."""
        stored = self.parts.mirror.paper(detail.id) if self.parts.mirror is not None else None
        if stored is None or self.parts.mirror is None:  # (the second test is for the type checker)
            return detail
        versions = [f"v{v.version} {v.date} {v.size}" for v in stored.versions]
        return replace(detail, source="mirror", as_of=self.parts.mirror.as_of() or "", versions=versions)

    def detail(self, paper: Paper, stale: bool = False) -> PaperDetail:
        pid, urls = paper.pid, self.parts.urls
        return PaperDetail(
            **_fields(paper, DETAIL_FIELDS),
            abs_url=urls.abs(pid),
            pdf_url=urls.pdf(pid),
            html_url=urls.html(pid),
            source_url=urls.source(pid),
            arxiv_doi=f"10.48550/arXiv.{paper.id}",
            stale=stale,
            links=_metadata_links(paper),
        )

    def search(
        self,
        *,
        query: str | None = None,
        category: str | None = None,
        author: str | None = None,
        title: str | None = None,
        abstract: str | None = None,
        id_list: list[str] | None = None,
        date_from: str | None = None,
        date_to: str | None = None,
        start: int = 0,
        max_results: int = 10,
        sort_by: str = "relevance",
        sort_order: str = "descending",
        abstract_max_chars: int | None = None,
        session_id: str | None = None,
    ) -> SearchResult:
        from .upstream import query as q

        self.parts.check_session(session_id)
        if sort_by not in q.SORT_BY:
            raise InvalidInput(f"sort_by={sort_by!r} is not one of {', '.join(q.SORT_BY)}")
        if sort_order not in q.SORT_ORDER:
            raise InvalidInput(f"sort_order={sort_order!r} is not one of {', '.join(q.SORT_ORDER)}")
        bounds.MAX_RESULTS.check(max_results)
        bounds.START.check(start)
        bounds.ID_LIST.check(id_list)
        if start + max_results > bounds.RESULT_WINDOW:
            raise InvalidInput(
                f"start={start} with max_results={max_results} is outside arXiv's window: "
                f"start >= 0 and start + max_results <= {bounds.RESULT_WINDOW}; narrow the query"
            )
        if abstract_max_chars is not None:
            bounds.ABSTRACT_MAX_CHARS.check(abstract_max_chars)
        filters = q.SearchFilters(query, category, author, title, abstract, date_from, date_to)
        # A search only touches the session: its hits are candidates, and pinning every page
        # of them would fill a small cache; reading, get_paper, download and bibtex pin.
        result = self.parts.searcher.find(filters, id_list, start, max_results, sort_by, sort_order)
        return self._summaries(result, start, abstract_max_chars)

    def _summaries(self, hits: Hits, start: int, abstract_max_chars: int | None) -> SearchResult:
        out = []
        for p in hits.papers:
            abstract, cut = _cut(p.abstract, abstract_max_chars)
            out.append(
                PaperSummary(
                    **_fields(p, SUMMARY_FIELDS),
                    authors=[a.name for a in p.authors],
                    abstract=abstract,
                    abstract_truncated=cut,
                )
            )
        start = start if hits.missing is None else 0
        end = start + len(out)
        has_more = hits.missing is None and bool(out) and end < min(hits.total, bounds.RESULT_WINDOW)
        return SearchResult(
            total_results=hits.total,
            start=start,
            papers=out,
            query=hits.query,
            missing_ids=hits.missing,
            invalid_ids=hits.invalid,
            note=hits.note,
            has_more=has_more,
            next_start=end if has_more else None,
            source=hits.source,
            as_of=hits.as_of,
        )

    def export_bibtex(self, paper_ids: list[str], session_id: str | None = None) -> Bibtex:
        """One entry per paper, from its latest metadata: an entry names the paper, not a
        version (its key, eprint and url carry no version), so `X`, `Xv1` and `Xv2` are
        one entry. Metadata cached within its lifetime is used as is; the rest comes in
        one id_list request, and expired metadata serves when arXiv cannot be reached. A
        malformed id is listed with its reason; the others are answered."""
        from .research.bibtex import to_bibtex

        bounds.PAPER_IDS.check(paper_ids)
        asked, invalid = parse_many(paper_ids)
        self.parts.check_session(session_id)
        latest = list(dict.fromkeys(p.with_version(None) for p in asked))
        found = self.parts.catalog.papers(latest)
        papers = [found[p] for p in latest if p in found]
        for paper in papers:
            self.parts.pin(session_id, paper.pid)
        return Bibtex(
            bibtex=to_bibtex(papers, site_url=self.parts.config.site_url),
            count=len(papers),
            missing_ids=[str(p) for p in asked if p.with_version(None) not in found],
            invalid_ids=invalid,
        )

    def resolve_references(
        self, references: list[str] | None = None, text: str | None = None, session_id: str | None = None
    ) -> Resolution:
        """Which arXiv paper each reference names, with a verdict and its evidence (research/resolve.py)."""
        from .research import bibsplit
        from .research.resolve import resolve

        if (references is None) == (text is None):
            raise InvalidInput(
                "give exactly one of references (a list of 1-100 ids or citations) or text (a pasted bibliography)"
            )
        if text is not None:
            entries = bibsplit.split(text)
            if not 1 <= len(entries) <= bounds.REFERENCES.high:
                raise InvalidInput(
                    f"text holds {len(entries)} entries; give 1 to {bounds.REFERENCES.high} per call (split it)"
                )
        else:
            entries = bounds.REFERENCES.check(references)
        self.parts.check_session(session_id)
        result = resolve(entries, self.parts.catalog, self.parts.bibtex_entry)
        for item in result.items:
            held = self.parts.catalog.latest_known(PaperId(item.arxiv_id)) if session_id and item.arxiv_id else None
            if held is not None and item.verdict in ("exact", "likely"):
                self.parts.pin(session_id, held.pid)
        return result

    def category_trends(self, category: str, window_days: int = 30) -> Trends:
        from .research.trends import category_trends, chart_uri, mirror_trends, trends_from_dict

        counted = mirror_trends(self.parts.mirror, category, window_days) if self.parts.mirror is not None else None
        if counted is not None:
            return replace(counted, chart_uri=chart_uri(counted.category, window_days))
        key = f"trends:{category.strip().lower()}:{window_days}:{time.strftime('%Y-%m-%d', time.gmtime())}"

        def kept() -> Trends | None:
            stored = self.parts.cache.get_search(key)
            return None if stored is None else trends_from_dict(stored)

        def fetched() -> Trends:  # one call of any process on the home asks; the others find it kept
            got = kept()
            if got is None:
                got = category_trends(self.parts.api, category, window_days)
                got.chart_uri = chart_uri(got.category, window_days)
                self.parts.cache.put_search(key, asdict(got), TRENDS_TTL_S)
            return got

        return kept() or self.parts.flights.do(("trends", key), fetched)

    def trends_chart(self, category: str, window_days: int) -> str:
        """The `arxiv://trends/{category}/{window_days}/chart` resource: an SVG of the answer above."""
        from .research.trends import chart_svg

        bounds.WINDOW_DAYS.check(window_days)
        return chart_svg(self.category_trends(category, window_days))

    def list_new(self, category: str, since: str | None = None, limit: int = 25) -> Announcements:
        """The day's announced papers the cursor `since` has not seen; the feed is fetched once
        per announcement (research/announcements.py holds the schedule and the cursor)."""
        from .research import announcements
        from .upstream.rss import RssFeed, parse_rss

        bounds.LIMIT.check(limit)
        name, seen = announcements.feed_name(category), announcements.read_cursor(since, datetime.now(UTC))
        key = f"rss:{name}"

        def kept() -> RssFeed | None:
            return announcements.stored(self.parts.cache.get_search(key))

        def fetched() -> RssFeed:  # one call of any process on the home asks; the others find it kept
            feed = kept()
            if feed is None:
                resp = self.parts.http.get(f"{self.parts.config.rss_url}/{name}")
                feed = parse_rss(resp.content, resp.status)
                ttl = announcements.keep_for(feed.day, datetime.now(UTC))
                self.parts.cache.put_search(key, announcements.to_store(feed), ttl)
            return feed

        feed = kept()
        cached = feed is not None
        if feed is None:
            feed = self.parts.flights.do(("rss", name), fetched)
        return announcements.page(feed, name, seen, limit, datetime.now(UTC), cached)

    def list_categories(self, group: str | None = None) -> CategoryList:
        from . import categories

        cats = categories.list_categories(group.strip() if group and group.strip() else None)
        return CategoryList(cats, len(cats))


def _fields(paper: Paper, names: tuple[str, ...]) -> dict[str, Any]:
    return {name: getattr(paper, name) for name in names}


def _metadata_links(paper: Paper) -> list[dict[str, str]]:
    """The code, data, model and project links its abstract and comments state (no request)."""
    from .text.links import metadata_links

    return [asdict(LinkItem(**vars(link))) for link in metadata_links(paper.abstract, paper.comment, paper.id)]


def _cut(abstract: str, max_chars: int | None) -> tuple[str, bool]:
    """At most `max_chars` characters, the ellipsis included; 0 leaves the abstract out."""
    if max_chars is None or len(abstract) <= max_chars:
        return abstract, False
    if max_chars == 0:
        return "", True
    return abstract[: max_chars - 1].rstrip() + "…", True
