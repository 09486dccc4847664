"""The pdfium engine of this checkout and of other checkouts, timed in one process against bare pypdfium2.

Usage: python benchmarks/pdf_trees.py OTHER_CHECKOUT [...] [--dir DIR ...] [--runs N]
(default directories: doc_hashes' corpus; e.g. `python benchmarks/pdf_trees.py /work/main`).

On a machine other jobs share, two runs of pdf_extraction.py a few minutes apart put one
file's ratio 0.3 apart: a change's 0.05 cannot be seen between them. Here every checkout's
`arxiv_mcp` is imported under a name of its own (`arxiv_mcp_1`, ...) beside this one's, and
for each file the bare loop and every checkout's pdf_to_document(engine="pdfium") run
interleaved, in a rotating order, N times each (more for a short file: pdf_extraction.file_runs);
each figure is the median of the runs' ratios of process CPU times to the bare loop's
(pdf_extraction.paired_ratio; the ratio of the least times beside it). Only the pdfium engine: pypdf's engine
puts a hook into pypdf once per process (pypdf_compat), which only the first checkout would get.
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from benchmarks.doc_hashes import DEFAULT_DIRS, corpus  # noqa: E402
from benchmarks.pdf_extraction import (  # noqa: E402
    MIN_SECONDS,
    bare_pdfium,
    file_runs,
    interleaved_times,
    paired_ratio,
    pdf_memos,
)


def checkout(root: Path, name: str) -> Any:
    """The `arxiv_mcp` package of the checkout at `root`, imported as `name`."""
    init = root / "arxiv_mcp" / "__init__.py"
    spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(init.parent)])
    if spec is None or spec.loader is None:
        raise SystemExit(f"no arxiv_mcp package in {root}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def pdfium_read(package: str) -> Callable[[bytes], None]:
    """A first read (its memos emptied, as pdf_extraction's) by the pdfium engine of `package`."""
    pdf = importlib.import_module(package + ".text.pdf")
    memos = pdf_memos(package)

    def read(data: bytes) -> None:
        for memo in memos:
            memo.cache_clear()
        pdf.pdf_to_document(data, engine="pdfium")

    return read


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("others", nargs="+", type=Path, help="other checkouts (each holding arxiv_mcp/)")
    parser.add_argument("--dir", action="append", type=Path, help="a directory of PDFs (repeatable)")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--min-seconds", type=float, default=MIN_SECONDS, help="see pdf_extraction.file_runs")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    names = {"this": "arxiv_mcp"}
    for number, root in enumerate(args.others, 1):
        names[root.name or str(root)] = checkout(root.resolve(), f"arxiv_mcp_{number}").__name__
    importlib.import_module("arxiv_mcp")
    variants: dict[str, Callable[[bytes], None]] = {"bare": bare_pdfium}
    variants.update({label: pdfium_read(package) for label, package in names.items()})
    files = corpus([path.resolve() for path in args.dir or DEFAULT_DIRS])
    print(
        f"{len(files)} PDFs; pdfium engine / bare pypdfium2, CPU time: median of the runs' ratios (ratio of the least "
        f"times), {args.runs} runs or more (a short file)"
    )
    print(f"{'file':<36} " + " ".join(f"{label[:16]:>16}" for label in names))
    ratios: dict[str, list[tuple[float, str]]] = {label: [] for label in names}
    for path in files:
        data = path.read_bytes()
        first = interleaved_times(data, variants, 1, time.process_time)  # each checkout's first read: not timed
        runs = file_runs(args.runs, first["bare"][0], args.min_seconds)
        times = interleaved_times(data, variants, runs, time.process_time)
        cells = []
        for label in names:
            median, least = paired_ratio(times[label], times["bare"]), min(times[label]) / min(times["bare"])
            ratios[label].append((median, path.name))
            cells.append(f"{median:>8.2f} ({least:.2f})")
        print(f"{path.name[:36]:<36} " + " ".join(f"{cell:>16}" for cell in cells), flush=True)
    for label, values in ratios.items():
        worst = max(values)
        median = statistics.median(ratio for ratio, _ in values)
        print(f"{label}: median file {median:.2f}, worst file {worst[0]:.2f} ({worst[1]}); bound 2")
    return 0


if __name__ == "__main__":
    sys.exit(main())
