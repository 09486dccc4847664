"""ArxivApi against the fake: how an answer is read by its status, and how paging stops."""

from __future__ import annotations

import pytest

from arxiv_mcp.errors import InvalidInput, UpstreamError
from arxiv_mcp.upstream.arxiv_api import ArxivApi
from arxiv_mcp.upstream.http import HttpClient, Transport
from arxiv_mcp.upstream.rate_limiter import RateLimiter
from tests.conftest import paper


@pytest.fixture
def api(make_config, fake):
    config = make_config()
    http = HttpClient(config, Transport(config), RateLimiter(0.0), RateLimiter(0.0), sleep=lambda _s: None)
    return ArxivApi(http, fake.api_url)


@pytest.fixture
def twelve(fake):
    for i in range(12):
        fake.add(paper(f"2403.{i + 1:05d}", f"Graph kernels part {i}", categories=["math.CO"]))
    return fake


def test_a_feed_is_read_into_papers(api, twelve):
    feed = api.by_ids(["2403.00003", "2403.00005"])
    assert sorted(p.id for p in feed.papers) == ["2403.00003", "2403.00005"]
    [req] = twelve.requests_to("/api/query")
    assert req.query == {"id_list": "2403.00003,2403.00005", "start": "0", "max_results": "2"}


def test_ids_with_a_query_send_both(api, twelve):
    feed = api.by_ids(["2403.00003", "2403.00005"], "ti:nothinglikethis")
    assert feed.papers == []
    [req] = twelve.requests_to("/api/query")
    assert req.query["search_query"] == "ti:nothinglikethis" and req.query["id_list"] == "2403.00003,2403.00005"


def test_an_error_feed_is_invalid_input(api, twelve):
    with pytest.raises(InvalidInput):
        api.search("ti:(unbalanced", 0, 10, "relevance", "descending")


def test_another_status_is_an_upstream_error_with_the_status(api, twelve):
    twelve.fault("/api/query", "status", status=404, times=5)
    with pytest.raises(UpstreamError) as err:
        api.search("cat:math.CO", 0, 10, "relevance", "descending")
    assert err.value.status == 404


def test_pages_stop_at_the_last_result(api, twelve):
    feeds = list(api.pages("cat:math.CO", sort_by="submittedDate", sort_order="descending", page_size=5, limit=100))
    assert [len(f.papers) for f in feeds] == [5, 5, 2]
    assert len({p.id for f in feeds for p in f.papers}) == 12
    asked = [(r.query["start"], r.query["max_results"]) for r in twelve.requests_to("/api/query")]
    assert asked == [("0", "5"), ("5", "5"), ("10", "5")]


def test_pages_stop_at_the_limit_and_ask_only_for_what_is_left(api, twelve):
    feeds = list(api.pages("cat:math.CO", sort_by="submittedDate", sort_order="descending", page_size=5, limit=7))
    assert sum(len(f.papers) for f in feeds) == 7
    asked = [(r.query["start"], r.query["max_results"]) for r in twelve.requests_to("/api/query")]
    assert asked == [("0", "5"), ("5", "2")]


def test_pages_are_lazy(api, twelve):
    pages = api.pages("cat:math.CO", sort_by="submittedDate", sort_order="descending", page_size=5, limit=100)
    next(pages)
    assert len(twelve.requests_to("/api/query")) == 1


def test_an_empty_page_ends_paging(api, fake):
    feeds = list(api.pages("cat:math.CO", sort_by="submittedDate", sort_order="descending", page_size=5, limit=100))
    assert [len(f.papers) for f in feeds] == [0]
