"""Semantic Scholar references and citations against the fake, including the API key's privacy."""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import asdict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from arxiv_mcp.errors import InvalidInput, NotFound, Throttled, UpstreamError
from arxiv_mcp.ids import parse
from arxiv_mcp.service import ArxivService
from arxiv_mcp.upstream import s2
from arxiv_mcp.upstream.http import HttpClient, Transport
from arxiv_mcp.upstream.rate_limiter import RateLimiter
from tests.conftest import paper

FIXTURES = Path(__file__).parent / "fixtures" / "fake_arxiv"
KEY = "s2-test-key-5f1d9c0e7b"
S2_PREFIX = "/s2/graph/v1/paper/"

REFERENCES = [
    {
        "arxiv": "1706.03762",
        "title": "Attention Is All You Need",
        "year": 2017,
        "authors": ["Ashish Vaswani", "Noam Shazeer"],
    },
    {"title": "A book that is not on arXiv", "year": 1998, "authors": ["Judea Pearl"]},
    {
        "arxiv": "hep-th/9711200",
        "title": "The Large N Limit of Superconformal Field Theories",
        "year": 1997,
        "authors": ["Juan Maldacena"],
    },
]
CITATIONS = [
    {"arxiv": f"2405.{i:05d}", "title": f"Follow-up number {i}", "year": 2024, "authors": ["Grace Hopper"]}
    for i in range(1, 8)
]


def fast_service(config) -> ArxivService:
    """A service whose limiters and back-off do not wait: the fake is local."""
    http = HttpClient(
        config, Transport(config), RateLimiter(0.0), RateLimiter(0.0, name="Semantic Scholar"), sleep=lambda _s: None
    )
    return ArxivService(config, http=http)


@pytest.fixture
def corpus(fake):
    fake.add(paper("2401.00001", "Sparse attention", references=REFERENCES, citations=CITATIONS))
    fake.add(
        paper("hep-th/9901001", "Strings", year=1999, categories=["hep-th"], references=[REFERENCES[0]], citations=[])
    )
    fake.add(paper("2402.00002", "Not indexed by Semantic Scholar"))  # citations=None: S2 answers 404
    return fake


@pytest.fixture
def svc(corpus, make_config):
    return fast_service(make_config())


def call(svc, paper_id: str, direction: str = "references", limit: int = 10, **kw) -> dict:
    """The answer as the JSON a client gets."""
    return asdict(s2.neighbours(svc.http, svc.config.s2_url, parse(paper_id), direction, limit, **kw))


def test_references_are_parsed(svc, corpus):
    result = call(svc, "2401.00001v2")
    assert result == {
        "paper_id": "2401.00001",
        "direction": "references",
        "neighbours": [
            {
                "title": "Attention Is All You Need",
                "arxiv_id": "1706.03762",
                "year": 2017,
                "authors": ["Ashish Vaswani", "Noam Shazeer"],
                "verdict": None,
            },
            {
                "title": "A book that is not on arXiv",
                "arxiv_id": None,
                "year": 1998,
                "authors": ["Judea Pearl"],
                "verdict": None,
            },
            {
                "title": "The Large N Limit of Superconformal Field Theories",
                "arxiv_id": "hep-th/9711200",
                "year": 1997,
                "authors": ["Juan Maldacena"],
                "verdict": None,
            },
        ],
        "has_more": False,
    }
    [req] = corpus.requests_to(S2_PREFIX)
    assert req.path == S2_PREFIX + "arXiv:2401.00001/references"  # versionless
    assert req.query == {"fields": "title,year,externalIds,authors", "limit": "10", "offset": "0"}


def test_citations_page_and_has_more(svc):
    result = call(svc, "arXiv:2401.00001", "citations", limit=5)
    assert [n["arxiv_id"] for n in result["neighbours"]] == [f"2405.{i:05d}" for i in range(1, 6)]
    assert result["has_more"] is True
    assert call(svc, "2401.00001", "citations", limit=7)["has_more"] is False


def test_old_style_id_keeps_its_slash(svc, corpus):
    result = call(svc, "hep-th/9901001v1")
    assert result["paper_id"] == "hep-th/9901001"
    assert [n["arxiv_id"] for n in result["neighbours"]] == ["1706.03762"]
    assert corpus.requests_to(S2_PREFIX)[-1].path == S2_PREFIX + "arXiv:hep-th/9901001/references"
    assert call(svc, "hep-th/9901001", "citations")["neighbours"] == []


