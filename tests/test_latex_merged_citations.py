"""REVTeX's merged citations (natbib's `merge`): `\\cite{a,*b,*c}` prints the entries of b and c
inside a's, as one numbered entry, and every later entry is numbered as the PDF prints it.

The fixture (`fixtures/latex/revtex_merged/`) has the shape of arXiv:2207.10906, whose compiled
PDF prints `[33] X. Li et al., ... (2017); Y. X. Guo et al., ... (2017); P. Cao et al., ...`
for the .bbl's three \\bibitems: the truth below is what REVTeX prints for it (less the final
stop, which the reader leaves out of every apsrev entry), not our output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arxiv_mcp.errors import InvalidInput
from arxiv_mcp.text.document import Document, Reference
from arxiv_mcp.text.latex.convert import latex_to_document
from arxiv_mcp.text.selectors import select

FIXTURE = Path(__file__).parent / "fixtures" / "latex" / "revtex_merged"
MERGED = (
    "X. Li et al., Radiat. Detect. Technol. Methods 1, 13 (2017); "
    "Y. X. Guo et al., Radiat. Detect. Technol. Methods 1, 15 (2017); "
    "P. Cao et al., Nucl. Instrum. Meth. A 953, 163053 (2020)"
)


def _fixture(tex: str | None = None) -> Document:
    files = {path.name: path.read_bytes() for path in FIXTURE.iterdir()}
    if tex is not None:
        files["main.tex"] = tex.encode()
    return latex_to_document(files)


def _cited(doc: Document) -> list[tuple[str, tuple[str, ...]]]:
    return [(doc.text[c.start : c.end], c.targets) for c in doc.citations]


def test_merged_parts_are_one_entry_with_the_printed_number():
    doc = _fixture()
    references = doc.records(Reference)
    assert [(r.label, r.key) for r in references] == [("1", "Detector"), ("2", "tofA"), ("3", "Ring"), ("4", "Sim")]
    assert references[1].text == MERGED
    assert references[1].doi == "10.1007/s41605-017-0014-2"
    assert "[2] " + MERGED + "\n" in doc.text and "[5]" not in doc.text


def test_a_merged_citation_and_a_part_cited_alone_point_to_the_merged_entry():
    cited = _cited(_fixture())
    assert cited == [
        ("[1]", ("Detector",)),
        ("[2]", ("tofA",)),  # \cite{tofA,*tofB,*tofC}: the starred parts print nothing of their own
        ("[3, 4]", ("Ring", "Sim")),
        ("[2]", ("tofA",)),  # \cite{tofB}: the entry it was merged into
    ]


def _selected(doc: Document, selector: str) -> list[tuple[str, str]]:
    view = select(doc, selector, lambda number: f"arxiv://paper/x/figure/{number}")
    return [(r.label, r.text) for r in view.references]


def test_a_printed_number_after_the_merge_selects_the_entry_the_pdf_prints():
    doc = _fixture()
    assert _selected(doc, "[3]") == [("3", "C. Yu et al., in Proceedings of IPAC2016")]
    assert _selected(doc, "[2]") == [("2", MERGED)]
    # the passage citing a part alone is a mention of the merged entry
    view = select(doc, "[2]", lambda number: f"arxiv://paper/x/figure/{number}")
    assert any("second upgrade" in mention.text for mention in view.references[0].mentions)
    with pytest.raises(InvalidInput):
        select(doc, "[5]", lambda number: f"arxiv://paper/x/figure/{number}")


def test_parts_merge_across_a_blank_line_and_a_citation_after_the_bibliography():
    source = r"""\documentclass{revtex4-1}\begin{document}\section{A}See \cite{one} and \cite{two}.
\begin{thebibliography}{9}
\bibitem{one} First, Journal 1 (2001).

\bibitem{two} Second, Journal 2 (2002).

\bibitem{three} Third, Journal 3 (2003).

\bibitem{four} Fourth, Journal 4 (2004).
\end{thebibliography}
\appendix\section{B}Also \cite{two,*three}.
\end{document}"""
    doc = latex_to_document({"main.tex": source.encode()})
    references = doc.records(Reference)
    assert [(r.label, r.text) for r in references] == [
        ("1", "First, Journal 1 (2001)."),
        # the `;` that ends a merged part of a .bbl entry; a hand-written entry keeps its own stop
        ("2", "Second, Journal 2 (2002).; Third, Journal 3 (2003)."),
        ("3", "Fourth, Journal 4 (2004)."),
    ]
    assert [printed for printed, _ in _cited(doc)] == ["[1]", "[2]", "[2]"]


def test_without_natbibs_merging_a_starred_key_is_an_entry_of_its_own():
    # REVTeX 4.0 predates the merging; a starred first entry has nothing to merge into
    tex = (FIXTURE / "main.tex").read_text().replace("{revtex4-2}", "{revtex4}")
    assert [r.label for r in _fixture(tex).records(Reference)] == ["1", "2", "3", "4", "5", "6"]
    source = r"""\documentclass{revtex4-2}\begin{document}See \cite{x,*first}.
\begin{thebibliography}{9}\bibitem{first} First.\bibitem{x} Ex.\end{thebibliography}\end{document}"""
    doc = latex_to_document({"main.tex": source.encode()})
    assert [(r.label, r.key) for r in doc.records(Reference)] == [("1", "first"), ("2", "x")]
    assert "See [1, 2]." in doc.text  # REVTeX sorts a citation's numbers


@pytest.mark.parametrize(("options", "entries"), [("numbers,merge", 2), ("numbers,elide", 2), ("numbers,mcite", 3)])
def test_natbibs_merge_options_merge_and_its_mcite_option_only_reads_the_star(options: str, entries: int):
    source = rf"""\documentclass{{article}}\usepackage[{options}]{{natbib}}\begin{{document}}See \cite{{a,*b}} and \cite{{c}}.
\begin{{thebibliography}}{{9}}\bibitem{{a}} A.\bibitem{{b}} B.\bibitem{{c}} C.\end{{thebibliography}}\end{{document}}"""
    doc = latex_to_document({"main.tex": source.encode()})
    assert len(doc.records(Reference)) == entries
    assert doc.text.startswith("See [1] and [2]." if entries == 2 else "See [1, 2] and [3].")
