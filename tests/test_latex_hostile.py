"""Hostile e-prints through the real MCP client: a stdio server under a memory cap reads each
without failing the read, and keeps the call's deadline while converting.

- a bibliography of more entries than the converter takes (`crossrefs.MAX_ENTRIES`) reads
  without its tail, and the text says how many entries are left out;
- a source too large to convert before the deadline stops with the deadline's line, naming
  the LaTeX conversion (the converter looks at the clock while it works, not only after);
- numbers of 100,000 digits (`\\num`, an exponent, a unit's power) and a label that is a digit
  but not a number (`²`) read as text;
- any exception of a converter falls back to the next source (the PDF), as a damaged file does.

Every answer comes within the deadline + 5 s and the server is idle within 5 s of it (on
Linux, where its CPU time is read from /proc): no conversion outlives its call.
"""

from __future__ import annotations

import anyio
import pytest
from mcp.client import Client

from arxiv_mcp.text.latex.crossrefs import MAX_ENTRIES
from tests import platforms
from tests.conftest import paper
from tests.fake_arxiv import eprint
from tests.hostile import CappedServer, answer, capped_server

pytestmark = [pytest.mark.anyio, platforms.posix_rlimits]

MEMORY_CAP = 2 * 1024**3
"""Address space of the server process (RLIMIT_AS): a 20 MB source converts in about 600 MB."""
GENEROUS_S = 120.0
"""Far beyond any expected time: only a call that never ends reaches it."""


def capped(fake, home, deadline_s: int) -> CappedServer:
    return capped_server(fake, home, deadline_s=deadline_s, memory_cap=MEMORY_CAP)


def tex(body: str, preamble: str = "") -> str:
    return f"\\documentclass{{article}}\n{preamble}\\begin{{document}}\n\\title{{Hostile}}\\maketitle\n{body}\n\\end{{document}}\n"


def bibliography(entries: int) -> str:
    items = "".join(
        f"\\bibitem[Author{k} et al.({1900 + k % 120})]{{key{k}}} A. Author{k}, J. {k}.\n" for k in range(entries)
    )
    return f"\\section{{Introduction}}\nAs shown \\citep{{key0}}.\n\\begin{{thebibliography}}{{9}}\n{items}\\end{{thebibliography}}"


HUGE_NUMBER = "9" * 100_000
NUMBERS = tex(
    f"\\section{{Numbers}}\nA count of \\num{{{HUGE_NUMBER}}} and \\num{{1e{HUGE_NUMBER}}} and "
    f"\\qty{{2e-{HUGE_NUMBER}}}{{\\metre^{{{HUGE_NUMBER}}}}}, then done \\cite{{a,b,c}}.\n"
    "\\begin{thebibliography}{9}\n\\bibitem[\u00b2]{a} One.\n\\bibitem[2]{b} Two.\n\\bibitem[3]{c} Three.\n"
    "\\end{thebibliography}",
    "\\usepackage{siunitx}\n\\usepackage[numbers,compress]{natbib}\n",
)


async def read(server: CappedServer, pid: str):
    """The first page's result, its text replaced by every page's text (read from the cache);
    each answer within the deadline + 5 s, the server idle within 5 s of it."""
    async with Client(server.params) as client:
        with anyio.fail_after(GENEROUS_S):
            first = await answer(client, server, "read_paper", {"paper_id": pid + "v1", "page_size": 100_000})
            if first.is_error:
                return first
            texts = [first.structured_content["text"]]
            for page in range(2, first.structured_content["total_pages"] + 1):
                more = await answer(
                    client, server, "read_paper", {"paper_id": pid + "v1", "page": page, "page_size": 100_000}
                )
                texts.append(more.structured_content["text"])
    first.structured_content["text"] = "".join(texts)
    return first


def said(result) -> str:
    return result.content[0].text if result.content else ""


async def test_a_bibliography_too_long_reads_without_its_tail(fake, tmp_path):
    pid = "2403.00101"
    fake.add(paper(pid, "Long bibliography", source=eprint({"main.tex": tex(bibliography(MAX_ENTRIES + 250))})))
    result = await read(capped(fake, tmp_path / "home", 60), pid)
    assert not result.is_error, said(result)
    assert result.structured_content["method"] == "source"
    text = result.structured_content["text"]
    assert f"[250 more entries of this bibliography are left out: more than {MAX_ENTRIES}" in text
    assert f"Author{MAX_ENTRIES - 1}, J." in text and f"Author{MAX_ENTRIES}, J." not in text
    assert "(Author0 et al., 1900)" in text  # the citation of a kept entry, as printed


async def test_a_source_too_large_for_the_deadline_stops_converting(fake, tmp_path):
    """20 MB of bibliography takes many seconds to tokenize; with 2 s the conversion itself
    must notice the deadline (the line names it), not only the steps after it."""
    pid = "2403.00102"
    items = "".join(f"\\bibitem{{k{k}}} A{k}.\n" for k in range(1_200_000))
    body = f"\\section{{A}}\nText.\n\\begin{{thebibliography}}{{9}}\n{items}\\end{{thebibliography}}"
    fake.add(paper(pid, "Huge source", source=eprint({"main.tex": tex(body)})))
    result = await read(capped(fake, tmp_path / "home", 2), pid)
    assert result.is_error
    assert "Converting the paper's LaTeX source took longer than this call may take" in said(result), said(result)
    assert "ARXIV_MCP_DEADLINE_S" in said(result)


async def test_numbers_of_100000_digits_read_as_text(fake, tmp_path):
    pid = "2403.00103"
    fake.add(paper(pid, "Huge numbers", source=eprint({"main.tex": NUMBERS})))
    result = await read(capped(fake, tmp_path / "home", 60), pid)
    assert not result.is_error, said(result)
    assert result.structured_content["method"] == "source"
    text = result.structured_content["text"]
    assert (
        f"A count of {HUGE_NUMBER} and $1 \\times 10^{{{HUGE_NUMBER}}}$ and $2 \\times 10^{{-{HUGE_NUMBER}}}$" in text
    )
    assert "then done [\u00b2, 2, 3]" in text


async def test_a_converter_exception_falls_back_to_the_pdf(fake, make_config, connect, monkeypatch):
    """Whatever a converter raises on a paper's data is that source failing: the next is read."""

    def broken(bundle):
        raise ValueError("Exceeds the limit (4300 digits) for integer string conversion")

    monkeypatch.setattr("arxiv_mcp.text.latex.convert.bundle_to_document", broken)
    pid = "2403.00104"
    fake.add(paper(pid, "Broken converter", source=eprint({"main.tex": tex("\\section{A} Text.")})))
    async with connect(config=make_config()) as client:
        result = await client.call_tool("read_paper", {"paper_id": pid + "v1"})
    assert not result.is_error, said(result)
    assert result.structured_content["method"] == "pdf"
