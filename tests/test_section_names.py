"""read_paper's `section` is the same section however a model spells it: `2` or `section:2`,
any case, with or without the heading's number, singular or plural."""

from __future__ import annotations

import pytest

from arxiv_mcp.errors import InvalidInput
from arxiv_mcp.text.view import outline, render_outline, select_section

PAPER = "\n\n".join(
    [
        "# Graph Transformers",
        "## Abstract",
        "We study graph transformers.",
        "## 1 Introduction",
        "Graphs are everywhere.",
        "## 2 Related Works",
        "Message passing came first.",
        "## 3 Experiment",
        "We ran one experiment.",
        "## 6 Conclusion",
        "It works.",
        "## Appendix: Proofs of the Theories",
        "Proof.",
    ]
)


@pytest.mark.parametrize("n", range(1, 8))
def test_a_bare_number_is_the_same_section_as_section_n(n):
    assert select_section(PAPER, str(n)) == select_section(PAPER, f"section:{n}")
    assert select_section(PAPER, f" Section : {n} ") == select_section(PAPER, f"section:{n}")


def test_the_number_is_the_one_the_outline_shows():
    listed = render_outline(outline(PAPER)).splitlines()
    for line in listed:
        number, title = line.split(". ", 1)
        assert select_section(PAPER, number)[0].title == title.strip().rsplit(" (", 1)[0]


@pytest.mark.parametrize(
    "name, title",
    [
        ("Conclusions", "6 Conclusion"),
        ("conclusion", "6 Conclusion"),
        ("6 CONCLUSIONS", "6 Conclusion"),
        ("experiments", "3 Experiment"),
        ("Related Work", "2 Related Works"),
        ("related works", "2 Related Works"),
        ("2 related work", "2 Related Works"),
        ("proof of the theory", "Appendix: Proofs of the Theories"),
        ("INTRODUCTIONS", "1 Introduction"),
    ],
)
def test_names_match_across_case_numbering_and_plural(name, title):
    assert select_section(PAPER, name)[0].title == title


def test_a_number_past_the_outline_says_how_many_there_are():
    with pytest.raises(InvalidInput, match="section:1 to section:7"):
        select_section(PAPER, "8")
