"""Upstream answers that lie about their size are bounded: results cut to what was asked,
fields to sane lengths, and the cut said; lone surrogates in upstream text repaired.

Each lie is served by the fake (a canned 200 body) and read through the MCP client."""

from __future__ import annotations

import json
import time

import pytest

from arxiv_mcp.upstream import fields
from tests.conftest import paper
from tests.fake_arxiv import atom_entry, atom_feed

pytestmark = pytest.mark.anyio

PID = "2403.00001"
BOUND_S = 30.0
"""Generous: the point is that the call answers, small, not how fast (benchmarks time it)."""


def feed_of(papers) -> bytes:
    return atom_feed("all:x", "", 0, 10, len(papers), [atom_entry(p, 1) for p in papers])


def text_of(result) -> str:
    return result.content[0].text


async def test_a_feed_holding_20000_entries_for_10_asked_gives_10_and_says_so(fake, connect):
    entry = atom_entry(paper(PID, "Paper number N"), 1)
    entries = [entry.replace(PID, f"2403.{i:05d}") for i in range(1, 20001)]
    fake.fault("/api/", "malformed", body=atom_feed("all:x", "", 0, 10, 20000, entries))
    async with connect() as client:
        started = time.monotonic()
        result = await client.call_tool("search_papers", {"query": "x", "max_results": 10})
        took = time.monotonic() - started
        assert not result.is_error, text_of(result)
        assert len(result.structured_content["papers"]) == 10
        assert "19990 more entries than asked for" in result.structured_content["note"]
        assert took < BOUND_S
        listed = await client.call_tool("list_cached", {})
        assert len(listed.structured_content["papers"]) <= 10  # the other 19,990 were never stored


async def test_an_entry_with_a_5_mb_title_and_20000_authors_is_cut_and_says_so(fake, connect):
    liar = paper(
        PID, "T" * 5_000_000, authors=[f"Author {i}" for i in range(20_000)], abstract="A" * 2_000_000, pdf=None
    )
    fake.fault("/api/", "malformed", body=feed_of([liar]))
    async with connect() as client:
        result = await client.call_tool("get_paper", {"paper_id": PID})
        assert not result.is_error, text_of(result)
        data = result.structured_content
        assert len(data["title"]) < fields.MAX_TITLE + 60 and "[cut: 5,000,000 characters in all]" in data["title"]
        assert len(data["abstract"]) < fields.MAX_ABSTRACT + 60 and "cut: 2,000,000" in data["abstract"]
        names = [a["name"] for a in data["authors"]]
        assert len(names) == fields.MAX_AUTHORS + 1 and names[-1] == f"and {20_000 - fields.MAX_AUTHORS} more"
        assert len(text_of(result)) < 100_000
        bib = await client.call_tool("export_bibtex", {"paper_ids": [PID]})
        assert " and others}" in text_of(bib)


def s2_page(count: int, title: str = "Cited work") -> bytes:
    items = [
        {"citedPaper": {"paperId": f"p{i}", "title": f"{title} {i}", "year": 2020, "authors": []}} for i in range(count)
    ]
    return json.dumps({"offset": 0, "data": items}).encode()


async def test_semantic_scholar_answering_5000_items_for_limit_10_passes_10(fake, connect):
    fake.add(paper(PID, "Cited", citations=[], references=[]))
    fake.fault("/s2/", "malformed", body=s2_page(5000))
    async with connect() as client:
        result = await client.call_tool("get_references", {"paper_id": PID, "limit": 10})
        assert not result.is_error, text_of(result)
        assert len(result.structured_content["neighbours"]) == 10
        assert result.structured_content["has_more"] is True and "more exist" in text_of(result)


async def test_a_lone_surrogate_in_a_semantic_scholar_title_is_repaired(fake, connect):
    fake.add(paper(PID, "Cited", citations=[], references=[]))
    body = s2_page(2).replace(b"Cited work 0", b"Broken \\ud800 title")
    fake.fault("/s2/", "malformed", body=body)
    async with connect() as client:
        result = await client.call_tool("get_references", {"paper_id": PID, "limit": 10})
        assert not result.is_error, text_of(result)
        titles = [n["title"] for n in result.structured_content["neighbours"]]
        assert "Broken \ufffd title" in titles
        text_of(result).encode("utf-8")  # the whole answer encodes


async def test_surrogates_in_an_atom_feed_are_repaired_not_fatal(fake, connect):
    good = feed_of([paper(PID, "Broken MARK title")])
    fake.fault("/api/", "malformed", body=good.replace(b"MARK", b"&#xD800; \xed\xa0\x80 &#55296;"))
    async with connect() as client:
        result = await client.call_tool("get_paper", {"paper_id": PID})
        assert not result.is_error, text_of(result)
        assert result.structured_content["title"].count("\ufffd") >= 3
