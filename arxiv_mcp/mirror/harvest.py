"""Harvesting the mirrored sets through OAI-PMH, politely, resumably and exactly.

Every page is one request through the shared `HttpClient`, so it keeps arXiv's spacing
with every other request of every process on the home, and a 503's Retry-After holds them
all. Interactive calls go first: before each page the harvester waits until no request is
booked ahead (`RateLimiter.paused_for`), so a tool call that arrives meanwhile takes the next
slot, and one that arrives while a page is in flight waits for that page and one slot.

Each page is stored with the set's next token in one transaction (`MirrorStore.store_page`):
a killed harvest resumes from the stored token; a token arXiv no longer accepts (tokens
expire at the next UTC midnight) restarts the set from the last datestamp stored, records
sent again replacing their copies. A later sync asks `from=` the day of the last complete
harvest's responseDate. One harvester per home holds a lease (`cache.filelock.LeasedLock`),
renewed as pages arrive; another finds it held and says who holds it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .. import budget
from ..cache.filelock import Busy, Holder, Holding, LeasedLock
from ..errors import ArxivMcpError, UpstreamError
from ..upstream import oai
from ..upstream.http import HttpClient
from .store import MirrorStore

log = logging.getLogger(__name__)

HARVEST_LEASE_S = 120.0
"""A harvester renews its lease with every page; one silent this long is stopped or gone."""
SYNC_EVERY_S = 86400.0
"""arXiv announces once a day: a set synced within this is fresh."""
MAX_RESTARTS = 3
"""Expired tokens a set's harvest restarts from in one sync before it gives up until the next."""
SYNC_CHECK_S = 900.0
"""How often a server with a mirror looks whether a sync is due."""
PageReport = Callable[[str, int, int, str | None], None]
"""(set name, pages so far, records stored so far, last datestamp) after each page."""


class HarvestBusy(ArxivMcpError):
    """Another process on this home is harvesting."""


@dataclass
class SetResult:
    name: str
    pages: int = 0
    records: int = 0
    complete: bool = False


@dataclass
class SyncResult:
    sets: list[SetResult] = field(default_factory=list)
    stopped: bool = False
    """Ended before every set was complete (asked to stop, or out of time); resumable."""


def lease_lock(home: Path) -> LeasedLock:
    def busy(holder: Holder | None, retry: float) -> str:
        who = "another process" if holder is None else f"process {holder.pid}"
        return f"A mirror harvest is already running in {who} on this home; its progress shows in mirror_status"

    (home / "locks").mkdir(parents=True, exist_ok=True)
    return LeasedLock(home / "locks" / "mirror-harvest", busy, lease=lambda: HARVEST_LEASE_S)


def harvester_pid(home: Path) -> int | None:
    """The pid of the process harvesting on this home (-1 when unknown), or None if none is."""
    lock = lease_lock(home)
    try:
        with budget.tool_call(0.0):
            holding = lock.acquire()
        lock.release(holding)
        return None
    except Busy:
        holder = lock.holder()
        return holder.pid if holder is not None else -1
    finally:
        lock.close()


class Harvester:
    def __init__(self, http: HttpClient, store: MirrorStore, oai_url: str, home: Path):
        self.http = http
        self.store = store
        self.oai_url = oai_url
        self.home = home

    def sync(
        self,
        names: list[str],
        *,
        on_page: PageReport | None = None,
        stop: Callable[[], bool] = lambda: False,
        due_only: bool = False,
    ) -> SyncResult:
        """Harvest each named category or archive until its list ends, or until `stop()`.
        `due_only` skips sets synced within SYNC_EVERY_S. Raises HarvestBusy when another
        process harvests this home."""
        lock = lease_lock(self.home)
        try:
            with budget.tool_call(0.0):
                holding = lock.acquire()
        except Busy as exc:
            raise HarvestBusy(str(exc)) from None
        try:
            result = SyncResult()
            for name in names:
                if due_only and not is_due(self.store, name):
                    continue
                outcome = self._sync_set(name, lock, holding, on_page, stop)
                result.sets.append(outcome)
                if not outcome.complete:
                    result.stopped = True
                    break
            return result
        finally:
            lock.release(holding)
            lock.close()

    def _sync_set(
        self, name: str, lock: LeasedLock, holding: Holding, on_page: PageReport | None, stop: Callable[[], bool]
    ) -> SetResult:
        spec = oai.set_spec(name)
        state = self.store.set_state(spec)
        if state is None or not state.token:
            since = state.last_response[:10] if state and state.last_response else None
            self.store.begin_set(spec, name, since)
        result = SetResult(name)
        restarts = 0
        while not stop():
            state = self.store.set_state(spec)
            assert state is not None
            self._wait_for_interactive(stop)
            if stop():
                break
            lock.renew(holding)
            try:
                page = self._page(spec, state.token, state.from_date)
            except oai.BadResumptionToken:
                restarts += 1
                if restarts > MAX_RESTARTS:
                    raise UpstreamError(
                        f"arXiv's OAI-PMH refused {restarts} fresh resumption tokens for {name} in a row; "
                        "the harvest resumes at the next sync"
                    ) from None
                restart = state.last_datestamp or state.from_date
                log.info("mirror %s: the resumption token expired; restarting from %s", name, restart)
                self.store.begin_set(spec, name, restart)
                continue
            if page.token is not None and page.token == state.token:
                raise UpstreamError(f"arXiv's OAI-PMH sent the same resumption token again for {name}; stopped")
            result.records += self.store.store_page(spec, page.records, page.token, page.response_date)
            result.pages += 1
            if on_page is not None:
                on_page(name, result.pages, result.records, page.records[-1].datestamp if page.records else None)
            if page.token is None:
                result.complete = True
                break
        return result

    def _page(self, spec: str, token: str | None, from_date: str | None) -> oai.Page:
        if token:
            params = {"verb": "ListRecords", "resumptionToken": token}
        else:
            params = {"verb": "ListRecords", "metadataPrefix": "arXivRaw", "set": spec}
            if from_date:
                params["from"] = from_date
        resp = self.http.get(self.oai_url, params=params)
        if resp.status != 200:
            raise UpstreamError(
                f"arXiv's OAI-PMH answered HTTP {resp.status}; the harvest resumes at the next sync", status=resp.status
            )
        return oai.parse_page(resp.content)

    def _wait_for_interactive(self, stop: Callable[[], bool]) -> None:
        """Until no request is booked ahead: a tool call waiting for its slot goes first."""
        limiter = self.http.arxiv.limiter
        while not stop():
            ahead = limiter.paused_for()
            if ahead <= 0:
                return
            budget.sleep(min(ahead, 0.25))


def is_due(store: MirrorStore, name: str, now: float | None = None) -> bool:
    state = store.set_state(oai.set_spec(name))
    if state is None or state.token or not state.last_sync:
        return True
    return (time.time() if now is None else now) - _epoch(state.last_sync) >= SYNC_EVERY_S


def _epoch(iso: str) -> float:
    from datetime import datetime

    try:
        return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return 0.0
