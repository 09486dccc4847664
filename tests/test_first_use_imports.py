"""A cache-only tool, first called in a new server process, imports only what it uses.

The first `cache_stats`, `list_cached` or `search_cached` of a process builds the service;
the readers, the upstream clients and the text model are built and imported only by a call
that needs them (`service_parts._Part`), so these calls do not pay for them (issue 35.8: a first
call at 10,000 papers within 100 ms; the time is measured by benchmarks/first_call.py, not
here). Seen through the real stdio server under `python -X importtime`.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tests import jsonrpc

REPO = Path(__file__).resolve().parents[1]

NOT_FOR_THE_CACHE = ("arxiv_mcp.reading", "arxiv_mcp.catalog", "arxiv_mcp.search", "arxiv_mcp.text.document")
NOT_FOR_THE_CACHE_PACKAGES = ("arxiv_mcp.upstream", "arxiv_mcp.text.pdf", "arxiv_mcp.text.latex", "requests", "pypdf")


def test_cache_tools_import_neither_readers_nor_upstream(tmp_path):
    env = jsonrpc.environment()
    env.update(ARXIV_MCP_HOME=str(tmp_path / "home"), PYTHONPATH=str(REPO))
    calls = [
        jsonrpc.call_tool(2, "cache_stats", {}),
        jsonrpc.call_tool(3, "list_cached", {}),
        jsonrpc.call_tool(4, "search_cached", {"query": "attention"}),
    ]
    talk = jsonrpc.converse(
        [sys.executable, "-X", "importtime", "-m", "arxiv_mcp"], jsonrpc.handshake("t") + calls, env, cwd=tmp_path
    )
    for ident in (2, 3, 4):
        assert talk.answers[ident]["result"]["isError"] is False, talk.answers[ident]
    imported = {line.rsplit("|", 1)[1].strip() for line in talk.stderr.splitlines() if line.startswith("import time:")}
    assert {"arxiv_mcp.service", "arxiv_mcp.cache.store", "arxiv_mcp.research.library"} <= imported
    needless = sorted(
        m
        for m in imported
        if m in NOT_FOR_THE_CACHE or m.startswith(tuple(p + "." for p in NOT_FOR_THE_CACHE_PACKAGES))
    )
    needless += sorted(m for m in imported if m in NOT_FOR_THE_CACHE_PACKAGES)
    assert needless == [], f"a cache-only call imported {needless}"
