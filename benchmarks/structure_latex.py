"""Structure the LaTeX converter finds in real e-prints, against what the sources and PDFs state.

    python benchmarks/structure_latex.py [--shared DIR] [--only SUBSTRING] [--truth [--gathered DIR]]

For each e-print of `<shared>/fixtures/arxiv/{real/src,src}/` (<shared> as in text_quality.py):
- `fig`/`tab`: figures and tables listed, then `/` the captions the compiled PDF prints
  (`Figure N`, `Fig. N`, `Table N`, `TABLE II` at a line start, each number once; read with
  pypdfium2 from `real/compiled_pdf_MADE_HERE/`, `-` when there is none) and `/` the `\\caption`s
  of the source's figure and table environments (a regex count, subcaptions not counted);
- `eq`: numbered equations listed; `ref`: bibliography entries listed `/` the .bbl's entries
  (`\\bibitem` or biber's `\\entry`; a .tex's thebibliography without one); `ids`: entries whose arXiv id was found `/` .bbl entries
  that state one (an `eprint` field, an arXiv URL or `arXiv:` text, read by `bibids`);
- `,,`: empty items in the author line; `tex/kw`: control words left in the text outside math,
  per 1000 words (the goal is <= 1).

With `--truth`, each e-print of `structure_latex_truth.json` (the printed labels, written from
a PDF's text or, where no PDF is at hand, read from the source; see its `about`; the e-prints
not in ../shared are gathered first: `python benchmarks/gather_corpus.py DIR --set latex-truth`
and `--set unseen-source`, then `--gathered DIR`) is scored instead: figures, tables and numbered
equations listed with the number LaTeX prints (a float also with its caption's first words),
`right/printed` per kind, `+N` for items listed that the paper does not print, and the share of
e-prints where every one is right and nothing is extra.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.append(str(REPO_ROOT))

from benchmarks.text_quality import shared_dir  # noqa: E402

if TYPE_CHECKING:
    from arxiv_mcp.text.document import Document

_PDF_CAPTION_RE = re.compile(r"^\s*(Figure|Fig\.|FIG\.|Table|TABLE)\s+([0-9]+|[IVX]+)\s*[:.|]", re.M)
_FLOAT_ENV_RE = re.compile(r"\\begin\{(figure|table)\*?\}(.*?)\\end\{\1\*?\}", re.S)
_CAPTION_RE = re.compile(r"\\caption(?![A-Za-z])")
_BBL_ENTRY_RE = re.compile(r"\\bibitem(?![A-Za-z])|\\entry\{")
_MATH_RE = re.compile(r"\$\$.*?\$\$|\$[^$\n]*\$", re.S)
_COMMAND_RE = re.compile(r"\\[A-Za-z]{2,}")
_WORD_RE = re.compile(r"[^\W\d_]{2,}")
_CAPTION_WORD_RE = re.compile(r"(?<![^\W\d_])[A-Za-z][a-z]{3,}(?![^\W\d_])")  # prose, not `MBC`, `mtHb`
TRUTH = Path(__file__).resolve().parent / "structure_latex_truth.json"
CAPTION_WORDS = 3  # the caption's first prose words, in order: PDF text and LaTeX spell math differently


def pdf_captions(pdf: Path) -> tuple[int, int] | None:
    try:
        import pypdfium2 as pdfium
    except ImportError:
        return None
    document = pdfium.PdfDocument(str(pdf))
    text = "\n".join(document[k].get_textpage().get_text_range() for k in range(len(document)))
    found = {(m.group(1)[0].upper(), m.group(2)) for m in _PDF_CAPTION_RE.finditer(text)}
    return sum(1 for kind, _ in found if kind == "F"), sum(1 for kind, _ in found if kind == "T")


def source_facts(data: bytes) -> dict[str, int]:
    """Counts read from the e-print's own files with plain regexes (a check independent of the converter)."""
    from arxiv_mcp.text.archive import read_source
    from arxiv_mcp.text.bibids import arxiv_id_in

    files = read_source(data).files
    tex = "\n".join(
        re.sub(r"(?<!\\)%[^\n]*", "", body.decode("utf-8", "replace"))
        for name, body in files.items()
        if name.endswith(".tex")
    )
    captions = {"figure": 0, "table": 0}
    for m in _FLOAT_ENV_RE.finditer(tex):
        body = re.sub(r"\\begin\{sub(figure|table)\}.*?\\end\{sub\1\}", "", m.group(2), flags=re.S)
        captions[m.group(1)] += len(_CAPTION_RE.findall(body))
    entries = stating = 0
    bbls = [name for name in files if name.endswith(".bbl")]
    for name in bbls or [name for name in files if name.endswith(".tex")]:  # else thebibliography in the .tex
        text = re.sub(r"(?<!\\)%[^\n]*", "", files[name].decode("utf-8", "replace"))
        if not bbls:
            text = text[text.find("\\begin{thebibliography}") :] if "\\begin{thebibliography}" in text else ""
        pieces = _BBL_ENTRY_RE.split(text)[1:]
        pieces = [piece for piece in pieces if not piece.lstrip().startswith(("[0]", "{\\"))]  # definitions
        entries += len(pieces)
        stating += sum(1 for piece in pieces if arxiv_id_in(piece) or re.search(r"\\field\{eprint\}", piece))
    return {"fig": captions["figure"], "tab": captions["table"], "bbl": entries, "stating": stating}


