"""read_paper's `section` is the same section however a model spells it: the number the paper
prints (`2`, `Section 2`, `§2`, `II.A`, `Appendix B`), its outline position (`section:2`,
`[s2]`), or its name in any case, with or without the number, singular or plural."""

from __future__ import annotations

import pytest

from arxiv_mcp.errors import InvalidInput
from arxiv_mcp.text.outline import outline, render_outline, select_section

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


@pytest.mark.parametrize(
    "selector, title",
    [
        ("1", "1 Introduction"),
        ("2", "2 Related Works"),
        ("6", "6 Conclusion"),
        ("Section 3", "3 Experiment"),
        ("sec. 3", "3 Experiment"),
        ("Sec 6", "6 Conclusion"),
        ("§2", "2 Related Works"),
        ("section 1", "1 Introduction"),
    ],
)
def test_a_number_is_the_heading_printed_with_it(selector, title):
    """Not the N-th outline line: "4" was "2 Related Work" and "1" the whole paper (issue 21)."""
    assert select_section(PAPER, selector)[0].title == title


@pytest.mark.parametrize("n", range(1, 8))
def test_positions_are_section_n_as_the_outline_shows_them(n):
    assert select_section(PAPER, f"section:{n}") == select_section(PAPER, f"[s{n}]")
    assert select_section(PAPER, f" Section : {n} ")[0].number == n


def test_the_position_is_the_one_the_outline_shows():
    listed = render_outline(outline(PAPER)).splitlines()
    for line in listed:
        position, title = line.split("] ", 1)
        assert select_section(PAPER, position + "]")[0].title == title.strip().rsplit(" (", 1)[0]


@pytest.mark.parametrize("missing", ["4", "Section 5", "7.1", "IV", "Appendix B"])
def test_a_number_the_paper_lacks_lists_the_numbers_it_has(missing):
    with pytest.raises(InvalidInput, match="Its section numbers: 1, 2, 3, 6") as caught:
        select_section(PAPER, missing)
    assert "section:N" in str(caught.value)


def test_a_paper_without_numbers_says_so():
    with pytest.raises(InvalidInput, match="prints no section numbers"):
        select_section("## Intro\n\nx\n\n## Method\n\ny", "2")


REVTEX = "\n\n".join(
    ["# T", "## I. Introduction", "a", "## II Model", "b", "### II.A Setup", "c", "## Appendix B: Proofs", "d"]
)


@pytest.mark.parametrize(
    "selector, title",
    [
        ("II", "II Model"),
        ("II.A", "II.A Setup"),
        ("ii.a", "II.A Setup"),
        ("2", "II Model"),
        ("Section 1", "I. Introduction"),
        ("Appendix B", "Appendix B: Proofs"),
    ],
)
def test_roman_and_appendix_numbers(selector, title):
    assert select_section(REVTEX, selector)[0].title == title


def test_a_section_name_made_of_roman_letters_is_still_a_name():
    assert select_section("## Civil law\n\nx\n\n## Civil\n\ny", "civil")[0].title == "Civil"


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


def test_a_position_past_the_outline_says_how_many_there_are():
    with pytest.raises(InvalidInput, match="section:1 to section:7"):
        select_section(PAPER, "section:8")


def test_heading_lines_read_a_line_as_the_shared_heading_pattern_does():
    """outline.heading_lines reads heading lines with its own, faster pattern: the same lines,
    levels and titles as shape.HEADING_RE (lines made of hashes, blanks, CRs, letters)."""
    import random

    from arxiv_mcp.text.outline import heading_lines
    from arxiv_mcp.text.shape import HEADING_RE, is_page_title

    rng = random.Random(33)
    pieces = ["#", "#", " ", "\t", "\r", "a", "B", "Page 1", "\n", "x y", "  "]
    for _ in range(20000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        match = HEADING_RE.match(text, 0)
        expected = [(0, len(match.group(1)), match.group(2))] if match else []
        expected = [line for line in expected if not is_page_title(line[2])]
        assert heading_lines(text, [0]) == expected, repr(text)
