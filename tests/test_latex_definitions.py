"""The paper's definitions the walk needs, read from its tokens (`text.latex.definitions`):
theorem-like environments kept as data, counters numbered within a unit, etoolbox's toggles."""

from __future__ import annotations

from arxiv_mcp.text.latex.definitions import Definitions, TheoremKind
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
