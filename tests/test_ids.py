import pytest

from arxiv_mcp.errors import InvalidInput
from arxiv_mcp.ids import PaperId, Urls, parse, parse_many


@pytest.mark.parametrize(
    "text, expected",
    [
        ("2401.12345", ("2401.12345", None)),
        ("2401.12345v2", ("2401.12345", 2)),
        ("0704.0001", ("0704.0001", None)),
        ("  arXiv:2401.12345V3 ", ("2401.12345", 3)),
        ("ARXIV:0704.0001", ("0704.0001", None)),
        ("hep-th/9901001", ("hep-th/9901001", None)),
        ("math.GT/0309136", ("math/0309136", None)),
        ("math.gt/0309136v1", ("math/0309136", 1)),
        ("cs.LO/0112017", ("cs/0112017", None)),
        ("COND-MAT.STR-EL/0101001v2", ("cond-mat/0101001", 2)),
        ("physics.optics/0101001", ("physics/0101001", None)),
        ("cs/0112017v2", ("cs/0112017", 2)),
        ("solv-int/9901001v1", ("solv-int/9901001", 1)),
        ("https://arxiv.org/abs/2401.12345", ("2401.12345", None)),
        ("http://arxiv.org/abs/2401.12345v2", ("2401.12345", 2)),
        ("https://export.arxiv.org/abs/hep-th/9901001", ("hep-th/9901001", None)),
        ("https://arxiv.org/pdf/2401.12345", ("2401.12345", None)),
        ("https://arxiv.org/pdf/2401.12345v4.pdf", ("2401.12345", 4)),
        ("arxiv.org/pdf/cs/0112017v2.pdf", ("cs/0112017", 2)),
        ("https://arxiv.org/html/2401.12345v1/", ("2401.12345", 1)),
        ("https://www.arxiv.org/abs/2401.12345?context=cs", ("2401.12345", None)),
        ("https://ar5iv.labs.arxiv.org/html/1706.03762", ("1706.03762", None)),
        ("https://ar5iv.org/abs/1706.03762v5", ("1706.03762", 5)),
        ("10.48550/arXiv.2401.12345", ("2401.12345", None)),
        ("doi:10.48550/arXiv.2401.12345", ("2401.12345", None)),
        ("https://doi.org/10.48550/arXiv.2401.12345", ("2401.12345", None)),
        ("https://doi.org/10.48550/arXiv.hep-th/9901001", ("hep-th/9901001", None)),
    ],
)
def test_accepted_forms(text, expected):
    pid = parse(text)
    assert (pid.id, pid.version) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "abc",
        "2401",
        "2401.123",
        "2401.123456",
        "../../etc/passwd",
        "hep-th/9901001/../../x",
        "/etc/passwd",
        "2401.12345\x00",
        "nosuch-archive/9901001",
        "math.ZZ/0309136",
        "https://example.com/abs/2401.12345",
        "https://arxiv.org/list/cs.AI",
        "2401.12345v0",
        "x" * 1000,
    ],
)
def test_malformed_is_a_clear_error(text):
    with pytest.raises(InvalidInput) as err:
        parse(text)
    message = str(err.value)
    assert "Accepted forms" in message and "2401.12345" in message


@pytest.mark.parametrize(
    "text, expected",
    [
        ("  \n arXiv:2401.12345\n", ("2401.12345", None)),
        ("arXiv:2401.12345 [cs.LG]", ("2401.12345", None)),
        ("arXiv:2401.12345v3 [cs.LG].", ("2401.12345", 3)),
        ("arXiv preprint arXiv:2401.12345,", ("2401.12345", None)),
        ("arXiv preprint arXiv:hep-th/9901001v2 [hep-th];", ("hep-th/9901001", 2)),
        ("arXiv 2401.12345", ("2401.12345", None)),
        ("(arXiv:2401.12345v2 [cs.LG]);", ("2401.12345", 2)),
        ("[2401.12345]", ("2401.12345", None)),
        ('"2401.12345"', ("2401.12345", None)),
        ("'math.GT/0309136',", ("math/0309136", None)),
        ("\u201c2401.12345\u201d", ("2401.12345", None)),
        ("\u00ab2401.12345\u00bb.", ("2401.12345", None)),
        ("`2401.12345`", ("2401.12345", None)),
        ("<https://arxiv.org/abs/2401.12345v2>", ("2401.12345", 2)),
        ("https://arxiv.org/abs/2401.12345).", ("2401.12345", None)),
        ("https://arxiv.org/pdf/2401.12345v4.pdf,", ("2401.12345", 4)),
        ("HTTPS://ARXIV.ORG/ABS/2401.12345", ("2401.12345", None)),
        ("https://Export.ArXiv.org./abs/hep-th/9901001", ("hep-th/9901001", None)),
        ("https://doi.org/10.48550/arXiv.2401.12345.", ("2401.12345", None)),
        ("\uff12\uff14\uff10\uff11.\uff11\uff12\uff13\uff14\uff15", ("2401.12345", None)),
    ],
)
def test_pasted_forms(text, expected):
    pid = parse(text)
    assert (pid.id, pid.version) == expected


