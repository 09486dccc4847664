"""latex_text: LaTeX source -> the shared text format, on real e-prints and hostile input."""

from __future__ import annotations

import gzip
import io
import re
import tarfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arxiv_mcp.errors import ExtractionError
from arxiv_mcp.text.latex.convert import latex_to_text, source_to_text
from tests.fake_arxiv import eprint as fake_eprint

FIXTURES = Path(__file__).parent / "fixtures" / "src"
HEADING = re.compile(r"^#{1,6} \S")


def headings(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.startswith("#")]


def doc(body: str, preamble: str = "") -> dict[str, bytes]:
    return {
        "main.tex": f"\\documentclass{{article}}\n{preamble}\n\\begin{{document}}\n{body}\n\\end{{document}}\n".encode()
    }


def convert(body: str, preamble: str = "") -> str:
    return latex_to_text(doc(body, preamble))


def assert_contract(text: str) -> None:
    """Every line starting with '#' is a heading; paragraphs are separated by one blank line."""
    assert all(HEADING.match(line) for line in headings(text))
    assert "\n\n\n" not in text


def test_a_line_breaks_star_and_length_in_an_alignment_print_nothing():
    """`\\\\*` and `\\\\[.5\\baselineskip]` end a row and print nothing: a row's line break is read
    by the grammar of the text's."""
    text = convert("\\begin{align}\na &= b \\\\*\n c &= d \\\\[.5\\baselineskip]\n e &= f\n\\end{align}")
    assert "$$\\begin{aligned}c &= d\\end{aligned}$$" in text and "baselineskip" not in text


# -- real e-prints ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def logcft() -> str:
    return source_to_text((FIXTURES / "1605.03959.tar.gz").read_bytes())


@pytest.fixture(scope="module")
def desitter() -> str:
    return source_to_text((FIXTURES / "single_gzipped_tex_hepth_desitterv3_2009.gz").read_bytes())


def test_tar_gz_paper_title_abstract_and_headings(logcft):
    lines = logcft.split("\n")
    assert lines[0] == "# The ABC (in any D) of Logarithmic CFT"
    assert "Matthijs Hogervorst$^{a}$, Miguel Paulos$^{b}$, Alessandro Vichi$^{b}$" in logcft
    abstract = logcft.index("## Abstract\n\nLogarithmic conformal field theories have a vast range")
    found = headings(logcft)
    expected = [
        "## Abstract",
        "## 1 Introduction",
        "## 2 Consequences of conformal invariance",
        "### 2.1 Logarithmic multiplets",
        "#### 2.3.1 Examples",
        "## 3 Conformal block decompositions",
        "### 5.3 Self-avoiding walks and the $O(n\\rightarrow 0)$ model",
        "## 6 Discussion",
        "### Acknowledgements",
        "## A Simplifications for the two-point function",
        "### C.1 Gram matrix and proof of Eq. (3.41)",  # \\reef{#1} is (\\ref{#1}); \\numberwithin, \\nn rows and subequations as LaTeX counts them
        "## E Free field limit of logarithmic GFF",
        "## References",
    ]
    assert [h for h in found if h in expected] == expected
    assert abstract < logcft.index("## 1 Introduction")
    assert_contract(logcft)


def test_tar_gz_paper_math_citations_and_bbl(logcft):
    assert "$\\mathfrak{so}(d+1,1)$" in logcft
    # \beq ... \eeq alias of equation; \def\Oo{\mathcal{O}} substituted, \ket{#1} (|#1\rangle) expanded
    assert "\n\n$$K_\\mu |\\mathcal{O}_a\\rangle = 0\\,.$$\n\n" in logcft
    assert "$$\\begin{aligned}&i[D,P^\\mu]=P^\\mu," in logcft  # align environment
    assert "logarithms [1\u20133]" in logcft
    references = logcft[logcft.index("## References") :]
    assert "[1] H. Saleur, \u201cPolymers and percolation" in references
    assert "\\label" not in logcft and "%%CITATION" not in logcft


def test_single_gzipped_tex_title_abstract_headings(desitter):
    assert desitter.startswith("# Solutions of Minimal Four Dimensional de Sitter Supergravity\n\n")
    assert "J. B. Gutowski$^1$ and W. A. Sabra$^2$" in desitter
    assert "## Abstract\n\nPseudo-supersymmetric solutions of minimal $N=2$, $D=4$ de Sitter" in desitter
    assert headings(desitter) == [
        "# Solutions of Minimal Four Dimensional de Sitter Supergravity",
        "## Abstract",
        "## 1 Introduction",
        "## 2 $N=2$, $D=4$ Minimal de Sitter Supergravity",
        "## 3 Solutions with $\\epsilon=e_2$",
        "## 4 Solutions with $\\epsilon =1+\\mu e_{1}$",
        "## 5 Solutions with $\\epsilon =1+ e^{i \\alpha} e_{2}$",
        "### 5.1 Solutions with $\\cos \\alpha \\neq 0$",
        "### 5.2 Solutions with $\\cos \\alpha =0$",
        "## 6 Conclusions",
        "## A The Linear System",
        "## References",
    ]
    assert "$$S=\\int \\ \\mathrm{d}^{4}x" in desitter  # \be ... \ee alias of eqnarray
    assert "[1] K. P. Tod, All Metrics Admitting" in desitter
    assert_contract(desitter)


def test_not_ready_source():
    with pytest.raises(ExtractionError, match="not ready"):
        source_to_text((FIXTURES / "edgecase_file_not_ready.gz").read_bytes())


def test_pdf_source_sends_the_caller_to_the_pdf_path():
    with pytest.raises(ExtractionError, match="source is a PDF"):
        source_to_text(gzip.compress(b"%PDF-1.4\n1 0 obj <<>> endobj\n"))


# -- the output contract -----------------------------------------------------------------------

