"""Found black-box in round 15, driving `python -m arxiv_mcp` through the SDK's stdio client (and
the in-process client) against a fake arXiv configured unlike the project's own: other ids and
versions, answers dripped slowly, several server processes on one home.
"""

from __future__ import annotations

import anyio
import pytest
from mcp.client import Client

from tests.conftest import html_paper
from tests.selecting import said, stdio_server

pytestmark = pytest.mark.anyio


SHARED_ASKS = [
    ("get_paper", {"paper_id": "2609.04321"}, "/api/query"),
    ("search_papers", {"query": "seed-guided mining"}, "/api/query"),
    ("category_trends", {"category": "cs.LG", "window_days": 7}, "/api/query"),
    ("get_citations", {"paper_id": "2609.04321"}, "/s2/graph/v1/paper/arXiv:2609.04321/citations"),
]


async def test_two_processes_asking_one_answer_fetch_it_once(fake, tmp_path):
    """Two servers on one home asked the same get_paper, search, trends or citations at once:
    the second asked again though the first was fetching the answer it would cache (get_paper's
    flight spans processes but its work did not look in the cache; search cached its answer
    after the flight; trends and citations had no flight), as list_new and read_paper do not."""
    fake.add(html_paper("2609.04321", "Seed-guided data mining", versions=2, citations=[]))

    async with (
        Client(stdio_server(fake, tmp_path / "home")) as first,
        Client(stdio_server(fake, tmp_path / "home")) as second,
    ):
        for tool, arguments, wanted in SHARED_ASKS:
            fake.clear_log()
            fake.fault(wanted, "drip_chunked", size=100, interval=0.2, times=2)  # a second or more
            answers: list = []

            async def ask(client: Client, tool=tool, arguments=arguments, answers=answers) -> None:
                answers.append(await client.call_tool(tool, arguments))

            async with anyio.create_task_group() as group:
                group.start_soon(ask, first)
                with anyio.fail_after(60):
                    while not fake.requests:  # the second asks while the first's answer is under way
                        await anyio.sleep(0.02)
                group.start_soon(ask, second)
            fake.clear_faults()
            assert len(answers) == 2 and not any(a.is_error for a in answers), [said(a) for a in answers]
            assert said(answers[0]).splitlines()[0] == said(answers[1]).splitlines()[0]
            assert [r.path for r in fake.requests] == [wanted], tool


@pytest.mark.parametrize(
    ("arguments", "named"),
    [
        ({"topic": "spin glasses", "max_papers": "abc"}, "max_papers must be a whole number from 1 to 50; got 'abc'"),
        ({"topic": "spin glasses", "max_papers": "-3"}, "max_papers must be a whole number from 1 to 50; got '-3'"),
        ({"topic": "spin glasses", "max_papers": "0"}, "max_papers must be a whole number from 1 to 50; got 0"),
        ({"topic": "spin glasses", "max_papers": "10000000"}, "max_papers must be a whole number from 1 to 50"),
        ({"topic": "   "}, "topic is empty"),
        ({"topic": "x" * 1_000_000}, "topic is 1,000,000 characters long; at most 1,000"),
    ],
    ids=["letters", "negative", "zero", "huge", "empty-topic", "megabyte-topic"],
)
async def test_the_review_prompt_refuses_arguments_it_cannot_use_in_one_line(connect, arguments, named):
    """prompts/get literature_review wrote "reading at most abc papers in full" for
    max_papers="abc" (and -3, 0), "Write a literature review on: " for a blank topic, and a
    megabyte topic back whole: each is now a one-line invalid-params error naming the argument."""
    from mcp import MCPError
    from mcp_types import INVALID_PARAMS

    from arxiv_mcp.errors import MAX_MESSAGE_BYTES

    async with connect() as client:
        with pytest.raises(MCPError) as err:
            await client.get_prompt("literature_review", arguments)
        kept = await client.get_prompt("literature_review", {"topic": "spin glasses", "max_papers": " 12 "})
    assert err.value.error.code == INVALID_PARAMS
    message = err.value.error.message
    assert message.startswith(named) and "literature_review (topic, max_papers)" in message, message
    assert len(message.encode()) <= MAX_MESSAGE_BYTES and "\n" not in message
    assert "reading at most 12 papers in full" in kept.messages[0].content.text


