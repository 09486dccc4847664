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
    # atlasdoc names the collaboration when the paper gives no \author
    assert text.startswith("# A search\n\nThe ATLAS Collaboration\n\n## Abstract\n")
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
        "ATLAS Collaboration. Observation of a new particle. Phys. Lett. B 716 (2012) 1. "
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


def test_plain_tex_register_assignments_are_not_printed():
    """`\\overfullrule=0pt` in a 1998 paper printed '=0pt': a register set by any command no table
    knows is dropped with its number or length, and an `=` in prose after a macro stays."""
    body = (
        r"\overfullrule=0pt \hbadness = 10000 \mylength=-1.5em plus 2pt\section{S}"
        r"Words \emph{here} stay.\newcommand{\N}{N}\N=3 walruses."
    )
    text = latex_to_document(
        {"main.tex": (r"\documentclass{article}\begin{document}" + body + r"\end{document}").encode()}
    ).text
    assert "0pt" not in text and "10000" not in text and "1.5em" not in text and "plus" not in text
    assert "Words here stay." in text and "N=3 walruses." in text


def test_spanish_and_german_babel_shorthands_are_the_letters_printed():
    spanish = (
        r"\documentclass{article}\usepackage[spanish,activeacute]{babel}\begin{document}"
        r"\section{Introducci'on}La informaci'on del a~no, ling\"u'istica, ``citas'' y $f'(x)$. 'Arbol."
        r"\end{document}"
    )
    text = latex_to_document({"main.tex": spanish.encode()}).text
    assert "## 1 Introducción" in text
    assert "La información del año, lingüística, \u201ccitas\u201d y $f'(x)$. Árbol." in text
    german = (
        r'\documentclass{article}\usepackage[ngerman]{babel}\begin{document}Gr"o"se, Stra"se, Ein"~und.\end{document}'
    )
    assert "Größe, Straße, Ein-und." in latex_to_document({"main.tex": german.encode()}).text
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


def test_a_shipped_unit_macro_used_inside_math_reads_as_upright_text_then_math():
    # atlasunit's \ifb is \mbox{fb\(^{-1}\)}; ATLAS papers write `$139\,\ifb$`
    source = r"""\documentclass{article}\usepackage{units}\begin{document}In $139\,\ifb$ at $13\,\TeV$.\end{document}"""
    text = latex_to_document({"main.tex": source.encode(), "units.sty": UNITS_STY.encode()}).text
    assert text == "In $139\\,\\text{fb}^{-1}$ at $13\\,\\text{TeV}$.\n"


def test_the_main_file_is_at_the_top_not_a_standalone_table_in_a_subfolder():
    # ATLAS notes ship generated tables that compile alone (class and body of their own), and are larger
    table = (
        r"\documentclass{standalone}\begin{document}\begin{tabular}{ll}"
        + r"a & b \\" * 400
        + r"\end{tabular}\end{document}"
    )
    files = {
        "figures/yields/table.tex": table.encode(),
        "note.tex": rb"\documentclass{atlasdoc}\AtlasAbstract{We measure.}\begin{document}\section{Intro}Text.\end{document}",
    }
    text = latex_to_document(files).text
    assert "We measure." in text and "## 1 Intro" in text and "| a | b |" not in text


MCITE_BBL = r"""\ifx\mcitethebibliography\mciteundefinedmacro
\PackageError{LHCb.bst}{mciteplus.sty has not been loaded}
{This bibstyle requires the use of the mciteplus package.}\fi
\providecommand{\href}[2]{#2}
\begin{mcitethebibliography}{10}
\mciteSetBstSublistMode{n}
\mciteSetBstMaxWidthForm{subitem}{\alph{mcitesubitemcount})}
\mciteSetBstSublistLabelBeginEnd{\mcitemaxwidthsubitemform\space}
{\relax}{\relax}

\bibitem{Silverman}
D.~Silverman and H.~Yao,
  \ifthenelse{\boolean{articletitles}}{\emph{{Light quarks in $D$ mesons}},
  }{}\href{http://dx.doi.org/10.1103/PhysRevD.38.214}{Phys.\ Rev.\
  \textbf{D38} (1988) 214}\relax
\mciteBstWouldAddEndPuncttrue
\mciteSetBstMidEndSepPunct{\mcitedefaultmidpunct}
{\mcitedefaultendpunct}{\mcitedefaultseppunct}\relax
\EndOfBibitem
\end{mcitethebibliography}
"""
MCITEPLUS_STY = r"""\providecommand{\mcitedefaultmidpunct}{;\space}
\providecommand{\mcitedefaultendpunct}{.}
\providecommand{\mcitedefaultseppunct}{\relax}
\long\def\mciteSetBstMidEndSepPunct#1#2#3{\long\def\mcitebstmidpunct{#1}\relax
\long\def\mcitebstendpunct{#2}\long\def\mcitebstseppunct{#3}}
\def\EndOfBibitem{\relax}
"""


