"""Numbers as LaTeX prints them where the paper changes them: counters set or printed its own
way (`\\setcounter`, `\\renewcommand{\\thefigure}`), unnumbered captions, plain TeX's `\\eqno`,
a starred display's `\\tag`, and the harvard package's bibliography entries.

The S-numbering lines are the ones CreLox/CyanobacteriaBloom's readme.md (commit 50cc140f27da)
gives for a manuscript's supplementary information; the rest are written in the form the
packages document (amsmath's `\\tag`, caption's `\\caption*`, harvard's `\\harvarditem` as its
agsm/dcu styles write .bbl files)."""

from __future__ import annotations

from arxiv_mcp.text.document import Equation, Figure, Reference, Table
from arxiv_mcp.text.latex.convert import latex_to_document

SUPPLEMENTARY = r"""\documentclass{article}
\usepackage{amsmath}
\begin{document}
\section{Results}
\begin{figure}\caption{Main figure}\end{figure}
\begin{table}\caption{Main table}\begin{tabular}{c}a\\\end{tabular}\end{table}
\begin{equation}x = 1\end{equation}
\section*{Supplementary information}
\setcounter{table}{0}
\renewcommand{\thetable}{S\arabic{table}}
\setcounter{figure}{0}
\renewcommand{\thefigure}{S\arabic{figure}}
\begin{figure}\caption{First supplementary figure}\end{figure}
\begin{figure}\caption{Second supplementary figure}\end{figure}
\begin{table}\caption{Supplementary table}\begin{tabular}{c}b\\\end{tabular}\end{table}
\appendix
\section{Derivation}
\renewcommand{\theequation}{\thesection\arabic{equation}}
\setcounter{equation}{0}
\begin{equation}y = 2\end{equation}
\begin{figure}\caption*{An unnumbered panel}\end{figure}
\addtocounter{figure}{1}
\begin{figure}\caption{After a skipped number}\end{figure}
\end{document}
"""


def _document(tex: str):  # type: ignore[no-untyped-def]
    return latex_to_document({"main.tex": tex.encode()})


def test_supplementary_and_appendix_counters_print_as_the_paper_renews_and_sets_them():
    document = _document(SUPPLEMENTARY)
    figures = [(f.label, f.caption) for f in document.records(Figure)]
    assert figures == [
        ("Figure 1", "Main figure"),
        ("Figure S1", "First supplementary figure"),
        ("Figure S2", "Second supplementary figure"),
        ("Figure S4", "After a skipped number"),
    ]
    assert [t.label for t in document.records(Table)] == ["Table 1", "Table S1"]
    assert [e.number for e in document.records(Equation)] == ["1", "A1"]


def test_an_unnumbered_caption_is_text_and_takes_no_number():
    document = _document(SUPPLEMENTARY)
    assert "An unnumbered panel" in document.text
    assert all("unnumbered" not in f.caption for f in document.records(Figure))


def test_a_preamble_renewal_numbers_from_the_start():
    tex = r"""\documentclass{article}
\renewcommand\thefigure{S\arabic{figure}}
\renewcommand{\theequation}{\arabic{section}.\arabic{equation}}
\begin{document}\section{A}\begin{figure}\caption{One}\end{figure}\begin{equation}a\end{equation}\end{document}"""
    document = _document(tex)
    assert [f.label for f in document.records(Figure)] == ["Figure S1"]
    assert [e.number for e in document.records(Equation)] == ["1.1"]


def test_a_renewal_the_converter_cannot_read_leaves_the_numbers_alone():
    tex = r"""\documentclass{article}\begin{document}
\renewcommand{\thefigure}{\fnsymbol{figure}}
\begin{figure}\caption{One}\end{figure}\end{document}"""
    assert [f.label for f in _document(tex).records(Figure)] == ["Figure 1"]


