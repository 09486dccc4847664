"""The real console entry point over stdio: version, handshake, and a clean stdout."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from arxiv_mcp import __version__
from tests import jsonrpc
from tests.conftest import paper


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
        *jsonrpc.handshake("raw-test"),
        jsonrpc.request(2, "tools/list"),
        jsonrpc.call_tool(3, "search_papers", {"query": "sparse attention"}),
        jsonrpc.call_tool(4, "get_paper", {"paper_id": "bogus"}),
        jsonrpc.call_tool(5, "read_paper", {"paper_id": "2401.00001"}),
    ]
    argv = [sys.executable, "-m", "arxiv_mcp", "--log-level", "DEBUG"]
    talk = jsonrpc.converse(argv, messages, jsonrpc.fake_environment(fake, tmp_path / "home"))
    assert talk.status == 0 and set(talk.answers) == {1, 2, 3, 4, 5}, talk.stderr
    for line in talk.lines:
        assert json.loads(line)["jsonrpc"] == "2.0"
    answers = talk.answers
    assert answers[1]["result"]["serverInfo"]["name"] == "arxiv-mcp"
    names = {t["name"] for t in answers[2]["result"]["tools"]}
    assert {"search_papers", "get_paper", "list_categories", "read_paper"} <= names
    assert answers[3]["result"]["structuredContent"]["papers"][0]["id"] == "2401.00001"
    assert answers[4]["result"]["isError"] is True
    assert "page 1/" in answers[5]["result"]["content"][0]["text"]


def test_a_damaged_pdf_is_read_without_a_flood_of_pypdf_warnings(fake, tmp_path):
    """The answer's notice says the PDF is damaged; stderr (a client's log) is not filled with
    pypdf's line per broken reference, as it was for a real cut paper (42 lines a read)."""
    from pathlib import Path

    data = (Path(__file__).parent / "fixtures" / "pdf" / "0908.0054v1.pdf").read_bytes()
    fake.add(paper("2401.00001", "Sparse attention for long documents", pdf=data[: len(data) // 2]))
    messages = [*jsonrpc.handshake("raw-test"), jsonrpc.call_tool(2, "read_paper", {"paper_id": "2401.00001"})]
    talk = jsonrpc.converse(
        [sys.executable, "-m", "arxiv_mcp"], messages, jsonrpc.fake_environment(fake, tmp_path / "home")
    )
    assert talk.status == 0 and "damaged" in talk.answers[2]["result"]["structuredContent"]["notice"], talk.stderr
    assert "pypdf" not in talk.stderr, talk.stderr