def row(path: Path, compiled: Path) -> str:
    from arxiv_mcp.text.document import Equation, Figure, Reference, Table
    from arxiv_mcp.text.extract import from_source

    data = path.read_bytes()
    try:
        document = from_source(data)
    except Exception as exc:  # noqa: BLE001 - a benchmark row says what failed
        return f"{path.name:45} {type(exc).__name__}"
    facts = source_facts(data)
    pdf = pdf_captions(compiled) if compiled.exists() else None
    references = document.records(Reference)
    figures, tables = len(document.records(Figure)), len(document.records(Table))
    prose = _MATH_RE.sub(" ", document.text)
    words = max(1, len(_WORD_RE.findall(prose)))
    authors = document.text.split("\n\n")[1] if document.text.count("\n\n") > 1 else ""
    return (
        f"{path.name:45} {figures:3}/{pdf[0] if pdf else '-':>3}/{facts['fig']:3} "
        f"{tables:3}/{pdf[1] if pdf else '-':>3}/{facts['tab']:3} {len(document.records(Equation)):4} "
        f"{len(references):4}/{facts['bbl']:4} {sum(1 for r in references if r.arxiv_id):4}/{facts['stating']:4} "
        f"{authors.count(',,') + authors.count(', ,'):3} {1000 * len(_COMMAND_RE.findall(prose)) / words:6.2f}"
    )


def caption_words(caption: str) -> list[str]:
    return [word.lower() for word in _CAPTION_WORD_RE.findall(re.sub(r"\$[^$]*\$|\\[A-Za-z]+", " ", caption))]


def in_order(words: list[str], caption: list[str]) -> bool:
    found = iter(caption)
    return all(word in found for word in words)


def matched(printed: list[tuple[str, str]], listed: list[tuple[str, str]]) -> tuple[int, int]:
    """How many printed items the listed ones give with their number (and a caption that starts
    with the printed caption's first words), and how many listed items are left over."""
    left = list(listed)
    right = 0
    for number, caption in printed:
        words = caption_words(caption)[:CAPTION_WORDS]
        for k, (listed_number, listed_caption) in enumerate(left):
            if listed_number == number and in_order(words, caption_words(listed_caption)):
                right += 1
                del left[k]
                break
    return right, len(left)


