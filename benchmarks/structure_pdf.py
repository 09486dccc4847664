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

Table cells (a second table, the compiled PDFs only): the truth is each `tabular`
(`tabular*`, `tabularx`) of the `.tex` files outside a figure float, comments dropped. Its
rows are the pieces between `\\\\` (and `\\tabularnewline`; `\\\\[2pt]`'s length dropped), its
cells the pieces between unescaped `&` at brace depth 0; rules (`\\hline`, `\\toprule`,
`\\midrule`, `\\bottomrule`, `\\cline{..}`, `\\cmidrule(..){..}`) are dropped, a
`\\multicolumn{n}{..}{text}` is one cell spanning n columns (the tabular's columns: those
some row prints a cell in, spans counted, an empty spacer column `&&` not) and a
`\\multirow{n}{..}{text}` the cell `text`. A cell is compared normalised: commands that print nothing of the cell's (`\\rule`, `\\hspace`,
`\\cite`, `\\ref`, colours, ...) dropped with their arguments, every other command name
dropped, then only its ASCII letters and digits kept, lower-cased ("85.6$\\pm0.0$" and the
PDF's "85.6±0.0" are both "85600"); a cell empty so is left out of every count. Each true
tabular is matched with the table of `pdf_to_document` that shares most cells with it
(counted as multisets; each table with one tabular at most, the pairs sharing most
first). Columns: tabulars found (sharing a cell with a table) / true, true
cells found / true (recall), found cells that are true (of all cells of all tables: a
share), rows whose cells, in order and empty ones left out, are a true row's (of the true
rows of two cells or more) / those true rows, and the rows of the matched tables with as
many cells (empty ones counted) as the tabular has columns / those rows ("width").
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
from collections import Counter
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.append(str(REPO_ROOT))

from arxiv_mcp.text import labels  # noqa: E402
from arxiv_mcp.text.document import Document, Equation, Figure, Footnote, Heading, Reference, Table  # noqa: E402
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


_FIGURE_FLOAT = re.compile(r"\\begin\{(figure|wrapfigure|sidewaysfigure)\*?\}.*?\\end\{\1\*?\}", re.S)
_RULE = re.compile(r"\\(?:hline|toprule|midrule|bottomrule|cline\{[^}]*\}|cmidrule(?:\([^)]*\))?\{[^}]*\})")
_SILENT = re.compile(
    r"\\(?:rule|hspace\*?|vspace\*?|cite\w*|ref|eqref|label|cellcolor|rowcolor|color|textcolor|"
    r"arraybackslash|centering|raggedright|raggedleft)(?:\[[^\]]*\])?(?:\{[^{}]*\})*"
)
_SPAN = re.compile(r"\\multicolumn\{(\d+)\}\{[^{}]*\}")
_MULTIROW = re.compile(r"\\multirow\{[^{}]*\}(?:\[[^\]]*\])?\{[^{}]*\}")


def table_truth(source: Path) -> list[tuple[int, list[list[str]]]]:
    """Each tabular the e-print's LaTeX prints outside a figure: (its columns, its rows of
    normalised cells), in the files' order (see the module docstring)."""
    tex = "\n".join(_COMMENT.sub("", text) for name, text in _members(source).items() if name.endswith(".tex"))
    tables = []
    for body in _outer_tabulars(_FIGURE_FLOAT.sub("", tex)):
        rows, live = [], set()  # live: the columns some row prints a cell in
        for cells in _split_rows(_RULE.sub("", body)):
            normalised = [normalised_cell(_SPAN.sub("", cell)) for cell in cells]
            column = 0
            for cell, text in zip(cells, normalised):
                live.update(range(column, column + (int(m[1]) if (m := _SPAN.search(cell)) else 1)) if text else ())
                column += int(m[1]) if (m := _SPAN.search(cell)) else 1
            if any(normalised):
                rows.append(normalised)
        if rows:
            tables.append((len(live), rows))
    return tables


_TABULAR_EDGE = re.compile(r"\\(begin|end)\{tabular[*x]?\}")


def _outer_tabulars(tex: str) -> list[str]:
    """The bodies (column specification out) of the tabulars not inside another; a tabular
    inside a cell (`\\begin{tabular}[c]{@{}c@{}}\\# \\\\ layers\\end{tabular}`) is that cell's text."""
    bodies: list[str] = []
    opened: list[re.Match[str]] = []
    pieces: list[list[str]] = [[]]  # the text of each open tabular so far, inner ones flattened
    position = 0
    for edge in _TABULAR_EDGE.finditer(tex):
        if opened:
            pieces[-1].append(tex[position : edge.start()])
        position = edge.end()
        if edge[1] == "begin":
            opened.append(edge)
            pieces.append([])
        elif opened:
            opened.pop()
            body = "".join(pieces.pop())
            body = body[_preamble_end(body) :]
            if opened:
                pieces[-1].append(" ".join(cell for row in _split_rows(body) for cell in row))
            else:
                bodies.append(body)
    return bodies


def _preamble_end(body: str) -> int:
    """Where a tabular's column specification (`{@{}c l | c}`, after `[c]`, and after `{width}`
    for `tabular*`) ends."""
    depth, index = 0, 0
    if body.lstrip().startswith("["):
        index = body.index("]") + 1
    while index < len(body):
        if body[index] == "{":
            depth += 1
        elif body[index] == "}":
            depth -= 1
            if depth == 0 and not body[index + 1 :].lstrip().startswith("{"):
                return index + 1
        elif depth == 0 and not body[index].isspace():
            return index
        index += 1
    return index


