"""Found black-box, through the MCP client: arguments an agent (or a hostile caller) types
into the newer tools get one clear line, never "Error executing tool"."""

from __future__ import annotations

import pytest

from tests.selecting import said


@pytest.mark.anyio
@pytest.mark.parametrize("argument", ["from_version", "to_version"])
@pytest.mark.parametrize("value", [10_000, 2**70])
async def test_compare_versions_refuses_a_huge_version_in_one_line(fake, connect, argument, value):
    async with connect() as client:
        result = await client.call_tool("compare_versions", {"paper_id": "2401.00001", argument: value})
    text = said(result)
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
    assert not result.is_error, said(result)
    assert [r.path for r in fake.requests] == ["/rss/cs.AI+cs.LG"]


@pytest.mark.parametrize(
    "command", [[], ["mirror", "status"], ["mirror", "sync", "--sets", "y" * 100_000]], ids=["server", "status", "sync"]
)
def test_a_huge_setting_stops_start_up_with_one_short_line(fake, tmp_path, command):
    """Found black-box: ARXIV_MCP_MIRROR (or --sets) of 100,000 characters stopped start-up
    with a 300 KB line, the value echoed three times."""
    import subprocess
    import sys

    from arxiv_mcp.errors import MAX_MESSAGE_BYTES
    from tests import jsonrpc

    env = jsonrpc.environment(**fake.env(), ARXIV_MCP_HOME=str(tmp_path / "home"), ARXIV_MCP_MIRROR="x" * 100_000)
    done = subprocess.run(
        [sys.executable, "-m", "arxiv_mcp", *command],
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert len(done.stderr.encode()) <= MAX_MESSAGE_BYTES + len("arxiv-mcp: \n")
    assert "100,000 characters" in done.stderr


@pytest.mark.anyio
async def test_an_unknown_resource_of_100k_characters_is_not_echoed_whole(fake, connect):
    """Found black-box: reading arxiv://trends/<100,000 x>/30/chart answered "Unknown
    resource: ..." with the whole URI, 100,042 characters."""
    from mcp import MCPError

    from arxiv_mcp.errors import MAX_MESSAGE_BYTES

    async with connect() as client:
        with pytest.raises(MCPError) as err:
            await client.read_resource("arxiv://trends/" + "x" * 100_000 + "/30/chart")
    message = err.value.error.message
    assert message.startswith("Unknown resource: arxiv://trends/xxx")
    assert len(message.encode()) <= MAX_MESSAGE_BYTES


@pytest.mark.anyio
async def test_mirror_status_without_a_mirror_says_how_to_get_one(fake, connect):
    """Found black-box: README and SKILL.md name mirror_status, and without ARXIV_MCP_MIRROR a
    call answered only "Unknown tool: mirror_status"."""
    async with connect() as client:
        result = await client.call_tool("mirror_status", {})
    text = said(result)
    assert result.is_error and "ARXIV_MCP_MIRROR" in text and "\n" not in text.strip()


@pytest.mark.anyio
async def test_an_unknown_tool_of_100k_characters_is_not_echoed_whole(fake, connect):
    """Found black-box: tools/call of a 100,000-character name answered "Unknown tool: <the name>"."""
    from arxiv_mcp.errors import MAX_MESSAGE_BYTES

    async with connect() as client:
        result = await client.call_tool("x" * 100_000, {})
    text = said(result)
    assert result.is_error and text.startswith("Unknown tool")
    assert len(text.encode()) <= MAX_MESSAGE_BYTES and "read_paper" in text


@pytest.mark.anyio
async def test_a_tool_of_a_group_left_out_says_so(fake, connect, make_config):
    async with connect(make_config(ARXIV_MCP_TOOLS="read")) as client:
        result = await client.call_tool("list_new", {"category": "cs.LG"})
    assert result.is_error and "ARXIV_MCP_TOOLS" in said(result)
    assert not fake.requests


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("name", "arguments", "said"),
    [
        ("y" * 100_000, {}, "Unknown prompt"),
        ("literature_review", {}, "topic"),
        ("literature_review", {"topic": "graphs", "bogus": "1"}, "bogus"),
    ],
    ids=["unknown", "missing", "extra"],
)
async def test_a_prompt_asked_wrongly_gets_one_short_line(fake, connect, name, arguments, said):
    """Found black-box: prompts/get of an unknown name, or without `topic`, answered
    "Internal server error" in process and, over stdio, code 0 with the name echoed whole
    (100 KB) and a traceback on stderr."""
    from mcp import MCPError
    from mcp_types import INVALID_PARAMS

    from arxiv_mcp.errors import MAX_MESSAGE_BYTES

    async with connect() as client:
        with pytest.raises(MCPError) as err:
            await client.get_prompt(name, arguments)
    assert err.value.error.code == INVALID_PARAMS
    message = err.value.error.message
    assert said in message and "literature_review" in message
    assert len(message.encode()) <= MAX_MESSAGE_BYTES and "\n" not in message