CONTRACT_DOC = r"""
\title{A \emph{Study} of Things\thanks{Funded by nobody.}}
\author{Ada Lovelace \and Alan Turing}
\maketitle
\begin{abstract}
We study things~\cite{a,b}. % a comment
Costs are 5\% lower.
\end{abstract}
\section{Introduction}\label{sec:intro}
Text with $x^2$ and \(y\) and \textbf{bold}, see Section~\ref{sec:intro} and \eqref{eq:1}.
A footnote\footnote{The \textit{note}.}, \url{https://example.org/a_b~c} and \href{https://x.org}{link text}.
Line one\\line two.

\#hashtag starts this paragraph.

\beq
E = mc^2 \label{eq:1}
\eeq
\begin{align*}
a &= b \\
c &= d
\end{align*}
$$ \int f $$
\[ g(x) \]
\begin{itemize}
\item First
\item Second
  \begin{enumerate}
  \item Inner one
  \item Inner two
  \end{enumerate}
\end{itemize}
\begin{description}
\item[Term] Meaning
\end{description}
\begin{comment}
hidden text one
\end{comment}
\iffalse hidden text two \fi
\begin{figure}[t]
\centering
\includegraphics[width=\linewidth]{fig.pdf}
Loose figure body text.
\caption{A nice figure.}
\end{figure}
\begin{table}
\caption{Numbers.}
\begin{tabular}{lr}
\hline
Name & Value \\
\hline
a & 1 \\
\end{tabular}
\end{table}
\begin{thm}[Main]
All is well.
\end{thm}
\subsection{Details}
\subsubsection{More}
\paragraph{Para title} Para body.
\section*{Acknowledgements}
Thanks.
\appendix
\section{Extra}
\subsection{Sub extra}
\begin{verbatim}
# python comment
x = 1  % not a comment
\end{verbatim}
\begin{thebibliography}{9}
\bibitem{a} A. Author, \emph{Title A}, 2020.
\bibitem[B99]{b} B. Author, Title B.
\end{thebibliography}
"""
CONTRACT_PREAMBLE = r"""
\newcommand{\beq}{\begin{equation}}
\newcommand{\eeq}{\end{equation}}
\newtheorem{thm}{Theorem}
"""


@pytest.fixture(scope="module")
def contract_text() -> str:
    return convert(CONTRACT_DOC, CONTRACT_PREAMBLE)


def test_front_matter(contract_text):
    assert contract_text.startswith(
        "# A Study of Things\n\nAda Lovelace, Alan Turing\n\n[^Funded by nobody.]\n\n## Abstract\n\n"
        "We study things [1, B99]. Costs are 5% lower.\n\n## 1 Introduction\n\n"
    )


def test_heading_numbering(contract_text):
    assert headings(contract_text) == [
        "# A Study of Things",
        "## Abstract",
        "## 1 Introduction",
        "### 1.1 Details",
        "#### 1.1.1 More",
        "##### Para title",
        "## Acknowledgements",
        "## A Extra",
        "### A.1 Sub extra",
        "## References",
    ]
    assert "##### Para title\n\nPara body." in contract_text


def test_inline_text_macros_refs_and_links(contract_text):
    assert (
        "Text with $x^2$ and $y$ and bold, see Section 1 and (1). A footnote [^The note.], "
        "https://example.org/a_b~c and link text. Line one\nline two."
    ) in contract_text


def test_no_body_line_starts_with_hash(contract_text):
    assert "\n\\#hashtag starts this paragraph.\n" in contract_text
    assert "\n\\# python comment\nx = 1  % not a comment\n" in contract_text
    assert_contract(contract_text)


def test_display_math_paragraphs(contract_text):
    for math in ("$$E = mc^2$$", "$$\\begin{aligned}a &= b \\\\ c &= d\\end{aligned}$$", "$$\\int f$$", "$$g(x)$$"):
        assert f"\n\n{math}\n\n" in contract_text


def test_lists_floats_theorems_and_bibliography(contract_text):
    assert "- First\n- Second\n  1. Inner one\n  2. Inner two\n- Term: Meaning" in contract_text
    assert "\n\nFigure 1: A nice figure.\n\n" in contract_text
    assert "Loose figure body" not in contract_text and "fig.pdf" not in contract_text
    assert "Table 1: Numbers.\n\n| Name | Value |\n| a | 1 |" in contract_text
    assert "Theorem 1 (Main). All is well." in contract_text
    assert contract_text.endswith("## References\n\n[1] A. Author, Title A, 2020.\n\n[B99] B. Author, Title B.\n")


def test_comments_are_dropped(contract_text):
    assert "hidden text" not in contract_text and "% a comment" not in contract_text


def test_sections_without_title_use_bold_front_matter_and_abstract_paragraph():
    body = r"""\begin{center}{\Large\bf On Things}\\ \vskip 1cm A. Writer\end{center}
\vskip 1cm
\centerline{\bf Abstract}
\vskip .5cm
We show things.
\section{Start}
Hello."""
    text = convert(body)
    assert text == "# On Things\n\nA. Writer\n\n## Abstract\n\nWe show things.\n\n## 1 Start\n\nHello.\n"


def test_chapters_shift_the_levels():
    text = convert(r"\chapter{One}\section{A}\subsection{B}\chapter*{Preface}\chapter{Two}\section{C}")
    assert headings(text) == ["## 1 One", "### 1.1 A", "#### 1.1.1 B", "## Preface", "## 2 Two", "### 2.1 C"]


def test_accents_quotes_dashes_and_latin1():
    text = latex_to_text(
        {
            "a.tex": '\\documentclass{article}\\begin{document}G\\"odel, Erd\\H{o}s, \\c{C}a\\u{g}lar, '
            "\\'{\\i}, ``quoted'' 1--2 a---b \u00e9t\u00e9\\end{document}".encode("latin-1")
        }
    )
    assert (
        text == "G\u00f6del, Erd\u0151s, \u00c7a\u011flar, \u00ed, \u201cquoted\u201d 1\u20132 a\u2014b \u00e9t\u00e9\n"
    )


# -- files: main-file choice and \input ------------------------------------------------------------


def test_main_file_choice_and_recursive_inputs():
    files = {
        "macros.tex": b"\\newcommand{\\x}{y}",
        "paper.tex": b"\\documentclass{article}\\begin{document}\\input{sec/intro}\\include{concl}\\end{document}",
        "ms.tex": b"% \\documentclass{article}\n\\begin{document}not this\\end{document}",
        "sec/intro.tex": b"\\section{Intro}\\input details",
        "sec/details.tex": b"Deep text.\\input{../../outside}\\input{/etc/passwd}\\input{sec/intro}",
        "concl.tex": b"\\section{End}Done.",
    }
    text = latex_to_text(files)
    assert text == "## 1 Intro\n\nDeep text.\n\n## 2 End\n\nDone.\n"


