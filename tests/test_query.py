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


@pytest.mark.parametrize(
    "query, sent",
    [
        ("transformers NOT vision", "(all:transformers ANDNOT all:vision)"),
        ("transformers AND NOT vision", "(all:transformers ANDNOT all:vision)"),
        ("ti:graph not au:smith", "(ti:graph ANDNOT au:smith)"),
        ("ti:graph and not au:smith", "(ti:graph ANDNOT au:smith)"),
        ("ti:graph and au:smith", "(ti:graph AND au:smith)"),
        ("ti:graph or au:smith", "(ti:graph OR au:smith)"),
        ("transformers ti:attention", "(all:transformers AND ti:attention)"),
        ("ti:attention au:vaswani", "(ti:attention AND au:vaswani)"),
        ("ti:(quantum gravity) ANDNOT au:smith", "(ti:(quantum AND gravity) ANDNOT au:smith)"),
        (
            "au:del_maestro ANDNOT (ti:checkerboard OR ti:Pyrochlore)",
            "(au:del_maestro ANDNOT (ti:checkerboard OR ti:Pyrochlore))",
        ),
        ('the ti:"state of the art"', '(ti:"state of the art")'),
        ("cats and dogs ti:pets", "(all:cats AND all:dogs AND ti:pets)"),
    ],
)
def test_advanced_queries_are_read_as_the_tool_promises(query, sent):
    assert compose(query=query).search_query == sent


@pytest.mark.parametrize("query", ["NOT vision", "ti:x OR NOT ti:y", "ti:x AND", "(NOT ti:y)"])
def test_operators_without_terms_are_clear_errors(query):
    with pytest.raises(InvalidInput):
        compose(query=query)


def test_lower_case_operator_words_among_plain_words_are_words():
    assert compose(query="models that do not forget").search_query == "(all:models AND all:forget)"


@pytest.mark.parametrize(
    "typed, sent",
    [
        ("transformers -vision", "(all:transformers ANDNOT all:vision)"),
        ('graph -"computer vision" -images', '(all:graph ANDNOT (all:"computer vision" OR all:images))'),
        ("state-of-the-art models", "(all:state-of-the-art AND all:models)"),
        ("ti:transformers -vision", "(ti:transformers ANDNOT all:vision)"),
        ("ti:x -au:smith", "(ti:x ANDNOT au:smith)"),
        ('ti:"a -b" AND au:c', '(ti:"a -b" AND au:c)'),
    ],
)
def test_a_leading_minus_excludes(typed, sent):
    assert q.compose(q.SearchFilters(query=typed)).search_query == sent


@pytest.mark.parametrize("typed", ["-vision", '-"computer vision"', "-ti:x"])
def test_only_excluded_terms_are_refused(typed):
    with pytest.raises(InvalidInput):
        q.compose(q.SearchFilters(query=typed))


def test_two_words_that_match_nothing_are_retried_or_ed():
    assert q.compose(q.SearchFilters(query="graph walrus")).relaxed == "(all:graph OR all:walrus)"
