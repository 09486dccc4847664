"""Theorem-like blocks, algorithms, listings and footnotes as `read_paper(section=...)` reads
them (issue 32 points 1-3), on real fixtures of each source; the truth is written from each
paper's source or print (`statement_truth.py` says where each fixture comes from)."""

from __future__ import annotations

import pytest

from arxiv_mcp.text.document import Document, DocumentBuilder, Footnote, Kind, Statement
from arxiv_mcp.text.extract import extract
from arxiv_mcp.text.heads import asked, head_at
from arxiv_mcp.text.selection import Selection
from arxiv_mcp.text.statements import typed
from tests.selecting import view_or_error
from tests.statement_truth import FIXTURES

_DOCS: dict[str, Document] = {}
_SOURCES = {
    "latex": ("source", "src/1704.02281_EXCERPT.tar.gz"),
    "pdf": ("pdf", "pdf/9802040_compiled_EXCERPT.pdf"),
    "html": ("html", "html/latexml_theorems_2609.13831_EXCERPT.html"),
    "oxide": ("html", "html/oxide_algorithm_2410.00260v2_EXCERPT.html"),
}


def _doc(name: str) -> Document:
    if name not in _DOCS:
        source, path = _SOURCES[name]
        _DOCS[name] = extract(source, (FIXTURES / path).read_bytes())
    return _DOCS[name]


# --- the grammar ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("printed", "kind", "number", "note", "of"),
    [
        ("Theorem 2.3. Let x", "theorem", "2.3", None, None),
        ("Lemma 4.1 (Cauchy-Schwarz). For all", "lemma", "4.1", "Cauchy-Schwarz", None),
        ("THEOREM 2. Let", "theorem", "2", None, None),
        ("Main Theorem 1. X", "theorem", "1", None, None),
        ("Fact 1.4: [Kr95] For", "fact", "1.4", None, None),
        ("Definition 3: A set", "definition", "3", None, None),
        ("Proof. Trivial.", "proof", None, None, None),
        ("Proof of Theorem 2.3. By", "proof", None, None, "Theorem 2.3"),
        ("Proof of Theorem 1.8\nThe upper bound", "proof", None, None, "Theorem 1.8"),
        ("Proof (sketch). By", "proof", None, "sketch", None),
        ("Remark. Note", "remark", None, None, None),
    ],
)
def test_a_head_is_read_as_papers_print_it(printed, kind, number, note, of):
    head = head_at(printed)
    assert head is not None and (head.kind, head.number, head.note, head.of) == (kind, number, note, of)


@pytest.mark.parametrize(
    "sentence", ["Theorem 2 shows that", "proof of concept. It", "Example: the", "Theorem 1.15.", "Lemmas 2. A"]
)
def test_a_sentence_is_no_head(sentence):
    head = head_at(sentence)
    assert head is None or not sentence[head.end :].strip()


@pytest.mark.parametrize(
    ("selector", "kind", "number"),
    [
        ("Theorem 2.3", "theorem", "2.3"),
        ("Thm. 2.3", "theorem", "2.3"),
        ("Lemma 5", "lemma", "5"),
        ("Def. 2.1", "definition", "2.1"),
        ("Prop 1", "proposition", "1"),
        ("Corollary 3.8", "corollary", "3.8"),
        ("Theorem 2 (Main)", "theorem", "2"),
        ("lemma4.1", "lemma", "4.1"),
        ("Theorems 2", "theorem", "2"),
        ("lemmata 3", "lemma", "3"),
        ("thms 1.2", "theorem", "1.2"),
    ],
)
def test_a_reader_names_a_statement_in_every_form(selector, kind, number):
    assert asked(selector) == (kind, number)


# --- the pass -------------------------------------------------------------------------------


def _built(*paragraphs: str) -> Document:
    builder = DocumentBuilder()
    builder.heading(2, "2 Results")
    for paragraph in paragraphs:
        builder.separate()
        builder.add_text(paragraph)
    return typed(builder.build())


