"""The disk cache: tiers, eviction rules, pins and sessions, recovery from damage, hostile ids."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from arxiv_mcp import errors
from arxiv_mcp.cache import access as access_module
from arxiv_mcp.cache import answers as answers_module
from arxiv_mcp.cache import index as cache_index
from arxiv_mcp.cache import ledger as cache_ledger
from arxiv_mcp.cache.paper import PaperRecord
from arxiv_mcp.cache.records import Put
from arxiv_mcp.cache.store import Cache, CacheFull
from arxiv_mcp.ids import PaperId
from tests.pdfgen import gzip_of_size, pdf_of_size

PDF = pdf_of_size(5000)  # whole files: recovery adopts only those (recovery.check_whole)
TGZ = gzip_of_size(3000)


class Clock:
    def __init__(self, now: float = 1_700_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


def open_cache(home: Path, clock: Clock, **limits) -> Cache:
    return Cache(home, clock=clock, **limits)


def ids(cache: Cache) -> list[str]:
    return [f"{item.paper_id}v{item.version}" for item in cache.list_cached()]


def tiers_of(cache: Cache) -> dict[str, list[str]]:
    return {f"{item.paper_id}v{item.version}": item.tiers for item in cache.list_cached()}


def put_paper(cache: Cache, clock: Clock, number: int, *, text: str | None = None, pdf: bytes | None = None) -> str:
    paper_id = f"2401.{number:05d}"
    cache.put_meta(PaperId(paper_id, 1), {"title": f"Paper {number}"}, latest=True)
    if text is not None:
        cache.put_text(PaperId(paper_id, 1), text, method="html", extractor_version=2)
    if pdf is not None:
        cache.put_raw(PaperId(paper_id, 1), "pdf", pdf, "application/pdf")
    clock.advance(1)
    return paper_id


# ----- tiers -----------------------------------------------------------------------------------


def test_tiers_round_trip_and_live_inside_home(home, clock):
    cache = open_cache(home, clock)
    cache.put_meta(PaperId("hep-th/9901001", 2), {"title": "Old  scheme\npaper", "authors": ["A"]}, latest=False)
    cache.put_text(PaperId("hep-th/9901001", 2), "Body text é", method="source", extractor_version=3)
    pdf = cache.put_raw(PaperId("hep-th/9901001", 2), "pdf", PDF, "application/pdf")
    source = cache.put_raw(PaperId("hep-th/9901001", 2), "source", TGZ, "application/x-eprint-tar")

    assert cache.get_meta(PaperId("hep-th/9901001", 2)).record == {"title": "Old  scheme\npaper", "authors": ["A"]}
    text = cache.get_text(PaperId("hep-th/9901001", 2))
    assert (text.text, text.method, text.extractor_version) == ("Body text é", "source", 3)
    assert pdf.path.read_bytes() == PDF and pdf.bytes == 5000
    assert cache.get_raw(PaperId("hep-th/9901001", 2), "source") == source
    assert source.path.name == "hep-th_9901001v2.source.gz" and source.content_type == "application/x-eprint-tar"
    assert pdf.path.parent == source.path.parent == home / "papers"
    assert (
        cache.get_text(PaperId("hep-th/9901001", 1)) is None
        and cache.get_raw(PaperId("hep-th/9901001", 2), "pdf") is not None
    )
    assert cache.versions(PaperId("hep-th/9901001")) == [2] and cache.versions(PaperId("2401.00001")) == []
    [item] = cache.list_cached()
    assert item.title == "Old scheme paper" and item.tiers == ["meta", "text", "pdf", "source"]
    assert cache.verify() == []


def test_source_of_another_format_replaces_the_old_file(home, clock):
    cache = open_cache(home, clock)
    first = cache.put_raw(PaperId("2401.00001", 1), "source", TGZ, "application/gzip")
    second = cache.put_raw(PaperId("2401.00001", 1), "source", PDF, "application/pdf")
    assert not first.path.exists() and second.path.read_bytes() == PDF
    assert cache.stats().bytes_by_tier["source"] == len(PDF)
    assert open_cache(home, clock).verify() == []


# ----- eviction --------------------------------------------------------------------------------


def test_count_bound_evicts_least_recently_accessed(home, clock):
    cache = open_cache(home, clock, max_papers=3)
    first, second, third = (put_paper(cache, clock, n) for n in (1, 2, 3))
    assert cache.get_meta(PaperId(first, 1)) is not None  # first is now the most recent
    put_paper(cache, clock, 4)
    assert ids(cache) == ["2401.00004v1", "2401.00001v1", "2401.00003v1"]
    assert cache.get_meta(PaperId(second, 1)) is None and not (home / "papers" / f"{second}v1.meta.json").exists()
    assert cache.stats().papers == 3


def test_each_version_counts_as_a_paper(home, clock):
    cache = open_cache(home, clock, max_papers=2)
    for version in (1, 2, 3):
        cache.put_meta(PaperId("2401.00001", version), {"title": "t"}, latest=True)
        clock.advance(1)
    assert cache.versions(PaperId("2401.00001")) == [2, 3]


def test_bytes_bound_drops_raw_before_text_before_metadata(home, clock):
    text = "t" * 1000
    cache = open_cache(home, clock, max_bytes=10**6)
    for number in (1, 2, 3):
        put_paper(cache, clock, number, text=text, pdf=PDF)
    assert cache.get_meta(PaperId("2401.00001", 1)) is not None  # paper 2 is now the least recently used
    per_meta = cache.stats().bytes_by_tier["meta"] // 3
    per_text = cache.stats().bytes_by_tier["text"] // 3
    full = cache.stats().bytes

    def shrink_to(limit: int) -> dict[str, list[str]]:
        cache.ledger.max_bytes = limit
        put_paper(cache, clock, 9)  # an insert runs eviction; the new entry itself is protected
        return tiers_of(cache)

    left = shrink_to(full - 1)
    assert left["2401.00002v1"] == ["meta", "text"], "one PDF goes first, from the LRU paper"
    assert left["2401.00001v1"] == left["2401.00003v1"] == ["meta", "text", "pdf"]

    left = shrink_to(cache.stats().bytes - 2 * len(PDF))
    assert [left[f"2401.0000{n}v1"] for n in (1, 2, 3)] == [["meta", "text"]] * 3, "every PDF before any text"

    left = shrink_to(cache.stats().bytes - per_text)
    assert left["2401.00002v1"] == ["meta"] and left["2401.00003v1"] == ["meta", "text"]

    left = shrink_to(cache.stats().bytes - 2 * per_text - per_meta // 2)
    assert "2401.00002v1" not in left, "whole entries go only after every text"
    assert left["2401.00001v1"] == left["2401.00003v1"] == ["meta"]
    assert cache.stats().bytes <= cache.ledger.max_bytes
    assert cache.verify() == []


def test_pinned_papers_are_exempt_from_both_bounds(home, clock):
    cache = open_cache(home, clock, max_papers=2, max_bytes=12_000)
    session = cache.start_session("work").session_id
    oldest = put_paper(cache, clock, 1, pdf=PDF)
    cache.pin(session, PaperId(oldest, 1))
    put_paper(cache, clock, 2, pdf=PDF)
    put_paper(cache, clock, 3, pdf=PDF)
    assert tiers_of(cache) == {"2401.00003v1": ["meta", "pdf"], "2401.00001v1": ["meta", "pdf"]}
    put_paper(cache, clock, 4, pdf=PDF)
    assert tiers_of(cache) == {"2401.00004v1": ["meta", "pdf"], "2401.00001v1": ["meta", "pdf"]}
    [pinned] = [item for item in cache.list_cached() if item.pinned_by]
    assert f"{pinned.paper_id}v{pinned.version}" == "2401.00001v1" and pinned.pinned_by == ["work"]


def test_just_inserted_entry_goes_only_as_last_resort(home, clock):
    cache = open_cache(home, clock, max_papers=1, max_bytes=7000)
    session = cache.start_session().session_id
    kept = put_paper(cache, clock, 1, pdf=PDF)
    cache.pin(session, PaperId(kept, 1))
    put_paper(cache, clock, 2)  # all others pinned: the new entry cannot stay
    assert ids(cache) == ["2401.00001v1"]
    cache.ledger.max_papers = 5
    with pytest.raises(CacheFull, match="end_session"):
        cache.put_raw(PaperId("2401.00002", 1), "pdf", PDF, "application/pdf")
    assert not (home / "papers" / "2401.00002v1.pdf").exists()
    with pytest.raises(CacheFull, match="ARXIV_MCP_MAX_DISK_MB"):
        cache.put_raw(PaperId("2401.00003", 1), "pdf", b"%PDF" + b"z" * 8000, "application/pdf")
    assert cache.versions(PaperId("2401.00003")) == [] and os.listdir(home / "tmp") == []


def test_just_inserted_raw_outlives_older_papers_text(home, clock):
    cache = open_cache(home, clock, max_bytes=6000)
    put_paper(cache, clock, 1, text="t" * 600)
    put_paper(cache, clock, 2, text="t" * 600)
    cache.put_raw(PaperId("2401.00003", 1), "pdf", PDF, "application/pdf")
    left = tiers_of(cache)
    assert left["2401.00003v1"] == ["pdf"], "the new PDF goes only as a last resort"
    assert left["2401.00001v1"] == ["meta"] and left["2401.00002v1"] == ["meta", "text"], "older text goes first"
    assert cache.stats().bytes <= 6000


def test_pin_before_put_protects_the_insert(home, clock):
    cache = open_cache(home, clock, max_papers=1)
    cache.start_session("s")
    put_paper(cache, clock, 1)
    cache.pin("s", PaperId("2401.00002", 1))
    put_paper(cache, clock, 2)
    assert ids(cache) == ["2401.00002v1"]


def test_unversioned_metadata_expires_after_the_ttl(home, clock):
    cache = open_cache(home, clock, meta_ttl_s=100)
    cache.put_meta(PaperId("2401.00001", 3), {"title": "v3"}, latest=True)
    cache.put_meta(PaperId("2401.00001", 1), {"title": "v1"}, latest=False)
    clock.advance(99)
    latest = cache.get_meta(PaperId("2401.00001"))
    assert latest.record == {"title": "v3"} and not latest.stale
    clock.advance(2)
    assert cache.get_meta(PaperId("2401.00001")) is None
    stale = cache.get_meta(PaperId("2401.00001"), allow_stale=True)
    assert stale.record == {"title": "v3"} and stale.stale and stale.fetched_at == clock.now - 101
    clock.advance(10**9)
    assert cache.get_meta(PaperId("2401.00001", 3)).record == {"title": "v3"}, "versioned metadata never expires"
    assert cache.get_meta(PaperId("2401.00001", 1)).stale is False
    assert cache.get_meta(PaperId("2401.00002"), allow_stale=True) is None
    cache.put_meta(PaperId("2401.00001", 4), {"title": "v4"}, latest=True)
    assert cache.get_meta(PaperId("2401.00001")).record == {"title": "v4"}


def test_latest_marker_survives_a_restart(home, clock):
    open_cache(home, clock, meta_ttl_s=100).put_meta(PaperId("2401.00001", 2), {"title": "x"}, latest=True)
    clock.advance(50)
    assert open_cache(home, clock, meta_ttl_s=100).get_meta(PaperId("2401.00001", None)).record == {"title": "x"}


# ----- sessions --------------------------------------------------------------------------------


def test_two_sessions_share_one_copy_and_ending_one_keeps_the_others_pins(home, clock):
    cache = open_cache(home, clock, max_papers=1)
    cache.start_session("alice")
    cache.start_session("bob")
    paper = put_paper(cache, clock, 1, text="shared")
    cache.pin("alice", PaperId(paper, 1))
    cache.pin("bob", PaperId(paper, 1))
    assert cache.list_cached()[0].pinned_by == ["alice", "bob"]
    assert len(list((home / "papers").iterdir())) == 2  # one meta and one text file, not per session
    ended = cache.end_session("alice")
    assert not ended.open and ended.session_id == "alice" and ended.pinned == ["2401.00001v1"]
    put_paper(cache, clock, 2)
    assert ids(cache) == ["2401.00001v1"] and cache.session_status("bob").pinned == ["2401.00001v1"]
    cache.end_session("bob")  # ending the last pin lets eviction enforce the bound again
    assert cache.stats().papers == 1
    put_paper(cache, clock, 3)
    assert ids(cache) == ["2401.00003v1"]


def test_sessions_survive_a_restart(home, clock):
    cache = open_cache(home, clock, max_papers=1)
    generated = cache.start_session().session_id
    paper = put_paper(cache, clock, 1)
    cache.pin(generated, PaperId(paper, 1))
    cache.close()

    restarted = open_cache(home, clock, max_papers=1)
    status = restarted.session_status(generated)
    assert status.pinned == ["2401.00001v1"] and status.session_id == generated
    put_paper(restarted, clock, 2)
    assert ids(restarted) == ["2401.00001v1"], "the pin still protects the paper"
    assert restarted.start_session(generated).created == status.created, "starting an open session returns it"
    assert restarted.stats().open_sessions == 1


def test_an_untouched_session_is_closed_after_its_ttl(home, clock):
    cache = open_cache(home, clock, max_papers=1, session_ttl_s=1000)
    cache.start_session("old")
    cache.start_session("busy")
    paper = put_paper(cache, clock, 1)
    cache.pin("old", PaperId(paper, 1))
    clock.advance(600)
    cache.session_status("busy")
    clock.advance(600)
    assert cache.session_status("busy").session_id == "busy"
    with pytest.raises(errors.NotFound, match="start_session"):
        cache.session_status("old")
    put_paper(cache, clock, 2)
    assert ids(cache) == ["2401.00002v1"], "the expired session no longer pins"
    assert open_cache(home, clock, session_ttl_s=1000).stats().open_sessions == 1


def test_session_errors(home, clock):
    cache = open_cache(home, clock)
    for call in (cache.end_session, cache.session_status):
        with pytest.raises(errors.NotFound, match="start_session"):
            call("never")
    with pytest.raises(errors.NotFound):
        cache.pin("never", PaperId("2401.00001", 1))
    for bad in ("", "a" * 65, "no spaces", "../x", None):
        with pytest.raises(errors.InvalidInput):
            cache.start_session(bad) if bad is not None else cache.session_status(bad)
    assert cache.start_session("ok.id-1_").pinned == []
    cache.end_session("ok.id-1_")
    with pytest.raises(errors.NotFound):
        cache.end_session("ok.id-1_")


# ----- overview, notes, search answers -----------------------------------------------------------


def test_list_stats_and_clear(home, clock):
    cache = open_cache(home, clock)
    cache.start_session("s")
    for number in (1, 2, 3):
        put_paper(cache, clock, number, text="x" * 10)
    cache.pin("s", PaperId("2401.00002", 1))
    cache.get_text(PaperId("2401.00001", 1))
    listed = cache.list_cached()
    assert [f"{item.paper_id}v{item.version}" for item in listed] == ["2401.00001v1", "2401.00003v1", "2401.00002v1"]
    assert [item.pinned_by for item in listed] == [[], [], ["s"]]
    assert all(item.bytes > 0 for item in listed) and listed[0].title == "Paper 1"
    stats = cache.stats()
    assert (stats.papers, stats.open_sessions, sum(1 for item in listed if item.pinned_by)) == (3, 1, 1)
    assert stats.bytes == sum(stats.bytes_by_tier.values()) == sum(item.bytes for item in listed)
    cache.put_search("q", {"hits": []}, ttl_s=60)
    assert len(os.listdir(home / "searches")) == 1

    cleared = cache.clear()
    assert sorted(cleared.evicted) == ["2401.00001v1", "2401.00003v1"]
    assert cleared.kept_pinned == ["2401.00002v1"] and os.listdir(home / "searches") == []
    assert cleared.bytes_freed == sum(item.bytes for item in listed if not item.pinned_by)
    assert cache.get_search("q") is None
    assert cache.clear(drop_pinned=True).evicted == ["2401.00002v1"]
    assert cache.stats().bytes == 0 and os.listdir(home / "papers") == []
    assert cache.session_status("s").pinned == []


def test_notes_live_and_die_with_the_paper(home, clock):
    cache = open_cache(home, clock, max_papers=1)
    put_paper(cache, clock, 1)
    cache.put_note(PaperId("2401.00001"), "failed_sources", {"1": ["html"]})
    assert cache.get_note(PaperId("2401.00001"), "failed_sources") == {"1": ["html"]}
    assert open_cache(home, clock, max_papers=1).get_note(PaperId("2401.00001"), "failed_sources") == {"1": ["html"]}
    cache.put_note(PaperId("2401.00001"), "failed_sources", None)
    assert cache.get_note(PaperId("2401.00001"), "failed_sources") is None
    cache.put_note(PaperId("2401.00001"), "k", 1)
    put_paper(cache, clock, 2)
    assert cache.get_note(PaperId("2401.00001"), "k") is None
    with pytest.raises(ValueError):
        cache.put_note(PaperId("2401.00002"), "k", object())


def test_search_answers_expire_and_are_bounded(home, clock, monkeypatch):
    monkeypatch.setattr(answers_module, "MAX_ENTRIES", 3)
    cache = open_cache(home, clock)
    cache.put_search("q=1", {"n": 1}, ttl_s=300)
    assert cache.get_search("q=1") == {"n": 1} and cache.get_search("q=2") is None
    clock.advance(301)
    assert cache.get_search("q=1") is None
    for number in range(5):
        cache.put_search(f"k{number}", {"n": number}, ttl_s=60)
    assert len(os.listdir(home / "searches")) == 3 and cache.stats().papers == 0
    assert cache.get_search("k4") == {"n": 4}


def test_iter_documents_reads_lazily_and_leaves_the_order(home, clock):
    cache = open_cache(home, clock)
    put_paper(cache, clock, 1, text="first text")
    put_paper(cache, clock, 2)
    cache.put_raw(PaperId("2401.00003", 1), "pdf", PDF, "application/pdf")
    before = ids(cache)
    documents = {(p, v): (meta, text) for p, v, meta, text in cache.iter_documents()}
    assert documents == {
        ("2401.00001", 1): ({"title": "Paper 1"}, "first text"),
        ("2401.00002", 1): ({"title": "Paper 2"}, None),
    }
    assert ids(cache) == before
    assert [p for p, *_ in cache.iter_documents({("2401.00002", 1), ("2401.00009", 1)})] == ["2401.00002"]


# ----- the index: cost, sharing, recovery ------------------------------------------------------------


def test_hits_write_nothing_until_their_accesses_are_journaled_together(home, clock):
    cache = open_cache(home, clock)
    put_paper(cache, clock, 1)
    put_paper(cache, clock, 2)
    put_paper(cache, clock, 3)
    snapshot = os.stat(home / "index.json")
    journal_size = os.path.getsize(home / "journal.jsonl")
    assert cache.get_meta(PaperId("2401.00001", 1)) is not None
    clock.advance(1)
    assert cache.get_meta(PaperId("2401.00002", 1)) is not None
    assert os.path.getsize(home / "journal.jsonl") == journal_size, "a warm read writes nothing"
    assert ids(cache)[:2] == ["2401.00002v1", "2401.00001v1"], "this process sees its reads at once"
    other = open_cache(home, clock)
    assert ids(other)[0] == "2401.00003v1", "others see them once journaled"
    clock.advance(access_module.ACCESS_FLUSH_S)
    cache.versions(PaperId("2401.00001"))
    after = os.stat(home / "index.json")
    assert (after.st_ino, after.st_mtime_ns) == (snapshot.st_ino, snapshot.st_mtime_ns)
    added = (home / "journal.jsonl").read_bytes()[journal_size:].splitlines()
    assert [json.loads(line)["o"] for line in added] == ["touch", "touch"]
    assert ids(other) == ids(cache) == ["2401.00002v1", "2401.00001v1", "2401.00003v1"]


def test_batched_accesses_go_before_the_next_change_and_at_close(home, clock):
    cache = open_cache(home, clock, max_papers=3)
    for number in (1, 2, 3):
        put_paper(cache, clock, number)
    cache.get_meta(PaperId("2401.00001", 1))
    put_paper(cache, clock, 4)  # evicts 2, not the just-read 1, in every process's order
    assert ids(open_cache(home, clock)) == ids(cache) == ["2401.00004v1", "2401.00001v1", "2401.00003v1"]
    cache.get_meta(PaperId("2401.00003", 1))
    cache.close()
    assert ids(open_cache(home, clock))[0] == "2401.00003v1", "close journals what is pending"


def test_two_caches_on_one_home_see_each_others_changes(home, clock, monkeypatch):
    monkeypatch.setattr(cache_index, "COMPACT_MIN_BYTES", 600)
    one, two = open_cache(home, clock, max_papers=4), open_cache(home, clock, max_papers=4)
    one.stats()  # a new Cache reads nothing until its first call
    generation = json.loads((home / "index.json").read_bytes())["generation"]
    for number in range(1, 8):
        put_paper(one if number % 2 else two, clock, number, text=f"text {number}")
    assert json.loads((home / "index.json").read_bytes())["generation"] > generation, "compaction happened"
    assert ids(one) == ids(two) == ["2401.00007v1", "2401.00006v1", "2401.00005v1", "2401.00004v1"]
    two.get_text(PaperId("2401.00004", 1))
    clock.advance(access_module.ACCESS_FLUSH_S)
    two.versions(PaperId("2401.00004"))  # accesses are journaled in batches (access.py)
    assert ids(one)[0] == "2401.00004v1"
    one.start_session("s")
    two.pin("s", PaperId("2401.00005", 1))
    assert one.session_status("s").pinned == ["2401.00005v1"]
    assert one.verify() == two.verify() == []


def test_threads_share_one_cache(home, clock):
    cache = Cache(home, max_papers=20)
    failures = []

    def work(worker: int) -> None:
        try:
            for number in range(30):
                paper_id = f"2402.{worker:02d}{number:03d}"
                cache.put_meta(PaperId(paper_id, 1), {"title": paper_id}, latest=True)
                cache.put_text(PaperId(paper_id, 1), paper_id * 5, method="pdf", extractor_version=1)
                got = cache.get_text(PaperId(paper_id, 1))
                assert got is None or got.text == paper_id * 5
        except Exception as exc:  # reported below; a thread's exception would be lost
            failures.append(exc)

    threads = [threading.Thread(target=work, args=(w,)) for w in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == [] and cache.stats().papers == 20 and cache.verify() == []


def _fill(home: Path, clock: Clock) -> dict:
    cache = open_cache(home, clock)
    put_paper(cache, clock, 1, text="one", pdf=PDF)
    put_paper(cache, clock, 2, text="two")
    cache.put_raw(PaperId("hep-th/9901001", 3), "source", TGZ, "application/gzip")
    cache.put_meta(PaperId("2401.00002", 2), {"title": "Paper 2, v2"}, latest=True)
    cache.start_session("s")
    cache.pin("s", PaperId("2401.00001", 1))
    cache.close()
    return tiers_of(open_cache(home, clock))


def _assert_nothing_lost(home: Path, clock: Clock, expected: dict) -> Cache:
    cache = open_cache(home, clock)
    assert tiers_of(cache) == expected
    assert (
        cache.get_text(PaperId("2401.00001", 1)).text == "one"
        and cache.get_text(PaperId("2401.00001", 1)).method == "html"
    )
    assert cache.get_raw(PaperId("2401.00001", 1), "pdf").path.read_bytes() == PDF
    assert cache.get_raw(PaperId("hep-th/9901001", 3), "source").content_type == "application/gzip"
    assert cache.get_meta(PaperId("2401.00002")).record == {"title": "Paper 2, v2"}
    assert cache.session_status("s").pinned == ["2401.00001v1"]
    assert cache.verify() == []
    return cache


@pytest.mark.parametrize(
    "damage",
    [
        "garbage",
        "truncated",
        "empty",
        "missing",
        "wrong shape",
        "planted",
        "bad id",
        "cut short",
        "two ids in one",
        "two checksums in one",
        "bad checksum",
    ],
)
def test_a_damaged_or_missing_index_is_rebuilt_from_the_files(home, clock, damage):
    expected = _fill(home, clock)
    snapshot = home / "index.json"
    if damage == "garbage":
        snapshot.write_bytes(b"\x00\xffnot json")
    elif damage == "truncated":
        snapshot.write_bytes(snapshot.read_bytes()[:40])
    elif damage == "empty":
        snapshot.write_bytes(b"")
    elif damage == "missing":
        snapshot.unlink()
        (home / "journal.jsonl").unlink()
    elif damage == "wrong shape":
        snapshot.write_text(json.dumps({"format": 1, "generation": 3, "entries": [["../x", 1, 0, None, {}]]}))
    else:  # a row naming a file outside the cache, or of a malformed id, or cut short
        row = ["2401.00001", 1, 0, None, "pdf", 5, None, "../../x", "application/pdf", None, None, None]
        # Ids and checksums are checked many in one pass, joined by newlines: one holding a
        # newline must not pass for two.
        meta = ["meta", 5, None, None, None, 1.0, None, None]
        rows = {
            "planted": [row],
            "bad id": [["../x", *row[1:]]],
            "cut short": [row[:7]],
            "two ids in one": [["2401.00001\n2401.00002", 1, 0.0, None, *meta]],
            "two checksums in one": [["2401.00001", 1, 0.0, None, "meta", 5, "a" * 64 + "\n" + "b" * 64, *meta[3:]]],
            "bad checksum": [["2401.00001", 1, 0.0, None, "meta", 5, "A" * 64, *meta[3:]]],
        }[damage]
        snapshot.write_text(json.dumps({"format": 2, "generation": 3, "entries": rows}))
    _assert_nothing_lost(home, clock, expected)
    if damage not in ("missing", "empty"):
        assert (home / "index.json.corrupt").exists()


@pytest.mark.parametrize("before", [2, 1])
def test_a_snapshot_of_a_format_before_loads_and_is_written_anew(home, clock, before):
    expected = _fill(home, clock)
    listed = open_cache(home, clock).list_cached()
    snapshot = home / "index.json"
    body = _compacted(home, clock)
    assert body["format"] == 3 and len(body["entries"][0]) == len(listed)
    rows = _rows_of_format_2(body)  # as the release before wrote it: a row per entry
    paper_ids, versions, marked = body["latest"]
    body |= {"format": 2, "entries": rows, "latest": {p: [v, at] for p, v, at in zip(paper_ids, versions, marked)}}
    del body["tiers"]
    if before == 1:  # as the release before that wrote it: each tier record an object
        body["format"] = 1
        body["entries"] = [[*row[:4], _tiers_of_format_1(row)] for row in rows]
    snapshot.write_text(json.dumps(body))
    assert open_cache(home, clock).list_cached() == listed, "order, titles, sizes and access times kept"
    assert not (home / "index.json.corrupt").exists()
    assert json.loads(snapshot.read_bytes())["format"] == 3, "written anew in the current format"
    _assert_nothing_lost(home, clock, expected)


def _compacted(home: Path, clock: Clock) -> dict:
    """The snapshot once the journal is folded into it: every entry in its columns."""
    cache = open_cache(home, clock)
    with cache.ledger.locked():
        cache.ledger.index.compact()
    cache.close()
    return json.loads((home / "index.json").read_bytes())


def _planted(body: dict) -> None:
    body["tiers"]["pdf"][3][0] = "../../x"  # the file name: eviction would remove a file outside the cache


def _bad_id(body: dict) -> None:
    body["entries"][0][0] = "../x"


def _a_version_true(body: dict) -> None:
    body["entries"][1][0] = True


def _an_entry_twice(body: dict) -> None:
    for column in body["entries"]:
        column.append(column[0])


def _an_entry_without_tiers(body: dict) -> None:
    for column, value in zip(body["entries"], ("2401.09999", 1, 1.0, None), strict=True):
        column.append(value)


def _columns_of_different_lengths(body: dict) -> None:
    body["entries"][2].pop()


def _a_tier_of_no_entry(body: dict) -> None:
    body["tiers"]["meta"][0][0] = 10**6


def _a_tier_twice(body: dict) -> None:
    positions = body["tiers"]["meta"][0]
    positions[1] = positions[0]


def _a_tier_cut_short(body: dict) -> None:
    body["tiers"]["meta"][3].pop()


def _bad_checksum(body: dict) -> None:
    body["tiers"]["meta"][2][0] = "A" * 64


def _an_unknown_tier(body: dict) -> None:
    body["tiers"]["exe"] = body["tiers"]["meta"]


def _latest_of_version_0(body: dict) -> None:
    body["latest"][1][0] = 0


COLUMN_DAMAGE = [
    _planted,
    _bad_id,
    _a_version_true,
    _an_entry_twice,
    _an_entry_without_tiers,
    _columns_of_different_lengths,
    _a_tier_of_no_entry,
    _a_tier_twice,
    _a_tier_cut_short,
    _bad_checksum,
    _an_unknown_tier,
    _latest_of_version_0,
]


@pytest.mark.parametrize("damage", COLUMN_DAMAGE, ids=lambda damage: damage.__name__.strip("_"))
def test_a_snapshot_whose_columns_lie_is_rebuilt_from_the_files(home, clock, damage):
    expected = _fill(home, clock)
    body = _compacted(home, clock)
    damage(body)
    (home / "index.json").write_text(json.dumps(body))
    _assert_nothing_lost(home, clock, expected)
    assert (home / "index.json.corrupt").exists()


def _rows_of_format_2(body: dict) -> list[list]:
    rows = [list(entry) for entry in zip(*body["entries"], strict=True)]
    for tier, (positions, *fields) in body["tiers"].items():
        for at, record in zip(positions, zip(*fields, strict=True), strict=True):
            rows[at] += [tier, *record]
    return rows


def _tiers_of_format_1(row: list) -> dict:
    tiers = {}
    for at in range(4, len(row), 8):
        fields = zip(("b", "h", "n", "ct", "f", "m", "x"), row[at + 1 : at + 8], strict=True)
        tiers[row[at]] = {short: value for short, value in fields if value is not None}
    return tiers


def test_journal_garbage_is_skipped_and_nothing_is_lost(home, clock):
    expected = _fill(home, clock)
    cache = open_cache(home, clock)
    cache.put_text(PaperId("2401.00002", 2), "late", method="pdf", extractor_version=1)
    expected["2401.00002v2"] = ["meta", "text"]
    lines = (home / "journal.jsonl").read_bytes().splitlines(keepends=True)
    lines.insert(1, b"{not json\n")
    lines.insert(2, b'{"o":"put","k":["../../etc",1],"t":"meta","i":{"b":1},"a":0}\n')
    lines[-1] = b'{"o":"drop","k":["2401.00001",1],"t":null}\n'  # lost the text put, replaced by a lie
    (home / "journal.jsonl").write_bytes(b"".join(lines))
    reopened = _assert_nothing_lost(home, clock, {k: expected[k] for k in expected})
    assert reopened.get_text(PaperId("2401.00002", 2)).text == "late"


def test_a_torn_journal_tail_is_cut_and_its_file_adopted(home, clock):
    cache = open_cache(home, clock)
    put_paper(cache, clock, 1)
    cache.put_text(PaperId("2401.00001", 1), "whole", method="html", extractor_version=1)
    journal = home / "journal.jsonl"
    data = journal.read_bytes()
    journal.write_bytes(data[: len(data) - 15])  # the text's line is torn, its file is whole
    reopened = open_cache(home, clock)
    assert reopened.get_text(PaperId("2401.00001", 1)).text == "whole"
    assert journal.read_bytes().endswith(b"\n") and reopened.verify() == []
    put_paper(reopened, clock, 2)
    assert open_cache(home, clock).verify() == [] and len(ids(reopened)) == 2


def test_a_live_process_notices_a_torn_tail_left_by_a_killed_one(home, clock):
    survivor = open_cache(home, clock)
    put_paper(survivor, clock, 1)
    with open(home / "journal.jsonl", "ab") as journal:
        journal.write(b'{"o":"put","k":["2401.0')
    put_paper(survivor, clock, 2)
    assert ids(open_cache(home, clock)) == ["2401.00002v1", "2401.00001v1"]


class Crash(BaseException):
    """Stands for SIGKILL at one exact point: nothing after it runs."""


def test_a_file_renamed_but_not_recorded_is_adopted_and_checked(home, clock, monkeypatch):
    expected = _fill(home, clock)
    cache = open_cache(home, clock)
    record = cache.ledger.index.append

    def die_before_recording(op):
        if isinstance(op, Put) and not op.front:
            raise Crash
        record(op)

    # Writers killed between renaming a whole file into place and recording it: a text that
    # replaces an indexed one, and a new paper's metadata.
    monkeypatch.setattr(cache.ledger.index, "append", die_before_recording)
    with pytest.raises(Crash):
        cache.put_text(PaperId("2401.00002", 1), "newer, longer", method="pdf", extractor_version=9)
    with pytest.raises(Crash):
        cache.put_meta(PaperId("2401.00007", 1), {"title": "x"}, latest=False)
    monkeypatch.undo()
    papers = home / "papers"
    (papers / "2401.00008v1.text.json").write_text('{"paper_id": "2401.00008", "vers')  # damaged: not adopted
    (papers / "notes.txt").write_text("a user's file is left alone")

    reopened = open_cache(home, clock)
    assert reopened.get_text(PaperId("2401.00002", 1)).text == "newer, longer"
    assert tiers_of(reopened) == {**expected, "2401.00007v1": ["meta"]}
    assert ids(reopened)[-1] == "2401.00007v1", "adopted files are the first candidates for eviction"
    assert not (papers / "2401.00008v1.text.json").exists() and (papers / "notes.txt").exists()
    assert reopened.verify() == []


def test_the_lock_file_says_when_its_last_holder_finished(home, clock):
    cache = open_cache(home, clock)
    put_paper(cache, clock, 1)
    with pytest.raises(errors.NotFound):
        cache.session_status("none")
    with pytest.raises(ValueError):
        cache.get_text(PaperId("../x", 1))
    assert (home / ".lock").read_bytes()[:1] == b"0", "refused input leaves no mark of an interruption"
    (home / ".lock").write_bytes(b"1" + b"x" * 80)  # a holder died mid-update
    (home / "papers" / "2401.00001v1.meta.json").unlink()
    assert ids(cache) == [] and cache.verify() == []
    assert (home / ".lock").read_bytes()[:1] == b"0"


def test_a_crash_inside_compaction_loses_nothing(home, clock, monkeypatch):
    cache = open_cache(home, clock)
    for number in range(1, 5):
        put_paper(cache, clock, number, text=f"text {number}")
    cache.put_note(PaperId("2401.00002"), "failed", ["html"])
    cache.get_meta(PaperId("2401.00001", 1))
    real_write = cache_index.write_atomic
    writes = []

    def crash_on_the_second_file(path, data, tmp_dir, **kwargs):
        writes.append(path.name)
        if len(writes) == 2:
            raise Crash
        real_write(path, data, tmp_dir, **kwargs)

    monkeypatch.setattr(cache_index, "write_atomic", crash_on_the_second_file)
    monkeypatch.setattr(cache_index, "COMPACT_MIN_BYTES", 0)
    with pytest.raises(Crash):
        put_paper(cache, clock, 5)  # recorded, then the compaction it triggers dies half-way
    monkeypatch.undo()
    reopened = open_cache(home, clock)
    assert ids(reopened) == ["2401.00005v1", "2401.00001v1", "2401.00004v1", "2401.00003v1", "2401.00002v1"]
    assert reopened.get_note(PaperId("2401.00002"), "failed") == ["html"], "the journal was not replayed twice or lost"
    assert reopened.verify() == []


def test_a_crash_between_unrecording_and_removing_a_file(home, clock, monkeypatch):
    cache = open_cache(home, clock, max_papers=2)
    put_paper(cache, clock, 1)
    put_paper(cache, clock, 2)

    def crash(path):
        raise Crash

    monkeypatch.setattr(cache_ledger, "discard", crash)
    with pytest.raises(Crash):
        put_paper(cache, clock, 3)  # evicts paper 1: recorded, but its file stays
    monkeypatch.undo()
    orphan = home / "papers" / "2401.00001v1.meta.json"
    assert orphan.exists()
    reopened = open_cache(home, clock, max_papers=2)
    assert ids(reopened) == ["2401.00003v1", "2401.00002v1"] and not orphan.exists()
    assert reopened.verify() == []


def test_a_damaged_file_is_dropped_not_served(home, clock):
    cache = open_cache(home, clock)
    put_paper(cache, clock, 1, text="fine")
    path = home / "papers" / "2401.00001v1.text.json"
    path.write_bytes(b"x" * path.stat().st_size)
    assert cache.get_text(PaperId("2401.00001", 1)) is None
    assert tiers_of(cache) == {"2401.00001v1": ["meta"]} and cache.verify() == []
    (home / "papers" / "2401.00001v1.meta.json").unlink()
    assert cache.get_meta(PaperId("2401.00001", 1)) is None and cache.stats().papers == 0


def test_a_text_damaged_after_a_read_is_not_served_from_memory(home, clock):
    cache = open_cache(home, clock)
    put_paper(cache, clock, 1, text="fine")
    first = cache.get_text(PaperId("2401.00001", 1))
    assert first is not None and cache.get_text(PaperId("2401.00001", 1)) == first  # the second from the memo
    path = home / "papers" / "2401.00001v1.text.json"
    before = path.stat()
    time.sleep(0.1)  # file times move by the kernel's tick (a few ms): a change must come a tick later
    path.write_bytes(b"x" * before.st_size)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # same size and time: ctime still moves
    assert cache.get_text(PaperId("2401.00001", 1)) is None
    assert tiers_of(cache) == {"2401.00001v1": ["meta"]}


def test_leftover_temporary_files_are_cleaned_on_start(home, clock):
    open_cache(home, clock)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    leftover = home / "tmp" / f"{dead.stdout.strip()}.abc123.tmp"
    leftover.write_bytes(b"half a pdf")
    live = home / "tmp" / f"{os.getppid()}.def456.tmp"
    live.write_bytes(b"a live writer's work")
    open_cache(home, clock).stats()
    assert not leftover.exists() and live.exists()


# ----- hostile input -----------------------------------------------------------------------------

HOSTILE_IDS = [
    "../x",
    "../../etc/passwd",
    "/etc/passwd",
    "2401.12345/../../x",
    "hep-th/../../9901001",
    "hep-th/9901001/x",
    "math.GT/0309136/..",
    "hep-th\\9901001",
    "2401.12345\x00",
    "2401.12345\n",
    "2401.12345v1",
    " 2401.12345",
    "..",
    "",
    None,
    2401.12345,
    b"2401.12345",
]


@pytest.mark.parametrize("paper_id", HOSTILE_IDS)
def test_hostile_ids_are_refused_and_nothing_is_written_outside_home(tmp_path, clock, paper_id):
    home = tmp_path / "home"
    cache = open_cache(home, clock)
    calls = [
        lambda: cache.put_meta(PaperId(paper_id, 1), {}, latest=True),
        lambda: cache.put_text(PaperId(paper_id, 1), "t", method="html", extractor_version=1),
        lambda: cache.put_raw(PaperId(paper_id, 1), "pdf", PDF, "application/pdf"),
        lambda: cache.get_meta(PaperId(paper_id)),
        lambda: cache.get_text(PaperId(paper_id, 1)),
        lambda: cache.get_raw(PaperId(paper_id, 1), "pdf"),
        lambda: cache.versions(PaperId(paper_id)),
        lambda: cache.put_note(PaperId(paper_id), "k", 1),
    ]
    for call in calls:
        with pytest.raises(ValueError):
            call()
    assert {p.relative_to(tmp_path).parts[0] for p in tmp_path.rglob("*")} == {"home"}
    assert os.listdir(home / "papers") == []


@pytest.mark.parametrize("version", [0, -1, True, "1", 1.0, 10**6])
def test_bad_versions_and_kinds_are_refused(home, clock, version):
    cache = open_cache(home, clock)
    with pytest.raises(ValueError):
        cache.put_meta(PaperId("2401.00001", version), {}, latest=False)
    with pytest.raises(ValueError):
        cache.put_raw(PaperId("2401.00001", 1), "../pdf", PDF, "application/pdf")
    with pytest.raises(errors.InvalidInput):
        cache.pin("../../x", PaperId("2401.00001", 1))


@pytest.mark.parametrize("key", ["2401.00001", ("2401.00001", 1), ("../x", 1), None])
def test_a_cache_key_is_a_paper_id_and_nothing_else(home, clock, key):
    """Only an ids.PaperId, valid by construction, names a cache file: a string or a tuple
    (which nothing checked) is refused before anything is read or written."""
    cache = open_cache(home, clock)
    for call in (
        lambda: cache.get_text(key),
        lambda: cache.put_text(key, "t", method="html", extractor_version=1),
        lambda: cache.put_raw(key, "pdf", PDF, "application/pdf"),
        lambda: cache.get_meta(key),
    ):
        with pytest.raises((ValueError, AttributeError)):
            call()
    assert os.listdir(home / "papers") == []


def test_a_tier_needs_a_version(home, clock):
    cache = open_cache(home, clock)
    with pytest.raises(ValueError, match="one version"):
        cache.put_text(PaperId("2401.00001"), "t", method="html", extractor_version=1)
    with pytest.raises(ValueError, match="one version"):
        cache.get_raw(PaperId("2401.00001"), "pdf")


def test_the_paper_record_is_what_the_cache_knows_of_a_paper_at_once(home, clock):
    cache = open_cache(home, clock, meta_ttl_s=100)
    pid = PaperId("2401.00001")
    assert cache.paper(pid) == PaperRecord(at=clock.now)
    cache.put_meta(pid.with_version(1), {"title": "v1"}, latest=False)
    cache.put_meta(pid.with_version(3), {"title": "v3"}, latest=True)
    cache.put_note(pid, "k", {"a": 1})
    known = cache.paper(pid.with_version(1))  # a key's version does not matter: the paper's facts
    assert known.versions == (1, 3) and known.latest == (3, clock.now + 100) and known.fresh_latest == 3
    assert known.note("k") == {"a": 1} and known.note("other") is None
    with pytest.raises(TypeError):
        known.notes["k"] = 2  # type: ignore[index]
    clock.advance(100)
    later = cache.paper(pid)
    assert later.latest == known.latest and later.fresh_latest is None
    assert cache.get_meta(pid) is None, "fresh_latest expires as the bare id's metadata does"
    assert cache.paper(PaperId("2401.00002")).versions == ()


def test_valid_id_forms_are_accepted(home, clock):
    cache = open_cache(home, clock)
    for paper_id in ("2401.12345", "0704.0001", "hep-th/9901001", "math.GT/0309136", "cond-mat/0001001"):
        cache.put_meta(PaperId(paper_id, 1), {"title": paper_id}, latest=True)
    assert len(cache.list_cached()) == 5 and open_cache(home, clock).verify() == []
    assert len(ids(open_cache(home, clock))) == 5
