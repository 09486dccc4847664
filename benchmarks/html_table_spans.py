"""HTML tables with row and column spans: cells and header rows kept, against the page itself.

    python benchmarks/html_table_spans.py [--shared DIR] [--verbose]

For every data table (`ltx_tabular`, not inside another, not an equation table) of the LaTeXML
and oxide pages of `<shared>/fixtures/arxiv/` (and `tests/fixtures/html`), the page's own grid
is read here with the stdlib's HTML parser, independently of `arxiv_mcp.text.html`: each row's
cells in order, a `rowspan`/`colspan` cell repeated over the places it covers (as
`document.Table.rows` promises), math as its `alttext`, the header rows being the leading rows
whose filled cells are all header cells (`th`, `ltx_th`) or that sit in `thead`. Each table the
document lists (in page order) is compared place by place with the page's table of the same
order: a place is kept when its text, folded to letters and digits, is the same. Printed: the
places kept of those the page fills, the tables whose header rows differ, and the tables with
spans among them.
"""

from __future__ import annotations

import argparse
import gzip
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.append(str(REPO_ROOT))

from arxiv_mcp.text.document import Table  # noqa: E402
from arxiv_mcp.text.extract import extract  # noqa: E402
from benchmarks.text_quality import shared_dir  # noqa: E402

Cell = tuple[str, int, int, bool]  # text, colspan, rowspan, header
_VOID = frozenset(("br", "img", "hr", "input", "meta", "link", "col", "area", "base", "wbr", "source"))


