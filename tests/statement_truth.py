"""What the fixture papers print of theorem-like blocks, algorithms, listings and footnotes,
written from their sources (the LaTeX, the LaTeXML markup, the text a compiled PDF prints),
never from our output.

`PRINTED`: per paper of `selector_truth.PAPERS` (and of the fixtures below), a selector of one
of these kinds that the paper prints -> a fragment of what it prints there. A form of
`selector_truth.UNTYPED` a paper does not print must be refused naming its kind.

Fixtures added for these kinds (provenance):
- `html/latexml_theorems_2609.13831_EXCERPT.html`: LaTeXML markup of arXiv:2609.13831v1
  (A Bound Below 2.8 for Tuza's Conjecture) as its author publishes it on a personal site (a
  Hugo page whose math LaTeXML had written as `$...$`), found through the public code index;
  the elements are verbatim, cut to Theorem 1, Lemmas 2.1 and 2.2 with their proofs, the
  paragraphs naming them and footnote 1, inside a minimal page.
- `html/oxide_algorithm_2410.00260v2_EXCERPT.html`: arXiv's own (latexml-oxide 0.7.6) HTML of
  arXiv:2410.00260v2, `../shared/fixtures/arxiv/html/oxide/arxiv_html_2410.00260v2_oxide076.html`,
  cut to its front matter, section 2's algorithm float and first paragraph (elements verbatim).
- `src/1704.02281_EXCERPT.tar.gz`: the e-print of arXiv:1704.02281 (inspirehep/plotextractor,
  `tests/data/1704.02281.tar.gz`, commit 57f55293e29e4107a24a43e8d03b0e2f5a6f628d), its .tex,
  .sty and .bbl files only (no images).
- `pdf/9802040_compiled_EXCERPT.pdf`: pages 1-3 of the PDF compiled here (pdflatex, TeX Live
  2022) from the e-print of quant-ph/9802040 (docling-project/docling,
  `tests/data/latex/sources/9802040/`, commit 011469074fe53bdde54315ee1120c40710c3c00a):
  `../shared/fixtures/arxiv/real/compiled_pdf_MADE_HERE/docling_9802040.pdf`.
"""

from __future__ import annotations

from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"

PRINTED: dict[str, dict[str, str]] = {
    # 1605.03959's second \footnote (arxiv_v1.tex line 352)
    "logcft": {"footnote 2": "Conversely, it may be shown"},
    # 1706.03762's ar5iv page: the second ltx_note of role footnote (section 6.1)
    "attention": {"footnote 2": "2.8, 3.7, 6.0 and 9.5 TFLOPS"},
}