def test_input_cycles_and_repeated_includes_are_bounded():
    files = {
        "main.tex": b"\\documentclass{article}\\begin{document}\\input{a}\\end{document}",
        "a.tex": b"A\\input{b}\\input{main}",
        "b.tex": b"B\\input{a}\\input{b}",
    }
    assert latex_to_text(files) == "AB\n"
    # each level includes the next twice: 2**20 copies unless the size cap stops the expansion
    files = {f"l{k}.tex": b"x" * 100 + f"\\input{{l{k + 1}}}\\input{{l{k + 1}}}".encode() for k in range(20)}
    files["main.tex"] = b"\\documentclass{article}\\begin{document}\\input{l0}\\end{document}"
    start = time.process_time()  # CPU time: other jobs on the machine do not count
    text = latex_to_text(files, max_chars=50_000)
    assert time.process_time() - start < 5
    assert 40_000 < len(text) <= 50_001
    files = {f"w{k}.tex": f"\\input{{w{k + 1}}}".encode() * 10 for k in range(12)}
    files["main.tex"] = b"\\documentclass{article}\\begin{document}\\input{w0}Done\\end{document}"
    start = time.process_time()  # CPU time: other jobs on the machine do not count
    assert latex_to_text(files) == "Done\n"
    assert time.process_time() - start < 5


def test_bibliography_pulls_in_the_bbl_of_the_main_file():
    files = {
        "paper.tex": b"\\documentclass{article}\\begin{document}See \\cite{k}.\\bibliography{refs}\\end{document}",
        "paper.bbl": b"\\begin{thebibliography}{1}\n\\bibitem{k} K. Author.\n\\end{thebibliography}\n",
    }
    assert latex_to_text(files) == "See [1].\n\n## References\n\n[1] K. Author.\n"


def test_lone_tex_without_document_environment_and_no_tex_at_all():
    assert latex_to_text({"notes.tex": b"Plain \\emph{TeX} words."}) == "Plain TeX words.\n"
    with pytest.raises(ExtractionError):
        latex_to_text({"readme.md": b"# hi"})
    with pytest.raises(ExtractionError):
        latex_to_text(doc("% only a comment"))


def test_source_to_text_on_a_generated_tar():
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, payload in {
            "main.tex": b"\\documentclass{article}\\title{T}\\begin{document}\\maketitle Hi\\end{document}",
            "fig.png": b"\x89PNG" + bytes(100),
        }.items():
            info = tarfile.TarInfo(name)
            info.size = len(payload)
            archive.addfile(info, io.BytesIO(payload))
    assert source_to_text(buffer.getvalue()) == "# T\n\nHi\n"


# -- hostile input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        "{" * 100_000,
        "}" * 100_000,
        "{" * 50_000 + "x" + "}" * 50_000,
        "$" * 100_001,
        "\\(" * 100_000,
        "\\[" * 50_000,
        "[" * 100_000,
        "\\item[" * 50_000,
        "\\section{" * 50_000,
        "\\footnote{" * 50_000,
        "\\begin{itemize}\\item x" * 20_000 + "\\end{itemize}" * 20_000,
        "\\begin{equation}" * 50_000,
        "\\makecell{a\\\\" * 20_000 + "}" * 20_000,
        "\\begin{tabular}{c}" * 20_000 + "a&b" + "\\end{tabular}" * 20_000,
        "\\url{" * 50_000 + "}",
        "\\verb|" * 50_000,
        "\\iffalse" * 50_000,
        "\\" * 100_001,
        "%" * 100_000,
        "\\vskip" + " " * 500_000 + "1",
        "\\def" + " " * 500_000,
        "\\parskip=" + " " * 500_000 + "x",
    ],
)
def test_pathological_input_finishes_quickly(body):
    start = time.process_time()  # CPU time: other jobs on the machine do not count
    try:
        text = convert(body)
    except ExtractionError:
        text = ""
    assert time.process_time() - start < 5
    assert_contract(text)


def test_five_megabyte_paper_is_linear():
    paragraph = ("Text with $x^2$, \\textbf{bold} words \\cite{a,b} and \\ref{s} here. " * 20) + "\n\n"
    unit = paragraph + "\\section{S}\n\\begin{itemize}\\item one\\end{itemize}\n"
    body = unit * 3700
    assert len(body) > 5_000_000
    start = time.process_time()  # CPU time: other jobs on the machine do not count
    convert(unit * 370)
    tenth = time.process_time() - start
    start = time.process_time()
    text = convert(body)
    whole = time.process_time() - start
    assert whole < 25 * max(tenth, 0.01), (whole, tenth)  # linear: 10x the work, 10x the time; quadratic: 100x
    assert headings(text)[-1] == "## 3700 S"


def test_macros_with_arguments_are_expanded_and_recursion_is_bounded():
    text = convert(r"\def\boom{\boom\boom}\newcommand{\x}[1]{#1#1}\boom\x{a} safe", r"\def\y{\y}")
    assert text == "aa safe\n"  # \boom's leftovers are not glued to the expansion (`\boomaa`)


def test_macros_with_arguments_and_optional_defaults_are_expanded():
    preamble = "\n".join(
        [
            r"\newcommand{\sigmode}[1]{\ensuremath{\sigma_{#1}}}\newcommand{\units}[2][GeV]{#2~#1}",
            r"\def\pair#1#2{(#1, #2)}\DeclareRobustCommand{\emphx}[1]{\textit{#1}}",
            r"\NewDocumentCommand{\tagged}{O{note} m}{#1: #2}\def\upto#1.{#1}",
        ]
    )
    body = (
        r"Mode \sigmode{1} and \sigmode2 in text, $\sigmode{k}+1$ in math; \units{13} or \units[TeV]{13.6}; "
        r"\pair{a}{b} \pair xy; \emphx{word}; \tagged{body} \tagged[fix]{it}; \upto end."
    )
    assert convert(body, preamble) == (
        "Mode $\\sigma_{1}$ and $\\sigma_{2}$ in text, $\\sigma_{k}+1$ in math; 13 GeV or 13.6 TeV; "
        "(a, b) (x, y); word; note: body fix: it; end.\n"  # a delimited \def parameter is not guessed
    )


def test_an_xspace_ending_a_nested_macro_looks_past_the_outer_use():
    # arXiv 2202.12988's ptdr-definitions.sty: `\MCATNLO` ends in \xspace, `\MGvATNLO` ends in `\MCATNLO`
    preamble = (
        r"\newcommand{\MCATNLO}{\textsc{mc@nlo}\xspace}\newcommand{\MGvATNLO}{MadGraph5\_a\MCATNLO}"
        r"\newcommand{\pp}{\ensuremath{pp}\xspace}\newcommand{\ppbar}{\pp}\title{T}"
    )
    body = r"Using \MGvATNLO 2.3.3 and \MGvATNLO, with \ppbar collisions, \ppbar\cite{x} and \ppbar."
    assert convert(body, preamble).endswith(
        "Using MadGraph5_amc@nlo 2.3.3 and MadGraph5_amc@nlo, with $pp$ collisions, $pp$ [?] and $pp$.\n"
    )


