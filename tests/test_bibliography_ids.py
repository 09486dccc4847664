"""get_references on 1706.03762's own bibliography (its ar5iv page, and its .bbl in a LaTeX
source): every stated id form carries its id, an entry stating none says so (never "not on
arXiv"), resolve=true finds the arXiv papers of the others, and years are publication years."""

from __future__ import annotations

import gzip
from dataclasses import replace
from pathlib import Path

import pytest

from arxiv_mcp.text.bibids import arxiv_id_in, publication_year
from tests.fake_arxiv import FakeArxiv, eprint
from tests.reference_papers import reference_papers

pytestmark = pytest.mark.anyio
FIXTURES = Path(__file__).parent / "fixtures"
CORR = {2: "1409.0473", 3: "1703.03906", 5: "1406.1078", 7: "1412.3555", 36: "1512.00567", 39: "1606.04199"}
"""The six entries 1706.03762 cites as `CoRR, abs/...`."""
BY_TITLE = {
    8: "1602.07776",
    11: "1512.03385",
    16: "1610.08613",
    17: "1511.08228",
    19: "1702.00887",
    20: "1412.6980",
    27: "1606.01933",
    34: "1503.08895",
    35: "1409.3215",
    37: "1412.7449",
    38: "1609.08144",
}
"""Entries stating no id whose paper is on arXiv (and in the fake)."""


def _latex_source() -> bytes:
    tex = (
        b"\\documentclass{article}\\title{Attention Is All You Need}\\begin{document}\\maketitle\n"
        b"\\section{Introduction}Recurrent models \\cite{ref2} and attention.\n"
        b"\\bibliographystyle{plain}\\bibliography{ms}\\end{document}\n"
    )
    files = {"ms.tex": tex, "ms.bbl": (FIXTURES / "src" / "1706.03762_RECONSTRUCTED.bbl").read_bytes()}
    return eprint(files)


def _corpus(form: str):
    papers = reference_papers()
    attention = next(p for p in papers if p.id == "1706.03762")
    if form == "html":
        page = gzip.decompress(
            (FIXTURES / "html" / "ar5iv_1706.03762_TRANSCRIBED_invisible-chars-lost.html.gz").read_bytes()
        )
        attention = replace(attention, ar5iv=page.decode("utf-8"))
    else:
        attention = replace(attention, source=_latex_source())
    return [p for p in papers if p.id != "1706.03762"] + [attention]


@pytest.fixture(params=["html", "latex"])
def attention(request, tmp_path):
    from arxiv_mcp.config import load

    with FakeArxiv(_corpus(request.param)) as fake:
        yield load({**fake.env(), "ARXIV_MCP_HOME": str(tmp_path / "home")}), fake


async def test_every_corr_entry_carries_its_id_and_none_is_called_not_on_arxiv(connect, attention):
    config, _ = attention
    async with connect(config) as client:
        read = await client.call_tool("read_paper", {"paper_id": "1706.03762", "section": "outline"})
        assert not read.is_error, read.content[0].text
        result = await client.call_tool("get_references", {"paper_id": "1706.03762", "limit": 40})
    entries = result.structured_content["neighbours"]
    assert result.structured_content["direction"] == "bibliography" and len(entries) == 40
    for number, pid in CORR.items():
        assert entries[number - 1]["arxiv_id"] == pid, entries[number - 1]["title"]
    text = result.content[0].text
    assert "not on arXiv" not in text and text.count("no arXiv id stated") == sum(
        1 for e in entries if not e["arxiv_id"]
    )


async def test_resolve_finds_the_arxiv_papers_of_entries_stating_no_id(connect, attention):
    config, fake = attention
    async with connect(config) as client:
        args = {"paper_id": "1706.03762", "limit": 40, "resolve": True, "max_lookups": 40}
        result = await client.call_tool("get_references", args)
        assert not result.is_error, result.content[0].text
        entries = result.structured_content["neighbours"]
        for number, pid in BY_TITLE.items():
            assert entries[number - 1]["arxiv_id"] == pid, entries[number - 1]
            assert entries[number - 1]["verdict"] in ("exact", "likely")
        assert all(e["verdict"] != "mismatch" for e in entries)
        assert entries[12]["arxiv_id"] is None and entries[12]["verdict"] == "not_found"  # LSTM, 1997
        fake.clear_log()
        again = await client.call_tool("get_references", args)
    assert again.structured_content == result.structured_content and fake.requests_to("/api") == []


async def test_max_lookups_bounds_the_searches(connect, attention):
    config, fake = attention
    async with connect(config) as client:
        await client.call_tool("read_paper", {"paper_id": "1706.03762", "section": "outline"})
        fake.clear_log()
        args = {"paper_id": "1706.03762", "limit": 40, "resolve": True, "max_lookups": 3}
        result = await client.call_tool("get_references", args)
    searches = [r for r in fake.requests_to("/api") if "search_query" in r.query]
    assert len(searches) == 3
    assert any(e["verdict"] == "not_checked" for e in result.structured_content["neighbours"])


@pytest.mark.parametrize(
    ("entry", "pid"),
    [
        ("D. Bahdanau. Neural machine translation. CoRR, abs/1409.0473, 2014.", "1409.0473"),
        ("D. Bahdanau. Neural machine translation. CoRR abs/1409.0473", "1409.0473"),
        ("J. Ba. Layer normalization. arXiv preprint arXiv:1607.06450, 2016.", "1607.06450"),
        ("E. Witten. Anti de Sitter space. arXiv:hep-th/9802150.", "hep-th/9802150"),
        ("A. Author. A title. arXiv e-prints, 1706.03762, 2017.", "1706.03762"),
    ],
)
def test_every_stated_form_of_an_id_is_read(entry, pid):
    assert arxiv_id_in(entry) == pid


@pytest.mark.parametrize(
    ("entry", "year"),
    [
        ("A. B. A title. Journal 12, 2020, 1957-1978.", 2020),
        ("A. B. A title. Journal 12:1957--1978, 2020.", 2020),
        ("Smith, J. (2018). A title. Journal, 1957\u20131978.", 2018),
        ("A. B. A title. arXiv:2001.01234, 2019.", 2019),
    ],
)
def test_an_entry_year_is_its_publication_year_never_a_page(entry, year):
    assert publication_year(entry) == year
