"""What every part of the service works with: the settings, the cache, arXiv's URLs, the mirror,
the parts built by the first call that needs each (the upstream clients, the catalog, the
reader, the searcher, the local library), and the two things every tool does with a session
(refuse an unknown one first; pin what it read).

Owned by `service.ArxivService`, which hands the one `Parts` to each of its tool groups. A
part built on first use is built once, under a lock (tools run in worker threads), so a
cache-only tool never imports the readers, the upstream clients or the library.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar, cast

from .cache.store import Cache
from .config import Config
from .ids import PaperId, Urls

if TYPE_CHECKING:
    from .catalog import Catalog
    from .mirror.source import MirrorSource
    from .reading import Reader
    from .research.library import Library
    from .search import Searcher
    from .upstream.arxiv_api import ArxivApi
    from .upstream.atom import Paper
    from .upstream.http import HttpClient
    from .upstream.rate_limiter import SingleFlight

T = TypeVar("T")


class _Part(Generic[T]):
    """A part built by the first call that needs it, once (under `Parts.building`). Built, it
    is a plain instance attribute, as is a part handed in (a test's `http`)."""

    def __init__(self, build: Callable[[Parts], T]) -> None:
        self.build = build
        self.name = build.__name__

    def __get__(self, parts: Parts | None, owner: type | None = None) -> T:
        if parts is None:  # asked of the class: the descriptor, as a property would answer
            return cast("T", self)
        with parts.building:
            if self.name not in parts.__dict__:
                parts.__dict__[self.name] = self.build(parts)
        return cast("T", parts.__dict__[self.name])


class Parts:
    """The service's shared parts, each built once."""

    def __init__(self, config: Config, *, http: HttpClient | None = None, cache: Cache | None = None) -> None:
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

    def check_session(self, session_id: str | None) -> None:
        """Refuse an unknown session before any work, and mark it used (so it does not expire)."""
        if session_id:
            self.cache.session_status(session_id)

    def pin(self, session_id: str | None, pid: PaperId) -> None:
        """Keep what a call of the session read from eviction while the session is open."""
        if session_id:
            self.cache.pin(session_id, pid)

    def bibtex_entry(self, paper: Paper) -> str:
        """One paper's BibTeX entry, as the reference resolver shows its candidates."""
        from .research.bibtex import to_bibtex

        return to_bibtex([paper], site_url=self.config.site_url)


def version_of(pid: PaperId) -> int:
    """The version of an id the reader resolved: always set, whatever the id's type says."""
    assert pid.version is not None
    return pid.version


def _mirror_source(config: Config) -> MirrorSource | None:
    if not config.mirror:
        return None
    from .mirror.source import MirrorSource

    return MirrorSource(config.home, config.mirror)
