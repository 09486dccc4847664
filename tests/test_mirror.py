"""The local mirror (issue 31, points 1-7): OAI-PMH read as arXiv writes it, harvested
exactly and resumably against the fake, and questions answered from it as the API answers
them, with no request. Processes (the command line, SIGKILL, spacing between processes)
are in test_mirror_processes.py."""

from __future__ import annotations

import sqlite3
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from mcp.client import Client

from arxiv_mcp.config import ConfigError, load
from arxiv_mcp.errors import UpstreamError
from arxiv_mcp.mirror import query as mq
from arxiv_mcp.mirror.harvest import HarvestBusy, Harvester, lease_lock
from arxiv_mcp.mirror.store import MirrorStore
from arxiv_mcp.server import build_server
from arxiv_mcp.service import ArxivService
from arxiv_mcp.upstream import oai
from tests.fake_arxiv import FakeArxiv, FakePaper

FIXTURES = Path(__file__).parent / "fixtures" / "oai"
NOW = datetime.now(UTC).replace(hour=12, minute=0, second=0, microsecond=0)


def _paper(pid: str, title: str, cats: list[str], days_ago: int, **kw) -> FakePaper:
    kw.setdefault("abstract", f"We study {title.lower()} with new methods.")
    kw.setdefault("authors", ["Ada Lovelace", "Alan Turing"])
    return FakePaper(id=pid, title=title, categories=cats, published=NOW - timedelta(days=days_ago), **kw)


CORPUS = [
    _paper("2401.00001", "Graph Neural Networks for Molecules", ["cs.LG", "q-bio.QM"], 400, versions=3),
    _paper("2401.00002", "Attention Is Not All You Need", ["cs.CL", "cs.LG"], 380, authors=["Noam Shazeer"]),
    _paper("2402.00003", "Scaling Laws of Graph Transformers", ["cs.LG"], 300, comment="12 pages"),
    _paper("2403.00004", "Random Graphs and Ramsey Numbers", ["math.CO"], 250, authors=["Paul Erdős"]),
    _paper("2404.00005", "Spectral Graph Theory Revisited", ["math.CO", "cs.DM"], 200),
    _paper("2405.00006", "Reinforcement Learning for Robots", ["cs.RO", "cs.LG"], 150, versions=2),
    _paper("2406.00007", "Neural Scaling Laws Explained", ["cs.LG", "stat.ML"], 20),
    _paper("2406.00008", "Graph Attention for Text", ["cs.CL"], 10),
    _paper("2406.00009", "Vision Transformers at Scale", ["cs.CV"], 5),
    _paper("2406.00010", "Graph Neural Networks Without Graphs", ["cs.LG"], 3, abstract="Message passing on sets."),
    _paper("hep-th/9901001", "Strings and Branes", ["hep-th"], 9000),
]


@pytest.fixture
def oai_fake():
    with FakeArxiv(CORPUS) as f:
        yield f


def _config(fake: FakeArxiv, home: Path, mirror: str = "cs.LG,math.CO", **env):
    values = {**fake.env(), "ARXIV_MCP_HOME": str(home), "ARXIV_MCP_MIRROR": mirror}
    values.update({k: str(v) for k, v in env.items()})
    return load(values)


@pytest.fixture
def mirrored(oai_fake, tmp_path):
    """A service whose mirror of cs.LG and math.CO has been harvested."""
    svc = ArxivService(_config(oai_fake, tmp_path / "home"))
    svc.mirror_sync(svc.config.mirror, due_only=False)
    oai_fake.clear_log()
    yield svc
    svc.cache.close()


@asynccontextmanager
async def client_of(config):
    async with Client(build_server(config, start_mirror=False)) as client:
        yield client


# --- the wire format ---------------------------------------------------------------------------


