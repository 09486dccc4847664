"""The paper's definitions (`text.latex.definitions`): the macros, aliases, float names and DOI
prefix read in one scan of the source, and what the walk needs, read from its tokens:
theorem-like environments kept as data, counters numbered within a unit, etoolbox's toggles."""

from __future__ import annotations

from arxiv_mcp.text.latex.convert import latex_to_text
from arxiv_mcp.text.latex.definitions import (
    Definition,
    Definitions,
    TheoremKind,
    defined_float_names,
    definitions,
    doi_prefix,
    environment_aliases,
    written,
)
from arxiv_mcp.text.latex.tokens import tokenize


def read(tex: str, *, preamble: bool = True) -> Definitions:
    return Definitions().read(tokenize(tex, {}), preamble=preamble)


def test_newtheorem_is_kept_as_data_with_its_counter_and_unit():
    found = read(
        r"\newtheorem{thm}{Theorem}[section] \newtheorem{lem}[thm]{Lemma} \newtheorem*{rem}{Remark}"
        r" \newtheorem {conj} {Main~Conjecture}"
    ).theorems
    assert found["thm"] == TheoremKind("Theorem", "thm", "section")
    assert found["lem"] == TheoremKind("Lemma", "thm", "section")  # shares thm's counter and unit
    assert found["rem"] == TheoremKind("Remark") and not found["rem"].numbered
    assert found["conj"] == TheoremKind("Main Conjecture", "conj")  # `~` prints a space
    assert found["proof"] == TheoremKind("Proof")  # the common names stand in, proof unnumbered


def test_a_label_that_is_not_plain_text_defines_nothing():
    found = read(r"\newtheorem{thm}{\bf Theorem} \newtheorem{eq}{Eq. $x$}").theorems
    assert "thm" not in found and "eq" not in found


def test_counters_within_a_unit_in_the_order_latex_lets_them_override():
    tex = (
        r"\renewcommand{\thetable}{\thechapter.\arabic{table}} \numberwithin{equation}{section}"
        r" \counterwithin*[x]{figure}{subsection} \counterwithout{equation}"
    )
    assert read(tex).within == {"table": "chapter", "figure": "subsection", "equation": ""}
    assert read(tex, preamble=False).within == {}


def test_toggles_as_the_source_last_sets_them():
    tex = r"\toggletrue{draft} \setbool{final}{true} \togglefalse{draft} \settoggle{x}{maybe} \booltrue{a b}"
    assert read(tex, preamble=False).toggles == {"draft": False, "final": True}


def test_one_scan_of_the_source_gives_every_view_of_its_definitions():
    found = written(
        r"\newcommand{\beq}{\begin{equation}}\def\eeq{\end{equation}}"
        r"\renewcommand{\figurename}{Fig.}\newcommand\tablename{Tab.}"
        r"\providecommand{\doi}[1]{\url{https://doi.org/#1}}"
        r"\newcommand{\sig}[2][x]{\sigma_{#1#2}}\newcommand{\sig}{ignored}\def\d#1.{delimited}"
    )
    assert [one.name for one in found] == ["beq", "eeq", "figurename", "tablename", "doi", "sig", "sig", "d"]
    assert environment_aliases(found) == {"beq": ("begin", "equation"), "eeq": ("end", "equation")}
    assert list(defined_float_names(found)) == [("Figure", "Fig."), ("Table", "Tab.")]
    assert doi_prefix(found) == "https://doi.org/"
    macros = definitions(found, frozenset({"doi"}))
    assert macros["sig"] == Definition(2, "x", r"\sigma_{#1#2}")  # \newcommand does not replace it
    assert macros["d"] is None and "doi" not in macros  # delimited: unusable; protected: not collected


def test_declared_math_operators_print_as_latex_can_read_them():
    tex = (
        r"\documentclass{article}\DeclareMathOperator{\Tr}{Tr}\DeclareMathOperator*{\argmax}{arg\,max}"
        r"\begin{document}We have $\Tr(A) = \argmax_x f$.\end{document}"
    )
    assert (
        latex_to_text({"main.tex": tex.encode()})
        == "We have $\\operatorname{Tr}(A) = \\operatorname*{arg\\,max}_x f$.\n"
    )


def test_a_macro_in_text_after_a_lone_dollar_is_read_as_text():
    """The tokenizer expands a macro where it reads it, so it knows a lone `$` is text: the
    macro's own math keeps its dollars (CMS's `\\cmsinstitute{... $^{a}$}`)."""
    tex = (
        r"\documentclass{article}\newcommand{\place}[1]{(#1)}\begin{document}It costs 5$ here."
        "\n\n"
        r"\place{Sezione di Bologna $^{a}$}\end{document}"
    )
    assert latex_to_text({"main.tex": tex.encode()}) == "It costs 5$ here.\n\n(Sezione di Bologna $^{a}$)\n"
