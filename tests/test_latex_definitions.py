"""The paper's definitions (`text.latex.definitions`, `text.latex.macros.Macros`): the macros,
aliases, float names and DOI prefix recorded where the tokenizer reads them, and what the walk
reads where it stands: theorem-like environments kept as data, etoolbox's toggles."""

from __future__ import annotations

import pytest

from arxiv_mcp.text.document import Kind
from arxiv_mcp.text.latex.convert import latex_to_document, latex_to_text
from arxiv_mcp.text.latex.definitions import (
    Definition,
    TheoremKind,
    builtin_theorems,
    defined_float_names,
    doi_prefix,
)
from arxiv_mcp.text.latex.document import Meta
from arxiv_mcp.text.latex.engine import Walk
from arxiv_mcp.text.latex.handlers import HANDLERS
from arxiv_mcp.text.latex.macros import Macros
from arxiv_mcp.text.latex.tokens import CMD, tokenize


def walked(tex: str) -> tuple[dict[str, TheoremKind], Meta, str]:
    """The theorem kinds, the settings and the text of the walk over `tex` (a document's body)."""
    theorems, meta = builtin_theorems(), Meta()
    walk = Walk(tokenize(tex), meta, theorems, HANDLERS, preamble=False)
    walk.run()
    return theorems, meta, " ".join(block.text for block in walk.front.blocks + walk.body.blocks)


def test_newtheorem_is_kept_as_data_with_its_counter_and_unit():
    found, _, text = walked(
        r"\newtheorem{thm}{Theorem}[section] \newtheorem{lem}[thm]{Lemma} \newtheorem*{rem}{Remark}"
        r" \newtheorem {conj} {Main~Conjecture}"
    )
    assert not text.strip()  # a definition prints nothing
    assert found["thm"] == TheoremKind("Theorem", "thm", "section")
    assert found["lem"] == TheoremKind("Lemma", "thm", "section")  # shares thm's counter and unit
    assert found["rem"] == TheoremKind("Remark") and not found["rem"].numbered
    assert found["conj"] == TheoremKind("Main Conjecture", "conj")  # `~` prints a space
    assert found["proof"] == TheoremKind("Proof")  # the common names stand in, proof unnumbered


def test_a_label_that_is_not_plain_text_defines_nothing():
    found = walked(r"\newtheorem{thm}{\bf Theorem} \newtheorem{eq}{Eq. $x$}")[0]
    assert "thm" not in found and "eq" not in found


def test_toggles_as_the_source_sets_them_so_far_and_never_as_text():
    tex = (
        r"\toggletrue{draft} \iftoggle{draft}{A}{B} \setbool{final}{true} \togglefalse{draft} \iftoggle{draft}{C}{D}"
        r" \settoggle{x}{maybe} \booltrue{a b}"
    )
    _, meta, text = walked(tex)
    assert meta.toggles == {"draft": False, "final": True}
    assert text.split() == ["A", "D"]  # what a toggle is set to decides; its name is not text


def test_the_tokenizer_records_each_definition_where_it_reads_it():
    table = Macros(frozenset({"doi"}), frozenset())
    tokenize(
        r"\newcommand{\beq}{\begin{equation}}\def\eeq{\end{equation}}"
        r"\renewcommand{\figurename}{Fig.}\newcommand\tablename{Tab.}"
        r"\providecommand{\doi}[1]{\url{https://doi.org/#1}}\begin{verbatim}\def\v{in verbatim}\end{verbatim}"
        r"\newcommand{\sig}[2][x]{\sigma_{#1#2}}\newcommand{\sig}{ignored}\def\d#1.{delimited}",
        table,
    )
    assert [one.name for one in table.written] == ["beq", "eeq", "figurename", "tablename", "doi", "sig", "sig", "d"]
    assert table.aliases == {"beq": ("begin", "equation"), "eeq": ("end", "equation")}
    assert list(defined_float_names(table.written)) == [("Figure", "Fig."), ("Table", "Tab.")]
    assert doi_prefix(table.written) == "https://doi.org/"
    assert table.defined["sig"] == Definition(2, "x", r"\sigma_{#1#2}")  # \newcommand does not replace it
    assert table.defined["d"] is None and "doi" not in table.defined  # delimited: unusable; protected: not kept


