"""One entry point per full-text source, each returning a `Document` (its text in the shared
shape, and the typed blocks over it).

The parsers are imported lazily: start-up should not pay for pypdf or the HTML and
LaTeX converters before a paper is read. Bump EXTRACTOR_VERSION whenever any of them
changes its output; cached text made by an older version is then re-made from the
cached raw file, without a new request.
"""

from __future__ import annotations

import logging
import posixpath
import re
from dataclasses import replace
from enum import StrEnum

from ..errors import ArxivMcpError, ExtractionError
from .document import Document

EXTRACTOR_VERSION = 18

log = logging.getLogger(__name__)


class TextSource(StrEnum):
    """Where a paper's text comes from: one name everywhere (the reader's order, the cache's
    raw files, the `method` a read reports). A StrEnum, so the stored and reported strings
    stay the plain names."""

    HTML = "html"
    """arXiv's own HTML rendering."""
    AR5IV = "ar5iv"
    """ar5iv's rendering (one per paper, for versions before arXiv's HTML)."""
    SOURCE = "source"
    """The e-print: LaTeX sources, or the authors' HTML or PDF."""
    PDF = "pdf"

    # What the reader needs to know of each source, said here rather than tested by name there.
    @property
    def per_paper(self) -> bool:
        """It renders one version per paper (ar5iv), so what it lacks it lacks for every version."""
        return self is TextSource.AR5IV

    @property
    def rendered_page(self) -> bool:
        """An HTML page a site rendered (arXiv's or ar5iv's): a stub or broken page is worth
        asking for again later, as the site may render it meanwhile."""
        return self in (TextSource.HTML, TextSource.AR5IV)

    @property
    def follows_redirects(self) -> bool:
        """ar5iv answers a paper it did not render with a redirect to arXiv's abs page: there a
        redirect is a miss, not the page."""
        return self is not TextSource.AR5IV

    @property
    def html_era_only(self) -> bool:
        """arXiv made its own HTML only for versions from its HTML era (December 2023) on."""
        return self is TextSource.HTML


def from_html(raw: bytes) -> Document:
    from .anchors import html_anchors
    from .html import html_document

    return replace(html_document(raw), anchors=html_anchors(raw))


def from_source(raw: bytes, deadline: float | None = None, engine: str = "auto") -> Document:
    """Any e-print kind: a (gzipped) tar or TeX file, the authors' HTML, or a (gzipped) PDF."""
    from .archive import read_member, read_source
    from .latex.convert import bundle_to_document

    bundle = read_source(raw)
    if bundle.kind == "pdf":
        (pdf,) = bundle.files.values()
        return from_pdf(pdf, deadline, engine)
    if bundle.kind == "html":  # the authors' own HTML page (its figures are other members)
        from .anchors import html_anchors
        from .html import html_document

        (page,) = bundle.files.values()
        return replace(html_document(page, authored=True), anchors=html_anchors(page))
    wrapped = _included_pdf(bundle.files, bundle.members)
    if wrapped is not None:
        included = read_member(raw, wrapped)
        if included is not None:
            return from_pdf(included, deadline, engine)
    from .anchors import tex_anchors

    return replace(bundle_to_document(bundle), anchors=tex_anchors(bundle.files))


_INCLUDEPDF_RE = re.compile(r"^[^%\n]*\\includepdf(?![A-Za-z])\s*(?:\[[^\]]{0,300}\])?\s*\{([^{}\n]{1,300})\}", re.M)
_TEXT_RE = re.compile(r"^[^%\n]*\\(?:section|chapter|begin\{abstract\})(?![A-Za-z])", re.M)


def _included_pdf(files: dict[str, bytes], members: tuple[str, ...]) -> str | None:
    """The member a pdfpages wrapper includes (`\\includepdf[pages=-]{paper.pdf}`) when the
    e-print's LaTeX is such a wrapper: it includes a PDF of its own and has no section or
    abstract, so the paper's text is in that PDF."""
    tex = [body.decode("latin-1") for name, body in files.items() if name.lower().endswith(".tex")]
    if any(_TEXT_RE.search(body) for body in tex):
        return None
    for body in tex:
        for m in _INCLUDEPDF_RE.finditer(body):
            name = posixpath.normpath(m.group(1).strip().lstrip("./"))
            for candidate in (name, name + ".pdf"):
                if candidate in members and candidate.lower().endswith(".pdf"):
                    return candidate
    return None


def from_pdf(raw: bytes, deadline: float | None = None, engine: str = "auto") -> Document:
    from .pdf import pdf_to_document

    return pdf_to_document(raw, deadline=deadline, engine=engine)


def extract(source: str, raw: bytes, deadline: float | None = None, pdf_engine: str = "auto") -> Document:
    """The document in `raw` as fetched from `source` (a `TextSource` or its name), its
    theorem-like blocks and inline footnotes typed (`statements.typed`: one pass for every source).

    Any failure of a converter on this paper's data (a hostile `\\num{...}` of 100,000 digits,
    a recursion, memory) is an ExtractionError, so the reader tries the next source as it does
    for a damaged file; the deadline and a cancellation (ArxivMcpError) pass through unchanged."""
    try:
        kind = TextSource(source)
    except ValueError:
        raise ExtractionError(f"unknown text source {source!r}") from None
    try:
        from .statements import typed

        return typed(_extract(kind, raw, deadline, pdf_engine))
    except ArxivMcpError:
        raise
    except Exception as exc:
        log.warning("the %s converter failed on this paper", kind, exc_info=True)
        raise ExtractionError(f"The {kind} could not be converted ({type(exc).__name__})") from exc


def _extract(kind: TextSource, raw: bytes, deadline: float | None, pdf_engine: str) -> Document:
    if kind in (TextSource.HTML, TextSource.AR5IV):
        return from_html(raw)
    if kind is TextSource.SOURCE:
        return from_source(raw, deadline, pdf_engine)
    return from_pdf(raw, deadline, pdf_engine)
