"""The LaTeX converter's Document: headings with their printed numbers, figures and tables with
LaTeX's numbers, numbered equations, bibliography entries with their ids, citations as printed."""

from __future__ import annotations

import io
import tarfile

from arxiv_mcp.text.bibids import publication_year
from arxiv_mcp.text.document import Algorithm, Equation, Figure, Heading, Kind, Reference, Table
from arxiv_mcp.text.extract import from_source
from arxiv_mcp.text.latex.convert import latex_to_document
from tests.pdfgen import make_pdf

ARTICLE = r"""\documentclass{article}
\usepackage{amsmath,graphicx,booktabs,multirow,subcaption}
\numberwithin{equation}{section}
\graphicspath{{figs/}}
\begin{document}
\title{Structured}
\author{A. One \and B. Two}
\maketitle
\begin{abstract}We test.\end{abstract}
\section{Intro}
Prior work \cite{alpha,beta} and \cite{gamma}; see Fig.~\ref{fig:plot}, Table~\ref{tab:res} and \eqref{eq:two}.
\begin{equation}x = 1 \label{eq:one}\end{equation}
\begin{align}
a &= b \nonumber \\
  &= c \label{eq:two} \\
d &= \begin{cases} 1 \\ 2 \end{cases} \label{eq:three}
\end{align}
\begin{equation*}z\end{equation*}
\section*{Unnumbered}
\begin{figure}[t]
\centering
\includegraphics[width=\linewidth]{plot}
\caption{A plot of things \cite{beta}.}
\label{fig:plot}
\end{figure}
\begin{figure*}
\begin{subfigure}{0.4\textwidth}\includegraphics{left.png}\caption{Left side}\label{fig:left}\end{subfigure}
\begin{subfigure}{0.4\textwidth}\includegraphics{right}\caption{Right side}\end{subfigure}
\caption{Two panels.}
\end{figure*}
\begin{table}
\caption{Results.}\label{tab:res}
\begin{tabular}{lcc}
\toprule
Model & \multicolumn{2}{c}{Score} \\
\midrule
\multirow{2}{*}{Ours} & 1.5 & $\pm 0.2$ \\
 & 2.0 & 3 \\
\bottomrule
\end{tabular}
\end{table}
\subsection{Details}
\begin{figure}\includegraphics{nocaption}\end{figure}
\appendix
\section{Proofs}
\begin{equation}y = 2\end{equation}
\begin{thebibliography}{9}
\bibitem{alpha} A. Author, A title, arXiv:2401.12345 (2024).
\bibitem{beta} B. Author, \href{https://arxiv.org/abs/hep-th/9901001}{Another}, Phys. Rev. D, doi:10.1103/PhysRevD.1.1.
\bibitem{gamma} C. Author, A book (Publisher, 1999).
\end{thebibliography}
\end{document}
"""

FILES = {
    "paper/main.tex": ARTICLE.encode(),
    "paper/figs/plot.pdf": b"%PDF",
    "paper/left.png": b"",
    "paper/right.jpg": b"",
}


def document():
    return latex_to_document(FILES)


def test_headings_carry_the_numbers_latex_prints():
    headings = document().records(Heading)
    numbered = [(h.level, h.title, h.number) for h in headings if h.number]
    assert numbered == [(2, "1 Intro", "1"), (3, "1.1 Details", "1.1"), (2, "A Proofs", "A")]
    assert any(h.title == "Unnumbered" and h.number is None for h in headings)


def test_figures_have_latexs_numbers_captions_images_and_subfigures():
    figures = document().records(Figure)
    assert [(f.label, f.number, f.caption, f.anchor) for f in figures] == [
        ("Figure 1", "1", "A plot of things [2].", "fig:plot"),
        ("Figure 2", "2", "Two panels.", None),
    ]
    assert figures[0].images == ("paper/figs/plot.pdf",)
    subfigures = figures[1].subfigures
    assert [(s.letter, s.caption, s.images) for s in subfigures] == [
        ("a", "Left side", ("paper/left.png",)),
        ("b", "Right side", ("paper/right.jpg",)),
    ]


