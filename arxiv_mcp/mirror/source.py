"""The mirror as a metadata source: what the search, the catalog, trends and the reference
resolver ask of it, each answer said to come from the mirror as of its last sync.

Built by the service only when categories are mirrored (`Config.mirror`); the database is
opened on the first question, so start-up pays nothing for it. A question the mirror cannot
answer exactly (outside the mirrored sets, before their first complete sync, or about days
after it) gets `None` and a reason, and the caller asks the API.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from ..errors import InvalidInput
from ..models import AuthorInfo
from ..upstream import oai
from ..upstream.atom import Paper
from . import query as mq
from .store import MirrorStore, StoredPaper


@dataclass
class MirrorHits:
    total: int
    papers: list[Paper]
    as_of: str


class MirrorSource:
    def __init__(self, home: Path, names: tuple[str, ...]):
        self.home = home
        self.names = names
        self._store: MirrorStore | None = None
        self._lock = threading.Lock()

    @property
    def store(self) -> MirrorStore:
        with self._lock:
            if self._store is None:
                self._store = MirrorStore(self.home)
            return self._store

    def synced(self) -> list[str]:
        """The mirrored names whose first harvest is complete (they answer questions)."""
        done = {s.spec: s for s in self.store.sets() if s.last_sync}
        return [n for n in self.names if oai.set_spec(n) in done]

    def as_of(self, names: list[str] | None = None) -> str | None:
        """The last sync (ISO) the answers of `names` hold to: the oldest of theirs."""
        states = {s.spec: s for s in self.store.sets()}
        stamps = [states[oai.set_spec(n)].last_sync for n in (names or self.names) if oai.set_spec(n) in states]
        return min((s for s in stamps if s), default=None)

    # --- search -----------------------------------------------------------------------------

    def why_not(self, search_query: str) -> str | None:
        """None when the mirror answers `search_query`, else why the API must."""
        synced = self.synced()
        if not synced:
            return "the mirror has not finished its first harvest"
        try:
            tree = mq.parse(search_query)
        except InvalidInput:
            return "the mirror cannot read this query"
        return mq.covered(tree, synced, (self.as_of(synced) or "")[:10])

    def search(self, search_query: str, start: int, limit: int, sort_by: str, sort_order: str) -> MirrorHits:
        found = mq.search(self.store, mq.parse(search_query), sort_by, sort_order, start, limit)
        papers = [to_paper(p) for p in self.store.by_rowids(found.rowids)]
        return MirrorHits(found.total, papers, self.as_of(self.synced()) or "")

    # --- papers -----------------------------------------------------------------------------

    def papers(self, ids: list[str]) -> dict[str, StoredPaper]:
        """The mirrored papers among versionless `ids` (the resolver's batch lookup, too)."""
        return self.store.papers(ids) if self.synced() else {}

    def paper(self, paper_id: str) -> StoredPaper | None:
        return self.papers([paper_id]).get(paper_id)

    # --- trends -----------------------------------------------------------------------------

    def covers_category(self, cat_id: str, day_to: str) -> bool:
        synced = self.synced()
        return mq.within(cat_id, synced) and (self.as_of(synced) or "")[:10] >= day_to

    def per_day(self, cat_id: str, day_from: date, day_to: date) -> tuple[dict[str, int], list[str]]:
        counts = self.store.per_day([cat_id], day_from.isoformat(), day_to.isoformat())
        titles = self.store.titles_between([cat_id], day_from.isoformat(), day_to.isoformat())
        return counts, titles


def to_paper(p: StoredPaper) -> Paper:
    """A mirrored record as the API's paper record (the latest version's metadata)."""
    return Paper(
        id=p.id,
        version=p.version,
        title=p.title,
        abstract=p.abstract,
        authors=[AuthorInfo(name) for name in p.authors],
        categories=p.categories,
        primary_category=p.categories[0] if p.categories else "",
        published=p.published,
        updated=p.updated,
        doi=p.doi,
        journal_ref=p.journal_ref,
        comment=p.comments,
        classes=p.classes,
    )
