"""Collaboration papers and old TeX read like their PDFs: atlasdoc's abstract, unit macros of a
shipped atlasunit-like package and siunitx quantities as printed, biber's .bbl entries (its
preamble and verbatim eprints included), LHCb's \\ifthenelse, plain-TeX alignments."""

from __future__ import annotations

import re

from arxiv_mcp.text.document import Reference
from arxiv_mcp.text.latex.convert import latex_to_document

UNITS_STY = r"""\RequirePackage{kvoptions}
\ifthenelse{\boolean{UNIT@kern}}{%
  \newcommand*{\electronvolt}{\text{e\kern-0.1em V}}
}{%
  \newcommand*{\electronvolt}{eV}
}
\newcommand*{\TeV}{\ensuremath{\text{T\electronvolt}}}
\newcommand*{\GeV}{\ensuremath{\text{G\electronvolt}}}
\newcommand*{\ifb}{\mbox{fb\(^{-1}\)}}
"""
PHYSICS_STY = r"""\ProvidesPackage{styles/physics}
\ifthenelse{\boolean{PHYS@unit}}{\RequirePackage[kern]{units}}{}
"""
BBL = r"""% $ biblatex auxiliary file $
\begingroup
\makeatletter
\@ifundefined{ver@biblatex.sty}
  {\@latex@error
     {Missing 'biblatex' package}
     {The bibliography requires the 'biblatex' package.}
      \aftergroup\endinput}
  {}
\endgroup

\refsection{0}
  \datalist[entry]{none/global//global/global}
    \entry{Higgs}{article}{}
      \name{author}{1}{}{%
        {{hash=1}{%
           family={{ATLAS Collaboration}},
           familyi={A\bibinitperiod}}}%
      }
      \field{journaltitle}{Phys. Lett. B}
      \field{title}{Observation of a new particle}
      \field{volume}{716}
      \field{year}{2012}
      \field{pages}{1}
      \verb{doi}
      \verb 10.1016/j.physletb.2012.08.020
      \endverb
      \verb{eprint}
      \verb 1207.7214
      \endverb
      \field{eprinttype}{arXiv}
      \field{eprintclass}{hep-ex}
    \endentry
    \entry{PubNote}{report}{}
      \name{author}{1}{}{%
        {{hash=2}{family={{ATLAS Collaboration}}, familyi={A\bibinitperiod}}}%
      }
      \list{institution}{1}{{CERN}}
      \field{number}{ATL-PHYS-PUB-2016-020}
      \field{title}{Monte Carlo generators}
      \field{year}{2016}
      \verb{url}
      \verb https://cds.cern.ch/record/2206131
      \endverb
    \endentry
  \enddatalist
\endrefsection
\endinput
"""
MAIN = r"""\documentclass[PAPER]{atlasdoc}
\usepackage{styles/physics}
\usepackage[backend=biber]{biblatex}
\usepackage{siunitx}
\DeclareSIUnit\invfb{\per\femto\barn}
\AtlasTitle{A search}
\AtlasAbstract{A search at $\sqrt{s}=13$~\TeV\ with \SI{139}{\invfb} for masses up to \SI{2}{\tera\electronvolt}.}
\begin{document}
\maketitle
\section{Intro}
Energies of 13 \TeV, the \GeV\ scale, 36~\ifb, \num{1.5e3} events, \SIrange{10}{20}{\GeV} \cite{Higgs,PubNote}.
\printbibliography
\end{document}
"""


def atlas():
    files = {
        "paper.tex": MAIN.encode(),
        "paper.bbl": BBL.encode(),
        "styles/units.sty": UNITS_STY.encode(),
        "styles/physics.sty": PHYSICS_STY.encode(),
    }
    return latex_to_document(files)


def test_atlasdoc_abstract_and_units_read_as_printed():
    text = atlas().text
    assert "## Abstract\n\nA search at $\\sqrt{s}=13$ TeV with 139 fb$^{-1}$ for masses up to 2 TeV.\n" in text
    assert (
        "Energies of 13 TeV, the GeV scale, 36 fb$^{-1}$, $1.5 \\times 10^{3}$ events, 10 GeV to 20 GeV [1, 2]." in text
    )
    assert not re.search(r"\\[A-Za-z]", text.replace("\\sqrt", "").replace("\\times", ""))