def test_table_rows_spread_spans_and_header_stops_at_the_first_rule():
    (table,) = document().records(Table)
    assert (table.label, table.number, table.caption, table.anchor) == ("Table 1", "1", "Results.", "tab:res")
    assert table.rows == (("Model", "Score", "Score"), ("Ours", "1.5", "$\\pm 0.2$"), ("Ours", "2.0", "3"))
    assert table.header_rows == 1
    block = document().blocks_of(Kind.TABLE)[0]
    assert document().text[block.start : block.end].startswith("Table 1: Results.\n\n| Model | Score |")


def test_numbered_equations_one_per_numbered_row_within_sections():
    equations = document().records(Equation)
    assert [(e.number, e.anchor) for e in equations] == [
        ("1.1", "eq:one"),
        ("1.2", "eq:two"),
        ("1.3", "eq:three"),
        ("A.1", None),
    ]
    assert equations[1].latex == "\\begin{aligned}a &= b \\nonumber \\\\ &= c\\end{aligned}"
    assert "\\begin{cases} 1 \\\\ 2 \\end{cases}" in equations[2].latex
    assert "and (1.2)." in document().text


def test_references_with_labels_keys_ids_and_citations_as_printed():
    doc = document()
    references = doc.records(Reference)
    assert [(r.label, r.key, r.arxiv_id, r.doi) for r in references] == [
        ("1", "alpha", "2401.12345", None),
        ("2", "beta", "hep-th/9901001", "10.1103/PhysRevD.1.1"),
        ("3", "gamma", None, None),
    ]
    assert references[2].text == "C. Author, A book (Publisher, 1999)."
    cited = [(doc.text[c.start : c.end], c.targets) for c in doc.citations]
    assert cited == [("[1, 2]", ("alpha", "beta")), ("[3]", ("gamma",)), ("[2]", ("beta",))]  # the last in Figure 1


def test_a_key_the_bibliography_lacks_is_never_printed():
    files = {"main.tex": rb"\documentclass{article}\begin{document}See \cite{nowhere} and \ref{gone}.\end{document}"}
    doc = latex_to_document(files)
    assert "See [?] and ??." in doc.text
    assert "nowhere" not in doc.text and "gone" not in doc.text
    assert [c.targets for c in doc.citations] == [("nowhere",)]


def test_revtex_numbers_sections_in_roman_and_appendix_equations_without_a_stop():
    source = rb"""\documentclass{revtex4-2}\begin{document}
\section{Intro}\subsection{Setup}\label{s:setup} See \ref{s:setup}.
\appendix\section{Extra}\begin{equation}e\end{equation}
\end{document}"""
    doc = latex_to_document({"main.tex": source})
    numbers = [h.number for h in doc.records(Heading) if h.number]
    assert numbers == ["I", "I.A", "A"]
    assert "See I.A." in doc.text
    assert [e.number for e in doc.records(Equation)] == ["A1"]


def test_the_text_is_the_documents_and_blocks_lie_on_it():
    doc = document()
    for block in doc.blocks:
        assert doc.text[block.start : block.end].strip()
    figure = doc.blocks_of(Kind.FIGURE)[1]
    assert doc.text[figure.start : figure.end] == "Figure 2: Two panels.\n(a) Left side\n(b) Right side"


def test_algorithms_count_apart_subequations_take_letters_and_theequation_sets_the_unit():
    source = r"""\documentclass{article}
\renewcommand{\theequation}{\thesection.\arabic{equation}}
\begin{document}\section{A}
\begin{algorithm}\caption{Search.}\begin{algorithmic}\State step\end{algorithmic}\end{algorithm}
\begin{figure}\caption{Plot.}\end{figure}
\begin{subequations}\label{group}\begin{align}a \label{first} \\ b\end{align}\end{subequations}
\begin{equation}c\end{equation} See \eqref{group} and \eqref{first}.
\end{document}"""
    doc = latex_to_document({"main.tex": source.encode()})
    assert "Algorithm 1: Search." in doc.text and "See (1.1) and (1.1a)." in doc.text
    assert [(f.label, f.caption) for f in doc.records(Figure)] == [("Figure 1", "Plot.")]
    assert [e.number for e in doc.records(Equation)] == ["1.1a", "1.1b", "1.2"]


