"""Every selector form of issue 32 against every fixture paper, judged by the truth written
from the papers' sources (`selector_truth.py`), never by our output.

A form of an item the paper prints must give that item (a miss otherwise); a form of an item it
does not print, and a theorem, algorithm or footnote it does not mark, must give an error
naming the kind. An answer that is not the item asked for is a silent wrong
answer: there must be none. The sweep runs in process; `test_selector_forms_stdio.py` drives a
representative set through the real MCP client.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator

import pytest

from arxiv_mcp.errors import ExtractionError
from arxiv_mcp.models import SessionInfo
from arxiv_mcp.render import session
from arxiv_mcp.text.document import Document, Reference
from arxiv_mcp.text.extract import extract
from arxiv_mcp.text.selection import Selection
from arxiv_mcp.text.statements import typed
from benchmarks.selector_sweep import section_forms, sweep
from tests.selecting import view_or_error
from tests.selector_truth import ABSENT_EQUATIONS, ABSENT_FIGURES, ABSENT_TABLES, FIXTURES, PAPERS, UNTYPED, Truth
from tests.statement_truth import PRINTED

_ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7, "VIII": 8, "IX": 9, "X": 10}
_DOCS: dict[str, Document] = {}


def _doc(name: str) -> Document:
    if name not in _DOCS:
        truth = PAPERS[name]
        data = truth.path.read_bytes()
        _DOCS[name] = extract(truth.source, gzip.decompress(data) if truth.path.name.endswith(".html.gz") else data)
    return _DOCS[name]


# --- the forms, from the truth -------------------------------------------------------------


def _reference_forms(truth: Truth) -> Iterator[tuple[str, frozenset[str]]]:
    labels = list(truth.references)
    for label in labels:
        if label.isdigit():
            for form in (f"[{label}]", f"ref {label}", f"reference {label}", f"Ref. [{label}]"):
                yield form, frozenset({label})
        else:
            yield label, frozenset({label})
    numeric = [label for label in labels if label.isdigit()]
    if len(numeric) >= 2:
        a, b = numeric[0], numeric[1]
        yield f"[{a}, {b}]", frozenset({a, b})
        yield f"[{a}], [{b}]", frozenset({a, b})
        span = frozenset(str(n) for n in range(int(a), int(b) + 1))
        for dash in "-–":
            yield f"[{a}{dash}{b}]", span
    for key, label in truth.keys.items():
        yield key, frozenset({label})
    for arxiv_id, label in truth.arxiv_ids.items():
        yield arxiv_id, frozenset({label})
        yield ("" if arxiv_id.startswith("arXiv:") else "arXiv:") + arxiv_id, frozenset({label})
    yield from truth.author_year.items()


def _labels(selection: Selection) -> frozenset[str]:
    return frozenset(r.label.strip("[]") for r in selection.references)


def _judge(name: str) -> tuple[list[str], list[str]]:
    """(wrong answers, misses) of every form against the paper `name`."""
    truth, doc = PAPERS[name], _doc(name)
    wrong: list[str] = []
    missed: list[str] = []

    def expect(selector: str, ok: object) -> None:
        got = view_or_error(doc, selector)
        if isinstance(got, str):
            missed.append(f"{name} {selector!r}: {got[:160]}")
        elif not ok(got):  # type: ignore[operator]
            wrong.append(f"{name} {selector!r} gave {got.label!r}")

    def refused(selector: str, kind: str) -> None:
        got = view_or_error(doc, selector)
        if not isinstance(got, str):
            wrong.append(f"{name} {selector!r} (not printed) gave {got.label!r}")
        elif kind.casefold() not in got.casefold():
            wrong.append(f"{name} {selector!r}: the error does not name the kind {kind!r}: {got[:160]}")

    roman_paper = any(len(n) > 1 and n.split("-")[0] in _ROMAN for n in truth.sections)
    for number, word in truth.sections.items():
        for form in section_forms(number, roman_paper):
            expect(form, lambda s, w=word, n=number: s.label.startswith("section:") and w in s.label and n in s.label)
    for number in truth.absent_sections:
        for form in (number, f"Section {number}", f"Sec. {number}"):
            refused(form, "section")
    for number, word in truth.figures.items():
        forms = [f"Figure {number}", f"Fig. {number}", f"fig{number}", f"FIG. {number}", f"Figs. {number}"]
        forms += [f"Figure {number}(a)", f"Fig. {number} (left)", f"Figure {number}b"]
        for form in forms:
            expect(form, lambda s, n=number, w=word: s.figures[0].number == n and w in s.figures[0].caption)
    for number, word in truth.tables.items():
        for form in (f"Table {number}", f"Tab. {number}", f"Table {number}(a)", f"Table {number}a"):
            expect(form, lambda s, n=number, w=word: s.tables[0].number == n and w in s.tables[0].caption)
    for number, fragment in truth.equations.items():
        for form in (f"({number})", f"Eq. ({number})", f"Eq. {number}", f"Equation {number}", f"eqn. ({number})"):
            expect(form, lambda s, n=number, f=fragment: s.equations[0].number == n and f in s.equations[0].latex)
    for form, labels in _reference_forms(truth):
        expect(form, lambda s, want=labels: _labels(s) == frozenset(x.strip("[]") for x in want))
    for form in truth.absent_references:
        refused(form, "reference")
    for forms, kind in ((ABSENT_FIGURES, "figure"), (ABSENT_TABLES, "table"), (ABSENT_EQUATIONS, "equation")):
        for form in forms:
            if not any(form.endswith(f" {n}") for n in {**truth.figures, **truth.tables}):
                refused(form, kind)
    printed = PRINTED.get(name, {})
    for form, fragment in printed.items():
        expect(form, lambda s, f=fragment: f in s.text)
    for form, kind in UNTYPED.items():
        if form in printed:
            continue
        refused(form, kind)
        got = view_or_error(doc, form)
        if isinstance(got, str) and "find_in_paper" not in got:
            wrong.append(f"{name} {form!r}: the error does not point at find_in_paper: {got[:160]}")
    return wrong, missed


@pytest.mark.parametrize("name", sorted(PAPERS))
def test_every_selector_form_gives_the_item_or_an_error_naming_the_kind(name):
    wrong, missed = _judge(name)
    assert wrong == []  # 0 silent wrong answers
    assert missed == []


_NOT_PAPERS = ("html/ar5iv_1001.5455_conversion_fatal_error.html", "html/authored_no_body.html")
"""Fixture pages with no paper in them (a failed conversion, a page of front matter only)."""


def _fixture_papers() -> list[tuple[str, str]]:
    """Every paper of `tests/fixtures` a reader can read: HTML pages, e-prints and PDFs."""
    found = [("html", p) for p in sorted((FIXTURES / "html").glob("*.html*")) if f"html/{p.name}" not in _NOT_PAPERS]
    found += [("source", p) for p in sorted((FIXTURES / "src").glob("*.gz")) if "edgecase" not in p.name]
    found += [("pdf", p) for p in sorted((FIXTURES / "pdf").glob("*.pdf"))]
    return [(kind, str(path.relative_to(FIXTURES))) for kind, path in found]


@pytest.mark.parametrize(("kind", "name"), _fixture_papers())
def test_every_printed_item_in_every_form_and_every_near_miss(kind, name):
    """The adversarial sweep of `benchmarks/selector_sweep.py` on each fixture paper: every item
    the document lists, in every form, is that item; every near miss of a printed number (`1`
    beside `11`, `VIII-A` beside `III-A`, `S1`, "et al." of a two-author entry) is an error."""
    data = (FIXTURES / name).read_bytes()
    if name.endswith(".gz") and kind == "html":
        data = gzip.decompress(data)
    doc = extract(kind, data)
    asked, wrong, missed = sweep(doc, printed_labels=kind != "pdf")
    assert wrong == []  # 0 silent wrong answers
    assert missed == []
    assert asked >= 20


@pytest.mark.parametrize("name", _NOT_PAPERS)
def test_the_pages_left_out_of_the_sweep_hold_no_paper(name):
    with pytest.raises(ExtractionError):
        extract("html", (FIXTURES / name).read_bytes())


def test_the_sweep_tries_every_kind_of_form():
    """The truth covers each kind on some paper, so the sweep above is not vacuous."""
    covered = {
        kind
        for truth in PAPERS.values()
        for kind, items in (
            ("section", truth.sections),
            ("figure", truth.figures),
            ("table", truth.tables),
            ("equation", truth.equations),
            ("reference", truth.references),
            ("arXiv id", truth.arxiv_ids),
            ("author-year", truth.author_year),
            ("roman", {n for n in truth.sections if n.split("-")[0] in _ROMAN}),
            ("appendix", {n for n in truth.sections if re.fullmatch(r"[A-Z](\.\d+)?", n)}),
        )
        if items
    }
    assert covered == {
        "section",
        "figure",
        "table",
        "equation",
        "reference",
        "arXiv id",
        "author-year",
        "roman",
        "appendix",
    }


# --- the rules, on small texts -------------------------------------------------------------


def _text_doc(*headings: str) -> Document:
    return Document.from_text("\n\n".join(f"{h}\n\nBody of {h.lstrip('# ')}." for h in headings))


def test_a_number_is_compared_whole_never_as_a_substring():
    doc = _text_doc("## III Method", "### III-A Setup", "## VIII Results", "### VIII-A Data")
    assert view_or_error(doc, "III-A").label.endswith("III-A Setup")  # type: ignore[union-attr]
    assert view_or_error(doc, "VIII-A").label.endswith("VIII-A Data")  # type: ignore[union-attr]
    assert view_or_error(doc, "Sec. III.A").label.endswith("III-A Setup")  # type: ignore[union-attr]
    assert view_or_error(doc, "Section 8.1").label.endswith("VIII-A Data")  # type: ignore[union-attr]
    assert "no section numbered" in view_or_error(doc, "II-A")  # type: ignore[operator]


def test_a_theorem_is_never_answered_with_the_section_proving_it():
    doc = _text_doc("## 2 Results", "### 2.4 Proof of Theorem 2.3", "### 2.5 Lemma 4.1 and its use")
    doc = Document.from_text(doc.text + "\n\nBy Theorem 2.3 and Theorem 1, the claim follows.")
    said = view_or_error(doc, "Theorem 2.3")
    assert isinstance(said, str) and "Theorem 2.3" in said and 'find_in_paper(query="\\"Theorem 2.3\\"")' in said
    assert "names Theorem 2.3 but marks no block" in said
    missing = view_or_error(doc, "Theorem 7")
    assert isinstance(missing, str) and "no Theorem 7" in missing and "names Theorem 2.3 and 1" in missing
    assert isinstance(view_or_error(doc, "Lemma 4.1"), str)
    assert view_or_error(doc, "Proof of Theorem 2.3").label.endswith("Proof of Theorem 2.3")  # type: ignore[union-attr]
    assert "marks no theorems" in view_or_error(doc, "theorems")  # type: ignore[operator]


def test_a_list_name_of_a_statement_kind_reads_a_section_of_that_name():
    doc = _text_doc("## 1 Introduction", "## 2 Examples")
    assert view_or_error(doc, "examples").label.endswith("2 Examples")  # type: ignore[union-attr]


def test_a_page_is_not_a_section():
    said = view_or_error(_text_doc("## 1 Introduction"), "page 3")
    assert isinstance(said, str) and "page=3" in said
    assert view_or_error(_text_doc("## 1 Introduction", "## 2 Page 3"), "Page 3").label.endswith("2 Page 3")  # type: ignore[union-attr]


def test_results_with_neither_statements_nor_such_a_section_says_so():
    said = view_or_error(_text_doc("## 1 Introduction", "## 2 Method"), "results")
    assert isinstance(said, str) and "no section named Results" in said and 'section="outline"' in said
    assert view_or_error(_text_doc("## 1 Introduction", "## 2 Experimental Results"), "results").label.endswith(
        "Results"
    )  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "selector",
    [
        "algorithm",
        "listing",
        "footnote",
        "Theorem 2-3",
        "Theorem XL",
        "theorems 2",
        "props 1",
        "Algorithm I",
        "Alg 2-3",
        "footnote II",
        "footnote 2 (x)",
        "footnote 2.1",
        "note 1",
        "footnote (1)",
        "Problem 1",
    ],
)
def test_no_error_says_a_kind_the_document_types_is_not_typed(selector):
    """Theorems, algorithms, listings and footnotes are typed: no form of them may say the
    paper's structure "does not carry" them, and none falls through to the headings' error."""
    said = view_or_error(_text_doc("## 1 Introduction", "## 2 Method"), selector)
    assert isinstance(said, str) and "as items yet" not in said and "no heading matches" not in said, said


@pytest.mark.parametrize(
    "form", ["Figure {n}", "Eq. ({n})", "{n}", "section:{n}", "[{n}]", "Table {n}", "Theorem {n}", "({n})"]
)
def test_a_number_longer_than_any_printed_is_one_argument_error(form):
    said = view_or_error(_doc("latexml_structure"), form.format(n="9" * 5000))
    assert isinstance(said, str) and "digits" in said and len(said) < 300


def test_an_author_year_that_names_a_heading_reads_the_heading():
    doc = Document.from_text("## 1 Introduction\n\nText.\n\n## 2 COVID 2019\n\nMore.")
    assert view_or_error(doc, "COVID 2019").label.endswith("2 COVID 2019")  # type: ignore[union-attr]


def test_two_entries_of_one_author_and_year_are_both_answered():
    doc = _doc("ulbdm")
    both = view_or_error(doc, "Matos 2000")
    assert not isinstance(both, str) and _labels(both) == {"2", "3"}
    assert all(isinstance(r, Reference) for r in doc.records(Reference))


def test_a_closed_session_lists_what_it_released_not_pins():
    closed = session(SessionInfo("s1", 0.0, 0.0, ["2401.00001v1"], open=False))
    assert "Pinned papers" not in closed and "Released (no longer pinned): 2401.00001v1" in closed
    assert "Pinned papers: 2401.00001v1" in session(SessionInfo("s1", 0.0, 0.0, ["2401.00001v1"]))


def test_a_number_printed_only_with_letters_gives_each_part():
    """1605.03959 numbers `subequations` 2.5a and 2.5b (the LaTeX's `\\bsub` around an align)."""
    both = view_or_error(_doc("logcft"), "Eq. (2.5)")
    assert not isinstance(both, str) and [e.number for e in both.equations] == ["2.5a", "2.5b"]


def test_a_section_word_with_a_number_in_an_unknown_form_lists_the_section_numbers():
    said = view_or_error(_doc("logcft"), "Sec. 3(b)")
    assert isinstance(said, str) and "no section numbered" in said and "3.6" in said
    assert view_or_error(_doc("logcft"), "Chapter 3").label.endswith("3 Conformal block decompositions")  # type: ignore[union-attr]


def test_a_selector_longer_than_any_name_is_one_short_line():
    said = view_or_error(_doc("logcft"), "ab " * 1000)
    assert isinstance(said, str) and "characters long" in said and len(said) < 300


def _supplemented() -> Document:
    from arxiv_mcp.text.document import DocumentBuilder, Figure, Kind, Table

    builder = DocumentBuilder()
    builder.heading(2, "1 Results")
    for label, number, caption in (
        ("Figure 1", "1", "Main result."),
        ("Figure S1", "S1", "First supplementary panel."),
        ("Figure S2", "S2", "Second supplementary panel."),
        ("Extended Data Fig. 3", "3", "Extended view."),
    ):
        builder.block(Kind.FIGURE, f"{label}: {caption}", Figure(label, number, caption))
    builder.block(Kind.TABLE, "Table S1: Counts.", Table("Table S1", "S1", "Counts.", (("a", "b"), ("1", "2")), 1))
    return builder.build()


@pytest.mark.parametrize(
    ("selector", "number"),
    [
        ("Figure 1", "1"),
        ("Fig. S2", "S2"),
        ("Supplementary Figure S1", "S1"),
        ("Supplementary Figure 2", "S2"),
        ("Supplementary Fig. 1", "S1"),
        ("Extended Data Fig. 3", "3"),
        ("Supplementary Table 1", "S1"),
        ("Table S1", "S1"),
    ],
)
def test_supplementary_numbers_name_the_supplementary_item(selector, number):
    got = view_or_error(_supplemented(), selector)
    assert not isinstance(got, str), got
    assert [i.number for i in [*got.figures, *got.tables]] == [number]


def test_a_main_figure_is_no_supplementary_one():
    said = view_or_error(_supplemented(), "Supplementary Figure 4")
    assert isinstance(said, str) and 'no supplementary figure "4"' in said


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Words [^1: a note] and [^2: b].", "Footnote 2: b"),
        ("Words [^a note] and [^b].", "Footnote 2: b"),
        ("Words [^1: a note].", "no footnote 2; it has footnote 1"),
        ("Words.", "find_in_paper with the footnote's words"),
    ],
)
def test_a_footnote_is_found_by_its_mark_where_it_is_attached(text, said):
    got = view_or_error(typed(Document.from_text("## 1 A\n\n" + text)), "footnote 2")
    shown = got if isinstance(got, str) else got.text
    assert said in shown
    if not isinstance(got, str):
        assert "Attached to (1 A): Words" in shown