def test_mciteplus_entries_of_lhcb_end_with_the_end_punctuation_only():
    main = r"""\documentclass{article}\usepackage{mciteplus}\begin{document}\section{Intro}See \cite{Silverman}.
\bibliographystyle{LHCb}\bibliography{main}\end{document}"""
    files = {"main.tex": main.encode(), "main.bbl": MCITE_BBL.encode(), "mciteplus.sty": MCITEPLUS_STY.encode()}
    document = latex_to_document(files)
    (reference,) = document.records(Reference)
    assert reference.text == "D. Silverman and H. Yao, Light quarks in $D$ mesons, Phys. Rev. D38 (1988) 214."
    # the style's test for its package and its list settings print nothing
    assert document.text.endswith("## References\n\n[1] " + reference.text + "\n")


def test_a_macro_with_latexs_optional_argument_test_reads_as_its_plain_branch():
    source = r"""\documentclass{article}\usepackage{xspace}\makeatletter
\DeclareRobustCommand\Njets{\@ifnextchar[{\@@Njets}{\@Njets}}
\def\@@Njets[#1]{\ensuremath{N_{\text{jets}}^{\geq {#1}}}\xspace}
\def\@Njets{\ensuremath{N_{\text{jets}}}\xspace}
\makeatother
\begin{document}For \Njets in data, $\Njets$ and \Njets.\end{document}"""
    text = latex_to_document({"main.tex": source.encode()}).text
    assert text == "For $N_{\\text{jets}}$ in data, $N_{\\text{jets}}$ and $N_{\\text{jets}}$.\n"


def test_citations_are_numeric_when_a_shipped_package_loads_biblatex_numerically():
    # atlasdoc papers load biblatex through atlaspackage.sty, not in their own preamble
    package = r"""\ProvidesPackage{latex/atlaspackage}
\RequirePackage[backend=biber,
    style=numeric-comp, sorting=none, giveninits=true]{biblatex}
"""
    main = MAIN.replace(r"\usepackage[backend=biber]{biblatex}", r"\usepackage{latex/atlaspackage}")
    files = {
        "paper.tex": main.encode(),
        "paper.bbl": BBL.encode(),
        "latex/atlaspackage.sty": package.encode(),
        "styles/units.sty": UNITS_STY.encode(),
        "styles/physics.sty": PHYSICS_STY.encode(),
    }
    document = latex_to_document(files)
    assert "20 GeV [1, 2]." in document.text
    assert [r.label for r in document.records(Reference)] == ["1", "2"]


def _captions(preamble: str) -> list[str]:
    body = r"\begin{figure}\caption{A}\end{figure}\begin{table}\caption{B}\end{table}"
    source = preamble + r"\begin{document}" + body + r"\end{document}"
    text = latex_to_document({"main.tex": source.encode()}).text
    return re.findall(r"^(\S+) 1: ", text, re.M)


def test_captions_print_the_main_babel_languages_names():
    assert _captions(r"\documentclass{article}\usepackage[english,spanish]{babel}") == ["Figura", "Cuadro"]
    assert _captions(r"\documentclass{article}\usepackage[spanish,es-tabla]{babel}") == ["Figura", "Tabla"]
    assert _captions(r"\documentclass[ngerman]{article}\usepackage{babel}") == ["Abbildung", "Tabelle"]
    assert _captions(r"\documentclass{article}\usepackage[spanish,english]{babel}") == ["Figure", "Table"]
    # the paper's own name wins over the language's
    own = r"\documentclass{article}\usepackage[spanish]{babel}\renewcommand{\tablename}{Tabla}"
    assert _captions(own) == ["Figura", "Tabla"]


def test_babel_loaded_by_requirepackage_or_a_shipped_package_sets_the_language():
    """babel's language is read from the packages loaded, as the class and citation style are:
    `\\RequirePackage` in the preamble and a package the e-print ships load it as well."""
    assert _captions(r"\documentclass{article}\RequirePackage[ngerman]{babel}") == ["Abbildung", "Tabelle"]
    body = r'\begin{document}Gr"o"se.\end{document}'
    files = {"main.tex": (r"\documentclass{article}\usepackage{lang}" + body).encode()}
    files["lang.sty"] = rb"\RequirePackage[ngerman]{babel}"
    assert "Größe." in latex_to_document(files).text


