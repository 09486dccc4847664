"""Tool groups (ARXIV_MCP_TOOLS / --tools), the start-up lines of the command (an unknown group,
the HTTP URL) and what the server tells arXiv about itself (User-Agent, ARXIV_MCP_CONTACT)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from arxiv_mcp.config import ConfigError, load
from arxiv_mcp.tool_groups import TOOL_GROUPS
from tests import jsonrpc
from tests.conftest import paper
from tests.test_http_transport import serving

ALL = {name for names in TOOL_GROUPS.values() for name in names}


async def _listing(connect, make_config, groups: str):
    async with connect(make_config(ARXIV_MCP_TOOLS=groups)) as client:
        tools = {t.name for t in (await client.list_tools()).tools}
        prompt = await client.get_prompt("literature_review", {"topic": "graphs"})
        title = client.server_info.title if client.server_info else None
        assert title and title != "arXiv" and "unofficial" in title
        return tools, client.instructions or "", prompt.messages[0].content.text


@pytest.mark.anyio
@pytest.mark.parametrize(
    "groups, expected",
    [
        ("read", set(TOOL_GROUPS["read"])),
        ("cite, explore", set(TOOL_GROUPS["cite"]) | set(TOOL_GROUPS["explore"])),
        ("library", set(TOOL_GROUPS["library"])),
        ("", ALL),
        ("all", ALL),
        ("READ,all", ALL),
    ],
)
async def test_groups_expose_their_tools_and_texts_name_only_those(connect, make_config, groups, expected):
    tools, instructions, prompt = await _listing(connect, make_config, groups)
    assert tools == expected - {"mirror_status"}  # listed only with a mirror (test_mirror.py)
    for absent in ALL - tools:
        assert absent not in instructions and absent not in prompt, absent
    assert "untrusted" in instructions and "untrusted" in prompt


def test_read_is_four_tools_and_every_tool_is_in_exactly_one_group():
    assert len(TOOL_GROUPS["read"]) == 5 and len(ALL) == 21
    assert sum(len(names) for names in TOOL_GROUPS.values()) == len(ALL)


def test_an_unknown_group_stops_start_up_with_one_line(tmp_path):
    with pytest.raises(ConfigError, match="'reading' is not a tool group"):
        load({"ARXIV_MCP_HOME": str(tmp_path), "ARXIV_MCP_TOOLS": "read,reading"})
    env = jsonrpc.environment()
    env["ARXIV_MCP_HOME"] = str(tmp_path / "home")
    done = subprocess.run(
        [sys.executable, "-m", "arxiv_mcp", "--tools", "cite,bogus"],
        input=b"",
        capture_output=True,
        env=env,
        timeout=60,
    )
    lines = done.stderr.decode().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith("arxiv-mcp: --tools=")
    assert "'bogus'" in lines[0] and "read, cite, library, explore, all" in lines[0]


def test_the_tools_option_wins_over_the_environment(tmp_path):
    env = jsonrpc.environment()
    env.update(ARXIV_MCP_HOME=str(tmp_path / "home"), ARXIV_MCP_TOOLS="bogus")
    done = subprocess.run(
        [sys.executable, "-m", "arxiv_mcp", "--tools", "read"], input=b"", capture_output=True, env=env, timeout=60
    )
    assert done.returncode == 2 and b"ARXIV_MCP_TOOLS='bogus'" in done.stderr  # both are checked
    env["ARXIV_MCP_TOOLS"] = "explore"
    done = subprocess.run(
        [sys.executable, "-m", "arxiv_mcp", "--tools", "read"], input=b"", capture_output=True, env=env, timeout=60
    )
    assert done.returncode == 0 and done.stderr == b""


def test_http_prints_the_url_it_serves_on_one_stderr_line(fake, tmp_path):
    with serving(fake, tmp_path) as (port, log):
        lines = log.read_text(encoding="utf-8").splitlines()
    assert lines[0] == f"arxiv-mcp {__import__('arxiv_mcp').__version__}: serving MCP at http://127.0.0.1:{port}/mcp"


@pytest.mark.parametrize(
    "contact, agent",
    [
        (None, "arxiv-mcp-reader/{v}"),
        ("me@example.org", "arxiv-mcp-reader/{v} (mailto:me@example.org)"),
        ("https://example.org/bot", "arxiv-mcp-reader/{v} (+https://example.org/bot)"),
    ],
)
def test_the_user_agent_names_the_project_and_the_operators_contact(fake, make_config, contact, agent):
    from arxiv_mcp import __version__
    from arxiv_mcp.service import ArxivService

    fake.add(paper("2401.00001", "Graphs"))
    svc = ArxivService(make_config(**({"ARXIV_MCP_CONTACT": contact} if contact else {})))
    svc.get_paper("2401.00001")
    assert fake.requests[0].headers["user-agent"] == agent.format(v=__version__)


@pytest.mark.parametrize("bad", ["me", "me@localhost", "ftp://example.org", "a b@example.org", "x@y.org)"])
def test_a_contact_that_is_no_address_stops_start_up(tmp_path, bad):
    with pytest.raises(ConfigError, match="ARXIV_MCP_CONTACT"):
        load({"ARXIV_MCP_HOME": str(tmp_path), "ARXIV_MCP_CONTACT": bad})
