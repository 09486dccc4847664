"""Which cached tiers go when the cache is over its bounds: the policy, apart from the files.

After every insert, least recently accessed first and pinned papers never: while there are
more than `max_papers` entries, whole entries go, metadata-only ones (what a search brought,
nobody read) before papers whose text or files were fetched. Then, while the files exceed
`max_bytes`: raw files (PDF, e-print, HTML pages) first, since the text made from them is
what a read needs, then text, then whole entries (metadata-only ones first). The entry just
written (`protect`) goes only as a last resort, when everything else is pinned.

`drop` does the dropping (the cache unrecords the tiers, then removes their files); the
index state it is given reflects each drop at once, which the passes below rely on.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from itertools import islice

from .files import RAW_KINDS
from .index import IndexState
from .records import Key

Drop = Callable[[Key, list[str] | None, str], None]
"""drop(key, tiers or None for the whole entry, reason for the log)."""

_BYTE_PASSES: tuple[list[str] | None, ...] = (list(RAW_KINDS), ["text"], None)


def evict(
    state: IndexState, max_papers: int, max_bytes: int, pinned: Collection[Key], protect: Key | None, drop: Drop
) -> None:
    """Bring `state` within `max_papers` entries and `max_bytes` bytes, by calling `drop`."""
    exempt = set(pinned) | ({protect} if protect else set())
    excess = len(state.entries) - max_papers
    if excess > 0:
        for key in list(islice((k for k in _by_worth(state) if k not in exempt), excess)):
            drop(key, None, "paper count")
    for tiers in _BYTE_PASSES:
        _free_bytes(state, max_bytes, tiers, exempt, drop)
    if protect is None or protect in pinned:
        return
    if len(state.entries) > max_papers:
        drop(protect, None, "paper count, all others pinned")
    for tiers in _BYTE_PASSES:
        if state.total_bytes <= max_bytes:
            break
        drop(protect, tiers, "disk size, all others pinned")


def _free_bytes(state: IndexState, max_bytes: int, tiers: list[str] | None, exempt: set[Key], drop: Drop) -> None:
    """Drop `tiers` (whole entries when None) of unexempt entries until the files fit."""
    excess = state.total_bytes - max_bytes
    if excess <= 0:
        return
    victims, freed = [], 0
    for key in _by_worth(state) if tiers is None else state.entries:
        if freed >= excess:
            break
        entry = state.entries[key]
        present = [t for t in (tiers or entry.tiers) if t in entry.tiers]
        if key in exempt or not present:
            continue
        victims.append(key)
        freed += sum(entry.tiers[t].size for t in present)
    for key in victims:
        drop(key, tiers, "disk size")


def _by_worth(state: IndexState) -> list[Key]:
    """Entries in eviction order: metadata-only ones first (a search brought them, nobody read
    them), then the rest, each least recently accessed first."""
    entries = state.entries
    return [k for k, e in entries.items() if e.tiers.keys() == {"meta"}] + [
        k for k, e in entries.items() if e.tiers.keys() != {"meta"}
    ]
