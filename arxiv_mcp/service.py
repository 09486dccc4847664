"""The policy behind every tool: cache first, one upstream request when needed, pins.

Plain code, no MCP: `server.py` maps these methods to tools, and tests call them directly.
`ArxivService` is made of parts it owns, one concern each, and its methods are theirs:
`Parts` (service_parts.py: the settings, the cache, the parts built on first use, the session
check and the pin every tool shares), `PaperTools` (service_papers.py: metadata and search),
`ReadingTools` (service_reading.py: text, versions, references), `DownloadTools`
(service_downloads.py: downloads and the mirror) and `LibraryTools` (service_library.py:
sessions, the cache tools, the local search).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cache.store import Cache
from .config import Config
from .service_downloads import DownloadTools
from .service_library import LIST_PAGE_CHARS, LibraryTools
from .service_papers import PaperTools
from .service_parts import Parts
from .service_reading import ReadingTools

if TYPE_CHECKING:
    from .mirror.source import MirrorSource
    from .reading import Reader
    from .upstream.http import HttpClient

__all__ = ["LIST_PAGE_CHARS", "ArxivService"]


class ArxivService:
    """One service over one cache home, through the parts it is made of (see above)."""

    def __init__(self, config: Config, *, http: HttpClient | None = None, cache: Cache | None = None):
        parts = self.parts = Parts(config, http=http, cache=cache)
        self.config = config
        self.cache = parts.cache
        papers, downloads, library = PaperTools(parts), DownloadTools(parts), LibraryTools(parts)
        self.reading_tools = reading = ReadingTools(parts)  # benchmarks reset its rereads
        # Its methods are its parts' own, under the names server.py and the tests call.
        self.get_paper = papers.get_paper
        self.search = papers.search
        self.export_bibtex = papers.export_bibtex
        self.resolve_references = papers.resolve_references
        self.category_trends = papers.category_trends
        self.trends_chart = papers.trends_chart
        self.list_new = papers.list_new
        self.list_categories = papers.list_categories
        self.read_paper = reading.read_paper
        self.find_in_paper = reading.find_in_paper
        self.figure_image = reading.figure_image
        self.text_for_resource = reading.text_for_resource
        self.compare_versions = reading.compare_versions
        self.neighbours = reading.neighbours
        self.download_paper = downloads.download_paper
        self.mirror_status = downloads.mirror_status
        self.mirror_sync = downloads.mirror_sync
        self.touch_session = parts.check_session
        self.start_session = library.start_session
        self.end_session = library.end_session
        self.session_status = library.session_status
        self.cache_stats = library.cache_stats
        self.list_cached = library.list_cached
        self.clear_cache = library.clear_cache
        self.search_cached = library.search_cached

    @property
    def mirror(self) -> MirrorSource | None:
        return self.parts.mirror

    @property
    def http(self) -> HttpClient:
        """The upstream client, built by the first call that asks for it."""
        return self.parts.http

    @property
    def reader(self) -> Reader:
        """The reader, built by the first call that asks for it."""
        return self.parts.reader
