"""Every tool advertises a title, annotations and an output schema, and its structured
content validates against that schema."""

from __future__ import annotations

from datetime import date

import jsonschema
import pytest

from tests.conftest import cited_paper, html_paper, paper
from tests.fake_rss import FeedItem, feed_xml

pytestmark = pytest.mark.anyio

CALLS = [
    ("search_papers", {"query": "attention"}),
    ("search_papers", {"id_list": ["2403.00003", "2501.99999"]}),
    ("get_paper", {"paper_id": "2403.00003"}),
    ("read_paper", {"paper_id": "2403.00003"}),
    ("read_paper", {"paper_id": "2403.00003", "section": "outline"}),
    ("find_in_paper", {"paper_id": "2403.00003", "query": "unicorn"}),
    ("compare_versions", {"paper_id": "2403.00004"}),
    ("download_paper", {"paper_id": "2403.00003"}),
    ("start_session", {"session_id": "s1"}),
    ("session_status", {"session_id": "s1"}),
    ("end_session", {"session_id": "s1"}),
    ("cache_stats", {}),
    ("list_cached", {}),
    ("list_categories", {"group": "math"}),
    ("export_bibtex", {"paper_ids": ["2403.00003"]}),
    ("resolve_references", {"references": ["2403.00003", "A. Lovelace. A paper that does not exist. 2024."]}),
    ("get_references", {"paper_id": "2403.00003"}),
    ("get_citations", {"paper_id": "2403.00003"}),
    ("category_trends", {"category": "cs.LG", "window_days": 3}),
    ("search_cached", {"query": "graphs"}),
    ("list_new", {"category": "cs.CV"}),
    ("clear_cache", {}),
]


async def test_every_tool_has_schema_annotations_title_and_valid_output(fake, connect):
    fake.add(cited_paper())
    fake.add(paper("2401.00001", "Other"))
    fake.add(html_paper("2403.00004", "Two versions", versions=2))
    fake.feeds["cs.CV"] = feed_xml("cs.CV", date(2026, 12, 7), [FeedItem("2612.00001")])
    async with connect() as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert {name for name, _ in CALLS} == set(tools)
        for tool in tools.values():
            assert tool.title and tool.output_schema and tool.annotations, tool.name
            assert tool.annotations.read_only_hint is not None and tool.annotations.open_world_hint is not None
        assert tools["clear_cache"].annotations.destructive_hint is True
        for name, args in CALLS:
            result = await client.call_tool(name, args)
            assert not result.is_error, (name, result.content[0].text)
            jsonschema.validate(result.structured_content, tools[name].output_schema)
            # The schemas leave `required` out (bytes): every field is there all the same.
            assert set(tools[name].output_schema["properties"]) == set(result.structured_content), name
            assert result.content[0].text
