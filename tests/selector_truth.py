"""What every fixture paper of `tests/fixtures` numbers, written from the sources themselves
(the HTML markup, the LaTeX and its .bbl, the text a PDF prints), never from our output.

Per paper: the section numbers it prints (with a word of each title), its figures, tables and
numbered equations (with a word of the caption or a fragment of the LaTeX), its bibliography
entries (label -> a word of the entry), cite keys and arXiv ids its entries state, author-year
citations with the entries they name, and numbers it does not print. Where a paper has more of a
kind than listed, the listed ones are a sample taken from the source; `absent` items are checked
against the source as not printed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"


@dataclass(frozen=True)
class Truth:
    path: Path
    source: str
    """The extractor: html, source or pdf."""
    sections: dict[str, str] = field(default_factory=dict)
    """Printed number -> a word of its heading."""
    absent_sections: tuple[str, ...] = ()
    figures: dict[str, str] = field(default_factory=dict)
    tables: dict[str, str] = field(default_factory=dict)
    equations: dict[str, str] = field(default_factory=dict)
    """Printed number -> a fragment of its LaTeX (or of its printed line, from a PDF)."""
    references: dict[str, str] = field(default_factory=dict)
    """Label as printed (`12`, `Grindlay et al. (2012)`) -> a word of the entry."""
    keys: dict[str, str] = field(default_factory=dict)
    arxiv_ids: dict[str, str] = field(default_factory=dict)
    author_year: dict[str, frozenset[str]] = field(default_factory=dict)
    """A citation as a reader writes it -> the labels of the entries it names."""
    absent_references: tuple[str, ...] = ()


_DASCH_LABELS = {
    "Grindlay (2017)": "Science of Time",
    "Grindlay et al. (2012)": "New Horizons",
    "Grindlay et al. (2009)": "ASP Conference",
    "Lasker et al. (2008)": "Lasker",
    "Los (2012)": "Variable Star",
    "Williams (2024)": "zenodo",
}

PAPERS: dict[str, Truth] = {
    # tests/fixtures/html: the markup's ltx_tag spans and ltx_bibitem entries
    "latexml_structure": Truth(
        FIXTURES / "html/latexml_structure.html",
        "html",
        sections={"1": "Introduction", "1.1": "Setup", "A": "Proofs"},
        absent_sections=("2", "1.2", "B", "A.1", "11"),
        figures={"1": "engine at rest", "2": "Two views"},
        tables={"1": "Results by engine", "2": "Costs"},
        equations={"1": "E=mc^{2}", "2": "b+c", "3": "x=y"},
        references={"1": "Babbage", "2": "Lovelace"},
        keys={"bib.bib1": "1", "bib.bib2": "2"},
        arxiv_ids={"2401.12345": "2"},
        author_year={"Lovelace 2020": frozenset({"2"}), "Babbage 1837": frozenset({"1"})},
        absent_references=("[3]", "Babbage 2020", "Lovelace 1837"),
    ),
    "dasch": Truth(
        FIXTURES / "html/arxiv_html_2501.12977v1_TRANSCRIBED_nbsp-lost.html",
        "html",
        sections={"1": "Introduction", "2": "Completion", "3": "Release", "4": "Remarks"},
        absent_sections=("5", "1.1", "IV.A"),
        references=_DASCH_LABELS,
        keys={"bib.bib5": "Lasker et al. (2008)"},
        author_year={
            "(Lasker et al., 2008)": frozenset({"Lasker et al. (2008)"}),
            "Lasker et al. (2008)": frozenset({"Lasker et al. (2008)"}),
            "Lasker et al. 2008": frozenset({"Lasker et al. (2008)"}),
            "Grindlay et al. 2012": frozenset({"Grindlay et al. (2012)"}),
            "Grindlay & Tang 2012": frozenset({"Grindlay et al. (2012)"}),
            "Grindlay and Tang, 2009": frozenset({"Grindlay et al. (2009)"}),
            "Grindlay 2017": frozenset({"Grindlay (2017)"}),
            "(Los 2012)": frozenset({"Los (2012)"}),
            "Los et al. 2011": frozenset({"Los et al. (2011)"}),
        },
        absent_references=("[3]", "Grindlay 2018", "Lasker 2009", "(Nobody et al., 2008)"),
    ),
    "oxide": Truth(
        FIXTURES / "html/oxide_frontmatter.html",
        "html",
        sections={"I": "Introduction", "I-A": "Data"},
        absent_sections=("VIII-A", "II", "I-B", "III-A", "2"),
    ),
    "attention": Truth(  # its ltx_tag spans and 40 ltx_bibitem entries, read from the page
        FIXTURES / "html/ar5iv_1706.03762_TRANSCRIBED_invisible-chars-lost.html.gz",
        "html",
        sections={"1": "Introduction", "3.2.1": "Scaled", "5.4": "Regularization", "6.3": "Parsing", "7": "Conclusion"},
        absent_sections=("8", "3.6", "3.2.4", "6.4", "A", "3.21"),
        figures={"1": "architecture", "2": "Multi-Head", "5": "behaviour"},
        tables={"1": "path lengths", "2": "BLEU", "4": "constituency"},
        equations={"1": "\\mathrm{Attention}", "2": "\\mathrm{FFN}", "3": "lrate"},
        references={"1": "Layer normalization", "2": "Bahdanau", "25": "Marcus", "40": "Zhu"},
        keys={"bib.bib1": "1", "bib.bib40": "40"},
        arxiv_ids={"1607.06450": "1"},
        author_year={
            "Ba et al. 2016": frozenset({"1"}),
            "(Bahdanau et al., 2014)": frozenset({"2"}),
            "Marcus et al. (1993)": frozenset({"25"}),
            "Zhu et al. 2013": frozenset({"40"}),
            "Dyer et al. 2016": frozenset({"8"}),
        },
        absent_references=("[41]", "[0]", "Ba et al. 2017", "Hinton et al. 2016", "Marcus et al. 1994"),
    ),
    "ar5iv_authors": Truth(
        FIXTURES / "html/ar5iv_1706.03762_authors.html",
        "html",
        sections={"1": "Introduction"},
        absent_sections=("2", "3.2"),
    ),
    # tests/fixtures/src: the LaTeX (\section order, \appendix, \numberwithin, the .bbl's \bibitem order)
    "desitter": Truth(
        FIXTURES / "src/single_gzipped_tex_hepth_desitterv3_2009.gz",
        "source",
        sections={"1": "Introduction", "2": "Minimal", "5.1": "cos", "5.2": "cos", "6": "Conclusions", "A": "Linear"},
        absent_sections=("7", "5.3", "B", "A.1"),
        equations={"2.2": "D_{\\mu }\\epsilon", "A.1": "\\omega _{{\\bar{1}},+1}"},
        references={"1": "Tod", "2": "Caldarelli", "4": "Liu", "19": "Podolsky"},
        keys={"tod": "1", "klemm2003": "2", "Liu:2003qaa": "4", "podol": "19"},
        arxiv_ids={"hep-th/0307022": "2", "gr-qc/0212073": "19"},
        author_year={
            "Caldarelli and Klemm, 2003": frozenset({"2"}),
            "Caldarelli & Klemm 2003": frozenset({"2"}),
            "(Cacciatori et al., 2004)": frozenset({"3"}),
            "Tod 1983": frozenset({"1"}),
            "Podolsky and Ortaggio (2003)": frozenset({"19"}),
        },
        absent_references=("[20]", "[0]", "Klemm 2003", "Tod 2001"),
    ),
    "logcft": Truth(
        FIXTURES / "src/1605.03959.tar.gz",
        "source",
        sections={
            "1": "Introduction",
            "2.3.1": "Examples",
            "3.6": "Rank-two",
            "5.3.1": "perturbation",
            "6": "Discussion",
            "B": "Logarithmic OPE",
            "C.1": "Gram",
        },
        absent_sections=("7", "2.7", "C.3", "2.3.3", "F"),
        equations={"2.5a": "[D,", "2.5b": "K_"},
        references={"1": "Saleur", "7": "Caux", "12": "Flohr", "112": "Penedones"},
        keys={"Saleur:1991hk": "1", "Caux:1995nm": "7", "Penedones:2015aga": "112"},
        arxiv_ids={"hep-th/9111007": "1", "arXiv:1509.00428": "112"},
        author_year={
            "Saleur 1992": frozenset({"1"}),
            "Rozansky and Saleur 1993": frozenset({"2"}),
            "Caux et al. (1996)": frozenset({"7"}),
        },
        absent_references=("[113]", "Saleur 1991", "Caux 1995"),
    ),
    # tests/fixtures/pdf: the text the PDF prints (section heads, "Figure N :", "[N]" entries)
    "ulbdm": Truth(
        FIXTURES / "pdf/0908.0054v1.pdf",
        "pdf",
        sections={"I": "INTRODUCTION", "II": "BOSONS", "III": "CMB", "IV": "CONCLUSIONS"},
        absent_sections=("V", "III-A", "VIII", "5"),
        figures={"1": "CMB", "2": "Universe", "5": "ULBDM", "6": "reionization"},
        references={"1": "Hu", "2": "Matos", "12": "Dodelson", "19": "Seljak"},
        arxiv_ids={"astro-ph/0003365": "1", "gr-qc/9810028": "2"},
        author_year={
            "Hu et al. 2000": frozenset({"1"}),
            "Matos 2000": frozenset({"2", "3"}),
            "Matos and Urena-Lopez 2001": frozenset({"4"}),
            "(Dodelson, 2003)": frozenset({"12"}),
            "Seljak & Zaldarriaga 1996": frozenset({"19"}),
        },
        absent_references=("[20]", "Matos 1999", "Dodelson 2000"),
    ),
    "walruses": Truth(  # pdftex_walruses.tex is the source the PDF was compiled from
        FIXTURES / "pdf/pdftex_walruses.pdf",
        "pdf",
        sections={"1": "Introduction", "2": "Methods", "3": "Counting", "4": "Results", "6": "Conclusions"},
        absent_sections=("7", "1.1", "A"),
    ),
    "loeb": Truth(
        FIXTURES / "pdf/1805.05865_pdf-only-submission.pdf",
        "pdf",
        references={"1": "Abbott", "4": "Wald", "5": "Cardoso"},
        arxiv_ids={"gr-qc/9710068": "4", "1707.03021": "5"},
        author_year={"Wald 1997": frozenset({"4"}), "Cardoso & Pani 2017": frozenset({"5"})},
        absent_references=("[6]", "Wald 2017"),
    ),
}

ABSENT_FIGURES = ("Figure 99", "Fig. S1", "Supplementary Figure 1", "Figure 3-5")
ABSENT_TABLES = ("Table 99", "Table S2", "Supplementary Table 1", "TABLE XCIX")
ABSENT_EQUATIONS = ("(99)", "Eq. (Z.99)", "(A.99)", "Eq. 99b")
UNTYPED = {
    "Theorem 2.3": "Theorem",
    "Thm. 1": "Theorem",
    "Lemma 4.1": "Lemma",
    "Definition 2": "Definition",
    "Def. 2.1": "Definition",
    "Prop 1": "Proposition",
    "Corollary 3.8": "Corollary",
    "Algorithm 1": "Algorithm",
    "Listing 2": "Listing",
    "footnote 2": "Footnote",
    "Remark 3": "Remark",
}