def test_a_proof_proves_what_it_names_or_the_statement_it_follows():
    doc = _built("Theorem 2.3 (Main). Every x is y.", "Proof. Clear. ∎", "Proof of Lemma 1. Also clear.")
    statements = doc.records(Statement)
    assert [(s.kind, s.number, s.note, s.proves) for s in statements] == [
        ("theorem", "2.3", "Main", None),
        ("proof", None, None, "Theorem 2.3"),
        ("proof", None, None, "Lemma 1"),
    ]
    assert (
        doc.text == _built("Theorem 2.3 (Main). Every x is y.", "Proof. Clear. ∎", "Proof of Lemma 1. Also clear.").text
    )


def test_a_head_a_pdf_ran_into_a_paragraph_splits_it_and_a_sentence_does_not():
    doc = _built("We show the bound. Theorem 3.1. For K it holds.\nProof. Easy.", "As shown in\nTheorem 1.15.")
    assert [(s.label, s.number) for s in doc.records(Statement)] == [("Theorem", "3.1"), ("Proof", None)]


def test_footnotes_become_blocks_numbered_as_latex_numbers_them_and_the_text_is_unchanged():
    builder = DocumentBuilder()
    builder.add_text("# Title\n\nAda[^Supported by a grant.]")
    builder.heading(2, "1 Intro")
    builder.add_text("Words[^A note [12] with brackets.] and more[^2: marked].")
    doc = builder.build()
    out = typed(doc)
    assert out.text == doc.text
    notes = out.records(Footnote)
    assert [(n.mark, n.text) for n in notes] == [
        ("*", "Supported by a grant."),
        ("1", "A note [12] with brackets."),
        ("2", "marked"),
    ]
    spans = [(b.kind, out.text[b.start : b.end]) for b in out.blocks if b.start > out.text.index("## 1")]
    assert spans == [
        (Kind.PARAGRAPH, "Words"),
        (Kind.FOOTNOTE, "[^A note [12] with brackets.]"),
        (Kind.PARAGRAPH, "and more"),
        (Kind.FOOTNOTE, "[^2: marked]"),
        (Kind.PARAGRAPH, "."),
    ]


def test_theorem_2_3_is_the_theorem_never_the_section_proving_it():
    builder = DocumentBuilder()
    builder.heading(2, "2 Results")
    builder.add_text("Theorem 2.3. Every x is y.")
    builder.heading(3, "2.4 Proof of Theorem 2.3")
    builder.add_text("By Lemma 1, x is y.")
    doc = typed(builder.build())
    got = view_or_error(doc, "Theorem 2.3")
    assert isinstance(got, Selection) and got.label == "Theorem 2.3" and "Every x is y." in got.text
    assert isinstance(view_or_error(doc, "Proof of Theorem 2.3"), Selection)  # the section, by its whole name


# --- real papers ----------------------------------------------------------------------------