@pytest.mark.parametrize(
    ("tex", "expected"),
    [
        pytest.param(
            r"\documentclass{article}\newcommand{\x}{one}\begin{document}"
            r"First \x. \renewcommand{\x}{two}Then \x. \newcommand{\y}{why}\y.\end{document}",
            "First one. Then two. why.\n",
            id="renewed-where-read",
        ),
        pytest.param(
            r"\documentclass{article}\DeclareMathOperator{\Tr}{Tr}\DeclareMathOperator*{\argmax}{arg\,max}"
            r"\begin{document}We have $\Tr(A) = \argmax_x f$.\end{document}",
            "We have $\\operatorname{Tr}(A) = \\operatorname*{arg\\,max}_x f$.\n",
            id="math-operators-print-as-latex-can-read-them",
        ),
        # The tokenizer expands a macro where it reads it, so it knows a lone `$` is text: the
        # macro's own math keeps its dollars (CMS's `\cmsinstitute{... $^{a}$}`).
        pytest.param(
            r"\documentclass{article}\newcommand{\place}[1]{(#1)}\begin{document}It costs 5$ here."
            "\n\n"
            r"\place{Sezione di Bologna $^{a}$}\end{document}",
            "It costs 5$ here.\n\n(Sezione di Bologna $^{a}$)\n",
            id="macro-in-text-after-a-lone-dollar",
        ),
        pytest.param(
            r"\documentclass{article}\newcommand{\x}{one}\let\y\x\renewcommand{\x}{two}\let\bm=\boldsymbol"
            r"\let\Re\relax\newcommand{\Re}{\mathrm{Re}}\let\oldref\ref"
            r"\begin{document}\section{A}\label{s}Then \x, \y, $\bm{v} + \Re z$, see \oldref{s}.\end{document}",
            "## 1 A\n\nThen two, one, $\\boldsymbol{v} + \\mathrm{Re} z$, see 1.\n",
            id="let-gives-what-another-means-where-read",
        ),
        pytest.param(
            r"\documentclass{article}\usepackage{siunitx}\DeclareSIUnit\parsec{pc}"
            r"\begin{document}At $d = \SI{3}{\parsec}$ and \SI{4}{\parsec}."
            r"\begin{verbatim}\DeclareSIUnit\parsec{no}\end{verbatim}\end{document}",
            "At $d = 3\\,\\text{pc}$ and 4 pc.\n\n\\DeclareSIUnit\\parsec{no}\n",
            id="declared-unit-not-in-verbatim",
        ),
        # a macro that defines macros is never expanded here (its body is not safe): what it defines is kept
        pytest.param(
            r"\documentclass{article}\newcommand{\mydefs}{\def\a{one}\newcommand{\b}[1]{two #1}}\mydefs"
            r"\begin{document}See \a{} and \b{x}.\end{document}",
            "See one and two x.\n",
            id="definitions-inside-a-definition",
        ),
    ],
)
def test_a_definition_takes_effect_where_tex_reads_it(tex, expected):
    assert latex_to_text({"main.tex": tex.encode()}) == expected


def own(body: str, preamble: str) -> str:
    source = f"\\documentclass{{article}}\n{preamble}\n\\begin{{document}}\n{body}\n\\end{{document}}\n"
    return latex_to_text({"main.tex": source.encode()})


def test_a_papers_environment_prints_its_begin_and_end_around_what_it_holds():
    preamble = (
        r"\newenvironment{proofof}[1]{\par\noindent\textbf{Proof of #1.} }{\hfill$\square$\par}"
        r"\newenvironment{note}[1][Note]{\textit{#1:} }{}"
        r"\newenvironment{wrapped}{\begin{note}[Aside]}{\end{note}}"
    )
    body = r"\begin{proofof}{Lemma 2}Easy.\end{proofof} \begin{note}Look.\end{note} \begin{wrapped}Here.\end{wrapped}"
    assert own(body, preamble) == "Proof of Lemma 2. Easy. $\\square$\n\nNote: Look. Aside: Here.\n"


def test_an_environment_the_walk_knows_keeps_its_own_meaning():
    preamble = r"\renewenvironment{abstract}{ABS}{END}\newenvironment{proof}{PROOF}{QED}\newenvironment{x}{\def\y{}}{}"
    body = r"\begin{abstract}Short.\end{abstract}\begin{proof}Done.\end{proof}\begin{x}Kept.\end{x}"
    text = own(body, preamble)
    assert "ABS" not in text and "PROOF" not in text and "Proof. Done." in text and "Kept." in text


# e-print 0106220's own numbering: its theorem-like blocks and its equations step one counter
# its \newenvironment{Eqn} prints with \eqno, and which each section resets
SHARED_COUNTER = r"""\newcounter{Universal}[section]
\renewcommand{\theUniversal}{\thesection.\arabic{Universal}}
\newenvironment{Italic}{\refstepcounter{Universal} \par
\noindent {\bf (\theUniversal)}\ \it}{\par}
\newenvironment{Thm}{\begin{Italic}{\sc Theorem: }}{\end{Italic}}
\newenvironment{Eqn}{\refstepcounter{Universal} $$} {\eqno \mathrm{
(\theUniversal)} $$}"""


