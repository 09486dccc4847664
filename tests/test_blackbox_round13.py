"""Found black-box in round 13 (main with the service and cache split, the LaTeX passes in the
walk and PDF tables from positions): the SDK's stdio client against `python -m arxiv_mcp`
reading the fake arXiv.

Fixture (cut here from a real e-print, written into the test): the `\\algblock` definitions of
`algo.tex` of arXiv 1704.02281 (Thresholding Bandits with Augmented UCB; inspirehep/plotextractor,
`tests/data/1704.02281.tar.gz`, commit 57f55293e29e4107a24a43e8d03b0e2f5a6f628d), lines 4-9:
algorithmicx's `\\algtext*{EndArmElim}` says the block's end prints nothing. The rest of the
e-print is a small paper written here with one figure, one table, one footnote and one
bibliography entry stating no arXiv id.
"""

from __future__ import annotations

import pytest
from mcp.client import Client

from tests.conftest import paper
from tests.fake_arxiv import NO_PDF, eprint
from tests.selecting import said, stdio_server

PID = "2403.01313"

_ALGO = r"""\algblock{ArmElim}{EndArmElim}
\algnewcommand\algorithmicArmElim{\textbf{\em Arm Elimination by Mean Estimation}}
 \algnewcommand\algorithmicendArmElim{}
\algrenewtext{ArmElim}[1]{\algorithmicArmElim\ #1}
\algrenewtext{EndArmElim}{\algorithmicendArmElim}
\algtext*{EndArmElim}
"""

_MAIN = r"""\documentclass{article}
\usepackage{algpseudocode}
\begin{document}
\title{Thresholding Bandits}
\maketitle
\begin{abstract}
We study thresholding bandits with an augmented upper confidence bound.
\end{abstract}
\section{Introduction}
Bandits are studied widely\footnote{An algorithm is round-based if it pulls every arm equally.}
since the work of Robbins \cite{robbins}.
\begin{figure}[h]\centering\caption{Performance of the algorithms.}\end{figure}
\begin{table}[h]\centering\caption{AugUCB against the state of the art.}
\begin{tabular}{ll}Algorithm & Bound\\ AugUCB & $\exp(-T)$\\\end{tabular}\end{table}
\section{Augmented-UCB Algorithm}
\input{algo}
Notation and assumptions: the arms form a set and each arm has a mean reward.
\begin{thebibliography}{1}
\bibitem{robbins} H. Robbins. Some aspects of the sequential design of experiments. Bulletin of the AMS, 1952.
\end{thebibliography}
\end{document}
"""


@pytest.fixture
def served(fake, tmp_path):
    source = eprint({"main.tex": _MAIN, "algo.tex": _ALGO})
    fake.add(paper(PID, "Thresholding Bandits", source=source, pdf=NO_PDF))
    return stdio_server(fake, tmp_path / "home")


async def _read(client: Client, section: str):
    return await client.call_tool("read_paper", {"paper_id": PID, "section": section})


@pytest.mark.anyio
async def test_an_algtext_star_definition_prints_nothing(served):
    """Section 2 of 1704.02281 began "*EndArmElim *EndArmElimV *EndResetParam": `\\algtext*`
    was an unknown command, its star and its argument left as text."""
    async with Client(served) as client:
        section = await _read(client, "2")
    assert not section.is_error, said(section)
    assert "Notation and assumptions" in said(section)
    assert "EndArmElim" not in said(section) and "*" not in said(section).split("## 2", 1)[1]


@pytest.mark.anyio
async def test_lists_of_one_say_one_item(served):
    """The lists of a paper with one figure, table, footnote and reference were headed "1
    figures:", "1 tables:", "1 footnotes:", "1 references:", while its outline said "1 figure,
    1 table"."""
    async with Client(served) as client:
        lists = {kind: said(await _read(client, kind)) for kind in ("figures", "tables", "footnotes", "references")}
    for kind, text in lists.items():
        body = text.split("\n\n", 1)[1]
        assert body.startswith(f"1 {kind[:-1]}:\n"), (kind, body[:80])


@pytest.mark.anyio
async def test_resolving_the_bibliography_does_not_say_no_request_was_made(served, fake):
    """get_references(resolve=true) searched arXiv for the entry stating no id, and its
    answer's first line still said "(from the paper's own bibliography, in its order: no
    request made)"."""
    async with Client(served) as client:
        await _read(client, "outline")
        fake.clear_log()
        plain = await client.call_tool("get_references", {"paper_id": PID})
        asked_plain = len(fake.requests_to("/api"))
        resolved = await client.call_tool("get_references", {"paper_id": PID, "resolve": True})
    assert not plain.is_error and not resolved.is_error, (said(plain), said(resolved))
    assert asked_plain == 0 and "no request made" in said(plain).split("\n", 1)[0]
    assert fake.requests_to("/api"), "the resolver searched arXiv"
    assert "no request made" not in said(resolved).split("\n", 1)[0], said(resolved)
    assert "resolve: not found" in said(resolved)


