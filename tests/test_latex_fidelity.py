"""LaTeX text as the compiled PDF prints it: each class of word the PDF shows and the text lost.

Each test is one class of input (found by scoring real e-prints against their compiled PDFs with
benchmarks/text_quality.py), with its own few lines of LaTeX.
"""

from __future__ import annotations

from arxiv_mcp.text.latex.convert import latex_to_text


def convert(body: str, preamble: str = "", extra: dict[str, bytes] | None = None) -> str:
    main = f"\\documentclass{{article}}\n{preamble}\n\\begin{{document}}\n{body}\n\\end{{document}}\n"
    return latex_to_text({"main.tex": main.encode(), **(extra or {})})


def test_theorems_print_their_numbers_and_refs_read_them():
    text = convert(
        r"\section{Intro}\begin{theorem}\label{t:a}One.\end{theorem}\begin{lemma}[Key]\label{l:b}Two.\end{lemma}"
        r"\begin{proof}Done.\end{proof}\begin{theorem*}Free.\end{theorem*}\section{More}"
        r"\begin{theorem}Three.\end{theorem}\begin{definition}Four.\end{definition}See \ref{t:a} and \ref{l:b}.",
        r"\newtheorem{theorem}{Theorem}[section]\newtheorem{lemma}[theorem]{Lemma}\newtheorem*{theorem*}{Remark}",
    )
    assert "Theorem 1.1. One." in text
    assert "Lemma 1.2 (Key). Two." in text  # shares the theorem counter
    assert "Proof. Done." in text and "Remark. Free." in text
    assert "Theorem 2.1. Three." in text  # numbered within the section
    assert "Definition 1. Four." in text  # a class's own, numbered alone
    assert "See 1.1 and 1.2." in text


def test_pseudocode_prints_its_keywords():
    text = convert(
        r"\begin{algorithmic}\State $x \gets 0$\For{$i=1,\dots,n$}\If{$a_i > 0$}\State $x \gets x+1$"
        r"\EndIf\EndFor\While{$x>0$}\State $x \gets x-1$\EndWhile\State \Return $x$\end{algorithmic}"
    )
    lines = [line.strip() for line in text.split("\n")]
    assert "for $i=1,\\dots,n$ do" in lines
    assert "if $a_i > 0$ then" in lines
    assert "end if" in lines and "end for" in lines and "end while" in lines
    assert "while $x>0$ do" in lines
    assert "return $x$" in lines


HEPPARTICLES_STY = rb"""\DeclareRobustCommand{\HepParticle}[3]{\ifx\@italicNames\@empty
\@HepConStyle{{{#1}}{}_{\@itsfshift{a}{b}\scriptstyle{#2}}^{\@itsfshift{c}{d}\scriptstyle{#3}}}\else
\HepGenParticle{#1}{#2}{#3}\fi}"""
PARTICLE_NAMES_STY = rb"""\newcommand{\PW}{{\HepParticle{W}{}{}}\xspace}
\newcommand{\PWpr}{{\HepParticle{\PW}{}{\prime}}\xspace}\newcommand{\PBc}{\HepParticle{B}{c}{}\xspace}"""


def test_particle_names_of_hepparticles_expand_in_text_and_math():
    """The package's own \\HepParticle tests \\ifx (unreadable without TeX): a stand-in reads it."""
    text = convert(
        r"The \PWpr boson, $m_{\PWpr} > 2$, and \PBc mesons.",
        r"\usepackage{hepparticles}\usepackage{names}",
        {"hepparticles.sty": HEPPARTICLES_STY, "names.sty": PARTICLE_NAMES_STY},
    )
    assert "HepParticle" not in text
    assert "The ${{{W}}}^{\\prime}$ boson" in text
    assert "$m_{{{{{W}}}^{\\prime}}} > 2$" in text  # one math span, the name's math inside it
    assert "${B}_{c}$ mesons" in text


def test_math_from_two_macros_side_by_side_is_never_display_math():
    text = convert(
        r"A \ttbar{} pair.",
        r"\newcommand{\Pt}{\ensuremath{t}}\newcommand{\Pat}{\ensuremath{\bar{t}}}\newcommand{\ttbar}{{\Pt}{\Pat}}",
    )
    assert "A $t$ $\\bar{t}$ pair." in text


