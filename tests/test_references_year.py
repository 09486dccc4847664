"""The year `get_references` lists for an entry of the paper's own bibliography.

natbib's author-year bibliographies (`\\bibitem[Robbins(1952)]{robbins}`) often state the year
only in the label: the entry's text, as the style prints it, can leave it out. The references
tool read the year from the text only and listed such entries as "n.d."."""

from __future__ import annotations

import pytest
from mcp.client import Client

from tests.conftest import paper
from tests.fake_arxiv import NO_PDF, eprint
from tests.selecting import said, stdio_server

PID = "2403.01314"

_MAIN = r"""\documentclass{article}
\usepackage{natbib}
\begin{document}
\title{Sequential Designs}
\maketitle
\section{Introduction}
Bandits go back to \citet{robbins}.
\begin{thebibliography}{1}
\bibitem[Robbins(1952)]{robbins} H. Robbins. Some aspects of the sequential design of experiments. Bulletin of the AMS.
\end{thebibliography}
\end{document}
"""


@pytest.fixture
def served(fake, tmp_path):
    fake.add(paper(PID, "Sequential Designs", source=eprint({"main.tex": _MAIN}), pdf=NO_PDF))
    return stdio_server(fake, tmp_path / "home")


@pytest.mark.anyio
async def test_an_entry_with_its_year_only_in_the_label_lists_that_year(served):
    async with Client(served) as client:
        await client.call_tool("read_paper", {"paper_id": PID, "section": "outline"})
        refs = await client.call_tool("get_references", {"paper_id": PID})
    assert not refs.is_error, said(refs)
    assert "1952" in said(refs) and "n.d." not in said(refs), said(refs)