async def test_search_cached_for_an_id_says_whether_that_paper_is_cached(fake, connect):
    """search_cached("hep-th/9902002"), the paper not cached, listed a cached paper that cites
    hep-th papers (its words "hep" and "th" matched) and never said the one asked for is not
    there; a new-style id cited in a cached text did the same. An id asks for that paper."""
    citing = "We follow hep-th/9902002 and arXiv:1706.03762 closely, as the th-order terms show. " * 20
    fake.add(html_paper("2403.00011", "Strings and attention", sections=[("Introduction", citing)] * 3))
    async with connect() as client:
        assert not (await client.call_tool("read_paper", {"paper_id": "2403.00011v1"})).is_error
        fake.clear_log()
        answers = {
            query: await client.call_tool("search_cached", {"query": query})
            for query in ("hep-th/9902002", "arXiv:1706.03762", "2403.00011", "hep-th/9902002 2403.00011v1")
        }
        words = await client.call_tool("search_cached", {"query": "strings attention"})
    assert not fake.requests
    said_of = {query: said(answer) for query, answer in answers.items()}
    assert "as an arXiv id: hep-th/9902002 is not cached (get_paper or read_paper" in said_of["hep-th/9902002"], said_of
    assert "1706.03762 is not cached" in said_of["arXiv:1706.03762"], said_of
    assert "2403.00011 is cached (v1)" in said_of["2403.00011"], said_of
    assert "hep-th/9902002 is not cached" in said_of["hep-th/9902002 2403.00011v1"], said_of
    assert "2403.00011v1 is cached (v1)" in said_of["hep-th/9902002 2403.00011v1"], said_of
    assert not words.is_error and [hit["paper_id"] for hit in words.structured_content["hits"]] == ["2403.00011"]


@pytest.mark.parametrize(
    "uri",
    [
        "arxiv://paper/9999.99999",
        "arxiv://paper/2403.00012v7/text",
        "arxiv://paper/2403.00012v1/figure/99",
        "arxiv://trends/cs.LG/0/chart",
        "arxiv://trends/nope/30/chart",
    ],
)
async def test_a_resource_asked_wrongly_is_invalid_params_not_an_internal_error(fake, connect, uri):
    """A resource URI naming a malformed id, a version or figure the paper lacks, or a window
    or category out of range answered JSON-RPC -32603 (internal error: a server fault, in
    clients' words) though the message said what to fix; the SDK's code for a resource that
    does not exist is -32602."""
    from mcp import MCPError
    from mcp_types import INVALID_PARAMS

    fake.add(html_paper("2403.00012", "Sparse graphs"))
    async with connect() as client:
        with pytest.raises(MCPError) as err:
            await client.read_resource(uri)
    assert err.value.error.code == INVALID_PARAMS, err.value.error
    assert "\n" not in err.value.error.message


@pytest.mark.parametrize(
    "citation",
    [
        "J. Maldacena. The large N limit of superconformal field theories. hep-th/9711200 (1997)",
        "Maldacena J. The large N limit of superconformal field theories. [hep-th/9711200v3]",
    ],
)
async def test_a_citation_stating_a_bare_old_style_id_resolves_by_it(fake, connect, citation):
    """Physics bibliographies print old-style ids without "arXiv:" (`hep-th/9711200`), and
    the bibliography reader takes them; resolve_references did not: it searched the title
    with the id's words in it (ti:hep AND ... ti:9711200) and answered not_found."""
    from tests.conftest import paper

    fake.add(
        paper(
            "hep-th/9711200",
            "The Large N Limit of Superconformal Field Theories and Supergravity",
            year=1997,
            month=11,
            authors=["Juan M. Maldacena"],
        )
    )
    async with connect() as client:
        answer = await client.call_tool("resolve_references", {"references": [citation]})
    item = answer.structured_content["items"][0]
    assert item["verdict"] in ("exact", "likely") and item["arxiv_id"] == "hep-th/9711200", said(answer)
    assert [r.query.get("id_list") for r in fake.requests] == ["hep-th/9711200"]