_FLAGS = r"""\documentclass{article}
\newif\ifarxiv
\arxivtrue
\newif\ifanonymous
\newcommand{\venue}{\ifarxiv a preprint\else the proceedings\fi}
\begin{document}
\title{Conditional Text}
\maketitle
\section{Introduction}
\ifanonymous Anonymous Authors wrote this.\else Ada Lovelace wrote this.\fi{}
This is \venue.
\ifarxiv
The preprint has an appendix with every proof.
\else
See the supplementary material.
\fi
\iftrue Kept by iftrue.\else Dropped by iftrue.\fi{}
\ifx\venue\undefined Undefined.\else Defined.\fi{}
\iffalse Hidden draft note.\fi
The end.
\end{document}
"""


@pytest.mark.anyio
async def test_newif_conditionals_print_the_branch_their_flag_takes(fake, tmp_path):
    """`\\newif\\ifarxiv \\arxivtrue` then `\\ifarxiv A\\else B\\fi`: both A and B were printed
    ("Anonymous Authors wrote this.Ada Lovelace wrote this."), the way a paper's preprint and
    camera-ready versions, or its anonymous and named author lists, both ended in the text."""
    fake.add(paper("2403.01314", "Conditional Text", source=eprint({"main.tex": _FLAGS}), pdf=NO_PDF))
    async with Client(stdio_server(fake, tmp_path / "home")) as client:
        result = await client.call_tool("read_paper", {"paper_id": "2403.01314", "section": "1"})
    text = said(result)
    assert not result.is_error, text
    assert "Ada Lovelace wrote this." in text and "Anonymous" not in text
    assert "The preprint has an appendix" in text and "supplementary" not in text
    assert "Kept by iftrue." in text and "Dropped" not in text
    assert "Hidden" not in text and "The end." in text
    assert "Undefined." in text and "Defined." in text  # \ifx is TeX's to decide: both stay


_ROMAN = r"""\documentclass{article}
\renewcommand{\thesection}{\Roman{section}}
\renewcommand{\theequation}{\thesection.\arabic{equation}}
\begin{document}
\title{Roman Sections}
\maketitle
\section{Introduction}
We begin with words enough to be a paragraph of the introduction.
\section{Method}
\subsection{Setup}
The energy is
\begin{equation}E = mc^2.\label{eq:energy}\end{equation}
By (\ref{eq:energy}) we conclude.
\appendix
\section{Proofs}
The proofs follow.
\end{document}
"""


@pytest.mark.anyio
async def test_a_renewed_thesection_numbers_the_sections_as_printed(fake, tmp_path):
    """`\\renewcommand{\\thesection}{\\Roman{section}}` in the preamble: LaTeX prints sections
    I, II, subsection II.1 and equation (II.1); the outline said 1, 2, 2.1 and (2.1), so the
    section and equation numbers a reader copies from the PDF ("Sec. II.1", "Eq. (II.1)")
    were errors. The appendix is lettered as LaTeX's \\appendix has it."""
    fake.add(paper("2403.01315", "Roman Sections", source=eprint({"main.tex": _ROMAN}), pdf=NO_PDF))
    async with Client(stdio_server(fake, tmp_path / "home")) as client:
        outline = await client.call_tool("read_paper", {"paper_id": "2403.01315", "section": "outline"})
        setup = await client.call_tool("read_paper", {"paper_id": "2403.01315", "section": "Sec. II.1"})
        equation = await client.call_tool("read_paper", {"paper_id": "2403.01315", "section": "Eq. (II.1)"})
    headings = [line.split("] ", 1)[1].strip() for line in said(outline).splitlines() if line.startswith("[s")]
    assert [h.split(" (")[0] for h in headings[1:]] == ["I Introduction", "II Method", "II.1 Setup", "A Proofs"]
    assert not setup.is_error and "The energy is" in said(setup), said(setup)
    assert not equation.is_error and "E = mc^2" in said(equation), said(equation)


_WITHIN_THEOREM = r"""\documentclass{article}
\newtheorem{theorem}{Theorem}[section]
\newtheorem{corollary}{Corollary}[theorem]
\begin{document}
\section{Results}
\begin{theorem}Every graph has a vertex.\end{theorem}
\begin{corollary}Every graph has a vertex of some degree.\end{corollary}
\begin{corollary}Every graph has a degree sequence.\end{corollary}
\begin{theorem}Every tree has a leaf.\end{theorem}
\begin{corollary}Every tree has two leaves.\end{corollary}
\end{document}
"""


@pytest.mark.anyio
async def test_a_kind_numbered_within_a_theorem_prints_its_number(fake, tmp_path):
    """`\\newtheorem{corollary}{Corollary}[theorem]`: LaTeX prints Corollary 1.1.1, 1.1.2, then
    1.2.1 under Theorem 1.2; the statements said Corollary 1, 2, 3, and "Corollary 1.2.1" was
    an error."""
    fake.add(paper("2403.01316", "Within", source=eprint({"main.tex": _WITHIN_THEOREM}), pdf=NO_PDF))
    async with Client(stdio_server(fake, tmp_path / "home")) as client:
        listed = await client.call_tool("read_paper", {"paper_id": "2403.01316", "section": "statements"})
        one = await client.call_tool("read_paper", {"paper_id": "2403.01316", "section": "Corollary 1.2.1"})
    heads = [line.split(" (")[0] for line in said(listed).splitlines()[4:]]
    assert heads == ["Theorem 1.1", "Corollary 1.1.1", "Corollary 1.1.2", "Theorem 1.2", "Corollary 1.2.1"], said(
        listed
    )
    assert not one.is_error and "two leaves" in said(one), said(one)
