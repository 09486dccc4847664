"""What a client hears during a slow call: progress, and log messages when it opts in, which
never name where (the home path) or as whom (the user name) the server runs."""

from __future__ import annotations

import os
import secrets

import pytest
from mcp.client import Client

from arxiv_mcp import server as server_module
from arxiv_mcp.server import build_server
from tests import platforms
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


@pytest.fixture
def ada(tmp_path, monkeypatch):
    """A user with a distinctive name whose home is a temporary folder named after them."""
    user = "ada" + secrets.token_hex(3)
    home = tmp_path / "home" / user
    home.mkdir(parents=True)
    for name in ("LOGNAME", "USER"):
        monkeypatch.setenv(name, user)
    platforms.set_user_home(monkeypatch, home)
    return user, home


@pytest.mark.parametrize("where", ["under the user's home", "elsewhere, named after the user"])
async def test_log_notifications_carry_no_home_path_and_no_user_name(fake, make_config, tmp_path, ada, where):
    user, home = ada
    cache_home = home / ".arxiv-mcp" if where.startswith("under") else tmp_path / f"cache-of-{user}"
    messages = []

    async def on_log(params):
        messages.append(str(params.data))

    async with Client(
        build_server(make_config(ARXIV_MCP_HOME=cache_home)), logging_callback=on_log, log_level="info"
    ) as client:
        assert not (await client.call_tool("start_session", {"session_id": "s1"})).is_error
        # another process replaces the session file with one that cannot be read: a warning naming it
        garbage = cache_home / "garbage.tmp"
        garbage.write_text("{not json")
        os.replace(garbage, cache_home / "sessions.json")
        read = await client.call_tool("get_paper", {"paper_id": "2403.00003", "session_id": "s1"})
        assert read.is_error
    warning = next(m for m in messages if "unreadable" in m)
    assert "$ARXIV_MCP_HOME/sessions.json" in warning and "$ARXIV_MCP_HOME/sessions.json.corrupt" in warning
    assert not [m for m in messages if str(home) in m or str(cache_home) in m or user in m], messages


def test_the_forwarder_hides_the_user_name_and_home_anywhere_in_a_message(ada, make_config):
    user, home = ada
    handler = server_module._client_log_handler(make_config(ARXIV_MCP_HOME=home / "cache"))
    redact = handler.redact
    sep = os.sep  # the paths the package shows are native
    assert redact(f"{home}{sep}cache{sep}papers{sep}x.pdf; {home}{sep}notes; /srv/{user}/tmp; {user}'s; {user}x") == (
        f"$ARXIV_MCP_HOME{sep}papers{sep}x.pdf; ~{sep}notes; /srv/<user>/tmp; <user>'s; {user}x"
    )