def test_plain_tex_eqno_eqalignno_and_a_starred_displays_tag_are_numbered_as_printed():
    tex = r"""\documentclass{article}\usepackage{amsmath}\begin{document}
$$ E = mc^2 \eqno(1) $$
$$ F = ma \eqno(2a)$$
$$\eqalignno{p &= mv & (2b) \cr L &= r \times p \cr}$$
\begin{equation*} a = b \tag{3'} \end{equation*}
\begin{align*} c &= d \end{align*}
\begin{equation} e = f \end{equation}
\end{document}"""
    equations = _document(tex).records(Equation)
    assert [e.number for e in equations] == ["1", "2a", "2b", "3'", "1"]
    assert "eqno" not in equations[0].latex


def test_harvard_entries_are_labelled_by_names_and_year():
    tex = r"""\documentclass{article}\usepackage{harvard}\begin{document}
As \citeasnoun{smith} and \cite{lee} show.
\begin{thebibliography}{xx}
\harvarditem{Smith}{2021}{smith} Smith, J. (2021), A paper.
\harvarditem[Lee et~al.]{Lee, Kim and Park}{1999}{lee} Lee, A., Kim, B. and Park, C. (1999), Another.
\end{thebibliography}\end{document}"""
    references = _document(tex).records(Reference)
    assert [r.label for r in references] == ["Smith, 2021", "Lee et al., 1999"]
    assert [r.key for r in references] == ["smith", "lee"]


def test_a_papers_own_float_macro_sets_numbered_figures_and_an_unbalanced_one_stays_unread():
    tex = r"""\documentclass{article}
\newcommand{\fig}[2]{\begin{figure}\includegraphics{#1}\caption{#2}\end{figure}}
\newcommand{\openfig}[1]{\begin{figure}\caption{#1}}
\begin{document}Text.\fig{a.png}{First}\fig{b.png}{Second}\openfig{kept as text}\end{document}"""
    document = _document(tex)
    assert [(f.label, f.caption, f.images) for f in document.records(Figure)] == [
        ("Figure 1", "First", ("a.png",)),
        ("Figure 2", "Second", ("b.png",)),
    ]
    assert "kept as text" in document.text


def test_a_float_kind_of_the_papers_counts_apart_under_its_own_name():
    tex = r"""\documentclass{article}\usepackage{float,newfloat}
\newfloat{scheme}{htbp}{los}\floatname{scheme}{Scheme}
\DeclareFloatingEnvironment[fileext=lob,name=Box]{infobox}
\begin{document}
\begin{scheme}\caption{A reaction}\label{s:one}\end{scheme}
\begin{figure}\caption{A plot}\end{figure}
\begin{infobox}\caption{A note}\end{infobox}
\begin{scheme}\caption{Another reaction}\end{scheme}
See Scheme~\ref{s:one}.
\end{document}"""
    document = _document(tex)
    assert [(f.label, f.caption) for f in document.records(Figure)] == [("Figure 1", "A plot")]
    for printed in ("Scheme 1: A reaction", "Box 1: A note", "Scheme 2: Another reaction", "See Scheme 1."):
        assert printed in document.text


def test_caption_label_formats_and_caption_types_print_as_the_caption_package_sets_them():
    tex = r"""\documentclass{article}\usepackage{caption}
\DeclareCaptionLabelFormat{supp}{#1 S#2}
\DeclareCaptionLabelFormat{long}{\textbf{Supplementary #1~#2}}
\captionsetup[figure]{labelformat=supp}
\captionsetup[table]{labelformat=long, labelsep=colon}
\begin{document}
\begin{figure}\caption{A supplementary figure}\label{f}\end{figure}
\begin{minipage}{5cm}\captionsetup{type=table}\caption{A side table}\begin{tabular}{c}a\\\end{tabular}\end{minipage}
\begin{figure}\caption{Another figure}\end{figure}
See Figure~S\ref{f}.
\end{document}"""
    document = _document(tex)
    assert [(f.label, f.number) for f in document.records(Figure)] == [("Figure S1", "S1"), ("Figure S2", "S2")]
    assert [(t.label, t.number) for t in document.records(Table)] == [("Supplementary Table 1", "1")]
    assert "See Figure S1." in document.text  # \ref prints the counter, the label format only the caption


