"""arXiv unreachable: what is cached keeps being served, the rest fails fast and says why.

The cache is filled through a server talking to the fake; then a second server on the same
cache home points every upstream URL at a closed 127.0.0.1 port (or the fake is stopped
under the first server). Metadata lookups of "latest" use ARXIV_MCP_META_TTL_S=0, so every
one of them is past its lifetime: it must come back with `stale: true` instead of failing.
"""

from __future__ import annotations

import logging
import socket
import time

import pytest

from arxiv_mcp.service import ArxivService
from tests.conftest import html_paper, paper
from tests.fake_arxiv import eprint
from tests.test_faults import LATEX

pytestmark = pytest.mark.anyio

HTML_ID = "2403.00001"
SOURCE_ID = "2403.00002"
READ_ONLY_ID = "2403.00003"
UNCACHED = "2403.00099"
DEADLINE_S = 20
FAST_S = DEADLINE_S / 2
"""No call waits its deadline out. Far above the real figure (well under a second: a refused
connection, at most one 0.5 s retry) so a loaded machine cannot break it; that no call climbs
the back-off ladder is shown by counting its attempts, not by the clock."""


def corpus(fake):
    p = html_paper(HTML_ID, "Offline reading of graphs")
    p.references = [{"title": "A survey of the field", "year": 2019, "authors": ["A. Author"], "arxiv": None}]
    p.citations = []
    fake.add(p)
    fake.add(paper(SOURCE_ID, "Offline knots", source=eprint({"main.tex": LATEX})))
    fake.add(html_paper(READ_ONLY_ID, "Read by its bare id only"))
    fake.add(html_paper(UNCACHED, "Never fetched"))