@pytest.mark.parametrize("invisible", ["\u200b", "\ufeff", "\u2060", "\u00ad", "\u200d"])
async def test_an_id_pasted_with_an_invisible_character_is_read(fake, connect, invisible):
    """An id copied from a web page or a PDF often carries an invisible character (a zero-width
    space, a byte-order mark, a word joiner, a soft hyphen): get_paper refused
    "2403.00013\\u200b" as containing U+200B, a character the model cannot see to remove."""
    fake.add(html_paper("2403.00013", "Invisible marks"))
    async with connect() as client:
        answer = await client.call_tool("get_paper", {"paper_id": f"{invisible}2403.{invisible}00013{invisible}"})
        batch = await client.call_tool("export_bibtex", {"paper_ids": [f"2403.00013{invisible}"]})
    assert not answer.is_error and said(answer).startswith("[2403.00013v1] Invisible marks"), said(answer)
    assert not batch.is_error and "@misc{arxiv:2403.00013," in said(batch), said(batch)


async def test_a_versioned_read_that_finds_no_text_gives_advice_that_can_work(fake, connect):
    """read_paper("2501.00021v1") of a one-version paper whose HTML is an empty LaTeXML page,
    with no e-print and no PDF: every source failed, the reader then asked arXiv's API whether
    the paper exists (a request) and learned it has one version, yet answered "Try another
    version (cached: none)", advice that cannot work; a bare id's read says "It has no other
    version". The reader now makes the advice after that existence check."""
    from tests.conftest import paper
    from tests.fake_arxiv import NO_PDF

    empty = '<html><body><article class="ltx_document"></article></body></html>'
    fake.add(paper("2501.00021", "Empty page", year=2025, month=1, html=empty, pdf=NO_PDF))
    async with connect() as client:
        answer = await client.call_tool("read_paper", {"paper_id": "2501.00021v1"})
    assert answer.is_error and "/api/query" in [r.path for r in fake.requests]
    assert "Try another version" not in said(answer) and "It has no other version" in said(answer), said(answer)


@pytest.mark.parametrize("since", ["2030-01-01", "2030-01-01:5"])
async def test_list_new_refuses_a_cursor_from_the_future(fake, connect, since):
    """list_new(since="2030-01-01") answered "Nothing new since 2030-01-01" and handed the same
    cursor back as the one to pass next time: a mistyped year would hide every announcement
    until 2030. No feed can have been seen on a day that has not come; one line says so."""
    from datetime import UTC, datetime

    from arxiv_mcp.research.announcements import eastern_day
    from tests.fake_rss import FeedItem, feed_xml

    today = eastern_day(datetime.now(UTC))
    fake.feeds["cs.CV"] = feed_xml("cs.CV", today, [FeedItem("2612.00001", title="First new")])
    async with connect() as client:
        future = await client.call_tool("list_new", {"category": "cs.CV", "since": since})
        asked_for_it = list(fake.requests)
        kept = await client.call_tool("list_new", {"category": "cs.CV", "since": today.isoformat()})
    assert future.is_error and "\n" not in said(future) and asked_for_it == [], said(future)
    assert said(future).startswith(f"since={since!r} is after today"), said(future)
    assert not kept.is_error and kept.structured_content["cursor"] == today.isoformat()


async def test_a_version_past_the_fresh_latest_is_refused_without_a_request(fake, connect):
    """get_paper("2609.04322v9") right after get_paper("2609.04322") said v2 is the latest asked
    arXiv again (read_paper answers the same question from the fresh metadata, with no request)."""
    fake.add(html_paper("2609.04322", "Two versions", versions=2))
    async with connect() as client:
        assert not (await client.call_tool("get_paper", {"paper_id": "2609.04322"})).is_error
        fake.clear_log()
        answer = await client.call_tool("get_paper", {"paper_id": "2609.04322v9"})
    assert answer.is_error and "latest version of 2609.04322 is v2" in said(answer), said(answer)
    assert not fake.requests
