"""export_bibtex, references/citations and category_trends through the MCP client."""

from __future__ import annotations

from datetime import UTC

import bibtexparser
import pytest

from tests.conftest import paper

pytestmark = pytest.mark.anyio


async def test_export_bibtex_one_request_and_missing(fake, connect):
    fake.add(paper("2401.00001", "Sparse attention & 100% recall", doi="10.1/x", journal_ref="J. X 1 (2024)"))
    fake.add(paper("hep-th/9901001", "Strings on $AdS_5$", year=1999, month=1, versions=2))
    async with connect() as client:
        r = await client.call_tool(
            "export_bibtex", {"paper_ids": ["2401.00001", "hep-th/9901001v1", "arXiv:2401.00001", "2501.99999"]}
        )
        api_calls = len(fake.requests_to("/api/query"))
        again = await client.call_tool("export_bibtex", {"paper_ids": ["2401.00001", "hep-th/9901001v1"]})
    s = r.structured_content
    assert api_calls == 1 and len(fake.requests_to("/api/query")) == 1  # the second call is free
    assert s["missing_ids"] == ["2501.99999"] and s["count"] == 2 and not again.is_error
    lib = bibtexparser.parse_string(s["bibtex"])
    assert not lib.failed_blocks
    keys = [e.key for e in lib.entries]
    assert keys == ["arxiv:2401.00001", "arxiv:hep-th/9901001"]
    first = lib.entries[0].fields_dict
    assert first["eprint"].value == "2401.00001" and first["doi"].value == "10.1/x"
    assert first["archivePrefix"].value == "arXiv" and "J. X 1 (2024)" in first["note"].value


async def test_references_citations_and_errors(fake, connect):
    refs = [
        {"title": "Old idea", "year": 2019, "authors": ["A. B"], "arxiv": "1901.00001"},
        {"title": "Book", "year": 2001, "authors": ["C. D"], "arxiv": None},
    ]
    fake.add(paper("2401.00001", "Cited", references=refs * 3, citations=[]))
    fake.add(paper("2401.00002", "Not in S2"))
    async with connect() as client:
        r = await client.call_tool("get_references", {"paper_id": "2401.00001", "limit": 2})
        c = await client.call_tool("get_citations", {"paper_id": "2401.00001"})
        missing = await client.call_tool("get_references", {"paper_id": "2401.00002"})
        fake.fault("/s2/", "status", status=429, times=5)
        throttled = await client.call_tool("get_citations", {"paper_id": "2401.00001", "limit": 3})
    s = r.structured_content
    assert [n["title"] for n in s["neighbours"]] == ["Old idea", "Book"] and s["has_more"] is True
    assert s["neighbours"][0]["arxiv_id"] == "1901.00001" and s["neighbours"][1]["arxiv_id"] is None
    assert c.structured_content["neighbours"] == [] and c.structured_content["has_more"] is False
    assert missing.is_error and "Semantic Scholar" in missing.content[0].text
    assert throttled.is_error and "retry" in throttled.content[0].text.lower()


async def test_category_trends_counts(fake, connect):
    from datetime import datetime, timedelta

    today = datetime.now(UTC).replace(hour=12, minute=0, second=0, microsecond=0)
    for i, days_ago in enumerate([0, 1, 1, 3, 40]):
        p = paper(f"2401.{i:05d}", f"Graph transformers {i}", categories=["cs.LG"])
        p.published = today - timedelta(days=days_ago)
        fake.add(p)
    async with connect() as client:
        r = await client.call_tool("category_trends", {"category": "cs.LG", "window_days": 7})
        asked = len(fake.requests_to("/api/query"))
        again = await client.call_tool("category_trends", {"category": "cs.LG", "window_days": 7})
    s = r.structured_content
    assert again.structured_content == s and len(fake.requests_to("/api/query")) == asked, "the stored answer"
    assert s["papers_seen"] == 4 and s["capped"] is False and len(s["per_day"]) == 7
    assert sum(d["count"] for d in s["per_day"]) == 4
    assert s["per_day"][-1]["count"] == 1 and s["per_day"][-2]["count"] == 2
    assert {"graph", "transformers"} <= {t["term"] for t in s["top_terms"]}