def test_macro_calling_a_macro_with_arguments_keeps_spacing_and_math_apart():
    preamble = (
        r"\newcommand{\HepParticle}[3]{\ensuremath{\mathrm{#1}_{#2}^{#3}}\xspace}"
        r"\newcommand{\tq}{\HepParticle{t}{}{}}\newcommand{\PW}{\HepParticle{W}{}{}\xspace}"
        r"\newcommand{\tb}{\HepParticle{b}{}{}}\newcommand{\ket}[1]{\mbox{$|#1\rangle$}}"
    )
    body = r"The \tq quark, $\tq\bar\tq$, \tq. And \PW bosons \PW, \tb\tq{} x \tq$x$ and $\ket{x}\ket{y}$."
    assert convert(body, preamble) == (
        "The $\\mathrm{t}$ quark, $\\mathrm{t}\\bar\\mathrm{t}$, $\\mathrm{t}$. And $\\mathrm{W}$ bosons "
        "$\\mathrm{W}$, $\\mathrm{b}$ $\\mathrm{t}$ x $\\mathrm{t}$ $x$ and $|x\\rangle|y\\rangle$.\n"
    )


def test_numeric_and_math_mode_conditionals_in_macros_are_decided():
    preamble = (
        "\\newcommand{\\mode}[1]{\n  \\ifnum#1=1\n  A\\rightarrow B\n  \\else\n  \\ifnum#1=2\n  C\n  \\fi\n  \\fi\n}"
        r"\newcommand{\either}[1]{\ifmmode #1\else \textit{#1}\fi}\newcommand{\ifdo}[1]{\iftrue #1\fi}"
    )
    body = r"Modes $\mode{1}$, $\mode2$; \either{x} and $\either{y}$; \ifdo{z}."
    assert convert(body, preamble) == "Modes $A\\rightarrow B$, $C$; x and $y$; z.\n"


def test_one_decider_reads_conditionals_in_files_and_in_macro_bodies():
    # \ifnum on written-out numbers is decided in a file as in a macro's body; a braced
    # \ifthenelse is a command (closed by no \fi), so a macro holding one is expanded
    preamble = r"\newcommand{\pick}[1]{\ifthenelse{\boolean{b}}{#1}{no}\ifnum 2>1 !\fi}"
    body = r"\ifnum 0=1 hidden \else shown\fi{} and \pick{yes}."
    assert convert(body, preamble) == "shown and yes!.\n"


def test_recursive_and_exploding_macros_with_arguments_stay_bounded():
    preamble = r"\def\rec#1{\rec{#1}\rec{#1}}\def\e#1{#1#1#1#1#1#1#1#1#1}"
    start = time.process_time()  # CPU time: other jobs on the machine do not count
    text = convert(r"\rec{x} " * 200 + r"\e{\e{\e{\e{\e{\e{y}}}}}} end", preamble)
    assert time.process_time() - start < 5
    assert text.endswith(" end\n") and set(text[:-5]) <= set("xy ") and len(text) < 1_100_000


def test_unclosed_arguments_of_macros_with_arguments_stay_linear():
    preamble = r"\newcommand{\x}[1]{#1}\newcommand{\y}[2][d]{#1#2}"
    start = time.process_time()  # CPU time: other jobs on the machine do not count
    text = convert(r"\x{" * 20_000 + r"\y[{a}" * 20_000 + " end", preamble)
    assert time.process_time() - start < 10  # each failed use is charged what its scan may cost
    assert text.endswith("end\n")


def test_macros_with_arguments_stay_as_written_in_verbatim():
    body = (
        "Use \\x{a} as \\verb|\\x{b}| shows:\n\\begin{verbatim}\n\\x{c} $\n\\end{verbatim}\nthen \\x{d} and $\\x{e}$."
    )
    text = convert(body, r"\newcommand{\x}[1]{<#1>}")
    assert text == "Use <a> as \\x{b} shows:\n\n\\x{c} $\n\nthen <d> and $<e>$.\n"  # the verbatim $ opens no math


def test_zero_argument_text_macro_is_substituted():
    preamble = r"\title{Paper}\newcommand{\gorc}{S2ORC}\newcommand{\stork}{\textsc{S2ORC}\xspace}"
    text = convert(r"We introduce \gorc{}, a corpus. In \stork we link \stork's papers (see \stork).", preamble)
    assert text == "# Paper\n\nWe introduce S2ORC, a corpus. In S2ORC we link S2ORC's papers (see S2ORC).\n"


def test_math_macro_becomes_latex_in_text_and_in_math():
    preamble = r"\newcommand{\Tc}{\ensuremath{T_{\rm c}\,}}" "\n" r"\def\g{\gamma}\providecommand\Hc{H_c}"
    text = convert(r"Above \Tc the gap closes at \Tc, and $\chi_{\Tc} + \g\Hc^2$ and \Tc$x$.", preamble)
    assert text == (
        "Above $T_{\\rm c}$ the gap closes at $T_{\\rm c}$, and $\\chi_{T_{\\rm c}\\,} + \\gamma H_c^2$ "
        "and $T_{\\rm c}$ $x$.\n"
    )


def test_definition_order_and_unsafe_bodies():
    preamble = "\n".join(
        [
            r"\newcommand{\one}{first}\renewcommand{\one}{second}\providecommand{\one}{third}",
            r"\newcommand{\two}{kept}\renewcommand{\two}[1]{#1 args}",
            r"\def\three{\input{secret}}\def\four{\csname x\endcsname}\def\five{" + "y" * 201 + "}",
            r"\def\six{\seven!}\def\seven{no}\def\eight{\begin{itemize}}\renewcommand{\and}{ AND }",
            r"\author{Ada \and Alan}",
        ]
    )
    text = convert(r"[\one] [\two] [\three] [\four] [\five] [\six] [\seven]", preamble)
    assert text == "Ada, Alan\n\n[second] [] [] [] [] [no!] [no]\n"  # \six's \seven is expanded: nested


def test_self_and_mutually_recursive_macros_stay_bounded():
    preamble = r"\def\a{\a\a}\def\b{\c\c x}\def\c{\b\b y}"
    text = convert(r"\a" * 2000 + r" \b{} \c{} end", preamble)
    # each body is rescanned MAX_MACRO_DEPTH times, then the \a, \b, \c still left are dropped
    assert text.endswith("y end\n") and len(text) < 200 and set(text[:-5]) <= set("xy ")


