"""What `mirror_status` and `arxiv-mcp mirror status` say: each set's records, last sync,
next sync due and harvest progress, the database's size, and who is harvesting."""

from __future__ import annotations

from datetime import datetime, timedelta

from ..models import MirrorSet, MirrorStatus
from ..upstream import oai
from .harvest import SYNC_EVERY_S, harvester_pid
from .source import MirrorSource


def status(mirror: MirrorSource) -> MirrorStatus:
    store = mirror.store
    states = {s.spec: s for s in store.sets()}
    pid = harvester_pid(mirror.home)
    sets = []
    for name in mirror.names:
        state = states.get(oai.set_spec(name))
        progress = ""
        if state is not None and state.token:
            progress = f"{state.pages} pages, reached {state.last_datestamp or '-'}"
        last_sync = (state.last_sync if state else None) or ""
        sets.append(MirrorSet(name, store.count_under(name), last_sync, _due(last_sync), progress))
    notes = [] if store.fts else ["This Python's sqlite has no FTS5: searches match words in Python (slower)."]
    if pid is not None:
        notes.append(f"Process {pid if pid > 0 else '?'} is harvesting now.")
    if any(not s.last_sync for s in sets):
        notes.append("A set without last_sync has not finished its first harvest: its questions go to arXiv meanwhile.")
    return MirrorStatus(sets, store.record_count(), store.size_bytes(), pid is not None, " ".join(notes))


def off() -> MirrorStatus:
    return MirrorStatus(
        [],
        0,
        0,
        note="No mirror is set up: set ARXIV_MCP_MIRROR to categories or archives (cs.LG,math.CO,hep-th).",
    )


def _due(last_sync: str) -> str:
    try:
        moment = datetime.fromisoformat(last_sync.replace("Z", "+00:00"))
    except ValueError:
        return ""
    return (moment + timedelta(seconds=SYNC_EVERY_S)).strftime("%Y-%m-%dT%H:%M:%SZ")