def _alpha() -> Document:
    from arxiv_mcp.text.document import DocumentBuilder, Kind

    builder = DocumentBuilder()
    builder.heading(2, "1 Introduction")
    builder.add_text("As shown ")
    builder.cite("[Smi21]", ["smith2021"])
    builder.add_text(" and ")
    builder.cite("[Knu84]", ["knuth84"])
    builder.add_text(".")
    builder.heading(2, "References")
    builder.block(
        Kind.REFERENCE,
        "[Knu84] D. Knuth. Literate programming. 1984.",
        Reference("Knu84", "D. Knuth. Literate programming. 1984.", "knuth84"),
    )
    builder.block(
        Kind.REFERENCE, "[Smi21] J. Smith. Things. 2021.", Reference("Smi21", "J. Smith. Things. 2021.", "smith2021")
    )
    return builder.build()


@pytest.mark.parametrize(
    ("selector", "labels"),
    [
        ("[Smi21]", {"Smi21"}),
        ("Smi21", {"Smi21"}),
        ("smith2021", {"Smi21"}),
        ("[Knu84, Smi21]", {"Knu84", "Smi21"}),
        ("Knuth 1984", {"Knu84"}),
        ("(Smith, 2021)", {"Smi21"}),
    ],
)
def test_alpha_labels_as_printed(selector, labels):
    got = view_or_error(_alpha(), selector)
    assert not isinstance(got, str), got
    assert _labels(got) == labels and got.references[0].mentions


