"""The real console entry point over streamable HTTP: bound to loopback by default; Host,
Origin and (off loopback, or when set) the bearer token checked whatever the bind address.

Requests only ever go to loopback addresses; a forged Host or Origin header stands in for a
web page that reached the port (DNS rebinding, or a cross-site request)."""

from __future__ import annotations

import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests
from mcp.client import Client

from arxiv_mcp.cli import _parser
from arxiv_mcp.http_guard import allowed_hosts, is_loopback
from tests import jsonrpc
from tests.conftest import html_paper
from tests.hostile import capped_command

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
        for line in table.read_text(encoding="utf-8").splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, hex_port = local.split(":")
            if state == "0A" and int(hex_port, 16) == port:
                found.add(address)
    return found


def _wait_listening(
    proc: subprocess.Popen, port: int, log: Path, address: str = "127.0.0.1", timeout: float = 30.0
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"server exited with {proc.returncode}: {log.read_text(encoding='utf-8')}")
        try:
            socket.create_connection((address, port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"server did not listen on {address}:{port} within {timeout:g} s")


@contextmanager
def serving(
    fake, tmp_path: Path, *args: str, env: dict[str, str] | None = None, memory_cap: int | None = None
) -> Iterator[tuple[int, Path]]:
    """A `python -m arxiv_mcp --transport http` process on a free port with `args` (such as
    `--host`) and extra `env`, under `memory_cap` bytes of address space if given (POSIX);
    yields the port and its stderr log once it listens."""
    port = _free_port()
    full_env = jsonrpc.environment()
    full_env.update(fake.env(), ARXIV_MCP_HOME=str(tmp_path / "home"), **(env or {}))
    log = tmp_path / f"server-{port}.log"
    server_args = ["--transport", "http", "--port", str(port), *args]
    command = [sys.executable, "-m", "arxiv_mcp", *server_args]
    if memory_cap is not None:
        command = capped_command(memory_cap, tmp_path / f"server-{port}.pid", *server_args)
    with log.open("w") as stderr:
        proc = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            env=full_env,
        )
    try:
        _wait_listening(proc, port, log, address=_target(args))
        yield port, log
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _target(args: tuple[str, ...]) -> str:
    """The loopback address to reach a server started with `args`: its --host when that is a
    loopback address, else 127.0.0.1 (tests never reach beyond loopback)."""
    host = args[args.index("--host") + 1] if "--host" in args else "127.0.0.1"
    return host if host.startswith("127.") else "127.0.0.1"


@pytest.fixture
def http_server(fake, tmp_path):
    """The server on a free port, with no --host (the default)."""
    with serving(fake, tmp_path) as (port, _log):
        yield port


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


MODERN = "2026-07-28"
BINDS = ["127.0.0.1", "127.0.0.2", "0.0.0.0"]


def _can_bind(address: str) -> bool:
    try:
        with socket.socket() as s:
            s.bind((address, 0))
        return True
    except OSError:
        return False


def _call(url: str, tool: str, arguments: dict, **headers: str) -> requests.Response:
    """One 2026-07-28 `tools/call` POST: what a web page reaching the port could send."""
    meta = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}}
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}
    body["params"]["_meta"] = meta
    sent = {
        "MCP-Protocol-Version": MODERN,
        "Mcp-Method": "tools/call",
        "Mcp-Name": tool,
        "Accept": "application/json, text/event-stream",
        **headers,
    }
    return requests.post(url, json=body, headers=sent, timeout=30)


@contextmanager
def _bound(fake, tmp_path, bind: str) -> Iterator[tuple[str, int, dict[str, str]]]:
    """A server bound to `bind` (with a token when that is not loopback): its loopback URL,
    port and the headers a legitimate client sends."""
    if not _can_bind(bind):
        pytest.skip(f"this sandbox cannot bind {bind}")
    token = secrets.token_urlsafe(24)
    env = {} if bind.startswith("127.") else {"ARXIV_MCP_HTTP_TOKEN": token}
    with serving(fake, tmp_path, "--host", bind, env=env) as (port, log):
        auth = {"Authorization": f"Bearer {token}"} if env else {}
        yield f"http://{_target(('--host', bind))}:{port}/mcp", port, auth
        assert token not in log.read_text(encoding="utf-8")