def test_babel_shorthands_only_where_the_language_and_its_options_make_them():
    def text(preamble: str, body: str) -> str:
        source = preamble + r"\begin{document}" + body + r"\end{document}"
        return latex_to_document({"main.tex": source.encode()}).text

    # without activeacute an apostrophe prints as one (Catalan's elisions)
    assert text(r"\documentclass{article}\usepackage[catalan]{babel}", "L'any d'aquest estudi.") == (
        "L'any d'aquest estudi.\n"
    )
    assert text(r"\documentclass[spanish]{article}\usepackage{babel}", r"El a~no, ping\"uino.") == (
        "El año, pingüino.\n"
    )
    # es-noshorthands: `~` is the tie it is in English
    assert text(r"\documentclass{article}\usepackage[spanish,es-noshorthands]{babel}", "El a~no.") == "El a no.\n"


def test_babel_shorthands_are_read_in_text_only():
    """The tokenizer reads a shorthand where it reads text, as TeX reads an active character:
    code and math keep their quotes."""
    source = (
        r"\documentclass{article}\usepackage[ngerman]{babel}\begin{document}"
        'Gr"o"se, \\verb|"a| and $x"a$.\n\\begin{verbatim}\nGr"o"se\n\\end{verbatim}\n\\end{document}'
    )
    text = latex_to_document({"main.tex": source.encode()}).text
    assert text.startswith('Größe, "a and $x"a$.') and 'Gr"o"se' in text


def _person(family: str, given: str, initials: str) -> str:
    return (
        f"{{{{hash=0}}{{family={{{family}}}, familyi={{{family[0]}\\bibinitperiod}}, "
        f"given={{{given}}}, giveni={{{initials}}}}}}}%\n"
    )


NAMES_BBL = (
    r"""\refsection{0}
  \datalist[entry]{none/global//global/global}
    \entry{many}{article}{}
      \true{moreauthor}
      \name{author}{2}{}{%
"""
    + _person("Aad", r"Georges", r"G\bibinitperiod")
    + _person("Abbott", r"Dale\bibnamedelima Charles", r"D\bibinitperiod\bibinitdelim C\bibinitperiod")
    + r"""      }
      \field{journaltitle}{Eur. Phys. J. C}
      \field{title}{Triggers}
      \field{year}{2020}
    \endentry
    \entry{five}{book}{}
      \name{author}{5}{}{%
"""
    + "".join(
        _person(f, g, i)
        for f, g, i in [
            ("Seixas", "José", r"J\bibinitperiod"),
            ("Caloba", "Luiz", r"L\bibinitperiod"),
            ("Souza", "Marcelo", r"M\bibinitperiod"),
            ("Braga", "Antonio", r"A\bibinitperiod"),
            ("Zhou", r"Zhi-Hua", r"Z\bibinithyphendelim H\bibinitperiod"),
        ]
    )
    + r"""      }
      \field{title}{Neural triggers}
      \field{year}{1996}
    \endentry
  \enddatalist
\endrefsection
"""
)


def _names_as_printed(options: str, package: str = "") -> list[str]:
    main = rf"""\documentclass{{article}}\usepackage{{physics}}\usepackage[{options}]{{biblatex}}
\begin{{document}}\section{{A}}\cite{{many,five}}\printbibliography\end{{document}}"""
    files = {"paper.tex": main.encode(), "paper.bbl": NAMES_BBL.encode(), "physics.sty": package.encode()}
    return [r.text for r in latex_to_document(files).records(Reference)]


def test_biber_names_print_as_biblatex_prints_them():
    # biblatex's defaults: at most 3 names, else the first and et al.; a .bib's `and others` is et al. too
    assert _names_as_printed("style=numeric") == [
        "Georges Aad et al. Triggers. Eur. Phys. J. C (2020).",
        "José Seixas et al. Neural triggers. 1996.",
    ]
    # ATLAS's style: initials, up to 5 names (its package's default for maxbibnames)
    atlas = r"\DeclareStringOption[5]{maxbibnames}"
    assert _names_as_printed("style=numeric-comp, giveninits=true", atlas) == [
        "G. Aad et al. Triggers. Eur. Phys. J. C (2020).",
        "J. Seixas, L. Caloba, M. Souza, A. Braga, and Z.-H. Zhou. Neural triggers. 1996.",
    ]
    assert _names_as_printed("maxbibnames=99, minnames=2")[1].startswith("José Seixas, Luiz Caloba, Marcelo")
    # a style's own defaults (biblatex-ieee: up to 6 names, initials); a declared option is no use of it
    assert _names_as_printed("style=ieee", r"\DeclareBoolOption[false]{firstinits}")[1].startswith(
        "J. Seixas, L. Caloba"
    )
    assert _names_as_printed("style=numeric", r"\DeclareBoolOption[false]{firstinits}")[0].startswith("Georges")


