"""LaTeX source -> a Document whose text is the shared extractor format: the entry points.

Format (shared with the HTML and PDF extractors): first line `# <title>`, then the authors,
`## Abstract`, numbered `##`/`###`/`####` headings, paragraphs separated by one blank line,
math kept as `$...$` / `$$...$$`, and no body line starting with `#`; the Document's blocks mark
the headings' printed numbers, figures, tables, numbered equations and bibliography entries.

The stages: `source` assembles the main file, `tokens` reads the source once, recording the
paper's definitions (`definitions`, `macros.Macros`), expanding its macros (`macros`) and
making listings' caption options floats (`listings`) where it meets them, and the converter
(`engine.Walk` with the handlers of `handlers.HANDLERS`) walks the tokens once;
`document.render` writes the result through the DocumentBuilder. Paper source is untrusted
data, so nothing is ever executed.
"""

from __future__ import annotations

import re

from ...errors import ExtractionError
from ..archive import SourceBundle, read_source
from ..document import Document
from . import pace
from .babel import Shorthands, languages
from .crossrefs import bounded_bibliographies, starred_citations
from .definitions import builtin_theorems, defined_float_names, doi_prefix, wrappers
from .document import Meta, render
from .engine import Walk
from .graphics import files_by_folder
from .handlers import HANDLERS, KNOWN_ENVIRONMENTS, PROTECTED
from .macros import Macros
from .references import Labels
from .source import (
    Assembler,
    Load,
    citation_style,
    decode,
    float_names,
    split_document,
)
from .specs import CLASS_AUTHORS
from .tokens import tokenize


def source_to_text(data: bytes) -> str:
    """An e-print's bytes -> text; a PDF-only source raises so the caller uses the PDF path."""
    return bundle_to_document(read_source(data)).text


def bundle_to_document(bundle: SourceBundle) -> Document:
    """The document of an e-print's usable files: LaTeX, or the authors' own HTML page."""
    if bundle.kind == "pdf":
        raise ExtractionError("This paper's source is a PDF (a PDF-only submission), not LaTeX.")
    if bundle.kind == "html":
        return Document.from_text(_html_source_to_text(bundle.files))
    return latex_to_document(bundle.files, members=bundle.members)


_NEWTHEOREM_RE = re.compile(
    r"\\newtheorem\*?[ \t]*\{[^{}\n]{1,60}\}(?:[ \t]*\[[^\]\n]{0,60}\])?[ \t]*\{[^{}\n]{1,60}\}(?:[ \t]*\[[^\]\n]{0,60}\])?"
)


def latex_to_text(files: dict[str, bytes], *, max_chars: int = 20_000_000) -> str:
    """Convert the files of a LaTeX source (name -> bytes) to clean text with headings."""
    return latex_to_document(files, max_chars=max_chars).text


def latex_to_document(
    files: dict[str, bytes], *, max_chars: int = 20_000_000, members: tuple[str, ...] = ()
) -> Document:
    """The files of a LaTeX source (name -> bytes) as a Document: the text with headings, and
    its figures, tables, numbered equations, bibliography entries and citations; `members`
    names every file of the e-print (figures too), which images resolve to."""
    # The passes over raw text before the tokenizer, each for a reason of its own:
    assembler = Assembler(files, max_chars)
    main = assembler.find_main()  # which file is the paper is decided before any is read
    source = assembler.assemble(main)  # TeX drops comments, \iffalse, splices \input first
    pace.check()
    preamble, body = split_document(source)
    packages, loads = assembler.packages(preamble)  # a shipped package's text is not tokenized
    babel = languages(loads)
    macros = Macros(PROTECTED, KNOWN_ENVIRONMENTS)
    macros.read_package(packages)  # the paper's own definitions are recorded where the tokenizer reads them
    pace.check()

    meta = _document_meta(loads, preamble + "\n" + packages)  # \setcitestyle: packages' too
    meta.files = files_by_folder([*files, *members], main, preamble)
    meta.units = macros.units
    # the tokenizer records the paper's definitions and expands its macros where it reads them
    babel_shorthands = Shorthands(babel)  # the tokenizer reads them as TeX reads active characters
    shorthands = babel_shorthands if babel_shorthands.active else None  # none: text read as it is
    preamble_tokens = tokenize(preamble, macros, shorthands)
    pace.check()
    body_tokens = bounded_bibliographies(tokenize(body, macros, shorthands))
    meta.float_names = float_names(
        defined_float_names(macros.shipped), defined_float_names(macros.written), babel, meta.document_class
    )
    meta.doi_prefix = doi_prefix(macros.shipped + macros.written)
    # the walks read the theorem kinds where they stand: a .sty's \newtheorem before the preamble's
    theorems, meta.wrappers = builtin_theorems(), wrappers(macros.all_environments)
    shipped_theorems = tokenize("\n".join(_NEWTHEOREM_RE.findall(packages)))
    for tokens in (shipped_theorems, preamble_tokens):
        Walk(tokens, meta, theorems, HANDLERS, preamble=True).run()
    converter = Walk(body_tokens, meta, theorems, HANDLERS, preamble=False)
    if meta.labels.merge:
        meta.labels.starred = starred_citations(converter)
    converter.run()
    if not meta.authors and meta.document_class in CLASS_AUTHORS:
        meta.authors.append(CLASS_AUTHORS[meta.document_class])
    document = render(meta, converter.front.blocks, converter.body.blocks)
    if not document.text.strip():
        raise ExtractionError(f"The LaTeX source ({main}) produced no text.")
    return document


def _document_class(loads: list[Load]) -> tuple[str, str]:
    """The class and whose section numbers it prints: REVTeX's (IV.A) or IEEEtran's (IV-A; its
    compsoc mode numbers like article), else LaTeX's own ("")."""
    name, options = next(
        ((name, options) for command, options, name in loads if command.startswith("document")), ("", "")
    )
    if name.startswith("revtex"):
        return name, "revtex"
    return name, "ieee" if name == "IEEEtran" and "compsoc" not in options else ""


def _document_meta(loads: list[Load], text: str) -> Meta:
    """The document-wide settings the preamble, the class and the packages it loads decide."""
    document_class, numbering = _document_class(loads)
    return Meta(
        # a shipped package may load the bibliography package (ATLAS's atlaspackage loads
        # biblatex with style=numeric-comp); the paper's own preamble is read first
        labels=Labels(*citation_style(loads, text)),
        document_class=document_class,
        numbering=numbering,
    )


def _html_source_to_text(files: dict[str, bytes]) -> str:
    from ..html import html_to_text

    (page,) = files.values()
    return html_to_text(decode(page), authored=True)
