"""Issue 32's selector forms through the real MCP client (stdio, a fresh `python -m arxiv_mcp`)
on real papers of each kind served by the fake arXiv: an arXiv HTML page (author-year
bibliography), a LaTeX e-print, a PDF, and a REVTeX-numbered latexml-oxide page. The truth is
`selector_truth.py`'s (written from the sources); the exhaustive sweep is
`test_selector_forms.py`, in process."""

from __future__ import annotations

import pytest
from mcp.client import Client

from tests.conftest import html_paper, paper
from tests.selecting import misses, said, stdio_server
from tests.selector_truth import PAPERS
from tests.test_selectors_stdio import page

HTML, EPRINT, PDF, OXIDE = "2501.12977", "0905.00001", "0908.00054", "2403.00032"

# selector -> a phrase the answer holds, or ("error", words the one-line error holds)
FORMS: dict[str, dict[str, str | tuple[str, ...]]] = {
    HTML: {
        "(Lasker et al., 2008)": "Lasker, B. M.",
        "Lasker et al. 2008": "Lasker, B. M.",
        "Grindlay & Tang 2012": "New Horizons",
        "Los 2012": "Los, E. J. 2012",
        "Grindlay 2018": ("error", "Grindlay", "first author"),
        "Grindlay et al. 2017": ("error", "Grindlay (2017)", "first author"),  # one author: never "et al."
        "S1": ("error", 'section numbered "S1"', "section:1", "1, 2, 3, 4"),
        "Section 2": "Completion of the DASCH",
        "III-A": ("error", "section numbered", "1, 2, 3, 4"),
        "Theorem 2.3": ("error", "Theorem 2.3", "find_in_paper"),
    },
    EPRINT: {
        "[2, 4]": "Caldarelli",
        "[2-4]": "Cacciatori",
        "Caldarelli & Klemm 2003": "Caldarelli and D. Klemm",
        "arXiv:hep-th/0307022": "Caldarelli",
        "Eq. (A.1)": "\\omega _{{\\bar{1}},+1}",
        "(2.2)": "D_{\\mu }\\epsilon",
        "Section 5.2": "Solutions with",
        "Appendix A": "The Linear System",
        "Lemma 4.1": ("error", "Lemma", "find_in_paper"),
        "footnote 2": ("error", "Footnote", "find_in_paper"),
        "Figure 99" + "9" * 5000: ("error", "digits"),
    },
    PDF: {
        "Sec. III": "TESTING WITH THE CMB",
        "Figure 6": "reionization",
        "Fig. 2 (left)": "Universe",
        "Figure 6.": "reionization",
        "Matos 2000": "[3]",
        "Hu et al. 2000": "Gruzinov",
        "Fig. S2": ("error", 'no figure "S2"', "Figure 1"),
        "Algorithm 1": ("error", "Algorithm", "find_in_paper"),
    },
    OXIDE: {
        "IV-A": "IV.A Setup",
        "Sec. IV-B": "IV.B Training",
        "IV.B": "IV.B Training",
        "Section 4.2": "IV.B Training",
        "Sec. IV A": "IV.A Setup",  # as REVTeX's ref prints it
        "VIII-A": ("error", "section numbered", "IV.A"),
        "Table 2(a)": "Scores.",
        "Fig. 3 (left)": "Results by panel.",
        "[3, 12]": "Work number 3",
        "[1-3]": "Work number 2",
        "2401.12345": "Work number 12",
        "Definition 2": ("error", "Definition", "find_in_paper"),
    },
}


@pytest.fixture
def served(fake, tmp_path):
    dasch = paper(HTML, "DASCH")
    dasch.html = PAPERS["dasch"].path.read_text(encoding="utf-8")
    eprint = paper(EPRINT, "De Sitter", pdf=None)
    eprint.source = PAPERS["desitter"].path.read_bytes()
    pdf = paper(PDF, "Ultra light bosons")
    pdf.pdf = PAPERS["ulbdm"].path.read_bytes()
    oxide = html_paper(OXIDE, "Structured")
    oxide.html = page(["I", "II", "III", "IV"], "latexml-oxide (version 0.7.6)")
    for each in (dasch, eprint, pdf, oxide):
        fake.add(each)
    return stdio_server(fake, tmp_path / "home")


def holds(got, expected: str | tuple[str, ...]) -> bool:
    """The answer holds the phrase, or is an error of one short line naming the words (any case)."""
    text = said(got)
    if isinstance(expected, str):
        return not got.is_error and expected in text
    named = all(w.casefold() in text.casefold() for w in expected[1:])
    return got.is_error and named and "\n" not in text.strip() and len(text) < 2000


@pytest.mark.anyio
async def test_issue_32_forms_over_stdio_on_real_papers(fake, served):
    async with Client(served) as client:
        for pid in FORMS:
            first = await client.call_tool("read_paper", {"paper_id": f"{pid}v1", "section": "outline"})
            assert not first.is_error, said(first)
        failed = await misses(client, FORMS, holds)
        raw = await client.call_tool("read_paper", {"paper_id": f"{HTML}v1", "section": "Remarks\x1b[2J\x07\u202e"})
    assert failed == {}
    assert raw.is_error and 'no heading matches "Remarks[2J"' in said(raw)
    assert not any(ord(c) < 32 and c != "\n" or c == "\u202e" for c in said(raw))