def test_ten_thousand_macro_uses_stay_fast():
    preamble = r"\newcommand{\gorc}{S2ORC}\newcommand{\Tc}{\ensuremath{T_c}}"
    start = time.process_time()  # CPU time: other jobs on the machine do not count
    text = convert(r"\gorc{} and $\Tc$ and \Tc. " * 10_000, preamble)
    assert time.process_time() - start < 5
    assert text.count("S2ORC") == 10_000 and text.count("$T_c$") == 20_000


def test_total_expansion_is_capped(monkeypatch):
    monkeypatch.setattr("arxiv_mcp.text.latex.macros.MAX_MACRO_EXPANSION", 100)
    text = convert(r"\x{} " * 50, r"\def\x{word}")
    assert text.split() == ["word"] * 20  # each use costs len(body) + 1 = 5


ALPHABET = st.sampled_from(
    [
        "\\",
        "{",
        "}",
        "$",
        "$$",
        "&",
        "~",
        "%",
        "#",
        "[",
        "]",
        "\n",
        "\n\n",
        " ",
        "a",
        "\\\\",
        "\\(",
        "\\)",
        "\\[",
        "\\]",
        "\\item",
        "\\section",
        "\\begin{itemize}",
        "\\end{itemize}",
        "\\begin{equation}",
        "\\end{equation}",
        "\\begin{tabular}",
        "\\end{tabular}",
        "\\caption",
        "\\footnote",
        "\\cite",
        "\\begin{figure}",
        "\\end{figure}",
        "\\verb",
        "\\title",
        "\\begin{abstract}",
        "\\end{abstract}",
        "\\input",
        "\\appendix",
        "\\'",
        "\\c",
        "\\def",
        "\\newcommand",
        "\\url",
        "\\href",
        "\\iffalse",
        "\\fi",
        "\\def\\m{\\m\\m}",
        "\\newcommand{\\n}{$a\\,$}",
        "\\def\\o{\\n}",
        "\\m",
        "\\n",
        "\\o",
    ]
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ALPHABET, max_size=80))
def test_random_latex_never_crashes_and_keeps_the_contract(pieces):
    try:
        text = convert("".join(pieces))
    except ExtractionError:
        return
    assert_contract(text)


# -- bibliographies as the styles ship them (issue 15.1) ---------------------------------------

DEBRIS = re.compile(r"secondoftwo|firstoftwo|bibinfo|bibfield|NoStop|BibitemShut|providecommand|#\d|\\[A-Za-z@]")

REVTEX_BBL = r"""%apsrev4-2.bst 2019-01-14 (MD) hand-edited version of apsrev4-1.bst
\begin{thebibliography}{2}%
\makeatletter
\providecommand \@ifxundefined [1]{%
 \@ifx{#1\undefined}
}%
\providecommand \natexlab [1]{#1}%
\providecommand \href@noop [0]{\@secondoftwo}%
\providecommand \@sanitize@url [0]{\catcode `\\12\catcode `\$12\catcode
  `\&12\catcode `\#12\catcode `\^12\catcode `\_12\catcode `\%12\relax}%
\providecommand \doibase [0]{https://doi.org/}%
\providecommand \bibinfo  [0]{\@secondoftwo}%
\providecommand \bibfield  [0]{\@secondoftwo}%
\providecommand \Eprint [0]{\href }%
\providecommand \BibitemOpen [0]{}%
\providecommand \bibitemNoStop [0]{.\EOS\space}%
\providecommand \BibitemShut  [1]{\csname bibitem#1\endcsname}%
\let\auto@bib@innerbib\@empty
%</preamble>
\bibitem [{\citenamefont {Abrams}\ \emph {et~al.}(1980)\citenamefont {Abrams}
  \emph {et~al.}}]{Abrams:1979iu}%
  \BibitemOpen
  \bibfield  {author} {\bibinfo {author} {\bibfnamefont {G.}~\bibnamefont
  {Abrams}} \emph {et~al.},\ }\href {\doibase 10.1103/PhysRevLett.44.10}
  {\bibfield  {journal} {\bibinfo  {journal} {Phys. Rev. Lett.}\ }\textbf
  {\bibinfo {volume} {44}},\ \bibinfo {pages} {10} (\bibinfo {year}
  {1980})}\BibitemShut {NoStop}%
\bibitem [{\citenamefont {Zou}\ \emph {et~al.}(2020)}]{Zou:2020}%
  \BibitemOpen
  \bibfield  {author} {\bibinfo {author} {\bibfnamefont {J.}~\bibnamefont {Zou}}, \bibinfo {author}
  {\bibfnamefont {F.}~\bibnamefont {Xu}}},\ \Eprint {https://arxiv.org/abs/1911.00001} {arXiv:1911.00001}
  \BibitemShut {NoStop}%
\end{thebibliography}%
"""


def revtex_paper() -> dict[str, bytes]:
    tex = (
        "\\documentclass[aps,prd,twocolumn]{revtex4-2}\n\\begin{document}\n\\title{Decays}\n"
        "\\begin{abstract}We measure.\\end{abstract}\\maketitle\n"
        "\\section{Intro}Seen before~\\cite{Abrams:1979iu,Zou:2020}.\n\\bibliography{refs}\n\\end{document}\n"
    )
    return {"paper.tex": tex.encode(), "paper.bbl": REVTEX_BBL.encode()}


def references(text: str) -> list[str]:
    return [line for line in text.split("## References", 1)[1].split("\n") if line.strip()]


def test_revtex_bbl_entries_are_readable_lines_without_macro_debris():
    text = source_to_text(fake_eprint({k: v for k, v in revtex_paper().items()}))
    entries = references(text)
    assert len(entries) == 2
    assert "G. Abrams et al., Phys. Rev. Lett. 44, 10 (1980)" in entries[0]
    assert "J. Zou, F. Xu, arXiv:1911.00001" in entries[1]
    assert not DEBRIS.search(text), DEBRIS.search(text)


# -- cross references as a reader sees them (issue 15.4) ----------------------------------------


def test_refs_print_the_numbers_latex_gives_in_document_order():
    text = convert(
        r"""See \ref{sec:b}, \eqref{eq:two}, \ref{fig:x}, \ref{tab:y}, \autoref{app:z} and \ref{missing}.
\section{A}\label{sec:a}
\begin{equation}a\label{eq:one}\end{equation}
\begin{align}b &= c \nonumber \\ d &= e \label{eq:two}\end{align}
\section{B}\label{sec:b}
\begin{figure}\caption{Fig.}\label{fig:x}\end{figure}
\begin{figure}\caption{Other.}\end{figure}
\begin{table}\caption{Tab.}\label{tab:y}\begin{tabular}{c}\multirow{2}{*}{cell}\\ \multicolumn{1}{c}{wide}\\ \end{tabular}\end{table}
\appendix
\section{Z}\label{app:z}
\pagenumbering{roman}
"""
    )
    assert "See 2, (2), 1, 1, Appendix A and ??." in text
    assert "Figure 2: Other." in text and "Table 1: Tab." in text
    assert "| cell |\n| wide |" in text
    assert "roman" not in text


