"""What `list_cached` shows: one page of the cached paper versions, in a chosen order.

Work is bounded by the page, not the cache, where the order allows: most recently used first
is the index's own order read backwards, so a page costs its offset plus its length; by size
or by id the entries are sorted once per call (a few milliseconds at 10,000 papers). Nothing
here reads a paper file.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from itertools import islice
from typing import get_args

from ..models import CachedPaper, CacheSort
from .files import TIERS
from .index import Entry, IndexState
from .records import Key

SORTS: tuple[CacheSort, ...] = get_args(CacheSort)


def page(
    state: IndexState,
    pins: Mapping[Key, list[str]],
    *,
    sort: str = "recent",
    offset: int = 0,
    limit: int | None = None,
    pinned_only: bool = False,
) -> tuple[list[CachedPaper], int]:
    """One page of the listing and how many entries the whole listing (after `pinned_only`) has."""
    if sort not in SORTS:
        raise ValueError(f"sort must be one of {', '.join(SORTS)}, not {sort!r}")
    keys = _ordered(state, sort)
    if pinned_only:
        keys = (key for key in keys if key in pins)
        matched = sum(1 for key in pins if key in state.entries)
    else:
        matched = len(state.entries)
    end = None if limit is None else offset + limit
    return [_row(state.entries[key], pins.get(key, [])) for key in islice(keys, offset, end)], matched


def _ordered(state: IndexState, sort: str) -> Iterator[Key]:
    entries = state.entries
    if sort == "recent":
        return reversed(entries)
    if sort == "size":
        return iter(sorted(entries, key=lambda key: (-entries[key].bytes, key)))
    return iter(sorted(entries))


def _row(entry: Entry, pinned_by: Iterable[str]) -> CachedPaper:
    return CachedPaper(
        paper_id=entry.paper_id,
        version=entry.version,
        title=entry.title,
        bytes=entry.bytes,
        tiers=[tier for tier in TIERS if tier in entry.tiers],
        pinned_by=sorted(pinned_by),
        last_access=entry.last_access,
    )


Signature = tuple[int, str | None, str | None]
"""(version, metadata checksum, text checksum) of what the library indexes for a paper."""


def newest_documents(state: IndexState) -> dict[str, Signature]:
    """For each paper with metadata or text cached, its newest such version and the checksums
    of those two files: a re-fetched record or a re-extracted text changes the signature."""
    found: dict[str, Signature] = {}
    get = found.get
    # Once per cached version in a process's first search: positions, not field names.
    for key, entry in state.entries.items():
        tiers = entry.tiers
        meta, text = tiers.get("meta"), tiers.get("text")
        if meta is None and text is None:
            continue
        paper_id, version = key
        known = get(paper_id)
        if known is None or known[0] < version:
            found[paper_id] = (version, None if meta is None else meta[1], None if text is None else text[1])
    return found
