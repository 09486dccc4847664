"""arXiv's announcement feeds as the fake serves them, built from a real one.

The channel is the recorded cs.CV feed of 18 Sep 2025 (tests/fixtures/rss/), its categories
and dates substituted; the items follow arXiv's generator (PROVENANCE.md there), so what the
server reads is what rss.arxiv.org sends.
"""

from __future__ import annotations

import email.utils
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, timezone
from pathlib import Path
from xml.sax.saxutils import escape

from arxiv_mcp.research.announcements import eastern_offset

RECORDED = Path(__file__).parent / "fixtures" / "rss" / "cs.CV-2025-09-18-head.xml"
RECORDED_FEED, RECORDED_DAY = "cs.CV", date(2025, 9, 18)
DESCRIPTION_BREAK = " \n"
"""arXiv's generator writes a space before the newline that ends a description's first line."""


@dataclass
class FeedItem:
    id: str
    announce_type: str = "new"
    version: int = 1
    title: str = "A paper"
    authors: tuple[str, ...] = ("Ada Lovelace", "Alan Turing")
    categories: tuple[str, ...] = ("cs.CV",)
    abstract: str = "We study things."
    doi: str | None = None
    journal_ref: str | None = None

    def xml(self, day: date) -> str:
        full = f"{self.id}v{self.version}"
        extra = "".join(
            f"\n      <arxiv:{tag}>{escape(value)}</arxiv:{tag}>"
            for tag, value in (("DOI", self.doi), ("journal_reference", self.journal_ref))
            if value
        )
        cats = "".join(f"\n      <category>{escape(c)}</category>" for c in self.categories)
        return f"""    <item>
      <title>{escape(self.title)}</title>
      <link>https://arxiv.org/abs/{self.id}</link>
      <description>arXiv:{full} Announce Type: {self.announce_type}{DESCRIPTION_BREAK}Abstract: {escape(self.abstract)}</description>
      <guid isPermaLink="false">oai:arXiv.org:{full}</guid>{cats}
      <pubDate>{midnight(day)}</pubDate>
      <arxiv:announce_type>{self.announce_type}</arxiv:announce_type>
      <dc:rights>http://creativecommons.org/licenses/by/4.0/</dc:rights>{extra}
      <dc:creator>{escape(", ".join(self.authors))}</dc:creator>
    </item>
"""


def midnight(day: date) -> str:
    """`day`'s US Eastern midnight as the feed writes it: `Thu, 18 Sep 2025 00:00:00 -0400`."""
    noon = datetime.combine(day, time(12), UTC)
    return email.utils.format_datetime(datetime.combine(day, time(0), timezone(eastern_offset(noon))))


def channel(feed: str, day: date) -> str:
    """The recorded channel header (everything before its first item) for `feed` on `day`."""
    head = RECORDED.read_text(encoding="utf-8").split("    <item>", 1)[0]
    built = datetime.combine(day, time(0)) - eastern_offset(datetime.combine(day, time(12), UTC)) + timedelta(seconds=1)
    head = head.replace(midnight(RECORDED_DAY), midnight(day))
    head = head.replace("Thu, 18 Sep 2025 04:00:01 +0000", email.utils.format_datetime(built.replace(tzinfo=UTC)))
    return head.replace(RECORDED_FEED, feed)


def feed_xml(feed: str, day: date, items: list[FeedItem] | None = None) -> bytes:
    """A whole feed: the channel, then the items in arXiv's order (new, cross, replace, replace-cross)."""
    order = {"new": 0, "cross": 1, "replace": 2, "replace-cross": 3}
    ordered = sorted(items or [], key=lambda item: order.get(item.announce_type, 4))
    body = channel(feed, day) + "".join(item.xml(day) for item in ordered)
    return (body + "  </channel>\n</rss>\n").encode("utf-8")


def error_feed(query: str) -> bytes:
    """arXiv's answer (HTTP 400) to an unknown category: a channel named after the error."""
    return f"""<?xml version='1.0' encoding='UTF-8'?>
<rss xmlns:arxiv="http://arxiv.org/schemas/atom" version="2.0">
  <channel>
    <title>Feed error for query: http://rss.arxiv.org/rss/{escape(query)}</title>
    <link>http://rss.arxiv.org/rss/{escape(query)}</link>
    <description>Bad archive '{escape(query.split("+")[0].split(".")[0])}'.</description>
    <language>en-us</language>
  </channel>
</rss>
""".encode()