def test_citations_print_numbers_or_author_year_labels():
    numeric = convert(r"As \cite{x,y} show.\begin{thebibliography}{9}\bibitem{x} X.\bibitem{y} Y.\end{thebibliography}")
    assert "As [1, 2] show." in numeric and "[2] Y." in numeric
    named = convert(
        r"As \citet{x} and \citep{y} show."
        r"\begin{thebibliography}{}\bibitem[\protect\citeauthoryear{Ab \bgroup \em et al.\egroup}{2016}]{x} X."
        r"\bibitem[Cd and Ef(2009)Cd, Ef]{y} Y.\end{thebibliography}",
        r"\usepackage{natbib}",
    )
    assert "As Ab et al. (2016) and (Cd and Ef, 2009) show." in named
    # REVTeX's .bbl carries author-year labels but the class prints numbers
    text = source_to_text(fake_eprint(revtex_paper()))
    assert "Seen before [1, 2]." in text and "\n[1] G. Abrams" in text


def test_each_citation_form_prints_as_natbib_prints_it_in_numeric_and_author_year_styles():
    # `references._FORMS`: \\Citet as \\citet, any form it does not name as \\citep
    bib = (
        r"\begin{thebibliography}{}\bibitem[Ab et al.(2016)]{x} X.\bibitem[Cd(2009)]{y} Y."
        r"\end{thebibliography}"
    )
    forms = r"\citeauthor{x}; \citeyear{y}; \Citet{x}; \citealt{y}; \citealp{x}; \citeyearpar{y}; \cite{x}."
    numeric = convert(forms + bib, r"\usepackage[numbers]{natbib}")
    assert "Ab et al.; [2]; Ab et al. [1]; [2]; [1]; [2]; [1]." in numeric
    named = convert(forms + bib, r"\usepackage{natbib}")
    assert "Ab et al.; 2009; Ab et al. (2016); Cd 2009; Ab et al., 2016; (2009); (Ab et al., 2016)." in named


def test_a_starred_citation_prints_as_its_form_never_as_its_key():
    # the tokenizer reads `\\citealt*` as one name: each such name is a citation (`specs.CITE_COMMANDS`)
    bib = r"\begin{thebibliography}{}\bibitem[Ab et al.(2016)]{x} X.\bibitem[Cd(2009)]{y} Y.\end{thebibliography}"
    forms = r"\citet*{x}; \citealt*{y}; \citealp*{x}; \citeauthor*{y}; \citeyear*{x}."
    named = convert(forms + bib, r"\usepackage{natbib}")
    assert "Ab et al. (2016); Cd 2009; Ab et al., 2016; Cd; 2016." in named


# -- the paper's own macros (issue 15.2) ---------------------------------------------------------


def test_macros_from_the_papers_own_class_and_packages_are_expanded():
    files = {
        "paper.tex": (
            "\\documentclass[collab]{mycollab}\n\\usepackage{units}\n\\begin{document}\n"
            "\\section{\\texorpdfstring{$\\sqrt{s}=13\\TeV$}{sqrt(s) = 13 TeV} data}\n"
            "We use 138\\fbinv of data, a \\PQt quark with $\\pt>400\\GeV$, and \\unknownmacro{kept words}.\n"
            "\\end{document}\n"
        ),
        "mycollab.cls": "\\LoadClass{article}\n\\RequirePackage{particles}\n",
        "particles.sty": "\\DeclareRobustCommand{\\PQt}{{\\HepParticle{t}{}{}}\\Xspace} % top quark\n",
        "styles/units.sty": (
            "\\newcommand{\\GeV}{\\ensuremath{\\,\\text{Ge\\hspace{-.08em}V}}\\xspace}\n"
            "\\newcommand{\\TeV}{\\ensuremath{\\,\\text{Te\\hspace{-.08em}V}}\\xspace}\n"
            "\\newcommand{\\fbinv}{\\mbox{\\ensuremath{\\,\\text{fb}^{-1}}}\\xspace}\n"
            "\\newcommand{\\pt}{\\ensuremath{p_{\\mathrm{T}}}\\xspace}\n"
        ),
    }
    text = source_to_text(fake_eprint(files))
    assert "## 1 $\\sqrt{s}=13\\,\\text{TeV}$ data" in text
    assert "sqrt(s)" not in text
    assert "138$\\,\\text{fb}^{-1}$ of data, a ${t}$ quark with $p_{\\mathrm{T}}>400\\,\\text{GeV}$" in text
    assert "and kept words." in text


# -- front matter of collaboration and journal classes (issue 15.3) ----------------------------


def front(text: str) -> str:
    return text.split("## Abstract", 1)[0]


def test_svjour_thanksref_authors_and_numbered_institutes():
    text = convert(
        r"""\title{Showers}
\author{The DUNE Collaboration\\ A.~Abud\thanksref{Liv,CERN} \and B.~Abi\thanksref{Ox,e1}}
\thankstext{e1}{e-mail: b@x.org}
\institute{University of Liverpool, UK\label{Liv} \and CERN, Switzerland\label{CERN}
  \and\pagebreak[0] Oxford University, UK\label{Ox}}
\maketitle
\begin{abstract}We separate tracks.\end{abstract}
\section{Intro}Text.""",
        "",
    )
    head = front(text)
    assert "A. Abud$^{1,2}$, B. Abi$^{3}$" in head
    assert "$^{1}$University of Liverpool, UK; $^{2}$CERN, Switzerland; $^{3}$Oxford University, UK" in head
    assert "AbudLiv" not in text and "e1" not in text and "e-mail" not in text
    assert "## Abstract\n\nWe separate tracks." in text


def test_revtex_and_aastex_affiliations_follow_their_authors_once():
    text = convert(
        r"""\title{Branching fractions}
\author{M. Ablikim}\affiliation{Institute of High Energy Physics, Beijing}
\author{M. N. Achasov}\affiliation{Budker Institute, Novosibirsk}\affiliation{Novosibirsk State University}
\author{P. Adlarson}\author{Q. An}\affiliation{Institute of High Energy Physics, Beijing}
\collaboration{BESIII Collaboration}
\begin{abstract}We measure.\end{abstract}\maketitle
\section{Intro}Text.""",
        "",
    )
    head = front(text)
    assert "M. Ablikim$^{1}$, M. N. Achasov$^{2,3}$, P. Adlarson$^{1}$, Q. An$^{1}$, BESIII Collaboration" in head
    assert head.count("Institute of High Energy Physics") == 1
    assert "$^{2}$Budker Institute, Novosibirsk; $^{3}$Novosibirsk State University" in head


