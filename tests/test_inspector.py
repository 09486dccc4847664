"""End to end with the official MCP Inspector's CLI: a client this project did not write.

The Inspector (pinned) and a Node new enough for it are installed by `.ci/inspector-setup`.
Without them the test skips on a developer machine but fails in CI (CI=true), so a broken
install step cannot pass unnoticed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import html_paper

ROOT = Path(__file__).resolve().parents[1]
NODE = ROOT / ".ci" / "node" / "bin" / "node"
INSPECTOR = ROOT / ".ci" / "node" / "node_modules" / "@modelcontextprotocol" / "inspector"
PAPER_ID = "2401.00010"
"""A trailing zero: an id sent as a JSON number would lose it and name another paper."""


@pytest.fixture
def inspector(fake, tmp_path):
    """`inspector({label: args})` runs one Inspector CLI per entry, all at once, against
    `python -m arxiv_mcp` on the fake arXiv, and returns {label: the JSON it printed}."""
    launcher = INSPECTOR / "clients" / "launcher" / "build" / "index.js"
    if not (NODE.exists() and launcher.exists()):
        reason = "MCP Inspector not installed: run .ci/inspector-setup"
        if os.environ.get("CI") == "true":
            pytest.fail(reason + " (CI must run this test)")
        pytest.skip(reason)
    server_env = {**fake.env(), "ARXIV_MCP_HOME": str(tmp_path / "home")}
    env_flags = [flag for k, v in server_env.items() for flag in ("-e", f"{k}={v}")]
    own_env = {**os.environ, "HOME": str(tmp_path), "MCP_CATALOG_PATH": str(tmp_path / "catalog.json")}

    def run(calls: dict[str, list[str]], expect_error: bool = False) -> dict[str, dict]:
        procs = {
            label: subprocess.Popen(
                [
                    str(NODE),
                    str(launcher),
                    "--cli",
                    "--connect-timeout",  # several servers start at once on a loaded machine
                    "120000",
                    *env_flags,
                    "--cwd",
                    str(ROOT),
                    *args,
                    "--",
                    sys.executable,
                    "-m",
                    "arxiv_mcp",
                ],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=own_env,
            )
            for label, args in calls.items()
        }
        results = {}
        for label, proc in procs.items():
            out, err = proc.communicate(timeout=90)
            # The CLI exits 0, or TOOL_ERROR (5) after printing a result with isError set.
            assert proc.returncode in ((0, 5) if expect_error else (0,)), (
                f"inspector {label} failed ({proc.returncode}): {out[-1500:]} {err[-1500:]}"
            )
            results[label] = json.loads(out)
        return results

    return run


def test_inspector_lists_tools_and_calls_them(fake, inspector):
    fake.add(html_paper(PAPER_ID, "Sparse attention for long documents"))
    # The CLI reads each key=value as JSON first, so an id is quoted to stay a string.
    quoted_id = f'paper_id="{PAPER_ID}"'
    got = inspector(
        {
            "list": ["--method", "tools/list"],
            "search": [
                "--method",
                "tools/call",
                "--tool-name",
                "search_papers",
                "--tool-arg",
                "query=sparse attention",
                "max_results=5",
            ],
            "get": ["--method", "tools/call", "--tool-name", "get_paper", "--tool-arg", quoted_id],
            "read": ["--method", "tools/call", "--tool-name", "read_paper", "--tool-arg", quoted_id, "page=1"],
        }
    )

    names = {tool["name"] for tool in got["list"]["tools"]}
    assert {"search_papers", "get_paper", "read_paper", "find_in_paper", "list_categories"} <= names
    assert all(tool["inputSchema"]["type"] == "object" for tool in got["list"]["tools"])

    assert got["search"]["isError"] is False
    assert [p["id"] for p in got["search"]["structuredContent"]["papers"]] == [PAPER_ID]

    assert got["get"]["isError"] is False
    assert got["get"]["structuredContent"]["id"] == PAPER_ID
    assert got["get"]["structuredContent"]["title"] == "Sparse attention for long documents"

    assert got["read"]["isError"] is False
    assert got["read"]["structuredContent"]["page"] == 1
    assert "Transformers changed sequence modelling." in got["read"]["content"][0]["text"]


def _tool_call(tool: str, *args: str) -> list[str]:
    return ["--method", "tools/call", "--tool-name", tool, "--tool-arg", *args]


def test_inspector_strict_finds_no_schema_portability_problem(inspector):
    got = inspector({"list": ["--method", "tools/list", "--strict", "--format", "json"]})
    assert "schemaFindings" not in got["list"], got["list"].get("schemaFindings")
    assert len(got["list"]["result"]["tools"]) == 20


def test_inspector_shows_the_servers_own_error_text(fake, inspector):
    """Each error reaches the Inspector as the server wrote it, not as a schema complaint: an
    error result carries no structured content for the client to validate."""
    fake.add(html_paper(PAPER_ID, "Sparse attention for long documents"))
    got = inspector(
        {
            "category": _tool_call("search_papers", "category=cs.SYZ", "max_results=1"),
            "page": _tool_call("read_paper", f'paper_id="{PAPER_ID}"', "page=99"),
            "paper": _tool_call("get_paper", 'paper_id="2401.99999"'),
            "session": _tool_call("session_status", "session_id=no-such-session"),
            "argument": _tool_call("read_paper", f'paper_id="{PAPER_ID}"', "offset=3"),
        },
        expect_error=True,
    )
    expected = {
        "category": "cs.SY",
        "page": "page 99",
        "paper": "2401.99999",
        "session": "no-such-session",
        "argument": "did you mean page?",
    }
    for label, needle in expected.items():
        result = got[label]
        assert result["isError"] is True, label
        assert "structuredContent" not in result, (label, result)
        text = result["content"][0]["text"]
        assert needle in text and "output schema" not in text.lower(), (label, text)
        assert result["_meta"]["kind"] in ("InvalidInput", "NotFound"), (label, result["_meta"])
