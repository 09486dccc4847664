"""What any MCP client sees: one-line argument errors, error results without structured
content, portable schemas that show every bound, truthful annotations, and text renderings
written for a model (no JSON repeated, ISO 8601 times, the next step)."""

from __future__ import annotations

import json
import re
from datetime import date

import pytest

from arxiv_mcp import bounds
from arxiv_mcp.tool_groups import TOOL_GROUPS
from tests.conftest import html_paper, paper
from tests.fake_rss import FeedItem, feed_xml
from tests.test_schemas import CALLS

pytestmark = pytest.mark.anyio


def _walk(schema):
    if isinstance(schema, dict):
        yield schema
        for value in schema.values():
            yield from _walk(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _walk(value)


async def _tools(client):
    return {t.name: t for t in (await client.list_tools()).tools}


async def test_error_results_have_no_structured_content_and_say_the_wait(fake, connect, make_config):
    fake.fault("/api/query", "status", status=503, retry_after="7", times=10)
    async with connect(make_config(ARXIV_MCP_DEADLINE_S=30)) as client:
        unknown = await client.call_tool("session_status", {"session_id": "nope"})
        throttled = await client.call_tool("get_paper", {"paper_id": "2401.00001"})
    for result in (unknown, throttled):
        assert result.is_error and result.structured_content is None
    assert unknown.meta["kind"] == "NotFound" or unknown.meta["kind"] == "InvalidInput"
    wait = throttled.meta["retry_after_seconds"]
    assert wait > 0 and f"retry_after_seconds={wait:g}" in throttled.content[0].text
    assert throttled.meta["status"] == 503


@pytest.mark.parametrize(
    "tool, args, expected",
    [
        (
            "read_paper",
            {"paper_id": "2401.00010", "offset": 3},
            "read_paper has no argument 'offset' (did you mean page?)",
        ),
        ("read_paper", {"paper_id": "2401.00010", "max_chars": 900}, "(did you mean page_size?)"),
        ("get_paper", {"arxiv_id": "2401.00010"}, "(did you mean paper_id?)"),
        ("get_paper", {"id_or_url": "2401.00010"}, "(did you mean paper_id?)"),
        ("export_bibtex", {"ids": ["2401.00010"]}, "(did you mean paper_ids?)"),
        ("search_papers", {"ids": ["2401.00010"]}, "(did you mean id_list?)"),
        ("get_paper", {}, "get_paper needs paper_id: a string (arXiv id, URL or DOI"),
        ("get_paper", {"paper_id": 2401.0001}, 'quote ids, e.g. "2401.00010"'),
        ("read_paper", {"paper_id": "2401.00010", "page": "two"}, "page must be a whole number of 1 or more"),
        ("clear_cache", {"drop_pinned": "yes"}, "drop_pinned must be true or false"),
        ("export_bibtex", {"paper_ids": "2401.00010"}, "paper_ids must be a list of strings"),
        ("search_papers", {"max_results": 5000}, "max_results must be a whole number from 1 to 2000; got 5000."),
        ("search_papers", {"query": "x", "sort_by": "date"}, "sort_by must be one of relevance, submittedDate, "),
        ("download_paper", {"paper_id": "2401.00010", "fmt": "docx"}, "fmt must be one of pdf, source ("),
        ("list_cached", {"sort": "newest"}, "sort must be one of recent, size, id ("),
    ],
)
async def test_argument_mistakes_get_one_actionable_line(connect, tool, args, expected):
    async with connect() as client:
        result = await client.call_tool(tool, args)
    text = result.content[0].text
    assert result.is_error and expected in text, text
    assert "\n" not in text and "pydantic" not in text and "http" not in text, text
    if "no argument" in text:
        assert "its arguments: " in text  # names the valid ones


async def test_a_null_argument_means_not_given(fake, connect):
    fake.add(html_paper("2401.00010", "Sparse attention"))
    async with connect() as client:
        result = await client.call_tool("read_paper", {"paper_id": "2401.00010", "page": None, "section": None})
    assert not result.is_error and result.structured_content["page"] == 1


async def test_schemas_are_portable_described_and_show_each_bound(connect):
    async with connect() as client:
        tools = await _tools(client)
    shown = {}
    for tool in tools.values():
        for node in _walk([tool.input_schema, tool.output_schema]):
            assert not isinstance(node.get("type"), list), (tool.name, node)
        for name, prop in tool.input_schema["properties"].items():
            assert prop.get("description"), (tool.name, name)
            assert "anyOf" not in prop and "type" in prop, (tool.name, name)
            limits = {k: v for k, v in prop.items() if k in ("minimum", "maximum", "minItems", "maxItems")}
            if limits:
                shown.setdefault(name, []).append(limits)
    declared = {b.name: b.schema() for b in vars(bounds).values() if isinstance(b, (bounds.Bound, bounds.CountBound))}
    assert set(shown) == set(declared)
    for name, seen in shown.items():
        assert all(limits == declared[name] for limits in seen), name


@pytest.mark.parametrize(
    "tool, args, bound",
    [
        ("read_paper", {"paper_id": "2401.00010", "page_size": 10}, bounds.PAGE_SIZE),
        ("read_paper", {"paper_id": "2401.00010", "page": 0}, bounds.PAGE),
        ("find_in_paper", {"paper_id": "2401.00010", "query": "x", "max_hits": 0}, bounds.MAX_HITS),
        ("search_papers", {"query": "x", "start": -1}, bounds.START),
        ("search_cached", {"query": "x", "limit": 101}, bounds.LIMIT),
        ("get_references", {"paper_id": "2401.00010", "limit": 0}, bounds.LIMIT),
        ("category_trends", {"category": "cs.LG", "window_days": 400}, bounds.WINDOW_DAYS),
        ("export_bibtex", {"paper_ids": []}, bounds.PAPER_IDS),
    ],
)
async def test_every_bound_has_one_wording(fake, connect, tool, args, bound):
    async with connect() as client:
        result = await client.call_tool(tool, args)
    text = result.content[0].text
    assert result.is_error and text.startswith(f"{bound.name} "), text
    if isinstance(bound, bounds.Bound):
        assert f"{bound.name} must be {bound.accepts()}; got " in text
    assert fake.requests_to("/") == []  # refused before any upstream request


async def test_annotations_tell_the_truth(connect):
    async with connect() as client:
        tools = await _tools(client)
    writers = {"download_paper", "start_session", "end_session", "clear_cache"}
    for name, tool in tools.items():
        hints = tool.annotations
        assert hints.read_only_hint is (name not in writers), name
        assert hints.destructive_hint is (True if name == "clear_cache" else (False if name in writers else None))
    assert tools["start_session"].annotations.idempotent_hint is False
    offline = {n for n, t in tools.items() if t.annotations.open_world_hint is False}
    # the library group works on this machine but for the two tools that fetch; categories are a shipped table
    assert offline == (set(TOOL_GROUPS["library"]) - {"download_paper", "mirror_status"}) | {"list_categories"}


async def test_text_is_written_for_a_model(fake, connect):
    fake.add(html_paper("2403.00003", "Attention for graphs", references=[], citations=[]))
    fake.add(html_paper("2403.00004", "Two versions", versions=2))  # compare_versions' paper in CALLS
    for n in range(1, 4):
        fake.add(paper(f"2401.0000{n}", f"Attention paper {n}"))
    fake.feeds["cs.CV"] = feed_xml("cs.CV", date(2026, 12, 7), [FeedItem("2612.00001")])
    async with connect() as client:
        texts = {}
        for name, args in CALLS:
            result = await client.call_tool(name, args)
            assert not result.is_error, (name, result.content[0].text)
            texts.setdefault(name, result.content[0].text)
        page = await client.call_tool("search_papers", {"query": "attention", "max_results": 1})
    for name, text in texts.items():
        with pytest.raises(json.JSONDecodeError):
            json.loads(text)  # never the structured content again
        assert not re.search(r"\b1[6-9]\d{8}\.\d+", text), (name, text)  # no epoch floats
    assert re.search(r"created \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", texts["start_session"])
    assert len(texts["list_categories"].encode()) < 3000  # 'math' group: lines, not JSON
    assert "next: start=1" in page.content[0].text
    assert 'section="outline"' in texts["read_paper"] and "Next:" in texts["get_paper"]


async def test_the_published_schema_is_the_compacted_one(connect):
    """Pins the SDK behaviour server.py relies on: a `Tool` built with Tool.from_function and
    edited before `MCPServer(tools=...)` is what tools/list publishes. Fails loudly when the
    SDK starts regenerating schemas."""
    async with connect() as client:
        tools = await _tools(client)
    read = tools["read_paper"]
    assert read.input_schema["properties"]["section"]["type"] == "string"  # no anyOf null
    assert all("title" not in node for node in _walk(read.input_schema["properties"]))
    assert read.output_schema["properties"]["section"] == {"anyOf": [{"type": "string"}, {"type": "null"}]}


def test_no_private_sdk_attribute_is_used():
    from pathlib import Path

    source = (Path(__file__).resolve().parents[1] / "arxiv_mcp" / "server.py").read_text(encoding="utf-8")
    assert not re.search(r"\b(server|mcp|self)\._[a-z]", source)
