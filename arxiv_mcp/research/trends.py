"""Submission counts per day and frequent title terms for one category over a recent window.

One `cat:X AND submittedDate:[...]` query sorted newest first, paged only as far as needed.
Days count by the first version's submission time (`published`, UTC), the same clock
arXiv's `submittedDate` filter uses.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from .. import bounds
from ..categories import get_category
from ..models import DayCount, TermCount, Trends
from ..text.shape import MATH_RE
from ..words import STOPWORDS

if TYPE_CHECKING:
    from ..mirror.source import MirrorSource
    from ..upstream.arxiv_api import ArxivApi
    from ..upstream.atom import Paper

TOP_TERMS = 20
GENERIC_TITLE_WORDS = frozenset(
    """
paper approach approaches novel new study studies toward towards via using based non case
method methods framework results result
""".split()
)
"""Words nearly every title could carry; they would crowd out the topical terms."""

_COMMAND = re.compile(r"\\(?:[A-Za-z]+|.)")
_WORD = re.compile(r"[^\W_]+(?:['-][^\W_]+)*")


def title_terms(title: str) -> set[str]:
    """The distinct meaningful words of a title: lowercase, no math, commands or stopwords."""
    text = _COMMAND.sub(" ", MATH_RE.sub(" ", title)).lower()
    terms = set()
    for word in _WORD.findall(text):
        word = word.removesuffix("'s")
        if len(word) <= 2 or word.isdigit() or word in STOPWORDS or word in GENERIC_TITLE_WORDS:
            continue
        terms.add(word)
    return terms


def category_trends(
    api: ArxivApi,
    category: str,
    window_days: int = 30,
    *,
    today: date | None = None,
    page_size: int = 500,
    max_papers: int = 2000,
) -> Trends:
    """Papers submitted to `category` in the `window_days` days ending today (UTC, inclusive)."""
    cat_id = get_category(category).id
    bounds.WINDOW_DAYS.check(window_days)
    if not 1 <= page_size <= bounds.MAX_RESULTS_CAP or not 1 <= max_papers <= bounds.RESULT_WINDOW:
        raise ValueError("page_size must be 1-2000 and max_papers 1-30000")
    date_to = today or datetime.now(UTC).date()
    date_from = date_to - timedelta(days=window_days - 1)
    search = f"cat:{cat_id} AND submittedDate:[{date_from:%Y%m%d}0000 TO {date_to:%Y%m%d}2359]"

    papers: dict[str, Paper] = {}
    total = 0
    fetched = 0
    pages = api.pages(search, sort_by="submittedDate", sort_order="descending", page_size=page_size, limit=max_papers)
    for feed in pages:
        total = feed.total_results
        fetched += len(feed.papers)
        for paper in feed.papers:
            papers.setdefault(paper.id, paper)

    per_day = Counter(
        day for day in (_day(p) for p in papers.values()) if day is not None and date_from <= day <= date_to
    )
    terms = Counter(term for p in papers.values() for term in title_terms(p.title))
    capped = total > fetched and fetched >= max_papers
    result = Trends(
        category=cat_id,
        window_days=window_days,
        date_from=date_from.isoformat(),
        date_to=date_to.isoformat(),
        papers_seen=len(papers),
        total_results=total,
        capped=capped,
        per_day=[DayCount(day.isoformat(), per_day.get(day, 0)) for day in _days(date_from, window_days)],
        top_terms=[TermCount(t, c) for t, c in sorted(terms.items(), key=lambda tc: (-tc[1], tc[0]))[:TOP_TERMS]],
    )
    if capped:
        oldest = min((d for d in (_day(p) for p in papers.values()) if d is not None), default=date_to)
        result.note = (
            f"Only the newest {len(papers)} of {total} papers were read, so days before "
            f"{oldest.isoformat()} are undercounted; use a shorter window_days for exact counts."
        )
    elif fetched < total:
        result.note = (
            f"arXiv stopped returning papers after {fetched} of {total}; counts are partial. Try again in a minute."
        )
    return result


def _days(first: date, count: int) -> list[date]:
    return [first + timedelta(days=i) for i in range(count)]


def trends_from_dict(stored: dict[str, Any]) -> Trends:
    """A Trends answer read back from the answer cache, where it is kept as plain JSON."""
    return Trends(
        **{k: v for k, v in stored.items() if k not in ("per_day", "top_terms")},
        per_day=[DayCount(**d) for d in stored["per_day"]],
        top_terms=[TermCount(**t) for t in stored["top_terms"]],
    )


def _day(paper: Paper) -> date | None:
    try:
        moment = datetime.fromisoformat(paper.published.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).date()


def mirror_trends(
    mirror: MirrorSource, category: str, window_days: int = 30, *, today: date | None = None
) -> Trends | None:
    """The same answer counted exactly in the local mirror (every paper, no request), or None
    when the mirror does not hold the category or has not synced the window's last day."""
    cat_id = get_category(category).id
    bounds.WINDOW_DAYS.check(window_days)
    date_to = today or datetime.now(UTC).date()
    date_from = date_to - timedelta(days=window_days - 1)
    if not mirror.covers_category(cat_id, date_to.isoformat()):
        return None
    counts, titles = mirror.per_day(cat_id, date_from, date_to)
    terms = Counter(term for title in titles for term in title_terms(title))
    total = sum(counts.values())
    return Trends(
        category=cat_id,
        window_days=window_days,
        date_from=date_from.isoformat(),
        date_to=date_to.isoformat(),
        papers_seen=total,
        total_results=total,
        capped=False,
        per_day=[DayCount(day.isoformat(), counts.get(day.isoformat(), 0)) for day in _days(date_from, window_days)],
        top_terms=[TermCount(t, c) for t, c in sorted(terms.items(), key=lambda tc: (-tc[1], tc[0]))[:TOP_TERMS]],
        source="mirror",
        as_of=mirror.as_of() or "",
    )


def chart_svg(trends: Trends, width: int = 480, height: int = 160) -> str:
    """Submissions per day as a small SVG bar chart; its <title> and <desc> say the numbers, so
    it reads as text too."""
    from xml.sax.saxutils import escape

    days = trends.per_day
    top = max((d.count for d in days), default=0) or 1
    pad, bar = 24, (width - 2 * 24) / max(1, len(days))
    bars = []
    for i, d in enumerate(days):
        h = (height - 2 * pad) * d.count / top
        x, y = pad + i * bar, height - pad - h
        bars.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(1.0, bar - 1):.1f}" height="{h:.1f}" fill="#4a7ab5">'
            f"<title>{d.date}: {d.count}</title></rect>"
        )
    title = escape(f"{trends.category}: submissions per day, {trends.date_from} to {trends.date_to}")
    desc = escape(", ".join(f"{d.date} {d.count}" for d in days))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
        f"<title>{title}</title><desc>{desc}</desc>"
        f'<text x="{pad}" y="14" font-size="11" font-family="sans-serif">{title} (max {top})</text>'
        f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#333"/>'
        + "".join(bars)
        + f'<text x="{pad}" y="{height - 6}" font-size="10" font-family="sans-serif">{trends.date_from}</text>'
        f'<text x="{width - pad}" y="{height - 6}" font-size="10" font-family="sans-serif" text-anchor="end">'
        f"{trends.date_to}</text></svg>\n"
    )


def chart_uri(category: str, window_days: int) -> str:
    return f"arxiv://trends/{category}/{window_days}/chart"
