"""Every item of every readable file of the shared corpus asked for by its own selector (issue 32).

    python benchmarks/selector_sweep.py [--shared DIR] [--engine auto|pypdf|pdfium]

For each HTML page, e-print and PDF of `<shared>/fixtures/arxiv/` that reads, every printed
section number, `Figure N`, `Table N`, `Eq. (N)` and bibliography label (`[12]`, or the label
as printed) its document lists is asked of that document: the answer must be that item (a
wrong item or an error is counted and listed). Then the kinds the document does not type yet
(`Theorem 1`, `Lemma 2.1`, `Definition 3`, `Algorithm 1`, `footnote 1`) must each be an
error: an answer is a silent wrong answer. The in-test sweep against truth written from the
sources is `tests/test_selector_forms.py`; this one runs on the larger corpus `tests/` cannot
carry.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.append(str(REPO_ROOT))

from arxiv_mcp.errors import ExtractionError, InvalidInput  # noqa: E402
from arxiv_mcp.text.document import Document, Equation, Figure, Heading, Reference, Table  # noqa: E402
from arxiv_mcp.text.extract import extract  # noqa: E402
from arxiv_mcp.text.selection import Selection  # noqa: E402
from arxiv_mcp.text.selectors import select  # noqa: E402
from benchmarks.text_quality import shared_dir  # noqa: E402

UNTYPED = ("Theorem 1", "Lemma 2.1", "Definition 3", "Algorithm 1", "footnote 1")
Check = Callable[[Selection], bool]


def files(fixtures: Path) -> Iterator[tuple[str, Path]]:
    for page in sorted(fixtures.glob("html/**/*.html")) + sorted(fixtures.glob("ar5iv/*.html")):
        yield "html", page
    for folder in ("real/src", "src"):
        yield from (("source", p) for p in sorted((fixtures / folder).iterdir()) if "edgecase" not in p.name)
    yield from (("pdf", p) for p in sorted(fixtures.glob("**/*.pdf")))


def own_selectors(doc: Document) -> Iterator[tuple[str, Check]]:
    """Each item's selector, and how to tell its answer is that item."""
    for heading in doc.records(Heading):
        if heading.number:
            yield heading.number, lambda s, h=heading: s.label.split(" ", 1)[-1] == h.title
    for figure in doc.records(Figure):
        yield f"Figure {figure.number}", lambda s, n=figure.number: [f.number for f in s.figures] == [n]
    for table in doc.records(Table):
        yield f"Table {table.number}", lambda s, n=table.number: [t.number for t in s.tables] == [n]
    for equation in doc.records(Equation):
        yield f"Eq. ({equation.number})", lambda s, n=equation.number: [e.number for e in s.equations] == [n]
    for reference in doc.records(Reference):
        label = reference.label.strip()
        selector = f"[{label}]" if label.isdigit() else label
        yield selector, lambda s, r=reference: any(item.label == r.label for item in s.references)


def sweep(doc: Document) -> tuple[int, list[str]]:
    asked, wrong = 0, []
    for selector, is_it in own_selectors(doc):
        asked += 1
        try:
            answer = select(doc, selector, lambda number: number)
        except InvalidInput as error:
            wrong.append(f"{selector!r}: error {str(error)[:100]}")
            continue
        if not is_it(answer):
            wrong.append(f"{selector!r}: gave {answer.label[:80]!r}")
    for selector in UNTYPED:
        asked += 1
        try:
            answer = select(doc, selector, lambda number: number)
        except InvalidInput:
            continue
        wrong.append(f"{selector!r}: gave {answer.label[:80]!r} (the document types no such item)")
    return asked, wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", default=None)
    parser.add_argument("--engine", default="auto", choices=("auto", "pypdf", "pdfium"))
    args = parser.parse_args(argv)
    fixtures = shared_dir(args.shared) / "fixtures" / "arxiv"
    total, papers, failures = 0, 0, []
    for kind, path in files(fixtures):
        try:
            doc = extract(kind, path.read_bytes(), pdf_engine=args.engine)
        except ExtractionError:
            continue
        asked, wrong = sweep(doc)
        total, papers = total + asked, papers + 1
        failures += [f"{path.name} {line}" for line in wrong]
    print(f"{papers} documents, {total} selectors asked, {len(failures)} not answered with their own item")
    for line in failures:
        print("  " + line)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
