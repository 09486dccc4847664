"""No tool result ever shows the Semantic Scholar API key or the user's home directory, and a
key that could not go into a header is refused at start-up without being shown.

HOME is a temporary folder with a distinctive name and the cache lives under it, as it does
by default; every tool is called with good and bad arguments and against failing upstreams,
and its text and structured content are searched for the key and for the home path.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import subprocess
import sys

import pytest

from arxiv_mcp.config import ConfigError
from arxiv_mcp.service import ArxivService
from tests import jsonrpc, platforms
from tests.conftest import html_paper, paper
from tests.fake_arxiv import eprint
from tests.test_faults import LATEX

pytestmark = pytest.mark.anyio

PID = "2403.00001"
OTHER = "2403.00002"
SESSION = "secrets-session"

# Every tool, each with calls that succeed and calls that fail. A tool missing here fails
# test_no_result_shows_the_key_or_the_home_path: add its calls when you add the tool.
CALLS: dict[str, list[dict]] = {
    "search_papers": [
        {"query": "secret graphs"},
        {"id_list": [PID, "2403.09999"]},
        {"max_results": 0},
        {"category": "no.such"},
    ],
    "get_paper": [{"paper_id": PID}, {"paper_id": "../../etc/passwd"}, {"paper_id": "2403.09999"}],
    "read_paper": [
        {"paper_id": PID, "session_id": SESSION},
        {"paper_id": PID, "page": 99},
        {"paper_id": OTHER + "v1"},
        {"paper_id": PID, "session_id": "closed-session"},
    ],
    "find_in_paper": [{"paper_id": PID, "query": "unicorn"}, {"paper_id": PID, "query": " "}],
    "compare_versions": [{"paper_id": PID}, {"paper_id": PID, "to_version": 9}],
    "download_paper": [
        {"paper_id": PID, "fmt": "pdf"},
        {"paper_id": PID, "fmt": "source"},
        {"paper_id": PID, "fmt": "docx"},
        {"paper_id": OTHER, "fmt": "pdf"},
    ],
    "start_session": [{"session_id": SESSION}, {"session_id": "../escape"}, {}],
    "session_status": [{"session_id": SESSION}, {"session_id": "never-started"}],
    "end_session": [{"session_id": SESSION}, {"session_id": SESSION}],
    "cache_stats": [{}],
    "list_cached": [{}],
    "list_categories": [{"group": "cs"}, {"group": "no-such-group"}],
    "search_cached": [{"query": "unicorn"}, {"query": ""}],
    "export_bibtex": [{"paper_ids": [PID, "2403.09999"]}, {"paper_ids": []}],
    "get_references": [{"paper_id": PID}, {"paper_id": PID, "limit": 1000}],
    "get_citations": [{"paper_id": PID}, {"paper_id": "2403.09999"}, {"paper_id": OTHER}],
    "resolve_references": [
        {"references": [PID, "2403.09999", "Vaswani et al. Attention is all you need. 2017."]},
        {"text": "[1] A. Turing. On computable numbers. 1936.", "session_id": SESSION},
    ],
    "category_trends": [{"category": "cs.LG", "window_days": 30}, {"category": "nope.XX"}],
    "list_new": [{"category": "cs.LG"}, {"category": "cs.LG", "since": "not a cursor"}],
    "clear_cache": [{}, {"drop_pinned": True}],
}


@pytest.fixture
def user_home(tmp_path, monkeypatch):
    home = tmp_path / f"home-of-ada-{secrets.token_hex(3)}"
    home.mkdir()
    platforms.set_user_home(monkeypatch, home)
    return home


def leaks(result, needles: list[str]) -> list[str]:
    """Needles in what the model is shown; download_paper's `path` field is exempt: it is the
    absolute path a client opens (its text rendering shows ~ instead)."""
    shown = " ".join(c.text for c in result.content if getattr(c, "text", None))
    structured = {k: v for k, v in (result.structured_content or {}).items() if k != "path"}
    shown += json.dumps(structured, ensure_ascii=False)
    return [n for n in needles if n in shown]


async def test_no_result_shows_the_key_or_the_home_path(fake, make_config, connect, user_home, caplog):
    caplog.set_level(logging.DEBUG)
    key = "s2-key-" + secrets.token_hex(12)
    p = html_paper(PID, "Secret graphs", source=eprint({"main.tex": LATEX}))
    p.references = [{"title": "A survey of the field", "year": 2019, "authors": ["A. Author"], "arxiv": None}]
    p.citations = [{"title": "A follow-up", "year": 2025, "authors": ["B. Writer"], "arxiv": None}]
    fake.add(p)
    fake.add(paper(OTHER, "Failing upstream"))
    fake.fault(f"/html/{OTHER}", "status", status=503, retry_after="0", times=100)
    fake.fault(f"/pdf/{OTHER}", "reset", times=100)
    fake.fault(f"/s2/graph/v1/paper/arXiv:{OTHER}", "status", status=429, retry_after="0", times=100)
    config = make_config(
        ARXIV_MCP_HOME=str(user_home / ".arxiv-mcp"),
        SEMANTIC_SCHOLAR_API_KEY=key,
        ARXIV_MCP_TIMEOUT_S=1,
        ARXIV_MCP_DEADLINE_S=20,
    )
    needles = [key, str(user_home), str(user_home.resolve()), user_home.name]
    outcomes = {"ok": 0, "error": 0}
    svc = ArxivService(config)
    svc.http.backoff_s = 0.01
    svc.http.s2.limiter.interval = 0.0  # Semantic Scholar's 1 s spacing is not under test here
    async with connect(config=config, service=svc) as client:
        tools = {t.name for t in (await client.list_tools()).tools}
        assert tools == set(CALLS), f"tools without calls here: {tools - set(CALLS)}"
        for name, calls in CALLS.items():
            for args in calls:
                result = await client.call_tool(name, args)
                assert leaks(result, needles) == [], (name, args)
                outcomes["error" if result.is_error else "ok"] += 1
                if name == "download_paper" and not result.is_error:
                    path = result.structured_content["path"]
                    assert path.startswith(str(user_home / ".arxiv-mcp") + os.sep) and os.path.isfile(path)
                    assert os.path.join("~", ".arxiv-mcp", "") in result.content[0].text
        for uri in (f"arxiv://paper/{PID}", f"arxiv://paper/{PID}/text"):
            read = await client.read_resource(uri)
            assert not any(n in c.text for c in read.contents for n in needles)
    assert outcomes["ok"] >= 20 and outcomes["error"] >= 15
    s2 = fake.requests_to("/s2/")
    assert s2 and all(r.headers.get("x-api-key") == key for r in s2)
    assert not any("x-api-key" in r.headers for r in fake.requests if not r.path.startswith("/s2/"))
    assert key not in caplog.text


ODD_KEYS = {
    "newline": "s2key-FIRSTHALF\nSECONDHALF",
    "carriage return": "s2key-FIRSTHALF\r\nSECONDHALF",
    "space": "s2key-FIRSTHALF SECONDHALF",
    "tab": "s2key-FIRSTHALF\tSECONDHALF",
    "NUL": "s2key-FIRSTHALF\x00SECONDHALF",
    "DEL": "s2key-FIRSTHALF\x7fSECONDHALF",
    "non-ASCII": "s2key-FIRSTHALF\u00e9SECONDHALF",
}


@pytest.mark.parametrize("variable", ["SEMANTIC_SCHOLAR_API_KEY", "ARXIV_MCP_HTTP_TOKEN"])
@pytest.mark.parametrize("odd", ODD_KEYS)
def test_a_key_with_odd_characters_is_refused_without_being_shown(make_config, variable, odd):
    # requests would refuse such a header value with an error quoting it whole
    with pytest.raises(ConfigError) as refused:
        make_config(**{variable: ODD_KEYS[odd]})
    message = str(refused.value)
    assert variable in message and "FIRSTHALF" not in message and "SECONDHALF" not in message
    assert "\n" not in message


def test_a_server_given_an_odd_key_stops_with_one_line_that_does_not_show_it(fake, tmp_path):
    env = jsonrpc.environment()
    env.update(fake.env(), ARXIV_MCP_HOME=str(tmp_path / "home"), SEMANTIC_SCHOLAR_API_KEY=ODD_KEYS["newline"])
    done = subprocess.run(
        [sys.executable, "-m", "arxiv_mcp"], input=b"", capture_output=True, env=env, timeout=60, check=False
    )
    assert done.returncode == 2 and done.stdout == b""
    lines = done.stderr.decode().splitlines()
    assert len(lines) == 1 and "SEMANTIC_SCHOLAR_API_KEY" in lines[0], lines
    assert b"FIRSTHALF" not in done.stderr and b"SECONDHALF" not in done.stderr


def test_http_tokens_are_a_comma_separated_list_of_long_ones(make_config):
    first, second = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
    assert make_config(ARXIV_MCP_HTTP_TOKEN=f" {first} , {second},{first}").http_tokens == (first, second)
    assert make_config().http_tokens == ()
    for bad in ("short-token", f"{first},,{second}"):
        with pytest.raises(ConfigError, match="ARXIV_MCP_HTTP_TOKEN") as refused:
            make_config(ARXIV_MCP_HTTP_TOKEN=bad)
        assert first not in str(refused.value) and "short" not in str(refused.value)
    assert first not in repr(make_config(ARXIV_MCP_HTTP_TOKEN=first))