def test_not_in_semantic_scholar_is_not_found(svc):
    with pytest.raises(NotFound) as err:
        call(svc, "2402.00002")
    text = str(err.value)
    assert "not in Semantic Scholar" in text and "does not mean it is not on arXiv" in text


@pytest.mark.parametrize("limit", [0, 101, -1, True, 2.5, "5"])
def test_limit_is_validated_before_any_request(svc, corpus, limit):
    with pytest.raises(InvalidInput, match="1 to 100"):
        call(svc, "2401.00001", limit=limit)
    assert corpus.requests_to(S2_PREFIX) == []


def test_unknown_direction(svc):
    with pytest.raises(InvalidInput, match="references' or 'citations"):
        call(svc, "2401.00001", "cited_by")


def test_null_and_empty_entries_are_skipped(svc, corpus):
    body = json.dumps(
        {
            "offset": 0,
            "next": 3,
            "data": [
                {"citedPaper": None},
                {
                    "citedPaper": {
                        "paperId": None,
                        "externalIds": None,
                        "title": "Unresolved but titled",
                        "year": None,
                        "authors": None,
                    }
                },
                {"citedPaper": {"paperId": None, "externalIds": None, "title": None, "year": None, "authors": []}},
                {
                    "citedPaper": {
                        "paperId": "x",
                        "externalIds": {"ArXiv": "not an id"},
                        "title": "Odd id",
                        "year": "2020",
                        "authors": [{"name": "A. B."}, {"name": None}, "junk"],
                    }
                },
            ],
        }
    ).encode()
    corpus.fault(S2_PREFIX, "malformed", body=body)
    result = call(svc, "2401.00001", limit=3)
    assert result["neighbours"] == [
        {"title": "Unresolved but titled", "arxiv_id": None, "year": None, "authors": [], "verdict": None},
        {"title": "Odd id", "arxiv_id": None, "year": None, "authors": ["A. B."], "verdict": None},
    ]
    assert result["has_more"] is True


def test_real_semantic_scholar_page(svc, corpus):
    corpus.fault(S2_PREFIX, "malformed", body=(FIXTURES / "citations_arXiv-2501.12977_limit200.json").read_bytes())
    result = call(svc, "2401.00001", "citations")
    [n] = result["neighbours"]
    assert n["arxiv_id"] == "2510.25156" and n["year"] == 2025
    assert n["title"].startswith("A century of change")
    assert n["authors"][5] == "M. Pérez-Torres" and len(n["authors"]) == 10
    assert result["has_more"] is False


@pytest.mark.parametrize("body", [None, b"[1, 2]", b'{"data": "nope"}', b"\xff\xfe not json"])
def test_malformed_answer_is_upstream_error(svc, corpus, body):
    corpus.fault(S2_PREFIX, "malformed", body=body)
    with pytest.raises(UpstreamError, match="Semantic Scholar.*malformed JSON"):
        call(svc, "2401.00001")


def test_throttling_after_the_retry_says_retry_later(svc, corpus):
    corpus.fault(S2_PREFIX, "status", status=429, retry_after="0", times=2)
    with pytest.raises(Throttled) as err:
        call(svc, "2401.00001")
    assert "Semantic Scholar" in str(err.value) and "retry later" in str(err.value)
    assert err.value.status == 429
    assert len(corpus.requests_to(S2_PREFIX)) == 2  # the client's one retry, no more


def test_one_throttle_is_retried_transparently(svc, corpus):
    corpus.fault(S2_PREFIX, "status", status=429, retry_after="0", times=1)
    assert len(call(svc, "2401.00001")["neighbours"]) == 3


def test_answers_are_cached_for_ten_minutes(svc, corpus):
    first = call(svc, "2401.00001", limit=2, cache=svc.cache)
    again = call(svc, "2401.00001v1", limit=2, cache=svc.cache)
    assert again == first
    assert len(corpus.requests_to(S2_PREFIX)) == 1
    assert svc.cache.get_search("s2:references:2401.00001:2") == first
    call(svc, "2401.00001", limit=3, cache=svc.cache)
    call(svc, "2401.00001", "citations", limit=2, cache=svc.cache)
    assert len(corpus.requests_to(S2_PREFIX)) == 3


