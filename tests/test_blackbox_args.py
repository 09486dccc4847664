"""Found black-box, through the MCP client: arguments an agent (or a hostile caller) types
into the newer tools get one clear line, never "Error executing tool"."""

from __future__ import annotations

import pytest


def _said(result) -> str:
    return result.content[0].text if result.content else ""


@pytest.mark.anyio
@pytest.mark.parametrize("argument", ["from_version", "to_version"])
@pytest.mark.parametrize("value", [10_000, 2**70])
async def test_compare_versions_refuses_a_huge_version_in_one_line(fake, connect, argument, value):
    async with connect() as client:
        result = await client.call_tool("compare_versions", {"paper_id": "2401.00001", argument: value})
    text = _said(result)
    assert result.is_error
    assert "Error executing tool" not in text
    assert text.startswith(f"{argument} must be a whole number from 1 to ")
    assert "\n" not in text.strip()


@pytest.mark.anyio
@pytest.mark.parametrize("category", ["cs.LG,cs.AI", "cs.AI, cs.LG"])
async def test_list_new_reads_categories_joined_by_commas_as_search_papers_does(fake, connect, category):
    """search_papers and ARXIV_MCP_MIRROR join categories with commas; list_new answered
    "cs.LG,cs.AI" with "Unknown arXiv category ... Did you mean: cs.AI, cs.SI, cs.LG?"."""
    from datetime import UTC, datetime

    from arxiv_mcp.research.announcements import eastern_day
    from tests.fake_rss import FeedItem, feed_xml

    fake.feeds["cs.AI+cs.LG"] = feed_xml("cs.AI+cs.LG", eastern_day(datetime.now(UTC)), [FeedItem("2612.00001")])
    async with connect() as client:
        result = await client.call_tool("list_new", {"category": category})
    assert not result.is_error, _said(result)
    assert [r.path for r in fake.requests] == ["/rss/cs.AI+cs.LG"]
