"""The one Roman-numeral codec: LaTeX's numbering writes with it, the outline reads with it."""

from hypothesis import given
from hypothesis import strategies as st

from arxiv_mcp.text.outline import other_numeral
from arxiv_mcp.text.roman import from_roman, to_roman


@given(st.integers(min_value=1, max_value=4999))
def test_every_number_reads_back(number):
    assert from_roman(to_roman(number)) == number
    assert from_roman(to_roman(number).lower()) == number


def test_the_numerals_papers_print():
    assert [to_roman(n) for n in (1, 4, 9, 14, 40, 90, 1994)] == ["I", "IV", "IX", "XIV", "XL", "XC", "MCMXCIV"]
    assert to_roman(0) == "0"
    assert from_roman("") is None and from_roman("IVa") is None and from_roman("B") is None


def test_a_section_number_has_its_other_form():
    assert other_numeral("4.2") == "IV.2" and other_numeral("IV.A") == "4.A"
    assert other_numeral("xii") == "12" and other_numeral("D") is None and other_numeral("40") is None
