"""list_new: the day's announcements from arXiv's RSS feed, through the real MCP client.

The feeds come from tests/fake_rss.py, built on a real feed's channel (its test here proves the
fake writes it byte for byte) and arXiv's item layout; the recorded item itself is read too.
The schedule is pure date arithmetic and is checked at fixed instants.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from arxiv_mcp.research.announcements import eastern_day, next_update
from arxiv_mcp.upstream.rss import parse_rss
from tests.fake_rss import RECORDED, RECORDED_DAY, RECORDED_FEED, FeedItem, channel, feed_xml

pytestmark = pytest.mark.anyio


def today():
    return eastern_day(datetime.now(UTC))


def day_feed(fake, name: str, items: list[FeedItem], day=None) -> None:
    fake.feeds[name] = feed_xml(name, day or today(), items)


MIXED = [
    FeedItem("2612.00001", "new", title="First new", categories=("cs.CV", "cs.LG")),
    FeedItem("2612.00002", "new", title="Second new"),
    FeedItem("2612.00003", "cross", title="From elsewhere", categories=("cs.LG", "cs.CV")),
    FeedItem("2611.00004", "replace", version=3, title="A new version", journal_ref="Nature 1 (2026)"),
    FeedItem("2611.00005", "replace-cross", version=2, title="Another's new version", doi="10.1/x"),
]


# --- the wire --------------------------------------------------------------------------


def test_the_fake_writes_the_recorded_channel_byte_for_byte():
    recorded = RECORDED.read_text(encoding="utf-8")
    assert channel(RECORDED_FEED, RECORDED_DAY) == recorded.split("    <item>", 1)[0]


def test_the_recorded_item_reads():
    # the capture stops inside the first item's description: close it as arXiv's generator does
    whole = RECORDED.read_bytes() + b"</description>\n    </item>\n  </channel>\n</rss>\n"
    feed = parse_rss(whole)
    assert feed.day == "2025-09-18"
    (item,) = feed.items
    assert (item.id, item.version, item.announce_type) == ("2509.13338", 1, "new")
    assert item.title == "Proximity-Based Evidence Retrieval for Uncertainty-Aware Neural Networks"
    assert item.abstract.startswith("This work proposes an evidence-retrieval mechanism")


def test_every_field_of_an_item_reads():
    feed = parse_rss(feed_xml("cs.CV", RECORDED_DAY, MIXED))
    assert [i.announce_type for i in feed.items] == ["new", "new", "cross", "replace", "replace-cross"]
    replaced = feed.items[3]
    assert (replaced.id, replaced.version, replaced.journal_ref) == ("2611.00004", 3, "Nature 1 (2026)")
    assert feed.items[4].doi == "10.1/x" and feed.items[0].categories == ["cs.CV", "cs.LG"]
    assert feed.items[0].authors == ["Ada Lovelace", "Alan Turing"] and feed.items[0].abstract == "We study things."


# --- arXiv's clock ---------------------------------------------------------------------


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


@pytest.mark.parametrize(
    "now, due",
    [
        ("2025-09-18T15:00", "2025-09-19T04:00"),  # Thursday afternoon: Friday's feed at midnight EDT
        ("2025-09-19T03:59", "2025-09-19T04:00"),  # still Thursday in New York
        ("2025-09-19T12:00", "2025-09-22T04:00"),  # Friday: nothing until Monday
        ("2025-09-20T12:00", "2025-09-22T04:00"),  # Saturday
        ("2025-12-08T12:00", "2025-12-09T05:00"),  # winter: midnight EST is 05:00 UTC
        ("2026-03-07T12:00", "2026-03-09T04:00"),  # summer time began on Sunday 8 March
        ("2026-10-30T12:00", "2026-11-02T05:00"),  # and ended on Sunday 1 November
    ],
)
def test_the_next_feed_is_due_at_the_next_weekday_midnight_in_new_york(now, due):
    assert next_update(at(now)) == at(due)


# --- through the MCP client ------------------------------------------------------------


async def test_the_days_papers_with_their_announce_types_and_one_request(fake, connect):
    day_feed(fake, "cs.CV", MIXED)
    async with connect() as client:
        first = await client.call_tool("list_new", {"category": "cs.CV"})
        again = await client.call_tool("list_new", {"category": "CS.cv"})
    assert not first.is_error, first.content[0].text
    s = first.structured_content
    assert [p["announce_type"] for p in s["papers"]] == ["new", "new", "cross", "replace", "replace-cross"]
    assert s["counts"] == {"new": 2, "cross": 1, "replace": 1, "replace-cross": 1} and s["total"] == 5
    assert s["day"] == today().isoformat() and s["cursor"] == today().isoformat() and not s["has_more"]
    assert datetime.fromisoformat(s["next_update"]) > datetime.now(UTC)
    text = first.content[0].text
    assert "[cross] From elsewhere" in text and f'since="{s["cursor"]}"' in text
    assert again.structured_content["cached"] and again.structured_content["papers"] == s["papers"]
    assert len(fake.requests_to("/rss/")) == 1  # one request per feed per announcement


async def test_the_cursor_gives_only_what_was_not_seen(fake, connect):
    items = [FeedItem(f"2612.{n:05d}", title=f"Paper {n}") for n in range(1, 8)]
    day_feed(fake, "cs.CV", items)
    seen: list[str] = []
    async with connect() as client:
        since = None
        for _ in range(3):
            r = (
                await client.call_tool("list_new", {"category": "cs.CV", "since": since, "limit": 3})
            ).structured_content
            seen += [p["id"] for p in r["papers"]]
            since = r["cursor"]
        assert not r["has_more"] and since == today().isoformat()
        done = await client.call_tool("list_new", {"category": "cs.CV", "since": since})
    assert seen == [i.id for i in items]
    assert done.structured_content["papers"] == [] and "Nothing new since" in done.structured_content["note"]
    assert "expected" in done.content[0].text
    assert len(fake.requests_to("/rss/")) == 1


async def test_a_new_days_feed_after_a_gap_says_what_the_feed_no_longer_holds(fake, connect):
    day_feed(fake, "cs.CV", MIXED)
    before = (today() - timedelta(days=7)).isoformat()
    async with connect() as client:
        r = await client.call_tool("list_new", {"category": "cs.CV", "since": before})
    s = r.structured_content
    assert len(s["papers"]) == 5
    assert "no longer in it" in s["note"] and 'sort_by="submittedDate"' in s["note"]
    missed = s["note"].split("those of ", 1)[1].split(" are no", 1)[0].split(", ")
    first = datetime.fromisoformat(missed[0]).date()
    assert f'date_from="{(first - timedelta(days=4)).isoformat()}"' in s["note"]  # back to its submissions


async def test_a_day_without_announcements_says_when_the_next_is_due(fake, connect):
    day_feed(fake, "math.CO", [])
    async with connect() as client:
        r = await client.call_tool("list_new", {"category": "math.CO"})
    s = r.structured_content
    assert s["papers"] == [] and s["total"] == 0
    assert "No announcement" in s["note"] and s["next_update"][:16].replace("T", " ") in s["note"]


async def test_several_categories_are_one_feed_named_as_arxiv_names_it(fake, connect):
    day_feed(fake, "cs.AI+cs.LG", MIXED[:2])
    async with connect() as client:
        r = await client.call_tool("list_new", {"category": "cs.lg + CS.AI+cs.LG"})
    assert not r.is_error and r.structured_content["feed"] == "cs.AI+cs.LG"
    assert [q.path for q in fake.requests_to("/rss/")] == ["/rss/cs.AI+cs.LG"]


async def test_abstracts_are_compact(fake, connect):
    day_feed(fake, "cs.CV", [FeedItem("2612.00001", abstract="word " * 400)])
    async with connect() as client:
        r = await client.call_tool("list_new", {"category": "cs.CV"})
    (paper,) = r.structured_content["papers"]
    assert len(paper["abstract"]) <= 300 and paper["abstract"].endswith("…") and paper["abstract_truncated"]


@pytest.mark.parametrize(
    "args, says",
    [
        ({"category": "cs.XX"}, "cs.XX"),
        ({"category": "cs.LG+"}, "joined by +"),
        ({"category": "cs.CV", "since": "yesterday"}, "is not a cursor"),
        ({"category": "cs.CV", "since": "2025-02-30"}, "is not a cursor"),
        ({"category": "cs.CV", "since": "x" * 100_000}, "is not a cursor"),
    ],
)
async def test_a_bad_argument_is_one_line_and_no_request(fake, connect, args, says):
    async with connect() as client:
        r = await client.call_tool("list_new", args)
    text = r.content[0].text
    assert r.is_error and says in text and "\n" not in text and len(text) < 1024, text
    assert not fake.requests_to("/rss/")


async def test_arxivs_error_feed_is_one_line(fake, connect):
    async with connect() as client:
        r = await client.call_tool("list_new", {"category": "hep-th"})  # the fake has no such feed: 400
    assert r.is_error and "arXiv's feed refused" in r.content[0].text and "Bad archive" in r.content[0].text


async def test_feed_requests_keep_arxivs_spacing(fake, connect, make_config):
    day_feed(fake, "cs.CV", MIXED)
    day_feed(fake, "cs.LG", MIXED)
    async with connect(config=make_config(ARXIV_MCP_MIN_INTERVAL_S="0.5")) as client:
        for name in ("cs.CV", "cs.LG"):
            assert not (await client.call_tool("list_new", {"category": name})).is_error
    first, second = fake.requests_to("/rss/")
    assert second.t - first.t >= 0.5


def test_two_stdio_servers_on_one_home_fetch_the_feed_once(fake, tmp_path):
    """Through real stdio server processes: the second, another process on the same home, is
    answered from the feed the first kept (one request per feed per announcement, machine-wide)."""
    import sys

    from tests import jsonrpc

    day_feed(fake, "cs.CV", MIXED)
    env = jsonrpc.environment()
    env.update(fake.env(), ARXIV_MCP_HOME=str(tmp_path / "home"))
    answers = []
    for _ in range(2):
        messages = [*jsonrpc.handshake("t"), jsonrpc.call_tool(2, "list_new", {"category": "cs.CV"})]
        talk = jsonrpc.converse([sys.executable, "-m", "arxiv_mcp"], messages, env)
        assert talk.status == 0, talk.stderr
        answers.append(talk.answers[2]["result"]["structuredContent"])
    assert [a["cached"] for a in answers] == [False, True]
    assert answers[0]["papers"] == answers[1]["papers"] and len(answers[0]["papers"]) == 5
    assert len(fake.requests_to("/rss/")) == 1


async def test_calls_at_once_fetch_the_feed_once(fake, connect):
    import anyio

    day_feed(fake, "cs.CV", MIXED)
    fake.fault("/rss/", "drip_chunked", size=1024, interval=0.1)  # slow: the others must wait for it
    async with connect() as client:
        answers = []

        async def ask() -> None:
            answers.append(await client.call_tool("list_new", {"category": "cs.CV"}))

        async with anyio.create_task_group() as group:
            for _ in range(5):
                group.start_soon(ask)
    assert all(not a.is_error and len(a.structured_content["papers"]) == 5 for a in answers)
    assert len(fake.requests_to("/rss/")) == 1