@pytest.mark.parametrize("bind", BINDS)
def test_a_foreign_host_or_origin_cannot_call_a_tool_whatever_the_bind(fake, tmp_path, bind):
    fake.add(html_paper(PAPER_ID, "Kept from rebinding pages"))
    with _bound(fake, tmp_path, bind) as (url, port, auth):
        target = url.split("//")[1].split("/")[0]
        assert not _call(url, "get_paper", {"paper_id": PAPER_ID}, **auth).json()["result"]["isError"]
        forged_hosts = [
            f"evil.example:{port}",
            "evil.example",
            f"127.0.0.1:{port + 1}",
            f"localhost:{port}.evil.example",
        ]
        for host in forged_hosts:
            answer = _call(url, "clear_cache", {"drop_pinned": True}, Host=host, **auth)
            assert answer.status_code == 421, (host, answer.status_code, answer.text)
        forged_origins = ["http://evil.example", f"http://evil.example:{port}", "null", f"http://localhost:{port + 1}"]
        for origin in forged_origins:
            answer = _call(url, "clear_cache", {"drop_pinned": True}, Origin=origin, **auth)
            assert answer.status_code == 403, (origin, answer.status_code, answer.text)
        listed = _call(url, "list_cached", {}, **auth).json()["result"]["structuredContent"]
        assert [p["paper_id"] for p in listed["papers"]] == [PAPER_ID]

        # the same request with this server's own names goes through: only the headers were refused
        for host in {target, f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}"}:
            for origin in ({}, {"Origin": f"http://{host}"}):
                answer = _call(url, "cache_stats", {}, Host=host, **origin, **auth)
                assert answer.status_code == 200, (host, origin, answer.text)
        cleared = _call(url, "clear_cache", {"drop_pinned": True}, **auth).json()["result"]["structuredContent"]
        assert [e.split("v")[0] for e in cleared["evicted"]] == [PAPER_ID]


@pytest.mark.parametrize("bind", ["127.0.0.1", "0.0.0.0"])
def test_with_a_token_every_request_needs_it(fake, tmp_path, bind):
    token = secrets.token_urlsafe(24)
    wrong = token[:-1] + ("A" if token[-1] != "A" else "B")
    env = {"ARXIV_MCP_HTTP_TOKEN": token}
    if not _can_bind(bind):
        pytest.skip(f"this sandbox cannot bind {bind}")
    with serving(fake, tmp_path, "--host", bind, env=env) as (port, log):
        url = f"http://127.0.0.1:{port}/mcp"
        for headers in (
            {},
            {"Authorization": f"Bearer {wrong}"},
            {"Authorization": token},
            {"Authorization": f"Basic {token}"},
        ):
            answer = _call(url, "cache_stats", {}, **headers)
            assert answer.status_code == 401 and answer.headers["www-authenticate"] == "Bearer", headers
            assert token not in answer.text and wrong not in answer.text
        assert _call(url, "cache_stats", {}, Authorization=f"Bearer {token}").status_code == 200
        assert _call(url, "cache_stats", {}, Authorization=f"bearer  {token} ").status_code == 200
        assert token not in log.read_text(encoding="utf-8")


@pytest.mark.parametrize("bind", ["0.0.0.0", "::", "192.0.2.1", "example.org"])
def test_binding_beyond_loopback_without_a_token_refuses_to_start(fake, tmp_path, bind):
    env = jsonrpc.environment()
    env.update(fake.env(), ARXIV_MCP_HOME=str(tmp_path / "home"))
    command = [sys.executable, "-m", "arxiv_mcp", "--transport", "http", "--host", bind, "--port", str(_free_port())]
    proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError(f"the server started on {bind} without a token") from None
    assert proc.returncode == 2 and out == b""
    lines = err.decode().splitlines()
    assert len(lines) == 1 and "ARXIV_MCP_HTTP_TOKEN" in lines[0] and bind in lines[0], lines


def test_allowed_hosts_are_the_bound_address_and_loopback_names_with_the_port():
    assert allowed_hosts("127.0.0.2", 8000) == ["127.0.0.2:8000", "localhost:8000", "127.0.0.1:8000", "[::1]:8000"]
    assert allowed_hosts("::1", 9) == ["[::1]:9", "localhost:9", "127.0.0.1:9"]
    assert allowed_hosts("Box.LAN", 9)[0] == "box.lan:9"
    assert [is_loopback(h) for h in ("127.0.0.2", "::1", "[::1]", "LOCALHOST", "0.0.0.0", "::", "10.0.0.1")] == [
        True,
        True,
        True,
        True,
        False,
        False,
        False,
    ]