def test_the_recorded_pages_read_as_records_tokens_and_errors():
    first = oai.parse_page((FIXTURES / "derived-ListRecords-arXivRaw-first-page.xml").read_bytes())
    assert [r.id for r in first.records] == ["math/9501234", "1010.9599"]
    assert first.token and first.token.startswith("verb%3DListRecords")
    assert first.records[0].versions == [oai.Version(1, "1995-01-23T00:00:00Z", "340kb")]
    assert first.records[1].sets == ["math:math:CO", "math:math:DS"]
    assert first.records[1].authors[0] == "Amara Dvořáková"
    last = oai.parse_page((FIXTURES / "derived-ListRecords-arXivRaw-last-page.xml").read_bytes())
    assert last.token is None and [v.version for v in last.records[0].versions] == [1, 2]
    assert oai.parse_page((FIXTURES / "derived-error-noRecordsMatch.xml").read_bytes()).records == []
    # recorded for an unknown set (cs:cs:XX): arXiv answers noRecordsMatch, not badArgument
    assert oai.parse_page((FIXTURES / "derived-error-badArgument.xml").read_bytes()).token is None
    with pytest.raises(oai.BadResumptionToken):
        oai.parse_page((FIXTURES / "derived-error-badResumptionToken.xml").read_bytes())


def test_a_live_record_keeps_every_version_with_date_and_size():
    body = (FIXTURES / "live-arXivRaw-record-1706.03762.xml").read_text()
    page = oai.parse_page(
        f'<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-12-07T00:00:00Z'
        f"</responseDate><ListRecords>{body}<resumptionToken/></ListRecords></OAI-PMH>".encode()
    )
    (rec,) = page.records
    assert (rec.id, rec.title, len(rec.versions)) == ("1706.03762", "Attention Is All You Need", 7)
    assert rec.versions[-1] == oai.Version(7, "2023-08-02T00:41:18Z", "1124kb")
    assert rec.published == "2017-06-12T17:57:34Z" and rec.categories == ["cs.CL", "cs.LG"]
    tex = (FIXTURES / "live-arXivRaw-record-2609.12825.xml").read_text()
    names = oai.parse_page(
        f'<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><ListRecords>{tex}</ListRecords></OAI-PMH>'.encode()
    ).records[0]
    assert names.authors == ["Mustafa Bora Çelik", "Hayriye Aktaş Dinçer", "Ayse Keles"]


@pytest.mark.parametrize("name", ["cs.LG", "cs", "hep-th", "astro-ph.CO", "math.CO", "math", "physics.optics"])
def test_set_names_are_those_arxiv_lists(name):
    listed = (FIXTURES / "derived-ListSets.xml").read_text()
    assert f"<setSpec>{oai.set_spec(name)}</setSpec>" in listed


# --- settings ----------------------------------------------------------------------------------


def test_an_unknown_category_stops_start_up_with_one_line(oai_fake, tmp_path):
    with pytest.raises(ConfigError) as err:
        _config(oai_fake, tmp_path, "cs.LG,cs.XX")
    assert "'cs.XX'" in str(err.value) and "\n" not in str(err.value)
    assert _config(oai_fake, tmp_path, "cs.lg hep-th, MATH").mirror == ("cs.LG", "hep-th", "math")


def test_harvesting_arxiv_itself_keeps_3_seconds(oai_fake, tmp_path):
    env = {**oai_fake.env(), "ARXIV_MCP_OAI_URL": "https://oaipmh.arxiv.org/oai"}
    assert load({**env, "ARXIV_MCP_HOME": str(tmp_path)}).mirror == ()  # no mirror: no check
    with pytest.raises(ConfigError, match="3 seconds"):
        load({**env, "ARXIV_MCP_HOME": str(tmp_path), "ARXIV_MCP_MIRROR": "cs.LG"})


