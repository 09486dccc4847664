"""The failed-source notes: typed records, one stored form, hostile notes read safely."""

from arxiv_mcp import source_misses
from arxiv_mcp.source_misses import SourceMiss


def test_round_trip_keeps_every_field():
    misses = [
        SourceMiss("html", 3, "no HTML", 100.0),
        SourceMiss("pdf", 1, "being generated", 200.0, until=900.0),
        SourceMiss("ar5iv", None, "404", 300.0),
    ]
    stored = source_misses.dump({m.key: m for m in misses})
    assert set(stored) == {"html:v3", "pdf:v1", "ar5iv:paper"}
    assert "until" not in stored["html:v3"] and stored["pdf:v1"]["until"] == 900.0
    assert sorted(source_misses.load(stored).values(), key=lambda m: m.key) == sorted(misses, key=lambda m: m.key)


def test_a_miss_with_until_stops_counting():
    miss = SourceMiss("pdf", 1, "", 0.0, until=10.0)
    assert miss.counts(9.0) and not miss.counts(10.0)
    assert SourceMiss("html", 1, "", 0.0).counts(1e12)


def test_unreadable_entries_are_dropped_not_fatal():
    note = {
        "html:v2": {"reason": "x", "at": 5},
        "html:vx": {"at": 1},
        "html": {"at": 1},
        "pdf:v1": "not a dict",
        "source:v1": {"at": "yesterday"},
        "ar5iv:paper": {"at": 1, "until": None},
    }
    assert set(source_misses.load(note)) == {"html:v2", "ar5iv:paper"}
    assert source_misses.load(["a list"]) == {} and source_misses.load(None) == {}