def test_an_alpha_label_the_paper_lacks_lists_the_ones_it_has():
    said = view_or_error(_alpha(), "[Smi22]")
    assert isinstance(said, str) and "[Knu84], [Smi21]" in said


def test_a_supplementary_section_printed_s2_is_that_section_not_the_outlines_s2():
    from arxiv_mcp.text.document import DocumentBuilder

    builder = DocumentBuilder()
    for title, number in (("Introduction", "1"), ("Methods", "2"), ("Extra data", "S1"), ("More data", "S2")):
        builder.heading(2, f"{number} {title}", number)
        builder.add_text(f"Body of {title}.")
    doc = builder.build()
    assert view_or_error(doc, "S2").label.endswith("S2 More data")  # type: ignore[union-attr]
    assert view_or_error(doc, "[s2]").label.endswith("2 Methods")  # type: ignore[union-attr]
    assert view_or_error(doc, "section:2").label.endswith("2 Methods")  # type: ignore[union-attr]


def test_a_table_printed_with_its_letter_is_that_table():
    from arxiv_mcp.text.document import DocumentBuilder, Kind, Table

    builder = DocumentBuilder()
    builder.heading(2, "1 Results")
    for number in ("2a", "2b"):
        rows = (("k", "v"), (number, "1"))
        builder.block(
            Kind.TABLE, f"Table {number}: Part {number}.", Table(f"Table {number}", number, f"Part {number}.", rows, 1)
        )
    doc = builder.build()
    for selector, number in (("Table 2b", "2b"), ("Table 2(a)", "2a"), ("Tab. 2a", "2a")):
        got = view_or_error(doc, selector)
        assert not isinstance(got, str) and got.tables[0].number == number and "not marked apart" not in got.text
    assert "no table" in view_or_error(doc, "Table 2")  # type: ignore[operator]


