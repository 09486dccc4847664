"""The disk under the cache: full or limited, read-only, damaged files, a lost journal, and
what the size and count limits give way first. Tool results go through a real MCP client."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from arxiv_mcp.cache.store import Cache
from arxiv_mcp.ids import PaperId
from tests import jsonrpc, platforms
from tests.conftest import html_paper, paper
from tests.pdfgen import make_pdf, pdf_of_size

pytestmark = pytest.mark.anyio

FSIZE_LIMIT = 64 * 1024

# A server with a file-size limit (RLIMIT_FSIZE, as `ulimit -f` sets it), driven by an MCP client
# in the same process; the limit applies to root too, so this runs the same in CI.
LIMITED_CLIENT = textwrap.dedent(
    """
    import asyncio, json, resource, sys

    limit = int(sys.argv[1])
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    from mcp.client import Client
    from arxiv_mcp.config import load
    from arxiv_mcp.server import build_server

    async def main():
        results = []
        async with Client(build_server(load())) as client:
            for name, args in json.loads(sys.argv[2]):
                r = await client.call_tool(name, args)
                results.append({"error": r.is_error, "text": r.content[0].text, "data": r.structured_content})
        print(json.dumps(results))

    asyncio.run(main())
    """
)


def upstream(fake, prefix: str = "/") -> list[str]:
    return [r.path for r in fake.requests if r.path.startswith(prefix) and not r.path.startswith("/s2/")]


def ok(result) -> dict:
    assert not result.is_error, result.content[0].text
    return result.structured_content


def padded_html_paper(pid: str, title: str, words: int = 200, pad: int = 0):
    """An HTML paper whose page is `pad` bytes bigger than its text (markup a reader drops)."""
    p = html_paper(pid, title, sections=[("Introduction", f"{title} matters. " * words)])
    p.html = p.html.replace("</body>", f"<!-- {'x' * pad} --></body>")
    return p


def run_limited(fake, home: Path, calls: list) -> list[dict]:
    env = jsonrpc.environment()
    env.update(fake.env(), ARXIV_MCP_HOME=str(home), PYTHONDONTWRITEBYTECODE="1")
    out = subprocess.run(
        [sys.executable, "-c", LIMITED_CLIENT, str(FSIZE_LIMIT), json.dumps(calls)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@platforms.posix_rlimits
def test_a_file_size_limit_is_a_clear_error_and_read_text_still_comes_back(fake, tmp_path):
    home = tmp_path / "home"
    Cache(home).close()  # the index exists before the limit, as on a disk that filled up later
    fake.add(padded_html_paper("2403.00001", "Long reads", words=6000))  # text ~100 KB: over the limit
    fake.add(paper("2403.00002", "Big figures", pdf=make_pdf([f"Page {n} " + "ink " * 600 for n in range(40)])))
    read = ["read_paper", {"paper_id": "2403.00001v1"}]
    results = run_limited(
        fake,
        home,
        [read, read, ["download_paper", {"paper_id": "2403.00002v1"}], ["get_paper", {"paper_id": "2403.00001"}]],
    )
    first, second, download, meta = results
    assert not first["error"] and "Long reads matters." in first["data"]["text"]
    assert "could not be cached" in first["data"]["notice"] and "file-size limit" in first["data"]["notice"]
    assert "could not be cached" in first["text"]
    assert not second["error"] and second["data"]["method"] == "html", "not cached, so fetched again"
    assert upstream(fake, "/html/") == ["/html/2403.00001v1"] * 2
    assert download["error"] and "Error executing tool" not in download["text"]
    assert "file-size limit" in download["text"] and "ARXIV_MCP_MAX_DOWNLOAD_MB" in download["text"]
    assert not meta["error"] and meta["data"]["title"] == "Long reads", "metadata is still served"
    assert os.listdir(home / "tmp") == [], "no half-written file is left behind"
    cache = Cache(home)
    assert cache.verify() == []


def test_disk_problems_name_the_cause_and_the_fix():
    from arxiv_mcp.cache.disk import disk_problem

    assert "disk is full" in disk_problem(OSError(28, "No space left on device"))
    assert "ARXIV_MCP_HOME" in disk_problem(OSError(30, "Read-only file system"))
    assert "ulimit" in disk_problem(OSError(27, "File too large"))
    assert "Input/output error" in disk_problem(OSError(5, "Input/output error"))


def _fill(home: Path) -> Cache:
    cache = Cache(home, max_bytes=10**6)
    for n in range(1, 4):
        cache.put_meta(PaperId(f"2403.0000{n}", 1), {"title": f"Paper {n}"}, latest=True)
        cache.put_text(PaperId(f"2403.0000{n}", 1), f"text {n} " * 2000, method="html", extractor_version=1)
        cache.put_raw(PaperId(f"2403.0000{n}", 1), "pdf", pdf_of_size(30_009, n), "application/pdf")
    return cache


def _on_disk(home: Path) -> int:
    return sum(p.stat().st_size for p in (home / "papers").iterdir())


@pytest.mark.parametrize("lost", [["journal.jsonl"], ["index.json"], ["index.json", "journal.jsonl"]])
def test_a_lost_journal_or_index_does_not_forget_the_files(tmp_path, caplog, lost):
    home = tmp_path / "home"
    _fill(home).close()
    before = _on_disk(home)
    for name in lost:
        (home / name).unlink()
    caplog.set_level(logging.WARNING, "arxiv_mcp.cache")
    cache = Cache(home, max_bytes=10**6)
    stats = cache.stats()
    assert (stats.papers, stats.bytes) == (3, before), "every file is counted again"
    assert [r for r in caplog.records if r.levelno == logging.WARNING], "the loss is logged"
    assert cache.get_text(PaperId("2403.00002", 1)).text.startswith("text 2 ")
    assert cache.verify() == []
    cache.close()
    small = Cache(home, max_bytes=80_000)
    assert small.stats().bytes <= 80_000 and _on_disk(home) == small.stats().bytes, "the limit covers them"
    assert small.clear().bytes_freed > 0 and list((home / "papers").iterdir()) == [], "clear_cache removes them"


def test_a_journal_deleted_under_a_running_server_is_recovered(tmp_path, caplog):
    home = tmp_path / "home"
    cache = _fill(home)
    (home / "journal.jsonl").unlink()
    caplog.set_level(logging.WARNING, "arxiv_mcp.cache")
    assert cache.stats().papers == 3 and cache.stats().bytes == _on_disk(home)
    assert "journal" in caplog.text and "missing" in caplog.text


async def test_a_damaged_raw_file_is_never_returned_as_good(fake, connect):
    fake.add(paper("2403.00007", "Cut files"))
    async with connect() as client:
        first = ok(await client.call_tool("download_paper", {"paper_id": "2403.00007v1"}))
        genuine = Path(first["path"]).read_bytes()
        middle = len(genuine) // 2
        for damage in (genuine[:middle] + b"#" + genuine[middle + 1 :], genuine[: len(genuine) - 200]):
            Path(first["path"]).write_bytes(damage)
            again = ok(await client.call_tool("download_paper", {"paper_id": "2403.00007v1"}))
            assert again["cached"] is False and Path(again["path"]).read_bytes() == genuine
        assert len(upstream(fake, "/pdf/")) == 3, "each damaged copy was fetched again"
        assert ok(await client.call_tool("download_paper", {"paper_id": "2403.00007v1"}))["cached"] is True


async def test_damaged_text_is_never_returned_as_good(fake, connect, make_config):
    fake.add(html_paper("2403.00008", "Honest text"))
    config = make_config()
    async with connect(config=config) as client:
        ok(await client.call_tool("read_paper", {"paper_id": "2403.00008v1"}))
        text_file = config.home / "papers" / "2403.00008v1.text.json"
        text_file.write_bytes(text_file.read_bytes().replace(b"Transformers", b"Transformer!"))
        again = ok(await client.call_tool("read_paper", {"paper_id": "2403.00008v1"}))
        assert again["method"] == "html" and "Transformer!" not in again["text"]
    assert upstream(fake, "/html/") == ["/html/2403.00008v1"] * 2


def _start(home: Path, *, drop_root: bool = False) -> subprocess.CompletedProcess:
    env = jsonrpc.environment()
    env["ARXIV_MCP_HOME"] = str(home)
    command = [sys.executable, "-m", "arxiv_mcp"]
    if drop_root:  # root writes through any permission bits; without these capabilities it cannot
        command = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner", *command]
    return subprocess.run(command, capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL, timeout=60)


def _one_line_naming_home(out: subprocess.CompletedProcess) -> str:
    lines = out.stderr.strip().splitlines()
    assert out.returncode == 2 and out.stdout == "" and len(lines) == 1, out.stderr
    assert "ARXIV_MCP_HOME" in lines[0] and "Traceback" not in out.stderr
    return lines[0]


@platforms.posix_permissions
def test_a_read_only_home_stops_start_up_in_one_line(tmp_path):
    home = tmp_path / "home"
    Cache(home).close()
    root = os.geteuid() == 0
    if root and shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: no way to make a folder read-only for this process")
    for folder in (home, home / "tmp"):
        folder.chmod(0o555)
    try:
        line = _one_line_naming_home(_start(home, drop_root=root))
    finally:
        for folder in (home, home / "tmp"):
            folder.chmod(0o755)
    assert "Permission denied" in line and "can write" in line


@pytest.mark.parametrize("where", ["the home", "a parent", "a subfolder"])
def test_a_file_where_the_home_folder_belongs_stops_start_up_in_one_line(tmp_path, where):
    target = {"the home": tmp_path / "home", "a parent": tmp_path, "a subfolder": tmp_path / "home" / "papers"}[where]
    (tmp_path / "home").mkdir()
    if where == "a parent":
        home = tmp_path / "file" / "home"
        (tmp_path / "file").write_text("not a folder")
    else:
        home = tmp_path / "home"
        if target.is_dir():
            target.rmdir()
        target.write_text("not a folder")
    _one_line_naming_home(_start(home))


async def test_raw_pages_go_before_text_under_the_disk_limit(fake, make_config, connect):
    config = make_config(ARXIV_MCP_MAX_DISK_MB=1)
    ids = [f"2403.0001{n}" for n in range(5)]
    for n, pid in enumerate(ids):
        fake.add(padded_html_paper(pid, f"Paper number {n}", pad=300_000))  # pages 300 KB, text 5 KB
    async with connect(config=config) as client:
        for pid in ids:
            ok(await client.call_tool("read_paper", {"paper_id": pid + "v1"}))
        assert ok(await client.call_tool("cache_stats", {}))["bytes"] <= 2**20
        fake.clear_log()
        for pid in ids:
            again = ok(await client.call_tool("read_paper", {"paper_id": pid + "v1"}))
            assert again["cached"], f"{pid}: its text was kept"
        assert upstream(fake) == [], "every paper is read again with no request"
        listed = ok(await client.call_tool("list_cached", {}))["papers"]
        assert {p["paper_id"]: p["tiers"] for p in listed}[ids[0]] == ["text"], "its page went, its text stayed"


async def test_two_big_searches_do_not_evict_a_paper_read_a_minute_ago(fake, connect):
    fake.add(html_paper("2403.00009", "The paper we read"))
    for n in range(300):
        word = "alpha" if n < 150 else "beta"
        fake.add(paper(f"2402.{n:05d}", f"Survey {word} {n}", abstract=f"A {word} study."))
    async with connect() as client:  # the default limits: 200 papers
        ok(await client.call_tool("read_paper", {"paper_id": "2403.00009"}))
        for word in ("alpha", "beta"):
            found = ok(await client.call_tool("search_papers", {"query": word, "max_results": 150}))
            assert len(found["papers"]) == 150
        fake.clear_log()
        again = ok(await client.call_tool("read_paper", {"paper_id": "2403.00009"}))
        assert again["cached"] and upstream(fake) == [], "read again with no request"
        stats = ok(await client.call_tool("cache_stats", {}))
        assert stats["papers"] == 200


async def test_download_path_is_absolute_and_opens(fake, make_config, connect, tmp_path, monkeypatch):
    platforms.set_user_home(monkeypatch, tmp_path)
    fake.add(paper("2403.00010", "Files to open"))
    config = make_config(ARXIV_MCP_HOME=str(tmp_path / ".arxiv-mcp"))
    async with connect(config=config) as client:
        result = await client.call_tool("download_paper", {"paper_id": "2403.00010v1"})
        path = ok(result)["path"]
        assert os.path.isabs(path) and path.startswith(str(tmp_path / ".arxiv-mcp"))
        with open(path, "rb") as handle:
            assert handle.read(5) == b"%PDF-"
        shown = os.path.join("~", ".arxiv-mcp", "papers", "2403.00010v1.pdf")  # native separators
        assert shown in result.content[0].text, "the text may shorten it"


def test_a_pdf_the_disk_refuses_is_still_read_once(fake, tmp_path):
    """A read that must keep the PDF first (no HTML, no source) still returns its text when the
    disk refuses the file, from its one download, and says the text could not be cached."""
    home = tmp_path / "home"
    Cache(home).close()
    pages = ["\n".join(f"Line {k} of page {n}: " + f"word{n}x{k} " * 8 for k in range(30)) for n in range(40)]
    fake.add(paper("2403.00003", "Only a PDF", pdf=make_pdf(pages)))
    (read,) = run_limited(fake, home, [["read_paper", {"paper_id": "2403.00003v1", "page_size": 100000}]])
    assert not read["error"], read["text"]
    assert "word39x12 word39x12" in read["data"]["text"] and "could not be cached" in read["data"]["notice"]
    assert upstream(fake, "/pdf/") == ["/pdf/2403.00003v1"], "one download, not one per step"