def test_a_display_an_environment_opens_and_closes_is_numbered_on_the_papers_counter():
    body = (
        r"\section{One} \begin{Thm} All is well. \end{Thm} \begin{Eqn} \label{a} x = y^2 \end{Eqn}"
        r" By (\ref{a}). \section{Two} \begin{Eqn} z \end{Eqn} \begin{Thm} Again. \end{Thm}"
    )
    files = {
        "main.tex": f"\\documentclass{{article}}\n{SHARED_COUNTER}\n\\begin{{document}}\n{body}\n\\end{{document}}".encode()
    }
    document = latex_to_document(files)
    assert [block.record.number for block in document.blocks if block.kind == Kind.EQUATION] == ["1.2", "2.1"]
    assert "(1.1) Theorem: All is well." in document.text and "$$x = y^2$$\n\nBy (1.2)." in document.text
    assert "(2.2) Theorem: Again." in document.text


def test_a_papers_counter_prints_in_each_style_and_steps_where_the_source_says():
    preamble = r"\newcounter{step}\newcounter{part}[section]"
    body = (
        r"\section{A}\stepcounter{step}\stepcounter{step}[\arabic{step} \roman{step} \Alph{step} \thestep]"
        r" \refstepcounter{part}\label{p}[\thepart] \section{B}\stepcounter{part}[\thepart, \ref{p}, \arabic{page}]"
        r" \setcounter{step}{7}\addtocounter{step}{2}\stepcounter{step}[\thestep]"
    )
    assert own(body, preamble) == "## 1 A\n\n[2 ii B 2] [1.1]\n\n## 2 B\n\n[2.1, 1.1, ] [10]\n"


def test_recursive_and_nested_environments_stay_bounded():
    preamble = (
        r"\newenvironment{loop}{\begin{loop}x}{\end{loop}}"
        r"\newenvironment{two}{\begin{one}\begin{one}}{\end{one}\end{one}}\newenvironment{one}{[}{]}"
    )
    body = r"\begin{loop}a\end{loop} " * 200 + r"\begin{two}\begin{one}b\end{one}\end{two} end"
    text = own(body, preamble)  # `loop` is read MAX_MACRO_DEPTH deep, then left as it is
    assert text.endswith("\n[[[b]]] end\n") and len(text) < 10_000 and set(text[: text.index("[")]) <= set("xa \n")


def test_an_eqno_prints_the_papers_counter_as_the_paper_renews_it():
    preamble = r"\newcounter{u}[section]\renewcommand{\theu}{\Roman{u}}\newenvironment{eqn}{\refstepcounter{u}$$}{\eqno(\theu)$$}"
    body = r"\section{A}\begin{eqn}x\end{eqn}\begin{eqn}y\end{eqn} [\theu]"
    source = f"\\documentclass{{article}}\n{preamble}\n\\begin{{document}}\n{body}\n\\end{{document}}\n"
    document = latex_to_document({"main.tex": source.encode()})
    assert [block.record.number for block in document.blocks if block.kind == Kind.EQUATION] == ["I", "II"]
    assert document.text.endswith("$$y$$\n\n[II]\n")


def test_a_definition_inside_math_is_recorded_where_it_stands():
    tex = (
        r"\documentclass{article}\begin{document}\begin{equation}\def\x{q} a = \x\end{equation}"
        r" Then \x.\end{document}"
    )
    assert latex_to_text({"main.tex": tex.encode()}).endswith("Then q.\n")


def test_a_shipped_package_is_read_by_the_tokenizers_rules():
    # its text is not tokenized, but each definition in it is read as the tokenizer reads one:
    # \let, \DeclareSIUnit and a definition inside a definition included
    package = (
        rb"\ProvidesPackage{units}\newcommand{\TeVx}{TeV}\let\energy\TeVx\renewcommand{\TeVx}{later}"
        rb"\DeclareSIUnit\parsec{pc}\newcommand{\setup}{\def\inner{in}}"
    )
    tex = (
        r"\documentclass{article}\usepackage{units}"
        r"\begin{document}At 13 \energy, $d = \SI{3}{\parsec}$, \inner.\end{document}"
    )
    assert latex_to_text({"main.tex": tex.encode(), "units.sty": package}) == "At 13 TeV, $d = 3\\,\\text{pc}$, in.\n"


def test_every_starred_command_a_handler_reads_is_read_starred_by_the_tokenizer():
    # the tokenizer cannot import the handlers: a row naming `x*` must reach its handler
    for name in (name for name in HANDLERS.commands if name.endswith("*")):
        assert tokenize("\\" + name + "{a}")[0] == (CMD, name), name