def test_a_tables_own_number_holds_inside_it_only():
    tex = r"""\documentclass{article}\begin{document}
\begin{table}\caption{One}\begin{tabular}{c}a\\\end{tabular}\end{table}
\begin{table}\renewcommand{\thetable}{1a}\caption{One, continued}\begin{tabular}{c}b\\\end{tabular}\end{table}
\begin{table}\caption{Three}\begin{tabular}{c}c\\\end{tabular}\end{table}
\end{document}"""
    assert [t.label for t in _document(tex).records(Table)] == ["Table 1", "Table 1a", "Table 3"]


# From arXiv 0005057 (a report-class thesis) as docling-project/docling keeps it:
# tests/data/latex/sources/0005057/diss.tex at e1cb2b234c48, lines 1893-1897 and 2140-2148 (math shortened).
THESIS_PROOF_ENDS = r"""\documentclass[11pt,twoside,openright]{report}
\usepackage{amsmath}
\usepackage{amsthm}
\begin{document}
\chapter{Preliminaries}
\begin{equation}
  a = b
\end{equation}
    \begin{equation*}
      \pDx{C} = \sup \Bset{\int_{\Rs} d^s x} \text{.}
      \tag*{\qed}
    \end{equation*}
    \begin{multline*}
      \bpDx{\ax ( C )} = \sup \Bset{\int_{\Rs} d^s y} \\
      = \pDx{C}
      \text{.} \tag*{\qed}
    \end{multline*}
\begin{equation}
  c = d
\end{equation}
\end{document}
"""


def test_an_end_of_proof_mark_in_a_tag_numbers_no_equation():
    assert [e.number for e in _document(THESIS_PROOF_ENDS).records(Equation)] == ["1.1", "1.2"]


def test_a_starred_tag_the_paper_empties_numbers_no_equation():
    # the same thesis renews \qed to nothing (line 1635): its `\tag*{\qed}` prints nothing
    tex = THESIS_PROOF_ENDS.replace("\\begin{document}", "\\begin{document}\\renewcommand{\\qed}{}")
    assert [e.number for e in _document(tex).records(Equation)] == ["1.1", "1.2"]


# The same thesis, lines 4658-4662 and 7074-7078: an estimate restated later under its first number.
THESIS_RESTATED = r"""\documentclass[11pt,twoside,openright]{report}
\usepackage{amsmath}
\begin{document}
\chapter{Particle Weights}
      \begin{equation}
        \label{eq-Delta-boundedness}
        \norm{\EwDprime \pi_w ( A ) \EwDprime} \leqslant c \cdot
        \norm{\EDbar A \EDbar}
      \end{equation}
\chapter{Disintegration}
    \begin{equation}
      \label{eq-Delta-boundedness-again}
      \norm{\EwDprime \pi_w ( A ) \EwDprime} \leqslant c \cdot
      \norm{\EDbar A \EDbar} \tag{\ref{eq-Delta-boundedness}}
    \end{equation}
\begin{equation} x \end{equation}
\end{document}
"""


def test_a_tag_naming_another_equation_prints_its_number_and_steps_nothing():
    assert [e.number for e in _document(THESIS_RESTATED).records(Equation)] == ["1.1", "1.1", "2.1"]


# arXiv 2205.14864 (AASTeX 6.3, natbib author-year): the first lines of its paper.bbl, as
# inspirehep/inspire-next keeps the e-print (tests/unit/workflows/fixtures/2205.14864.tar.gz at be983b0ad423).
AASTEX_BBL = r"""\begin{thebibliography}{}
\expandafter\ifx\csname natexlab\endcsname\relax\def\natexlab#1{#1}\fi
\providecommand{\url}[1]{\href{#1}{#1}}
\providecommand{\dodoi}[1]{doi:~\href{http://doi.org/#1}{\nolinkurl{#1}}}

\bibitem[{Aab {et~al.}(2015{\natexlab{a}})}]{ThePierreAuger:2015rma}
Aab, A., {et~al.} 2015{\natexlab{a}}, Nucl. Instrum. Meth. A, 798, 172,
  \dodoi{10.1016/j.nima.2015.06.058}

\bibitem[{Aab {et~al.}(2015{\natexlab{b}})}]{PierreAuger:2014ucz}
---. 2015{\natexlab{b}}, Phys. Rev. D, 91, 032003
\end{thebibliography}
"""