def closed_port_urls() -> dict[str, str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    return {
        "ARXIV_MCP_API_URL": base + "/api/query",
        "ARXIV_MCP_SITE_URL": base,
        "ARXIV_MCP_AR5IV_URL": base + "/ar5iv",
        "ARXIV_MCP_S2_URL": base + "/s2/graph/v1",
        "ARXIV_MCP_RSS_URL": base + "/rss",
    }


SETTINGS = {"ARXIV_MCP_META_TTL_S": 0, "ARXIV_MCP_TIMEOUT_S": 1, "ARXIV_MCP_DEADLINE_S": DEADLINE_S}

# What the online server fetched, and the same calls answered offline.
CACHED_CALLS = [
    ("get_paper", {"paper_id": HTML_ID}),
    ("read_paper", {"paper_id": HTML_ID + "v1", "section": "outline"}),
    ("read_paper", {"paper_id": HTML_ID}),
    ("find_in_paper", {"paper_id": HTML_ID, "query": "unicorn"}),
    ("read_paper", {"paper_id": SOURCE_ID + "v1"}),
    ("find_in_paper", {"paper_id": HTML_ID + "v1", "query": "unicorn dataset"}),
    ("download_paper", {"paper_id": HTML_ID + "v1", "fmt": "pdf"}),
    ("download_paper", {"paper_id": HTML_ID, "fmt": "pdf"}),
    ("search_papers", {"query": "offline graphs"}),
    ("search_papers", {"id_list": [HTML_ID + "v1", SOURCE_ID + "v1"]}),
    ("export_bibtex", {"paper_ids": [HTML_ID]}),
    ("get_references", {"paper_id": HTML_ID}),
    ("search_cached", {"query": "unicorn"}),
    ("list_cached", {}),
    ("cache_stats", {}),
]
UNCACHED_CALLS = [
    ("get_paper", {"paper_id": UNCACHED}),
    ("read_paper", {"paper_id": UNCACHED + "v1"}),
    ("read_paper", {"paper_id": UNCACHED}),
    ("find_in_paper", {"paper_id": UNCACHED + "v1", "query": "graphs"}),
    ("download_paper", {"paper_id": UNCACHED + "v1", "fmt": "source"}),
    ("search_papers", {"query": "a search never made"}),
    ("search_papers", {"id_list": [UNCACHED + "v1"]}),
    ("export_bibtex", {"paper_ids": [UNCACHED]}),
    ("get_citations", {"paper_id": UNCACHED}),
    ("category_trends", {"category": "cs.LG"}),
    ("list_new", {"category": "cs.LG"}),
]


@pytest.fixture
def failed_attempts(caplog):
    """How many upstream attempts have failed so far, from the HTTP client's log: a refused
    connection gets one retry (after at most 0.5 s), then arXiv is known down for a while."""
    caplog.set_level(logging.INFO, logger="arxiv_mcp.upstream.http")

    def count() -> int:
        return sum(1 for r in caplog.records if r.name == "arxiv_mcp.upstream.http" and " attempt " in r.getMessage())

    return count


async def timed_call(client, failed_attempts, name, args):
    """A call's result, its wall-clock seconds, and how many upstream attempts it made."""
    attempts, started = failed_attempts(), time.monotonic()
    result = await client.call_tool(name, args)
    return result, time.monotonic() - started, failed_attempts() - attempts


async def fill(client):
    answers = {}
    for name, args in CACHED_CALLS:
        result = await client.call_tool(name, args)
        assert not result.is_error, (name, result.content[0].text)
        answers[(name, repr(args))] = result.structured_content
    return answers


def same_answer(offline: dict, online: dict) -> bool:
    """Equal but for freshness marks and the links, which follow the configured site URL."""

    def kept(answer: dict) -> dict:
        return {k: v for k, v in answer.items() if k not in ("stale", "cached", "method") and not k.endswith("_url")}

    return kept(offline) == kept(online)


async def check_offline(client, answers, failed_attempts):
    for name, args in CACHED_CALLS:
        result, took, attempts = await timed_call(client, failed_attempts, name, args)
        assert not result.is_error, (name, args, result.content[0].text)
        assert took < FAST_S and attempts <= 2, (name, took, attempts)
        online = answers[(name, repr(args))]
        if name == "export_bibtex":  # its url field follows the configured site
            assert result.structured_content["count"] == 1 and "Offline reading of graphs" in result.content[0].text
        elif name not in ("list_cached", "cache_stats", "search_cached"):
            assert same_answer(result.structured_content, online), name
    meta = await client.call_tool("get_paper", {"paper_id": HTML_ID})
    assert meta.structured_content["stale"] is True
    for name, args in UNCACHED_CALLS:
        result, took, attempts = await timed_call(client, failed_attempts, name, args)
        assert result.is_error, (name, args)
        text = result.content[0].text
        assert "unreachable" in text and result.meta["kind"] == "Unreachable", (name, text)
        assert took < FAST_S and attempts <= 2, (name, took, attempts)


async def test_a_server_started_offline_serves_the_cache_and_fails_fast(fake, make_config, connect, failed_attempts):
    corpus(fake)
    online = make_config(**SETTINGS)
    async with connect(config=online) as client:
        answers = await fill(client)
    offline = make_config(**SETTINGS, **closed_port_urls())
    assert offline.home == online.home
    before = len(fake.requests)
    async with connect(config=offline) as client:
        await check_offline(client, answers, failed_attempts)
    assert len(fake.requests) == before


async def test_arxiv_going_away_under_a_running_server(fake, make_config, connect, failed_attempts):
    corpus(fake)
    config = make_config(**SETTINGS)
    svc = ArxivService(config)
    async with connect(config=config, service=svc) as client:
        answers = await fill(client)
        fake.stop()
        await check_offline(client, answers, failed_attempts)


async def test_the_second_uncached_call_fails_at_once(fake, make_config, connect, failed_attempts):
    corpus(fake)
    async with connect(config=make_config(**SETTINGS, **closed_port_urls())) as client:
        first, first_took, first_attempts = await timed_call(
            client, failed_attempts, "get_paper", {"paper_id": UNCACHED}
        )
        second, _, attempts = await timed_call(client, failed_attempts, "read_paper", {"paper_id": UNCACHED + "v1"})
    assert first.is_error and first_took < FAST_S and first_attempts == 2  # a try, one retry
    # no attempt at all, so no retry sleep and no connection: arXiv is known down for a while
    assert second.is_error and attempts == 0
    assert "refused connections seconds ago" in second.content[0].text
    assert second.meta["retry_after_seconds"] > 0


async def test_a_paper_read_only_by_its_bare_id_is_read_offline(fake, make_config, connect):
    corpus(fake)
    async with connect(config=make_config(**SETTINGS)) as client:
        online = await client.call_tool("read_paper", {"paper_id": READ_ONLY_ID})
        assert not online.is_error
    async with connect(config=make_config(**SETTINGS, **closed_port_urls())) as client:
        result = await client.call_tool("read_paper", {"paper_id": READ_ONLY_ID})
    assert not result.is_error, result.content[0].text
    assert result.structured_content["text"] == online.structured_content["text"]


async def test_an_id_list_of_bare_cached_ids_works_offline(fake, make_config, connect):
    corpus(fake)
    async with connect(config=make_config(**SETTINGS)) as client:
        await fill(client)
    async with connect(config=make_config(**SETTINGS, **closed_port_urls())) as client:
        result = await client.call_tool("search_papers", {"id_list": [HTML_ID]})
    assert not result.is_error, result.content[0].text
    assert [p["id"] for p in result.structured_content["papers"]] == [HTML_ID]
