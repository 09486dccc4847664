"""search_papers, get_paper and list_categories through a real MCP client against the fake."""

from __future__ import annotations

import pytest

from tests.conftest import paper

pytestmark = pytest.mark.anyio

CORPUS = [
    paper(
        "2401.00001",
        "Sparse attention for long documents",
        month=1,
        authors=["Grace Hopper", "Edsger Dijkstra"],
        categories=["cs.CL", "cs.LG"],
    ),
    paper(
        "2402.00002",
        "Quantum error correction with surface codes",
        month=2,
        authors=["Richard Feynman"],
        categories=["quant-ph"],
    ),
    paper(
        "2403.00003",
        "Attention is not all you need for graphs",
        month=3,
        authors=["Grace Hopper"],
        categories=["cs.LG"],
        doi="10.1000/xyz",
        journal_ref="J. Graphs 1 (2024)",
    ),
    paper(
        "2303.00004",
        "Protein folding with attention",
        year=2023,
        month=3,
        authors=["Rosalind Franklin"],
        categories=["q-bio.BM"],
    ),
    paper(
        "hep-th/9901001",
        "Strings on curved backgrounds",
        year=1999,
        month=1,
        authors=["Edward Witten"],
        categories=["hep-th"],
        versions=2,
    ),
    paper(
        "math/0309136",
        "Knots and three-manifolds",
        year=2003,
        month=9,
        authors=["William Thurston"],
        categories=["math.GT"],
    ),
]


@pytest.fixture
def corpus(fake):
    for p in CORPUS:
        fake.add(p)
    return fake


async def call(client, name, **args):
    result = await client.call_tool(name, args)
    return result


async def test_tools_listed_with_descriptions(connect):
    async with connect() as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    for name in ("search_papers", "get_paper", "list_categories"):
        tool = tools[name]
        assert len(tool.description) > 40
        for prop, schema in tool.input_schema["properties"].items():
            assert schema.get("description"), (name, prop)


async def test_title_search_sends_fielded_query(corpus, connect):
    async with connect() as client:
        r = await call(client, "search_papers", title="attention")
    assert not r.is_error, r.content
    ids = {p["id"] for p in r.structured_content["papers"]}
    assert ids == {"2401.00001", "2403.00003", "2303.00004"}
    assert r.structured_content["total_results"] == 3
    assert corpus.requests_to("/api/query")[-1].query["search_query"] == "ti:attention"


async def test_author_category_and_dates(corpus, connect):
    async with connect() as client:
        r = await call(
            client,
            "search_papers",
            author="Grace Hopper",
            category="cs.LG",
            date_from="2024-02-01",
            date_to="2024-12-31",
        )
    assert [p["id"] for p in r.structured_content["papers"]] == ["2403.00003"]
    sent = corpus.requests_to("/api/query")[-1].query["search_query"]
    assert sent == 'cat:cs.LG AND au:"Grace Hopper" AND submittedDate:[202402010000 TO 202412312359]'


async def test_plain_query_with_stopwords_still_finds_papers(corpus, connect):
    async with connect() as client:
        r = await call(client, "search_papers", query="attention for the graphs")
    assert [p["id"] for p in r.structured_content["papers"]] == ["2403.00003"]


async def test_id_list_keeps_order_and_reports_missing(corpus, connect):
    ids = ["2403.00003", "hep-th/9901001", "2501.99999", "2401.00001"]
    async with connect() as client:
        r = await call(client, "search_papers", id_list=ids)
    s = r.structured_content
    assert [p["id"] for p in s["papers"]] == ["2403.00003", "hep-th/9901001", "2401.00001"]
    assert s["missing_ids"] == ["2501.99999"]
    assert len(corpus.requests_to("/api/query")) == 1


@pytest.mark.parametrize(
    "form",
    [
        "2403.00003",
        "2403.00003v1",
        "arXiv:2403.00003",
        "https://arxiv.org/abs/2403.00003v1",
        "https://arxiv.org/pdf/2403.00003.pdf",
        "https://arxiv.org/html/2403.00003v1",
        "https://ar5iv.labs.arxiv.org/html/2403.00003",
        "10.48550/arXiv.2403.00003",
        "https://doi.org/10.48550/arXiv.2403.00003",
        " ARXIV:2403.00003V1 ",
    ],
)
async def test_get_paper_accepts_every_form(corpus, connect, form):
    async with connect() as client:
        r = await call(client, "get_paper", paper_id=form)
    assert not r.is_error, r.content
    s = r.structured_content
    assert (s["id"], s["version"]) == ("2403.00003", 1)
    assert s["doi"] == "10.1000/xyz" and s["journal_ref"] == "J. Graphs 1 (2024)"
    base = corpus.site_url
    assert s["abs_url"] == f"{base}/abs/2403.00003v1"
    assert s["pdf_url"] == f"{base}/pdf/2403.00003v1"
    assert s["html_url"] == f"{base}/html/2403.00003v1"
    assert s["source_url"] == f"{base}/e-print/2403.00003v1"