_ROW_END = re.compile(r"\\\\(?:\s*\[[^\]]*\])?|\\tabularnewline")


def _split_rows(body: str) -> list[list[str]]:
    """A tabular's rows (ended by `\\\\` at brace depth 0), each its cells (split at `&` there)."""
    rows: list[list[str]] = []
    cells: list[str] = []
    depth = start = index = 0
    while index < len(body):
        char = body[index]
        end = _ROW_END.match(body, index) if char == "\\" and depth == 0 else None
        if end is not None:
            rows.append([*cells, body[start:index]])
            cells, start, index = [], end.end(), end.end()
            continue
        if char == "\\":
            index += 2  # an escaped character (`\\&`, `\\{`) is the cell's text
            continue
        depth += (char == "{") - (char == "}")
        if char == "&" and depth == 0:
            cells.append(body[start:index])
            start = index + 1
        index += 1
    return [*rows, [*cells, body[start:]]]


def normalised_cell(text: str) -> str:
    """A cell as compared: its commands that print nothing of it out, then only its ASCII
    letters and digits, lower-cased."""
    text = _SILENT.sub("", _MULTIROW.sub("", text))
    return re.sub(r"[^a-z0-9]", "", re.sub(r"\\[A-Za-z]+", "", text).lower())


def _cell_columns(score: Counter[str]) -> str:
    """The table-cell measure of a file or an engine (see the module docstring), as its columns."""
    return (
        f"{score['tabulars_found']:3}/{score['tabulars']:<3} {score['cells_found']:5}/{score['cells']:<5} "
        f"{_share(score['cells_found'], score['cells']):>5} {_share(score['cells_found'], score['found']):>5} "
        f"{score['rows_found']:4}/{score['rows']:<4} {_share(score['rows_found'], score['rows']):>5} "
        f"{score['width_found']:4}/{score['width_rows']:<4} {_share(score['width_found'], score['width_rows']):>5}"
    )


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.2f}" if whole else "  -"


def cell_score(document: Document, tabulars: list[tuple[int, list[list[str]]]]) -> Counter[str]:
    """How the tables of `document` give the cells of the true `tabulars`: the counts the
    columns are made of ("found": the non-empty cells of every table found)."""
    tables = [[[normalised_cell(cell) for cell in row] for row in table.rows] for table in document.records(Table)]
    bags = [Counter(cell for row in rows for cell in row if cell) for rows in tables]
    score = Counter(tabulars=len(tabulars), found=sum(sum(bag.values()) for bag in bags))
    truths = [Counter(cell for row in rows for cell in row if cell) for _, rows in tabulars]
    shared = sorted(
        ((sum((truth & bag).values()), t, f) for t, truth in enumerate(truths) for f, bag in enumerate(bags)),
        reverse=True,
    )
    matched: dict[int, tuple[int, int]] = {}  # tabular: (table, cells shared), most shared first
    for count, t, f in shared:
        if count and t not in matched and f not in {table for table, _ in matched.values()}:
            matched[t] = (f, count)
    for t, (columns, rows) in enumerate(tabulars):
        score["cells"] += sum(truths[t].values())
        full = [tuple(cell for cell in row if cell) for row in rows]
        score["rows"] += sum(len(row) >= 2 for row in full)
        if t not in matched:
            continue
        best, count = matched[t]
        score["tabulars_found"] += 1
        score["cells_found"] += count
        found_rows = {tuple(cell for cell in row if cell) for row in tables[best]}
        score["rows_found"] += sum(len(row) >= 2 and row in found_rows for row in full)
        score["width_rows"] += len(tables[best])
        score["width_found"] += sum(len(row) == columns for row in tables[best])
    return score


def _kind(name: str) -> str:
    return "table" if name.lower().startswith("tab") else "figure"


def _row(
    name: str,
    engine: str,
    document: Document,
    true: tuple[int, int] | None,
    seen: tuple[set[tuple[str, str]], int] | None,
) -> str:
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
    cells: list[str] = []
    for engine in engines:
        total: Counter[str] = Counter()
        for pdf in sorted((real / "compiled_pdf_MADE_HERE").glob("*.pdf")):
            source = next(iter(sorted((real / "src").glob(pdf.stem + ".tar*"))), None)
            true = truth(source) if source else None
            document = pdf_to_document(pdf.read_bytes(), engine=engine)
            print(_row(pdf.name, engine, document, true, None))
            if source is not None:
                score = cell_score(document, table_truth(source))
                total.update(score)
                cells.append(f"{engine:6} {pdf.name[:30]:30} {_cell_columns(score)}")
        cells.append(f"{engine:6} {'all':30} {_cell_columns(total)}")
        for pdf in sorted([*(real / "pdf").glob("*.pdf"), *(real.parent / "pdf").glob("*.pdf")]):
            print(_row(pdf.name, engine, pdf_to_document(pdf.read_bytes(), engine=engine), None, printed(pdf)))
    print(
        f"\n{'engine':6} {'file (table cells)':30} {'tabulars':>7} {'cells':>11} {'share':>5} {'true':>5} "
        f"{'rows':>9} {'share':>5} {'width':>9} {'share':>5}"
    )
    print("\n".join(cells))


if __name__ == "__main__":
    main()