@pytest.mark.anyio
async def test_no_mirror_means_no_oai_request(oai_fake, tmp_path):
    config = load({**oai_fake.env(), "ARXIV_MCP_HOME": str(tmp_path)})
    async with Client(build_server(config)) as client:
        await client.call_tool("search_papers", {"query": "graph", "category": "cs.LG"})
        listed = {t.name for t in (await client.list_tools()).tools}
    assert "mirror_status" not in listed  # it could only say "no mirror"
    assert oai_fake.requests_to("/oai") == []
    assert not (tmp_path / "mirror.sqlite3").exists()


# --- harvesting --------------------------------------------------------------------------------


def test_a_harvest_pages_with_tokens_and_a_later_sync_asks_from_its_day(oai_fake, tmp_path):
    svc = ArxivService(_config(oai_fake, tmp_path / "home", "cs.LG"))
    svc.mirror_sync(("cs.LG",), due_only=False)
    asked = [r.query for r in oai_fake.requests_to("/oai")]
    in_set = sorted(p.id for p in CORPUS if "cs.LG" in p.categories)
    assert asked[0] == {"verb": "ListRecords", "metadataPrefix": "arXivRaw", "set": "cs:cs:LG"}
    assert all(set(q) == {"verb", "resumptionToken"} for q in asked[1:]) and len(asked) == 3  # 6 papers, pages of 2
    assert sorted(svc.mirror.papers(in_set)) == in_set
    oai_fake.clear_log()
    note = svc.mirror_sync(("cs.LG",), due_only=False)
    (again,) = [r.query for r in oai_fake.requests_to("/oai")]
    assert again["from"] == datetime.now(UTC).strftime("%Y-%m-%d")  # the day of the last responseDate
    assert "0 records" in note  # noRecordsMatch: a success with nothing new
    assert svc.mirror_sync(("cs.LG",), due_only=True) == "Harvested 0 pages (0 records)."  # not due: no request
    svc.cache.close()


def test_an_expired_token_restarts_from_the_last_datestamp_storing_nothing_twice(oai_fake, tmp_path):
    svc = ArxivService(_config(oai_fake, tmp_path / "home", "cs.LG"))
    oai_fake.oai_bad_tokens = 1
    svc.mirror_sync(("cs.LG",), due_only=False)
    asked = [r.query for r in oai_fake.requests_to("/oai")]
    assert "resumptionToken" in asked[1] and asked[2]["from"]  # refused, then from the last datestamp
    store = svc.mirror.store
    assert store.record_count() == sum("cs.LG" in p.categories for p in CORPUS)
    rows = store.db.execute("SELECT count(*), count(DISTINCT id) FROM papers").fetchone()
    assert rows[0] == rows[1]
    svc.cache.close()


def test_a_503_with_retry_after_is_waited_out_and_the_harvest_completes(oai_fake, tmp_path):
    svc = ArxivService(_config(oai_fake, tmp_path / "home", "math.CO"))
    oai_fake.fault("/oai", "status", status=503, retry_after="1")
    svc.mirror_sync(("math.CO",), due_only=False)
    times = [r.t for r in oai_fake.requests_to("/oai")]
    assert len(times) == 2 and times[1] - times[0] >= 1.0
    assert svc.mirror.store.record_count() == 2
    svc.cache.close()


def test_a_deleted_record_leaves_search(mirrored, oai_fake):
    assert mirrored.search(query="robots", category="cs.LG").total_results == 1
    oai_fake.oai_deleted.add("2405.00006")
    oai_fake.papers["2405.00006"].updated = NOW  # sent again by the next sync
    mirrored.mirror_sync(("cs.LG",), due_only=False)
    found = mirrored.search(query="robots", category="cs.LG")
    assert (found.source, found.total_results) == ("mirror", 0)


def test_one_harvester_per_home(oai_fake, tmp_path):
    config = _config(oai_fake, tmp_path / "home", "cs.LG")
    svc = ArxivService(config)
    lock = lease_lock(config.home)
    holding = lock.acquire()
    try:
        harvester = Harvester(svc.http, svc.mirror.store, config.oai_url, config.home)
        with pytest.raises(HarvestBusy, match="already running"):
            harvester.sync(["cs.LG"])
        assert svc.mirror_status().harvesting
    finally:
        lock.release(holding)
    assert oai_fake.requests_to("/oai") == []
    svc.cache.close()