# (paper, selector) -> words the answer holds (from the source or print), or an error's words
_TRUTH: dict[tuple[str, str], tuple[str, ...]] = {
    # 1704.02281: \newtheorem{theorem}{Theorem}[section] in its macros.sty; the theorem stands in
    # section 3, so LaTeX prints Theorem 3.1 (the PDF compiled from it does); \caption{AugUCB}
    ("latex", "Theorem 3.1"): ("Theorem 3.1", "the expected loss of the AugUCB", "Proof. The proof comprises"),
    ("latex", "Thm. 3.1"): ("the expected loss of the AugUCB",),
    ("latex", "Algorithm 1"): ("Algorithm 1: AugUCB", "```", "Pull each arm once", "Reset Parameters"),
    ("latex", "footnote 1"): ("round-based", "have proposed a"),
    ("latex", "Theorem 1"): ("error", "Theorem 1", "Theorem 3.1"),
    ("latex", "Algorithm 2"): ("error", "Algorithm 2", "Algorithm 1"),
    ("latex", "Lemma 2"): ("error", "Lemma", "Theorem 3.1"),
    ("latex", "footnote 2"): ("error", "footnote 2", "footnote 1"),
    # quant-ph/9802040 as pdflatex prints it (pages 1-5)
    ("pdf", "Theorem 1.8"): ("balanced depth-d", "Proof of Theorem 1.8", "The upper bound follows"),
    ("pdf", "Thm. 2.1"): ("Theorem 2.1", "Alice gets g, Bob gets h", "Proof: Consider the quantum circuit"),
    ("pdf", "Fact 1.4"): ("For every problem P on n-bit inputs",),
    ("pdf", "Theorem 1.14"): ("SIGMA2", "The basic approach"),
    ("pdf", "Theorem 1.17"): ("T0(OR)",),
    ("pdf", "Lemma 5"): ("error", "Lemma 5", "Theorem 1.1"),
    ("pdf", "theorems"): ("Theorem 1.1 ", "Theorem 1.17 ", "Theorem 3.1 "),
    ("pdf", "results"): ("Fact 1.4 ", "Theorem 2.1 "),
    ("pdf", "Algorithm 1"): ("error", "Algorithm 1"),
    # arXiv:2609.13831 as LaTeXML writes it
    ("html", "Theorem 1"): ("Every finite simple graph", "no proof of it is marked"),
    ("html", "Lemma 2.1"): ("maximum packing", "Proof. Suppose that", "enlarge the packing (Lemma 2.1)"),
    ("html", "Lem. 2.2"): ("set of books", "Proof. Let"),
    ("html", "lemmas"): ("2 lemmas", "Lemma 2.1 ", "Lemma 2.2 "),
    ("html", "footnote 1"): ("tuza-lean", "formalized in Lean 4 with Mathlib. [^1]"),
    ("html", "Lemma 2.3"): ("error", "Lemma 2.3", "find_in_paper"),
    ("html", "Def. 2.1"): ("error", "Definition 2.1"),
    ("html", "note 1"): ("tuza-lean",),  # the word readers write for a footnote, as "fn 1"
    ("html", "footnote (1)"): ("tuza-lean",),  # its mark as printed in parentheses
    ("html", "lemmata 2.1"): ("maximum packing",),  # a plural and a number, as "footnotes 2" reads
    ("html", "thms 1"): ("Every finite simple graph",),
    ("html", "Theorem 2-3"): ("error", "Theorem 2-3", "form this reader does not know", "Theorem 1"),
    # arXiv:2410.00260v2 as arXiv's latexml-oxide writes it
    ("oxide", "Algorithm 1"): ("Seed guided automated data curation", "```", "Initialize Vector Database"),
    ("oxide", "Alg. 1"): ("Seed guided automated data curation",),
    ("oxide", "algorithms"): ("1 algorithm:", "Algorithm 1: Seed guided"),
    ("oxide", "Algorithm 2"): ("error", "Algorithm 2", "Algorithm 1"),
    ("oxide", "Listing 2"): ("error", "Listing 2"),
    ("oxide", "footnote 1"): ("These authors contributed equally",),
    ("oxide", "Theorem 2.3"): ("error", "Theorem 2.3"),
    ("oxide", "algorithm"): ("1 algorithm:", "Algorithm 1: Seed guided"),  # a singular list name
    ("oxide", "footnote"): ("2 footnotes", "[^1] These authors contributed equally"),
    ("oxide", "Algorithm 1 (Seed guided)"): ("Seed guided automated data curation",),
    ("oxide", "Alg 2-3"): ("error", "Algorithm 2-3", "form this reader does not know", "It has Algorithm 1."),
    ("oxide", "footnote 2.1"): ("error", "footnote 2.1", "It has footnote 1 and 7."),
    # 2410.00260v2 has no section named Results and no theorem-like block
    ("oxide", "results"): ("error", "no section named Results", 'section="outline"'),
}


@pytest.mark.parametrize(("paper", "selector"), sorted(_TRUTH))
def test_every_form_gives_the_item_or_an_error_naming_its_kind(paper, selector):
    expected = _TRUTH[(paper, selector)]
    got = view_or_error(_doc(paper), selector)
    if expected[0] == "error":
        assert isinstance(got, str), got.text[:300]
        assert all(word in got for word in expected[1:]), got
        assert "\n" not in got and "no heading matches" not in got
    else:
        assert isinstance(got, Selection), got
        assert all(word in got.text for word in expected), got.text[:2000]