async def test_old_style_ids(corpus, connect):
    async with connect() as client:
        r1 = await call(client, "get_paper", paper_id="math.gt/0309136")
        r2 = await call(client, "get_paper", paper_id="hep-th/9901001v1")
    assert r1.structured_content["id"] == "math/0309136"  # the subject class is not part of the id
    assert (r2.structured_content["id"], r2.structured_content["version"]) == ("hep-th/9901001", 1)
    wire = corpus.requests_to("/api/query")[-1].query["id_list"]
    assert wire == "hep-th/9901001v1,hep-th/9901001"  # the current API answers a versioned old-style id


async def test_malformed_id_is_a_tool_error(corpus, connect):
    async with connect() as client:
        r = await call(client, "get_paper", paper_id="not-an-id")
    assert r.is_error
    assert "not-an-id" in r.content[0].text and "Accepted forms" in r.content[0].text
    assert corpus.requests_to("/api/query") == []


async def test_arxiv_error_feed_is_a_tool_error(corpus, connect):
    corpus.fault(
        "/api/query",
        "status",
        status=400,
        body=(__import__("pathlib").Path(__file__).parent / "fixtures/atom/error_idlist_abc_http400.xml").read_bytes(),
    )
    async with connect() as client:
        r = await call(client, "get_paper", paper_id="2401.00001")
    assert r.is_error and "incorrect id format" in r.content[0].text


async def test_unknown_paper_is_not_found(corpus, connect):
    async with connect() as client:
        r = await call(client, "get_paper", paper_id="2501.99999")
    assert r.is_error and "2501.99999" in r.content[0].text and "search_papers" in r.content[0].text


async def test_unknown_category_suggests(corpus, connect):
    async with connect() as client:
        r = await call(client, "search_papers", query="x", category="cs.ML")
        cats = await call(client, "list_categories", group="cs")
    assert r.is_error and "cs.LG" in r.content[0].text
    assert cats.structured_content["count"] == 40


@pytest.mark.parametrize(
    "args, words",
    [
        ({"query": "x", "sort_by": "date"}, "sort_by"),
        ({"query": "x", "max_results": 5000}, "max_results"),
        ({"query": "x", "start": 29995, "max_results": 10}, "30000"),
        ({"query": "x", "date_from": "2024-31-01"}, "date_from"),
        ({"query": "x", "date_from": "2024-05-01", "date_to": "2024-01-01"}, "after"),
    ],
)
async def test_invalid_arguments(corpus, connect, args, words):
    async with connect() as client:
        r = await call(client, "search_papers", **args)
    assert r.is_error and words in r.content[0].text


async def test_retry_after_is_waited_out(corpus, connect):
    corpus.fault("/api/query", "status", status=503, retry_after="1")
    async with connect() as client:
        r = await call(client, "get_paper", paper_id="2401.00001")
    assert not r.is_error
    reqs = corpus.requests_to("/api/query")
    assert len(reqs) == 2 and reqs[1].t - reqs[0].t >= 0.95


async def test_exhausted_retries_name_the_status(corpus, connect, make_config):
    corpus.fault("/api/query", "status", status=503, times=10)
    async with connect(make_config(ARXIV_MCP_DEADLINE_S=30)) as client:
        r = await call(client, "get_paper", paper_id="2401.00001")
    assert r.is_error
    text = r.content[0].text
    assert "503" in text and "try again" in text
    assert r.meta["retry_after_seconds"] > 0


def test_real_spacing_against_the_fake(fake, make_config):
    """Ten concurrent lookups of different papers at a 0.2 s interval: request starts at
    the fake are never closer than the interval."""
    from arxiv_mcp.service import ArxivService
    from tests.conftest import in_threads
    from tests.conftest import paper as make

    for i in range(10):
        fake.add(make(f"2402.{i:05d}", f"Paper {i}"))
    svc = ArxivService(make_config(ARXIV_MCP_MIN_INTERVAL_S=0.2))
    in_threads(lambda i: svc.get_paper(f"2402.{i:05d}"))
    times = sorted(r.t for r in fake.requests_to("/api/query"))
    assert len(times) == 10
    assert min(b - a for a, b in zip(times, times[1:])) >= 0.19


async def test_metadata_is_fetched_once(corpus, connect):
    async with connect() as client:
        await call(client, "get_paper", paper_id="2402.00002v1")
        await call(client, "search_papers", title="attention")
        corpus.clear_log()
        again = await call(client, "get_paper", paper_id="2402.00002v1")
        after_search = await call(client, "get_paper", paper_id="2401.00001")
        after_search_v = await call(client, "get_paper", paper_id="2403.00003v1")
    assert not again.is_error and not after_search.is_error and not after_search_v.is_error
    assert corpus.requests == []


def test_ten_concurrent_identical_fetches_make_one_request(corpus, make_config):
    from arxiv_mcp.service import ArxivService
    from tests.conftest import in_threads

    svc = ArxivService(make_config(ARXIV_MCP_MIN_INTERVAL_S=0.5))
    svc.get_paper("2401.00001")  # books a slot: the next request waits 0.5 s, so all ten overlap
    corpus.clear_log()
    titles = in_threads(lambda _: svc.get_paper("2402.00002v1").title)
    assert titles == ["Quantum error correction with surface codes"] * 10
    assert len(corpus.requests_to("/api/query")) == 1