def test_an_algorithm_record_is_its_caption_as_counted_not_its_text_read_back():
    # a caption label format of the paper's prints `Algorithm (2)`; the record still has the
    # caption's name, number and words, and the float's other lines as its code; a caption
    # typed by hand is read from the text
    source = r"""\documentclass{article}\usepackage{caption}
\DeclareCaptionLabelFormat{paren}{#1 (#2)}\captionsetup{labelformat=paren}
\begin{document}\section{A}
\begin{algorithm}\caption{First.}\begin{algorithmic}\State one\end{algorithmic}\end{algorithm}
\begin{algorithm}\caption{Second.}\begin{algorithmic}\State two\end{algorithmic}\end{algorithm}
\begin{algorithm}\textbf{Procedure 7.} Typed.\begin{algorithmic}\State three\end{algorithmic}\end{algorithm}
\end{document}"""
    doc = latex_to_document({"main.tex": source.encode()})
    records = doc.records(Algorithm)
    assert "Algorithm (2): Second." in doc.text
    assert [(a.label, a.number, a.caption, a.code) for a in records] == [
        ("Algorithm", "1", "First.", "one"),
        ("Algorithm", "2", "Second.", "two"),
        ("Procedure", "7", "Typed.", "three"),  # typed by hand: LaTeX numbers nothing, the number is read
    ]


def test_a_longtable_is_a_table_float_of_its_own_and_counts_with_the_table_floats():
    source = r"""\documentclass{article}\usepackage{longtable}\begin{document}\section{S}
See Table~\ref{long}.
\begin{longtable}{lr}\caption{Long one.}\label{long}\\ \hline A & B \\ \hline\endhead
1 & 2 \\ 3 & 4 \\ \end{longtable}
\begin{table}\caption{Outer.}\begin{tabular}{l} a \\ \end{tabular}\end{table}
\end{document}"""
    doc = latex_to_document({"main.tex": source.encode()})
    assert "See Table 1." in doc.text and "Table 1: Long one.\n\n| A | B |\n| 1 | 2 |\n| 3 | 4 |" in doc.text
    assert [(t.label, t.caption, t.rows, t.header_rows, t.anchor) for t in doc.records(Table)] == [
        ("Table 1", "Long one.", (("A", "B"), ("1", "2"), ("3", "4")), 1, "long"),
        ("Table 2", "Outer.", (("a",),), 0, None),
    ]


def test_in_subequations_theequation_prints_the_group_and_its_letter_then_counting_goes_on():
    source = r"""\documentclass{article}\usepackage{amsmath}\begin{document}\section{S}
\begin{equation}a\end{equation}
\begin{subequations}\label{g}\begin{align}b \label{b1}\\ c\end{align}Now \theequation.\end{subequations}
\begin{equation}d\label{d}\end{equation} See \eqref{g}, \eqref{b1}, \eqref{d}; \theequation.
\end{document}"""
    doc = latex_to_document({"main.tex": source.encode()})
    assert "Now 2b." in doc.text and "See (2), (2a), (3); 3." in doc.text
    assert [e.number for e in doc.records(Equation)] == ["1", "2a", "2b", "3"]


def test_compressing_styles_print_runs_as_ranges_and_keep_every_key_as_a_target():
    items = "".join(rf"\bibitem{{k{n}}} Entry {n}." for n in range(1, 7))
    source = (
        r"\documentclass{revtex4-2}\begin{document}See \cite{k3,k1,k2,k5} and \cite{k6,k4}."
        r"\begin{thebibliography}{9}" + items + r"\end{thebibliography}\end{document}"
    )
    doc = latex_to_document({"main.tex": source.encode()})
    cited = [(doc.text[c.start : c.end], c.targets) for c in doc.citations]
    assert cited == [("[1\u20133, 5]", ("k3", "k1", "k2", "k5")), ("[4, 6]", ("k6", "k4"))]


