"""The one Roman-numeral codec: LaTeX's numbering writes with it, the printed-number comparison reads with it."""

from hypothesis import given
from hypothesis import strategies as st

from arxiv_mcp.text.numbers import roman_value
from arxiv_mcp.text.roman import from_roman, to_roman


@given(st.integers(min_value=1, max_value=4999))
def test_every_number_reads_back(number):
    assert from_roman(to_roman(number)) == number
    assert from_roman(to_roman(number).lower()) == number


def test_the_numerals_papers_print():
    assert [to_roman(n) for n in (1, 4, 9, 14, 40, 90, 1994)] == ["I", "IV", "IX", "XIV", "XL", "XC", "MCMXCIV"]
    assert to_roman(0) == "0"
    assert from_roman("") is None and from_roman("IVa") is None and from_roman("B") is None


def test_a_printed_number_token_reads_as_roman_only_when_written_the_usual_way():
    assert [roman_value(t) for t in ("iv", "xii", "xc", "c")] == [4, 12, 90, 100]
    assert roman_value("iiii") is None and roman_value("a") is None and roman_value("IV") is None
