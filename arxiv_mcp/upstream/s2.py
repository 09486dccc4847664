"""References and citations of an arXiv paper, from the Semantic Scholar Graph API.

Endpoints: https://api.semanticscholar.org/api-docs/graph (`/paper/arXiv:ID/references`,
`/paper/arXiv:ID/citations`). The API key, when configured, travels only in the
`x-api-key` header that `HttpClient` adds; nothing here ever sees or echoes it.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Protocol

from .. import bounds
from ..errors import InvalidInput, NotFound, Throttled, UpstreamError
from ..ids import PaperId, parse

if TYPE_CHECKING:
    from .http import HttpClient

log = logging.getLogger(__name__)

DIRECTIONS = {"references": "citedPaper", "citations": "citingPaper"}
CACHE_TTL_S = 600.0
FIELDS = "title,year,externalIds,authors"


class AnswerCache(Protocol):
    def get_search(self, key: str) -> dict | None: ...

    def put_search(self, key: str, value: dict, ttl_s: float) -> None: ...


def neighbours(
    http: HttpClient, s2_url: str, pid: PaperId, direction: str, limit: int = 10, *, cache: AnswerCache | None = None
) -> dict:
    """The first `limit` papers this one cites (`references`) or that cite it (`citations`)."""
    if direction not in DIRECTIONS:
        raise InvalidInput(f"direction={direction!r} is not supported: use 'references' or 'citations'")
    bounds.LIMIT.check(limit)
    key = f"s2:{direction}:{pid.id}:{limit}"
    if cache is not None:
        cached = cache.get_search(key)
        if cached is not None:
            return cached
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
    result = {"paper_id": pid.id, "direction": direction, **_parse_page(resp.content, DIRECTIONS[direction])}
    if cache is not None:
        cache.put_search(key, result, CACHE_TTL_S)
    return result


def _parse_page(content: bytes, side: str) -> dict:
    try:
        page = json.loads(content)
    except (ValueError, UnicodeDecodeError):
        page = None
    if not isinstance(page, dict) or not isinstance(page.get("data"), list):
        raise UpstreamError(
            "Semantic Scholar answered with something that is not a page of papers "
            "(malformed JSON); try again in a minute."
        )
    found = [_neighbour(item.get(side)) for item in page["data"] if isinstance(item, dict)]
    return {"neighbours": [n for n in found if n is not None], "has_more": page.get("next") is not None}


def _neighbour(paper: object) -> dict | None:
    """One cited or citing paper; None for null or empty entries (nothing to show)."""
    if not isinstance(paper, dict):
        return None
    title = paper.get("title")
    external = paper.get("externalIds")
    external = external if isinstance(external, dict) else {}
    year = paper.get("year")
    authors = paper.get("authors")
    authors = authors if isinstance(authors, list) else []
    title = title.strip() if isinstance(title, str) and title.strip() else None
    arxiv_id = _arxiv_id(external.get("ArXiv"))
    if title is None and arxiv_id is None:
        return None
    return {
        "title": title,
        "arxiv_id": arxiv_id,
        "year": year if isinstance(year, int) and not isinstance(year, bool) else None,
        "authors": [
            a["name"] for a in authors if isinstance(a, dict) and isinstance(a.get("name"), str) and a["name"].strip()
        ],
    }


def _arxiv_id(raw: object) -> str | None:
    """S2's ArXiv external id normalised like ours; a value we cannot read is dropped."""
    if not isinstance(raw, str) or not raw.strip():
        return None
    try:
        return parse(raw).id
    except InvalidInput:
        log.debug("ignoring unreadable ArXiv external id from Semantic Scholar: %r", raw[:40])
        return None
