"""One entry point per full-text source, each returning a `Document` (its text in the shared
shape, and the typed blocks over it).

The parsers are imported lazily: start-up should not pay for pypdf or the HTML and
LaTeX converters before a paper is read. Bump EXTRACTOR_VERSION whenever any of them
changes its output; cached text made by an older version is then re-made from the
cached raw file, without a new request.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import replace
from enum import StrEnum

from ..errors import ExtractionError
from .document import Document

EXTRACTOR_VERSION = 7


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
    """The document in `raw` as fetched from `source` (a `TextSource` or its name)."""
    try:
        kind = TextSource(source)
    except ValueError:
        raise ExtractionError(f"unknown text source {source!r}") from None
    if kind in (TextSource.HTML, TextSource.AR5IV):
        return from_html(raw)
    if kind is TextSource.SOURCE:
        return from_source(raw, deadline, pdf_engine)
    return from_pdf(raw, deadline, pdf_engine)