def test_a_harvest_stopped_between_pages_resumes_from_its_token(oai_fake, tmp_path):
    config = _config(oai_fake, tmp_path / "home", "cs.LG")
    svc = ArxivService(config)
    pages: list[int] = []
    harvester = Harvester(svc.http, svc.mirror.store, config.oai_url, config.home)
    done = harvester.sync(["cs.LG"], on_page=lambda *a: pages.append(a[1]), stop=lambda: len(pages) >= 1)
    assert done.stopped and svc.mirror.store.set_state("cs:cs:LG").token
    assert svc.mirror_status().sets[0].progress.startswith("1 pages")
    harvester.sync(["cs.LG"])
    asked = [r.query for r in oai_fake.requests_to("/oai")]
    assert "resumptionToken" in asked[1] and len(asked) == 3  # resumed, nothing asked twice
    svc.cache.close()


# --- answering -----------------------------------------------------------------------------------

QUERIES = [
    {"query": "graph", "category": "cs.LG"},
    {"query": "graph neural", "category": "cs.LG"},
    {"title": "scaling laws", "category": "cs.LG"},
    {"author": "Noam Shazeer", "category": "cs.LG"},
    {"query": "graph -molecules", "category": "cs.LG"},
    {"query": "ti:graph AND (abs:methods OR abs:passing)", "category": "cs.LG"},
    {"query": '"graph neural networks"', "category": "cs.LG"},
    {"category": "cs.LG", "date_from": (NOW - timedelta(days=365)).strftime("%Y-%m-%d")},
    {"query": "graph", "category": "math.CO"},
    {"query": "cat:math.CO AND ti:graphs"},
    {"query": "graph", "category": "cs.LG,math.CO"},
    {"query": "ramsey erdos spectral", "category": "math.CO"},
]


@pytest.mark.parametrize("sort_by", ["submittedDate", "lastUpdatedDate", "relevance"])
@pytest.mark.parametrize("sort_order", ["descending", "ascending"])
def test_the_mirror_finds_what_the_api_finds(mirrored, oai_fake, tmp_path, sort_by, sort_order):
    api = ArxivService(load({**oai_fake.env(), "ARXIV_MCP_HOME": str(tmp_path / "api")}))
    answers = [mirrored.search(**args, sort_by=sort_by, sort_order=sort_order, max_results=50) for args in QUERIES]
    assert oai_fake.requests == []  # every one from the mirror
    for args, local in zip(QUERIES, answers, strict=True):
        remote = api.search(**args, sort_by=sort_by, sort_order=sort_order, max_results=50)
        assert local.source == "mirror", (args, local.note)
        assert local.total_results == remote.total_results, args
        assert {p.id for p in local.papers} == {p.id for p in remote.papers}, args
        if sort_by != "relevance":
            assert [p.id for p in local.papers] == [p.id for p in remote.papers], args
    api.cache.close()


def test_without_fts5_the_same_papers_are_found(mirrored, tmp_path, monkeypatch, caplog):
    from arxiv_mcp.mirror import store

    monkeypatch.setattr(store, "_warned_no_fts", False)
    plain = MirrorStore(tmp_path / "plain", fts=False)
    MirrorStore(tmp_path / "plain2", fts=False)
    assert [r.message for r in caplog.records].count(
        "this Python's sqlite has no FTS5: mirror searches match words in Python (same results, slower)"
    ) == 1
    rows = mirrored.mirror.store.db.execute("SELECT id FROM papers").fetchall()
    for paper in mirrored.mirror.store.papers([r[0] for r in rows]).values():
        plain.store_page("x", [_record(paper)], None, "2026-01-01T00:00:00Z")
    for text in ["cat:cs.LG AND all:graph", 'cat:cs.LG AND ti:"neural networks"', "cat:math* ANDNOT all:ramsey"]:
        for sort_by in ("relevance", "submittedDate"):
            one = mq.search(mirrored.mirror.store, mq.parse(text), sort_by, "descending", 0, 50)
            two = mq.search(plain, mq.parse(text), sort_by, "descending", 0, 50)
            ids = [[p.id for p in s.by_rowids(f.rowids)] for s, f in ((mirrored.mirror.store, one), (plain, two))]
            assert one.total == two.total and set(ids[0]) == set(ids[1]), text
            if sort_by != "relevance":
                assert ids[0] == ids[1]