@pytest.mark.parametrize(
    "text, why",
    [
        ("\u0662\u0664\u0660\u0661.\u0661\u0662\u0663\u0664\u0665", "U+0662"),
        ("2401.\u0967\u0968\u0969\u096a\u096b", "U+0967"),
        ("2413.12345", "month 13"),
        ("2400.12345", "month 00"),
        ("0000.0000", "month 00"),
        ("0612.1234", "April 2007"),
        ("hep-th/9913001", "month 13"),
        ("hep-th/9900001", "month 00"),
        ("hep-th/1201001", "9108 to 0703"),
        ("hep-th/9901001v0", "v1"),
        ("2401.12345v0", "v1"),
    ],
)
def test_impossible_ids_are_refused_with_the_reason(text, why):
    with pytest.raises(InvalidInput) as err:
        parse(text)
    assert why in str(err.value)


def test_versioned_old_style_ids_go_on_the_wire_with_their_version():
    """The current API answers id_list=hep-ex/0406020v1 with the v1 entry (2026 recordings)."""
    assert parse("hep-th/9901001v2").wire_id == "hep-th/9901001v2"
    assert parse("math.GT/0309136v1").wire_id == "math/0309136v1"
    assert parse("2401.12345v2").wire_id == "2401.12345v2"
    assert parse("hep-th/9901001").wire_id == "hep-th/9901001"


def test_url_builders_use_configured_bases():
    urls = Urls("http://127.0.0.1:9/", "http://127.0.0.1:9/ar5iv")
    pid = PaperId("hep-th/9901001", 2)
    assert urls.abs(pid) == "http://127.0.0.1:9/abs/hep-th/9901001v2"
    assert urls.pdf(pid) == "http://127.0.0.1:9/pdf/hep-th/9901001v2"
    assert urls.html(pid) == "http://127.0.0.1:9/html/hep-th/9901001v2"
    assert urls.source(pid) == "http://127.0.0.1:9/e-print/hep-th/9901001v2"
    assert urls.ar5iv(PaperId("1706.03762")) == "http://127.0.0.1:9/ar5iv/html/1706.03762"


@pytest.mark.parametrize(
    "pasted, canonical",
    [
        ("[arXiv:2503.04338](https://www.arxiv.org/abs/2503.04338).", "2503.04338"),
        ("[see the paper](https://arxiv.org/pdf/2503.04338v2)", "2503.04338v2"),
        ("[arXiv:2503.04338](https://example.org/talk),", "2503.04338"),
        ("arXiv:2301.11163v1 [cs.LG] 26 Jan 2023", "2301.11163v1"),
        ("arXiv:hep-th/9901001v1  1 Jan 1999", "hep-th/9901001v1"),
        ("https://huggingface.co/papers/2503.04338", "2503.04338"),
        ("huggingface.co/papers/2503.04338#community", "2503.04338"),
        ("https://www.alphaxiv.org/overview/2503.04338v2", "2503.04338v2"),
        ("https://www.semanticscholar.org/arxiv/2503.04338", "2503.04338"),
        ("https://scholar.archive.org/search?q=arxiv:2301.11163", "2301.11163"),
        ("https://web.archive.org/web/20230101000000/https://arxiv.org/abs/hep-th/9901001v2", "hep-th/9901001v2"),
    ],
)
def test_round_three_forms(pasted, canonical):
    assert str(parse(pasted)) == canonical


@pytest.mark.parametrize(
    "pasted, why",
    [
        ("https://paperswithcode.com/paper/attention-is-all-you-need", "carries no arXiv id"),
        ("https://huggingface.co/papers", "carries no arXiv id"),
        ("[a talk](https://example.org/talk)", "not an arXiv address"),
        ("https://alphaxiv.org/abs/2413.00001", "month 13"),
    ],
)
def test_pages_without_a_valid_id_are_refused_saying_why(pasted, why):
    with pytest.raises(InvalidInput, match=why):
        parse(pasted)


def test_a_batch_keeps_the_valid_ids_and_lists_the_others():
    good, bad = parse_many(["2401.12345", "nope", "2401.12345v1", "2401.12345", "2413.00001"])
    assert [str(p) for p in good] == ["2401.12345", "2401.12345v1"]
    assert len(bad) == 2 and bad[0].startswith("'nope': ") and "month 13" in bad[1]
    with pytest.raises(InvalidInput, match="nope"):
        parse_many(["nope"])


@pytest.mark.parametrize(
    ("paper_id", "version"),
    [("../x", 1), ("2401.12345v2", None), ("2401.12345/../../x", 1), ("HEP-TH/9901001", 1), ("2401.12345", 0)],
)
def test_a_paper_id_made_from_parts_is_checked_when_made(paper_id, version):
    """A PaperId is the key the cache names files after: one made outside `parse` is checked."""
    with pytest.raises(ValueError):
        PaperId(paper_id, version)


def test_parse_and_with_version_make_the_same_keys_as_the_constructor():
    pid = parse("arXiv:2401.12345v2")
    assert pid == PaperId("2401.12345", 2) and hash(pid) == hash(PaperId("2401.12345", 2))
    assert pid.with_version(None) == PaperId("2401.12345") and pid.with_version(7).version == 7
    with pytest.raises(ValueError):
        pid.with_version(0)