# --- LaTeX's own numbering ------------------------------------------------------------------


def _latex(files: dict[str, str]) -> Document:
    from arxiv_mcp.text.latex.convert import latex_to_document

    return typed(latex_to_document({name: body.encode() for name, body in files.items()}))


def test_a_theorem_kind_a_shipped_package_defines_is_numbered_as_latex_numbers_it():
    doc = _latex(
        {
            "paper.tex": "\\documentclass{article}\\usepackage{macros}\\begin{document}"
            "\\section{Intro}Text.\\section{Main}\\begin{theorem}A.\\end{theorem}"
            "\\begin{lemma}[Key]B.\\end{lemma}\\begin{proof}C.\\end{proof}\\end{document}",
            "macros.sty": "\\newtheorem{theorem}{Theorem}[section]\n\\newtheorem{lemma}[theorem]{Lemma}\n",
        }
    )
    assert [(s.label, s.number, s.note, s.proves) for s in doc.records(Statement)] == [
        ("Theorem", "2.1", None, None),
        ("Lemma", "2.2", "Key", None),
        ("Proof", None, None, "Lemma 2.2"),
    ]


def test_a_papers_own_environment_wrapping_a_theorem_kind_is_that_kind():
    """quant-ph/9802040 defines its theorem kinds after \\begin{document} and wraps each in an
    environment of the built-in name (`theorem` is its `THEOREM`, numbered within sections)."""
    doc = _latex(
        {
            "paper.tex": "\\documentclass{article}\\begin{document}"
            "\\newtheorem{THEOREM}{Theorem}[section]\n"
            "\\newenvironment{theorem}{\\begin{THEOREM} \\hspace{-.85em} {\\bf :} }{\\end{THEOREM}}\n"
            "\\newtheorem{FACT}[THEOREM]{Fact}\n"
            "\\newenvironment{fact}{\\begin{FACT} \\hspace{-.85em} {\\bf :} }{\\end{FACT}}\n"
            "\\section{Intro}\\begin{theorem}A.\\end{theorem}\\begin{fact}B.\\end{fact}\\end{document}",
        }
    )
    assert [(s.label, s.number) for s in doc.records(Statement)] == [("Theorem", "1.1"), ("Fact", "1.2")]


# --- footnotes a PDF reader types at its pages' feet -------------------------------------------


def _pdf_like() -> Document:
    """As the PDF reader writes a page: its text, then each foot line a `Footnote` block."""
    builder = DocumentBuilder()
    builder.add_text("## Page 1\n\n")
    builder.heading(2, "1 Introduction")
    builder.add_text("The data are public.3 We use them.")
    builder.block(Kind.FOOTNOTE, "3 https://example.org/data", Footnote("3", "https://example.org/data"))
    return typed(builder.build())


def test_a_pdf_footnote_block_is_served_with_its_page_whatever_made_it():
    doc = _pdf_like()
    assert [f.mark for f in doc.records(Footnote)] == ["3"]
    got = view_or_error(doc, "footnote 3")
    assert isinstance(got, Selection) and "Footnote 3: https://example.org/data" in got.text
    assert "At the foot of Page 1; its mark follows (1 Introduction): …" in got.text
    assert got.text.endswith("The data are public.3")
    missing = view_or_error(doc, "fn 4")
    assert isinstance(missing, str) and "no footnote 4; it has footnote 3" in missing


def test_find_names_a_statement_and_a_footnote_as_readers_do():
    from arxiv_mcp.text.places import Places

    doc = _doc("html")
    places = Places(doc)
    assert places.describe(doc.text.index("Every finite simple graph")) == "Theorem 1"
    assert places.describe(doc.text.index("tuza-lean")) == "footnote 1"


def test_proof_of_a_statement_and_the_outline_counts():
    doc = _doc("pdf")
    got = view_or_error(doc, "Proof of Theorem 1.8")
    assert isinstance(got, Selection) and "The upper bound follows" in got.text
    missing = view_or_error(doc, "Proof of Theorem 1.1")
    assert isinstance(missing, str) and "no proof of Theorem 1.1" in missing
    outline = view_or_error(doc, "outline")
    assert (
        isinstance(outline, Selection) and 'Also: 19 theorem-like blocks ("Theorem 2.3", "statements")' in outline.text
    )


