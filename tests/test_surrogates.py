"""A lone UTF-16 surrogate in a client's message gets a one-line answer (the SDK's parser
dropped such a message unanswered), over the real stdio entry point; the repair itself
leaves every other message byte for byte."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

from arxiv_mcp import surrogates
from tests import jsonrpc
from tests.conftest import paper
from tests.test_stdio import _env

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
    wanted = {m["id"] for m in lines if "id" in m}
    log = tmp_path / "stderr.log"
    answers = _exchange(lines, wanted, _env(fake, tmp_path / "home"), log)
    for i, (name, _args) in enumerate(CALLS, start=1):
        assert i in answers, f"{name} got no answer; the server's stderr:\n{log.read_text()[-4000:]}"
        text = answers[i]["result"]["content"][0]["text"]
        assert answers[i]["result"]["isError"] and "lone UTF-16 surrogate" in text and "\n" not in text, name
    assert "lone UTF-16 surrogate" in answers[99]["error"]["message"]
    assert not answers[100]["result"]["isError"]


def _exchange(lines: list[dict], wanted: set, env: dict, log: Path) -> dict:
    """Send `lines` to a stdio server (json.dumps writes a lone surrogate as an escape) and
    collect its answers by id until all of `wanted` came or 60 s passed (the server's start
    is most of it: seconds of imports, several times that on a loaded machine); stdin stays
    open meanwhile (the server stops its calls when stdin closes). The server's stderr goes
    to `log`. Its lines are read by a thread (`_lines_of`): select() takes no pipes on Windows,
    and a buffered readline after select() may hold answers that select() no longer sees."""
    with log.open("wb") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", "arxiv_mcp", "--log-level", "INFO"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            env=env,
        )
    answers: dict = {}
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write("".join(json.dumps(line) + "\n" for line in lines).encode())
        proc.stdin.flush()
        incoming = _lines_of(proc.stdout)
        deadline = time.monotonic() + 60
        while set(answers) < wanted and time.monotonic() < deadline:
            try:
                line = incoming.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if not line:
                break
            message = json.loads(line)
            answers[message.get("id")] = message
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
    return answers


def _lines_of(stream) -> queue.Queue[bytes]:
    """The stream's lines as they come, then b"" at its end; read by a thread, since select()
    takes no pipes on Windows (nor descriptors past 1023 anywhere)."""
    lines: queue.Queue[bytes] = queue.Queue()

    def pump() -> None:
        for line in iter(stream.readline, b""):
            lines.put(line)
        lines.put(b"")

    threading.Thread(target=pump, daemon=True).start()
    return lines


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
