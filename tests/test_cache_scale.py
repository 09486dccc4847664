"""The cache at scale: listings in pages, a start that reads nothing that grows with the cache."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest

from arxiv_mcp.cache import index as cache_index
from arxiv_mcp.cache.store import Cache
from arxiv_mcp.config import load
from arxiv_mcp.errors import InvalidInput
from arxiv_mcp.ids import PaperId
from arxiv_mcp.service import LIST_PAGE_CHARS, ArxivService


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


def fill(cache: Cache, count: int, *, title_chars: int = 40) -> list[str]:
    ids = []
    for number in range(1, count + 1):
        paper_id = f"2401.{number:05d}"
        cache.put_meta(PaperId(paper_id, 1), {"title": f"Paper {number} " + "x" * title_chars}, latest=True)
        if number % 3 == 0:
            cache.put_text(PaperId(paper_id, 1), "word " * number, method="html", extractor_version=1)
        ids.append(paper_id)
    return ids


@pytest.fixture
def service(home: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("ARXIV_MCP_HOME", str(home))
    monkeypatch.setenv("ARXIV_MCP_MAX_PAPERS", "5000")

    def make() -> ArxivService:
        made.append(ArxivService(load()))
        return made[-1]

    made: list[ArxivService] = []
    yield make
    for svc in made:
        svc.cache.close()


def test_pages_walk_the_whole_listing_once(service):
    svc = service()
    ids = fill(svc.cache, 130)
    seen, offset, pages = [], 0, 0
    while offset is not None:
        page = svc.list_cached(limit=50, offset=offset)
        assert page.total == page.matched == 130 and page.count == len(page.papers) <= 50
        seen += [p.paper_id for p in page.papers]
        offset, pages = page.next_offset, pages + 1
    assert seen == ids[::-1], "most recently used first, each paper once"
    assert pages >= 3


def test_sorts_and_pinned_only(service):
    svc = service()
    fill(svc.cache, 12)
    by_size = svc.list_cached(sort="size").papers
    assert [p.bytes for p in by_size] == sorted((p.bytes for p in by_size), reverse=True)
    by_id = svc.list_cached(sort="id", limit=3)
    assert [p.paper_id for p in by_id.papers] == ["2401.00001", "2401.00002", "2401.00003"]
    assert by_id.next_offset == 3
    svc.start_session("s")
    svc.cache.pin("s", PaperId("2401.00004", 1))
    svc.cache.pin("s", PaperId("2401.00009", 1))
    pinned = svc.list_cached(pinned_only=True)
    assert {p.paper_id for p in pinned.papers} == {"2401.00004", "2401.00009"}
    assert (pinned.matched, pinned.total, pinned.next_offset) == (2, 12, None)
    with pytest.raises(InvalidInput, match="sort must be one of"):
        svc.list_cached(sort="newest")


def test_a_page_stays_small_whatever_the_titles(service):
    svc = service()
    fill(svc.cache, 120, title_chars=290)
    page = svc.list_cached(limit=100)
    from arxiv_mcp import render

    answer = len(render.cached(page)) + len(json.dumps(page, default=vars))
    assert 0 < page.count < 100 and page.next_offset == page.count
    assert answer <= LIST_PAGE_CHARS + 1000, answer


def test_a_new_cache_reads_nothing_until_its_first_call(home):
    with Cache(home, max_papers=50) as first:
        fill(first, 5)
    (home / "index.json").write_text("{ damaged")
    (home / "journal.jsonl").unlink()
    with Cache(home, max_papers=50) as cache:
        assert (home / "index.json").read_text(encoding="utf-8") == "{ damaged", "construction left the index alone"
        assert cache.stats().papers == 5, "the first call loads (and here rebuilds) the index"
    assert (home / "index.json.corrupt").exists()


def test_only_whole_raw_files_are_adopted_when_the_index_is_lost(home):
    import io
    import tarfile

    from tests.pdfgen import gzip_of_size, pdf_of_size

    def tar_of(member: bytes) -> bytes:
        out = io.BytesIO()
        with tarfile.open(fileobj=out, mode="w") as archive:
            info = tarfile.TarInfo("main.tex")
            info.size = len(member)
            archive.addfile(info, io.BytesIO(member))
        return out.getvalue()

    pdf, tgz, tar = pdf_of_size(6000), gzip_of_size(4000), tar_of(b"\\documentclass{article}" * 100)
    html = b"<!DOCTYPE html><html><head><title>t</title></head><body>" + b"<p>x</p>" * 300 + b"</body></html>\n"
    whole = {
        "2401.00001v1.pdf": pdf,
        "2401.00002v1.source.gz": tgz,
        "2401.00003v1.source.tar": tar,
        "2401.00004v1.html": html,
    }
    cut = {
        "2401.00011v1.pdf": pdf[: len(pdf) // 2],
        "2401.00012v1.pdf": b"",
        "2401.00013v1.source.gz": tgz[:-100],
        "2401.00014v1.source.tar": tar[:700],
        "2401.00015v1.html": html[: len(html) // 2],
    }
    with Cache(home) as first:
        first.stats()
    for name, data in {**whole, **cut}.items():
        (home / "papers" / name).write_bytes(data)
    (home / "index.json").unlink()
    (home / "journal.jsonl").unlink()
    with Cache(home) as cache:
        adopted = {f"{p.paper_id}v{p.version}" for p in cache.list_cached()}
        assert adopted == {"2401.00001v1", "2401.00002v1", "2401.00003v1", "2401.00004v1"}
        assert cache.get_raw(PaperId("2401.00001", 1), "pdf").path.read_bytes() == pdf
        assert cache.get_raw(PaperId("2401.00011", 1), "pdf") is None
        assert not any((home / "papers" / name).exists() for name in cut), "cut files are removed, not kept"
        assert cache.verify() == []


def test_an_empty_page_says_why_and_its_next_step_lists_papers(service):
    """Every answer names the next step, and following it works: an empty cache, a pinned-only
    listing with nothing pinned and an offset past the end each say which call to make."""
    from arxiv_mcp import render

    svc = service()
    assert "The cache is empty (0 papers)" in render.cached(svc.list_cached())
    fill(svc.cache, 3)
    said = render.cached(svc.list_cached(pinned_only=True))
    assert "No pinned papers (3 cached in all)" in said and "Next: list_cached() lists them all" in said
    said = render.cached(svc.list_cached(offset=100))
    assert "No papers at this offset: the listing has 3 cached" in said
    assert "Next: list_cached(offset=0) for the first page." in said
    assert svc.list_cached(offset=0).count == 3


def test_a_search_hit_without_metadata_still_reads_as_a_line(service):
    """A paper read from its HTML alone has text but no metadata (the HTML named its version):
    its hit shows the title its text opens with, or says it has none, never an empty title and
    a dangling colon."""
    from arxiv_mcp import render
    from arxiv_mcp.text.document import Document

    svc = service()
    titled = Document.from_text("# Walrus Colonies on Drifting Ice\n\nWe count walruses.").to_json()
    svc.cache.put_text(PaperId("2401.00077", 1), titled, method="html", extractor_version=1)
    svc.cache.put_text(PaperId("2401.00078", 1), "walrus colonies seen from orbit", method="pdf", extractor_version=1)
    hits = render.library(svc.search_cached("walrus")).splitlines()[1:3]
    assert any(h.startswith("- 2401.00077v1 Walrus Colonies on Drifting Ice (score ") for h in hits), hits
    assert any(h.startswith("- 2401.00078v1 (no title cached) (score ") for h in hits), hits
    assert not any(h.endswith(": ") for h in hits)
    assert not any(h.endswith("): Walrus Colonies on Drifting Ice") for h in hits), "the matched title is not repeated"
    said = render.library(svc.search_cached("narwhal"))
    assert said.splitlines()[-1].startswith("Next: search_papers searches arXiv itself")


@pytest.mark.parametrize("collecting", [True, False])
def test_reading_a_large_snapshot_leaves_the_collector_as_it_was(home, monkeypatch, collecting):
    with Cache(home) as cache:
        fill(cache, 3)
    monkeypatch.setattr(cache_index, "FREEZE_AFTER", 1)  # this snapshot counts as large
    frozen = gc.get_freeze_count()
    if not collecting:
        gc.disable()
    try:
        with Cache(home) as cache:
            assert cache.stats().papers == 3
        assert gc.isenabled() is collecting, "paused for the read only"
        assert (gc.get_freeze_count() > frozen) is collecting, (
            "the mirror frozen, unless the host stopped the collector"
        )
    finally:
        gc.enable()
        gc.unfreeze()
