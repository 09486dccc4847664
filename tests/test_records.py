"""Fields the layers below compute reach the tool result (none is computed and then dropped)."""

from __future__ import annotations

import time

import pytest

from tests.conftest import html_paper

pytestmark = pytest.mark.anyio


async def test_clear_cache_says_how_much_it_freed(fake, connect):
    fake.add(html_paper("2403.00003", "Attention for graphs"))
    async with connect() as client:
        await client.call_tool("read_paper", {"paper_id": "2403.00003"})
        await client.call_tool("search_papers", {"query": "attention graphs"})
        stats = (await client.call_tool("cache_stats", {})).structured_content
        cleared = (await client.call_tool("clear_cache", {})).structured_content
    assert cleared["evicted"] == ["2403.00003v1"]
    assert 0 < cleared["bytes_freed"] <= stats["bytes"]


async def test_a_session_says_when_it_expires(fake, make_config, connect):
    config = make_config(ARXIV_MCP_SESSION_TTL_S=3600)
    async with connect(config) as client:
        before = time.time()
        opened = (await client.call_tool("start_session", {})).structured_content
        status = (await client.call_tool("session_status", {"session_id": opened["session_id"]})).structured_content
        ended = (await client.call_tool("end_session", {"session_id": opened["session_id"]})).structured_content
    assert before + 3600 - 5 <= opened["expires_at"] <= time.time() + 3600
    assert status["expires_at"] == pytest.approx(status["last_used"] + 3600)
    assert ended["open"] is False
