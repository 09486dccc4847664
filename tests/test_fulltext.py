"""read_paper, find_in_paper and download_paper against the fake: requests, order, paging."""

from __future__ import annotations

import pytest

from arxiv_mcp.bounds import MAX_HITS, PAGE_SIZE
from arxiv_mcp.errors import InvalidInput
from arxiv_mcp.ids import PaperId
from tests.conftest import html_paper, in_threads, paper
from tests.fake_arxiv import STUB, eprint
from tests.pdfgen import make_pdf

pytestmark = pytest.mark.anyio

LATEX = r"""\documentclass{article}
\title{Knots from the source}
\begin{document}
\maketitle
\begin{abstract}We read papers from their LaTeX.\end{abstract}
\section{Introduction}
Knot invariants $K(x)$ are studied here. The zebra lemma holds.
\section{Proofs}
\begin{equation} a^2 + b^2 = c^2 \end{equation}
\end{document}
"""


def text_of(result):
    assert not result.is_error, result.content[0].text
    return result.structured_content


def upstream(fake):
    return [r.path for r in fake.requests if not r.path.startswith("/s2/")]


async def test_html_paper_costs_one_request(fake, connect):
    fake.add(html_paper("2403.00003", "Attention for graphs"))
    async with connect() as client:
        r = text_of(await client.call_tool("read_paper", {"paper_id": "2403.00003"}))
        assert upstream(fake) == ["/html/2403.00003"]
        assert r["method"] == "html" and r["version"] == 1
        assert r["text"].startswith("# Attention for graphs")
        again = text_of(await client.call_tool("read_paper", {"paper_id": "2403.00003", "page": 1}))
        assert again["cached"] and upstream(fake) == ["/html/2403.00003"]


async def test_read_after_get_paper_costs_one_more_request(fake, connect):
    fake.add(html_paper("2403.00003", "Attention for graphs"))
    async with connect() as client:
        await client.call_tool("get_paper", {"paper_id": "2403.00003"})
        text_of(await client.call_tool("read_paper", {"paper_id": "2403.00003"}))
    assert upstream(fake) == ["/api/query", "/html/2403.00003v1"]


async def test_stub_html_falls_through_to_source(fake, connect):
    fake.add(paper("2403.00004", "Knots", html=STUB, source=eprint({"main.tex": LATEX})))
    async with connect() as client:
        r = text_of(await client.call_tool("read_paper", {"paper_id": "2403.00004v1"}))
        assert r["method"] == "source" and "zebra lemma" in r["text"]
        assert upstream(fake) == ["/html/2403.00004v1", "/e-print/2403.00004v1"]
        fake.clear_log()
        r = text_of(await client.call_tool("read_paper", {"paper_id": "2403.00004v1", "page": 1}))
        assert r["cached"] and upstream(fake) == []


async def test_pdf_only_submission_reads_the_eprint_as_pdf(fake, connect):
    pdf = make_pdf(["Only a PDF was submitted. The walrus theorem.", "Second page text here."])
    fake.add(paper("2403.00005", "PDF only", source=pdf))
    async with connect() as client:
        r = text_of(await client.call_tool("read_paper", {"paper_id": "2403.00005v1"}))
        assert r["method"] == "pdf" and "walrus theorem" in r["text"]
        d = text_of(await client.call_tool("download_paper", {"paper_id": "2403.00005v1", "fmt": "pdf"}))
    assert d["cached"] is True and d["content_type"] == "application/pdf"
    assert upstream(fake) == ["/html/2403.00005v1", "/e-print/2403.00005v1"]


async def test_old_paper_prefers_ar5iv_and_remembers_misses_across_versions(fake, connect):
    old = paper("hep-th/9901001", "Strings", year=1999, month=1, versions=2, source=eprint({"main.tex": LATEX}))
    fake.add(old)
    async with connect() as client:
        await client.call_tool("get_paper", {"paper_id": "hep-th/9901001"})
        fake.clear_log()
        r = text_of(await client.call_tool("read_paper", {"paper_id": "hep-th/9901001"}))
        assert r["version"] == 2 and r["method"] == "source"
        assert upstream(fake) == ["/ar5iv/html/hep-th/9901001v2", "/e-print/hep-th/9901001v2"]
        fake.clear_log()
        old.source = None  # v1 has no source: the next source is tried, known misses are not
        r = await client.call_tool("read_paper", {"paper_id": "hep-th/9901001v1"})
        paths = upstream(fake)
    assert "/ar5iv/html/hep-th/9901001v1" not in paths  # ar5iv renders only the latest version
    assert paths[0] == "/e-print/hep-th/9901001v1"
    assert r.structured_content.get("method") == "pdf" or r.is_error


