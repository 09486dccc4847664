"""Self-tests of the fake arXiv: if it lies about arXiv, every other test lies with it."""

from __future__ import annotations

import email.utils
import gzip
import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from pathlib import Path

import pypdf
import pytest
import requests

from tests import platforms
from tests.fake_arxiv import (
    HUGE_BODY_BYTES,
    NO_PDF,
    STUB,
    FakeArxiv,
    FakePaper,
    latexml_html,
    make_corpus,
)
from tests.pdfgen import make_pdf, make_pdf_without_text

FIXTURES = Path(__file__).parent / "fixtures" / "fake_arxiv"
ATOM = "{http://www.w3.org/2005/Atom}"
OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"
ARXIV = "{http://arxiv.org/schemas/atom}"
UTC = UTC


def _dt(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


def _hand_papers() -> list[FakePaper]:
    return [
        FakePaper(
            id="2401.00001",
            title="Quantum criticality in spin chains",
            abstract="We study the quantum critical point of Heisenberg chains.",
            authors=["Adrian Del Maestro", "Bob Smith"],
            categories=["cond-mat.str-el", "quant-ph"],
            published=_dt(2024, 1, 5),
            html="<html><body><article class='ltx_document'>v-any</article></body></html>",
            source=gzip.compress(b"\\documentclass{article}"),
            references=[
                {
                    "title": f"Reference {k}",
                    "year": 2000 + k,
                    "authors": ["R. Author"],
                    "arxiv": "2402.00003" if k == 0 else None,
                }
                for k in range(5)
            ],
            citations=[{"title": "A citing paper", "year": 2025, "authors": ["C. Iter"], "arxiv": "2501.09999"}],
        ),
        FakePaper(
            id="2401.00002",
            title="Neural networks for language",
            abstract="Transformers and attention for natural language processing.",
            authors=[("Alice Wübben", "MIT")],
            categories=["cs.CL", "cs.LG"],
            published=_dt(2024, 1, 10),
            versions=3,
            comment="10 pages",
            journal_ref="J. Mach. Learn. 1 (2024)",
            html={1: "<p>first html</p>", 3: "<p>third html</p>"},
            source=b"plain tar bytes" + bytes(500),
            citations=[],
        ),
        FakePaper(
            id="2402.00003",
            title="Criticality of random graphs",
            abstract="Percolation on random graphs near criticality, quantum analogues.",
            authors=["Carol Jones"],
            categories=["math.PR"],
            published=_dt(2024, 2, 1),
            doi="10.1000/xyz.123",
            html=STUB,
            pdf=NO_PDF,
        ),
        FakePaper(
            id="hep-th/9901001",
            title="Strings and branes",
            abstract="  A review of string theory with branes.",
            authors=["Edward Witten"],
            categories=["hep-th"],
            published=_dt(1999, 1, 4, 12, 30),
            ar5iv="<html><body>ar5iv body</body></html>",
            source=make_pdf(["pdf only submission"]),
        ),
        FakePaper(
            id="math/0309136",
            title="Knot invariants of hyperbolic manifolds",
            abstract="Invariants of knots from hyperbolic geometry.",
            authors=["Dana Thurston"],
            categories=["math.GT"],
            published=_dt(2003, 9, 10),
            versions=2,
            updated=_dt(2004, 3, 1),
        ),
    ]


@pytest.fixture(scope="module")
def fake():
    with FakeArxiv(_hand_papers()) as server:
        yield server


@pytest.fixture(autouse=True)
def _fresh(request):
    yield
    if "fake" in request.fixturenames:
        server = request.getfixturevalue("fake")
        server.clear_faults()
        server.clear_log()


def _feed(fake: FakeArxiv, **params: object) -> ET.Element:
    response = requests.get(fake.api_url, params=params, timeout=5)
    assert response.status_code == 200, response.text
    return ET.fromstring(response.content)


def _ids(feed: ET.Element) -> list[str]:
    return [e.findtext(f"{ATOM}id").split("/abs/", 1)[1] for e in feed.iter(f"{ATOM}entry")]


def _hits(fake: FakeArxiv, query: str, **params: object) -> set[str]:
    return {i.rsplit("v", 1)[0] for i in _ids(_feed(fake, search_query=query, max_results=100, **params))}


def _error_summary(response: requests.Response) -> str:
    assert response.status_code == 400
    entry = ET.fromstring(response.content).find(f"{ATOM}entry")
    assert entry.findtext(f"{ATOM}title") == "Error"
    return entry.findtext(f"{ATOM}summary")


# ---- query language ------------------------------------------------------------------------


def test_binary_operators_group_to_the_right(fake):
    assert _hits(fake, "ti:quantum AND ti:criticality OR ti:graphs") == {"2401.00001"}
    assert _hits(fake, "ti:graphs OR ti:quantum AND ti:spin") == {"2402.00003", "2401.00001"}
    assert _hits(fake, "(ti:graphs OR ti:quantum) AND ti:spin") == {"2401.00001"}


def test_juxtaposed_terms_are_ored(fake):
    assert _hits(fake, "ti:neural ti:strings") == {"2401.00002", "hep-th/9901001"}
    assert _hits(fake, "neural strings") == {"2401.00002", "hep-th/9901001"}


def test_andnot_excludes_the_right_side(fake):
    assert _hits(fake, "abs:quantum ANDNOT ti:quantum") == {"2402.00003"}
    assert _hits(fake, "all:criticality ANDNOT (au:smith OR cat:cs.*)") == {"2402.00003"}


def test_quoted_phrase_matches_a_word_sequence_and_keeps_stopwords(fake):
    assert _hits(fake, 'ti:"quantum criticality"') == {"2401.00001"}
    assert _hits(fake, 'abs:"quantum criticality"') == set()
    assert _hits(fake, 'ti:"criticality of random"') == {"2402.00003"}


def test_unquoted_stopword_matches_nothing_and_empties_an_and(fake):
    assert _hits(fake, "ti:of") == set()
    assert _hits(fake, "ti:criticality AND ti:of") == set()
    assert _hits(fake, "all:the") == set()
    assert _hits(fake, "ti:criticality OR ti:of") == {"2401.00001", "2402.00003"}


def test_date_ranges_are_inclusive_on_published_and_latest_update(fake):
    assert _hits(fake, "submittedDate:[202401050000 TO 202401100000]") == {"2401.00001", "2401.00002"}
    assert _hits(fake, "submittedDate:[202401050001 TO 202401092359]") == set()
    assert _hits(fake, "lastUpdatedDate:[202401120000 TO 202401122359]") == {"2401.00002"}
    assert _hits(fake, "cat:hep-th AND submittedDate:[199901010000 TO 199912312359]") == {"hep-th/9901001"}


def test_author_matching(fake):
    assert _hits(fake, "au:del_maestro") == {"2401.00001"}
    assert _hits(fake, 'au:"Del Maestro"') == {"2401.00001"}
    assert _hits(fake, "au:wubben") == {"2401.00002"}
    assert _hits(fake, "au:smith_b") == {"2401.00001"}
    assert _hits(fake, "au:maestro_bob") == set()


def test_category_id_comment_and_journal_fields(fake):
    assert _hits(fake, "cat:cs.*") == {"2401.00002"}
    assert _hits(fake, "cat:quant-ph") == {"2401.00001"}
    assert _hits(fake, "cat:math") == {"2402.00003", "math/0309136"}
    assert _hits(fake, "id:2401.00002") == {"2401.00002"}
    assert _hits(fake, "co:pages AND jr:learn") == {"2401.00002"}


def test_relevance_then_date_ordering(fake):
    assert _ids(_feed(fake, search_query="all:quantum"))[0] == "2401.00001v1"
    ascending = _ids(_feed(fake, search_query="cat:*", sortBy="submittedDate", sortOrder="ascending"))
    assert ascending[0] == "hep-th/9901001v1" and ascending[-1] == "2402.00003v1"
    by_update = _ids(_feed(fake, search_query="cat:*", sortBy="lastUpdatedDate", sortOrder="descending"))
    assert by_update[0] == "2402.00003v1"


@pytest.mark.parametrize(
    "query",
    [
        "ti:(quantum",
        "AND ti:quantum",
        "ti:quantum AND",
        "foo:bar",
        "submittedDate:[2024 TO 2025]",
        'ti:"open',
        "ti:a )",
    ],
)
def test_unparseable_query_gets_error_feed(fake, query):
    response = requests.get(fake.api_url, params={"search_query": query}, timeout=5)
    assert "search_query" in _error_summary(response)


# ---- id_list -------------------------------------------------------------------------------


def test_id_list_comes_back_in_a_different_order(fake):
    requested = ["2401.00001", "2401.00002", "2402.00003", "hep-th/9901001"]
    got = [i.rsplit("v", 1)[0] for i in _ids(_feed(fake, id_list=",".join(requested)))]
    assert sorted(got) == sorted(requested) and got != requested
    pair = [i.rsplit("v", 1)[0] for i in _ids(_feed(fake, id_list="2401.00001,2401.00002"))]
    assert pair == ["2401.00002", "2401.00001"]


def test_id_list_versions(fake):
    feed = _feed(fake, id_list="2401.00002v2")
    entry = feed.find(f"{ATOM}entry")
    assert entry.findtext(f"{ATOM}id") == "http://arxiv.org/abs/2401.00002v2"
    assert entry.findtext(f"{ATOM}updated") == "2024-01-11T00:00:00Z"
    assert entry.findtext(f"{ATOM}published") == "2024-01-10T00:00:00Z"
    latest = _feed(fake, id_list="2401.00002").find(f"{ATOM}entry")
    assert latest.findtext(f"{ATOM}id").endswith("2401.00002v3")
    spread = _feed(fake, id_list="math.GT/0309136").find(f"{ATOM}entry")
    assert spread.findtext(f"{ATOM}id").endswith("/abs/math/0309136v2")  # the class is not part of the id
    assert spread.findtext(f"{ATOM}updated") == "2004-03-01T00:00:00Z"


def test_id_list_unknown_and_out_of_range_versions_have_no_entry(fake):
    feed = _feed(fake, id_list="0000.0000,2401.00002v9,2401.00001")
    assert _ids(feed) == ["2401.00001v1"]
    assert feed.findtext(f"{OPENSEARCH}totalResults") == "1"


@pytest.mark.parametrize("bad", ["abc", "2401.1", "2401.00001v"])
def test_id_list_malformed_is_rejected(fake, bad):
    response = requests.get(fake.api_url, params={"id_list": f"2401.00001,{bad}"}, timeout=5)
    assert _error_summary(response) == f"incorrect id format for {bad}"
    entry = ET.fromstring(response.content).find(f"{ATOM}entry")
    assert entry.findtext(f"{ATOM}id") == f"https://arxiv.org/api/errors#incorrect_id_format_for_{bad}"


def test_versioned_old_style_ids_answer_that_version_like_the_2026_recordings(fake):
    """idlist_hep-ex_0406020v1_* and idlist_quant-ph_0201082v1.xml: the v1 entry, its own date."""
    entry = _feed(fake, id_list="math/0309136v1").find(f"{ATOM}entry")
    assert entry.findtext(f"{ATOM}id") == "http://arxiv.org/abs/math/0309136v1"
    assert entry.findtext(f"{ATOM}updated") == "2003-09-10T00:00:00Z"
    assert _ids(_feed(fake, id_list="cs.LO/0112017v1,math.GT/0309136v1")) == ["math/0309136v1"]


def test_the_legacy_api_rejected_versioned_old_style_ids():
    with FakeArxiv(_hand_papers(), reject_versioned_old_ids=True) as server:
        response = requests.get(server.api_url, params={"id_list": "hep-th/9901001v1"}, timeout=5)
        assert _error_summary(response) == "incorrect id format for hep-th/9901001v1"


def test_a_fake_paper_id_never_carries_a_subject_class():
    with pytest.raises(ValueError, match="subject class"):
        FakeArxiv([FakePaper("math.GT/0309136", "t", "a", ["A"], ["math.GT"], _dt(2003, 9, 10))])


def test_id_list_is_filtered_by_search_query(fake):
    feed = _feed(fake, id_list="2401.00001,2401.00002,2402.00003", search_query="ti:criticality")
    assert sorted(_ids(feed)) == ["2401.00001v1", "2402.00003v1"]


def test_id_list_respects_default_max_results():
    papers = make_corpus(14, seed=3)
    with FakeArxiv(papers) as server:
        feed = _feed(server, id_list=",".join(p.id for p in papers))
        assert len(_ids(feed)) == 10
        assert feed.findtext(f"{OPENSEARCH}totalResults") == "14"


# ---- paging --------------------------------------------------------------------------------


def test_paging_covers_every_match_once():
    with FakeArxiv(make_corpus(60, seed=1)) as server:
        full = _ids(_feed(server, search_query="cat:*", max_results=100))
        assert len(full) == 60
        pages = []
        for start in range(0, 60, 7):
            feed = _feed(server, search_query="cat:*", start=start, max_results=7)
            assert feed.findtext(f"{OPENSEARCH}totalResults") == "60"
            assert feed.findtext(f"{OPENSEARCH}startIndex") == str(start)
            assert feed.findtext(f"{OPENSEARCH}itemsPerPage") == "7"
            pages += _ids(feed)
        assert pages == full


def test_paging_limits(fake):
    response = requests.get(fake.api_url, params={"search_query": "cat:*", "max_results": 2001}, timeout=5)
    assert "2000" in _error_summary(response)
    beyond = _feed(fake, search_query="cat:*", start=29995, max_results=10)
    assert _ids(beyond) == [] and beyond.findtext(f"{OPENSEARCH}totalResults") == "5"
    response = requests.get(fake.api_url, params={"search_query": "cat:*", "start": "x"}, timeout=5)
    assert "start" in _error_summary(response)


# ---- shapes against real responses ---------------------------------------------------------


def _shape(element: ET.Element) -> list[tuple[str, tuple[str, ...]]]:
    """Child tags in order (repeats collapsed) with their attribute names."""
    out: list[tuple[str, tuple[str, ...]]] = []
    for child in element:
        item = (child.tag, tuple(sorted(child.attrib)))
        if not out or out[-1] != item:
            out.append(item)
    return out


def _real(name: str) -> ET.Element:
    return ET.fromstring((FIXTURES / name).read_bytes())


def test_entry_shape_matches_real_fixtures():
    paper = FakePaper(
        id="1804.08351",
        title="SETI with Gaia",
        abstract="A star enshrouded in a Dyson sphere ($\\approx 1\\ M_\\odot$) & more.",
        authors=["Erik Zackrisson", "Andreas J. Korn"],
        categories=["astro-ph.SR", "astro-ph.GA"],
        published=_dt(2018, 4, 23, 11, 49, 47),
        versions=2,
        comment="9 pages",
        doi="10.3847/1538-4357/aac386",
    )
    with FakeArxiv([paper]) as server:
        ours = _feed(server, id_list="1804.08351", max_results=1)
    real = _real("idlist_1804.08351_doi.xml")
    assert _shape(ours) == _shape(real)
    assert _shape(ours.find(f"{ATOM}entry")) == _shape(real.find(f"{ATOM}entry"))
    assert ours.find(f"{ATOM}entry").findtext(f"{ATOM}summary") == paper.abstract


def test_affiliation_and_journal_ref_shape_matches_real_fixture():
    paper = FakePaper(
        id="astro-ph/0601001",
        title="Hot Jupiters",
        abstract="  We derive the frequencies.",
        authors=[("Andrew Gould", "Ohio State"), ("B. Scott Gaudi", "CfA")],
        categories=["astro-ph"],
        published=_dt(2006, 1, 2, 14, 57, 58),
        comment="62 pages",
        journal_ref="ActaAstron.56:1-50,2006",
    )
    with FakeArxiv([paper]) as server:
        ours = _feed(server, id_list="astro-ph/0601001", max_results=100)
    real = _real("idlist_astro-ph_0601001_affiliation_journalref.xml")
    assert _shape(ours.find(f"{ATOM}entry")) == _shape(real.find(f"{ATOM}entry"))
    our_author = ours.find(f"{ATOM}entry").find(f"{ATOM}author")
    assert _shape(our_author) == _shape(real.find(f"{ATOM}entry").find(f"{ATOM}author"))
    assert our_author.findtext(f"{ARXIV}affiliation") == "Ohio State"


def test_error_and_empty_feed_shapes_match_real_fixtures(fake):
    error = ET.fromstring(requests.get(fake.api_url, params={"id_list": "abc"}, timeout=5).content)
    real_error = _real("error_idlist_abc_http400.xml")
    assert _shape(error) == _shape(real_error)
    assert _shape(error.find(f"{ATOM}entry")) == _shape(real_error.find(f"{ATOM}entry"))
    assert error.find(f"{ATOM}entry").findtext(f"{ATOM}id") == real_error.find(f"{ATOM}entry").findtext(f"{ATOM}id")
    empty = _feed(fake, id_list="0000.0000", max_results=100)
    real_empty = _real("empty_idlist_0000.0000.xml")
    assert _shape(empty) == _shape(real_empty)
    assert empty.findtext(f"{ATOM}title") == real_empty.findtext(f"{ATOM}title")


def test_s2_shapes_match_real_fixtures(fake):
    paper = requests.get(f"{fake.s2_url}/paper/arXiv:2401.00001", timeout=5).json()
    real_paper = json.loads((FIXTURES / "paper_arXiv-1207.0697.json").read_text(encoding="utf-8"))
    assert set(paper) <= set(real_paper)
    assert paper["externalIds"]["ArXiv"] == "2401.00001"
    assert set(paper["authors"][0]) == set(real_paper["authors"][0])
    cites = requests.get(f"{fake.s2_url}/paper/arXiv:2401.00001/citations", timeout=5).json()
    real_cites = json.loads((FIXTURES / "citations_arXiv-2501.12977_limit200.json").read_text(encoding="utf-8"))
    assert set(cites) == set(real_cites)
    assert set(cites["data"][0]["citingPaper"]) <= set(real_cites["data"][0]["citingPaper"])
    missing = requests.get(f"{fake.s2_url}/paper/arXiv:hep-th/9901001", timeout=5)
    real_missing = json.loads((FIXTURES / "error_404_paper_not_found.json").read_text(encoding="utf-8"))
    assert missing.status_code == 404 and set(missing.json()) == set(real_missing)


# ---- site ----------------------------------------------------------------------------------


def test_abs_page(fake):
    response = requests.get(f"{fake.site_url}/abs/2401.00002v2", timeout=5)
    assert response.status_code == 200 and "Neural networks for language" in response.text
    assert requests.get(f"{fake.site_url}/abs/2401.00002v4", timeout=5).status_code == 404
    assert requests.get(f"{fake.site_url}/abs/2409.99999", timeout=5).status_code == 404


def test_pdf_downloads_and_reads_back(fake):
    for path in ("/pdf/2401.00001", "/pdf/2401.00001v1", "/pdf/2401.00001v1.pdf", "/pdf/hep-th/9901001v1"):
        response = requests.get(fake.site_url + path, timeout=5)
        assert response.status_code == 200 and response.headers["Content-Type"] == "application/pdf"
    text = (
        pypdf.PdfReader(io.BytesIO(requests.get(f"{fake.site_url}/pdf/2401.00001", timeout=5).content))
        .pages[0]
        .extract_text()
    )
    assert "Quantum criticality in spin chains" in text
    assert requests.get(f"{fake.site_url}/pdf/2401.00001v2", timeout=5).status_code == 404
    assert requests.get(f"{fake.site_url}/pdf/2402.00003", timeout=5).status_code == 404


def test_html_variants(fake):
    def get(path: str) -> requests.Response:
        return requests.get(fake.site_url + path, timeout=5)

    assert "v-any" in get("/html/2401.00001v1").text
    assert get("/html/2401.00002").text == "<p>third html</p>"
    assert get("/html/2401.00002v1").text == "<p>first html</p>"
    assert get("/html/2401.00002v2").status_code == 404
    stub = get("/html/2402.00003")
    assert stub.status_code == 200 and "HTML is not available" in stub.text
    assert get("/html/hep-th/9901001").status_code == 404


def test_eprint_content_types(fake):
    def get(path: str) -> requests.Response:
        return requests.get(fake.site_url + path, timeout=5)

    assert get("/e-print/2401.00001").headers["Content-Type"] == "application/gzip"
    assert get("/e-print/2401.00002v3").headers["Content-Type"] == "application/x-eprint-tar"
    assert get("/e-print/hep-th/9901001").headers["Content-Type"] == "application/pdf"
    assert get("/e-print/2402.00003").status_code == 404


def test_ar5iv_serves_body_or_redirects_to_abs(fake):
    body = requests.get(f"{fake.ar5iv_url}/html/hep-th/9901001", timeout=5)
    assert body.text == "<html><body>ar5iv body</body></html>"
    redirect = requests.get(f"{fake.ar5iv_url}/html/2401.00001", timeout=5, allow_redirects=False)
    assert redirect.status_code == 302 and redirect.headers["Location"] == f"{fake.site_url}/abs/2401.00001"
    followed = requests.get(f"{fake.ar5iv_url}/html/2401.00001", timeout=5)
    assert followed.status_code == 200 and followed.url.endswith("/abs/2401.00001")


# ---- Semantic Scholar ----------------------------------------------------------------------


def test_s2_paging_and_neighbours(fake):
    base = f"{fake.s2_url}/paper/arXiv:2401.00001v1/references"
    first = requests.get(base, params={"limit": 2, "fields": "title"}, timeout=5).json()
    assert first["offset"] == 0 and first["next"] == 2 and len(first["data"]) == 2
    assert first["data"][0]["citedPaper"]["externalIds"] == {"ArXiv": "2402.00003"}
    assert first["data"][1]["citedPaper"]["externalIds"] == {}
    last = requests.get(base, params={"limit": 2, "offset": 4}, timeout=5).json()
    assert last["offset"] == 4 and "next" not in last and len(last["data"]) == 1
    assert requests.get(base, timeout=5).json()["data"][4]["citedPaper"]["title"] == "Reference 4"
    empty = requests.get(f"{fake.s2_url}/paper/arXiv:2401.00002/citations", timeout=5).json()
    assert empty == {"offset": 0, "data": []}


def test_s2_unknown_paper_is_404_with_message(fake):
    response = requests.get(f"{fake.s2_url}/paper/arXiv:2409.99999/references", timeout=5)
    assert response.status_code == 404
    assert response.json() == {"error": "Paper with id arXiv:2409.99999 not found"}


# ---- faults --------------------------------------------------------------------------------


def test_status_fault_with_retry_after_then_recovers(fake):
    fake.fault("/api/", "status", status=503, retry_after="7")
    first = requests.get(fake.api_url, params={"id_list": "2401.00001"}, timeout=5)
    assert first.status_code == 503 and first.headers["Retry-After"] == "7"
    assert requests.get(fake.api_url, params={"id_list": "2401.00001"}, timeout=5).status_code == 200
    assert len(fake.requests_to("/api/query")) == 2


def test_status_fault_times_and_http_date(fake):
    when = email.utils.formatdate(usegmt=True)
    fake.fault("/pdf/", "status", times=2, status=429, retry_after=when, body=b"slow down")
    codes = [requests.get(f"{fake.site_url}/pdf/2401.00001", timeout=5) for _ in range(3)]
    assert [r.status_code for r in codes] == [429, 429, 200]
    assert codes[0].headers["Retry-After"] == when and codes[0].content == b"slow down"


def test_fault_only_hits_its_prefix(fake):
    fake.fault("/html/", "status", status=500)
    assert requests.get(f"{fake.site_url}/abs/2401.00001", timeout=5).status_code == 200
    assert requests.get(f"{fake.site_url}/html/2401.00001", timeout=5).status_code == 500


def test_rate_exceeded_and_empty_and_malformed(fake):
    fake.fault("/api/", "rate_exceeded")
    response = requests.get(fake.api_url, params={"id_list": "2401.00001"}, timeout=5)
    assert response.status_code == 200 and response.content == b"Rate exceeded."
    fake.fault("/api/", "empty")
    response = requests.get(fake.api_url, params={"id_list": "2401.00001"}, timeout=5)
    assert response.status_code == 200 and response.content == b""
    fake.fault("/api/", "malformed")
    response = requests.get(fake.api_url, params={"id_list": "2401.00001"}, timeout=5)
    with pytest.raises(ET.ParseError):
        ET.fromstring(response.content)
    fake.fault("/pdf/", "malformed")
    broken = requests.get(f"{fake.site_url}/pdf/2401.00001", timeout=5)
    assert broken.content.startswith(b"%PDF") and b"%%EOF" not in broken.content


def test_reset_raises_connection_error(fake):
    fake.fault("/api/", "reset")
    with pytest.raises(requests.ConnectionError):
        requests.get(fake.api_url, params={"id_list": "2401.00001"}, timeout=5)
    assert requests.get(fake.api_url, params={"id_list": "2401.00001"}, timeout=5).status_code == 200


def _raw_get(base_url: str, path: str) -> tuple[bytes, bytes]:
    """Headers and body exactly as sent, read until the server closes."""
    host, port = base_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as conn:
        conn.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return head, body


def test_truncate_sends_half_the_body_then_closes(fake):
    fake.fault("/pdf/", "truncate")
    with pytest.raises(requests.exceptions.ChunkedEncodingError):
        requests.get(f"{fake.site_url}/pdf/2401.00001", timeout=5)
    fake.fault("/pdf/", "truncate")
    head, body = _raw_get(fake.base_url, "/pdf/2401.00001")
    declared = int(re.search(rb"Content-Length: (\d+)", head).group(1))
    assert declared == len(_hand_papers()[0].pdf) and len(body) == declared // 2


def test_stall_times_out_or_drops(fake):
    fake.fault("/api/", "stall", delay=1.0)
    with pytest.raises(requests.Timeout):
        requests.get(fake.api_url, params={"id_list": "2401.00001"}, timeout=0.2)
    fake.clear_faults()
    fake.fault("/api/", "stall", delay=0.05)
    with pytest.raises(requests.ConnectionError):
        requests.get(fake.api_url, params={"id_list": "2401.00001"}, timeout=5)


def test_huge_body_is_streamed_with_its_length(fake):
    fake.fault("/e-print/", "huge")
    with requests.get(f"{fake.site_url}/e-print/2401.00001", timeout=5, stream=True) as response:
        assert int(response.headers["Content-Length"]) == HUGE_BODY_BYTES > 64 * 1024 * 1024
        assert len(response.raw.read(1024 * 1024)) == 1024 * 1024
    assert requests.get(f"{fake.site_url}/e-print/2401.00001", timeout=5).status_code == 200


def test_unknown_fault_kind_is_refused(fake):
    with pytest.raises(ValueError):
        fake.fault("/api/", "explode")


# ---- connection and log --------------------------------------------------------------------


def test_keep_alive_reuses_one_connection(fake):
    with requests.Session() as session:
        fake.fault("/abs/", "status", status=503, retry_after="1")
        session.get(f"{fake.site_url}/abs/2401.00001", timeout=5)
        session.get(fake.api_url, params={"id_list": "2401.00001"}, timeout=5)
        session.get(f"{fake.site_url}/pdf/2401.00001", timeout=5)
    ports = {r.client_port for r in fake.requests}
    assert len(fake.requests) == 3 and len(ports) == 1


def test_request_log_records_decoded_query_and_headers(fake):
    requests.get(
        fake.api_url,
        params={"search_query": 'ti:"a b" AND au:x', "max_results": 3},
        headers={"User-Agent": "probe/1"},
        timeout=5,
    )
    requests.get(f"{fake.site_url}/pdf/hep-th/9901001", timeout=5)
    first, second = fake.requests
    assert first.method == "GET" and first.path == "/api/query"
    assert first.query == {"search_query": 'ti:"a b" AND au:x', "max_results": "3"}
    assert first.headers["user-agent"] == "probe/1"
    assert second.t >= first.t and second.path == "/pdf/hep-th/9901001"
    assert [r.path for r in fake.requests_to("/pdf/")] == ["/pdf/hep-th/9901001"]
    fake.clear_log()
    assert fake.requests == []


def test_env_points_here(fake):
    env = fake.env()
    assert env["ARXIV_MCP_API_URL"] == fake.base_url + "/api/query"
    assert env["ARXIV_MCP_SITE_URL"] == fake.base_url
    assert env["ARXIV_MCP_AR5IV_URL"] == fake.base_url + "/ar5iv"
    assert env["ARXIV_MCP_S2_URL"] == fake.base_url + "/s2/graph/v1"
    assert env["ARXIV_MCP_RSS_URL"] == fake.base_url + "/rss"
    assert env["ARXIV_MCP_MIN_INTERVAL_S"] == "0"


def test_stop_closes_the_port_and_idle_connections():
    server = FakeArxiv(_hand_papers()[:1]).start()
    session = requests.Session()
    assert session.get(f"{server.site_url}/abs/2401.00001", timeout=5).status_code == 200
    base = server.base_url
    server.stop()
    with pytest.raises(requests.ConnectionError):
        session.get(f"{base}/abs/2401.00001", timeout=2)
    with pytest.raises(requests.ConnectionError):
        requests.get(f"{base}/abs/2401.00001", timeout=2)


# ---- generators ----------------------------------------------------------------------------


def test_pdfgen_round_trip():
    pages = ["Title (draft) with back\\slash\nsecond line Müller", "page two words"]
    reader = pypdf.PdfReader(io.BytesIO(make_pdf(pages)), strict=True)
    assert [p.extract_text() for p in reader.pages] == pages
    blank = pypdf.PdfReader(io.BytesIO(make_pdf_without_text(3)), strict=True)
    assert len(blank.pages) == 3 and all(p.extract_text().strip() == "" for p in blank.pages)


def test_make_corpus_is_varied_and_deterministic():
    papers = make_corpus(200, seed=7)
    again = make_corpus(200, seed=7)
    assert [(p.id, p.title, p.abstract) for p in papers] == [(p.id, p.title, p.abstract) for p in again]
    assert len({p.id for p in papers}) == 200
    new_style = [p for p in papers if "/" not in p.id]
    assert all(p.id[:4] == p.published.strftime("%y%m") for p in new_style)
    assert any("/" in p.id for p in papers)
    assert any("$" in p.abstract for p in papers)
    assert any(any(ord(ch) > 127 for ch in str(p.authors)) for p in papers)
    assert {p.versions for p in papers} == {1, 2, 3}
    assert any(p.doi for p in papers) and any(p.journal_ref for p in papers) and any(p.comment for p in papers)
    assert any(isinstance(p.html, str) for p in papers) and any(p.html is STUB for p in papers)
    assert any(p.citations is None for p in papers) and any(p.citations for p in papers)
    assert len({c for p in papers for c in p.categories}) > 10


def test_latexml_html_has_the_reader_landmarks():
    paper = make_corpus(1, seed=2)[0]
    page = latexml_html(
        paper, [("Introduction", "Energy is $E=mc^2$ here."), ("Method", "We proceed.\n\nSecond paragraph.")]
    )
    for landmark in (
        "ltx_document",
        "ltx_title_document",
        "ltx_authors",
        "ltx_abstract",
        "ltx_section",
        "ltx_title_section",
        'alttext="E=mc^2"',
        "ltx_bibliography",
        "<script",
        "<nav",
    ):
        assert landmark in page
    assert 3_000 < len(page.encode()) < 12_000


@platforms.posix_signals
def test_standalone_main_serves_and_stops_on_sigterm():
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.fake_arxiv", "--port", "0", "--corpus", "5"],
        cwd=root,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    try:
        base = proc.stdout.readline().strip()
        assert base.startswith("http://127.0.0.1:")
        feed = ET.fromstring(requests.get(f"{base}/api/query", params={"search_query": "cat:*"}, timeout=5).content)
        assert feed.findtext(f"{OPENSEARCH}totalResults") == "5"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=5) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdout.close()
