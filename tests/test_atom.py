from pathlib import Path

import pytest

from arxiv_mcp.errors import InvalidInput, UpstreamError
from arxiv_mcp.upstream.atom import parse_feed

FIX = Path(__file__).parent / "fixtures" / "atom"


def feed(name):
    return parse_feed((FIX / name).read_bytes())


def test_single_entry_fields():
    f = feed("idlist_1707.08567.xml")
    assert f.total_results == 1 and f.start == 0
    p = f.papers[0]
    assert (p.id, p.version) == ("1707.08567", 1)
    assert len(p.authors) == 34
    assert any("Wübben" in a.name for a in p.authors)
    assert p.primary_category and p.primary_category in p.categories
    assert "  " not in p.title and "\n" not in p.abstract
    assert p.published.startswith("20") and p.updated.startswith("20")


def test_old_style_id_affiliations_and_journal_ref():
    p = feed("idlist_astro-ph_0601001_affiliation_journalref.xml").papers[0]
    assert p.id == "astro-ph/0601001"
    assert p.journal_ref
    assert all(a.affiliations for a in p.authors)


def test_legacy_layout_with_doi():
    p = feed("legacy2016_idlist_1111.2011v2.xml").papers[0]
    assert (p.id, p.version) == ("1111.2011", 2)
    assert p.doi and p.journal_ref and p.comment
    assert p.title.startswith("Quantum Criticality for Extended Nodes") and "\n" not in p.title


def test_mixed_ids_out_of_order():
    f = feed("idlist_8ids_mixed_old_new_unordered.xml")
    ids = [p.id for p in f.papers]
    assert "astro-ph/0512197" in ids and len(ids) == 8


def test_title_zero_is_kept():
    assert feed("idlist_2104.12255v1_title_zero.xml").papers[0].title == "0"


def test_empty_feed():
    f = feed("empty_idlist_0000.0000.xml")
    assert f.total_results == 0 and f.papers == []


def test_search_totals():
    f = feed("search_all_testing_start0_max10.xml")
    assert len(f.papers) == 10 and f.total_results > 10


def test_error_feed_is_a_clear_error():
    with pytest.raises(InvalidInput) as err:
        feed("error_idlist_abc_http400.xml")
    assert "incorrect id format for abc" in str(err.value)


@pytest.mark.parametrize(
    "body",
    [
        b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]>'
        b'<feed xmlns="http://www.w3.org/2005/Atom"><title>&lol2;</title></feed>',
        b'<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
        b'<feed xmlns="http://www.w3.org/2005/Atom"><title>&xxe;</title></feed>',
        b"<feed><entry>",
        b"Rate exceeded.",
        b"",
        b"<html><body>oops</body></html>",
    ],
)
def test_hostile_or_broken_xml_refused(body):
    with pytest.raises(UpstreamError):
        parse_feed(body)
