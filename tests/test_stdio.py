"""The real console entry point over stdio: version, handshake, and a clean stdout."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from arxiv_mcp import __version__
from tests.conftest import paper


def _env(fake, home):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARXIV_MCP_")}
    env.update(fake.env(), ARXIV_MCP_HOME=str(home))
    return env


def test_version_and_help():
    out = subprocess.run([sys.executable, "-m", "arxiv_mcp", "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == f"arxiv-mcp {__version__}"
    helped = subprocess.run([sys.executable, "-m", "arxiv_mcp", "--help"], capture_output=True, text=True)
    assert helped.returncode == 0 and "--transport" in helped.stdout


def test_bad_setting_is_one_line_on_stderr(tmp_path):
    env = dict(os.environ, ARXIV_MCP_MAX_PAPERS="lots", ARXIV_MCP_HOME=str(tmp_path))
    out = subprocess.run(
        [sys.executable, "-m", "arxiv_mcp"],
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert out.returncode == 2 and out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "ARXIV_MCP_MAX_PAPERS" in lines[0]


def test_stdout_is_only_json_rpc(fake, tmp_path):
    fake.add(paper("2401.00001", "Sparse attention for long documents"))
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw-test", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "search_papers", "arguments": {"query": "sparse attention"}},
        },
        {
            "jsonrpc": "2.0",
            "id": 4,
            "method": "tools/call",
            "params": {"name": "get_paper", "arguments": {"paper_id": "bogus"}},
        },
        {
            "jsonrpc": "2.0",
            "id": 5,
            "method": "tools/call",
            "params": {"name": "read_paper", "arguments": {"paper_id": "2401.00001"}},
        },
    ]
    proc = subprocess.Popen(
        [sys.executable, "-m", "arxiv_mcp", "--log-level", "DEBUG"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(fake, tmp_path / "home"),
    )
    answers: dict[int, dict] = {}
    raw_lines: list[bytes] = []
    for msg in messages:
        proc.stdin.write(json.dumps(msg).encode() + b"\n")
        proc.stdin.flush()
        if "id" not in msg:
            continue
        while msg["id"] not in answers:
            line = proc.stdout.readline()
            assert line, proc.stderr.read().decode()
            raw_lines.append(line)
            data = json.loads(line)
            assert data["jsonrpc"] == "2.0"
            if "id" in data:
                answers[data["id"]] = data
    proc.stdin.close()
    proc.wait(timeout=30)
    rest = proc.stdout.read()
    for line in rest.splitlines():
        assert json.loads(line)["jsonrpc"] == "2.0"
    assert answers[1]["result"]["serverInfo"]["name"] == "arxiv-mcp"
    names = {t["name"] for t in answers[2]["result"]["tools"]}
    assert {"search_papers", "get_paper", "list_categories", "read_paper"} <= names
    assert answers[3]["result"]["structuredContent"]["papers"][0]["id"] == "2401.00001"
    assert answers[4]["result"]["isError"] is True
    assert "page 1/" in answers[5]["result"]["content"][0]["text"]