def test_babels_language_switches_print_their_text_not_the_language():
    source = r"""\documentclass{article}\usepackage[english,spanish]{babel}\begin{document}
Hola. \foreignlanguage{english}{Some English} y m\'as. \foreignlanguage[date]{english}{More}.
\begin{otherlanguage*}{english}Star text.\end{otherlanguage*} \begin{hyphenrules}{spanish}Reglas.\end{hyphenrules}
\end{document}"""
    text = latex_to_document({"main.tex": source.encode()}).text
    assert "Hola. Some English y más. More." in text and "Star text." in text and "Reglas." in text
    assert "english" not in text and "spanish" not in text


def test_quantities_inside_math_print_their_numbers_and_units():
    """`$\\unit[10^{14}]{eV}$` (the units package) and siunitx inside math read as the PDF
    prints them, the unit upright; no quantity command is left."""
    text = latex_to_document(
        {
            "main.tex": (
                rb"\documentclass{article}\usepackage{units}\usepackage{siunitx}\begin{document}"
                rb"Photons of $\unit[2{\times}10^{17}]{eV}$ and $E > \SI{13}{\TeV}$ with $\si{\per\femto\barn}$"
                rb" and $\qty{5}{\giga\electronvolt}$ and $\num{1.5e3}$ events.\end{document}"
            )
        }
    ).text
    assert not re.search(r"\\(?:unit|SI|si|qty|num|TeV|per|femto|giga)\b", text)
    for printed in ("2{\\times}10^{17}", "\\text{eV}", "13", "\\text{TeV}", "\\text{fb}^{-1}", "\\text{GeV}"):
        assert printed in text


def test_quantities_print_as_one_printer_says_in_text_and_math_and_an_empty_list_is_no_crash():
    # an empty \\numlist raised IndexError and failed the whole paper
    text = latex_to_document(
        {
            "main.tex": (
                rb"\documentclass{article}\usepackage{siunitx}\begin{document}"
                rb"A \SIlist{1;2;3}{\metre}, \numlist{4;5}, \numlist{} and \SIlist{;}{\metre}; "
                rb"\SIrange{1}{2}{\GeV} and $\SIrange{1}{2}{\GeV}$; \ang{1;2;3}.\end{document}"
            )
        }
    ).text
    assert "A 1 m, 2 m and 3 m, 4 and 5, and m; 1 GeV to 2 GeV and $1\\,\\text{GeV}\\text{ to }2\\,\\text{GeV}$" in text
    assert "1 2 3\u00b0." in text


def test_an_lhcb_title_page_has_the_biggest_font_group_as_title_and_keeps_the_lab_header():
    """LHCb's template builds its title page by hand: the lab's name in `\\large`, then the
    title in `\\huge` after `\\normalfont\\bfseries\\boldmath`; there is no \\title."""
    title_page = r"""\begin{titlepage}
\centerline{\large EUROPEAN ORGANIZATION FOR NUCLEAR RESEARCH (CERN)}
\vspace*{4.0cm}
{\normalfont\bfseries\boldmath\huge
\begin{center}
Search for the rare decay $B^+\to\mu^+\mu^-\mu^+\nu_\mu$
\end{center}
}
\begin{center}LHCb collaboration\end{center}
\begin{abstract}We search.\end{abstract}
\end{titlepage}
\section{Introduction}Text."""
    text = latex_to_document(
        {"main.tex": (r"\documentclass{article}\begin{document}" + title_page + r"\end{document}").encode()}
    ).text
    assert text.startswith("# Search for the rare decay $B^+\\to\\mu^+\\mu^-\\mu^+\\nu_\\mu$\n")
    assert "EUROPEAN ORGANIZATION FOR NUCLEAR RESEARCH (CERN)" in text.split("## Abstract")[0]


def test_atlas_author_list_and_hepnames_particles_print_as_the_pdf():
    """ATLAS papers: \\AtlasOrcid[orcid]{Name} prints the name (the ORCID is an icon), the marks
    are `$^\\textrm{\\scriptsize 98}$`, and particle names come from hepnames, which the e-print
    does not ship (`\\PJgy` is J/psi)."""
    body = (
        r"We see $B_c^+\to\PJgy D_s^+$ with $\PJgy\to\Pgmp\Pgmm$ and \PKzS."
        "\n\n"
        r"\AtlasOrcid[0000-0002-6665-4934]{G.~Aad}$^\textrm{\scriptsize 98}$, \AtlasOrcid[0000-0002-5888-2734]{B.~Abbott}$^\textrm{\scriptsize 124}$"
    )
    text = latex_to_document(
        {"main.tex": (r"\documentclass{article}\begin{document}" + body + r"\end{document}").encode()}
    ).text
    assert "$B_c^+\\to J/\\psi D_s^+$" in text and "$J/\\psi\\to\\mu^+\\mu^-$" in text and "$K^0_S$" in text
    assert "G. Aad$^\\textrm{98}$, B. Abbott$^\\textrm{124}$" in text
    assert "0000-" not in text and "scriptsize" not in text