def test_title_page_notes_are_kept_once_after_the_affiliations():
    text = convert(
        r"\title{On Things\thanks{Supported by grant 42.}}\author{Ada Lovelace\thanks{Email: ada@example.org}"
        r"\and Alan Turing\footnote{Work done at Bletchley.}}\maketitle Body text with a note\footnote{A body note.}.",
    )
    head, body = text.split("Body text", 1)
    assert head.startswith("# On Things\n\nAda Lovelace, Alan Turing\n\n")
    assert "[^Supported by grant 42.] [^Email: ada@example.org] [^Work done at Bletchley.]" in head
    assert "with a note [^A body note.]." in body


def test_doi_prints_as_the_style_defines_it():
    bbl = (
        rb"\begin{thebibliography}{1}\providecommand{\doi}[1]{https://doi.org/#1}"
        rb"\bibitem{a} Auer, C.: Title. CoRR (2022). \doi{10.48550/arXiv.2206.00785}\end{thebibliography}"
    )
    text = convert(r"See \cite{a}.\bibliography{refs}", extra={"refs.bbl": bbl})
    assert "[1] Auer, C.: Title. CoRR (2022). https://doi.org/10.48550/arXiv.2206.00785" in text
    plain = convert(r"\begin{thebibliography}{1}\bibitem{a} Title. \doi{10.1/x}\end{thebibliography}")
    assert "Title. doi:10.1/x" in plain


def test_natbib_author_year_citations_merge_same_authors_and_sort():
    bib = (
        r"\begin{thebibliography}{4}"
        r"\bibitem[{Auer et~al.(2010)}]{auer} A. \bibitem[{DeepSeek-AI(2024{\natexlab{a}})}]{dsa} B."
        r"\bibitem[{DeepSeek-AI(2024{\natexlab{b}})}]{dsb} C. \bibitem[{Jones(1990)}]{j90} D."
        r"\bibitem[{Jones(1991)}]{j91} E.\end{thebibliography}"
    )
    text = convert(
        r"See \citep{dsb,auer,dsa} and \citet{j90,j91}." + bib, r"\usepackage[authoryear,sort&compress]{natbib}"
    )
    assert "See (Auer et al., 2010; DeepSeek-AI, 2024a,b) and Jones (1990, 1991)." in text
    unsorted = convert(r"See \citep{dsb,auer,dsa}." + bib, r"\usepackage[authoryear]{natbib}")
    assert "See (DeepSeek-AI, 2024b; Auer et al., 2010; DeepSeek-AI, 2024a)." in unsorted


def test_captions_use_the_float_names_the_class_or_paper_prints():
    body = r"\begin{figure}\caption{A plot.}\end{figure}\begin{table}\caption{Numbers.}\end{table}"
    assert "FIG. 1: A plot." in latex_to_text(
        {"main.tex": rb"\documentclass{revtex4-2}\begin{document}" + body.encode() + rb"\end{document}"}
    )
    own = convert(body, r"\renewcommand{\figurename}{Abb.}\renewcommand\tablename{Tab.}")
    assert "Abb. 1: A plot." in own and "Tab. 1: Numbers." in own
    assert "Figure 1: A plot." in convert(body)


def test_orcid_identifiers_are_not_glued_to_author_names():
    text = convert(r"\author{Maksym Lysak\orcidID{0000-0002-3723-6960} \and Ahmed Nassar}\maketitle Text.")
    assert "Maksym Lysak, Ahmed Nassar" in text and "0000-0002" not in text


def test_a_table_set_inside_a_figure_is_kept():
    text = convert(
        r"\begin{figure}\centering\includegraphics{plot.pdf}\begin{tabular}{cc}Method & Error\\ UCB & 0.3\end{tabular}"
        r"\caption{Results.}\end{figure}"
    )
    assert "| Method | Error |\n| UCB | 0.3 |" in text and "Figure 1: Results." in text
    assert "plot.pdf" not in text