def test_a_natbib_bbl_prints_author_year_labels_and_no_control_word_names():
    tex = r"""\documentclass[twocolumn]{aastex63}
\begin{document}
Data from the Observatory~\citep{ThePierreAuger:2015rma,PierreAuger:2014ucz}.
\bibliography{references}
\end{document}"""
    document = latex_to_document({"paper.tex": tex.encode(), "paper.bbl": AASTEX_BBL.encode()})
    assert [r.label for r in document.records(Reference)] == ["Aab et al., 2015a", "Aab et al., 2015b"]
    assert "natexlab" not in document.text


def test_an_mnras_appendix_numbers_equations_figures_and_tables_within_its_section():
    """mn2e.cls as arXiv 1603.04438v1 ships it (inspirehep/plotextractor, tests/data/1603.04438v1.tar.gz
    at 3b5465dbbf3c): its \\appendix resets equation, figure and table per section and prints
    them as \\thesection\\arabic{...}."""
    tex = r"""\documentclass[useAMS,usenatbib]{mn2e}
\begin{document}
\section{Method}
\begin{equation}a = b\end{equation}
\begin{figure}\caption{Radio map}\end{figure}
\appendix
\section{Fitting}
\begin{equation}c = d\end{equation}
\begin{equation}e = f\end{equation}
\begin{figure}\caption{Model fits}\end{figure}
\begin{table}\caption{Parameters}\begin{tabular}{c}x\\\end{tabular}\end{table}
\section{Data}
\begin{equation}g = h\end{equation}
\end{document}"""
    document = _document(tex)
    assert [e.number for e in document.records(Equation)] == ["1", "A1", "A2", "B1"]
    assert [f.label for f in document.records(Figure)] == ["Figure 1", "Figure A1"]
    assert [t.label for t in document.records(Table)] == ["Table A1"]


def test_numbering_within_sections_from_the_appendix_on():
    tex = r"""\documentclass{article}\usepackage{amsmath,chngcntr}
\begin{document}
\section{Results}
\begin{equation}a\end{equation}
\begin{equation}b\end{equation}
\appendix
\numberwithin{equation}{section}
\counterwithin{figure}{section}
\section{Proofs}
\begin{equation}c\end{equation}
\begin{figure}\caption{A bound}\end{figure}
\section{Data}
\begin{equation}d\end{equation}
\end{document}"""
    document = _document(tex)
    assert [e.number for e in document.records(Equation)] == ["1", "2", "A.1", "B.1"]
    assert [f.label for f in document.records(Figure)] == ["Figure A.1"]


def test_preamble_counters_within_a_unit_as_latex_resets_and_prints_them():
    tex = r"""\documentclass{article}\usepackage{amsmath,chngcntr}
\renewcommand{\thefigure}{\thesection.\arabic{figure}}
\numberwithin{equation}{subsection}
\counterwithout{equation}
\counterwithin*{table}{section}
\begin{document}
\section{A}\begin{figure}\caption{a}\end{figure}\begin{table}\caption{t}\end{table}\begin{equation}x\end{equation}
\section{B}\begin{figure}\caption{b}\end{figure}\begin{table}\caption{u}\end{table}\begin{equation}y\end{equation}
\end{document}"""
    document = _document(tex)
    # a renewal `\thesection.\arabic{figure}` in the preamble resets the figures with the
    # section; the starred \counterwithin only resets, so the tables print as before
    assert [f.label for f in document.records(Figure)] == ["Figure 1.1", "Figure 2.1"]
    assert [t.label for t in document.records(Table)] == ["Table 1", "Table 1"]
    assert [e.number for e in document.records(Equation)] == ["1", "2"]