def test_ieeetran_numbers_sections_in_roman_with_lettered_subsections_but_compsoc_in_arabic():
    body = r"\begin{document}\section{A}\subsection{B}\subsubsection{C}\label{c}See \ref{c}.\begin{table}\caption{T}\end{table}\end{document}"
    ieee = latex_to_document({"main.tex": (r"\documentclass[conference]{IEEEtran}" + body).encode()})
    assert [h.number for h in ieee.records(Heading) if h.number] == ["I", "I-A", "I-A1"]
    assert "See I-A1." in ieee.text and [t.label for t in ieee.records(Table)] == ["TABLE I"]
    compsoc = latex_to_document({"main.tex": (r"\documentclass[journal,compsoc]{IEEEtran}" + body).encode()})
    assert [h.number for h in compsoc.records(Heading) if h.number] == ["1", "1.1", "1.1.1"]


def test_a_hostile_span_cannot_grow_a_table_and_old_figure_commands_name_their_images():
    source = r"""\documentclass{article}\begin{document}
\begin{figure}\epsfig{file=figs/a.eps,width=3in}\caption{A.}\end{figure}
\begin{figure}\includegraphics{b.eps}\caption{B.}\end{figure}
\begin{table}\caption{T}\begin{tabular}{c}\multicolumn{9999}{c}{x} \\ \multicolumn{99999999}{c}{y} \\\end{tabular}\end{table}
\end{document}"""
    doc = latex_to_document({"main.tex": source.encode()}, members=("figs/a.eps", "b.pdf"))
    assert [f.images for f in doc.records(Figure)] == [("figs/a.eps",), ("b.pdf",)]
    assert [len(row) for row in doc.records(Table)[0].rows] == [64, 1]


def test_an_eprint_macro_or_a_link_that_is_an_id_names_the_entrys_arxiv_id():
    source = r"""\documentclass{article}\begin{document}\cite{a,b,c,d}
\begin{thebibliography}{4}
\bibitem{a} A. One, Title, \eprint{1207.7214}.
\bibitem{b} B. Two, Title, \eprint[hep-th]{hep-th/9901001}.
\bibitem{c} C. Three, Title, \url{2101.00001}.
\bibitem{d} D. Four, Title, p. 2101.00001 (2021).
\end{thebibliography}\end{document}"""
    references = latex_to_document({"main.tex": source.encode()}).records(Reference)
    assert [r.arxiv_id for r in references] == ["1207.7214", "hep-th/9901001", "2101.00001", None]
    assert references[0].text == "A. One, Title, 1207.7214."


def test_labels_on_unnumbered_rows_and_in_drawings_name_what_latex_names():
    source = r"""\documentclass{article}\begin{document}
\begin{eqnarray}\label{sys} a &=& b \notag \\ c &=& d \end{eqnarray}
\begin{figure}\begin{tikzpicture}\draw (0,0) -- (1,1);\label{fig:drawn}\end{tikzpicture}\caption{Drawn.}\end{figure}
See (\ref{sys}) and Figure~\ref{fig:drawn}.
\end{document}"""
    doc = latex_to_document({"main.tex": source.encode()})
    assert [(e.number, e.anchor) for e in doc.records(Equation)] == [("1", "sys")]
    assert "See (1) and Figure" in doc.text and "??" not in doc.text


