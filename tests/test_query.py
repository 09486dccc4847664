from datetime import date, timedelta

import pytest

from arxiv_mcp.errors import InvalidInput
from arxiv_mcp.upstream import query as q


def compose(category_clause=None, **kw):
    return q.compose(q.SearchFilters(**kw), category_clause)


def test_plain_words_are_anded_without_stopwords():
    c = compose(query="the attention of transformers")
    assert c.search_query == "(all:attention AND all:transformers)"


def test_all_stopwords_become_a_phrase():
    assert compose(query="to be or not to be").search_query == 'all:"to be or not to be"'


def test_quoted_phrase_kept_with_stopwords():
    assert compose(query='"state of the art" graphs').search_query == '(all:"state of the art" AND all:graphs)'


def test_advanced_syntax_passes_through_parenthesised():
    assert compose(query="ti:quantum OR au:smith").search_query == "(ti:quantum OR au:smith)"


def test_category_first_and_everything_parenthesised():
    c = compose(
        query="neural networks",
        category_clause="cat:cs.LG",
        author="Yann LeCun",
        title="convolution",
        date_from="2020-01-01",
        date_to="2020-12-31",
    )
    assert c.search_query == (
        'cat:cs.LG AND au:"Yann LeCun" AND ti:convolution AND '
        "submittedDate:[202001010000 TO 202012312359] AND "
        "(all:neural AND all:networks)"
    )


def test_relaxed_form_for_long_plain_queries():
    c = compose(query="sparse attention long document summarization")
    assert " AND " in c.search_query and c.relaxed and " OR " in c.relaxed


@pytest.mark.parametrize(
    "kw",
    [
        {"date_from": "2020-13-01"},
        {"date_from": "20200101"},
        {"date_to": "yesterday"},
        {"date_from": "2021-01-01", "date_to": "2020-01-01"},
        {"date_to": (date.today() + timedelta(days=3)).isoformat()},
    ],
)
def test_bad_dates(kw):
    with pytest.raises(InvalidInput):
        compose(query="x", **kw)


def test_nothing_to_search_for():
    with pytest.raises(InvalidInput):
        compose(query="   ")


def test_search_filters_any():
    assert not q.SearchFilters().any()
    assert not q.SearchFilters(query="", author=None).any()
    assert q.SearchFilters(date_to="2024-01-01").any()
