"""What our own texts tell a model to do works, through a real MCP client against the fake
arXiv: the prompt's and SKILL.md's workflow with one session_id on every call, a batch with a
malformed id, ids as pasted from other sites, and no dead ends (zero hits, no passage)."""

from __future__ import annotations

import pytest

from tests.conftest import cited_paper, paper

pytestmark = pytest.mark.anyio


@pytest.fixture
def corpus(fake):
    fake.add(cited_paper())
    fake.add(paper("2401.00001", "Other graphs"))
    fake.add(paper("hep-th/9901001", "Strings", year=1999, month=1))
    return fake


def ok(result) -> dict:
    assert not result.is_error, result.content[0].text
    return result.structured_content


async def test_the_review_workflow_passes_session_id_to_every_tool(corpus, connect):
    """Every tool takes session_id; where it fetches papers it pins them, a search does not."""
    async with connect() as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert all("session_id" in t.input_schema["properties"] for t in tools.values())
        sid = ok(await client.call_tool("start_session", {"session_id": "review"}))["session_id"]
        calls = [
            ("list_categories", {"group": "cs"}),
            ("category_trends", {"category": "cs.LG", "window_days": 3}),
            ("search_papers", {"query": "graphs"}),
            ("search_papers", {"id_list": ["2401.00001"]}),
            ("get_citations", {"paper_id": "2403.00003"}),
            ("get_references", {"paper_id": "2403.00003"}),
            ("cache_stats", {}),
            ("list_cached", {}),
            ("search_cached", {"query": "graphs"}),
            ("clear_cache", {}),
        ]
        for name, args in calls:
            ok(await client.call_tool(name, {**args, "session_id": sid}))
        assert ok(await client.call_tool("session_status", {"session_id": sid}))["pinned"] == []
        pinning = [
            ("read_paper", {"paper_id": "2403.00003", "section": "outline"}),
            ("find_in_paper", {"paper_id": "2403.00003", "query": "unicorn"}),
            ("export_bibtex", {"paper_ids": ["2401.00001"]}),
            ("download_paper", {"paper_id": "hep-th/9901001"}),
        ]
        for name, args in pinning:
            ok(await client.call_tool(name, {**args, "session_id": sid}))
        pinned = ok(await client.call_tool("session_status", {"session_id": sid}))["pinned"]
        assert sorted(pinned) == ["2401.00001v1", "2403.00003v1", "hep-th/9901001v1"]
        ok(await client.call_tool("end_session", {"session_id": sid}))
        stale = await client.call_tool("cache_stats", {"session_id": sid})
    assert stale.is_error and "start_session" in stale.content[0].text


async def test_one_malformed_id_never_sinks_a_batch(corpus, connect):
    batch = ["2403.00003", "2413.00001", "2401.99999", "not an id"]
    async with connect() as client:
        bib = ok(await client.call_tool("export_bibtex", {"paper_ids": batch}))
        bib_text = (await client.call_tool("export_bibtex", {"paper_ids": batch})).content[0].text
        found = await client.call_tool("search_papers", {"id_list": batch})
        filtered = ok(await client.call_tool("search_papers", {"id_list": batch, "category": "cs.LG"}))
        none_valid = await client.call_tool("export_bibtex", {"paper_ids": ["2413.00001", "x"]})
    assert bib["count"] == 1 and "arxiv:2403.00003" in bib["bibtex"] and bib["missing_ids"] == ["2401.99999"]
    assert [line.split(":")[0] for line in bib["invalid_ids"]] == ["'2413.00001'", "'not an id'"]
    assert "month 13" in bib["invalid_ids"][0] and "month 13" in bib_text
    s = ok(found)
    assert [p["id"] for p in s["papers"]] == ["2403.00003"] and s["missing_ids"] == ["2401.99999"]
    assert len(s["invalid_ids"]) == 2 and "Not arXiv ids" in found.content[0].text
    assert [p["id"] for p in filtered["papers"]] == ["2403.00003"] and len(filtered["invalid_ids"]) == 2
    assert none_valid.is_error and "month 13" in none_valid.content[0].text


