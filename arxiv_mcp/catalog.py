"""Paper metadata, cache first: what the service and the reader both ask about a paper.

It is the one metadata source the reference resolver asks (`research.resolve.MetadataSource`:
`known`, `absent`, `fetch`, `searched`, `search`), so a local mirror can stand in for it. One
id_list request answers any number of ids; answers are cached per version (and as the latest
when the id was bare). When arXiv is unreachable, expired metadata still answers:
titles and authors do not change, and a stale answer is marked as such.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from .cache.store import Cache
from .errors import NotFound, UpstreamError
from .ids import PaperId
from .upstream.arxiv_api import ArxivApi
from .upstream.atom import Paper
from .upstream.rate_limiter import SingleFlight

if TYPE_CHECKING:
    from .mirror.source import MirrorSource


class Catalog:
    """The metadata chain: the cache, then the local mirror (when it holds the paper's
    latest version), then one request to the API."""

    def __init__(self, api: ArxivApi, cache: Cache, flights: SingleFlight, mirror: MirrorSource | None = None):
        self.api = api
        self.cache = cache
        self.flights = flights
        self.mirror = mirror

    def mirrored(self, pids: list[PaperId]) -> dict[PaperId, Paper]:
        """The papers of `pids` the mirror answers: bare ids, or the version it holds."""
        if self.mirror is None or not pids:
            return {}
        from .mirror.source import to_paper

        stored = self.mirror.papers(list(dict.fromkeys(p.id for p in pids)))
        return {p: to_paper(stored[p.id]) for p in pids if p.id in stored and p.version in (None, stored[p.id].version)}

    def fetch(self, pids: list[PaperId]) -> dict[PaperId, Paper]:
        """One id_list request for all of `pids`; answers keyed by the pid asked for."""
        wire = list(dict.fromkeys(p.wire_id for p in pids))
        return self.flights.do(("ids",) + tuple(wire), lambda: self._fetch_now(pids, wire))

    def _fetch_now(self, pids: list[PaperId], wire: list[str]) -> dict[PaperId, Paper]:
        """The flight's work: the cache first, since a server on the same home may have
        fetched these while this one waited for the flight; then the request, cached before
        the flight ends, so whoever waited finds it."""
        kept = self._cached_many(pids)
        if len(kept) == len(pids):
            return kept
        feed = self.api.by_ids(wire)
        by_id: dict[str, list[Paper]] = {}
        for paper in feed.papers:
            by_id.setdefault(paper.id, []).append(paper)
        found: dict[PaperId, Paper] = {}
        for pid in pids:
            # Only the entry of the version asked for (the API answers versioned old-style ids
            # too): another version's entry relabelled would carry that version's date and text.
            exact = [c for c in by_id.get(pid.id, []) if pid.version in (None, c.version)]
            if exact:
                found[pid] = max(exact, key=lambda c: c.version)
        for pid, paper in found.items():
            self.cache.put_meta(paper.pid, paper.to_dict(), latest=pid.version is None)
        for pid in pids:
            if pid not in found and pid.version is None:
                self.cache.put_search(_absent_key(pid), {"absent": True}, min(self.cache.meta_ttl_s, ABSENT_TTL_S))
        return found

    def cached(self, pid: PaperId, *, allow_stale: bool = False) -> Paper | None:
        hit = self.cache.get_meta(pid, allow_stale=allow_stale)
        return Paper.from_dict(hit.record) if hit else None

    def _cached_many(self, pids: list[PaperId]) -> dict[PaperId, Paper]:
        """The fresh cached metadata of `pids`; a bare id's latest version named too is the
        same cached file, read once."""
        found: dict[PaperId, Paper] = {}
        for pid in sorted(pids, key=lambda p: p.version is not None):  # bare ids first
            latest = found.get(pid.with_version(None))
            if latest is not None and latest.version == pid.version:
                found[pid] = latest
            elif (hit := self.cached(pid)) is not None:
                found[pid] = hit
        return found

    def papers(self, pids: list[PaperId]) -> dict[PaperId, Paper]:
        """Metadata of many: fresh cache, then one request for the rest; when arXiv cannot be
        reached, expired copies, but only if every one is cached (an id left out would read
        as "not on arXiv", a lie when arXiv was not asked)."""
        found = self._cached_many(pids)
        found.update(self.mirrored([p for p in pids if p not in found]))
        todo = [p for p in pids if p not in found]
        if not todo:
            return found
        try:
            found.update(self.fetch(todo))
        except UpstreamError:
            stale = {p: self.cached(p, allow_stale=True) for p in todo}
            if not all(stale.values()):
                raise
            found.update({p: hit for p, hit in stale.items() if hit})
        return found

    def known(self, pids: list[PaperId]) -> dict[PaperId, Paper]:
        """The metadata of `pids` held here, no request: fresh in the cache, else in the mirror."""
        found = self._cached_many(pids)
        found.update(self.mirrored([p for p in pids if p not in found]))
        return found

    def absent(self, pids: list[PaperId]) -> set[PaperId]:
        """Those of `pids` arXiv said it does not have, within the last ABSENT_TTL_S."""
        return {p for p in pids if self.cache.get_search(_absent_key(p)) is not None}

    def searched(self, search_query: str, max_results: int) -> list[Paper] | None:
        """A title search's answer kept from before, without a request; None when there is none."""
        kept = self.cache.get_search(_search_key(search_query, max_results))
        return None if kept is None else [Paper.from_dict(d) for d in kept["papers"]]

    def search(self, search_query: str, max_results: int) -> list[Paper]:
        """The best `max_results` papers for an arXiv query (relevance order), in one request.
        The answer is kept as long as metadata is (titles do not move), and its papers'
        metadata is cached, so a repeated check costs nothing."""
        feed = self.flights.do(
            ("titles", search_query, max_results),
            lambda: self.api.search(search_query, 0, max_results, "relevance", "descending"),
        )
        for paper in feed.papers:
            self.cache.put_meta(paper.pid, paper.to_dict(), latest=True)
        kept = {"papers": [p.to_dict() for p in feed.papers]}
        self.cache.put_search(_search_key(search_query, max_results), kept, self.cache.meta_ttl_s)
        return feed.papers

    def latest_known(self, pid: PaperId) -> Paper | None:
        """The paper's latest metadata from the cache, expired or not: good enough to order sources."""
        return self.cached(pid.with_version(None), allow_stale=True)

    def paper(self, pid: PaperId) -> tuple[Paper, bool]:
        """Metadata of `pid` (latest when unversioned) and whether it is stale.

        A version is asked for together with the latest, in the same request: when the
        version does not exist, the answer can say which one does."""
        cached = self.cached(pid) or self.mirrored([pid]).get(pid)
        if cached:
            return cached, False
        bare = pid.with_version(None)
        known = None if pid == bare else self.cached(bare)
        if known is not None and pid.version is not None and pid.version > known.version:
            # the fresh metadata names the latest version, as read_paper trusts it: no request
            raise NotFound(not_found(pid, self.cache.versions(pid), known.version))
        try:
            found = self.fetch([pid] if pid == bare else [pid, bare])
        except UpstreamError:
            stale = self.cached(pid, allow_stale=True)
            if stale:
                return stale, True
            raise
        if pid not in found:
            latest = found[bare].version if bare in found else None
            raise NotFound(not_found(pid, self.cache.versions(pid), latest))
        return found[pid], False


ABSENT_TTL_S = 3600.0
"""How long "arXiv has no such paper" is believed: new papers appear daily."""


def _absent_key(pid: PaperId) -> str:
    return f"absent:{pid}"


def _search_key(search_query: str, max_results: int) -> str:
    return "titles:" + hashlib.sha256(f"{search_query}\n{max_results}".encode()).hexdigest()


def not_found(pid: PaperId, cached_versions: list[int], latest: int | None = None) -> str:
    if latest is not None:
        return (
            f"{pid} does not exist: the latest version of {pid.id} is v{latest}. Use {pid.id}v{latest} or the bare id."
        )
    cached = f" (cached versions: {', '.join(f'v{v}' for v in cached_versions)})" if cached_versions else ""
    return (
        f"arXiv has no paper {pid}{cached}. Check the id (e.g. 2401.12345 or hep-th/9901001), "
        "or find it with search_papers."
    )