_ALPHABETIC_TEX = r"""\documentclass{article}
\usepackage[style=alphabetic]{biblatex}
\addbibresource{refs.bib}
\begin{document}
\section{Intro}
As shown \cite{smith2020} and \cite{knuth1984,smith2020b}.
\printbibliography
\end{document}
"""


def _biber_entry(key: str, family: str, year: str, alpha: str, extra: str = "") -> str:
    """An entry as biber writes it for biblatex's alphabetic style (`labelalpha`, `extraalpha`)."""
    extra_field = f"      \\field{{extraalpha}}{{{extra}}}\n" if extra else ""
    return (
        f"    \\entry{{{key}}}{{article}}{{}}\n"
        f"      \\name{{author}}{{1}}{{}}{{%\n        {{{{hash=x}}{{%\n           family={{{family}}},\n"
        f"           given={{Jo}}}}}}%\n      }}\n"
        f"      \\field{{labelalpha}}{{{alpha}}}\n{extra_field}"
        f"      \\field{{title}}{{A title of {key}}}\n      \\field{{journaltitle}}{{J}}\n"
        f"      \\field{{year}}{{{year}}}\n    \\endentry\n"
    )


def test_an_alphabetic_bibliography_keeps_its_printed_labels():
    """biblatex's alphabetic style prints [Knu84], [Smi20a]: never renumbered [1]-[3]."""
    import io
    import tarfile

    entries = (
        _biber_entry("knuth1984", "Knuth", "1984", "Knu84")
        + _biber_entry("smith2020", "Smith", "2020", "Smi20", "1")
        + _biber_entry("smith2020b", "Smith", "2020", "Smi20", "2")
    )
    bbl = f"\\refsection{{0}}\n  \\datalist[entry]{{anyt/global//global/global}}\n{entries}  \\enddatalist\n\\endrefsection\n"
    packed = io.BytesIO()
    with tarfile.open(fileobj=packed, mode="w:gz") as tar:
        for name, text in (("main.tex", _ALPHABETIC_TEX), ("main.bbl", bbl)):
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    doc = extract("source", packed.getvalue())
    assert [r.label for r in doc.records(Reference)] == ["Knu84", "Smi20a", "Smi20b"]
    assert "As shown [Smi20a] and [Knu84, Smi20b]." in doc.text
    got = view_or_error(doc, "[Smi20b]")
    assert not isinstance(got, str) and _labels(got) == {"Smi20b"} and got.references[0].mentions


