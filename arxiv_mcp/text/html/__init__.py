"""arXiv LaTeXML HTML and ar5iv pages -> a `Document`: the shared Markdown-ish text and its records.

The reading is a streaming pass (`parser`) over the page's bytes a piece at a time
(`stream`) and an explicit, depth-capped element stack, so hostile nesting cannot recurse
or grow memory without bound; the units it dispatches to say how each part of a page is
written (`sections`, `tables`, `lists`, `math`, `authors`, `pubnotes`, `floats`), and
`page` writes the blocks into the document.

Output (shared with the LaTeX and PDF extractors; `textview` pages it):
- `# Title` (the title alone: latexml-oxide's title pubnotes are notes); then the author
  block compactly: the names on one line, each followed by its affiliation marks (`Ada Lovelace$^{1}$, Alan Turing$^{1,2}$`), the affiliations once each
  (`$^{1}$Dept A; $^{2}$Dept B`), the e-mails once each, and the author and title notes
  (`\\thanks`, "Equal contribution") once each as `[^mark: text]`; oxide's publication
  metadata one line per named note (`Journal: JACM`, placeholders dropped); then `## Abstract`.
- Headings `##` section/appendix/chapter, `###` subsection, `####` subsubsection, `#####`
  paragraph-level titles, each with its number ("## 2 Related Work"); `## References` for the
  bibliography, one paragraph per entry with its label ("[12] ...").
- Paragraphs separated by one blank line, whitespace collapsed; a body line never starts
  with `#` (a leading `#` is written `\\#`).
- Math is the LaTeX of `alttext`: inline `$...$` (adjacent formulas as `$a$ $b$`, never
  `$a$$b$`); display math and equation tables become their own `$$...$$` paragraph,
  followed by the equation number ("(3)") when there is one. A literal dollar in the text
  is written `\\$`, so every unescaped `$` delimits math (code, and authored pages whose dollars
  may be their own TeX math, keep their dollars).
- Footnotes stay inline where they are cited, as ` [^N: text]`; a footnote in a heading is
  written as a paragraph right after that heading.
- Lists are `- item` / `1. item` lines (nested lists indented by two spaces), tables are
  `| a | b |` rows, captions ("Figure 1: ...") are paragraphs, links keep their text.
- Dropped: scripts, styles, site chrome (arXiv and ar5iv headers, footers, TOC, feedback
  UI, buttons), hidden elements, images, SVG, LaTeXML `ltx_ERROR` markers.

Records (document.py): each heading's printed number (its `ltx_tag`); each numbered figure
and table float (label, number, caption without its tag, images, subfigures, cells by row);
each numbered equation (its `alttext`); each bibliography entry (label, one line, id, arXiv
id and DOI); each citation as printed with the bibitem ids it links to.

Stub pages raise `ExtractionError`: ar5iv's fatal-conversion page, arXiv's "HTML is not
available" page, an abs page served instead of the paper, and any page whose body (outside
title, authors, abstract and references) is under 500 characters or which has neither a
section heading nor a bibliography. So do pages beyond any paper (over 8M characters of
text, 250,000 table cells, 100,000 notes, 200,000 paragraphs or citations, or 2.5M elements), before they cost the call's memory
and time.

Contract: input is one page's bytes (or text), read in bounded memory and depth whatever its
markup; output is a `Document` in the shared text shape with the records above, or
`ExtractionError` naming what the page is not.
"""

from __future__ import annotations

import logging

from ... import budget
from ...errors import ArxivMcpError, ExtractionError
from ..document import Document
from .page import TOO_BIG_FOR_DEADLINE
from .parser import PageParser
from .stream import pieces

__all__ = ["html_document", "html_to_text"]

logger = logging.getLogger(__name__)


def html_to_text(html: str, *, authored: bool = False) -> str:
    """Clean text of an arXiv HTML (LaTeXML) or ar5iv page; `ExtractionError` for stubs."""
    return html_document(html, authored=authored).text


def html_document(html: str | bytes, *, authored: bool = False) -> Document:
    """The document of an arXiv HTML (LaTeXML) or ar5iv page; `ExtractionError` for stubs.

    Bytes are read as UTF-8, or as Latin-1 when they are not UTF-8, a piece at a time.
    `authored` marks a page the authors wrote themselves (an HTML-only e-print): it has no
    LaTeXML document element, so its whole `<body>` is the paper."""
    raw = html if isinstance(html, bytes) else html.encode("utf-8", "surrogatepass")
    try:
        try:
            return _read(raw, "utf-8", authored)
        except UnicodeDecodeError:
            return _read(raw, "latin-1", authored)
    except ArxivMcpError:  # a stub page, a page beyond the bounds, or the deadline
        raise
    except Exception as exc:  # the stdlib parser's reactions to hostile markup vary by version
        logger.warning("HTML page could not be parsed", exc_info=True)
        raise ExtractionError(f"The HTML page could not be parsed ({type(exc).__name__}).") from exc


def _read(raw: bytes, encoding: str, authored: bool) -> Document:
    parser = PageParser(authored=authored)
    for piece in pieces(raw, encoding):  # fed in pieces, so the deadline is seen
        budget.check("Extracting the HTML page", TOO_BIG_FOR_DEADLINE)
        parser.feed(piece)
    parser.close()
    return parser.finish()
