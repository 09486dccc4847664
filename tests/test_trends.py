"""category_trends against the fake, on a corpus whose submission times the test controls."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, date, datetime, timedelta

import pytest

from arxiv_mcp.errors import InvalidInput, UpstreamError
from arxiv_mcp.models import DayCount
from arxiv_mcp.research.trends import category_trends, title_terms
from arxiv_mcp.upstream.arxiv_api import ArxivApi
from arxiv_mcp.upstream.http import HttpClient, Transport
from arxiv_mcp.upstream.rate_limiter import RateLimiter
from tests.fake_arxiv import FakePaper

UTC = UTC
TODAY = date(2024, 3, 31)
WINDOW = 30
FIRST_DAY = TODAY - timedelta(days=WINDOW - 1)  # 2024-03-02
TOPICS = ["diffusion", "graph", "transformer", "kernel", "bandit"]


def fake_paper(pid: str, when: datetime, title: str, categories: list[str]) -> FakePaper:
    return FakePaper(
        id=pid,
        title=title,
        abstract="An abstract.",
        authors=["Ada Lovelace"],
        categories=categories,
        published=when,
        pdf=None,
    )


def build_corpus(n_in_window: int, seed: int = 7) -> tuple[list[FakePaper], list[FakePaper]]:
    """(cs.LG papers inside the window, everything else); days 3-5 of the window stay empty."""
    rng = random.Random(seed)
    days = [d for d in range(WINDOW) if d not in (3, 4, 5)]
    inside = []
    for i in range(n_in_window):
        day = FIRST_DAY + timedelta(days=rng.choice(days))
        when = datetime(day.year, day.month, day.day, rng.randrange(24), rng.randrange(60), tzinfo=UTC)
        words = rng.sample(TOPICS, 2)
        title = (
            f"{words[0].title()} models for {words[1]} learning models with $O(n^2)$ "
            "\\emph{cost} via a novel approach"
        )
        cats = ["cs.LG"] if i % 3 else ["stat.ML", "cs.LG"]  # cross-lists count for cat:cs.LG too
        inside.append(fake_paper(f"2403.{i + 1:05d}", when, title, cats))
    # The window's exact edges are inside; a minute either side is not.
    inside.append(fake_paper("2403.20001", datetime(2024, 3, 2, 0, 0, tzinfo=UTC), "Edge first minute", ["cs.LG"]))
    inside.append(
        fake_paper("2403.20002", datetime(2024, 3, 31, 23, 59, 30, tzinfo=UTC), "Edge last minute", ["cs.LG"])
    )
    outside = [
        fake_paper("2403.30001", datetime(2024, 3, 1, 23, 59, tzinfo=UTC), "Too early diffusion", ["cs.LG"]),
        fake_paper("2404.30002", datetime(2024, 4, 1, 0, 0, tzinfo=UTC), "Too late diffusion", ["cs.LG"]),
        fake_paper("2403.30003", datetime(2024, 3, 10, 9, 0, tzinfo=UTC), "Other category diffusion", ["cs.CL"]),
    ]
    return inside, outside


def expected_per_day(papers: list[FakePaper]) -> list[DayCount]:
    counts = Counter(p.published.date() for p in papers)
    return [
        DayCount((FIRST_DAY + timedelta(days=i)).isoformat(), counts[FIRST_DAY + timedelta(days=i)])
        for i in range(WINDOW)
    ]


@pytest.fixture
def http(make_config):
    config = make_config()
    return HttpClient(config, Transport(config), RateLimiter(0.0), RateLimiter(0.0), sleep=lambda _s: None)


@pytest.fixture
def corpus(fake):
    inside, outside = build_corpus(23)
    for p in inside + outside:
        fake.add(p)
    return fake, inside


def test_counts_match_the_corpus(http, corpus):
    fake, inside = corpus
    result = category_trends(ArxivApi(http, fake.api_url), "cs.lg", WINDOW, today=TODAY)
    assert result.category == "cs.LG"
    assert (result.date_from, result.date_to) == ("2024-03-02", "2024-03-31")
    assert result.papers_seen == result.total_results == len(inside) == 25
    assert result.capped is False and result.note is None
    assert result.per_day == expected_per_day(inside)
    assert [d.count for d in result.per_day[3:6]] == [0, 0, 0]
    [req] = fake.requests_to("/api/query")
    assert req.query == {
        "search_query": "cat:cs.LG AND submittedDate:[202403020000 TO 202403312359]",
        "sortBy": "submittedDate",
        "sortOrder": "descending",
        "start": "0",
        "max_results": "500",
    }


def test_top_terms_count_each_paper_once(http, corpus):
    fake, inside = corpus
    result = category_trends(ArxivApi(http, fake.api_url), "cs.LG", WINDOW, today=TODAY)
    expected = Counter(t for p in inside for t in title_terms(p.title))
    assert {d.term: d.count for d in result.top_terms} == dict(expected.most_common(20))
    by_term = {d.term: d.count for d in result.top_terms}
    assert by_term["models"] == by_term["learning"] == 23  # once per title, whatever the title repeats
    assert by_term["cost"] == 23  # a command's argument is text; only the command goes
    assert by_term["diffusion"] == sum("diffusion" in p.title.lower() for p in inside)
    for junk in ("novel", "approach", "via", "for", "with", "emph", "o(n^2)", "n^2"):
        assert junk not in by_term
    counts = [d.count for d in result.top_terms]
    assert counts == sorted(counts, reverse=True)


def test_pages_only_as_far_as_needed(http, corpus):
    fake, inside = corpus
    result = category_trends(ArxivApi(http, fake.api_url), "cs.LG", WINDOW, today=TODAY, page_size=7)
    assert result.papers_seen == 25 and result.capped is False
    assert result.per_day == expected_per_day(inside)
    pages = [(r.query["start"], r.query["max_results"]) for r in fake.requests_to("/api/query")]
    assert pages == [("0", "7"), ("7", "7"), ("14", "7"), ("21", "7")]


def test_cap_reads_the_newest_papers_and_says_so(http, corpus):
    fake, inside = corpus
    result = category_trends(ArxivApi(http, fake.api_url), "cs.LG", WINDOW, today=TODAY, page_size=5, max_papers=12)
    assert result.capped is True
    assert (result.papers_seen, result.total_results) == (12, 25)
    newest = sorted(inside, key=lambda p: (p.published, p.id), reverse=True)[:12]
    assert result.per_day == expected_per_day(newest)
    assert "undercounted" in result.note
    pages = [(r.query["start"], r.query["max_results"]) for r in fake.requests_to("/api/query")]
    assert pages == [("0", "5"), ("5", "5"), ("10", "2")]


def test_exact_page_multiple_needs_no_extra_request(http, fake):
    inside, _ = build_corpus(8)  # 10 papers with the two edge ones
    for p in inside:
        fake.add(p)
    result = category_trends(ArxivApi(http, fake.api_url), "cs.LG", WINDOW, today=TODAY, page_size=5)
    assert result.papers_seen == 10
    assert len(fake.requests_to("/api/query")) == 2


def test_empty_window(http, fake):
    result = category_trends(ArxivApi(http, fake.api_url), "math.GT", 7, today=TODAY)
    assert result.papers_seen == result.total_results == 0
    assert [d.date for d in result.per_day] == [f"2024-03-{d}" for d in range(25, 32)]
    assert all(d.count == 0 for d in result.per_day) and result.top_terms == []


def test_window_ends_today_utc_by_default(http, fake):
    result = category_trends(ArxivApi(http, fake.api_url), "cs.AI", 1)
    today = datetime.now(UTC).date().isoformat()
    assert result.date_from == result.date_to == today
    assert len(result.per_day) == 1


@pytest.mark.parametrize(
    "category, window, message",
    [
        ("cs.XX", 30, "cs.XX"),
        ("cs.LG", 0, "1 to 365"),
        ("cs.LG", 366, "1 to 365"),
        ("cs.LG", True, "1 to 365"),
    ],
)
def test_bad_arguments_send_nothing(http, fake, category, window, message):
    with pytest.raises(InvalidInput, match=message):
        category_trends(ArxivApi(http, fake.api_url), category, window, today=TODAY)
    assert fake.requests_to("/api/") == []


def test_broken_feed_is_upstream_error(http, corpus):
    fake, _ = corpus
    fake.fault("/api/query", "malformed")
    with pytest.raises(UpstreamError, match="not an Atom feed"):
        category_trends(ArxivApi(http, fake.api_url), "cs.LG", WINDOW, today=TODAY)


def test_title_terms():
    assert title_terms(
        "Towards Scalable GNNs via $\\mathcal{O}(n)$ Message-Passing: "
        "a Novel Approach for the Schrödinger's Equation in 2024, GNNs and 3D"
    ) == {"scalable", "gnns", "message-passing", "schrödinger", "equation"}
