"""The shared text shape (text/shape.py), held against every extractor's real output.

Each extractor's text must parse as the views expect: every line starting with `#` is a
well-formed heading, a `#` from the paper's own text never starts a line, and page markers
come only from paged sources.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arxiv_mcp.text import shape
from arxiv_mcp.text.extract import extract
from tests.fake_arxiv import eprint
from tests.pdfgen import make_pdf

FIXTURES = Path(__file__).parent / "fixtures"
HOSTILE = "# not a heading\n  ## nor this"


def _latex() -> bytes:
    body = (
        r"\documentclass{article}\title{Shape}\begin{document}\maketitle"
        r"\begin{abstract}An abstract.\end{abstract}\section{Intro}" + "\n" + HOSTILE.replace("#", r"\#") + "\n"
        r"\section{End}Done.\end{document}"
    )
    return eprint({"main.tex": body})


def _html() -> bytes:
    return (
        "<html><body><article class='ltx_document'><h1 class='ltx_title ltx_title_document'>Shape</h1>"
        "<section class='ltx_section'><h2 class='ltx_title ltx_title_section'>1 Intro</h2>"
        f"<div class='ltx_para'><p class='ltx_p'>{'Some body text. ' * 30}</p></div>"
        f"<div class='ltx_para'><p class='ltx_p'>{HOSTILE.replace(chr(10), '<br>')}</p></div>"
        "</section></article></body></html>"
    ).encode()


CASES = {
    "html (real page)": (
        "html",
        lambda: (FIXTURES / "html" / "arxiv_html_2501.12977v1_TRANSCRIBED_nbsp-lost.html").read_bytes(),
    ),
    "html (hostile)": ("html", _html),
    "source (real e-print)": ("source", lambda: (FIXTURES / "src" / "1605.03959.tar.gz").read_bytes()),
    "source (hostile)": ("source", _latex),
    "pdf (real)": ("pdf", lambda: (FIXTURES / "pdf" / "0908.0054v1.pdf").read_bytes()),
    "pdf (hostile)": ("pdf", lambda: make_pdf(["Intro words " * 20 + "\n" + HOSTILE, "More words " * 20])),
}


@pytest.mark.parametrize("case", list(CASES))
def test_every_extractor_writes_the_shared_shape(case):
    method, load = CASES[case]
    text = extract(method, load()).text
    hash_lines = [line for line in text.split("\n") if line.lstrip().startswith("#")]
    assert hash_lines, "every extractor marks some structure"
    for line in hash_lines:
        assert shape.HEADING_RE.fullmatch(line), f"{case}: {line!r} starts with # but is no heading"
    titles = [shape.HEADING_RE.fullmatch(line).group(2) for line in hash_lines]
    assert "not a heading" not in titles and "nor this" not in titles
    pages = [t for t in titles if shape.is_page_title(t)]
    if method == "pdf":
        assert pages == [f"Page {n}" for n in range(1, len(pages) + 1)] and pages
    else:
        assert not pages


def test_escape_and_headings_round_trip():
    assert shape.escape_line("  # x") == "  \\# x"
    assert shape.escape_line("a # b") == "a # b"
    assert shape.escape_body("#a\nb\n#c") == "\\#a\nb\n\\#c"
    assert shape.heading(2, " 2   Related\nWork ") == "## 2 Related Work"
    assert shape.heading(9, "x") == "###### x"
    assert shape.page_heading(3) == "## Page 3" and shape.is_page_title("Page 3")
    assert not shape.is_page_title("Page numbering")
    assert re.fullmatch(shape.HEADING_RE, shape.heading(1, "Title"))
