"""search_papers and export_bibtex as they are really used, through a real MCP client against
the fake arXiv (which reads queries as arXiv does: NOT is a word, terms side by side are
OR-ed, lower-case and/or are words). Request counts are checked."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.conftest import paper
from tests.fake_arxiv import FakePaper, atom_entry, atom_feed

pytestmark = pytest.mark.anyio


def _searches(fake) -> list[str]:
    return [r.query.get("search_query", "") for r in fake.requests_to("/api/query")]


async def search(client, **args):
    r = await client.call_tool("search_papers", args)
    assert not r.is_error, r.content[0].text
    return r.structured_content


def _ids(result) -> list[str]:
    return [p["id"] for p in result["papers"]]


# ---- 12.5 operators -----------------------------------------------------------------------


@pytest.fixture
def transformers(fake):
    fake.add(paper("2401.00001", "Transformers for vision", authors=["Grace Hopper"]))
    fake.add(paper("2401.00002", "Transformers for text", authors=["Alan Turing"]))
    fake.add(paper("2401.00003", "Convolutions for vision", authors=["Grace Hopper"]))
    return fake


@pytest.mark.parametrize(
    "query, expected",
    [
        ("transformers NOT vision", ["2401.00002"]),
        ("transformers AND NOT vision", ["2401.00002"]),
        ("ti:transformers not ti:vision", ["2401.00002"]),
        ("ti:transformers and au:hopper", ["2401.00001"]),
        ("ti:vision and not au:hopper", []),
        ("vision au:hopper", ["2401.00001", "2401.00003"]),
        ("vision au:turing", []),
        ("transformers au:hopper", ["2401.00001"]),
        ("ti:transformers au:turing", ["2401.00002"]),
    ],
)
async def test_not_and_lower_case_operators_and_adjacency_mean_what_they_say(transformers, connect, query, expected):
    async with connect() as client:
        r = await search(client, query=query)
    assert sorted(_ids(r)) == expected
    assert len(transformers.requests_to("/api/query")) == 1


async def test_a_not_with_nothing_before_it_is_a_clear_error_without_a_request(transformers, connect):
    async with connect() as client:
        r = await client.call_tool("search_papers", {"query": "NOT vision"})
    assert r.is_error and "ANDNOT" in r.content[0].text
    assert transformers.requests == []


# ---- 12.6 a query that is an id, a URL or a DOI ---------------------------------------------


@pytest.fixture
def with_doi(fake):
    fake.add(paper("2401.00001", "Sparse attention", versions=2, doi="10.1000/XYZ.123", citations=[]))
    fake.add(paper("hep-th/9901001", "Strings", year=1999, month=1, categories=["hep-th"]))
    return fake


@pytest.mark.parametrize(
    "query, expected",
    [
        ("2401.00001", ("2401.00001", 2)),
        ("arXiv:2401.00001v1", ("2401.00001", 1)),
        ("https://arxiv.org/abs/2401.00001", ("2401.00001", 2)),
        ("https://arxiv.org/pdf/hep-th/9901001v1", ("hep-th/9901001", 1)),
        ("10.48550/arXiv.2401.00001", ("2401.00001", 2)),
        ("doi:10.48550/arXiv.hep-th/9901001", ("hep-th/9901001", 1)),
    ],
)
async def test_a_query_that_is_an_arxiv_id_is_looked_up(with_doi, connect, query, expected):
    async with connect() as client:
        r = await search(client, query=query)
    assert [(p["id"], p["version"]) for p in r["papers"]] == [expected]
    api = with_doi.requests_to("/api/query")
    assert len(api) == 1 and "id_list" in api[0].query and not api[0].query.get("search_query")


@pytest.mark.parametrize("query", ["doi:10.1000/xyz.123", "10.1000/XYZ.123", "https://doi.org/10.1000/xyz.123"])
async def test_a_journal_doi_is_resolved_to_its_arxiv_paper(with_doi, connect, query):
    async with connect() as client:
        r = await search(client, query=query)
    assert _ids(r) == ["2401.00001"]
    assert len(with_doi.requests_to("/s2/")) == 1 and len(with_doi.requests_to("/api/query")) == 1


async def test_a_journal_doi_with_no_arxiv_version_says_so(with_doi, connect):
    async with connect() as client:
        r = await client.call_tool("search_papers", {"query": "doi:10.9999/nothing.here"})
    assert r.is_error and "10.9999/nothing.here" in r.content[0].text and "title" in r.content[0].text
    assert with_doi.requests_to("/api/query") == []


# ---- 12.7 paging a relaxed query ---------------------------------------------------------


async def test_page_two_of_a_relaxed_search_pages_the_same_relaxed_query(fake, connect):
    for k in range(1, 6):
        fake.add(paper(f"2401.0000{k}", f"Attention study number {k}", month=1))
    async with connect() as client:
        first = await search(client, query="attention unicorn zebra", max_results=2)
        before = len(fake.requests_to("/api/query"))
        second = await search(client, query="attention unicorn zebra", max_results=2, start=first["next_start"])
        last = await search(client, query="attention unicorn zebra", max_results=2, start=4)
    assert first["note"] and " OR " in first["query"] and first["total_results"] == 5
    assert (first["has_more"], first["next_start"]) == (True, 2)
    assert second["query"] == first["query"] and second["total_results"] == 5 and second["note"]
    assert len(second["papers"]) == 2 and not set(_ids(first)) & set(_ids(second))
    assert len(fake.requests_to("/api/query")) - before == 2  # one request per page
    assert (last["has_more"], last["next_start"], len(last["papers"])) == (False, None, 1)


async def test_a_start_past_the_last_result_says_so_and_where_to_begin(fake, connect):
    for k in range(1, 4):
        fake.add(paper(f"2401.0000{k}", f"Attention study number {k}", month=1))
    async with connect() as client:
        r = await client.call_tool("search_papers", {"query": "attention", "start": 50})
    said = r.content[0].text.splitlines()[0]
    assert not r.is_error and said.startswith("3 result(s); start=50 is past the last one: start=0 for the first page")


# ---- 12.8 archive-level categories ---------------------------------------------------------


@pytest.fixture
def archives(fake):
    fake.add(paper("0901.00001", "Dark energy", year=2009, month=1, categories=["astro-ph.CO"]))
    fake.add(paper("1001.00002", "Galaxy halos", year=2010, month=1, categories=["astro-ph.GA", "gr-qc"]))
    fake.add(paper("astro-ph/0601001", "Old stars", year=2006, month=1, categories=["astro-ph"]))
    fake.add(paper("1001.00003", "Black holes", year=2010, month=1, categories=["gr-qc"]))
    fake.add(paper("math/0309136", "Knots", year=2003, month=9, categories=["math.GT"]))
    fake.add(paper("1001.00004", "Operators", year=2010, month=1, categories=["math-ph"]))
    fake.add(paper("1001.00005", "Strongly correlated", year=2010, month=1, categories=["cond-mat.str-el"]))
    return fake


@pytest.mark.parametrize(
    "category, expected",
    [
        ("astro-ph", ["0901.00001", "1001.00002", "astro-ph/0601001"]),
        ("Astro-Ph", ["0901.00001", "1001.00002", "astro-ph/0601001"]),
        ("math", ["math/0309136"]),
        ("cond-mat", ["1001.00005"]),
        ("math-ph", ["1001.00004"]),
        ("cond-mat,gr-qc", ["1001.00002", "1001.00003", "1001.00005"]),
    ],
)
async def test_an_archive_is_a_category_value(archives, connect, category, expected):
    async with connect() as client:
        r = await search(client, category=category, max_results=50)
    assert sorted(_ids(r)) == expected
    assert len(archives.requests_to("/api/query")) == 1


# ---- 12.9 duplicates, bibtex count, abstract length --------------------------------------


async def test_id_list_with_duplicates_returns_each_paper_once(fake, connect):
    fake.add(paper("2401.00001", "Sparse attention", versions=2))
    fake.add(paper("math/0309136", "Knots", year=2003, month=9, categories=["math.GT"]))
    ids = ["2401.00001", "2401.00001", "arXiv:2401.00001", "math.GT/0309136", "math/0309136", "2401.99999"]
    async with connect() as client:
        r = await search(client, id_list=ids + ["2401.99999"])
    assert [(p["id"], p["version"]) for p in r["papers"]] == [("2401.00001", 2), ("math/0309136", 1)]
    assert r["total_results"] == 2 and r["missing_ids"] == ["2401.99999"]
    assert len(fake.requests_to("/api/query")) == 1
    assert fake.requests_to("/api/query")[0].query["id_list"] == "2401.00001,math/0309136,2401.99999"


async def test_export_bibtex_counts_its_entries_and_uses_the_latest_metadata(fake, connect):
    fake.add(paper("2401.00001", "Sparse attention", versions=3))
    async with connect() as client:
        await client.call_tool("get_paper", {"paper_id": "2401.00001v1"})
        r = await client.call_tool("export_bibtex", {"paper_ids": ["2401.00001v1", "2401.00001", "2401.00001v2"]})
    s = r.structured_content
    assert s["count"] == 1 == s["bibtex"].count("@misc{") and s["missing_ids"] == []
    # get_paper asked for v1 and the latest together; the entry is the latest's, already cached
    assert [q.query["id_list"] for q in fake.requests_to("/api/query")] == ["2401.00001v1,2401.00001"]


@pytest.mark.parametrize("limit", [0, 1, 2, 10, 57])
async def test_abstract_max_chars_is_a_hard_limit(fake, connect, limit):
    fake.add(paper("2401.00001", "Sparse attention", abstract="word " * 100))
    async with connect() as client:
        r = await search(client, id_list=["2401.00001"], abstract_max_chars=limit)
    abstract = r["papers"][0]["abstract"]
    assert len(abstract) <= limit and r["papers"][0]["abstract_truncated"]
    assert abstract.endswith("…") or limit == 0


# ---- 12.10 classes and paragraphs ----------------------------------------------------------


async def test_acm_and_msc_classes_are_kept_apart_and_paragraphs_kept(fake, connect):
    """As in the legacy2017 recording: classes are <category term>s, several to a term, with
    line breaks; abstracts are wrapped at 80 columns with indented paragraph starts."""
    fake.add(
        paper(
            "1709.09882",
            "Object recognition on a robot",
            year=2017,
            month=9,
            categories=["cs.RO", "cs.AI", "I.2.9; I.2.10; I.5.2;\n  I.5.4", "68T45,  68T40"],
            abstract="  We report on an extensive study of\nrobot vision.\n  We present a dataset\nand results.",
        )
    )
    async with connect() as client:
        found = await search(client, query="robot")
        detail = (await client.call_tool("get_paper", {"paper_id": "1709.09882"})).structured_content
    for record in (found["papers"][0], detail):
        assert record["categories"] == ["cs.RO", "cs.AI"]
        assert (
            record["abstract"]
            == "We report on an extensive study of robot vision.\n\nWe present a dataset and results."
        )
    assert detail["classes"] == ["I.2.9", "I.2.10", "I.5.2", "I.5.4", "68T45", "68T40"]
    assert detail["primary_category"] == "cs.RO"


# ---- 14.12 one odd entry -------------------------------------------------------------------


def _feed_with(entries: list[str]) -> bytes:
    return atom_feed("all:robot", "", 0, 10, len(entries), entries)


@pytest.mark.parametrize(
    "odd",
    [
        lambda e: e.replace("2401.00002v1<", "2401.00002v0<"),
        lambda e: e.replace("2401.00002v1<", "2401.00002v" + "9" * 5000 + "<"),
        lambda e: e.replace("/abs/2401.00002v1<", "/abs/not-an-id<"),
        lambda e: e.replace("2401.00002v1<", "2413.00002v1<"),
    ],
    ids=["v0", "absurd-version", "malformed-id", "impossible-month"],
)
async def test_one_odd_entry_is_skipped_with_a_note(fake, connect, odd):
    good = FakePaper("2401.00001", "Robot arms", "Robots.", ["A"], ["cs.RO"], datetime(2024, 1, 5, tzinfo=UTC))
    bad = FakePaper("2401.00002", "Robot legs", "Robots.", ["B"], ["cs.RO"], datetime(2024, 1, 6, tzinfo=UTC))
    fake.fault("/api/query", "malformed", body=_feed_with([atom_entry(good, 1), odd(atom_entry(bad, 1))]))
    async with connect() as client:
        r = await search(client, query="robot")
    assert _ids(r) == ["2401.00001"]
    assert "left out" in r["note"]
    assert len(fake.requests_to("/api/query")) == 1


async def test_one_deeply_nested_citation_is_skipped_with_a_note(fake, connect, caplog):
    fake.add(paper("2401.00001", "Cited", citations=[]))
    deep = "[" * 50_000 + "]" * 50_000
    good = '{"citingPaper": {"paperId": "a", "externalIds": {"ArXiv": "2301.00001"}, "title": "Fine", "year": 2023, "authors": []}}'
    body = f'{{"offset": 0, "data": [{good}, {{"citingPaper": {{"title": {deep}}}}}, {good}]}}'.encode()
    fake.fault("/s2/", "malformed", body=body)
    async with connect() as client:
        r = await client.call_tool("get_citations", {"paper_id": "2401.00001"})
    assert not r.is_error, r.content[0].text
    s = r.structured_content
    assert [n["title"] for n in s["neighbours"]] == ["Fine", "Fine"]
    assert any("left out 1 unreadable item" in r.getMessage() for r in caplog.records)
    assert len(fake.requests_to("/s2/")) == 1
