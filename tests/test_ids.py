import pytest

from arxiv_mcp.errors import InvalidInput
from arxiv_mcp.ids import PaperId, Urls, parse


@pytest.mark.parametrize(
    "text, expected",
    [
        ("2401.12345", ("2401.12345", None)),
        ("2401.12345v2", ("2401.12345", 2)),
        ("0704.0001", ("0704.0001", None)),
        ("  arXiv:2401.12345V3 ", ("2401.12345", 3)),
        ("ARXIV:0704.0001", ("0704.0001", None)),
        ("hep-th/9901001", ("hep-th/9901001", None)),
        ("math.GT/0309136", ("math.GT/0309136", None)),
        ("math.gt/0309136v1", ("math.GT/0309136", 1)),
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


def test_old_style_version_is_dropped_on_the_wire_only():
    pid = parse("hep-th/9901001v2")
    assert pid.wire_id == "hep-th/9901001"
    assert pid.versioned == "hep-th/9901001v2"
    assert parse("2401.12345v2").wire_id == "2401.12345v2"


def test_url_builders_use_configured_bases():
    urls = Urls("http://127.0.0.1:9/", "http://127.0.0.1:9/ar5iv")
    pid = PaperId("hep-th/9901001", 2)
    assert urls.abs(pid) == "http://127.0.0.1:9/abs/hep-th/9901001v2"
    assert urls.pdf(pid) == "http://127.0.0.1:9/pdf/hep-th/9901001v2"
    assert urls.html(pid) == "http://127.0.0.1:9/html/hep-th/9901001v2"
    assert urls.source(pid) == "http://127.0.0.1:9/e-print/hep-th/9901001v2"
    assert urls.ar5iv(PaperId("1706.03762")) == "http://127.0.0.1:9/ar5iv/html/1706.03762"
