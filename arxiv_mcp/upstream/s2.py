"""References and citations of an arXiv paper, from the Semantic Scholar Graph API.

Endpoints: https://api.semanticscholar.org/api-docs/graph (`/paper/arXiv:ID/references`,
`/paper/arXiv:ID/citations`, and `/paper/DOI:DOI` to find the arXiv id of a journal DOI).
The API key, when configured, travels only in the `x-api-key` header that `HttpClient`
adds; nothing here ever sees or echoes it.

One odd item in a page (nested past what the JSON parser will recurse into, or of the
wrong shape) is left out with a logged warning; it never fails the whole list. A page holding
more items than the limit asked is cut to it (and says more exist), each title and author
list to a sane length, and lone surrogates in its text are repaired (`fields.py`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import asdict
from typing import TYPE_CHECKING, Any, Protocol

from .. import bounds
from ..errors import InvalidInput, NotFound, Throttled, UpstreamError
from ..ids import PaperId, parse
from ..models import Neighbour, Neighbours
from . import fields

if TYPE_CHECKING:
    from .http import HttpClient

log = logging.getLogger(__name__)

DIRECTIONS = {"references": "citedPaper", "citations": "citingPaper"}
CACHE_TTL_S = 600.0
FIELDS = "title,year,externalIds,authors"


class AnswerCache(Protocol):
    def get_search(self, key: str) -> dict[str, Any] | None: ...

    def put_search(self, key: str, value: dict[str, Any], ttl_s: float) -> None: ...


def neighbours(
    http: HttpClient, s2_url: str, pid: PaperId, direction: str, limit: int = 10, *, cache: AnswerCache | None = None
) -> Neighbours:
    """The first `limit` papers this one cites (`references`) or that cite it (`citations`)."""
    if direction not in DIRECTIONS:
        raise InvalidInput(f"direction={direction!r} is not supported: use 'references' or 'citations'")
    bounds.LIMIT.check(limit)
    key = f"s2:{direction}:{pid.id}:{limit}"
    if cache is not None:
        cached = cache.get_search(key)
        if cached is not None:
            return _from_stored(cached)
    url = f"{s2_url.rstrip('/')}/paper/arXiv:{pid.id}/{direction}"
    try:
        resp = http.get(url, params={"fields": FIELDS, "limit": str(limit), "offset": "0"})
    except Throttled as exc:
        raise Throttled(
            f"Semantic Scholar is rate-limiting requests (HTTP {exc.status or 429}) even after a retry; "
            "retry later (in a minute or so). Its shared anonymous quota runs out often; "
            "setting SEMANTIC_SCHOLAR_API_KEY gives this server its own quota.",
            status=exc.status,
            retry_after_seconds=exc.retry_after_seconds,
        ) from None
    if resp.status == 404:
        raise NotFound(
            f"arXiv:{pid.id} is not in Semantic Scholar, so its {direction} are unknown "
            "there. That does not mean it is not on arXiv: get_paper still works, and "
            "recent papers often reach Semantic Scholar a few days later."
        )
    if resp.status != 200:
        raise UpstreamError(
            f"Semantic Scholar answered HTTP {resp.status} for the {direction} of arXiv:{pid.id}; try again later.",
            status=resp.status,
        )
    page = _parse_page(resp.content, DIRECTIONS[direction], limit)
    skipped = page.pop("skipped")
    result = Neighbours(paper_id=pid.id, direction=direction, **page)
    if skipped:  # logged, not a result field: the tools/list byte budget has no room for one
        log.warning("left out %d unreadable item(s) of Semantic Scholar's %s of arXiv:%s", skipped, direction, pid.id)
    if cache is not None:
        cache.put_search(key, asdict(result), CACHE_TTL_S)
    return result


def arxiv_id_for_doi(http: HttpClient, s2_url: str, doi: str, *, cache: AnswerCache | None = None) -> str | None:
    """The arXiv id Semantic Scholar records for a journal DOI, or None (unknown DOI, or a
    paper with no arXiv version)."""
    key = f"s2:doi:{doi.lower()}"
    cached = cache.get_search(key) if cache is not None else None
    if cached is not None:
        return cached.get("arxiv_id")
    resp = http.get(f"{s2_url.rstrip('/')}/paper/DOI:{doi}", params={"fields": "externalIds"})
    if resp.status not in (200, 404):
        raise UpstreamError(
            f"Semantic Scholar answered HTTP {resp.status} when asked which arXiv paper has the DOI {doi}; "
            "try again later, or search by the paper's title.",
            status=resp.status,
        )
    record = _json_or_none(resp.content) if resp.status == 200 else None
    external = record.get("externalIds") if isinstance(record, dict) else None
    arxiv_id = _arxiv_id(external.get("ArXiv")) if isinstance(external, dict) else None
    if cache is not None:
        cache.put_search(key, {"arxiv_id": arxiv_id}, CACHE_TTL_S)
    return arxiv_id


def _json_or_none(content: bytes) -> object:
    try:
        return json.loads(content)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None


def _from_stored(stored: dict[str, Any]) -> Neighbours:
    """An answer read back from the answer cache, where it is kept as plain JSON."""
    return Neighbours(**{**stored, "neighbours": [Neighbour(**n) for n in stored["neighbours"]]})


def _parse_page(content: bytes, side: str, limit: int) -> dict[str, Any]:
    """The page's first `limit` neighbours (records), whether more follow, and how many items
    were unreadable."""
    try:
        page = json.loads(content)
        items = page.get("data") if isinstance(page, dict) else None
        skipped = 0
    except RecursionError:  # one item nested too deep: read the others one by one
        page, items, skipped = _page_item_by_item(content)
    except (ValueError, UnicodeDecodeError):
        page, items, skipped = None, None, 0
    if not isinstance(page, dict) or not isinstance(items, list):
        raise UpstreamError(
            "Semantic Scholar answered with something that is not a page of papers "
            "(malformed JSON); try again in a minute."
        )
    if len(items) > limit:
        log.warning("Semantic Scholar sent %d items for limit=%d; the rest were left out", len(items), limit)
    odd = [item for item in items if not isinstance(item, dict) or not isinstance(item.get(side), (dict, type(None)))]
    found = [n for item in items if isinstance(item, dict) and (n := _neighbour(item.get(side))) is not None]
    return {
        "neighbours": found[:limit],
        "has_more": page.get("next") is not None or len(found) > limit,
        "skipped": skipped + len(odd),
    }


def _page_item_by_item(content: bytes) -> tuple[dict[str, Any] | None, list[Any] | None, int]:
    """The page's members, with each item of `data` parsed on its own so that only the
    items too deeply nested to parse are lost (counted in the third value)."""
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        return None, None, 0
    page: dict[str, Any] = {}
    items: list[Any] = []
    skipped = 0
    for key, start, end in _members(text, _skip_ws(text, 0)):
        if key != "data" or text[start] != "[":
            page[key] = _json_or_none(text[start:end].encode())
            continue
        for item_start, item_end in _elements(text, start):
            item = _json_or_none(text[item_start:item_end].encode())
            if item is None:
                skipped += 1
            else:
                items.append(item)
    return (page, items, skipped) if page or items else (None, None, 0)


def _members(text: str, pos: int) -> Iterator[tuple[str, int, int]]:
    """(key, value start, value end) of a top-level JSON object, without recursion."""
    if pos >= len(text) or text[pos] != "{":
        return
    pos = _skip_ws(text, pos + 1)
    decoder = json.JSONDecoder()
    while pos < len(text) and text[pos] == '"':
        key, pos = decoder.raw_decode(text, pos)
        pos = _skip_ws(text, pos)
        if pos >= len(text) or text[pos] != ":":
            return
        start = _skip_ws(text, pos + 1)
        end = _value_end(text, start)
        yield key, start, end
        pos = _skip_ws(text, end)
        if pos < len(text) and text[pos] == ",":
            pos = _skip_ws(text, pos + 1)


def _elements(text: str, pos: int) -> Iterator[tuple[int, int]]:
    """(start, end) of each element of the JSON array at `pos`, without recursion."""
    pos = _skip_ws(text, pos + 1)
    while pos < len(text) and text[pos] != "]":
        end = _value_end(text, pos)
        yield pos, end
        pos = _skip_ws(text, end)
        if pos < len(text) and text[pos] == ",":
            pos = _skip_ws(text, pos + 1)
        elif end == pos and (pos >= len(text) or text[pos] != "]"):
            return  # no progress: malformed


def _value_end(text: str, pos: int) -> int:
    """Where the JSON value starting at `pos` ends: brackets counted, strings skipped."""
    depth, i, n = 0, pos, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
            if depth < 0:
                return i
            if depth == 0:
                return i + 1
        elif c == "," and depth == 0:
            return i
        i += 1
        if depth == 0 and text[i - 1] == '"':
            return i
    return n


def _skip_ws(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


def _neighbour(paper: object) -> Neighbour | None:
    """One cited or citing paper; None for null or empty entries (nothing to show)."""
    if not isinstance(paper, dict):
        return None
    title = paper.get("title")
    external = paper.get("externalIds")
    external = external if isinstance(external, dict) else {}
    year = paper.get("year")
    authors = paper.get("authors")
    authors = authors if isinstance(authors, list) else []
    title = fields.cut_text(title.strip(), fields.MAX_TITLE) if isinstance(title, str) and title.strip() else None
    arxiv_id = _arxiv_id(external.get("ArXiv"))
    if title is None and arxiv_id is None:
        return None
    names = [a["name"] for a in authors if isinstance(a, dict) and isinstance(a.get("name"), str) and a["name"].strip()]
    shown = [fields.cut_text(name, fields.MAX_SHORT) for name in names[: fields.MAX_AUTHORS]]
    if len(names) > len(shown):
        shown.append(fields.more_authors(len(names), len(shown)))
    return Neighbour(
        title=title,
        arxiv_id=arxiv_id,
        year=year if isinstance(year, int) and not isinstance(year, bool) else None,
        authors=shown,
    )


def _arxiv_id(raw: object) -> str | None:
    """S2's ArXiv external id normalised like ours; a value we cannot read is dropped."""
    if not isinstance(raw, str) or not raw.strip():
        return None
    try:
        return parse(raw).id
    except InvalidInput:
        log.debug("ignoring unreadable ArXiv external id from Semantic Scholar: %r", raw[:40])
        return None
