"""Issue 32 points 1-3 through the real MCP client (stdio, a fresh `python -m arxiv_mcp`): a
theorem, its proof, an algorithm, a footnote and the lists, from a LaTeX e-print, a PDF, a
LaTeXML page and an arXiv (latexml-oxide) page the fake arXiv serves. The truth is
`test_statements.py`'s, written from each paper's source or print."""

from __future__ import annotations

import pytest
from mcp.client import Client

from tests.conftest import paper
from tests.selecting import misses, said, stdio_server
from tests.statement_truth import FIXTURES

EPRINT, PDF, HTML, OXIDE = "1704.02281", "9802.04000", "2609.13831", "2410.00260"

# selector -> phrases the answer holds, or ("error", words the one-line error holds)
FORMS: dict[str, dict[str, tuple[str, ...]]] = {
    EPRINT: {
        "Theorem 3.1": ("the expected loss of the AugUCB", "Proof. The proof comprises"),
        "Algorithm 1": ("Algorithm 1: AugUCB", "Pull each arm once"),
        "footnote 1": ("round-based",),
        "Theorem 1": ("error", "Theorem 1", "Theorem 3.1"),
        "Listing 2": ("error", "Listing 2"),
    },
    PDF: {
        "Thm. 2.1": ("Alice gets g, Bob gets h", "Proof: Consider the quantum circuit"),
        "Fact 1.4": ("For every problem P on n-bit inputs",),
        "results": ("Theorem 1.1 ", "Fact 1.4 "),
        "Lemma 5": ("error", "Lemma 5", "Theorem 1.1"),
    },
    HTML: {
        "Lemma 2.1": ("maximum packing", "Proof. Suppose that"),
        "Prop 1": ("error", "Proposition 1", "Lemma 2.1"),
        "footnote 1": ("tuza-lean",),
        "note 1": ("tuza-lean",),
        "lemmas": ("Lemma 2.1 ", "Lemma 2.2 "),
    },
    OXIDE: {
        "Algorithm 1": ("Seed guided automated data curation", "Initialize Vector Database"),
        "Algorithm 3": ("error", "Algorithm 3", "Algorithm 1"),
        "Corollary 3.8": ("error", "Corollary 3.8"),
        "results": ("error", "no section named Results", 'section="outline"'),
        "footnote": ("2 footnotes", "These authors contributed equally"),
    },
}


@pytest.fixture
def served(fake, tmp_path):
    eprint = paper(EPRINT, "Thresholding bandits", pdf=None)
    eprint.source = (FIXTURES / "src/1704.02281_EXCERPT.tar.gz").read_bytes()
    pdf = paper(PDF, "Quantum vs classical communication")
    pdf.pdf = (FIXTURES / "pdf/9802040_compiled_EXCERPT.pdf").read_bytes()
    html = paper(HTML, "Tuza")
    html.html = (FIXTURES / "html/latexml_theorems_2609.13831_EXCERPT.html").read_text(encoding="utf-8")
    oxide = paper(OXIDE, "DoPAMine")
    oxide.html = (FIXTURES / "html/oxide_algorithm_2410.00260v2_EXCERPT.html").read_text(encoding="utf-8")
    for each in (eprint, pdf, html, oxide):
        fake.add(each)
    return stdio_server(fake, tmp_path / "home")


def holds(got, expected: tuple[str, ...]) -> bool:
    """The answer holds every phrase, or is an error of one line naming the words."""
    text = said(got)
    if expected[0] == "error":
        return got.is_error and all(w in text for w in expected[1:]) and "\n" not in text.strip()
    return not got.is_error and all(w in text for w in expected)


@pytest.mark.anyio
async def test_statements_algorithms_and_footnotes_over_stdio(fake, served):
    async with Client(served) as client:
        failed = await misses(client, FORMS, holds)
    assert failed == {}
