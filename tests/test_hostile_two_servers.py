"""Two servers on one home through hostile reads (issue 34's acceptance: "nothing lost or
written twice with two servers on one home"), black-box: two stdio servers under a memory cap
(`tests/hostile.py`) share one ARXIV_MCP_HOME with a short deadline, and read at once the same
hostile papers: an e-print whose bibliography is longer than the converter takes, and a PDF of
10^6 objects without a cross-reference table; before that, both search a `library.idx` whose
checksum holds but whose postings lie.

Each answer comes within the deadline + 5 s, in one line when it is an error, and each server
is idle within 5 s of it. Afterwards the cache keeps the promises RELIABILITY.md states for
several processes: every indexed file whole (`Cache.verify`), each paper version listed once,
each of its files on disk once and indexed, no temporary file left, each hostile paper fetched
from arXiv once, nothing the first server cached lost, and the paper read before reads the
same text without a request."""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from mcp.types import CallToolResult

from arxiv_mcp.cache.files import parse_file_name
from arxiv_mcp.cache.store import Cache
from arxiv_mcp.ids import PaperId
from arxiv_mcp.research.library import INDEX_FILE
from arxiv_mcp.text.latex.crossrefs import MAX_ENTRIES
from tests import platforms
from tests.conftest import html_paper, paper
from tests.fake_arxiv import eprint
from tests.hostile import CappedServer, answer, capped_server, peak_rss_mb
from tests.pdfgen import many_objects_pdf
from tests.test_latex_hostile import bibliography, tex
from tests.test_library_index import fill
from tests.test_library_lies import far_postings, sealed, sound, unpack

pytestmark = [pytest.mark.anyio, platforms.linux_proc]  # RLIMIT_AS, and the server's /proc entry

DEADLINE_S = 3
MEMORY_CAP = 3 * 2**30
"""As for one server reading the PDF of many objects (`test_hostile_pdf_stdio.py`)."""
PEAK_RSS_MB = 1024
"""Each server's peak RSS: a third of the cap (340-380 MB measured for the server that reads the PDF)."""
NORMAL, BIBLIOGRAPHY, OBJECTS = "2403.00071", "2403.00072", "2403.00073"
QUERIES = ["sparse attention", "graph kernel bound", "operator"]


def _servers(fake, home: Path, names: tuple[str, ...]) -> list[CappedServer]:
    return [capped_server(fake, home, deadline_s=DEADLINE_S, memory_cap=MEMORY_CAP, name=name) for name in names]


async def _answer(client: Client, server: CappedServer, tool: str, arguments: dict) -> CallToolResult:
    result = await answer(client, server, tool, arguments)
    if result.is_error:
        said = result.content[0].text
        assert "\n" not in said.strip() and len(said.encode()) < 1024, said[:300]
    return result


async def _searches(client: Client, server: CappedServer) -> list[dict]:
    return [
        (await _answer(client, server, "search_cached", {"query": q, "limit": 20})).structured_content for q in QUERIES
    ]


async def _at_once(*calls: Callable[[], Awaitable[Any]]) -> list[Any]:
    """The results of `calls`, made at once."""
    results: list[Any] = [None] * len(calls)

    async def one(at: int) -> None:
        results[at] = await calls[at]()

    async with anyio.create_task_group() as group:
        for at in range(len(calls)):
            group.start_soon(one, at)
    return results


def _files_once_and_indexed(home: Path, cache: Cache) -> None:
    listed = Counter(f"{item.paper_id}v{item.version}" for item in cache.list_cached())
    assert [key for key, count in listed.items() if count > 1] == []
    tiers = {f"{item.paper_id}v{item.version}": set(item.tiers) for item in cache.list_cached()}
    on_disk: Counter[tuple[str, str]] = Counter()
    for path in (home / "papers").rglob("*"):
        if path.is_file():
            parsed = parse_file_name(path.name)
            assert parsed is not None, f"a file the cache does not name: {path.name}"
            paper_id, version, tier = parsed
            on_disk[(f"{paper_id}v{version}", tier)] += 1
    assert [key for key, count in on_disk.items() if count > 1] == [], "a tier written twice"
    assert [key for key, _tier in on_disk if key not in tiers] == [], "a file the index does not list"
    assert [entry for entry in on_disk if entry[1] not in tiers[entry[0]]] == [], "a tier the index does not list"


async def test_two_servers_on_one_home_through_hostile_reads_lose_and_double_nothing(fake, tmp_path):
    fake.add(html_paper(NORMAL, "Read before"))
    fake.add(
        paper(
            BIBLIOGRAPHY,
            "Long bibliography",
            pdf=None,
            source=eprint({"main.tex": tex(bibliography(MAX_ENTRIES + 250))}),
        )
    )
    fake.add(paper(OBJECTS, "Many objects", pdf=many_objects_pdf(10**6)))
    home = tmp_path / "home"
    with Cache(home, max_papers=500) as cache:
        fill(cache, 30)
    (first,) = _servers(fake, home, ("first",))
    async with Client(first.params) as client:
        read = await _answer(client, first, "read_paper", {"paper_id": f"{NORMAL}v1", "page_size": 100_000})
        assert not read.is_error
        truth = await _searches(client, first)
    with Cache(home, max_papers=500) as cache:
        before = {f"{item.paper_id}v{item.version}": set(item.tiers) for item in cache.list_cached()}
        normal_text = cache.get_text(PaperId(NORMAL, 1)).text
    parts = unpack((home / INDEX_FILE).read_bytes())
    far_postings(parts)
    (home / INDEX_FILE).write_bytes(sealed(parts))

    a, b = _servers(fake, home, ("a", "b"))
    async with Client(a.params) as client_a, Client(b.params) as client_b:
        clients = [(client_a, a), (client_b, b)]
        assert await _at_once(*(partial(_searches, *each) for each in clients)) == [truth, truth]
        for hostile in (BIBLIOGRAPHY, OBJECTS):
            await _at_once(*(partial(_answer, *each, "read_paper", {"paper_id": f"{hostile}v1"}) for each in clients))
        fetched = Counter(request.path for request in fake.requests)
        peaks = [peak_rss_mb(each.pid()) for each in (a, b)]
        fake.clear_log()
        again = await _answer(client_a, a, "read_paper", {"paper_id": f"{NORMAL}v1", "page_size": 100_000})

    assert max(peaks) < PEAK_RSS_MB, peaks
    assert fake.requests == [], "the paper read before was fetched again"
    assert again.structured_content["text"] == read.structured_content["text"]
    assert fetched[f"/e-print/{BIBLIOGRAPHY}v1"] == 1, fetched  # kept before converting: the other reads it
    # The 35 MB PDF alone may be fetched twice: were its download to outlast one server's deadline
    # (it takes a fraction of a second), nothing of it is kept and the other fetches it.
    assert [path for path, count in fetched.items() if count > 1 and not path.startswith("/pdf/")] == [], fetched
    with Cache(home, max_papers=500) as cache:
        assert cache.verify() == []
        after = {f"{item.paper_id}v{item.version}": set(item.tiers) for item in cache.list_cached()}
        _files_once_and_indexed(home, cache)
        assert cache.get_text(PaperId(NORMAL, 1)).text == normal_text
    assert {key: tiers - after.get(key, set()) for key, tiers in before.items()} == dict.fromkeys(before, set())
    assert list((home / "tmp").iterdir()) == []
    assert sound((home / INDEX_FILE).read_bytes(), QUERIES)