def _record(p) -> oai.Record:
    return oai.Record(p.id, "2026-01-01", [], p.title, p.authors, p.categories, p.abstract, p.versions, p.comments)


def test_outside_the_mirror_or_after_its_sync_the_api_answers_and_says_so(mirrored, oai_fake):
    outside = mirrored.search(query="transformers", category="cs.CV")
    assert outside.source == "api" and "outside the mirrored categories" in (outside.note or "")
    unnarrowed = mirrored.search(query="graph")
    assert unnarrowed.source == "api"
    assert len(oai_fake.requests_to("/api")) == 2
    mirrored.mirror.store.db.execute("UPDATE sets SET last_sync='2020-01-01T00:00:00Z'")
    recent = mirrored.search(category="cs.LG", date_from="2025-01-01")
    assert recent.source == "api" and "after the mirror's last sync" in (recent.note or "")


@pytest.mark.anyio
async def test_every_answer_through_the_mcp_client(mirrored, oai_fake):
    async with client_of(mirrored.config) as client:
        found = await client.call_tool("search_papers", {"query": "graph neural", "category": "cs.LG"})
        paper = await client.call_tool("get_paper", {"paper_id": "2401.00001"})
        bib = await client.call_tool("export_bibtex", {"paper_ids": ["2401.00001", "2403.00004"]})
        checked = await client.call_tool("resolve_references", {"references": ["arXiv:2401.00001", "2403.00004v1"]})
        trends = await client.call_tool("category_trends", {"category": "cs.LG", "window_days": 30})
        chart = await client.read_resource("arxiv://trends/cs.LG/30/chart")
        status = await client.call_tool("mirror_status", {})
        stats = await client.call_tool("cache_stats", {})
    assert oai_fake.requests == []  # every answer from the mirror
    s = found.structured_content
    assert s["source"] == "mirror" and s["as_of"] and s["total_results"] == 2
    assert "local mirror" in found.content[0].text
    detail = paper.structured_content
    assert detail["source"] == "mirror" and [v.split()[0] for v in detail["versions"]] == ["v1", "v2", "v3"]
    assert detail["versions"][0].endswith(" 101kb") and "Versions (local mirror" in paper.content[0].text
    assert bib.structured_content["count"] == 2
    assert [i["verdict"] for i in checked.structured_content["items"]] == ["exact", "exact"]
    t = trends.structured_content
    in_window = [p for p in CORPUS if "cs.LG" in p.categories and p.published >= NOW - timedelta(days=29)]
    assert (t["source"], t["total_results"]) == ("mirror", len(in_window))
    assert t["chart_uri"] == "arxiv://trends/cs.LG/30/chart"
    svg = chart.contents[0].text
    assert svg.startswith("<svg") and "cs.LG: submissions per day" in svg
    m = status.structured_content
    assert [x["name"] for x in m["sets"]] == ["cs.LG", "math.CO"]
    assert [x["records"] for x in m["sets"]] == [6, 2] and m["db_bytes"] > 0 and m["sets"][0]["next_sync_due"]
    assert "cs.LG: 6 papers; last sync" in status.content[0].text
    assert stats.structured_content["bytes_by_tier"]["mirror"] == m["db_bytes"]


