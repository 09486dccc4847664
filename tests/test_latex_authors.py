"""Author blocks read like the PDF's: one list, no empty items (`,,`) whatever separates the
names (\\and, \\AND, \\And, IEEEtran's blocks, line breaks, marks, empty \\thanks)."""

from __future__ import annotations

import pytest

from arxiv_mcp.text.latex.convert import latex_to_text

BODY = r"\begin{document}\maketitle\begin{abstract}X.\end{abstract}\section{S}Body.\end{document}"


def front(preamble: str) -> str:
    text = latex_to_text({"main.tex": (preamble + BODY).encode()})
    return text.split("## Abstract")[0]


def test_space_between_names_separates_them():
    text = front(r"\documentclass{article}\title{T}\author{A. One$^{1}$ \quad B. Two$^{2}$ \\ $^1$Uni \quad $^2$Lab}")
    assert "\n\nA. One$^{1}$, B. Two$^{2}$, $^1$Uni, $^2$Lab\n\n" in text


@pytest.mark.parametrize(
    ("preamble", "expected"),
    [
        (r"\documentclass{article}\title{T}\author{A. One\thanks{} \and B. Two\thanks{Funded.}}", "A. One, B. Two"),
        (
            r"\documentclass{IEEEtran}\title{T}\author{\IEEEauthorblockN{A. One\IEEEauthorrefmark{1}, "
            r"B. Two\IEEEauthorrefmark{2}}\IEEEauthorblockA{\IEEEauthorrefmark{1}Uni One, City}"
            r"\and\IEEEauthorblockN{C. Three}\IEEEauthorblockA{Uni Two}}",
            "A. One$^{1}$, B. Two$^{2}$, $^{1}$Uni One, City, C. Three, Uni Two",
        ),
        (
            r"\documentclass{article}\title{T}\author{A. One\footnotemark[1] \and B. Two\footnotemark[2] \and}",
            "A. One, B. Two",
        ),
        (
            r"\documentclass{article}\title{T}\author{A. One \\ Uni One \And B. Two \\ Uni Two \AND C. Three}",
            "A. One, Uni One, B. Two, Uni Two, C. Three",
        ),
        (
            r"\documentclass{article}\title{T}\author{A. One$^{1}$, B. Two$^{2}$, \\ $^1$Uni One, \\ $^2$Uni Two}",
            "A. One$^{1}$, B. Two$^{2}$, $^1$Uni One, $^2$Uni Two",
        ),
        (r"\documentclass{article}\title{T}\author{A. One, \and B. Two, \\ \and C. Three}", "A. One, B. Two, C. Three"),
    ],
)
def test_author_lists_have_no_empty_items(preamble, expected):
    text = front(preamble)
    assert f"\n\n{expected}\n\n" in text
    assert ",," not in text and ", ," not in text


def test_an_affiliation_with_its_own_marks_is_printed_as_written():
    text = front(
        r"\documentclass{revtex4-2}\title{T}\author{A. One$^1$ and B. Two$^2$}"
        r"\affiliation{$^1$ Lab One, City\\ $^2$ Lab Two, Town}"
    )
    assert "A. One$^1$ and B. Two$^2$\n\n$^1$ Lab One, City, $^2$ Lab Two, Town\n\n" in text