async def test_second_version_skips_html_known_missing_before_html_era(fake, connect):
    fake.add(paper("1901.00001", "Old paper", year=2019, month=1, versions=2, source=None, html=None))
    async with connect() as client:
        await client.call_tool("get_paper", {"paper_id": "1901.00001"})
        text_of(await client.call_tool("read_paper", {"paper_id": "1901.00001v2"}))
        first = upstream(fake)
        fake.clear_log()
        text_of(await client.call_tool("read_paper", {"paper_id": "1901.00001v1"}))
        second = upstream(fake)
    assert "/html/1901.00001v2" in first
    assert "/html/1901.00001v1" not in second and second[-1] == "/pdf/1901.00001v1"


async def test_versions_never_mix(fake, connect):
    p = html_paper("2404.00006", "Versioned", versions=2)
    p.html = {
        1: p.html.replace("Transformers changed", "VERSION ONE TEXT"),
        2: p.html.replace("Transformers changed", "VERSION TWO TEXT"),
    }
    fake.add(p)
    async with connect() as client:
        v2 = text_of(await client.call_tool("read_paper", {"paper_id": "2404.00006v2"}))
        v1 = text_of(await client.call_tool("read_paper", {"paper_id": "2404.00006v1"}))
        bad = await client.call_tool("read_paper", {"paper_id": "2404.00006v7"})
    assert "VERSION TWO TEXT" in v2["text"] and "VERSION ONE" not in v2["text"]
    assert "VERSION ONE TEXT" in v1["text"] and "VERSION TWO" not in v1["text"]
    assert bad.is_error and "v2" in bad.content[0].text


async def test_ten_concurrent_reads_fetch_once(fake, make_config):
    from arxiv_mcp.service import ArxivService

    fake.add(html_paper("2403.00007", "Concurrency"))
    svc = ArxivService(make_config())
    svc.get_paper("2403.00007")
    fake.clear_log()
    results = in_threads(lambda _: svc.read_paper("2403.00007").total_chars)
    assert len(set(results)) == 1 and len(results) == 10
    assert upstream(fake) == ["/html/2403.00007v1"]


async def test_paging_covers_the_text_exactly(fake, connect):
    fake.add(html_paper("2403.00008", "Paging"))
    async with connect() as client:
        first = text_of(await client.call_tool("read_paper", {"paper_id": "2403.00008", "page_size": 1000}))
        pages = [first["text"]]
        for n in range(2, first["total_pages"] + 1):
            pages.append(
                text_of(await client.call_tool("read_paper", {"paper_id": "2403.00008", "page": n, "page_size": 1000}))[
                    "text"
                ]
            )
        past = await client.call_tool(
            "read_paper", {"paper_id": "2403.00008", "page": first["total_pages"] + 1, "page_size": 1000}
        )
        tiny = await client.call_tool("read_paper", {"paper_id": "2403.00008", "page_size": 10})
    whole = "".join(pages)
    assert len(whole) == first["total_chars"] and first["total_pages"] > 2
    assert past.is_error and str(first["total_pages"]) in past.content[0].text
    assert tiny.is_error and "1000" in tiny.content[0].text


async def test_page_fields_and_has_more(fake, service):
    fake.add(html_paper("2403.00008", "Paging"))
    first = service.read_paper("2403.00008", page_size=1000)
    total = first.total_pages
    middle = service.read_paper("2403.00008", page=2, page_size=1000)
    last = service.read_paper("2403.00008", page=total, page_size=1000)
    assert total > 2 and first.has_more is True
    assert (middle.page, middle.total_pages, middle.total_chars, middle.has_more) == (2, total, first.total_chars, True)
    assert (last.page, last.total_pages, last.has_more) == (total, total, False)
    whole = service.read_paper("2403.00008", page_size=100_000)
    assert (whole.total_pages, whole.has_more, len(whole.text)) == (1, False, first.total_chars)


@pytest.mark.parametrize("page_size", [0, PAGE_SIZE.low - 1, PAGE_SIZE.high + 1, True, 1500.0])
async def test_page_size_out_of_range_gives_the_range_before_any_request(fake, service, page_size):
    fake.add(html_paper("2403.00008", "Paging"))
    for call in (
        lambda: service.read_paper("2403.00008", page_size=page_size),
        lambda: service.find_in_paper("2403.00008", "loss", page_size=page_size),
    ):
        with pytest.raises(InvalidInput, match=f"page_size must be .* from {PAGE_SIZE.low} to {PAGE_SIZE.high}"):
            call()
    assert fake.requests == []


@pytest.mark.parametrize("page", [0, -1, True, 1.0])
async def test_page_below_one_is_refused_before_any_request(fake, service, page):
    fake.add(html_paper("2403.00008", "Paging"))
    with pytest.raises(InvalidInput, match="page must be a whole number of 1 or more"):
        service.read_paper("2403.00008", page=page)
    assert fake.requests == []


