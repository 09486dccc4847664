"""The policy behind every tool: cache first, one upstream request when needed, pins.

Plain code, no MCP: `server.py` maps these methods to tools, and tests call them directly.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast, get_args
from urllib.parse import quote

from . import bounds, budget
from .cache.listing import SORTS as CACHE_SORTS
from .cache.store import Cache
from .cache.warm import Proof
from .config import Config, display_path
from .errors import InvalidInput, NotFound, UpstreamError
from .ids import PaperId, Urls, parse, parse_many
from .models import (
    UNTRUSTED,
    Announcements,
    Bibtex,
    CachedPaper,
    CacheList,
    CacheStats,
    CategoryList,
    ClearResult,
    Download,
    DownloadFormat,
    FindResult,
    LibrarySearch,
    LinkItem,
    MirrorStatus,
    Neighbour,
    Neighbours,
    PaperDetail,
    PaperSummary,
    PaperText,
    Resolution,
    SearchResult,
    SessionInfo,
    Trends,
    VersionComparison,
)
from .rereads import PAGES_KEPT, TEXTS_KEPT, Rereads

if TYPE_CHECKING:
    from .cache.records import TierRecord
    from .catalog import Catalog
    from .mirror.harvest import PageReport
    from .mirror.source import MirrorSource
    from .reading import Reader, Text
    from .research.library import Library
    from .search import Hits, Searcher
    from .upstream.arxiv_api import ArxivApi
    from .upstream.atom import Paper
    from .upstream.http import HttpClient
    from .upstream.rate_limiter import SingleFlight

log = logging.getLogger(__name__)
T = TypeVar("T")

TRENDS_TTL_S = 3600.0
LIST_PAGE_CHARS = 9000
"""A list_cached page's budget, its text and structured content together."""


class _Part(Generic[T]):
    """A part of the service built by the first call that needs it, once (under the service's
    lock: tools run in worker threads), so a cache-only tool never imports the readers, the
    upstream clients or the library. Built, it is a plain instance attribute, as is a part
    handed in (a test's `http`)."""

    def __init__(self, build: Callable[[ArxivService], T]) -> None:
        self.build = build
        self.name = build.__name__

    def __get__(self, service: ArxivService | None, owner: type | None = None) -> T:
        if service is None:  # asked of the class: the descriptor, as a property would answer
            return cast("T", self)
        with service.building:
            if self.name not in service.__dict__:
                service.__dict__[self.name] = self.build(service)
        return cast("T", service.__dict__[self.name])


