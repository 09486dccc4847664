"""Found black-box in round 14: the library tools (list_cached, search_cached, cache_stats, the
session tools, clear_cache) through the SDK's stdio client against `python -m arxiv_mcp`
reading the fake arXiv, which serves real recordings (see `selector_truth.py`):
- `html/arxiv_html_2501.12977v1_TRANSCRIBED_nbsp-lost.html`: arXiv's HTML of 2501.12977v1;
- `src/1605.03959.tar.gz`: the e-print of 1605.03959v1;
- `pdf/0908.0054v1.pdf`: the PDF of 0908.0054v1 (a 2009 REVTeX paper: no HTML, no e-print here).
The titles below are the ones these files print.
"""

from __future__ import annotations

import jsonschema
import pytest
from mcp.client import Client

from arxiv_mcp.cache.store import Cache
from arxiv_mcp.ids import PaperId
from tests.conftest import html_paper, paper
from tests.fake_arxiv import NO_PDF
from tests.selecting import said, stdio_server
from tests.selector_truth import FIXTURES

HTML_ID, TEX_ID, PDF_ID = "2501.12977", "1605.03959", "0908.0054"
TITLES = {
    HTML_ID: "DASCH: Bringing 100+ Years of Photographic Data into the 21st Century and Beyond",
    TEX_ID: "The ABC (in any D) of Logarithmic CFT",
    PDF_ID: "Ultra light bosonic dark matter and CMB",
}


def _recorded_papers():
    html = (FIXTURES / "html/arxiv_html_2501.12977v1_TRANSCRIBED_nbsp-lost.html").read_text(encoding="utf-8")
    eprint = (FIXTURES / "src/1605.03959.tar.gz").read_bytes()
    return [
        paper(HTML_ID, TITLES[HTML_ID], year=2025, month=1, html=html, pdf=NO_PDF),
        paper(TEX_ID, TITLES[TEX_ID], year=2016, month=5, source=eprint, pdf=NO_PDF),
        paper(PDF_ID, TITLES[PDF_ID], year=2009, month=8, pdf=(FIXTURES / "pdf/0908.0054v1.pdf").read_bytes()),
    ]


@pytest.fixture
def served(fake, tmp_path):
    for recorded in _recorded_papers():
        fake.add(recorded)
    return stdio_server(fake, tmp_path / "home")


async def _listed_titles(client: Client) -> dict[str, str | None]:
    listed = await client.call_tool("list_cached", {})
    assert not listed.is_error, said(listed)
    return {row["paper_id"]: row["title"] for row in listed.structured_content["papers"]}


@pytest.mark.anyio
async def test_a_read_records_the_title_its_source_gave(served, fake, tmp_path):
    """A paper read through its HTML page or its LaTeX (no metadata fetched) was listed as
    "(no title cached)", though the page and the e-print print the title; the title is kept
    without another request, and a new process still lists it, also when the index was lost.
    The PDF's text states no title: its bare-id read fetched the metadata, which names it."""
    async with Client(served) as client:
        asked = {}
        for pid in (HTML_ID, f"{TEX_ID}v1", PDF_ID):
            fake.clear_log()
            read = await client.call_tool("read_paper", {"paper_id": pid})
            assert not read.is_error, said(read)
            asked[pid] = [request.path for request in fake.requests]
        fake.clear_log()
        titles = await _listed_titles(client)
        listed = said(await client.call_tool("list_cached", {}))
        found = await client.call_tool("search_cached", {"query": "logarithmic photographic bosonic"})
        stats = await client.call_tool("cache_stats", {})
        assert fake.requests == []
    assert asked[HTML_ID] == [f"/html/{HTML_ID}"]  # the page named the version: no metadata asked
    assert asked[f"{TEX_ID}v1"] == [f"/e-print/{TEX_ID}v1"]
    assert titles == TITLES
    assert "(no title cached)" not in listed
    assert {hit["paper_id"]: hit["title"] for hit in found.structured_content["hits"]} == TITLES
    assert not stats.is_error and "3/" in said(stats)
    async with Client(served) as client:  # a new process reads the index from the disk
        assert await _listed_titles(client) == TITLES
    for index_file in ("index.json", "journal.jsonl"):  # lost: the index is rebuilt from the files
        (tmp_path / "home" / index_file).unlink(missing_ok=True)
    async with Client(served) as client:
        assert await _listed_titles(client) == TITLES


@pytest.mark.parametrize("meta_first", [True, False])
def test_the_metadata_title_wins_over_the_one_a_text_states(tmp_path, meta_first):
    """A text's opening title stands in for the metadata's only while there is none: arXiv's
    record names the version, and a heading may carry markup the record does not."""
    cache, pid = Cache(tmp_path / "home"), PaperId("2501.12977", 1)

    def put(tier: str) -> None:
        if tier == "meta":
            cache.put_meta(pid, {"title": "DASCH:  Bringing 100+ Years"}, latest=True)
        else:
            cache.put_text(pid, "# DASCH$^1$\n\nbody", method="html", extractor_version=1, title="DASCH$^1$")

    for tier in ("meta", "text") if meta_first else ("text", "meta"):
        put(tier)
    rows, _, _ = cache.list_page()
    assert [row.title for row in rows] == ["DASCH: Bringing 100+ Years"]