def test_a_heading_ending_in_a_year_is_read_by_name_when_no_entry_is_by_its_first_word():
    doc = _text_doc("## 1 Introduction", "## 2 Observations in 2019 and 2020")
    assert view_or_error(doc, "Observations in 2019").label.endswith("Observations in 2019 and 2020")  # type: ignore[union-attr]
    cited = view_or_error(_doc("dasch"), "Grindlay 2020")  # Grindlay is cited: a citation, never a part of a name
    assert isinstance(cited, str) and "first author Grindlay" in cited


@pytest.mark.parametrize("name", ["Reference frames", "Refinement", "References and notes"])
def test_a_heading_starting_like_ref_is_read_by_name(name):
    doc = _text_doc("## 1 Introduction", f"## 2 {name}")
    assert view_or_error(doc, name).label.endswith(f"2 {name}")  # type: ignore[union-attr]


@pytest.mark.parametrize("name", ["Table A summary", "Problem 1", "Figure S1 data"])
def test_a_heading_named_like_a_kind_is_that_heading(name):
    doc = _text_doc("## 1 Introduction", f"## 2 {name}")
    assert view_or_error(doc, name).label.endswith(f"2 {name}")  # type: ignore[union-attr]


def _numbered(*pairs: tuple[str, str]) -> Document:
    from arxiv_mcp.text.document import DocumentBuilder

    builder = DocumentBuilder()
    for number, title in pairs:
        builder.heading(2, f"{number} {title}", number)
        builder.add_text(f"Body of {title}.")
    return builder.build()


