"""The real console entry point over streamable HTTP, bound to loopback by default."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mcp.client import Client

from arxiv_mcp.cli import _parser
from tests.conftest import html_paper

PAPER_ID = "2401.00010"
LOOPBACK_HEX = {"0100007F", "00000000000000000000000001000000"}
"""127.0.0.1 and ::1 as /proc/net/tcp{,6} write them."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _listening_addresses(port: int) -> set[str]:
    """Local addresses (hex, as the kernel lists them) of sockets listening on `port`."""
    found = set()
    for table in (Path("/proc/net/tcp"), Path("/proc/net/tcp6")):
        if not table.exists():
            continue
        for line in table.read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, hex_port = local.split(":")
            if state == "0A" and int(hex_port, 16) == port:
                found.add(address)
    return found


def _wait_listening(proc: subprocess.Popen, port: int, log: Path, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"server exited with {proc.returncode}: {log.read_text()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"server did not listen on 127.0.0.1:{port} within {timeout:g} s")


@pytest.fixture
def http_server(fake, tmp_path):
    """A `python -m arxiv_mcp --transport http` process on a free port (no --host: the default)."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARXIV_MCP_")}
    env.update(fake.env(), ARXIV_MCP_HOME=str(tmp_path / "home"))
    log = tmp_path / "server.log"
    with log.open("w") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", "arxiv_mcp", "--transport", "http", "--port", str(port)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            env=env,
        )
    try:
        _wait_listening(proc, port, log)
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_default_bind_address_is_loopback():
    assert _parser().parse_args(["--transport", "http"]).host == "127.0.0.1"


@pytest.mark.anyio
async def test_tools_over_streamable_http(fake, http_server):
    fake.add(html_paper(PAPER_ID, "Sparse attention for long documents"))
    addresses = _listening_addresses(http_server)
    if addresses:
        assert addresses <= LOOPBACK_HEX, f"listening beyond loopback: {addresses}"

    async with Client(f"http://127.0.0.1:{http_server}/mcp") as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert {"search_papers", "get_paper", "read_paper"} <= names

        found = await client.call_tool("search_papers", {"query": "sparse attention"})
        assert not found.is_error
        assert [p["id"] for p in found.structured_content["papers"]] == [PAPER_ID]

        meta = await client.call_tool("get_paper", {"paper_id": PAPER_ID})
        assert not meta.is_error and meta.structured_content["id"] == PAPER_ID

        text = await client.call_tool("read_paper", {"paper_id": PAPER_ID, "page": 1})
        assert not text.is_error and text.structured_content["page"] == 1
        assert "Transformers changed sequence modelling." in text.content[0].text
