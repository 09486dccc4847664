"""Ids as people and models paste them, through a real MCP client against the fake arXiv,
which answers as the 2026 recordings show (a subject class is not part of an old-style id;
a versioned old-style id_list gets that version's entry). Request counts are checked."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.conftest import paper

pytestmark = pytest.mark.anyio


@pytest.fixture
def corpus(fake):
    fake.add(paper("math/0309136", "Knots and three-manifolds", year=2003, month=9, categories=["math.GT"]))
    fake.add(paper("cs/0112017", "Logic of programs", year=2001, month=12, categories=["cs.LO"]))
    fake.add(
        paper(
            "cond-mat/0101001",
            "Strongly correlated electrons",
            year=2001,
            month=1,
            categories=["cond-mat.str-el"],
            versions=3,
            updated=datetime(2001, 6, 5, 12, tzinfo=UTC),
        )
    )
    fake.add(paper("2401.12345", "Sparse attention", year=2024, month=1, versions=2))
    return fake


async def get(client, paper_id):
    return await client.call_tool("get_paper", {"paper_id": paper_id})


@pytest.mark.parametrize(
    "pasted, canonical",
    [
        ("math.GT/0309136", "math/0309136"),
        ("MATH.gt/0309136", "math/0309136"),
        ("cs.LO/0112017", "cs/0112017"),
        ("cond-mat.str-el/0101001", "cond-mat/0101001"),
        ("https://arxiv.org/abs/math.GT/0309136", "math/0309136"),
    ],
)
async def test_an_old_style_id_with_a_subject_class_names_the_archive_id(corpus, connect, pasted, canonical):
    async with connect() as client:
        r = await get(client, pasted)
        again = await get(client, canonical)
        cached = await client.call_tool("list_cached", {})
    assert not r.is_error, r.content[0].text
    s = r.structured_content
    assert s["id"] == canonical and again.structured_content["id"] == canonical
    assert s["abs_url"].endswith(f"/abs/{canonical}v{s['version']}")
    assert s["arxiv_doi"] == f"10.48550/arXiv.{canonical}"
    assert [p["paper_id"] for p in cached.structured_content["papers"]] == [canonical]
    sent = [q.query["id_list"] for q in corpus.requests_to("/api/query")]
    assert sent == [canonical]  # one request: both spellings share one cache entry


@pytest.mark.parametrize(
    "pasted",
    [
        "  arXiv:2401.12345\n",
        "arXiv:2401.12345 [cs.LG]",
        "arXiv:2401.12345 [cs.LG].",
        "arXiv preprint arXiv:2401.12345,",
        "arXiv 2401.12345",
        "(arXiv:2401.12345 [cs.LG]);",
        '"2401.12345"',
        "\u201c2401.12345\u201d",
        "[2401.12345]",
        "https://arxiv.org/abs/2401.12345).",
        "HTTPS://ARXIV.ORG/ABS/2401.12345",
        "<https://arxiv.org/pdf/2401.12345.pdf>,",
        "\uff12\uff14\uff10\uff11.\uff11\uff12\uff13\uff14\uff15",
    ],
)
async def test_ids_as_pasted_are_found(corpus, connect, pasted):
    async with connect() as client:
        r = await get(client, pasted)
    assert not r.is_error, r.content[0].text
    assert (r.structured_content["id"], r.structured_content["version"]) == ("2401.12345", 2)
    assert [q.query["id_list"] for q in corpus.requests_to("/api/query")] == ["2401.12345"]


@pytest.mark.parametrize(
    "impossible, why",
    [
        ("\u0662\u0664\u0660\u0661.\u0661\u0662\u0663\u0664\u0665", "U+0662"),
        ("2401.\u0967\u0968\u0969\u096a\u096b", "U+0967"),
        ("2413.12345", "month 13"),
        ("2400.12345", "month 00"),
        ("hep-th/9913001", "month 13"),
        ("2401.12345v0", "v1"),
        ("hep-th/9901001v0", "v1"),
    ],
)
async def test_ids_that_cannot_exist_are_refused_without_a_request(corpus, connect, impossible, why):
    async with connect() as client:
        r = await get(client, impossible)
        s = await client.call_tool("search_papers", {"id_list": [impossible]})
    assert r.is_error and why in r.content[0].text
    assert s.is_error and why in s.content[0].text
    assert corpus.requests == []


async def test_a_versioned_old_style_id_gets_that_versions_metadata(corpus, connect):
    """idlist_hep-ex_0406020v1_*: the current API answers a versioned old-style id with that
    version's entry, so v1 is asked for and described by its own date."""
    first = corpus.papers["cond-mat/0101001"]
    async with connect() as client:
        v1 = await get(client, "cond-mat/0101001v1")
        latest = await get(client, "cond-mat/0101001")
    assert (v1.structured_content["id"], v1.structured_content["version"]) == ("cond-mat/0101001", 1)
    assert v1.structured_content["updated"] == first.version_date(1).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert latest.structured_content["version"] == 3
    assert latest.structured_content["updated"] == "2001-06-05T12:00:00Z"
    assert v1.structured_content["updated"] != latest.structured_content["updated"]
    # one request: the version and the latest together, each answered by its own entry
    assert [q.query["id_list"] for q in corpus.requests_to("/api/query")] == ["cond-mat/0101001v1,cond-mat/0101001"]


async def test_a_missing_version_of_an_old_style_id_is_not_found(corpus, connect):
    async with connect() as client:
        r = await get(client, "math/0309136v4")
    assert r.is_error and "math/0309136v4" in r.content[0].text