class ArxivService:
    def __init__(self, config: Config, *, http: HttpClient | None = None, cache: Cache | None = None):
        self.config = config
        self.building = threading.RLock()
        self.cache = cache or Cache(
            config.home,
            max_papers=config.max_papers,
            max_bytes=config.max_bytes,
            meta_ttl_s=config.meta_ttl_s,
            session_ttl_s=config.session_ttl_s,
        )
        if http is not None:
            self.http = http
        self.urls = Urls(config.site_url, config.ar5iv_url)
        self.mirror = _mirror_source(config)
        self.texts: Rereads[tuple[PaperId, Text]] = Rereads(self.cache, TEXTS_KEPT)
        self.pages: Rereads[PaperText] = Rereads(self.cache, PAGES_KEPT)

    @_Part
    def http(self) -> HttpClient:
        from .upstream.http import HttpClient, Transport
        from .upstream.rate_limiter import RateLimiter

        config = self.config
        return HttpClient(
            config,
            Transport(config),
            RateLimiter(
                config.min_interval_s,
                state_file=config.home / "ratelimit-arxiv",
                connection_file=config.home / "locks" / "arxiv-connection",
            ),
            RateLimiter(1.0, name="Semantic Scholar", state_file=config.home / "ratelimit-s2"),
        )

    @_Part
    def flights(self) -> SingleFlight:
        from .upstream.rate_limiter import SingleFlight

        return SingleFlight(self.config.home / "locks")

    @_Part
    def api(self) -> ArxivApi:
        from .upstream.arxiv_api import ArxivApi

        return ArxivApi(self.http, self.config.api_url)

    @_Part
    def catalog(self) -> Catalog:
        from .catalog import Catalog

        return Catalog(self.api, self.cache, self.flights, self.mirror)

    @_Part
    def reader(self) -> Reader:
        from .reading import Reader

        config = self.config
        return Reader(
            self.http,
            self.cache,
            self.catalog,
            self.urls,
            self.flights,
            meta_ttl_s=config.meta_ttl_s,
            pdf_engine=config.pdf_engine,
        )

    @_Part
    def searcher(self) -> Searcher:
        from .search import Searcher

        return Searcher(self.api, self.cache, self.catalog, self.flights, self.http, self.config, self.mirror)

    @_Part
    def library(self) -> Library:
        from .research.library import Library

        return Library(self.cache)

    # --- metadata -------------------------------------------------------------------------

    def paper(self, pid: PaperId) -> tuple[Paper, bool]:
        """Metadata of `pid` (latest when unversioned) and whether it is stale."""
        return self.catalog.paper(pid)

    def get_paper(self, paper_id: str, session_id: str | None = None) -> PaperDetail:
        pid = parse(paper_id)
        self._check_session(session_id)
        paper, stale = self.paper(pid)
        self._pin(session_id, paper)
        return self._with_history(self.detail(paper, stale))

    def _with_history(self, detail: PaperDetail) -> PaperDetail:
        """A mirrored paper's detail says so, and lists every version's date and size."""
        stored = self.mirror.paper(detail.id) if self.mirror is not None else None
        if stored is None or self.mirror is None:  # (the second test is for the type checker)
            return detail
        versions = [f"v{v.version} {v.date} {v.size}" for v in stored.versions]
        return replace(detail, source="mirror", as_of=self.mirror.as_of() or "", versions=versions)

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
            links=_metadata_links(paper),
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
        result = self.searcher.find(filters, id_list, start, max_results, sort_by, sort_order)
        return self._summaries(result, start, abstract_max_chars)

    def _summaries(self, hits: Hits, start: int, abstract_max_chars: int | None) -> SearchResult:
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

    # --- full text ------------------------------------------------------------------------

    def _text(self, paper_id: str, session_id: str | None) -> tuple[PaperId, Text]:
        pid, full, _ = self._read(paper_id, session_id)
        return pid, full

    def _read(self, paper_id: str, session_id: str | None) -> tuple[PaperId, Text, Proof | None]:
        """The text `paper_id` reads, and the cache's proof when it was read from the cache
        alone: from memory while that proof holds (rereads.py)."""
        kept = self.texts.get(paper_id)
        proof: Proof | None
        if kept is not None:
            (pid, full), proof = kept
            self._check_session(session_id)
        else:
            pid = parse(paper_id)
            self._check_session(session_id)
            since = self.cache.index_stamp()
            pid, full = self.reader.read(pid)
            proof = self.cache.proof(full.origin, since, full.until)
            self.texts.keep(paper_id, (pid, full), proof)
        if session_id:
            self.cache.pin(session_id, pid)
        return pid, full, proof

    def read_paper(
        self,
        paper_id: str,
        page: int = 1,
        page_size: int = 15000,
        section: str | None = None,
        session_id: str | None = None,
    ) -> PaperText:
        bounds.PAGE_SIZE.check(page_size)
        bounds.PAGE.check(page)
        asked = (paper_id, page, page_size, section)
        kept = self.pages.get(asked)
        if kept is not None:  # this very page, and the cache proves nothing changed (rereads.py)
            self._check_session(session_id)
            if session_id:
                self.cache.pin(session_id, PaperId(kept[0].paper_id, kept[0].version))
            return kept[0]
        from .text import selectors
        from .text.view import Pages

        pid, full, proof = self._read(paper_id, session_id)
        chosen = None
        if section and section.strip():
            chosen = selectors.select(full.doc, section, lambda number: figure_uri(pid, number), pid.id)
        view = chosen.text if chosen else full.text
        pages = Pages(view, page_size)
        answer = PaperText(
            paper_id=pid.id,
            version=_version(pid),
            text=pages.page(page),
            page=page,
            total_pages=pages.count,
            total_chars=len(view),
            has_more=page < pages.count,
            method=str(full.source),
            source_method=str(full.source),
            cached=full.method == "cache",
            section=chosen.label if chosen else None,
            notice=_sentences(UNTRUSTED, full.damage, full.note),
            stamp=full.stamp,
            items=chosen.items() if chosen else [],
        )
        self.pages.keep(asked, answer, proof)
        return answer

    def find_in_paper(
        self, paper_id: str, query: str, max_hits: int = 10, page_size: int = 15000, session_id: str | None = None
    ) -> FindResult:
        from .text import view as textview

        bounds.PAGE_SIZE.check(page_size)
        bounds.MAX_HITS.check(max_hits)
        if not query or not query.strip():
            raise InvalidInput('query is empty: give words or a "quoted phrase" to look for')
        bounds.FIND_QUERY.check(query)
        pid, full = self._text(paper_id, session_id)
        hits, total = textview.find(full.doc, query, max_hits=max_hits, page_size=page_size)
        return FindResult(
            paper_id=pid.id,
            version=_version(pid),
            query=query,
            total_matches=total,
            hits=hits,
            page_size=page_size,
        )

    def figure_image(self, paper_id: str, number: str) -> bytes:
        """The image of a figure, for the `arxiv://paper/{id}/figure/{n}` resource."""
        from .figures import FigureImages

        pid, full = self._text(paper_id, None)
        return FigureImages(self.cache, self.http, self.urls).image(pid, full.doc, number)

    def text_for_resource(self, paper_id: str) -> tuple[PaperId, str]:
        pid, full = self._text(paper_id, None)
        return pid, full.text

    # --- versions -------------------------------------------------------------------------

    def compare_versions(
        self,
        paper_id: str,
        from_version: int | None = None,
        to_version: int | None = None,
        session_id: str | None = None,
    ) -> VersionComparison:
        """Two versions compared (default: the first and the latest). Each is read as
        read_paper reads it (a cached one costs no request); the metadata of both comes from
        the cache or one id_list request; the comparison itself costs nothing more."""
        from .research import versions

        asked = parse(paper_id)
        pid = asked.with_version(None)
        self._check_session(session_id)
        # A versioned id names the version read before ("what changed since v1?"), so from_version.
        if asked.version is not None and from_version not in (None, asked.version):
            raise InvalidInput(
                f"{asked} names v{asked.version} and from_version v{from_version}: give the bare id {pid.id} "
                "with from_version and to_version"
            )
        first, last, papers = self._version_pair(
            pid, asked.version if from_version is None else from_version, to_version
        )
        texts = {}
        for number in (first, last):
            versioned = pid.with_version(number)
            try:
                texts[number] = self._read(versioned.versioned, session_id)[1]
            except NotFound as exc:
                if versions.is_withdrawn(papers.get(versioned)):
                    raise NotFound(f"{versioned} was withdrawn, so it has no text to compare: {exc}") from exc
                raise
        raw = self.cache.raw_records([pid.with_version(first), pid.with_version(last)])
        before, after = (
            versions.Side(
                n, papers.get(pid.with_version(n)), full, str(full.source), _raw_bytes(raw[n], str(full.source))
            )
            for n, full in texts.items()
        )
        return versions.compare(pid.id, before, after)

    def _version_pair(
        self, pid: PaperId, from_version: int | None, to_version: int | None
    ) -> tuple[int, int, dict[PaperId, Paper]]:
        """The two versions to compare and the metadata of each (one request at most: the
        latest and the versions asked for go in one id_list)."""
        from .catalog import not_found

        for bound, value in ((bounds.FROM_VERSION, from_version), (bounds.TO_VERSION, to_version)):
            if value is not None:
                bound.check(value)
        asked = [v for v in (from_version, to_version) if v is not None]
        wanted = [pid] + [pid.with_version(v) for v in dict.fromkeys([from_version or 1, *asked])]
        try:
            papers = self.catalog.papers(wanted)
        except UpstreamError:
            papers = {}  # the texts still compare; only the metadata goes unsaid
            latest = self.paper(pid)[0]  # an expired copy, or the error
        else:
            if pid not in papers:  # arXiv answered without it: no such paper
                raise NotFound(not_found(pid, self.cache.versions(pid)))
            latest = papers[pid]
        count = latest.version
        papers.setdefault(pid.with_version(count), latest)
        if count == 1:
            raise InvalidInput(f"{pid.id} has one version (v1): there is nothing to compare; read_paper reads it")
        missing = [v for v in asked if v > count]
        if missing:
            raise NotFound(f"{pid.id} has no v{missing[0]}: its versions are v1 to v{count}")
        first, last = from_version or 1, to_version or count
        if first == last and to_version is None:
            raise InvalidInput(f"v{first} is the latest version of {pid.id}: there is no later one to compare it with")
        if first == last:
            raise InvalidInput(f"from_version and to_version are both v{first}: name two different versions")
        return first, last, papers

    # --- downloads ------------------------------------------------------------------------

    def download_paper(self, paper_id: str, fmt: str = "pdf", session_id: str | None = None) -> Download:
        if fmt not in get_args(DownloadFormat):
            raise InvalidInput(f"fmt={fmt!r} is not supported: use 'pdf' or 'source' (the LaTeX e-print)")
        pid = parse(paper_id)
        self._check_session(session_id)
        cached = pid.version is not None and self.reader.cached_raw(pid, fmt) is not None
        if not cached:
            pid, _ = self.reader.resolve(pid)
            budget.report(f"downloading {pid} ({fmt})", 0, 1)
        raw = self.reader.raw(pid, fmt)
        if session_id:
            self.cache.pin(session_id, pid)
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
        """Refuse an unknown session before any work, and mark it used (so it does not expire)."""
        if session_id:
            self.cache.session_status(session_id)

    touch_session = _check_session

    def _pin(self, session_id: str | None, paper: Paper) -> None:
        if session_id:
            self.cache.pin(session_id, paper.pid)

    def start_session(self, session_id: str | None = None) -> SessionInfo:
        return self.cache.start_session(session_id)

    def end_session(self, session_id: str) -> SessionInfo:
        return self.cache.end_session(session_id)

    def session_status(self, session_id: str) -> SessionInfo:
        return self.cache.session_status(session_id)

    def cache_stats(self) -> CacheStats:
        stats = replace(self.cache.stats(), home=display_path(self.config.home))
        if self.mirror is not None:
            stats.bytes_by_tier = {**stats.bytes_by_tier, "mirror": self.mirror.store.size_bytes()}
        return stats

    def list_cached(
        self, limit: int = 50, offset: int = 0, sort: str = "recent", pinned_only: bool = False
    ) -> CacheList:
        """One page of the cached papers, cut short where it would pass LIST_PAGE_CHARS (so an
        answer stays small whatever the cache holds); `next_offset` goes on from there."""
        bounds.LIMIT.check(limit)
        bounds.OFFSET.check(offset)
        if sort not in CACHE_SORTS:
            raise InvalidInput(f"sort must be one of {', '.join(CACHE_SORTS)}, not {sort!r}")
        rows, matched, total = self.cache.list_page(sort=sort, offset=offset, limit=limit, pinned_only=pinned_only)
        papers: list[CachedPaper] = []
        used = 0
        for row in rows:
            used += len(json.dumps(asdict(row))) + len(row.title or "") + 60  # the structured row and its text line
            if papers and used > LIST_PAGE_CHARS:
                break
            papers.append(row)
        end = offset + len(papers)
        return CacheList(papers, len(papers), total, matched, end if end < matched else None)

    def clear_cache(self, drop_pinned: bool = False) -> ClearResult:
        return self.cache.clear(drop_pinned)

    def export_bibtex(self, paper_ids: list[str], session_id: str | None = None) -> Bibtex:
        """One entry per paper, from its latest metadata: an entry names the paper, not a
        version (its key, eprint and url carry no version), so `X`, `Xv1` and `Xv2` are
        one entry. Metadata cached within its lifetime is used as is; the rest comes in
        one id_list request, and expired metadata serves when arXiv cannot be reached. A
        malformed id is listed with its reason; the others are answered."""
        from .research.bibtex import to_bibtex

        bounds.PAPER_IDS.check(paper_ids)
        asked, invalid = parse_many(paper_ids)
        self._check_session(session_id)
        latest = list(dict.fromkeys(p.with_version(None) for p in asked))
        found = self.catalog.papers(latest)
        papers = [found[p] for p in latest if p in found]
        for paper in papers:
            self._pin(session_id, paper)
        return Bibtex(
            bibtex=to_bibtex(papers, site_url=self.config.site_url),
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
        self._check_session(session_id)
        result = resolve(entries, self.catalog, self._bibtex_entry)
        for item in result.items:
            held = self.catalog.latest_known(PaperId(item.arxiv_id)) if session_id and item.arxiv_id else None
            if held is not None and item.verdict in ("exact", "likely"):
                self._pin(session_id, held)
        return result

    def _bibtex_entry(self, paper: Paper) -> str:
        from .research.bibtex import to_bibtex

        return to_bibtex([paper], site_url=self.config.site_url)

    def neighbours(
        self, paper_id: str, direction: str, limit: int = 10, resolve: bool = False, max_lookups: int = 20
    ) -> Neighbours:
        """References or citations. A paper whose text is cached answers for its references
        itself, from its own bibliography (no request, the paper's order, the arXiv ids its
        entries state), with direction "bibliography"; Semantic Scholar answers the rest.
        With `resolve`, the paper is read if it is not cached, and its entries are checked
        through resolve_references' resolver: one batch for the stated ids, at most
        `max_lookups` title searches for the others."""
        from .upstream import s2

        pid = parse(paper_id)
        if direction == "references":
            bounds.LIMIT.check(limit)
            bounds.MAX_LOOKUPS.check(max_lookups)
            if resolve:
                self._read(paper_id, None)
            own = self._bibliography(pid, limit)
            if own is not None:
                return self._resolved(own, max_lookups) if resolve else own
        return s2.neighbours(self.http, self.config.s2_url, pid, direction, limit, cache=self.cache)

    def _bibliography(self, pid: PaperId, limit: int) -> Neighbours | None:
        from .text.bibids import publication_year
        from .text.document import Reference

        versions = [pid.version] if pid.version is not None else sorted(self.cache.versions(pid), reverse=True)
        for version in versions[:1]:
            full = self.reader.cached(pid.with_version(version))
            entries = full.doc.records(Reference) if full is not None else []
            if entries:
                found = [Neighbour(" ".join(r.text.split()), r.arxiv_id, publication_year(r.text), []) for r in entries]
                return Neighbours(pid.id, "bibliography", found[:limit], len(found) > limit)
        return None

    def _resolved(self, own: Neighbours, max_lookups: int) -> Neighbours:
        """`own` with each entry's verdict, and the arXiv id found for those that state none."""
        from .research.resolve import resolve

        texts = [n.title or "" for n in own.neighbours]
        result = resolve(texts, self.catalog, self._bibtex_entry, max_searches=max_lookups)
        out = []
        for n, item in zip(own.neighbours, result.items, strict=True):
            found = item.arxiv_id if item.verdict in ("exact", "likely") else None
            out.append(replace(n, arxiv_id=n.arxiv_id or found, verdict=item.verdict))
        return replace(own, neighbours=out)

    def category_trends(self, category: str, window_days: int = 30) -> Trends:
        from .research.trends import category_trends, chart_uri, mirror_trends, trends_from_dict

        counted = mirror_trends(self.mirror, category, window_days) if self.mirror is not None else None
        if counted is not None:
            return replace(counted, chart_uri=chart_uri(counted.category, window_days))
        key = f"trends:{category.strip().lower()}:{window_days}:{time.strftime('%Y-%m-%d', time.gmtime())}"
        stored = self.cache.get_search(key)
        if stored is not None:
            return trends_from_dict(stored)
        got = category_trends(self.api, category, window_days)
        got.chart_uri = chart_uri(got.category, window_days)
        self.cache.put_search(key, asdict(got), TRENDS_TTL_S)
        return got

    def trends_chart(self, category: str, window_days: int) -> str:
        """The `arxiv://trends/{category}/{window_days}/chart` resource: an SVG of the answer above."""
        from .research.trends import chart_svg

        bounds.WINDOW_DAYS.check(window_days)
        return chart_svg(self.category_trends(category, window_days))

    # --- the mirror -----------------------------------------------------------------------

    def mirror_status(self, sync: bool = False) -> MirrorStatus:
        """The mirror's sets and size; with `sync`, harvest what is due first, within this call
        (progress per page), keeping every page stored if the call ends before the list does."""
        from .mirror import status

        if self.mirror is None:
            return status.off()
        note = self.mirror_sync(self.config.mirror, due_only=False) if sync else None
        answer = status.status(self.mirror)
        return replace(answer, note=" ".join(n for n in (note, answer.note) if n))

    def mirror_sync(self, names: tuple[str, ...], *, due_only: bool, report: PageReport | None = None) -> str:
        """Harvest `names` (all, or those due), stopping while this call still has time for a
        page; a sentence saying what was done."""
        from .mirror.harvest import HarvestBusy, Harvester
        from .mirror.source import MirrorSource

        mirror = self.mirror or MirrorSource(self.config.home, names)
        harvester = Harvester(self.http, mirror.store, self.config.oai_url, self.config.home)

        def page_done(name: str, pages: int, records: int, reached: str | None) -> None:
            budget.report(f"mirror {name}: page {pages}, {records} records, reached {reached or '-'}", pages, None)
            if report is not None:
                report(name, pages, records, reached)

        def out_of_time() -> bool:
            left = budget.remaining()
            return left is not None and left < self.config.min_interval_s + self.config.timeout_s / 2

        try:
            done = harvester.sync(list(names), on_page=page_done, stop=out_of_time, due_only=due_only)
        except HarvestBusy as exc:
            return str(exc) + "."
        pages = sum(s.pages for s in done.sets)
        records = sum(s.records for s in done.sets)
        ended = "; it stopped before the end and resumes from its token at the next sync" if done.stopped else ""
        return f"Harvested {pages} pages ({records} records){ended}."

    def list_new(self, category: str, since: str | None = None, limit: int = 25) -> Announcements:
        """The day's announced papers the cursor `since` has not seen; the feed is fetched once
        per announcement (research/announcements.py holds the schedule and the cursor)."""
        from .research import announcements
        from .upstream.rss import RssFeed, parse_rss

        bounds.LIMIT.check(limit)
        name, seen = announcements.feed_name(category), announcements.read_cursor(since)
        key = f"rss:{name}"

        def kept() -> RssFeed | None:
            return announcements.stored(self.cache.get_search(key))

        def fetched() -> RssFeed:  # one call of any process on the home asks; the others find it kept
            feed = kept()
            if feed is None:
                resp = self.http.get(f"{self.config.rss_url}/{name}")
                feed = parse_rss(resp.content, resp.status)
                ttl = announcements.keep_for(feed.day, datetime.now(UTC))
                self.cache.put_search(key, announcements.to_store(feed), ttl)
            return feed

        feed = kept()
        cached = feed is not None
        if feed is None:
            feed = self.flights.do(("rss", name), fetched)
        return announcements.page(feed, name, seen, limit, datetime.now(UTC), cached)

    def search_cached(self, query: str, limit: int = 10) -> LibrarySearch:
        if not query or not query.strip():
            raise InvalidInput("query is empty: give words to look for in the cached papers")
        bounds.FIND_QUERY.check(query)
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


def _metadata_links(paper: Paper) -> list[dict[str, str]]:
    """The code, data, model and project links its abstract and comments state (no request)."""
    from .text.links import metadata_links

    return [asdict(LinkItem(**vars(link))) for link in metadata_links(paper.abstract, paper.comment, paper.id)]


def _mirror_source(config: Config) -> MirrorSource | None:
    if not config.mirror:
        return None
    from .mirror.source import MirrorSource

    return MirrorSource(config.home, config.mirror)


def _cut(abstract: str, max_chars: int | None) -> tuple[str, bool]:
    """At most `max_chars` characters, the ellipsis included; 0 leaves the abstract out."""
    if max_chars is None or len(abstract) <= max_chars:
        return abstract, False
    if max_chars == 0:
        return "", True
    return abstract[: max_chars - 1].rstrip() + "…", True


def _shared_fields(paper: Paper) -> dict[str, Any]:
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


def _sentences(*notes: str | None) -> str:
    """Notes written by different parts as one text of sentences: each begins with a capital
    and ends with a stop, so "...inside it. the PDF is damaged ... text arXiv sent ..." does
    not read as one run-on line. A first word spelt with a capital inside (arXiv) stays as it is."""
    out = []
    for note in notes:
        note = (note or "").strip()
        if note:
            first = note.split(maxsplit=1)[0]
            if first.islower():
                note = note[0].upper() + note[1:]
            out.append(note + ("" if note.endswith((".", "!", "?")) else "."))
    return " ".join(out)


def figure_uri(pid: PaperId, number: str) -> str:
    """The resource a figure's image is read from (`pid` carries its version)."""
    return f"arxiv://paper/{quote(pid.versioned, safe='')}/figure/{quote(number, safe='')}"


def _version(pid: PaperId) -> int:
    """The version of an id the reader resolved: always set, whatever the id's type says."""
    assert pid.version is not None
    return pid.version


def _raw_bytes(records: dict[str, TierRecord], source: str) -> int | None:
    """The size of the cached file a text was read from, as the cache's index records it:
    reading and checking a PDF or an e-print to say its size would cost more than the
    comparison (a PDF may have come as the e-print of a PDF-only paper)."""
    from .text import formats
    from .text.extract import TextSource

    record = records.get(source)
    if record is None and source == TextSource.PDF:
        record = records.get(TextSource.SOURCE)
        record = record if record is not None and record.content_type == formats.PDF else None
    return record.size if record else None
