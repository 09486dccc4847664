"""The day's announcements of some categories (list_new): arXiv's schedule, the feed kept until
it changes, and the caller's cursor.

Schedule model: arXiv announces once a day, Sunday to Thursday at 20:00 US Eastern; its feeds
(rss.arxiv.org) serve each announcement from the following midnight US Eastern, so a feed
changes at the US Eastern midnights that start Monday to Friday, and is empty on Saturday,
Sunday and holidays (which no rule predicts: "expected", never "certain"). US Eastern time is
computed here (UTC-5, UTC-4 from the second Sunday of March to the first Sunday of November,
both at 02:00 local), so no time-zone database is needed.

A fetched feed is kept (in the cache's short-lived answers, shared by every process on the
home) until the next change: one request per feed per announcement. A feed that is not yet
today's (asked in the first moments after midnight) is kept only a few minutes.

No state is kept for the caller: the cursor it gets back says what it has seen (`DAY`: that
day's whole feed; `DAY:N`: its first N papers), and it passes the cursor back as `since`.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import asdict
from datetime import UTC, date, datetime, timedelta
from typing import Any

from ..categories import category_or_archive
from ..errors import InvalidInput
from ..models import AnnouncedPaper, Announcements
from ..upstream.rss import Announced, RssFeed

ABSTRACT_CHARS = 300
"""A compact abstract: enough to judge relevance; get_paper gives the whole of it."""
EARLY_FEED_TTL_S = 600.0
"""How long a feed not yet serving today's date is kept (it is rebuilt just after midnight)."""
MAX_PARTS = 20
_CURSOR = re.compile(r"(?P<day>\d{4}-\d{2}-\d{2})(?::(?P<seen>\d{1,6}))?")


# --- arXiv's clock ---------------------------------------------------------------------


def _nth_sunday(year: int, month: int, n: int) -> date:
    first = date(year, month, 1)
    return first + timedelta(days=(6 - first.weekday()) % 7 + 7 * (n - 1))


def eastern_offset(when: datetime) -> timedelta:
    """US Eastern's offset from UTC at the instant `when` (aware)."""
    utc = when.astimezone(UTC).replace(tzinfo=None)
    starts = datetime.combine(_nth_sunday(utc.year, 3, 2), datetime.min.time()) + timedelta(hours=7)
    ends = datetime.combine(_nth_sunday(utc.year, 11, 1), datetime.min.time()) + timedelta(hours=6)
    return timedelta(hours=-4 if starts <= utc < ends else -5)


def eastern_day(when: datetime) -> date:
    """The US Eastern calendar date at the instant `when`."""
    return (when.astimezone(UTC) + eastern_offset(when)).date()


def next_update(when: datetime) -> datetime:
    """The first US Eastern midnight after `when` that starts a weekday: the next feed (UTC)."""
    day = eastern_day(when) + timedelta(days=1)
    while day.weekday() >= 5:
        day += timedelta(days=1)
    naive = datetime.combine(day, datetime.min.time())
    guess = naive.replace(tzinfo=UTC) + timedelta(hours=5)
    return (naive - eastern_offset(guess)).replace(tzinfo=UTC)


def keep_for(feed_day: str | None, when: datetime) -> float:
    """Seconds a feed serving `feed_day`, fetched at `when`, stays current."""
    if feed_day != eastern_day(when).isoformat():
        return EARLY_FEED_TTL_S
    return max(1.0, (next_update(when) - when).total_seconds())


# --- the request -----------------------------------------------------------------------


def feed_name(category: str) -> str:
    """`category` (one category or archive, or several joined by `+`, or by commas as
    search_papers takes them) as arXiv's feed path: each part spelt as arXiv spells it,
    duplicates dropped, sorted (the feed is the same)."""
    parts = [p.strip() for p in re.split(r"[+,]", category)] if isinstance(category, str) else []
    if not parts or any(not p for p in parts):
        raise InvalidInput(
            "category must be a category id or archive (cs.LG, math, hep-th), or several joined by + (cs.LG+stat.ML)"
        )
    if len(parts) > MAX_PARTS:
        raise InvalidInput(f"category joins {len(parts)} names; at most {MAX_PARTS} can be read in one feed")
    return "+".join(sorted({category_or_archive(p) for p in parts}))


