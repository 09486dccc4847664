"""arxiv_mcp.words: the one stop-word list and plural rule every search uses."""

from __future__ import annotations

import pytest

from arxiv_mcp import words
from arxiv_mcp.research import local_search
from arxiv_mcp.text import view
from arxiv_mcp.upstream import query


@pytest.mark.parametrize(
    "plural, one",
    [("models", "model"), ("queries", "query"), ("boxes", "box"), ("classes", "class"), ("batches", "batch")],
)
def test_plurals_fold(plural, one):
    assert words.singular(plural) == one


@pytest.mark.parametrize("word", ["bus", "analysis", "class", "corpus", "is", "gas"])
def test_what_is_not_a_plural_stays(word):
    assert words.singular(word) == word


def test_every_search_uses_the_same_list():
    assert query.STOPWORDS is words.STOPWORDS is local_search.STOPWORDS
    assert {"the", "of", "however", "using"} <= words.STOPWORDS


def test_in_paper_search_and_the_index_agree_on_plurals():
    assert local_search.tokenize("Queries over boxes") == ["query", "box"]
    assert view._word_pattern("queries").search("one query here")