def test_elsarticle_frontmatter_labels_addresses_and_no_emails():
    text = convert(
        r"""\begin{frontmatter}
\title{A cas paper}
\author[a,b]{Jane Roe\corref{cor1}}\ead{jane@uni.edu}
\author[b]{John Doe}
\cortext[cor1]{Corresponding author}
\address[a]{Dept. of Physics, Uni A}
\affiliation[b]{organization={Lab B}, city={Town}}
\begin{abstract}We study.\end{abstract}
\end{frontmatter}
\section{Intro}Text.""",
        "",
    )
    head = front(text)
    assert "Jane Roe$^{a,b}$, John Doe$^{b}$" in head
    assert "$^{a}$Dept. of Physics, Uni A; $^{b}$Lab B, Town" in head  # the values, as elsarticle prints them
    assert "jane@uni.edu" not in text and "Corresponding" not in text
    assert text.startswith("# A cas paper\n")


def test_cms_note_header_abstract_command_and_collaboration_author():
    files = {
        "paper.tex": (
            "\\documentclass[cmspaper,collab]{cms-tdr}\n\\begin{document}\\cmsNoteHeader{B2G-20-002}\n"
            "\\title{Search for a \\texorpdfstring{$\\PWpr$}{W'} boson}\n"
            "\\abstract{A search is presented.}\n\\maketitle\n\\section{Introduction}Text.\n\\end{document}\n"
        ),
    }
    text = source_to_text(fake_eprint(files))
    assert text.startswith("# Search for a $\\PWpr$ boson\n\nThe CMS Collaboration\n\n## Abstract\n\nA search")
    assert "B2G-20-002" not in text and "W'" not in text


BIBLATEX_BBL = r"""% $ biblatex auxiliary file $
\begingroup
\makeatletter
\@ifundefined{ver@biblatex.sty}
  {\@latex@error{Missing 'biblatex' package}{}}
  {}
\endgroup

\refsection{0}
  \datalist[entry]{nty/global//global/global}
    \entry{vaswani2017}{inproceedings}{}
      \name{author}{3}{}{%
        {{hash=aa}{%
           family={Vaswani},
           familyi={V\bibinitperiod},
           given={Ashish},
           giveni={A\bibinitperiod}}}%
        {{hash=bb}{%
           family={Shazeer},
           familyi={S\bibinitperiod},
           given={Noam},
           giveni={N\bibinitperiod}}}%
        {{hash=cc}{%
           family={G{\'o}mez},
           given={Aidan\bibnamedelima N.},
           giveni={A\bibinitperiod\bibinitdelim N\bibinitperiod}}}%
      }
      \strng{namehash}{abc}
      \field{sortinit}{V}
      \field{booktitle}{Advances in Neural Information Processing Systems}
      \field{title}{Attention is all you need}
      \field{volume}{30}
      \field{year}{2017}
      \field{pages}{5998\bibrangedash 6008}
      \range{pages}{11}
      \field{eprint}{1706.03762}
      \field{eprinttype}{arXiv}
    \endentry
    \entry{roe2020}{article}{}
      \name{author}{1}{}{%
        {{hash=dd}{family={Roe}, familyi={R\bibinitperiod}, given={Jane}, giveni={J\bibinitperiod}}}%
      }
      \field{journaltitle}{Phys. Rev. D}
      \field{title}{Heavy things}
      \field{volume}{101}
      \field{year}{2020}
      \verb{doi}
      \verb 10.1103/PhysRevD.101.014011
      \endverb
    \endentry
  \enddatalist
\endrefsection
\endinput
"""


def test_biblatex_bbl_entries_become_readable_lines():
    files = {
        "main.tex": (
            "\\documentclass{article}\n\\usepackage[backend=biber]{biblatex}\n\\addbibresource{refs.bib}\n"
            "\\begin{document}\nAs shown~\\cite{vaswani2017,roe2020}.\n\\printbibliography[heading=bibintoc]\n"
            "\\end{document}\n"
        ),
        "main.bbl": BIBLATEX_BBL,
    }
    text = source_to_text(fake_eprint(files))
    assert "As shown [1, 2]." in text
    entries = references(text)
    assert entries[0] == (
        "[1] Ashish Vaswani, Noam Shazeer, and Aidan N. G\u00f3mez. Attention is all you need. "
        "Advances in Neural Information Processing Systems 30. 5998\u20136008. 2017. arXiv:1706.03762."
    )
    assert entries[1] == "[2] Jane Roe. Heavy things. Phys. Rev. D 101 (2020). doi:10.1103/PhysRevD.101.014011."
    assert not DEBRIS.search(text) and "heading=" not in text and "hash=" not in text


def test_biblatex_alphabetic_labels_take_their_extra_letter():
    """biber's `extraalpha` letters an alphabetic label (`Roe20b`); a digit that is not a
    decimal number (a hostile `²`) letters nothing and never fails the paper."""
    bbl = BIBLATEX_BBL.replace(
        "\\field{journaltitle}", "\\field{labelalpha}{Roe20}\\field{extraalpha}{2}\\field{journaltitle}"
    )
    files = {
        "main.tex": "\\documentclass{article}\n\\begin{document}\nSee~\\cite{roe2020}.\n\\printbibliography\n\\end{document}\n",
        "main.bbl": bbl,
    }
    assert "\n[Roe20b] Jane Roe. Heavy things." in source_to_text(fake_eprint(files))
    files["main.bbl"] = bbl.replace("{extraalpha}{2}", "{extraalpha}{\u00b2}")
    assert "\n[Roe20] Jane Roe. Heavy things." in source_to_text(fake_eprint(files))


def test_algpseudocode_block_definitions_leave_no_parameter_debris():
    text = convert(  # in the body, where an \\input algorithm file puts them
        r"\algblock{ArmElim}{EndArmElim}\algnewcommand\algorithmicArmElim{\textbf{Arm}}"
        r"\algrenewtext{ArmElim}[1]{\algorithmicArmElim\ #1}\algblockdefx{Go}{EndGo}[1]{Go #1}{End}Steps."
    )
    assert text == "Steps.\n"