@pytest.mark.parametrize("max_hits", [0, MAX_HITS.high + 1, -3])
async def test_max_hits_out_of_range_is_refused_before_any_request(fake, service, max_hits):
    fake.add(html_paper("2403.00008", "Paging"))
    with pytest.raises(InvalidInput, match=f"max_hits must be .* from 1 to {MAX_HITS.high}"):
        service.find_in_paper("2403.00008", "loss", max_hits=max_hits)
    assert fake.requests == []


async def test_page_size_and_max_hits_bounds_are_inclusive(fake, service):
    fake.add(html_paper("2403.00008", "Paging"))
    for page_size in (PAGE_SIZE.low, PAGE_SIZE.high):
        assert len(service.read_paper("2403.00008", page_size=page_size).text) <= page_size
        assert service.find_in_paper("2403.00008", "loss", page_size=page_size).total_matches >= 1
    for max_hits in (MAX_HITS.low, MAX_HITS.high):
        assert 1 <= len(service.find_in_paper("2403.00008", "Transformers", max_hits=max_hits).hits) <= max_hits


async def test_outline_and_sections(fake, connect):
    fake.add(html_paper("2403.00009", "Sections"))
    async with connect() as client:
        outline = text_of(await client.call_tool("read_paper", {"paper_id": "2403.00009", "section": "outline"}))
        method = text_of(await client.call_tool("read_paper", {"paper_id": "2403.00009", "section": "method"}))
        missing = await client.call_tool("read_paper", {"paper_id": "2403.00009", "section": "nonexistent"})
    assert "Introduction" in outline["text"] and "Results" in outline["text"]
    assert "$L = \\sum_i x_i$" in method["text"] and "unicorn" not in method["text"]
    assert missing.is_error and "outline" in missing.content[0].text


async def test_find_in_paper_points_at_the_page(fake, connect):
    fake.add(html_paper("2403.00010", "Finding"))
    async with connect() as client:
        found = text_of(
            await client.call_tool("find_in_paper", {"paper_id": "2403.00010", "query": '"unicorn dataset"'})
        )
        hit = found["hits"][0]
        page = text_of(await client.call_tool("read_paper", {"paper_id": "2403.00010", "page": hit["page"]}))
    assert found["total_matches"] >= 1 and hit["section"] and "Results" in hit["section"]
    assert "unicorn dataset" in page["text"]


async def test_untrusted_notice_and_download_source(fake, connect):
    fake.add(paper("2403.00011", "Sourced", source=eprint({"main.tex": LATEX})))
    async with connect() as client:
        d = text_of(await client.call_tool("download_paper", {"paper_id": "2403.00011", "fmt": "source"}))
        r = text_of(await client.call_tool("read_paper", {"paper_id": "2403.00011"}))
        bad = await client.call_tool("download_paper", {"paper_id": "2403.00011", "fmt": "docx"})
    assert d["bytes"] > 0 and d["content_type"] == "application/gzip" and d["path"].endswith((".gz", ".tar.gz", ""))
    assert "Untrusted" in r["notice"]
    assert bad.is_error and "pdf" in bad.content[0].text


async def test_better_extractor_remakes_cached_text_without_a_request(fake, make_config, monkeypatch):
    from arxiv_mcp import reading as fulltext
    from arxiv_mcp.service import ArxivService

    fake.add(html_paper("2403.00012", "Re-extraction"))
    svc = ArxivService(make_config())
    svc.read_paper("2403.00012v1")
    fake.clear_log()
    monkeypatch.setattr(fulltext, "EXTRACTOR_VERSION", fulltext.EXTRACTOR_VERSION + 1)
    again = svc.read_paper("2403.00012v1")
    assert again.cached and again.method == again.source_method == "html" and "Transformers" in again.text
    assert fake.requests == []
    assert svc.cache.get_text(PaperId("2403.00012", 1)).extractor_version == fulltext.EXTRACTOR_VERSION


async def test_an_unreadable_html_page_is_looked_at_again_a_week_later(fake, make_config, monkeypatch):
    from arxiv_mcp import reading as fulltext
    from arxiv_mcp.ids import PaperId
    from arxiv_mcp.service import ArxivService

    fake.add(paper("2403.00013", "Stubbed", html=STUB, source=eprint({"main.tex": LATEX})))
    svc = ArxivService(make_config())
    svc.read_paper("2403.00013v1")
    pid = PaperId("2403.00013", 1)
    assert svc.reader.order(pid, None) == ["source", "pdf"]
    later = fulltext.time.time() + fulltext.UNREADABLE_RECHECK_S + 60
    monkeypatch.setattr(fulltext.time, "time", lambda: later)
    assert svc.reader.order(pid, None) == ["html", "source", "pdf"]
