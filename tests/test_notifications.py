"""What a client hears during a slow call: progress, and log messages when it opts in."""

from __future__ import annotations

import pytest
from mcp.client import Client

from arxiv_mcp.server import build_server
from tests.conftest import html_paper

pytestmark = pytest.mark.anyio


async def test_retry_is_logged_to_the_client_that_opted_in(fake, make_config):
    fake.add(html_paper("2403.00003", "Attention for graphs"))
    fake.fault("/api/query", "status", status=503, retry_after="0")
    messages = []

    async def on_log(params):
        messages.append(params)

    server = build_server(make_config())
    async with Client(server, logging_callback=on_log, log_level="info") as client:
        r = await client.call_tool("get_paper", {"paper_id": "2403.00003"})
    assert not r.is_error
    assert any("HTTP 503" in str(m.data) and m.level == "info" for m in messages), messages


async def test_progress_reported_while_reading(fake, connect):
    fake.add(html_paper("2403.00003", "Attention for graphs"))
    seen = []

    async def on_progress(progress, total, message):
        seen.append((progress, total, message))

    async with connect() as client:
        r = await client.call_tool("read_paper", {"paper_id": "2403.00003v1"}, progress_callback=on_progress)
    assert not r.is_error
    assert seen and any("2403.00003v1" in (m or "") for _, _, m in seen)
    assert seen[-1][0] == seen[-1][1]