class PageTables(HTMLParser):
    """The outermost tabular of each table float (`ltx_table`) of a page, as rows of cells
    (`Cell`) with their spans; a tabular inside a cell is that cell's text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[tuple[list[list[Cell]], set[int]]] = []  # rows, indices of rows in thead
        self._open: list[str] = []
        self._float = 0  # depth of the open table float, 0 when none
        self._tabular = 0  # depth of its open outermost tabular
        self._table_float = 0  # depth of the float whose tabular is read (its others are sub-tables)
        self._math = 0  # depth of an open <math>
        self._cell: list[str] | None = None
        self._cell_depth = 0
        self._cell_attrs: tuple[int, int, bool] = (1, 1, False)
        self._in_head = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _VOID:
            return
        attributes = dict(attrs)
        classes = set((attributes.get("class") or "").split())
        self._open.append(tag)
        depth = len(self._open)
        if self._math:
            return
        if tag == "math":
            self._math = depth
            if self._cell is not None:
                self._cell.append(f" {attributes.get('alttext') or ''} ")
            return
        if "ltx_table" in classes and not self._float:
            self._float = depth
        elif "ltx_tabular" in classes and self._float and not self._tabular and not self._taken():
            self._tabular = depth
            self.tables.append(([], set()))
            self._table_float = self._float
        if not self._tabular or self._cell is not None:
            return
        rows, head = self.tables[-1]
        if "ltx_thead" in classes or tag == "thead":
            self._in_head = True
        elif "ltx_tbody" in classes or tag == "tbody":
            self._in_head = False
        if "ltx_tr" in classes or tag == "tr":
            rows.append([])
            if self._in_head:
                head.add(len(rows) - 1)
        elif (tag in ("td", "th") or "ltx_td" in classes) and rows:
            self._cell, self._cell_depth = [], depth
            header = tag == "th" or "ltx_th" in classes
            self._cell_attrs = (_span(attributes.get("colspan")), _span(attributes.get("rowspan")), header)

    def _taken(self) -> bool:
        """The open float has its tabular already (a second one is a sub-table, left out)."""
        return self._table_float == self._float

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID or tag not in self._open:
            return
        while self._open:
            depth = len(self._open)
            closed = self._open.pop()
            self._close(depth)
            if closed == tag:
                break

    def _close(self, depth: int) -> None:
        if self._math:
            if depth == self._math:
                self._math = 0
            return
        if self._cell is not None and depth == self._cell_depth:
            text = " ".join("".join(self._cell).split())
            self.tables[-1][0][-1].append((text, *self._cell_attrs))
            self._cell = None
        if depth == self._tabular:
            self._tabular, self._in_head = 0, False
        if depth == self._float:
            self._float, self._table_float = 0, 0

    def handle_data(self, data: str) -> None:
        if self._cell is not None and not self._math:
            self._cell.append(data)


def _span(value: str | None) -> int:
    try:
        return max(1, min(1000, int(value or 1)))
    except ValueError:
        return 1


def spread(rows: list[list[Cell]]) -> list[list[str]]:
    """The rows with each spanned cell repeated over the places it covers."""
    grid: list[list[str]] = []
    covered: dict[tuple[int, int], str] = {}
    for r, cells in enumerate(rows):
        row: list[str] = []
        queue = list(cells)
        while queue or (r, len(row)) in covered:
            if (r, len(row)) in covered:
                row.append(covered.pop((r, len(row))))
                continue
            text, colspan, rowspan, _ = queue.pop(0)
            for _ in range(colspan):
                for below in range(1, rowspan):
                    covered[(r + below, len(row))] = text
                row.append(text)
        grid.append(row)
    return grid


def header_rows(rows: list[list[Cell]], head: set[int]) -> int:
    count = 0
    for index, cells in enumerate(rows):
        filled = [cell for cell in cells if cell[0]]
        if index in head or (filled and all(cell[3] for cell in filled)):
            count += 1
        else:
            break
    return count


def _fold(text: str) -> str:
    return "".join(re.findall(r"\w", text.casefold()))


def compare(page: bytes) -> tuple[int, int, int, int, list[str]]:
    """(places the page fills, of them kept, tables, tables with header rows differing where the
    page marks them, lines)."""
    parser = PageTables()
    parser.feed(page.decode("utf-8", "replace"))
    tables = [(rows, head) for rows, head in parser.tables if rows and any(rows)]
    records = extract("html", page).records(Table)
    filled = kept = wrong_head = 0
    lines: list[str] = []
    for (rows, head), record in zip(tables, records):
        grid = [row for row in spread([r for r in rows if r]) if any(row)]  # a spacer row holds no cell
        spans = any(c[1] > 1 or c[2] > 1 for r in rows for c in r)
        ours = [list(r) for r in record.rows]
        places = [(i, j) for i, row in enumerate(grid) for j, text in enumerate(row) if _fold(text)]
        same = sum(
            1 for i, j in places if i < len(ours) and j < len(ours[i]) and _fold(ours[i][j]) == _fold(grid[i][j])
        )
        want_head = header_rows([r for r in rows if r], head)
        filled, kept = filled + len(places), kept + same
        if want_head != record.header_rows and want_head:
            wrong_head += 1
        page_head = f"page {want_head}" if want_head else "the page marks none"
        lines.append(
            f"{record.label}{' (spans)' if spans else ''}: {same}/{len(places)} places kept, "
            f"header rows {record.header_rows} ({page_head})"
        )
    if len(tables) != len(records):
        lines.append(f"page has {len(tables)} tabulars, the document {len(records)} tables")
    return filled, kept, len(records), wrong_head, lines


def pages(shared: Path) -> list[Path]:
    fixtures = shared / "fixtures" / "arxiv"
    found = sorted(fixtures.glob("html/**/*.html")) + sorted(fixtures.glob("ar5iv/*.html"))
    return found + sorted((REPO_ROOT / "tests" / "fixtures" / "html").glob("*.html*"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", default=None)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    total_filled = total_kept = total_tables = total_head = 0
    for path in pages(shared_dir(args.shared)):
        data = path.read_bytes()
        data = gzip.decompress(data) if path.suffix == ".gz" else data
        if b"ltx_tabular" not in data:
            continue
        try:
            filled, kept, tables, head, lines = compare(data)
        except Exception as error:  # noqa: BLE001 - a page that does not read is reported, not fatal
            print(f"{path.name}: {type(error).__name__}: {error}")
            continue
        total_filled, total_kept = total_filled + filled, total_kept + kept
        total_tables, total_head = total_tables + tables, total_head + head
        print(f"{path.name}: {kept}/{filled} places kept in {tables} tables, {head} with marked header rows differing")
        if args.verbose or kept < filled or head:
            print("\n".join("  " + line for line in lines))
    share = total_kept / total_filled if total_filled else 1.0
    print(
        f"all: {total_kept}/{total_filled} places kept ({share:.1%}); "
        f"{total_head}/{total_tables} tables with marked header rows differing"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