def converted(path: Path) -> Document:
    """The e-print's Document: an archive as `from_source` reads it, a folder (docling keeps its
    e-prints unpacked) as its files."""
    from arxiv_mcp.text.extract import from_source
    from arxiv_mcp.text.latex.convert import latex_to_document

    if path.is_dir():
        return latex_to_document({str(f.relative_to(path)): f.read_bytes() for f in path.rglob("*") if f.is_file()})
    return from_source(path.read_bytes())


def scored(entry: dict[str, object], path: Path) -> tuple[str, bool]:
    """One e-print's row against its truth, and whether every item is right with none extra."""
    from arxiv_mcp.text.document import Equation, Figure, Table

    document = converted(path)
    listed = {
        "figures": [(f.number, f.caption) for f in document.records(Figure)],
        "tables": [(t.number, t.caption) for t in document.records(Table)],
        "equations": [(e.number, "") for e in document.records(Equation)],
    }
    cells, perfect = [], True
    for kind in ("figures", "tables", "equations"):
        printed = [(str(item[0]), str(item[1])) if isinstance(item, list) else (str(item), "") for item in entry[kind]]  # type: ignore[attr-defined]
        right, extra = matched(printed, listed[kind])
        perfect = perfect and right == len(printed) and extra == 0
        cells.append(f"{right:3}/{len(printed):3}{f' +{extra}' if extra else '':5}")
    source = "pdf" if str(entry["truth"]).split()[0].endswith(".pdf") else "src"
    return f"{Path(str(entry['file'])).name:45} {source} {' '.join(cells)} {'all' if perfect else '-':>4}", perfect


def score_truth(folders: list[Path], only: str) -> None:
    entries = [e for e in json.loads(TRUTH.read_text(encoding="utf-8"))["papers"] if only in e["file"]]
    print(f"{'file':45} {'of':3} {'figures':>12} {'tables':>12} {'equations':>12} {'all':>4}")
    perfect = {"pdf": [0, 0], "src": [0, 0]}
    missing = []
    for entry in entries:
        found = [folder / str(entry["file"]) for folder in folders if (folder / str(entry["file"])).exists()]
        if not found:
            missing.append(str(entry["file"]))
            continue
        line, right = scored(entry, found[0])
        tally = perfect["pdf" if str(entry["truth"]).split()[0].endswith(".pdf") else "src"]
        tally[0] += right
        tally[1] += 1
        print(line, flush=True)
    right, total = perfect["pdf"][0] + perfect["src"][0], perfect["pdf"][1] + perfect["src"][1]
    print(
        f"every item right on {right}/{total} e-prints ({100 * right / max(1, total):.0f}%): "
        f"{perfect['pdf'][0]}/{perfect['pdf'][1]} whose truth is a PDF's print, "
        f"{perfect['src'][0]}/{perfect['src'][1]} whose truth was read from the source"
    )
    if missing:
        print(f"{len(missing)} not scored, not here (gather_corpus.py --set latex-truth / unseen-source): {missing}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", help="the shared/ directory")
    parser.add_argument("--only", default="", help="score only files whose name contains this")
    parser.add_argument("--truth", action="store_true", help="score against structure_latex_truth.json")
    parser.add_argument("--gathered", help="where gather_corpus.py put the manifest's latex-truth and unseen sets")
    args = parser.parse_args()
    corpus = shared_dir(args.shared) / "fixtures" / "arxiv"
    if args.truth:
        score_truth([corpus, *([Path(args.gathered)] if args.gathered else [])], args.only)
        return
    print(f"{'file':45} {'fig':>11} {'tab':>11} {'eq':>4} {'ref':>9} {'ids':>9} {',,':>3} {'tex/kw':>6}")
    for folder in (corpus / "real" / "src", corpus / "src"):
        for path in sorted(folder.glob("*")):
            if path.suffix == ".md" or args.only not in path.name:
                continue
            compiled = corpus / "real" / "compiled_pdf_MADE_HERE" / (re.sub(r"\.tar(\.gz)?$", "", path.name) + ".pdf")
            print(row(path, compiled), flush=True)


if __name__ == "__main__":
    main()
