"""Author blocks read like the PDF's: one list, no empty items (`,,`) whatever separates the
names (\\and, \\AND, \\And, IEEEtran's blocks, line breaks, marks, empty \\thanks)."""

from __future__ import annotations

import re

import pytest

from arxiv_mcp.text.latex.convert import latex_to_text

BODY = r"\begin{document}\maketitle\begin{abstract}X.\end{abstract}\section{S}Body.\end{document}"


def main_only(tex: str) -> str:
    """The text of an e-print whose one file is `main.tex`."""
    return latex_to_text({"main.tex": tex.encode()})


def front(preamble: str) -> str:
    return main_only(preamble + BODY).split("## Abstract")[0]


def test_space_between_names_separates_them():
    text = front(r"\documentclass{article}\title{T}\author{A. One$^{1}$ \quad B. Two$^{2}$ \\ $^1$Uni \quad $^2$Lab}")
    assert "\n\nA. One$^{1}$, B. Two$^{2}$, $^1$Uni, $^2$Lab\n\n" in text


@pytest.mark.parametrize(
    ("preamble", "expected", "absent"),
    [
        (r"\documentclass{article}\title{T}\author{A. One\thanks{} \and B. Two\thanks{Funded.}}", "A. One, B. Two", ()),
        (
            r"\documentclass{IEEEtran}\title{T}\author{\IEEEauthorblockN{A. One\IEEEauthorrefmark{1}, "
            r"B. Two\IEEEauthorrefmark{2}}\IEEEauthorblockA{\IEEEauthorrefmark{1}Uni One, City}"
            r"\and\IEEEauthorblockN{C. Three}\IEEEauthorblockA{Uni Two}}",
            "A. One$^{1}$, B. Two$^{2}$, $^{1}$Uni One, City, C. Three, Uni Two",
            (),
        ),
        (
            r"\documentclass{article}\title{T}\author{A. One\footnotemark[1] \and B. Two\footnotemark[2] \and}",
            "A. One, B. Two",
            (),
        ),
        (
            r"\documentclass{article}\title{T}\author{A. One \\ Uni One \And B. Two \\ Uni Two \AND C. Three}",
            "A. One, Uni One, B. Two, Uni Two, C. Three",
            (),
        ),
        (
            r"\documentclass{article}\title{T}\author{A. One$^{1}$, B. Two$^{2}$, \\ $^1$Uni One, \\ $^2$Uni Two}",
            "A. One$^{1}$, B. Two$^{2}$, $^1$Uni One, $^2$Uni Two",
            (),
        ),
        (
            r"\documentclass{article}\title{T}\author{A. One, \and B. Two, \\ \and C. Three}",
            "A. One, B. Two, C. Three",
            (),
        ),
        # aastex: the optional argument is the author's ORCID, printed as an icon
        (
            r"\documentclass{aastex631}\title{T}\author[0000-0002-5077-881X]{J. Wu}\affiliation{Uni A}",
            "J. Wu$^{1}$",
            ("0000-",),
        ),
        # amsart: the optional argument is the short name of the running head
        (r"\documentclass{amsart}\title{T}\author[A. One]{Alice One}\address{Uni A}", "Alice One$^{1}$", ("A. One",)),
    ],
)
def test_author_lists_have_no_empty_items_nor_stray_arguments(preamble, expected, absent):
    text = front(preamble)
    assert f"\n\n{expected}\n\n" in text
    assert [part for part in (",,", ", ,", *absent) if part in text] == []


def test_an_affiliation_with_its_own_marks_is_printed_as_written():
    text = front(
        r"\documentclass{revtex4-2}\title{T}\author{A. One$^1$ and B. Two$^2$}"
        r"\affiliation{$^1$ Lab One, City\\ $^2$ Lab Two, Town}"
    )
    assert "A. One$^1$ and B. Two$^2$\n\n$^1$ Lab One, City, $^2$ Lab Two, Town\n\n" in text


def test_separators_written_between_author_commands_are_not_an_empty_list():
    """Old elsart-style front matter puts a comma after each \\author command; the names are
    already one list, so the commas alone print nothing of their own."""
    text = front(
        r"\documentclass{elsart}\title{T}\author[A,B]{A. One},\author[B]{B. Two},\author[A]{C. Three}"
        r"\address[A]{Uni A}\address[B]{Lab B}"
    )
    assert "A. One$^{A,B}$, B. Two$^{B}$, C. Three$^{A}$" in text
    assert not re.search(r"^[ ,;.]+$", text, re.M)


@pytest.mark.parametrize("size", ["small", "large", "footnotesize", "bf", "it"])
def test_a_styles_own_font_size_definitions_print_nothing(size):
    """Old conference styles redefine the size commands with LaTeX 2.09 internals
    (`\\@setsize\\small{10pt}\\ixpt\\@ixpt`): a size or font switch prints no text."""
    files = {
        "main.tex": (r"\documentclass{article}\usepackage{conf}\title{T}\author{A. One \\ {\SIZE a@b.org}}" + BODY)
        .replace("SIZE", size)
        .encode(),
        "conf.sty": (
            r"\makeatletter\def\SIZE{\@setsize\SIZE{10pt}\ixpt\@ixpt}\renewcommand{\large}{\@setsize\large{14pt}\xiipt\@xiipt}"
            r"\def\bf{\protect\pbf}\def\it{\protect\pit}\makeatother"
        )
        .replace("SIZE", size)
        .encode(),
    }
    text = latex_to_text(files)
    assert "A. One, a@b.org" in text
    assert "10pt" not in text and "14pt" not in text and "pbf" not in text and "pit" not in text