def test_biber_bbl_with_its_preamble_gives_every_entry_and_its_eprint():
    references = atlas().records(Reference)
    assert [(r.label, r.key, r.arxiv_id, r.doi) for r in references] == [
        ("1", "Higgs", "1207.7214", "10.1016/j.physletb.2012.08.020"),
        ("2", "PubNote", None, None),
    ]
    assert references[0].text == (
        "ATLAS Collaboration. Observation of a new particle. Phys. Lett. B 716. 1. 2012. "
        "doi:10.1016/j.physletb.2012.08.020. arXiv:1207.7214 [hep-ex]."
    )
    assert "Missing" not in atlas().text and "ver@biblatex" not in atlas().text


def test_lhcb_ifthenelse_titles_and_plain_tex_alignments_leave_no_tex():
    body = r"""\section{S}
\halign{#\hfil&\quad#\cr Alpha&Beta\cr Gamma&Delta\cr}
\begin{thebibliography}{1}
\bibitem{a} LHCb collaboration, R. Aaij {\em et~al.}, \ifthenelse{\boolean{articletitles}}{\emph{{Measured}}, }{}\href{https://doi.org/10.1103/PhysRevLett.1.2}{Phys. Rev. Lett. \textbf{1} (2020) 2}, \href{http://arxiv.org/abs/2001.00001}{{\normalfont\ttfamily arXiv:2001.00001}}
\end{thebibliography}"""
    document = latex_to_document(
        {"main.tex": (r"\documentclass{article}\begin{document}" + body + r"\end{document}").encode()}
    )
    assert (
        "| Alpha | Beta |\n| Gamma | Delta |" in document.text
        and "#" not in document.text.split("## 1 S")[1].split("## References")[0]
    )
    (reference,) = document.records(Reference)
    assert (
        reference.text == "LHCb collaboration, R. Aaij et al., Measured, Phys. Rev. Lett. 1 (2020) 2, arXiv:2001.00001"
    )
    assert (reference.arxiv_id, reference.doi) == ("2001.00001", "10.1103/PhysRevLett.1.2")


def test_spanish_and_german_babel_shorthands_are_the_letters_printed():
    spanish = (
        r"\documentclass{article}\usepackage[spanish,activeacute]{babel}\begin{document}"
        r"\section{Introducci'on}La informaci'on del a~no, ling\"u'istica, ``citas'' y $f'(x)$. 'Arbol."
        r"\end{document}"
    )
    text = latex_to_document({"main.tex": spanish.encode()}).text
    assert "## 1 Introducción" in text
    assert "La información del año, lingüística, \u201ccitas\u201d y $f'(x)$. Árbol." in text
    german = r'\documentclass{article}\usepackage[ngerman]{babel}\begin{document}Gr"o"se, Stra"se.\end{document}'
    assert "Größe, Straße." in latex_to_document({"main.tex": german.encode()}).text
    english = r"\documentclass{article}\begin{document}It's the authors' ``quote''.\end{document}"
    assert "It's the authors' \u201cquote\u201d." in latex_to_document({"main.tex": english.encode()}).text


def test_unit_macros_of_a_package_the_eprint_does_not_ship_print_their_units():
    source = (
        r"""\documentclass{article}\begin{document}At 13 \TeV with 139 \ifb, $m_H = 125~\GeV$, \MeV.\end{document}"""
    )
    text = latex_to_document({"main.tex": source.encode()}).text
    assert text == "At 13 TeV with 139 $\\text{fb}^{-1}$, $m_H = 125~\\text{GeV}$, MeV.\n"
    own = r"\documentclass{article}\newcommand{\GeV}{GeV/$c$}\begin{document}1 \GeV.\end{document}"
    assert latex_to_document({"main.tex": own.encode()}).text == "1 GeV/$c$.\n"  # the paper's own wins


def test_a_papers_own_unit_command_wins_over_siunitxs():
    source = r"""\documentclass{article}\newcommand{\unit}[1]{\ensuremath{\text{\,#1}}\xspace}
\begin{document}A 6\unit{m} solenoid at \SI{13}{\TeV}.\end{document}"""
    assert latex_to_document({"main.tex": source.encode()}).text == "A 6$\\text{\\,m}$ solenoid at 13 TeV.\n"