@pytest.mark.anyio
async def test_a_sync_started_by_a_tool_reports_progress_per_page(oai_fake, tmp_path):
    config = _config(oai_fake, tmp_path / "home", "cs.LG")
    seen: list[tuple[float, str | None]] = []

    async def progress(done, total, message):
        seen.append((done, message))

    async with client_of(config) as client:
        before = await client.call_tool("search_papers", {"query": "graph", "category": "cs.LG"})
        result = await client.call_tool("mirror_status", {"sync": True}, progress_callback=progress)
    assert before.structured_content["source"] == "api"  # not harvested yet
    assert [d for d, _ in seen] == [1, 2, 3] and "mirror cs.LG: page 1" in (seen[0][1] or "")
    assert "Harvested 3 pages" in result.content[0].text
    assert result.structured_content["sets"][0]["last_sync"]


def test_interactive_calls_go_before_the_next_page(oai_fake, tmp_path):
    """While a harvest runs, a tool call's request is sent before any page but the one in flight."""
    import threading

    config = _config(oai_fake, tmp_path / "home", "cs.LG", ARXIV_MCP_MIN_INTERVAL_S="0.3")
    oai_fake.oai_page_size = 1
    svc = ArxivService(config)
    started = threading.Event()
    pages: list[int] = []

    def on_page(*args):
        pages.append(args[1])
        if args[1] == 2:
            started.set()

    harvest = threading.Thread(target=lambda: svc.mirror_sync(("cs.LG",), due_only=False, report=on_page))
    harvest.start()
    assert started.wait(30)
    asked_at = len(oai_fake.requests_to("/oai"))
    svc.search(query="robots", category="cs.RO")
    harvest.join(60)
    order = [r.path for r in oai_fake.requests]
    api_at = order.index("/api/query")
    assert order[:api_at].count("/oai") <= asked_at + 1  # at most the page in flight went first
    svc.cache.close()


def test_the_database_is_not_the_cache_s_to_evict(mirrored):
    before = mirrored.mirror.store.size_bytes()
    mirrored.clear_cache(drop_pinned=True)
    assert mirrored.mirror.store.size_bytes() == before and mirrored.mirror.store.record_count() == 8
    with sqlite3.connect(mirrored.mirror.store.path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_queries_are_read_as_arxiv_reads_them():
    right = mq.parse("ti:a AND ti:b OR ti:c")  # binary operators group to the right
    assert isinstance(right, mq.Binary) and right.op == "AND" and isinstance(right.right, mq.Binary)
    grouped = mq.parse('cat:cs.LG AND ti:(graph OR "neural net")')
    assert mq.leaves(grouped)[1:] == [mq.Text("ti", ("graph",), False), mq.Text("ti", ("neural", "net"), True)]
    dated = mq.parse("submittedDate:[202401010000 TO 202401312359]")
    assert dated == mq.Dates("published", "2024-01-01T00:00:00Z", "2024-01-31T23:59:59Z")
    assert mq.covered(mq.parse("cat:cs* AND all:x"), ["cs.LG"], "2026-01-01") is not None  # the archive is not mirrored
    assert mq.covered(mq.parse("cat:cs* AND all:x"), ["cs"], "2026-01-01") is None
    assert mq.covered(mq.parse("rn:CERN-TH AND cat:cs.LG"), ["cs"], "2026-01-01") is not None  # a field it lacks


def test_tokens_refused_again_and_again_stop_the_harvest_with_what_it_stored(oai_fake, tmp_path):
    svc = ArxivService(_config(oai_fake, tmp_path / "home", "cs.LG"))
    oai_fake.oai_bad_tokens = 100
    with pytest.raises(UpstreamError, match="refused 4 fresh resumption tokens"):
        svc.mirror_sync(("cs.LG",), due_only=False)
    assert len(oai_fake.requests_to("/oai")) == 2 + 2 * 3  # the first page, then 3 restarts, each refused on
    assert svc.mirror.store.record_count() >= 2 and svc.mirror.store.set_state("cs:cs:LG").last_sync is None
    svc.cache.close()