def test_icml_author_list_reads_as_names_marked_by_affiliation():
    """ICML's title block sits in \\twocolumn[...]; \\icmlauthor{Name}{keys} marks each name with
    its affiliations' numbers (in order of first use) or the symbol \\icmlsetsymbol gives a key."""
    block = r"""\twocolumn[
\icmltitle{A Model Paper}
\icmlsetsymbol{equal}{*}
\begin{icmlauthorlist}
\icmlauthor{A. One}{equal,lab}
\icmlauthor{B. Tw\'o}{uni,lab}
\end{icmlauthorlist}
\icmlaffiliation{lab}{Lab A, City}
\icmlaffiliation{uni}{Uni B}
\icmlkeywords{models}
\vskip 0.3in
]
\begin{abstract}X.\end{abstract}\section{S}Body."""
    text = main_only(r"\documentclass{article}\begin{document}" + block + r"\end{document}")
    assert text.startswith(
        "# A Model Paper\n\nA. One$^{*,1}$, B. Twó$^{2,1}$\n\n$^{1}$Lab A, City; $^{2}$Uni B\n\n## Abstract"
    )


def test_ieeetran_author_blocks_read_alike_when_the_eprint_ships_ieeetran_cls():
    """IEEEtran.cls defines \\IEEEauthorblockN for each of its modes, the last one plainly `#1`:
    a shipped class's definition is not the paper's, and the blocks keep their separators."""
    files = {
        "main.tex": (
            r"\documentclass[conference]{IEEEtran}\title{T}\author{\IEEEauthorblockN{A. One$^*$}"
            "\n"
            r"\IEEEauthorblockA{\emph{Uni One}\\ a@one.org}\and\IEEEauthorblockN{B. Two}\IEEEauthorblockA{Uni Two}}"
            + BODY
        ).encode(),
        "IEEEtran.cls": (
            rb"\def\IEEEauthorblockN#1{\relax\@IEEEauthorblockNstyle #1 \@IEEEauthorblockXinterlinespace}"
            rb"\ifCLASSOPTIONcompsoc\def\IEEEauthorblockN#1{#1}\def\IEEEauthorblockA#1{#1}\fi"
        ),
    }
    text = latex_to_text(files)
    assert "\n\nA. One$^*$, Uni One, a@one.org, B. Two, Uni Two\n\n" in text


@pytest.mark.parametrize(
    ("tex", "present", "absent"),
    [
        # Elsevier's cas classes take the ORCID in a trailing optional argument after the name
        pytest.param(
            r"\documentclass{cas-dc}\begin{document}\title{T}\author[1]{A. One}[orcid=0000-0001-6916-2233]"
            "\n"
            r"\ead{a@b.org}\affiliation[1]{Uni A}\begin{abstract}X.\end{abstract}\maketitle\section{S}B.\end{document}",
            "\n\nA. One$^{1}$\n\n",
            ("orcid", "0000-"),
            id="cas-orcid-after-the-name",
        ),
        pytest.param(
            r"\documentclass{elsarticle}\title{T}\author[1]{A. One}"
            r"\affiliation[1]{organization={Physics Department, Uni A}, addressline={Main St 1},"
            r" city={Garching}, postcode={D-85748}, state={Bavaria}, country={Germany}}" + BODY,
            "$^{1}$Physics Department, Uni A, Main St 1, Garching, D-85748, Bavaria, Germany",
            ("=",),
            id="elsarticle-key-value-affiliation",
        ),
        pytest.param(
            r"\documentclass[useAMS]{mnras}\usepackage{jheppub}\title{T}\pagerange{\pageref{firstpage}--\pageref{lastpage}}"
            r"\pubyear{2012}\author[a]{A. One,\note{ORCID: 0000-0003-4186-4182}}\affiliation[a]{Uni A}" + BODY,
            "\n\nA. One$^{a}$\n\n$^{a}$Uni A\n\n[^ORCID: 0000-0003-4186-4182]\n\n",
            ("2012", "??"),
            id="jhep-note-and-mnras-running-head",
        ),
        pytest.param(
            r"\documentclass[acmsmall]{acmart}\title{T}\author{A. One}\affiliation{\institution{Newcastle University}"
            r"\city{Newcastle}\country{United Kingdom}}\email{a@b.org}\begin{abstract}X.\end{abstract}"
            r"\begin{CCSXML}<ccs2012><concept><concept_id>10011007</concept_id></concept></ccs2012>\end{CCSXML}"
            r"\begin{document}\maketitle\section{S}Body.\end{document}",
            "$^{1}$Newcastle University, Newcastle, United Kingdom\n",
            ("ccs2012", "concept"),
            id="acmart-affiliation-parts-and-ccs-xml",
        ),
    ],
)
def test_a_classes_title_page_commands_print_their_text_and_nothing_else(tex, present, absent):
    text = main_only(tex)
    assert present in text
    assert [part for part in absent if part in text] == []
