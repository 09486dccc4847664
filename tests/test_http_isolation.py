"""Over HTTP several clients share one server: none can see, end or clear another's sessions.

A client is the token it presents (`ARXIV_MCP_HTTP_TOKEN` listing one per client) on either
protocol, not its connection: its sessions outlive reconnects and restarts, so every pin has
an owner who can list and end it. Two real clients talk to a real server process over
streamable HTTP on loopback; a stdio server on the same cache home is a third client.
"""

from __future__ import annotations

import json
import secrets
import sys
from contextlib import AsyncExitStack

import httpx2
import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from tests.conftest import html_paper
from tests.test_http_transport import serving

pytestmark = pytest.mark.anyio

PAPER = "2401.00020"
OTHER = "2401.00021"


def shown(result) -> str:
    return " ".join(c.text for c in result.content if getattr(c, "text", None)) + json.dumps(
        result.structured_content or {}
    )


TOKENS = [secrets.token_urlsafe(24), secrets.token_urlsafe(24)]


def with_token(url: str, token: str) -> Client:
    headers = {"Authorization": f"Bearer {token}"}
    return Client(streamable_http_client(url, http_client=httpx2.AsyncClient(headers=headers, timeout=60)))


def legacy_with_token(url: str, token: str) -> Client:
    headers = {"Authorization": f"Bearer {token}"}
    http = httpx2.AsyncClient(headers=headers, timeout=60)
    return Client(streamable_http_client(url, http_client=http), mode="legacy")


CLIENTS = {
    # two connections of the handshake era, each with its own token
    "connections": (
        {"ARXIV_MCP_HTTP_TOKEN": ",".join(TOKENS)},
        lambda url: [legacy_with_token(url, t) for t in TOKENS],
    ),
    # two 2026-07-28 clients (no connection), each with its own token
    "tokens": ({"ARXIV_MCP_HTTP_TOKEN": ",".join(TOKENS)}, lambda url: [with_token(url, t) for t in TOKENS]),
}


@pytest.mark.parametrize("kind", CLIENTS)
async def test_one_http_client_cannot_see_end_or_clear_another_clients_sessions(fake, tmp_path, kind):
    fake.add(html_paper(PAPER, "Pinned by the first client"))
    fake.add(html_paper(OTHER, "Cached by the second client"))
    env, make = CLIENTS[kind]
    with serving(fake, tmp_path, env=env) as (port, _log):
        async with AsyncExitStack() as stack:
            a, b = [await stack.enter_async_context(c) for c in make(f"http://127.0.0.1:{port}/mcp")]
            named = await a.call_tool("start_session", {"session_id": "task"})
            generated = (await a.call_tool("start_session", {})).structured_content["session_id"]
            assert not named.is_error
            for session in ("task", generated):
                read = await a.call_tool("read_paper", {"paper_id": PAPER, "session_id": session})
                assert not read.is_error

            # b cannot look at, pin with, or end a's sessions: to b they do not exist
            for tool, args in [
                ("session_status", {"session_id": "task"}),
                ("end_session", {"session_id": "task"}),
                ("session_status", {"session_id": generated}),
                ("get_paper", {"paper_id": OTHER, "session_id": generated}),
            ]:
                result = await b.call_tool(tool, args)
                assert result.is_error and "No open session" in result.content[0].text, (tool, result)

            # the same name started by b is b's own session, empty
            mine = await b.call_tool("start_session", {"session_id": "task"})
            assert mine.structured_content["pinned"] == []
            assert (await b.call_tool("get_paper", {"paper_id": OTHER, "session_id": "task"})).is_error is False

            listing = await b.call_tool("list_cached", {})
            by_id = {p["paper_id"]: p["pinned_by"] for p in listing.structured_content["papers"]}
            assert by_id == {PAPER: [], OTHER: ["task"]}
            stats = await b.call_tool("cache_stats", {})
            assert stats.structured_content["open_sessions"] == 1
            cleared = await b.call_tool("clear_cache", {"drop_pinned": True})
            assert [p.split("v")[0] for p in cleared.structured_content["kept_pinned"]] == [PAPER]
            assert generated not in shown(listing) + shown(stats) + shown(cleared)

            # a's sessions and pins came through whole; b's pin is gone with its paper
            status = await a.call_tool("session_status", {"session_id": "task"})
            assert not status.is_error and status.structured_content["pinned"] == [PAPER + "v1"]
            listing = await a.call_tool("list_cached", {})
            assert {p["paper_id"]: p["pinned_by"] for p in listing.structured_content["papers"]} == {
                PAPER: sorted(["task", generated])
            }
            assert (await a.call_tool("end_session", {"session_id": generated})).is_error is False


async def test_a_stdio_client_on_the_same_home_is_another_client(fake, tmp_path):
    fake.add(html_paper(PAPER, "Pinned over HTTP"))
    with serving(fake, tmp_path) as (port, _log):
        async with Client(f"http://127.0.0.1:{port}/mcp") as web:
            await web.call_tool("start_session", {"session_id": "web-task"})
            assert not (await web.call_tool("get_paper", {"paper_id": PAPER, "session_id": "web-task"})).is_error
            env = {**fake.env(), "ARXIV_MCP_HOME": str(tmp_path / "home")}
            params = StdioServerParameters(command=sys.executable, args=["-m", "arxiv_mcp"], env=env)
            async with Client(params) as local:
                seen = await local.call_tool("session_status", {"session_id": "web-task"})
                assert seen.is_error
                cleared = await local.call_tool("clear_cache", {"drop_pinned": True})
                assert cleared.structured_content["kept_pinned"] == [PAPER + "v1"]
            status = await web.call_tool("session_status", {"session_id": "web-task"})
            assert status.structured_content["pinned"] == [PAPER + "v1"]


async def test_sessions_outlive_connections_and_restarts_so_no_pin_is_orphaned(fake, tmp_path):
    fake.add(html_paper(PAPER, "Pinned before the restart"))
    env = {"ARXIV_MCP_HTTP_TOKEN": TOKENS[0]}
    with serving(fake, tmp_path, env=env) as (port, _log):
        async with legacy_with_token(f"http://127.0.0.1:{port}/mcp", TOKENS[0]) as first:
            await first.call_tool("start_session", {"session_id": "long-task"})
            assert not (await first.call_tool("get_paper", {"paper_id": PAPER, "session_id": "long-task"})).is_error
    with serving(fake, tmp_path, env=env) as (port, _log):  # a restart: new server, new connection
        async with legacy_with_token(f"http://127.0.0.1:{port}/mcp", TOKENS[0]) as again:
            stats = (await again.call_tool("cache_stats", {})).structured_content
            assert stats["sessions"] == ["long-task"], "the session can be listed"
            status = await again.call_tool("session_status", {"session_id": "long-task"})
            assert status.structured_content["pinned"] == [PAPER + "v1"]
            cleared = (await again.call_tool("clear_cache", {"drop_pinned": True})).structured_content
            assert cleared["kept_pinned"] == [] and cleared["evicted"] == [PAPER + "v1"]
            ended = await again.call_tool("end_session", {"session_id": "long-task"})
            assert not ended.is_error and ended.structured_content["open"] is False
