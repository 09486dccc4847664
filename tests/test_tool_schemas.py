"""The stored tool schemas are what the SDK derives from the tool signatures, and start-up
imports nothing only a tool call needs.

The server answers tools/list from arxiv_mcp/tool_schemas.json so that it need not build 18
tools' pydantic models before `initialize` (server.py). After changing a tool's signature,
rewrite the file with `python -m tests.test_tool_schemas` and review its diff.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from arxiv_mcp import server, tool_schemas
from tests import jsonrpc

pytestmark = pytest.mark.anyio

REPO = Path(__file__).resolve().parents[1]

TOOL_CALL_MODULES = (
    "arxiv_mcp.service",
    "arxiv_mcp.models",
    "arxiv_mcp.bounds",
    "arxiv_mcp.arguments",
    "arxiv_mcp.cache.store",
    "arxiv_mcp.cache.sessions",
    "arxiv_mcp.reading",
    "arxiv_mcp.categories",
    "arxiv_mcp.http_guard",
    "requests",
    "pypdf",
    "difflib",
    "tarfile",
)
"""Modules only a tool call or the HTTP transport uses (the SDK itself imports uvicorn), and
the packages below (with their roots)."""
TOOL_CALL_PACKAGES = ("arxiv_mcp.text", "arxiv_mcp.upstream", "arxiv_mcp.research")


def derived() -> dict[str, dict]:
    return {t.name: {"input": t.parameters, "output": t.output_schema} for t in server.derived_tools()}


def test_stored_schemas_are_what_the_sdk_derives():
    stored = json.loads(tool_schemas.SCHEMAS_FILE.read_text(encoding="utf-8"))
    assert stored == derived(), "tool signatures changed: run `python -m tests.test_tool_schemas`, review the diff"


@pytest.mark.parametrize("fits", [True, False])
async def test_tools_list_is_the_derived_tools(make_config, monkeypatch, fits):
    """Also when the SDK's FuncMetadata no longer fits `_FirstCall` (server.first_call_fits):
    every tool is then derived at start-up, and lists the same."""
    from mcp.server.mcpserver import MCPServer

    monkeypatch.setattr(server, "first_call_fits", lambda: fits)
    every = server.build_server(make_config(ARXIV_MCP_MIRROR="cs.LG"), start_mirror=False)  # mirror_status too
    listed = [t.model_dump(by_alias=True) for t in await every.list_tools()]
    reference = [t.model_dump(by_alias=True) for t in await MCPServer("ref", tools=server.derived_tools()).list_tools()]
    assert listed == reference
    assert all(t["outputSchema"]["type"] == "object" for t in listed)


@pytest.mark.parametrize("fits", [True, False])
async def test_a_tools_first_call_gets_its_arguments(connect, monkeypatch, fits):
    """A tool's argument model is built on its first call (server._FirstCall), or at start-up
    when the SDK does not fit it; either way that call and the next get their arguments as
    given, not the model's defaults."""
    monkeypatch.setattr(server, "first_call_fits", lambda: fits)
    async with connect() as client:
        for group in ("math", "cs"):
            listed = await client.call_tool("list_categories", {"group": group})
            ids = [c["id"] for c in listed.structured_content["categories"]]
            assert ids and all(i.startswith(group + ".") for i in ids), (group, ids[:5])


def test_start_up_imports_nothing_only_a_tool_call_needs(tmp_path):
    """The real start-up, to `initialize` answered, then stdin closed: every module imported
    on the way (python -X importtime) is one that answering initialize or tools/list needs."""
    env = jsonrpc.environment()
    env.update(ARXIV_MCP_HOME=str(tmp_path / "home"), PYTHONPATH=str(REPO))
    argv = [sys.executable, "-X", "importtime", "-m", "arxiv_mcp"]
    talk = jsonrpc.converse(argv, [jsonrpc.initialize(1, "t")], env, cwd=tmp_path)
    assert talk.answers[1]["result"]["serverInfo"]["name"] == "arxiv-mcp"
    imported = {line.rsplit("|", 1)[1].strip() for line in talk.stderr.splitlines() if line.startswith("import time:")}
    assert "arxiv_mcp.server" in imported
    early = sorted(m for m in imported if m in TOOL_CALL_MODULES or m.startswith(TOOL_CALL_PACKAGES))
    assert early == [], f"imported before any tool call: {early}"


def write() -> None:
    """Rewrite the stored schemas from the tool signatures."""
    text = json.dumps(derived(), indent=1, ensure_ascii=False) + "\n"
    tool_schemas.SCHEMAS_FILE.write_text(text, encoding="utf-8")
    print(f"wrote {tool_schemas.SCHEMAS_FILE} ({len(text)} bytes)")


if __name__ == "__main__":
    write()
