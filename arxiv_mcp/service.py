"""The policy behind every tool: cache first, one upstream request when needed, pins.

Plain code, no MCP: `server.py` maps these methods to tools, and tests call them directly.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import time
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING

from . import bounds, budget
from .cache.store import Cache
from .catalog import Catalog
from .config import Config, display_path
from .errors import InvalidInput, NotFound
from .ids import PaperId, Urls, parse
from .models import (
    UNTRUSTED,
    Bibtex,
    CacheList,
    CacheStats,
    CategoryList,
    ClearResult,
    Download,
    FindResult,
    LibrarySearch,
    Neighbours,
    PaperDetail,
    PaperSummary,
    PaperText,
    SearchResult,
    SessionInfo,
    Trends,
)
from .research.library import Library
from .text.reading import Reader, Text
from .upstream.arxiv_api import ArxivApi, search_params
from .upstream.atom import Feed, Paper
from .upstream.http import HttpClient, Transport
from .upstream.rate_limiter import RateLimiter, SingleFlight

if TYPE_CHECKING:
    from .upstream import query as q

log = logging.getLogger(__name__)

DATE_SORTED_SEARCH_TTL_S = 60.0
TRENDS_TTL_S = 3600.0


@dataclass
class _Hits:
    """What a search found, before it is cut down to summaries."""

    total: int
    papers: list[Paper]
    query: str | None
    missing: list[str] | None = None
    note: str | None = None


class ArxivService:
    def __init__(self, config: Config, *, http: HttpClient | None = None, cache: Cache | None = None):
        self.config = config
        self.cache = cache or Cache(
            config.home,
            max_papers=config.max_papers,
            max_bytes=config.max_bytes,
            meta_ttl_s=config.meta_ttl_s,
            session_ttl_s=config.session_ttl_s,
        )
        self.http = http or HttpClient(
            config,
            Transport(config),
            RateLimiter(
                config.min_interval_s,
                state_file=config.home / "ratelimit-arxiv",
                connection_file=config.home / "locks" / "arxiv-connection",
            ),
            RateLimiter(1.0, name="Semantic Scholar", state_file=config.home / "ratelimit-s2"),
        )
        self.urls = Urls(config.site_url, config.ar5iv_url)
        self.flights = SingleFlight(config.home / "locks")
        self.api = ArxivApi(self.http, config.api_url)
        self.catalog = Catalog(self.api, self.cache, self.flights)
        self.reader = Reader(
            self.http,
            self.cache,
            self.catalog,
            self.urls,
            self.flights,
            meta_ttl_s=config.meta_ttl_s,
            pdf_engine=config.pdf_engine,
        )
        self.library = Library(self.cache)

    # --- metadata -------------------------------------------------------------------------

    def paper(self, pid: PaperId) -> tuple[Paper, bool]:
        """Metadata of `pid` (latest when unversioned) and whether it is stale."""
        return self.catalog.paper(pid)

    def get_paper(self, paper_id: str, session_id: str | None = None) -> PaperDetail:
        pid = parse(paper_id)
        self._check_session(session_id)
        paper, stale = self.paper(pid)
        self._pin(session_id, paper)
        return self.detail(paper, stale)

    def detail(self, paper: Paper, stale: bool = False) -> PaperDetail:
        pid = paper.pid
        return PaperDetail(
            **_shared_fields(paper),
            authors=paper.authors,
            abstract=paper.abstract,
            doi=paper.doi,
            journal_ref=paper.journal_ref,
            comment=paper.comment,
            abs_url=self.urls.abs(pid),
            pdf_url=self.urls.pdf(pid),
            html_url=self.urls.html(pid),
            source_url=self.urls.source(pid),
            arxiv_doi=f"10.48550/arXiv.{paper.id}",
            stale=stale,
            classes=paper.classes,
        )

    # --- search ---------------------------------------------------------------------------

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

        self._check_session(session_id)
        if sort_by not in q.SORT_BY:
            raise InvalidInput(f"sort_by={sort_by!r} is not one of {', '.join(q.SORT_BY)}")
        if sort_order not in q.SORT_ORDER:
            raise InvalidInput(f"sort_order={sort_order!r} is not one of {', '.join(q.SORT_ORDER)}")
        bounds.MAX_RESULTS.check(max_results)
        bounds.START.check(start)
        if start + max_results > q.RESULT_WINDOW:
            raise InvalidInput(
                f"start={start} with max_results={max_results} is outside arXiv's window: "
                f"start >= 0 and start + max_results <= {q.RESULT_WINDOW}; narrow the query"
            )
        if abstract_max_chars is not None:
            bounds.ABSTRACT_MAX_CHARS.check(abstract_max_chars)
        looked_up = self._query_as_lookup(query, id_list)
        if looked_up is not None:
            query, id_list = None, looked_up
        filters = q.SearchFilters(query, category, author, title, abstract, date_from, date_to)
        cat = self._category_clause(category) if category else None
        if id_list:
            result = self._search_ids(id_list, filters, cat)
        else:
            result = self._search_query(q.compose(filters, cat), start, max_results, sort_by, sort_order)
        for paper in result.papers:
            self._pin(session_id, paper)
        return self._summaries(result, start, abstract_max_chars)

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

    def _search_query(self, composed: q.Composed, start: int, max_results: int, sort_by: str, sort_order: str) -> _Hits:
        params = search_params(composed.search_query, start, max_results, sort_by, sort_order)
        key = _search_key(params)
        cached = self.cache.get_search(key)
        if cached:
            return _Hits(
                cached["total"],
                [Paper.from_dict(d) for d in cached["papers"]],
                cached["query"],
                note=cached.get("note"),
            )
        ttl = (
            self.config.search_ttl_s
            if sort_by == "relevance"
            else min(self.config.search_ttl_s, DATE_SORTED_SEARCH_TTL_S)
        )
        feed, sent, note = self._strict_or_relaxed(composed, params, ttl)
        for paper in feed.papers:
            self.cache.put_meta(paper.id, paper.version, paper.to_dict(), latest=True)
        note = _join_notes(note, _skipped_note(feed))
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
        return _Hits(feed.total_results, feed.papers, sent, note=note)

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
        feed = self.flights.do(_search_key(params), lambda: self.api.query(params))
        if feed.total_results or not relaxed:
            return feed, composed.search_query, None
        if ttl > 0:
            self.cache.put_search(mark, {"relaxed": True}, ttl)
        return self.api.query(relaxed), relaxed["search_query"], RELAXED_NOTE

    def _search_ids(self, id_list: list[str], filters: q.SearchFilters, cat: str | None) -> _Hits:
        from .upstream import query as q

        bounds.ID_LIST.check(id_list)
        pids = list(dict.fromkeys(parse(i) for i in id_list))  # a repeated id is looked up once
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
        return _Hits(len(papers), papers, sent, missing=[str(p) for p in pids if p not in found])

    def _summaries(self, hits: _Hits, start: int, abstract_max_chars: int | None) -> SearchResult:
        out = []
        for p in hits.papers:
            abstract, cut = _cut(p.abstract, abstract_max_chars)
            out.append(
                PaperSummary(
                    **_shared_fields(p),
                    authors=[a.name for a in p.authors],
                    abstract=abstract,
                    abstract_truncated=cut,
                )
            )
        from .upstream.query import RESULT_WINDOW

        start = start if hits.missing is None else 0
        end = start + len(out)
        has_more = hits.missing is None and bool(out) and end < min(hits.total, RESULT_WINDOW)
        return SearchResult(
            total_results=hits.total,
            start=start,
            papers=out,
            query=hits.query,
            missing_ids=hits.missing,
            note=hits.note,
            has_more=has_more,
            next_start=end if has_more else None,
        )

    # --- full text ------------------------------------------------------------------------

    def _text(self, paper_id: str, session_id: str | None) -> tuple[PaperId, Text]:
        pid = parse(paper_id)
        self._check_session(session_id)
        pid, full = self.reader.read(pid)
        if session_id:
            self.cache.pin(session_id, pid.id, _version(pid))
        return pid, full

    def read_paper(
        self,
        paper_id: str,
        page: int = 1,
        page_size: int = 15000,
        section: str | None = None,
        session_id: str | None = None,
    ) -> PaperText:
        from .text import view as textview

        bounds.PAGE_SIZE.check(page_size)
        bounds.PAGE.check(page)
        pid, full = self._text(paper_id, session_id)
        view, label = full.text, None
        if section and section.strip():
            if section.strip().lower() == "outline":
                view, label = textview.render_outline(textview.outline(full.text)), "outline"
            else:
                heading, view = textview.select_section(full.text, section.strip())
                label = f"section:{heading.number} {heading.title}"
        pages = textview.Pages(view, page_size)
        return PaperText(
            paper_id=pid.id,
            version=_version(pid),
            text=pages.page(page),
            page=page,
            total_pages=pages.count,
            total_chars=len(view),
            has_more=page < pages.count,
            method=full.method,
            source_method=full.source_method,
            section=label,
            notice=f"{UNTRUSTED} {full.note}" if full.note else UNTRUSTED,
        )

    def find_in_paper(
        self, paper_id: str, query: str, max_hits: int = 10, page_size: int = 15000, session_id: str | None = None
    ) -> FindResult:
        from .text import view as textview

        bounds.PAGE_SIZE.check(page_size)
        bounds.MAX_HITS.check(max_hits)
        if not query or not query.strip():
            raise InvalidInput('query is empty: give words or a "quoted phrase" to look for')
        pid, full = self._text(paper_id, session_id)
        hits, total = textview.find(full.text, query, max_hits=max_hits, page_size=page_size)
        return FindResult(
            paper_id=pid.id,
            version=_version(pid),
            query=query,
            total_matches=total,
            hits=hits,
            page_size=page_size,
        )

    def text_for_resource(self, paper_id: str) -> tuple[PaperId, str]:
        pid, full = self._text(paper_id, None)
        return pid, full.text

    # --- downloads ------------------------------------------------------------------------

    def download_paper(self, paper_id: str, fmt: str = "pdf", session_id: str | None = None) -> Download:
        if fmt not in ("pdf", "source"):
            raise InvalidInput(f"fmt={fmt!r} is not supported: use 'pdf' or 'source' (the LaTeX e-print)")
        pid = parse(paper_id)
        self._check_session(session_id)
        cached = pid.version is not None and self.reader.cached_raw(pid, fmt) is not None
        if not cached:
            pid, _ = self.reader.resolve(pid)
            budget.report(f"downloading {pid} ({fmt})", 0, 1)
        raw = self.reader.raw(pid, fmt)
        if session_id:
            self.cache.pin(session_id, pid.id, _version(pid))
        return Download(
            paper_id=pid.id,
            version=_version(pid),
            fmt=fmt,
            path=str(raw.path),  # absolute, for open(); only text renderings may shorten it
            bytes=raw.bytes,
            content_type=raw.content_type,
            cached=cached,
        )

    # --- sessions and cache ---------------------------------------------------------------

    def _check_session(self, session_id: str | None) -> None:
        if session_id:
            self.cache.session_status(session_id)

    def _pin(self, session_id: str | None, paper: Paper) -> None:
        if session_id:
            self.cache.pin(session_id, paper.id, paper.version)

    def start_session(self, session_id: str | None = None) -> SessionInfo:
        return self.cache.start_session(session_id)

    def end_session(self, session_id: str) -> SessionInfo:
        return self.cache.end_session(session_id)

    def session_status(self, session_id: str) -> SessionInfo:
        return self.cache.session_status(session_id)

    def cache_stats(self) -> CacheStats:
        return replace(self.cache.stats(), home=display_path(self.config.home))

    def list_cached(self) -> CacheList:
        papers = self.cache.list_cached()
        return CacheList(papers=papers, count=len(papers))

    def clear_cache(self, drop_pinned: bool = False) -> ClearResult:
        return self.cache.clear(drop_pinned)

    def export_bibtex(self, paper_ids: list[str]) -> Bibtex:
        """One entry per paper, from its latest metadata: an entry names the paper, not a
        version (its key, eprint and url carry no version), so `X`, `Xv1` and `Xv2` are
        one entry. Metadata cached within its lifetime is used as is; the rest comes in
        one id_list request, and expired metadata serves when arXiv cannot be reached."""
        from .research.bibtex import to_bibtex

        bounds.PAPER_IDS.check(paper_ids)
        asked = list(dict.fromkeys(parse(i) for i in paper_ids))
        latest = list(dict.fromkeys(p.with_version(None) for p in asked))
        found = self.catalog.papers(latest)
        papers = [found[p] for p in latest if p in found]
        return Bibtex(
            bibtex=to_bibtex(papers, site_url=self.config.site_url),
            count=len(papers),
            missing_ids=[str(p) for p in asked if p.with_version(None) not in found],
        )

    def neighbours(self, paper_id: str, direction: str, limit: int = 10) -> Neighbours:
        from .upstream import s2

        return s2.neighbours(self.http, self.config.s2_url, parse(paper_id), direction, limit, cache=self.cache)

    def category_trends(self, category: str, window_days: int = 30) -> Trends:
        from .research.trends import category_trends, trends_from_dict

        key = f"trends:{category.strip().lower()}:{window_days}:{time.strftime('%Y-%m-%d', time.gmtime())}"
        stored = self.cache.get_search(key)
        if stored is not None:
            return trends_from_dict(stored)
        got = category_trends(self.api, category, window_days)
        self.cache.put_search(key, asdict(got), TRENDS_TTL_S)
        return got

    def search_cached(self, query: str, limit: int = 10) -> LibrarySearch:
        if not query or not query.strip():
            raise InvalidInput("query is empty: give words to look for in the cached papers")
        hits = self.library.search(query, limit)
        return LibrarySearch(
            query=query,
            papers_in_library=len(self.library.index),
            hits=hits,
        )

    def list_categories(self, group: str | None = None) -> CategoryList:
        from . import categories

        cats = categories.list_categories(group.strip() if group and group.strip() else None)
        return CategoryList(cats, len(cats))


RELAXED_NOTE = "No paper matched every word, so this shows papers matching any of them."
_JOURNAL_DOI = re.compile(r"(?:doi:\s*|https?://(?:dx\.)?doi\.org/)?(10\.[0-9]{4,9}/\S+)", re.I)


def _search_key(params: dict[str, str]) -> str:
    return "search:" + hashlib.sha256(json.dumps(params, sort_keys=True).encode()).hexdigest()


def _journal_doi(text: str) -> str | None:
    """The DOI when the whole text is one (bare, doi:, or a doi.org URL), else None."""
    m = _JOURNAL_DOI.fullmatch(text.strip().rstrip(".,;"))
    return m.group(1) if m else None


def _cut(abstract: str, max_chars: int | None) -> tuple[str, bool]:
    """At most `max_chars` characters, the ellipsis included; 0 leaves the abstract out."""
    if max_chars is None or len(abstract) <= max_chars:
        return abstract, False
    if max_chars == 0:
        return "", True
    return abstract[: max_chars - 1].rstrip() + "…", True


def _skipped_note(feed: Feed) -> str | None:
    if not feed.skipped:
        return None
    n = len(feed.skipped)
    return f"{n} entr{'y' if n == 1 else 'ies'} of arXiv's answer could not be read and {'was' if n == 1 else 'were'} left out ({feed.skipped[0]})."


def _join_notes(*notes: str | None) -> str | None:
    return " ".join(n for n in notes if n) or None


def _shared_fields(paper: Paper) -> dict:
    """What a search summary and a paper's detail both say about it."""
    return {
        "id": paper.id,
        "version": paper.version,
        "title": paper.title,
        "primary_category": paper.primary_category,
        "categories": paper.categories,
        "published": paper.published,
        "updated": paper.updated,
    }


def _version(pid: PaperId) -> int:
    """The version of an id the reader resolved: always set, whatever the id's type says."""
    assert pid.version is not None
    return pid.version