def test_latex_algorithms_and_listings_carry_their_caption_and_code():
    doc = _latex(
        {
            "a.tex": "\\documentclass{article}\\begin{document}\\section{Code}Some text.\n"
            "\\begin{lstlisting}[language=Python, caption={Training loop}, label=lst:train]\n"
            "for x in data:\n    step(x)\n\\end{lstlisting}\n"
            "\\begin{algorithm}\\caption{Other}\\begin{algorithmic}[1]\n\\State $x \\gets 0$\n"
            "\\For{$i=1$ to $n$}\n\\State $x \\gets x + i$\n\\EndFor\n\\end{algorithmic}\\end{algorithm}\n"
            "\\begin{listing}\\begin{minted}{python}\nprint(1)\n\\end{minted}\\caption{Hello}\\end{listing}\n"
            "See Listing~\\ref{lst:train}.\\end{document}",
        }
    )
    listing = view_or_error(doc, "Listing 1")
    assert isinstance(listing, Selection) and "Listing 1: Training loop" in listing.text
    assert "```\nfor x in data:\n    step(x)\n```" in listing.text and "See Listing 1." in listing.text
    algorithm = view_or_error(doc, "Alg. 1")
    assert isinstance(algorithm, Selection) and "Algorithm 1: Other" in algorithm.text
    assert "$x \\gets x + i$" in algorithm.text
    minted = view_or_error(doc, "Listing 2")
    assert isinstance(minted, Selection) and "Listing 2: Hello" in minted.text and "print(1)" in minted.text


def test_a_head_alone_opens_a_statement_only_before_display_math_or_a_list():
    doc = _built("Theorem 4.", "$$x = y$$", "Lemma 5.", "We go on.")
    assert [(s.label, s.number) for s in doc.records(Statement)] == [("Theorem", "4")]
    got = view_or_error(doc, "Theorem 4")
    assert isinstance(got, Selection) and "Theorem 4.\n\n$$x = y$$" in got.text


def test_a_statement_runs_up_to_its_proof():
    doc = _built("Theorem 1.1 (Main). Define x. Then", "$$x = 1$$", "In particular, it holds.", "Proof. Direct. ∎")
    got = view_or_error(doc, "Theorem 1.1")
    assert isinstance(got, Selection) and "$$x = 1$$\n\nIn particular, it holds.\n\nProof. Direct. ∎" in got.text


def test_a_latexml_listing_stays_lines_and_a_captioned_listing_float_is_a_listing():
    body = "Some words here. " * 40
    page = (
        '<html><body><article class="ltx_document"><section class="ltx_section"><h2 class="ltx_title '
        'ltx_title_section"><span class="ltx_tag ltx_tag_section">1 </span>Code</h2>'
        f'<div class="ltx_para"><p class="ltx_p">{body}</p></div>'
        '<div class="ltx_listing ltx_lstlisting ltx_listing"><div class="ltx_listingline">for x in y:</div>'
        '<div class="ltx_listingline">f(x)</div></div>'
        '<figure class="ltx_float ltx_lstlisting" id="lst1"><figcaption class="ltx_caption"><span class="ltx_tag '
        'ltx_tag_float">Listing 1: </span>Training loop</figcaption><div class="ltx_listing ltx_lstlisting '
        'ltx_listing"><div class="ltx_listingline">train()</div></div></figure></section></article></body></html>'
    )
    doc = extract("html", page.encode())
    assert "for x in y:\nf(x)" in doc.text
    got = view_or_error(doc, "Listing 1")
    assert isinstance(got, Selection) and "Listing 1: Training loop" in got.text and "```\ntrain()\n```" in got.text


@pytest.mark.parametrize("paper", sorted(_SOURCES))
def test_the_typed_blocks_survive_the_cache_form(paper):
    doc = _doc(paper)
    assert Document.from_json(doc.to_json()) == doc
