"""Found black-box on a real author-year paper (1704.02281): `Audibert et al. 2009` named both
`Audibert and Bubeck, 2009` and `Audibert et al., 2009`, the wrong one first, because only the
comma was missing. A citation that is a printed label but for its punctuation names that entry."""

from __future__ import annotations

import pytest

from arxiv_mcp.text.document import Document
from arxiv_mcp.text.extract import extract
from arxiv_mcp.text.selectors import select

TEX = r"""\documentclass{article}\usepackage{natbib}\begin{document}
\section{Intro}
Bandits were studied by \citet{ab09} and \citet{aet09} in enough words to make a paper of this.
\begin{thebibliography}{2}
\bibitem[Audibert and Bubeck(2009)]{ab09} Jean-Yves Audibert and S\'ebastien Bubeck. Minimax policies. In COLT, 2009.
\bibitem[Audibert et~al.(2009)]{aet09} Jean-Yves Audibert, R\'emi Munos, and Csaba Szepesv\'ari. Exploration. TCS, 2009.
\end{thebibliography}
\end{document}
"""


def _doc() -> Document:
    return extract("source", TEX.encode())


@pytest.mark.parametrize("selector", ["Audibert et al. 2009", "Audibert et al 2009", "Audibert et al., 2009"])
def test_a_label_but_for_its_punctuation_names_that_entry(selector):
    chosen = select(_doc(), selector, lambda number: f"arxiv://paper/x/figure/{number}")
    assert [r.label for r in chosen.references] == ["Audibert et al., 2009"]


def test_a_first_author_and_year_still_names_every_entry_it_fits():
    chosen = select(_doc(), "Audibert 2009", lambda number: f"arxiv://paper/x/figure/{number}")
    assert [r.label for r in chosen.references] == ["Audibert and Bubeck, 2009", "Audibert et al., 2009"]