def test_an_appendix_number_names_an_appendix_never_a_section():
    arabic = _numbered(("1", "Introduction"), ("2", "Methods"), ("A", "Proofs"), ("C", "Extra"))
    assert view_or_error(arabic, "Appendix C").label.endswith("C Extra")  # type: ignore[union-attr]
    assert 'no appendix numbered "I"' in view_or_error(arabic, "Appendix I")  # type: ignore[operator]
    roman = _numbered(("I", "Introduction"), ("II", "Methods"), ("A", "Proofs"))
    assert 'no appendix numbered "I"' in view_or_error(roman, "Appendix I")  # type: ignore[operator]
    assert view_or_error(roman, "I").label.endswith("I Introduction")  # type: ignore[union-attr]
    plain = _numbered(("1", "Introduction"), ("2", "Methods"))
    assert 'no appendix numbered "B". Its section numbers: 1, 2' in view_or_error(plain, "Appendix B")  # type: ignore[operator]


# --- the defects found by the sweep over the shared corpus (benchmarks/selector_sweep.py) -----


def test_a_capital_s_number_the_paper_does_not_print_is_no_outline_position():
    doc = _numbered(("1", "Introduction"), ("2", "Methods"))
    said = view_or_error(doc, "S1")
    assert isinstance(said, str) and 'no section numbered "S1"' in said and "Its section numbers: 1, 2" in said
    assert "section:1" in said  # what the outline's [s1] is, for a reader who meant it
    assert view_or_error(doc, "[s1]").label.endswith("1 Introduction")  # type: ignore[union-attr]
    assert view_or_error(doc, "s2").label.endswith("2 Methods")  # type: ignore[union-attr]


def test_a_letter_and_digits_is_a_printed_number_or_a_whole_name():
    doc = _numbered(("1", "Introduction"), ("A", "Proofs"), ("A.1", "Lemmas"), ("2", "H2"))
    assert view_or_error(doc, "A1").label.endswith("A.1 Lemmas")  # type: ignore[union-attr]
    assert view_or_error(doc, "H2").label.endswith("2 H2")  # type: ignore[union-attr]
    assert 'no section numbered "B2"' in view_or_error(doc, "B2")  # type: ignore[operator]