def test_plain_tex_rules_and_struts_print_no_dimensions():
    """A class's table struts (`\\vrule depth 6pt height 12pt width 0pt`) are spacing, not text."""
    text = convert(r"\section{S}Top\vrule depth 6pt height 12pt width 0pt row and \hrule height .4pt end.", "")
    assert "Top row and end." in text
    assert not re.search(r"\d+pt|depth|height|width", text)


def test_a_label_macro_with_an_etoolbox_toggle_still_labels_and_prints_the_toggled_branch():
    """`\\newcommand{\\seclabel}[1]{\\label{sec:#1}\\iftoggle{showlabels}{[#1]}{}}`: the toggle is
    decided from the source's \\togglefalse/\\toggletrue, so the label exists and `Section ??` is not."""
    preamble = (
        r"\newtoggle{showlabels}\togglefalse{showlabels}\newbool{draft}\setbool{draft}{true}"
        r"\newcommand{\seclabel}[1]{\label{sec:#1}\iftoggle{showlabels}{\texttt{[#1]}}{}}"
        r"\newcommand{\secref}[1]{Section~\ref{sec:#1}}"
    )
    text = convert(
        r"\section{Intro}See \secref{x}. \ifbool{draft}{Draft.}{Final.}\section{Two}\seclabel{x}Text.", preamble
    )
    assert "See Section 2. Draft." in text and "## 2 Two\n\nText." in text
    assert "??" not in text and "[x]" not in text and "Final" not in text


def test_old_tikzstyle_definitions_print_nothing():
    text = convert(
        r"\section{S}A\tikzstyle{proc}=[draw, circle, inner sep=2pt] \tikzstyle{client} = [proc, fill=red!25]B."
    )
    assert "A B." in text and "proc" not in text and "2pt" not in text


def test_a_windows_1252_source_reads_its_quotes_and_dashes():
    raw = b"\\documentclass{article}\\begin{document}\\section{S}Riemann\x92s \x93zeta\x94 \x96 caf\xe9.\\end{document}"
    text = latex_to_text({"main.tex": raw})
    assert "Riemann\u2019s \u201czeta\u201d \u2013 caf\u00e9." in text


def test_inline_code_of_minted_and_listings_prints_the_code_alone():
    """`\\mintinline{haskell}{>>=}`, through a paper's `\\hs` shorthand too, and `\\lstinline|...|`."""
    preamble = r"\newcommand{\hs}{\mintinline{haskell}}"
    text = convert(
        r"\section{S}Bind \hs{>>=}, \mintinline[style=x]{c}{y++}, \lstinline[language=C]|a_b{c| and \lstinline{z}.",
        preamble,
    )
    assert "Bind >>=, y++, a_b{c and z." in text
    assert "haskell" not in text and "language" not in text


def test_code_options_over_lines_or_with_braced_brackets_are_not_code():
    """One options grammar for every code environment and \\lstinline: minted's written over
    lines, and listings' `{[x86]Assembler}` dialect in braces, print nothing."""
    text = convert(
        "\\section{S}\\begin{minted}[fontsize=\\small,\n  linenos]{python}\nprint(1)\n\\end{minted}"
        "Code \\lstinline[language={[x86]Assembler}]|mov ax| here."
    )
    assert "print(1)" in text and "Code mov ax here." in text
    assert "linenos" not in text and "python" not in text and "Assembler" not in text


def test_dashed_table_rules_of_arydshln_print_no_dash_pattern():
    text = convert(
        r"\section{S}\begin{tabular}{ll}A & B \\ \hdashline[0.4pt/2pt] C & D \\ \cdashline{1-2}[1pt/1pt] E & F\end{tabular}"
    )
    assert "| A | B |\n| C | D |\n| E | F |" in text and "pt" not in text


def test_length_registers_set_in_the_body_print_no_dimension():
    """`\\fboxsep=1.5pt`, `\\topskip0pt`, `\\parindent 0pt`, `\\voffset=-0.8truein`: settings, not text."""
    text = convert(r"\section{S}A \fboxsep=1.5pt B \topskip0pt C \parindent 0pt D \voffset=-0.8truein E.")
    assert "A B C D E." in text


def test_a_skip_between_paragraphs_leaves_the_command_after_it():
    """`\\bigskip` ends in `skip` like a length register but takes no value: the heading or font
    command right after it was dropped as if it were the register's value."""
    text = convert(r"A\bigskip\section{X} B \medskip\textbf{C} \smallskip\subsection{Y} D")
    assert text == "A\n\n## 1 X\n\nB\n\nC\n\n### 1.1 Y\n\nD\n"


def test_a_length_set_to_a_register_or_a_multiple_of_one_prints_nothing():
    """TeX reads `\\parskip=\\baselineskip` and `\\baselineskip=1.2\\baselineskip` as one assignment
    each: an optional `=`, then a dimension that may be a factor and a register. Before, the `=`
    (or `=0pt` of the next setting, or the factor `1.2`) was printed."""
    settings = (
        r"\setlength{\parskip}{0.5em}\parskip=\baselineskip \parindent=0pt"
        r"\baselineskip=1.2\baselineskip \itemsep=-\parsep \columnsep 2em"
        "\n\\abovedisplayskip=3pt plus 1pt minus 1pt \\textwidth=6.5in\n"
    )
    text = convert(rf"\section{{S}}A {settings} B \vskip\baselineskip C \hskip 2pt D.", preamble=settings)
    assert text == "## 1 S\n\nA B\n\nC D.\n"  # \\vskip ends the paragraph


def test_a_literal_dollar_stays_escaped_beside_math():
    """`\\$5M` is a price, not the start of a formula: the text keeps TeX's (and Markdown's)
    escape, so `$...$` pairs are the formulas alone (DeepSeek-V3: "$2 per GPU hour ... $5.576M")."""
    text = convert(r"It costs \$2 per hour, \textdollar 5.576M in all, and $x^2$ more.")
    assert r"It costs \$2 per hour, \$5.576M in all, and $x^2$ more." in text
    assert re.findall(r"(?<!\\)\$([^$]*)(?<!\\)\$", text) == ["x^2"]


def test_math_ending_in_a_control_space_or_row_break_closes_unescaped():
    """`$1, 2, \\ldots\\ $` (a control space before the closing dollar, as old papers write it)
    must not end in a backslash: the closing dollar would read as a literal `\\$`."""
    text = convert(r"a value $-2, 0, 2, \ldots\ $. Then $x \\$ and $y$.")
    assert r"$-2, 0, 2, \ldots$." in text
    assert "$x$ and $y$" in text