def test_captions_typed_by_hand_are_captions_with_the_typed_number():
    tex = r"""\documentclass{article}\title{Old style}\begin{document}\maketitle
Text.
\begin{figure}\centering\includegraphics{a.eps}\\ {\bf Figure 1.} A typed caption.\end{figure}
\begin{table}\begin{tabular}{c}x\\\end{tabular}\\ Table 1. A typed table caption.\end{table}
\begin{figure}\includegraphics{drawing.eps}\end{figure}
\topinsert\vskip 2in\centerline{Fig. 2: A plain TeX figure.}\endinsert
\begin{figure}\caption{A real caption}\end{figure}
Figure 3. shows nothing: prose is never a caption.
\end{document}"""
    document = _document(tex)
    figures = [(f.label, f.number, f.caption, f.images) for f in document.records(Figure)]
    assert figures == [
        ("Figure 1", "1", "A typed caption.", ("a.eps",)),
        ("Fig. 2", "2", "A plain TeX figure.", ()),
        ("Figure 1", "1", "A real caption", ()),  # LaTeX steps no counter for a typed caption
    ]
    assert [(t.label, t.caption, t.rows) for t in document.records(Table)] == [
        ("Table 1", "A typed table caption.", (("x",),))
    ]


def test_typed_captions_are_read_with_the_one_caption_grammar():
    """A typed caption is read as a PDF's is (`text/labels`): a supplementary number and an
    abbreviated table name as well."""
    tex = r"""\documentclass{article}\title{Supplement}\begin{document}\maketitle
Text.
\begin{figure}\includegraphics{s.eps}\\ {\bf Fig. S2.} A supplementary figure.\end{figure}
\begin{table}\begin{tabular}{c}y\\\end{tabular}\\ Tab. 4: An abbreviated table.\end{table}
\end{document}"""
    document = _document(tex)
    assert [(f.label, f.number, f.caption) for f in document.records(Figure)] == [
        ("Fig. S2", "S2", "A supplementary figure.")
    ]
    assert [(t.label, t.number, t.caption) for t in document.records(Table)] == [
        ("Tab. 4", "4", "An abbreviated table.")
    ]


def test_ieee_eqnarray_rows_are_numbered_like_an_eqnarrays():
    tex = r"""\documentclass[conference]{IEEEtran}\usepackage{IEEEtrantools}
\begin{document}
\begin{IEEEeqnarray}{rCl}
a &=& b \IEEEnonumber\\
  &=& c \label{eq:c}\\
d &=& e
\end{IEEEeqnarray}
\begin{IEEEeqnarray*}{c} f \end{IEEEeqnarray*}
\begin{equation} g \end{equation}
By \eqref{eq:c}.
\end{document}"""
    document = _document(tex)
    equations = document.records(Equation)
    assert [e.number for e in equations] == ["1", "2", "3"]
    assert "rCl" not in equations[0].latex
    assert "By (1)." in document.text


def test_caption_setup_names_the_floats():
    tex = r"""\documentclass{article}\usepackage{caption}
\captionsetup[figure]{name=Fig.,labelsep=period}
\begin{document}\begin{figure}\caption{A plot}\end{figure}\end{document}"""
    assert [f.label for f in _document(tex).records(Figure)] == ["Fig. 1"]


def test_caption_setup_in_a_float_holds_to_its_end():
    """A \\captionsetup inside an environment holds to its \\end, as a \\renewcommand there does
    (TeX's grouping): one figure's own name and label format, the next figure LaTeX's."""
    tex = r"""\documentclass{article}\usepackage{caption}
\DeclareCaptionLabelFormat{supp}{#1 S#2}
\begin{document}
\begin{figure}\captionsetup[figure]{name=Fig.,labelformat=supp}\caption{Own}\end{figure}
\begin{figure}\caption{Plain}\end{figure}
\end{document}"""
    assert [f.label for f in _document(tex).records(Figure)] == ["Fig. S1", "Figure 2"]
