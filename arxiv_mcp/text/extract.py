"""One entry point per full-text source, each returning a `Document` (its text in the shared
shape, and the typed blocks over it).

The parsers are imported lazily: start-up should not pay for pypdf or the HTML and
LaTeX converters before a paper is read. Bump EXTRACTOR_VERSION whenever any of them
changes its output; cached text made by an older version is then re-made from the
cached raw file, without a new request.
"""

from __future__ import annotations

from ..errors import ExtractionError
from .document import Document

EXTRACTOR_VERSION = 4


def from_html(raw: bytes) -> Document:
    from .html import html_to_text

    return Document.from_text(html_to_text(_decode(raw)))


def from_source(raw: bytes, deadline: float | None = None, engine: str = "auto") -> Document:
    """Any e-print kind: a (gzipped) tar or TeX file, the authors' HTML, or a (gzipped) PDF."""
    from .archive import read_source
    from .latex.convert import bundle_to_text

    bundle = read_source(raw)
    if bundle.kind == "pdf":
        (pdf,) = bundle.files.values()
        return from_pdf(pdf, deadline, engine)
    return Document.from_text(bundle_to_text(bundle))


def from_pdf(raw: bytes, deadline: float | None = None, engine: str = "auto") -> Document:
    from .pdf import pdf_to_text

    return Document.from_text(pdf_to_text(raw, deadline=deadline, engine=engine))


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def extract(method: str, raw: bytes, deadline: float | None = None, pdf_engine: str = "auto") -> Document:
    """The document in `raw` as fetched by `method` (html, ar5iv, source, pdf)."""
    if method in ("html", "ar5iv"):
        return from_html(raw)
    if method == "source":
        return from_source(raw, deadline, pdf_engine)
    if method == "pdf":
        return from_pdf(raw, deadline, pdf_engine)
    raise ExtractionError(f"unknown extraction method {method!r}")
