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


def test_acm_and_msc_classes_are_not_categories():
    """legacy2017 (trimmed to 3 entries): ACM and MSC classes ride in <category term>s,
    several to a term and with a line break inside."""
    robot, prob, plain = feed("legacy2017_search_cat_OR_3entries_acm_msc_paragraphs.xml").papers
    assert robot.categories == ["cs.RO", "cs.AI", "cs.CV", "cs.LG"]
    assert robot.classes[:2] == ["I.2.9", "I.2.10"] and robot.classes[-2:] == ["I.5.4", "I.5.5"]
    assert len(robot.classes) == 11 and all(" " not in c and "\n" not in c for c in robot.classes)
    assert prob.categories == ["math.PR", "stat.ML"] and prob.classes == ["34C29", "60J60", "62L20", "90C30"]
    assert plain.classes == [] and "cs.LG" in plain.categories
    perelman = feed("legacy2019_idlist_math_0211159.xml").papers[0]
    assert perelman.primary_category == "math.DG" and perelman.classes == ["53C"]
    assert "53C" not in perelman.categories


def test_abstract_lines_are_joined_and_paragraphs_kept():
    robot, _, plain = feed("legacy2017_search_cat_OR_3entries_acm_msc_paragraphs.xml").papers
    assert "\n" not in robot.abstract.replace("\n\n", "")  # wrapped lines joined
    paragraphs = plain.abstract.split("\n\n")
    assert len(paragraphs) >= 2 and all(p == p.strip() and "  " not in p for p in paragraphs)
    new = [p.abstract for p in feed("search_all_testing_start0_max10.xml").papers if p.abstract.startswith("Context.")]
    assert len(new) == 1 and "\n\nObjective. In this systematic review" in new[0]


def test_versioned_old_style_recordings_name_that_version():
    hep = feed("idlist_hep-ex_0406020v1_affiliation.xml").papers[0]
    assert (hep.id, hep.version, hep.updated) == ("hep-ex/0406020", 1, "2004-06-07T11:08:22Z")
    quant = feed("idlist_quant-ph_0201082v1.xml").papers[0]
    assert (quant.id, quant.version) == ("quant-ph/0201082", 1)


def test_cached_records_from_before_classes_are_split_on_read():
    from arxiv_mcp.upstream.atom import Paper

    old = feed("idlist_1707.08567.xml").papers[0].to_dict()
    old.pop("classes")
    old["categories"] = ["cs.LG", "I.2.6; I.5.1"]
    p = Paper.from_dict(old)
    assert (p.categories, p.classes) == (["cs.LG"], ["I.2.6", "I.5.1"])


@pytest.mark.parametrize(
    "bad_id",
    [
        "http://arxiv.org/abs/1707.08567v0",
        "http://arxiv.org/abs/1707.08567v" + "9" * 5000,
        "http://arxiv.org/abs/1707.08567",
        "http://arxiv.org/abs/not-an-id",
        "http://arxiv.org/abs/1713.08567v1",
    ],
)
def test_one_odd_entry_is_skipped_and_named(bad_id):
    data = (FIX / "idlist_8ids_mixed_old_new_unordered.xml").read_text(encoding="utf-8")
    first = data.index("<id>http://arxiv.org/abs/", data.index("<entry>"))
    end = data.index("</id>", first)
    f = parse_feed((data[:first] + "<id>" + bad_id + data[end:]).encode())
    assert len(f.papers) == 7 and len(f.skipped) == 1 and "does not name an arXiv id" in f.skipped[0]
