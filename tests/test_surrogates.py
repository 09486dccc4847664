"""A lone UTF-16 surrogate in a client's message gets a one-line answer (the SDK's parser
dropped such a message unanswered), over the real stdio entry point; the repair itself
leaves every other message byte for byte."""

from __future__ import annotations

import json
import sys

from arxiv_mcp import surrogates
from tests import jsonrpc
from tests.conftest import paper

CALLS = [
    ("search_papers", {"query": "\ud800"}),
    ("get_paper", {"paper_id": "2401.00001\udc00"}),
    ("read_paper", {"paper_id": "2401.00001", "section": "\udbff"}),
    ("list_categories", {"group": "cs\ud800"}),
    ("search_cached", {"query": "x\ud800y"}),
    ("export_bibtex", {"paper_ids": ["2401.00001", "\ud800"]}),
]


def test_every_call_with_a_lone_surrogate_gets_one_line_over_stdio(fake, tmp_path):
    fake.add(paper("2401.00001", "Sparse attention"))
    lines = [jsonrpc.initialize(0, "raw"), jsonrpc.INITIALIZED]
    lines += [jsonrpc.call_tool(i, name, args) for i, (name, args) in enumerate(CALLS, start=1)]
    lines.append(jsonrpc.request(99, "resources/read", {"uri": "arxiv://paper/\ud800"}))
    lines.append(jsonrpc.call_tool(100, "cache_stats", {}))
    argv = [sys.executable, "-m", "arxiv_mcp", "--log-level", "INFO"]
    talk = jsonrpc.converse(argv, lines, jsonrpc.fake_environment(fake, tmp_path / "home"))
    answers = talk.answers
    for i, (name, _args) in enumerate(CALLS, start=1):
        assert i in answers, f"{name} got no answer; the server's stderr:\n{talk.stderr[-4000:]}"
        text = answers[i]["result"]["content"][0]["text"]
        assert answers[i]["result"]["isError"] and "lone UTF-16 surrogate" in text and "\n" not in text, name
    assert "lone UTF-16 surrogate" in answers[99]["error"]["message"]
    assert not answers[100]["result"]["isError"]


def test_repair_names_the_argument_and_keeps_other_messages_as_they_were():
    call = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "t", "arguments": {"q": "a\ud800"}}}
    repaired = json.loads(surrogates.repair_message(json.dumps(call).encode()))
    assert repaired["params"]["arguments"]["q"] == "a\ufffd"
    assert repaired["params"]["_meta"][surrogates.MARK] == ["q"]
    for kept in (
        json.dumps({"id": 1, "method": "x", "params": {"q": "\U0001f600"}}).encode(),  # a valid pair
        b'{"id": 1, "method": "x", "params": {"q": "\\\\ud800"}}',  # an escaped backslash, not an escape
        b'{"id": 1, "method": "x", "params": {"q": "\\ud800"',  # not JSON: the SDK answers it
    ):
        assert surrogates.repair_message(kept) == kept
    note = json.dumps({"jsonrpc": "2.0", "method": "notifications/message", "params": {"data": "\udc00"}}).encode()
    assert surrogates.MARK not in surrogates.repair_message(note).decode()