def _tar(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, body in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(body)
            archive.addfile(info, io.BytesIO(body))
    return buffer.getvalue()


def test_a_pdfpages_wrapper_reads_as_the_pdf_it_includes():
    """Some e-prints are a LaTeX file that only includes the authors' PDF with pdfpages: the
    paper's text is that PDF's."""
    wrapper = rb"\documentclass{article}\usepackage{pdfpages}\begin{document}\includepdf[pages=-]{paper}\end{document}"
    raw = _tar({"main.tex": wrapper, "paper.pdf": make_pdf(["Included paper words on page one."])})
    assert "Included paper words on page one." in from_source(raw).text


def test_a_paper_with_sections_keeps_its_latex_text_beside_an_included_pdf():
    main = (
        rb"\documentclass{article}\usepackage{pdfpages}\begin{document}\section{Intro}Our own text."
        rb"\includepdf{supplement.pdf}\end{document}"
    )
    raw = _tar({"main.tex": main, "supplement.pdf": make_pdf(["Supplement only."])})
    text = from_source(raw).text
    assert "Our own text." in text and "Supplement only." not in text


def test_bibitems_with_an_empty_label_and_key_are_still_entries():
    """ASP-style lists write `\\bibitem[]{} Author A., 1992, ApJ 385, 621` and cite in the text."""
    source = (
        r"\documentclass{article}\begin{document}\section{S}As Applegate (1992) says."
        r"\begin{thebibliography}{}\bibitem[]{} Applegate J.H., 1992, ApJ 385, 621"
        r"\bibitem[]{} Berdyugina S.V., 2002, AN 323, 192\end{thebibliography}\end{document}"
    )
    document = latex_to_document({"main.tex": source.encode()})
    references = document.records(Reference)
    assert [reference.text for reference in references] == [
        "Applegate J.H., 1992, ApJ 385, 621",
        "Berdyugina S.V., 2002, AN 323, 192",
    ]
    assert "[]" not in document.text


def test_listings_captions_given_as_options_are_numbered_captions_that_refs_name():
    source = r"""\documentclass{article}\usepackage{listings}\begin{document}\section{S}
See \ref{fib} and \ref{two}.
\lstinputlisting[language=Pascal,caption={fib.pl -- Fibonacci},label={fib}]{fib.pl}
\begin{lstlisting}[caption=Second one,label=two]
x := 1
\end{lstlisting}
\begin{lstlisting}[language=C]
y = 2;
\end{lstlisting}
\end{document}"""
    text = latex_to_document({"main.tex": source.encode()}).text
    assert "See 1 and 2." in text
    assert "Listing 1: fib.pl \u2013 Fibonacci" in text and "Listing 2: Second one\n\nx := 1" in text
    assert "language=" not in text and "fib.pl}" not in text and "y = 2;" in text


def test_listings_shown_in_verbatim_stay_as_written_and_titles_print_unnumbered():
    """The tokenizer makes a listing's caption option a float where it reads the listing, so a
    verbatim showing listings' source prints it as typed; `title=` prints before the code."""
    source = r"""\documentclass{article}\begin{document}\section{S}
\begin{verbatim}
\begin{lstlisting}[caption=Shown]
x
\end{lstlisting}
\end{verbatim}
Then \begin{lstlisting}[title=T,
  language=C]
y
\end{lstlisting}
\end{document}"""
    text = latex_to_document({"main.tex": source.encode()}).text
    assert "\\begin{lstlisting}[caption=Shown]\nx\n\\end{lstlisting}" in text and "Listing" not in text
    assert "Then\n\nT\n\ny" in text and "language" not in text


def test_alpha_labels_with_etalchar_print_as_the_pdf():
    """amsalpha/alpha: four or more authors give `\\bibitem[A{\\etalchar{+}}85]`, printed A+85."""
    source = (
        r"\documentclass{article}\begin{document}\section{S}By [\cite{a}].\begin{thebibliography}{A{+}85}"
        r"\def\etalchar#1{$^{#1}$}\bibitem[A{\etalchar{+}}85]{a} A. One et al., Title, 1985.\end{thebibliography}\end{document}"
    )
    text = latex_to_document({"main.tex": source.encode()}).text
    assert "[A+85]" in text and "^{+}" not in text


def test_aas_journal_macros_print_their_abbreviations_even_when_the_class_defines_them():
    """`\\apj` in an AASTeX or MNRAS .bbl prints ApJ; aastex631.cls defines it through its own
    internals (`\\ref@jnl{ApJ}`), which read as nothing."""
    bbl = (
        r"\begin{thebibliography}{}\bibitem[\protect\citeauthoryear{Brienza et~al.,}{Brienza et~al.,}{2016}]{b}"
        r"Brienza M. et~al., 2016, \aap, 585, 29\bibitem[{Dey} et al.(2019)]{d}{Dey}, A. 2019, \aj, 157, 168"
        r"\end{thebibliography}"
    )
    files = {
        "main.tex": (
            rb"\documentclass{aastex631}\begin{document}\section{S}See \citet{b} and \citet{d}.\bibliography{refs}\end{document}"
        ),
        "main.bbl": bbl.encode(),
        "aastex631.cls": rb"\renewcommand\apj{\ref@jnl{ApJ}}\renewcommand\aj{\ref@jnl{AJ}}\renewcommand\aap{\ref@jnl{A\&A}}",
    }
    document = latex_to_document(files)
    assert [reference.text.split("] ", 1)[-1] for reference in document.records(Reference)] == [
        "Brienza M. et al., 2016, A&A, 585, 29",
        "Dey, A. 2019, AJ, 157, 168",
    ]
    assert "Brienza et al.,," not in document.text


def test_an_aastex_deluxetable_is_a_table_with_its_caption_header_rows_and_notes():
    source = r"""\documentclass{aastex631}\begin{document}\section{S}See Table \ref{t}.
\begin{deluxetable*}{lcc}[t!]
\tablenum{1}
\tabletypesize{\scriptsize}
\tablecaption{Observed sources\label{t}}
\tablewidth{0pt}
\tablehead{\colhead{Name} & \colhead{$z$} & \colhead{Exp. (ks)}}
\startdata
\cutinhead{XRGs}
3C 403 & 0.059 & 49 \\
NGC 326 & 0.048 & 94
\enddata
\tablecomments{Exposures are net of flares.}
\end{deluxetable*}
\end{document}"""
    document = latex_to_document({"main.tex": source.encode()})
    (table,) = document.records(Table)
    assert table.label == "Table 1" and table.caption == "Observed sources"
    assert "| Name | $z$ | Exp. (ks) |" in document.text and "| NGC 326 | 0.048 | 94 |" in document.text
    assert "See Table 1." in document.text and "Exposures are net of flares." in document.text
    assert "lcc" not in document.text and "0pt" not in document.text and "scriptsize" not in document.text
    assert "[t!]" not in document.text  # a placement, as AASTeX's deluxetable takes it after the columns


def test_a_numbered_entry_with_its_year_only_in_the_label_states_that_year():
    """apsrev prints no year for a JHEP entry (the year is in its volume), yet natbib's label
    `\\bibitem[Zhao et al.(2020)]` has it: the entry ends with it, so its year is known (the
    references tool listed it as n.d.); an entry that prints its year is as printed."""
    bbl = (
        r"\begin{thebibliography}{2}\bibitem [{\citenamefont {Zhao}\ \emph {et~al.}(2020)\citenamefont {Zhao},"
        r" \citenamefont {Wang}}]{z}H. J. Zhao and Y. L. Wang, \textbf{JHEP} 02, 165"
        r"\bibitem [{\citenamefont {Geng}(2019{\natexlab{a}})}]{g}C. Geng, Phys. Lett. B 794, 19 (2019)"
        r"\end{thebibliography}"
    )
    main = rb"\documentclass{revtex4-2}\begin{document}\section{S}See \cite{z,g}.\bibliography{refs}\end{document}"
    document = latex_to_document({"main.tex": main, "main.bbl": bbl.encode()})
    references = document.records(Reference)
    assert [(reference.label, reference.text) for reference in references] == [
        ("1", "H. J. Zhao and Y. L. Wang, JHEP 02, 165 (2020)"),
        ("2", "C. Geng, Phys. Lett. B 794, 19 (2019)"),
    ]
    assert [publication_year(reference.text) for reference in references] == [2020, 2019]
    assert "See [1, 2]." in document.text


def test_captionof_makes_a_numbered_float_outside_a_float_environment():
    """caption's \\captionof{figure}{..} (in a minipage, a centre block) counts and lists its float
    as \\caption does in a figure: a reference to its label prints that number."""
    source = r"""\documentclass{article}\usepackage{caption}\begin{document}
\section{Intro}See Figure~\ref{fig:side} and Table~\ref{tab:side}.
\begin{figure}\caption{First float.}\end{figure}
\begin{minipage}{0.5\textwidth}\captionof{figure}{Beside the text.}\label{fig:side}\end{minipage}
\begin{center}\captionof{table}[short]{Outside a float.}\label{tab:side}\end{center}
\end{document}"""
    document = latex_to_document({"main.tex": source.encode()})
    assert [(f.label, f.caption, f.anchor) for f in document.records(Figure)] == [
        ("Figure 1", "First float.", None),
        ("Figure 2", "Beside the text.", "fig:side"),
    ]
    assert [(t.label, t.caption, t.anchor) for t in document.records(Table)] == [
        ("Table 1", "Outside a float.", "tab:side")
    ]
    assert "See Figure 2 and Table 1." in document.text and "short" not in document.text


def test_captionof_in_a_minipage_is_given_the_minipage_s_image_and_tabular():
    """A minipage holding \\captionof{kind} is a float of that kind (caption's \\captionof sets
    the float type of its box): the caption's record gets the minipage's \\includegraphics, or
    its tabular's rows, as a \\caption in a figure or table does; a minipage around that one
    is not the caption's box."""
    source = r"""\documentclass{article}\usepackage{caption,graphicx}\begin{document}
\section{Intro}See Figure~\ref{fig:side} and Table~\ref{tab:side}.
\begin{minipage}{\textwidth}\begin{minipage}{0.5\textwidth}\centering\includegraphics[width=\linewidth]{side}
\captionof{figure}{Beside the text.}\label{fig:side}\end{minipage}\end{minipage}
\begin{minipage}{0.4\textwidth}\captionof{table}{Numbers.}\label{tab:side}
\begin{tabular}{ll}\hline a & b \\ \hline c & d \\ \end{tabular}\end{minipage}
\end{document}"""
    document = latex_to_document({"main.tex": source.encode()})
    assert [(f.label, f.caption, f.images, f.anchor) for f in document.records(Figure)] == [
        ("Figure 1", "Beside the text.", ("side",), "fig:side")
    ]
    assert [(t.label, t.caption, t.rows, t.header_rows) for t in document.records(Table)] == [
        ("Table 1", "Numbers.", (("a", "b"), ("c", "d")), 1)
    ]
    assert "See Figure 1 and Table 1." in document.text


def test_captionof_in_a_float_is_a_caption_of_that_float():
    """\\captionof{figure} in a figure's minipages is \\caption with its kind set: each counts, and
    each gets the images read since the caption before it."""
    source = r"""\documentclass{article}\usepackage{caption,graphicx}\begin{document}
\begin{figure}
\begin{minipage}{0.5\textwidth}\includegraphics{left}\captionof{figure}{Left.}\end{minipage}
\begin{minipage}{0.5\textwidth}\includegraphics{right}\captionof{figure}{Right.}\end{minipage}
\end{figure}
\end{document}"""
    document = latex_to_document({"main.tex": source.encode()})
    assert [(f.label, f.caption, f.images) for f in document.records(Figure)] == [
        ("Figure 1", "Left.", ("left",)),
        ("Figure 2", "Right.", ("right",)),
    ]


def test_sections_in_an_appendices_environment_are_lettered():
    """appendix's `appendices` environment (like the \\appendix switch) letters the sections in it."""
    source = r"""\documentclass{article}\usepackage{appendix}\begin{document}
\section{Intro}See Appendix~\ref{app:p}.
\begin{appendices}\section{Proofs}\label{app:p}\section{Data}\end{appendices}
\end{document}"""
    document = latex_to_document({"main.tex": source.encode()})
    assert [(h.title, h.number) for h in document.records(Heading)] == [
        ("1 Intro", "1"),
        ("A Proofs", "A"),
        ("B Data", "B"),
    ]
    assert "See Appendix A." in document.text


def test_llncs_inst_marks_authors_and_a_keywords_environment_is_labelled():
    """LNCS's \\inst{1,2} prints the affiliation marks as superscripts after the author; the
    keywords environment (and IEEEtran's IEEEkeywords) prints its list after a `Keywords:` label."""
    source = r"""\documentclass{llncs}\begin{document}
\title{Title Of Paper}\author{Ann Smith\inst{1} \and Bob Jones\inst{1, 2}}\institute{University A \and Lab B}
\maketitle\begin{abstract}We test.\end{abstract}\begin{keywords}graphs, proofs\end{keywords}
\section{Intro}Body.\end{document}"""
    text = latex_to_document({"main.tex": source.encode()}).text
    assert "Ann Smith$^{1}$, Bob Jones$^{1,2}$\n\n$^{1}$University A; $^{2}$Lab B" in text
    assert "\n\nKeywords: graphs, proofs\n\n## 1 Intro" in text
    ieee = source.replace("llncs", "IEEEtran").replace("{keywords}", "{IEEEkeywords}")
    assert "\n\nKeywords: graphs, proofs\n\n## I Intro" in latex_to_document({"main.tex": ieee.encode()}).text
