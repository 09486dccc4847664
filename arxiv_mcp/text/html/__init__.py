"""arXiv LaTeXML HTML and ar5iv pages -> the shared Markdown-ish full-text format.

The reading is a streaming pass (`parser`) over an explicit, depth-capped element
stack, so hostile nesting cannot recurse or grow memory without bound; the units it
dispatches to say how each part of a page is written (`sections`, `tables`,
`lists`, `math`, `authors`).

Output (shared with the LaTeX and PDF extractors; `textview` pages it):
- `# Title`; then the author block compactly: the names on one line, each followed by its
  affiliation marks (`Ada Lovelace$^{1}$, Alan Turing$^{1,2}$`), the affiliations once each
  (`$^{1}$Dept A; $^{2}$Dept B`), the e-mails once each, and the author and title notes
  (`\\thanks`, "Equal contribution") once each as `[^mark: text]`; then `## Abstract`.
- Headings `##` section/appendix/chapter, `###` subsection, `####` subsubsection, `#####`
  paragraph-level titles, each with its number ("## 2 Related Work"); `## References` for the
  bibliography, one paragraph per entry with its label ("[12] ...").
- Paragraphs separated by one blank line, whitespace collapsed; a body line never starts
  with `#` (a leading `#` is written `\\#`).
- Math is the LaTeX of `alttext`: inline `$...$` (adjacent formulas as `$a$ $b$`, never
  `$a$$b$`); display math and equation tables become their own `$$...$$` paragraph,
  followed by the equation number ("(3)") when there is one.
- Footnotes stay inline where they are cited, as ` [^N: text]`; a footnote in a heading is
  written as a paragraph right after that heading.
- Lists are `- item` / `1. item` lines (nested lists indented by two spaces), tables are
  `| a | b |` rows, captions ("Figure 1: ...") are paragraphs, links keep their text.
- Dropped: scripts, styles, site chrome (arXiv and ar5iv headers, footers, TOC, feedback
  UI, buttons), hidden elements, images, SVG, LaTeXML `ltx_ERROR` markers.

Stub pages raise `ExtractionError`: ar5iv's fatal-conversion page, arXiv's "HTML is not
available" page, an abs page served instead of the paper, and any page whose body (outside
title, authors, abstract and references) is under 500 characters or which has neither a
section heading nor a bibliography.
"""

from __future__ import annotations

import logging

from ... import budget
from ...errors import ArxivMcpError, ExtractionError
from ..document import Document
from .parser import PageParser

__all__ = ["html_document", "html_to_text"]

logger = logging.getLogger(__name__)

_FEED_CHARS = 1 << 18
_TOO_BIG_FOR_DEADLINE = (
    "the page is too big to read in time: raise ARXIV_MCP_DEADLINE_S, or use download_paper for the PDF"
)


def html_to_text(html: str, *, authored: bool = False) -> str:
    """Clean text of an arXiv HTML (LaTeXML) or ar5iv page; `ExtractionError` for stubs."""
    return html_document(html, authored=authored).text


def html_document(html: str, *, authored: bool = False) -> Document:
    """The document of an arXiv HTML (LaTeXML) or ar5iv page; `ExtractionError` for stubs.

    `authored` marks a page the authors wrote themselves (an HTML-only e-print): it has no
    LaTeXML document element, so its whole `<body>` is the paper."""
    parser = PageParser(authored=authored)
    try:
        page = _defuse(html)
        for start in range(0, len(page), _FEED_CHARS):  # fed in pieces, so the deadline is seen
            budget.check("Extracting the HTML page", _TOO_BIG_FOR_DEADLINE)
            parser.feed(page[start : start + _FEED_CHARS])
        parser.close()
        return parser.finish()
    except ArxivMcpError:  # a stub page, or the deadline
        raise
    except Exception as exc:  # the stdlib parser's reactions to hostile markup vary by version
        logger.warning("HTML page could not be parsed", exc_info=True)
        raise ExtractionError(
            f"The HTML page could not be parsed ({type(exc).__name__}); "
            "read the paper from its LaTeX source or PDF instead."
        ) from exc


def _defuse(html: str) -> str:
    """Neutralise the constructs that make `HTMLParser` rescan to the end of input.

    Python's parser looks ahead for a construct's terminator and, when there is none,
    gives up one character at a time: an unterminated tag after the last `>`, or many
    `<!--` / `<![` openers, make it quadratic. Comments are removed in one forward scan,
    `<![` sections are made text, and any `<` after the last `>` is escaped.
    """
    if "<!--" in html:
        pieces: list[str] = []
        position = 0
        while True:
            opening = html.find("<!--", position)
            if opening < 0:
                pieces.append(html[position:])
                break
            pieces.append(html[position:opening])
            closing = html.find("-->", opening + 4)
            if closing < 0:
                break  # an unterminated comment runs to the end of the document
            position = closing + 3
        html = "".join(pieces)
    html = html.replace("<![", "&lt;![")
    last_gt = html.rfind(">")
    if html.find("<", last_gt + 1) >= 0:
        html = html[: last_gt + 1] + html[last_gt + 1 :].replace("<", "&lt;")
    return html
