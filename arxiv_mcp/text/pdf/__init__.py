"""PDF bytes -> the shared text shape, one `## Page N` block per page.

`engine` chooses pypdf or pypdfium2 per page and writes the pages; `work` measures a page's
drawing work before pdfium is asked to run it (one uninterruptible call); `watch` carries the
call's deadline into the work between page checks (opening, measuring, rebuilding a file);
`pypdf_compat` is the one place that reaches into pypdf's internals (by version, else its
public API), `pdfium_compat` asks pdfium about characters through pypdfium2's public
binding; `lines` is the record both engines give of a page's lines (text, its first
letter's size and weight), and `params` the one record of every threshold of these passes;
`glyphs` and `fonts` read what pdfium knows of each character (accents, scripts,
fixed-pitch runs, font size and weight); `layout` finds headings and removes page
furniture; `chain` keeps the printed numbers that follow one another (headings, equations);
`reading_order` moves the footnotes and floats that interrupt a paragraph after it, told
from where the lines stand; `sentences` tells where a line ends its sentence; `structure`
marks what the text prints (captions, equations, references, citations, footnotes) as a
Document, a table's rows in columns from where `tables` finds their cells placed.

Contract: input is the PDF's bytes; output is a `Document` in the shared text shape, one
`## Page N` block per page, a page that cannot be read marked with `FAILED_PAGE_NOTE` instead
of failing the file, and the call's deadline checked between pages; `ExtractionError` when the
file as a whole cannot be read (not a PDF, encrypted, too many pages, out of time).
"""

from .engine import FAILED_PAGE_NOTE, pdf_to_document, pdf_to_text

__all__ = ["FAILED_PAGE_NOTE", "pdf_to_document", "pdf_to_text"]
