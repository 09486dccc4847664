"""The library and its pins: sessions, the cache's size, its listing in pages, clearing it,
and the local search over the cached papers.

A part of `service.ArxivService`, on its `Parts`. Every answer here comes from the cache home
(the local library's index lives there too): no request, no reader.
"""

from __future__ import annotations

import json
from dataclasses import asdict, replace

from . import bounds, ids
from .cache.listing import SORTS as CACHE_SORTS
from .config import display_path
from .errors import InvalidInput
from .ids import PaperId
from .models import CachedPaper, CacheList, CacheStats, ClearResult, LibrarySearch, SessionInfo
from .service_parts import Parts

LIST_PAGE_CHARS = 9000
"""A list_cached page's budget, its text and structured content together."""


class LibraryTools:
    """The session tools, the cache tools and the search of the cached papers."""

    def __init__(self, parts: Parts) -> None:
        self.parts = parts

    def start_session(self, session_id: str | None = None) -> SessionInfo:
        return self.parts.cache.start_session(session_id)

    def end_session(self, session_id: str) -> SessionInfo:
        return self.parts.cache.end_session(session_id)

    def session_status(self, session_id: str) -> SessionInfo:
        return self.parts.cache.session_status(session_id)

    def cache_stats(self) -> CacheStats:
        stats = replace(self.parts.cache.stats(), home=display_path(self.parts.config.home))
        if self.parts.mirror is not None:
            stats.bytes_by_tier = {**stats.bytes_by_tier, "mirror": self.parts.mirror.store.size_bytes()}
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
        rows, matched, total = self.parts.cache.list_page(
            sort=sort, offset=offset, limit=limit, pinned_only=pinned_only
        )
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
        return self.parts.cache.clear(drop_pinned)

    def search_cached(self, query: str, limit: int = 10) -> LibrarySearch:
        if not query or not query.strip():
            raise InvalidInput("query is empty: give words to look for in the cached papers")
        bounds.FIND_QUERY.check(query)
        named = _named_ids(query)  # asks for those papers: the words of an id match texts citing it
        if named:  # "0 papers match" would read as "not cached"
            raise InvalidInput(
                "search_cached ranks cached papers by their words, not their ids; as an arXiv id: "
                f"{'; '.join(map(self._cached_state, named))}. read_paper and get_paper look in the cache "
                "first; list_cached shows what each cached version holds."
            )
        hits = self.parts.library.search(query, limit)  # first: a search may rebuild the index it counts
        return LibrarySearch(
            query=query,
            papers_in_library=len(self.parts.library.index),
            hits=hits,
        )

    def _cached_state(self, pid: PaperId) -> str:
        """Whether the cache holds `pid` (the version it names, else any), from the index alone."""
        versions = self.parts.cache.versions(pid)
        listed = ", ".join(f"v{version}" for version in versions)
        if not versions:
            return f"{pid} is not cached (get_paper or read_paper fetches it)"
        if pid.version is not None and pid.version not in versions:
            return f"{pid} is not cached ({listed} {'is' if len(versions) == 1 else 'are'})"
        return f"{pid} is cached ({listed})"


def _named_ids(query: str) -> list[PaperId]:
    """The distinct arXiv ids a query consists of (commas or spaces between them), or none
    when any word of it is not one: the library indexes a paper's words, not its id."""
    try:
        named, malformed = ids.parse_many(query.replace(",", " ").split())
    except InvalidInput:
        return []
    return [] if malformed else named