def test_a_name_matches_a_heading_from_the_start_of_a_word_only():
    doc = _numbered(("1", "Introduction"), ("2", "Data availability"))
    assert view_or_error(doc, "intro").label.endswith("1 Introduction")  # type: ignore[union-attr]
    assert "no heading matches" in view_or_error(doc, "va")  # type: ignore[operator]


@pytest.mark.parametrize("raw", ["Intro\x1b[31mduction\x07", "Intro\u202eductio\u200bn", "\x00\x1b"])
def test_control_characters_are_never_echoed(raw):
    doc = _numbered(("1", "Introduction"), ("2", "Methods"))
    got = view_or_error(doc, raw)
    if isinstance(got, str):
        assert not any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 or c in "\u202e\u200b" for c in got.replace("\n", ""))
    else:
        assert got.label.endswith("1 Introduction")
    said = view_or_error(doc, "Conclusions\x1b[2J\x07")
    assert isinstance(said, str) and 'no heading matches "Conclusions[2J"' in said


def _bandits() -> Document:
    """Entries as 1704.02281 prints them (natbib author-year labels)."""
    from arxiv_mcp.text.document import DocumentBuilder, Kind

    builder = DocumentBuilder()
    builder.heading(2, "1 Introduction")
    builder.add_text("Bandits.")
    builder.heading(2, "References")
    for label, text, arxiv_id in (
        ("Bubeck and Cesa-Bianchi, 2012", "Sébastien Bubeck and Nicolo Cesa-Bianchi. Regret analysis. 2012.", None),
        ("Bubeck et al., 2011", "Sébastien Bubeck, Rémi Munos, and Gilles Stoltz. Pure exploration. 2011.", None),
        ("Los, 2012", "Los, E. Variable stars. 2012.", None),
        ("GPT-4o, 2024a", "OpenAI. GPT-4o system card. 2024.", "2410.21276v2"),
    ):
        builder.block(Kind.REFERENCE, f"{label} {text}", Reference(label, text, None, arxiv_id))
    return builder.build()


@pytest.mark.parametrize(
    ("selector", "label"),
    [
        ("Bubeck et al. 2011", "Bubeck et al., 2011"),
        ("(Bubeck et al., 2011)", "Bubeck et al., 2011"),
        ("Bubeck and Cesa-Bianchi 2012", "Bubeck and Cesa-Bianchi, 2012"),
        ("Bubeck 2012", "Bubeck and Cesa-Bianchi, 2012"),  # the only Bubeck 2012: a name left out
        ("(GPT-4o, 2024a)", "GPT-4o, 2024a"),
        ("GPT-4o (2024a)", "GPT-4o, 2024a"),
        ("2410.21276", "GPT-4o, 2024a"),
        ("arXiv:2410.21276v2", "GPT-4o, 2024a"),
    ],
)
def test_author_year_forms_name_the_entry_whose_authors_fit(selector, label):
    got = view_or_error(_bandits(), selector)
    assert not isinstance(got, str), got
    assert [r.label for r in got.references] == [label]


@pytest.mark.parametrize("selector", ["Bubeck et al. 2012", "(Bubeck et al., 2012)", "Los et al. 2012"])
def test_et_al_never_names_an_entry_of_one_or_two_authors(selector):
    said = view_or_error(_bandits(), selector)
    assert isinstance(said, str) and "has no reference" in said and "Its entries with first author" in said


def test_an_entry_counts_its_authors_from_its_list_not_its_initials():
    from arxiv_mcp.text.cited import author_count

    def count(label: str, text: str) -> int | None:
        return author_count(Reference(label, text))

    assert count("1", "Hu W., Barkana, R., & Gruzinov A. Phys. Rev. Lett. 85, 1158 (2000).") == 3
    assert count("2", "Matos T., and Siddhartha Guzman F. Class. Quant. Grav. 17 (2000).") == 2
    assert count("3", "A. Einstein, B. Podolsky, and N. Rosen, Phys. Rev. 47, 777 (1935).") == 3
    assert count("4", "Dodelson S. Modern Cosmology (Academic Press, 2003).") == 1
    assert count("5", "T. Brown, B. Mann, et al. Language models are few-shot learners. 2020.") == 3
    assert count("Alata 2014", "Alata I., Cruz-Diaz G. A., Muñoz Caro G. M., Dartois E., 2014, A&A") == 4
    assert count("Smith and Jones, 2020", "Smith, J. and Jones, K. 2020. A title.") == 2


