"""The mirror across processes (issue 31): the command line, a harvest killed and restarted,
SIGTERM and a closed stdin ending it with what it stored, and arXiv's spacing kept between
OAI pages and another process's API requests, measured where arXiv would see it (the fake)."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests import jsonrpc
from tests.fake_arxiv import FakeArxiv, FakePaper

NOW = datetime.now(UTC).replace(microsecond=0)


def _corpus(n: int, cat: str = "cs.LG") -> list[FakePaper]:
    return [
        FakePaper(
            id=f"2401.{i:05d}",
            title=f"Paper number {i} on graphs",
            abstract="We study graphs.",
            authors=["Ada Lovelace"],
            categories=[cat],
            published=NOW - timedelta(days=n - i),
        )
        for i in range(1, n + 1)
    ]


def _env(fake: FakeArxiv, home: Path, **settings: str) -> dict[str, str]:
    return jsonrpc.fake_environment(fake, home, **settings)


def _mirror(*args: str, env: dict[str, str], **kw) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "arxiv_mcp", "mirror", *args], env=env, stderr=subprocess.PIPE, text=True, **kw
    )


def _stop_at_page(page: int, sig: signal.Signals, env: dict[str, str]) -> subprocess.Popen[str]:
    """A `mirror sync --sets cs.LG` sent `sig` once it has shown its line for `page`."""
    proc = _mirror("sync", "--sets", "cs.LG", env=env)
    assert proc.stderr
    for line in proc.stderr:
        if line.startswith(f"mirror cs.LG: page {page},"):
            break
    proc.send_signal(sig)
    return proc


def _run(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`arxiv-mcp mirror ARGS` to its end; with no arguments, the server itself."""
    command = ["mirror", *args] if args else []
    return subprocess.run(
        [sys.executable, "-m", "arxiv_mcp", *command], env=env, capture_output=True, text=True, timeout=120
    )


def _stored(home: Path) -> list[str]:
    with sqlite3.connect(home / "mirror.sqlite3") as db:
        return [r[0] for r in db.execute("SELECT id FROM papers ORDER BY id")]


def test_sync_shows_a_line_per_page_and_status_shows_the_sets(tmp_path):
    with FakeArxiv(_corpus(6)) as fake:
        env = _env(fake, tmp_path / "home")
        done = _run("sync", "--sets", "cs.LG", env=env)
        assert done.returncode == 0, done.stderr
        lines = [ln for ln in done.stderr.splitlines() if ln.startswith("mirror cs.LG: page")]
        assert [ln.split(",")[0] for ln in lines] == [f"mirror cs.LG: page {n}" for n in (1, 2, 3)]
        assert "Harvested 3 pages (6 records)" in done.stderr
        status = _run("status", env={**env, "ARXIV_MCP_MIRROR": "cs.LG"})
        assert status.returncode == 0 and "- cs.LG: 6 papers; last sync" in status.stdout
        refused = _run(env={**env, "ARXIV_MCP_MIRROR": "cs.LG,cs.XX"})
        assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1
        assert "'cs.XX' is not an arXiv category" in refused.stderr


def test_a_harvest_killed_mid_way_resumes_losing_and_repeating_nothing(tmp_path):
    papers = _corpus(40)
    with FakeArxiv(papers) as fake:
        env = _env(fake, tmp_path / "home", ARXIV_MCP_MIN_INTERVAL_S="0.2")
        _stop_at_page(5, signal.SIGKILL, env).wait(30)
        killed_after = len(fake.requests_to("/oai"))
        assert 5 <= killed_after < 20
        stored_then = _stored(tmp_path / "home")
        again = _run("sync", "--sets", "cs.LG", env=env)
        assert again.returncode == 0, again.stderr
        asked = [r.query for r in fake.requests_to("/oai")]
    assert "resumptionToken" in asked[killed_after]  # resumed from the stored token, not from the start
    assert len(asked) <= 20 + 1  # 20 pages, and at most the page in flight asked twice
    assert set(stored_then) <= set(_stored(tmp_path / "home"))
    assert _stored(tmp_path / "home") == sorted(p.id for p in papers)
    with sqlite3.connect(tmp_path / "home" / "mirror.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM versions").fetchone()[0] == 40
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_sigterm_ends_a_harvest_within_5_s_keeping_its_pages(tmp_path):
    with FakeArxiv(_corpus(40)) as fake:
        env = _env(fake, tmp_path / "home", ARXIV_MCP_MIN_INTERVAL_S="0.5")
        _stop_at_page(2, signal.SIGTERM, env).wait(5)
    stored = _stored(tmp_path / "home")
    assert 4 <= len(stored) < 40 and len(stored) % 2 == 0  # whole pages only


def test_a_server_harvesting_in_the_background_ends_when_stdin_closes(tmp_path):
    with FakeArxiv(_corpus(40)) as fake:
        env = _env(fake, tmp_path / "home", ARXIV_MCP_MIN_INTERVAL_S="0.3", ARXIV_MCP_MIRROR="cs.LG")
        proc = subprocess.Popen(
            [sys.executable, "-m", "arxiv_mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        assert proc.stdin and proc.stdout
        proc.stdin.write(json.dumps(jsonrpc.initialize(1, "test")).encode() + b"\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["id"] == 1
        deadline = time.monotonic() + 60
        while len(fake.requests_to("/oai")) < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(fake.requests_to("/oai")) >= 3  # harvesting by itself, after start-up
        proc.stdin.close()
        proc.wait(5)
    assert len(_stored(tmp_path / "home")) >= 4


def test_oai_pages_and_another_process_s_api_requests_are_3_s_apart(tmp_path):
    """The one test of the real spacing: 3 OAI pages and 2 API searches from two processes."""
    with FakeArxiv(_corpus(6)) as fake:
        env = _env(fake, tmp_path / "home", ARXIV_MCP_MIN_INTERVAL_S="3")
        harvest = _mirror("sync", "--sets", "cs.LG", env=env)
        searcher = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "from arxiv_mcp.config import load\nfrom arxiv_mcp.service import ArxivService\n"
                "s = ArxivService(load())\nfor w in ('alpha', 'beta'): s.search(query=w, category='hep-th')",
            ],
            env=env,
        )
        assert harvest.wait(120) == 0 and searcher.wait(120) == 0
        arrivals = sorted((r.t, r.path) for r in fake.requests)
    assert [p for _, p in arrivals].count("/oai") == 3 and [p for _, p in arrivals].count("/api/query") == 2
    gaps = [b[0] - a[0] for a, b in zip(arrivals, arrivals[1:], strict=False)]
    assert min(gaps) >= 3.0, gaps