LIBRARY_CALLS = [
    ("list_cached", {}),
    ("list_cached", {"limit": 100, "offset": 1_000_000, "sort": "size"}),
    ("list_cached", {"limit": 10**12}),
    ("list_cached", {"sort": "title"}),
    ("list_cached", {"pinned_only": True, "session_id": "s1"}),
    ("list_cached", {"session_id": "../x"}),
    ("search_cached", {"query": "unicorn", "limit": 100}),
    ("search_cached", {"query": "the of"}),
    ("search_cached", {"query": "x" * 1001}),
    ("search_cached", {"query": "2403.00004"}),
    ("search_cached", {"query": "arXiv:2403.00004v3, 2403.00009"}),
    ("cache_stats", {"session_id": "s1"}),
    ("cache_stats", {"session_id": "nope"}),
    ("session_status", {"session_id": "s1"}),
    ("start_session", {"session_id": "x" * 65}),
    ("end_session", {"session_id": "s1"}),
    ("end_session", {"session_id": "s1"}),
    ("clear_cache", {"drop_pinned": "true"}),
    ("clear_cache", {}),
    ("list_cached", {"offset": 3}),
    ("search_cached", {"query": "2403.00004"}),
]


@pytest.fixture
def library(fake, tmp_path):
    fake.add(html_paper("2403.00004", "Unicorns in two versions", versions=2))
    return stdio_server(fake, tmp_path / "home")


@pytest.mark.anyio
async def test_the_library_tools_answer_odd_input_in_their_schema_or_one_line(library, fake):
    """Every library tool, on an empty and a filled cache, with limits out of range, unknown
    and malformed session ids and arXiv ids as a query: its structured content validates
    against its declared output schema, an error is one line, and no call asks arXiv."""
    async with Client(library) as client:
        schemas = {tool.name: tool.output_schema for tool in (await client.list_tools()).tools}
        await client.call_tool("start_session", {"session_id": "s1"})
        for pid in ("2403.00004v1", "2403.00004"):
            assert not (await client.call_tool("read_paper", {"paper_id": pid, "session_id": "s1"})).is_error
        fake.clear_log()
        answers = [(name, args, await client.call_tool(name, args)) for name, args in LIBRARY_CALLS]
        assert fake.requests == []
    for name, args, answer in answers:
        text = said(answer)
        if answer.is_error:
            assert text and "\n" not in text.strip(), (name, args, text)
        else:
            jsonschema.validate(answer.structured_content, schemas[name])
    by_id = [said(answer) for name, args, answer in answers if name == "search_cached" and "2403" in args["query"]]
    assert "2403.00004 is cached (v1, v2)" in by_id[0], by_id[0]
    assert "2403.00004v3 is not cached (v1, v2 are)" in by_id[1] and "2403.00009 is not cached" in by_id[1], by_id[1]
    assert "2403.00004 is not cached" in by_id[2], by_id[2]  # after clear_cache


@pytest.mark.anyio
async def test_papers_with_only_metadata_cached_are_not_promised_a_read_without_requests(fake, tmp_path):
    """After search_papers, list_cached and search_cached listed its hits (metadata only) and
    said "Next: read_paper on one of them (no arXiv request: they are cached)"; reading one
    then asked arXiv for its HTML, e-print and PDF."""
    fake.add(html_paper("2403.00003", "Attention for graphs"))
    fake.add(paper("2403.00005", "Attention for trees"))
    async with Client(stdio_server(fake, tmp_path / "home")) as client:
        await client.call_tool("search_papers", {"query": "attention"})
        listed = said(await client.call_tool("list_cached", {}))
        found = said(await client.call_tool("search_cached", {"query": "attention"}))
        fake.clear_log()
        await client.call_tool("read_paper", {"paper_id": "2403.00005v1"})
        assert fake.requests  # the promise was false
        mixed = said(await client.call_tool("list_cached", {}))
        await client.call_tool("read_paper", {"paper_id": "2403.00003v1"})
        fake.clear_log()
        read = said(await client.call_tool("list_cached", {}))
        await client.call_tool("read_paper", {"paper_id": "2403.00003v1"})
        assert fake.requests == []  # this promise holds
    assert listed.endswith("Next: read_paper on one of them fetches its text (only its metadata is cached)."), listed
    assert "(no arXiv request: they are cached)" not in found, found
    assert mixed.endswith("(no arXiv request for those cached with text; the others fetch it)."), mixed
    assert read.endswith("Next: read_paper on one of them (no arXiv request: their text is cached)."), read


@pytest.mark.anyio
async def test_cache_stats_says_how_many_open_sessions_it_does_not_name(fake, tmp_path):
    """With 23 sessions open, cache_stats said "23 open session(s): " and named 20 of them, as
    if those were all: the three left out could not be found to be ended."""
    async with Client(stdio_server(fake, tmp_path / "home")) as client:
        for number in range(23):
            await client.call_tool("start_session", {"session_id": f"task-{number:02d}"})
        stats = await client.call_tool("cache_stats", {})
    assert len(stats.structured_content["sessions"]) == 20
    assert "23 open session(s): task-22, task-21," in said(stats)
    assert "task-03, and 3 more used less recently (end_session releases a session's pins)" in said(stats), said(stats)