def _made_up_labels() -> Document:
    """A PDF's reading of an author-year bibliography: labels made up from the entry's words
    (`GPT-4o 2024a` for OpenAI's entry), two entries sharing `Li 2021`, a citation printed
    `Li et al., 2021` linked to that label."""
    from arxiv_mcp.text.document import DocumentBuilder, Kind

    builder = DocumentBuilder()
    builder.heading(2, "1 Introduction")
    builder.add_text("As in ")
    builder.cite("Li et al., 2021", ["Li 2021"])
    builder.add_text(".")
    builder.heading(2, "References")
    for label, text in (
        ("GPT-4o 2024a", "OpenAI. Hello GPT-4o, 2024a. URL https://openai.com/index/hello-gpt-4o/."),
        ("SimpleQA 2024c", "OpenAI. Introducing SimpleQA, 2024c. URL https://openai.com/index/introducing-simpleqa/."),
        ("Li 2021", "S. Li and T. Hoefler. Chimera: efficiently training large-scale neural networks, 2021."),
        ("Li 2021", "W. Li, F. Qi, M. Sun, X. Yi, and J. Zhang. Ccpm: a chinese classical poetry dataset, 2021."),
    ):
        builder.block(Kind.REFERENCE, f"{label} {text}", Reference(label, text))
    return builder.build()


@pytest.mark.parametrize(
    ("selector", "first_words"),
    [
        ("OpenAI, 2024a", "OpenAI. Hello"),  # the label names someone else: the entry's authors say who
        ("(OpenAI, 2024c)", "OpenAI. Introducing"),
        ("Li et al., 2021", "W. Li"),  # the printed citation's label is shared: the entry of 3+ authors
        ("Li and Hoefler 2021", "S. Li"),
    ],
)
def test_an_author_year_form_reads_the_entry_when_the_label_is_made_up(selector, first_words):
    got = view_or_error(_made_up_labels(), selector)
    assert not isinstance(got, str), got
    assert [r.text[: len(first_words)] for r in got.references] == [first_words]


def test_a_title_word_is_no_author():
    said = view_or_error(_made_up_labels(), "Hello 2024a")
    assert isinstance(said, str) and "has no reference" in said


@pytest.mark.parametrize(
    ("selector", "title"),
    [
        ("Sec. II A", "II.A Setup"),
        ("II A", "II.A Setup"),
        ("IIA", "II.A Setup"),
        ("Sec. IIB", "II.B Runs"),
        ("IV", "IV Four"),
    ],
)
def test_revtex_cross_reference_forms_name_the_subsection(selector, title):
    """REVTeX's `\\ref` prints a subsection `II A` (`Sec. II A`); `IV` stays section IV."""
    doc = _numbered(("I", "One"), ("II", "Two"), ("II.A", "Setup"), ("II.B", "Runs"), ("IV", "Four"))
    got = view_or_error(doc, selector)
    assert not isinstance(got, str), got
    assert got.label.endswith(title)


def test_a_revtex_form_the_paper_does_not_print_is_the_section_error():
    doc = _numbered(("I", "One"), ("II", "Two"), ("II.A", "Setup"))
    said = view_or_error(doc, "Sec. III A")
    assert isinstance(said, str) and 'no section numbered "III.A"' in said and "II.A" in said


@pytest.mark.parametrize(("selector", "number"), [("Table S1.", "S1"), ("Fig. S2.", "S2"), ("Figure 1.", "1")])
def test_a_trailing_period_is_punctuation(selector, number):
    got = view_or_error(_supplemented(), selector)
    assert not isinstance(got, str), got
    assert [i.number for i in [*got.figures, *got.tables]] == [number]


def test_et_al_without_a_year_names_the_one_entry_it_fits_or_lists_them():
    dasch = _doc("dasch")  # Lasker et al. (2008) is the one Lasker entry; Grindlay has three
    got = view_or_error(dasch, "(Lasker et al.)")
    assert not isinstance(got, str) and _labels(got) == {"Lasker et al. (2008)"}
    said = view_or_error(dasch, "Grindlay et al.")
    assert isinstance(said, str) and "without its year" in said and "Grindlay et al. (2012)" in said
    said = view_or_error(dasch, "Smith et al.")
    assert isinstance(said, str) and 'no reference with first author "Smith"' in said
    doc = _text_doc("## 1 Introduction", "## 2 Smith et al.")
    assert view_or_error(doc, "Smith et al.").label.endswith("2 Smith et al.")  # type: ignore[union-attr]