def read_cursor(since: str | None, now: datetime) -> tuple[str, int | None] | None:
    """(day, papers of that day seen, or None for all of them) from a cursor or a date. A day
    that has not come (US Eastern, a day's slack) is refused: handed back as the next cursor,
    it would hide every feed until then."""
    if since is None or not since.strip():
        return None
    match = _CURSOR.fullmatch(since.strip())
    if match is None or not _is_date(match["day"]):
        raise InvalidInput(
            f"since={since!r} is not a cursor: pass the cursor a previous list_new answer gave "
            "(like 2025-09-18 or 2025-09-18:25), a date YYYY-MM-DD, or nothing for the whole feed"
        )
    today = eastern_day(now)
    if date.fromisoformat(match["day"]) > today + timedelta(days=1):
        raise InvalidInput(
            f"since={since!r} is after today ({today.isoformat()}, US Eastern), so no feed of it has been seen: "
            "pass the cursor a previous list_new answer gave, or nothing for the whole feed"
        )
    return match["day"], int(match["seen"]) if match["seen"] is not None else None


def _is_date(text: str) -> bool:
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


# --- the answer ------------------------------------------------------------------------


def page(
    feed: RssFeed, name: str, since: tuple[str, int | None] | None, limit: int, now: datetime, cached: bool
) -> Announcements:
    """The part of `feed` the cursor has not seen, at most `limit` papers, and the next cursor."""
    start = _first_unseen(feed, since)
    shown = feed.items[start : start + limit]
    end = start + len(shown)
    has_more = end < len(feed.items)
    if feed.day is None or (since is not None and feed.day < since[0]):
        cursor = _cursor_of(since)
    else:
        cursor = f"{feed.day}:{end}" if has_more else feed.day
    return Announcements(
        feed=name,
        day=feed.day,
        papers=[_compact(item) for item in shown],
        total=len(feed.items),
        counts=dict(Counter(item.announce_type for item in feed.items)),
        cursor=cursor,
        has_more=has_more,
        next_update=next_update(now).strftime("%Y-%m-%dT%H:%M:%SZ"),
        cached=cached,
        note=_note(feed, name, since, start, now),
    )


def _first_unseen(feed: RssFeed, since: tuple[str, int | None] | None) -> int:
    if since is None or feed.day is None or feed.day > since[0]:
        return 0
    seen = since[1]
    if feed.day == since[0] and seen is not None:
        return min(seen, len(feed.items))
    return len(feed.items)


def _cursor_of(since: tuple[str, int | None] | None) -> str | None:
    if since is None:
        return None
    return since[0] if since[1] is None else f"{since[0]}:{since[1]}"


def _note(feed: RssFeed, name: str, since: tuple[str, int | None] | None, start: int, now: datetime) -> str | None:
    due = next_update(now)
    when = f"{due.strftime('%a %Y-%m-%d %H:%M')} UTC (midnight US Eastern)"
    if not feed.items:
        return f"No announcement in this feed today (weekend or holiday); the next is expected {when}."
    if start >= len(feed.items):
        return f"Nothing new since {_cursor_of(since)}; the next announcement is expected {when}."
    missed = _weekdays_between(since[0], feed.day) if since is not None and feed.day is not None else []
    if missed:
        # a day's feed lists what was submitted up to 14:00 US Eastern the day before, since the
        # previous deadline: over a weekend, back to Thursday's
        since_day = (date.fromisoformat(missed[0]) - timedelta(days=4)).isoformat()
        return (
            f"The feed holds only the latest announcement: those of {', '.join(missed)} are no longer in it; "
            f'search_papers(category="{name.replace("+", ",")}", date_from="{since_day}", '
            'sort_by="submittedDate") finds the new papers among them.'
        )
    return None


def _weekdays_between(after: str, before: str) -> list[str]:
    """The Monday-to-Friday dates strictly between two ISO dates (each a possible feed day)."""
    day, last = date.fromisoformat(after) + timedelta(days=1), date.fromisoformat(before)
    out: list[str] = []
    while day < last and len(out) < 30:
        if day.weekday() < 5:
            out.append(day.isoformat())
        day += timedelta(days=1)
    return out


def _compact(item: Announced) -> AnnouncedPaper:
    abstract, cut = item.abstract, len(item.abstract) > ABSTRACT_CHARS
    if cut:
        abstract = abstract[: ABSTRACT_CHARS - 1].rsplit(" ", 1)[0].rstrip() + "…"
    return AnnouncedPaper(
        id=item.id,
        version=item.version,
        title=item.title,
        authors=item.authors,
        announce_type=item.announce_type,
        categories=item.categories,
        abstract=abstract,
        abstract_truncated=cut,
    )


# --- the stored feed -------------------------------------------------------------------


def stored(value: dict[str, Any] | None) -> RssFeed | None:
    """A feed as `to_store` kept it, or None when there is none or it does not read back."""
    if value is None:
        return None
    try:
        items = [Announced(**item) for item in value["items"]]
        return RssFeed(value.get("day"), items, int(value.get("skipped", 0)))
    except (KeyError, TypeError, ValueError):
        return None


def to_store(feed: RssFeed) -> dict[str, Any]:
    return asdict(feed)
