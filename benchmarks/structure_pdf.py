"""PDF structure on the developer corpus: captions and reference entries found, against the truth.

    python benchmarks/structure_pdf.py [--engine pypdf|pdfium|both] [--shared DIR]

For each PDF compiled here from a known e-print (`real/compiled_pdf_MADE_HERE/X.pdf` from
`real/src/X`), the truth is read from the LaTeX source: a caption is a `\\caption` of a
figure or table float outside its subfigures (`subfigure` environments, `\\subfloat`,
`\\subcaptionbox`), an entry a `\\bibitem` (or biblatex `\\entry`) of the `.bbl` (else of the
`.tex`). Found: the distinct (figure or table, number) pairs and the reference entries of
`pdf_to_document`. Real arXiv PDFs (`real/pdf/`, `pdf/`, no source at hand): the truth of
their captions is the labels with a number that poppler's `pdftotext` prints at a line's
start followed by `:`, `|` or a stop and a capital (`Figure 3: ...`, `FIG. 2. The ...`), as
distinct (figure or table, number) pairs, and of their entries the last of the labels
`[1]`, `[2]`, ... pdftotext prints at line starts (none for another style), when pdftotext
is installed. Columns: figures+tables found/true (share: of the true ones, those found),
entries found/true (off by), equations found, entries with an arXiv id or a DOI, citations
marked, headings with a printed number, footnotes.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.append(str(REPO_ROOT))

from arxiv_mcp.text import labels  # noqa: E402
from arxiv_mcp.text.document import Equation, Figure, Footnote, Heading, Reference, Table  # noqa: E402
from arxiv_mcp.text.pdf import pdf_to_document  # noqa: E402

_FLOAT = re.compile(
    r"\\begin\{(figure|table|wrapfigure|wraptable|sidewaysfigure|sidewaystable)\*?\}(.*?)\\end\{\1\*?\}", re.S
)
_SUB = re.compile(
    r"\\begin\{subfigure\}.*?\\end\{subfigure\}|\\begin\{subtable\}.*?\\end\{subtable\}|\\sub(?:float|captionbox)\b",
    re.S,
)
_COMMENT = re.compile(r"(?<!\\)%[^\n]*")


def _shared(given: str | None) -> Path:
    for candidate in (given, os.environ.get("ARXIV_MCP_SHARED"), REPO_ROOT.parent / "shared", "/work/shared"):
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    raise SystemExit("no shared/ directory: give --shared")


def _members(path: Path) -> dict[str, str]:
    with tarfile.open(fileobj=io.BytesIO(path.read_bytes())) as archive:
        return {
            member.name: archive.extractfile(member).read().decode("utf-8", "replace")  # type: ignore[union-attr]
            for member in archive.getmembers()
            if member.isfile() and member.name.endswith((".tex", ".bbl"))
        }


def truth(source: Path) -> tuple[int, int]:
    """(figure and table captions, bibliography entries) the e-print's LaTeX prints."""
    files = {name: _COMMENT.sub("", text) for name, text in _members(source).items()}
    tex = "\n".join(text for name, text in files.items() if name.endswith(".tex"))
    captions = sum(len(re.findall(r"\\(?:top)?caption\s*[\[{]", _SUB.sub("", body))) for _, body in _FLOAT.findall(tex))
    bbl = "\n".join(text for name, text in files.items() if name.endswith(".bbl")) or tex
    entries = len(re.findall(r"^\s*\\(?:bibitem|entry\{)", bbl, re.M))
    return captions, entries


_PRINTED_CAPTION = re.compile(rf"^\s*{labels.PRINTED_LABEL}\s*(?:[:|]|\.\s+[A-Z(])", re.M)


_BRACKETED_ENTRY = re.compile(r"^\s*\[(\d{1,4})\]", re.M)


def printed(pdf: Path) -> tuple[set[tuple[str, str]], int] | None:
    """What pdftotext prints of the PDF (None without it): the (figure or table, number) pairs
    of its captions, and its bracketed bibliography's last label ([1], [2], ... [N] at line
    starts, counted on while each follows the one before; 0 for another style)."""
    if shutil.which("pdftotext") is None:
        return None
    run = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, check=False)
    text = run.stdout.decode("utf-8", "replace")
    captions = {(_kind(m["name"]), m["number"]) for m in _PRINTED_CAPTION.finditer(text)}
    last = 0
    for match in _BRACKETED_ENTRY.finditer(text):
        number = int(match[1])
        last = number if number == last + 1 else 1 if number == 1 else last
    return captions, last if last >= 5 else 0


def _kind(name: str) -> str:
    return "table" if name.lower().startswith("tab") else "figure"


def _row(
    name: str, engine: str, pdf: Path, true: tuple[int, int] | None, seen: tuple[set[tuple[str, str]], int] | None
) -> str:
    document = pdf_to_document(pdf.read_bytes(), engine=engine)
    floats = {("figure", f.number) for f in document.records(Figure)} | {
        ("table", t.number) for t in document.records(Table)
    }
    if true is None and seen is not None:
        true = (len(seen[0]), seen[1])
        floats &= seen[0]
    references = document.records(Reference)
    with_id = sum(1 for r in references if r.arxiv_id or r.doi)
    numbered = sum(1 for h in document.records(Heading) if h.number)
    if true:
        share = f"{min(len(floats), true[0]) / true[0]:.2f}" if true[0] else "  - "
        off = f"{(len(references) - true[1]) / true[1]:+.0%}" if true[1] else "  - "
        entries = f"{len(references):4}/{true[1]:<4}" if true[1] else f"{len(references):4}/-   "
        found = f"{len(floats):3}/{true[0]:<3} {share:>5} {entries} {off:>5}"
    else:
        found = f"{len(floats):3}/-   {'':>5} {len(references):4}/-    {'':>5}"
    return (
        f"{engine:6} {name[:30]:30} {found} {len(document.records(Equation)):4} {with_id:5} "
        f"{len(document.citations):5} {numbered:5} {len(document.records(Footnote)):5}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engine", choices=("pypdf", "pdfium", "both"), default="both")
    parser.add_argument("--shared", help="the shared/ directory")
    args = parser.parse_args()
    real = _shared(args.shared) / "fixtures" / "arxiv" / "real"
    engines = ("pypdf", "pdfium") if args.engine == "both" else (args.engine,)
    print(
        f"{'engine':6} {'file':30} {'floats':>7} {'share':>5} {'entries':>9} {'off':>5}   eqs   ids cites  nums notes"
    )
    for engine in engines:
        for pdf in sorted((real / "compiled_pdf_MADE_HERE").glob("*.pdf")):
            source = next(iter(sorted((real / "src").glob(pdf.stem + ".tar*"))), None)
            true = truth(source) if source else None
            print(_row(pdf.name, engine, pdf, true, None))
        for pdf in sorted([*(real / "pdf").glob("*.pdf"), *(real.parent / "pdf").glob("*.pdf")]):
            print(_row(pdf.name, engine, pdf, None, printed(pdf)))


if __name__ == "__main__":
    main()