PASTED = [
    "[arXiv:2403.00003](https://www.arxiv.org/abs/2403.00003).",
    "[arXiv:2403.00003](https://example.org/slides)",
    "arXiv:2403.00003v1 [cs.LG] 5 Mar 2024",
    "https://huggingface.co/papers/2403.00003",
    "https://www.alphaxiv.org/abs/2403.00003",
    "alphaxiv.org/overview/2403.00003v1",
    "https://www.semanticscholar.org/arxiv/2403.00003",
    "https://paperswithcode.com/paper/2403.00003",
    "https://scholar.archive.org/search?q=arxiv:2403.00003",
]


@pytest.mark.parametrize("pasted", PASTED)
async def test_ids_pasted_from_other_sites_work_in_every_tool_taking_one(corpus, connect, pasted):
    one = {"paper_id": pasted}
    calls = [
        ("get_paper", one),
        ("read_paper", {**one, "section": "outline"}),
        ("find_in_paper", {**one, "query": "unicorn"}),
        ("download_paper", one),
        ("get_references", one),
        ("get_citations", one),
        ("export_bibtex", {"paper_ids": [pasted]}),
        ("search_papers", {"id_list": [pasted]}),
        ("search_papers", {"query": pasted}),
    ]
    async with connect() as client:
        for name, args in calls:
            s = ok(await client.call_tool(name, args))
            shown = str(s.get("paper_id") or s.get("id") or s.get("bibtex") or s.get("papers"))
            assert "2403.00003" in shown, (name, s)


async def test_old_style_stamp_and_resource_uri_with_a_slash(corpus, connect):
    async with connect() as client:
        stamp = ok(await client.call_tool("get_paper", {"paper_id": "arXiv:hep-th/9901001v1  1 Jan 1999"}))
        card = await client.read_resource("arxiv://paper/hep-th/9901001")
        text = await client.read_resource("arxiv://paper/hep-th/9901001v1/text")
    assert (stamp["id"], stamp["version"]) == ("hep-th/9901001", 1)
    assert "Strings" in card.contents[0].text and text.contents[0].text


async def test_a_page_without_an_arxiv_id_is_refused_with_what_to_paste(corpus, connect):
    async with connect() as client:
        r = await client.call_tool("get_paper", {"paper_id": "https://paperswithcode.com/paper/attention-is-all"})
    assert r.is_error and "carries no arXiv id" in r.content[0].text and corpus.requests == []


async def test_a_leading_minus_excludes_and_a_lone_one_is_refused(corpus, connect):
    async with connect() as client:
        s = ok(await client.call_tool("search_papers", {"query": "graphs -attention"}))
        lone = await client.call_tool("search_papers", {"query": "-graphs"})
    assert s["query"] == "(all:graphs ANDNOT all:attention)"
    assert [p["id"] for p in s["papers"]] == ["2401.00001"]
    assert lone.is_error and "only excludes" in lone.content[0].text


async def test_nothing_is_a_dead_end(corpus, connect):
    async with connect() as client:
        none = await client.call_tool("search_papers", {"query": "zebra walrus", "date_from": "2020-01-01"})
        first = ok(await client.call_tool("read_paper", {"paper_id": "2403.00003"}))
        miss = await client.call_tool("find_in_paper", {"paper_id": "2403.00003", "query": "okapi"})
        again = await client.call_tool("read_paper", {"paper_id": "2403.00003"})
    s = ok(none)
    assert s["total_results"] == 0 and "fewer or broader words" in s["note"] and "date range" in s["note"]
    assert "fewer or broader words" in none.content[0].text
    text = miss.content[0].text
    assert ok(miss)["total_matches"] == 0 and 'section="outline"' in text and "other words" in text
    assert (first["method"], first["cached"]) == ("html", False)
    assert (again.structured_content["method"], again.structured_content["cached"]) == ("html", True)
    assert "from html (cached)" in again.content[0].text