def test_cache_entry_lives_600_seconds(svc):
    class Recorder:
        def __init__(self):
            self.puts = []

        def get_search(self, key):
            return None

        def put_search(self, key, value, ttl_s):
            self.puts.append((key, ttl_s))

    cache = Recorder()
    call(svc, "2401.00001", cache=cache)
    assert cache.puts == [("s2:references:2401.00001:10", 600.0)]


def test_api_key_only_ever_in_the_header(corpus, make_config, caplog):
    svc = fast_service(make_config(SEMANTIC_SCHOLAR_API_KEY=KEY))
    caplog.set_level(logging.DEBUG)
    outputs = [json.dumps(call(svc, "2401.00001")), json.dumps(call(svc, "2401.00001", "citations"))]
    corpus.fault(S2_PREFIX, "status", status=429, retry_after="0", times=2)
    corpus.fault(S2_PREFIX + "arXiv:2402", "status", status=500, times=2)
    for pid, exc in (("2401.00001", Throttled), ("2402.00002", UpstreamError), ("2402.00003", NotFound)):
        with pytest.raises(exc) as err:
            call(svc, pid)
        outputs.append(str(err.value))
    svc.http.get(svc.config.api_url, params={"id_list": "2401.00001"})  # arXiv traffic: no key

    s2_requests = corpus.requests_to(S2_PREFIX)
    assert len(s2_requests) == 2 + 2 + 2 + 1
    assert all(r.headers.get("x-api-key") == KEY for r in s2_requests)
    for r in corpus.requests:
        visible = r.path + json.dumps(r.query) + json.dumps({k: v for k, v in r.headers.items() if k != "x-api-key"})
        assert KEY not in visible
    assert all("x-api-key" not in r.headers for r in corpus.requests_to("/api/"))
    assert not any(KEY in text for text in outputs)
    assert caplog.records and not any(KEY in rec.getMessage() for rec in caplog.records)
    assert KEY not in caplog.text
    assert KEY not in repr(svc.config)


class _Redirector:
    """A second local "Semantic Scholar" that answers every request with a redirect."""

    def __init__(self, location: str):
        seen = self.headers = []

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                seen.append({k.lower(): v for k, v in self.headers.items()})
                self.send_response(302)
                self.send_header("Location", location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                """Quiet: the test reads `seen`."""

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/graph/v1"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.mark.parametrize("target", ["arxiv_host", "foreign_host"])
def test_redirect_never_carries_the_key(corpus, make_config, target):
    location = corpus.site_url + "/abs/2401.00001" if target == "arxiv_host" else "http://localhost:9/steal"
    redirector = _Redirector(location)
    try:
        svc = fast_service(make_config(SEMANTIC_SCHOLAR_API_KEY=KEY, ARXIV_MCP_S2_URL=redirector.url))
        with pytest.raises(UpstreamError) as err:
            s2.neighbours(svc.http, svc.config.s2_url, parse("2401.00001"), "references", 5)
    finally:
        redirector.close()
    assert [h.get("x-api-key") for h in redirector.headers] == [KEY]  # the configured S2 host gets it
    assert KEY not in str(err.value)
    followed = corpus.requests_to("/abs/")
    if target == "arxiv_host":
        # Followed to a configured arXiv host (an HTML page, not JSON), but without the key.
        assert len(followed) == 1 and "x-api-key" not in followed[0].headers
    else:
        assert followed == []  # never followed off the configured hosts


def test_a_page_with_one_item_nested_too_deeply_keeps_the_others():
    deep = "[" * 100_000 + "]" * 100_000
    good = '{"citedPaper": {"title": "Kept, \\"quoted\\" ] {", "externalIds": {"ArXiv": "1901.00001"}}}'
    body = f'{{"offset": 0, "next": 3, "data": [{good}, {{"citedPaper": {{"title": {deep}}}}}, {good}]}}'
    page = s2._parse_page(body.encode(), "citedPaper", 100)
    assert [n.title for n in page["neighbours"]] == ['Kept, "quoted" ] {'] * 2
    assert page["skipped"] == 1 and page["has_more"] is True


def test_items_of_the_wrong_shape_are_counted_not_fatal():
    body = b'{"offset": 0, "data": [{"citedPaper": "oops"}, 7, {"citedPaper": null}, {"citedPaper": {"title": "T"}}]}'
    page = s2._parse_page(body, "citedPaper", 100)
    assert [n.title for n in page["neighbours"]] == ["T"] and page["skipped"] == 2
