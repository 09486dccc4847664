"""One entry point per full-text source, each returning the shared Markdown-ish text.

The parsers are imported lazily: start-up should not pay for pypdf or the HTML and
LaTeX converters before a paper is read. Bump EXTRACTOR_VERSION whenever any of them
changes its output; cached text made by an older version is then re-made from the
cached raw file, without a new request.
"""

from __future__ import annotations

from ..errors import ExtractionError

EXTRACTOR_VERSION = 2


def from_html(raw: bytes) -> str:
    from .html import html_to_text

    return html_to_text(_decode(raw))


def from_source(raw: bytes) -> str:
    from .latex.convert import source_to_text

    return source_to_text(raw)


def from_pdf(raw: bytes, deadline: float | None = None, engine: str = "auto") -> str:
    from .pdf import pdf_to_text

    return pdf_to_text(raw, deadline=deadline, engine=engine)


def looks_like_pdf(raw: bytes) -> bool:
    return raw[:1024].lstrip().startswith(b"%PDF-")


def check_pdf(raw: bytes) -> None:
    """Raise ExtractionError unless `raw` is a whole PDF (its page tree can be read), so a
    cut or garbled download is never kept."""
    import io
    import logging

    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    if not looks_like_pdf(raw):
        raise ExtractionError("the answer is not a PDF")
    pypdf_log = logging.getLogger("pypdf")
    level = pypdf_log.level
    pypdf_log.setLevel(logging.ERROR)  # broken-xref warnings are normal for arXiv's PDF-only papers
    try:
        if len(PdfReader(io.BytesIO(raw)).pages) < 1:
            raise ExtractionError("the PDF has no pages")
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError) as exc:
        raise ExtractionError(f"the PDF is damaged or incomplete ({type(exc).__name__})") from None
    finally:
        pypdf_log.setLevel(level)


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def extract(method: str, raw: bytes, deadline: float | None = None, pdf_engine: str = "auto") -> str:
    """Text of `raw` as fetched by `method` (html, ar5iv, source, pdf)."""
    if method in ("html", "ar5iv"):
        return from_html(raw)
    if method == "source":
        if looks_like_pdf(raw):
            return from_pdf(raw, deadline, pdf_engine)
        return from_source(raw)
    if method == "pdf":
        return from_pdf(raw, deadline, pdf_engine)
    raise ExtractionError(f"unknown extraction method {method!r}")
