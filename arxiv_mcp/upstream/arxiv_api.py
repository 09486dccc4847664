"""arXiv's query API: ask, read the status, page through the results.

One object owns the protocol so every caller reads an answer the same way: 200 is a feed,
400 is arXiv's error feed (the request was malformed: InvalidInput), anything else is an
upstream failure worth retrying later. Shaped after arxiv.py's `Client.results()`: a query
is a value, and paging is a generator that stops as soon as the caller has enough.
API manual: https://info.arxiv.org/help/api/user-manual.html
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..errors import InvalidInput, UpstreamError
from .atom import Feed, parse_feed

if TYPE_CHECKING:
    from .http import HttpClient


class ArxivApi:
    def __init__(self, http: HttpClient, api_url: str):
        self.http = http
        self.api_url = api_url

    def query(self, params: dict[str, str]) -> Feed:
        """One request to the API with `params`, read by its status."""
        resp = self.http.get(self.api_url, params=params)
        if resp.status == 200:  # never more entries than asked for, whatever the feed holds
            return parse_feed(resp.content, limit=int(params.get("max_results", "0")) or None)
        if resp.status == 400:
            parse_feed(resp.content)  # arXiv's error feed says what was wrong: InvalidInput
            raise InvalidInput("arXiv rejected the request as malformed; check the ids and the query syntax.")
        raise UpstreamError(f"arXiv's API answered HTTP {resp.status}; try again in a minute.", status=resp.status)

    def by_ids(self, wire_ids: list[str], search_query: str | None = None) -> Feed:
        """The entries of `wire_ids` in one request (only those matching `search_query`, if given)."""
        params = {"id_list": ",".join(wire_ids), "start": "0", "max_results": str(len(wire_ids))}
        if search_query is not None:
            params = {"search_query": search_query, **params}
        return self.query(params)

    def search(self, search_query: str, start: int, max_results: int, sort_by: str, sort_order: str) -> Feed:
        """One page of a search."""
        return self.query(search_params(search_query, start, max_results, sort_by, sort_order))

    def pages(self, search_query: str, *, sort_by: str, sort_order: str, page_size: int, limit: int) -> Iterator[Feed]:
        """Successive pages of a search, until `limit` entries, the last result, or an empty page."""
        fetched = 0
        while fetched < limit:
            feed = self.search(search_query, fetched, min(page_size, limit - fetched), sort_by, sort_order)
            yield feed
            fetched += len(feed.papers)
            if not feed.papers or fetched >= feed.total_results:
                return


def search_params(search_query: str, start: int, max_results: int, sort_by: str, sort_order: str) -> dict[str, str]:
    """The query string of one search page (also the key its cached answer is stored under)."""
    return {
        "search_query": search_query,
        "start": str(start),
        "max_results": str(max_results),
        "sortBy": sort_by,
        "sortOrder": sort_order,
    }
