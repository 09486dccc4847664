"""Time pdf_to_document (what a read costs: text and structure) against bare extraction loops, engine by engine.

Usage: python benchmarks/pdf_extraction.py [fixtures_dir ...] [--runs N] [--cpu] [--engine pypdf|pdfium]
(default directory: ../shared/fixtures/arxiv/pdf relative to the repository root; the
whole corpus: that one, ../shared/fixtures/arxiv/real/pdf and .../real/compiled_pdf_MADE_HERE).

All variants run in one process and are interleaved run by run, in a rotating order that
turns round every other run, so that a noisy machine slows them alike and none always runs
right after the same other one, each after a full garbage collection; each figure
is the median of N runs (--cpu: of the process's CPU time, for a loaded machine).
Targets: ratio = ours/bare pypdf <= 1.2 for the pypdf engine, and, with pypdfium2 installed,
pdfium ratio = ours (pdfium)/bare pypdfium2 <= 2 for every file.
"""

from __future__ import annotations

import argparse
import gc
import io
import logging
import math
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from pypdf import PdfReader  # noqa: E402

from arxiv_mcp.text.pdf import pdf_to_document  # noqa: E402

DEFAULT_DIR = REPO_ROOT.parent / "shared" / "fixtures" / "arxiv" / "pdf"
TARGET_RATIO = 1.2
MIN_SECONDS = 2.0


def bare_pypdf(data: bytes) -> None:
    for page in PdfReader(io.BytesIO(data)).pages:
        page.extract_text()


def ours_pypdf(data: bytes) -> None:
    _first_read()
    pdf_to_document(data, engine="pypdf")


def ours_pdfium(data: bytes) -> None:
    _first_read()
    pdf_to_document(data, engine="pdfium")


def pdf_memos(package: str) -> list[Any]:
    """The memos of `package`'s PDF modules (lines seen, fonts named), to empty before a run:
    its module-level functions that can be emptied (functools.cache and lru_cache)."""
    return [
        value
        for name, module in list(sys.modules.items())
        if name.startswith(package + ".text.pdf.")
        for value in vars(module).values()
        if callable(getattr(value, "cache_clear", None))
    ]


def _first_read() -> None:
    """Our memos are emptied before each of our runs: a server reads a paper once, so its lines
    are new to them, where the benchmark reads one file again and again."""
    for memo in pdf_memos("arxiv_mcp"):
        memo.cache_clear()


def bare_pdfium(data: bytes) -> None:
    import pypdfium2

    document = pypdfium2.PdfDocument(data)
    try:
        "\n".join(document[i].get_textpage().get_text_range() for i in range(len(document)))
    finally:
        document.close()


def pdfium_installed() -> bool:
    try:
        import pypdfium2  # noqa: F401
    except ImportError:
        return False
    return True


def median_times(
    data: bytes, variants: dict[str, Callable[[bytes], None]], runs: int, clock: Callable[[], float] = time.perf_counter
) -> dict[str, float]:
    return {name: statistics.median(values) for name, values in interleaved_times(data, variants, runs, clock).items()}


def file_runs(runs: int, seconds: float, min_seconds: float) -> int:
    """How many runs a file gets: at least `runs`, and as many more (up to four times as
    many) as take its bare loop, `seconds` a run, `min_seconds` in all. A short file's
    ratio is a few milliseconds over a few others, where one run another job slowed moves it
    by 0.2: more runs of it, not of the long files, make its median as steady as theirs."""
    wanted = math.ceil(min_seconds / seconds) if seconds > 0 else runs
    return max(runs, min(wanted, 4 * runs))


def paired_ratio(ours: list[float], bare: list[float]) -> float:
    """The median of the runs' ratios, each run's time over the bare loop's time in the same
    run (interleaved: they ran next to each other, under the same load), not the ratio of two
    medians taken from runs apart."""
    return statistics.median(mine / theirs for mine, theirs in zip(ours, bare))


def interleaved_times(
    data: bytes, variants: dict[str, Callable[[bytes], None]], runs: int, clock: Callable[[], float] = time.perf_counter
) -> dict[str, list[float]]:
    """Each variant's time on `data` in each of `runs` runs (see the module docstring)."""
    names = list(variants)
    times: dict[str, list[float]] = {name: [] for name in names}
    for run in range(runs):
        # the order turns round every other run, so each variant follows two others in turn: in
        # one fixed cycle a variant always ran right after the same other one, whose traces in
        # the CPU's caches helped or slowed it alike every time (bare pdfium always ran after our
        # pdfium read, which had just loaded pdfium's code and data: 0.07 of a small file's ratio)
        cycle = names if run % 2 == 0 else names[::-1]
        shift = run // 2 % len(names)
        for name in cycle[shift:] + cycle[:shift]:
            gc.collect()  # each variant starts clean: not charged for collecting another's garbage
            start = clock()
            variants[name](data)
            times[name].append(clock() - start)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("fixtures_dir", nargs="*", type=Path, default=[DEFAULT_DIR])
    parser.add_argument("--runs", type=int, default=7, help="runs per variant (median is reported)")
    parser.add_argument(
        "--min-seconds",
        type=float,
        default=MIN_SECONDS,
        help="a file whose bare loop takes less than this in --runs runs gets more runs (see file_runs)",
    )
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time by the process's CPU time, not the wall clock: on a loaded machine the wall clock "
        "counts the time other jobs hold the CPU, unevenly between variants",
    )
    parser.add_argument(
        "--engine",
        choices=("both", "pypdf", "pdfium"),
        default="both",
        help="time one engine only (with its bare loop): a quicker run for the bound that is at stake",
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)  # pypdf's warnings about odd fonts would drown the table

    files = [path for directory in args.fixtures_dir for path in sorted(directory.glob("*.pdf"))]
    if not files:
        print(f"no PDFs in {', '.join(map(str, args.fixtures_dir))}", file=sys.stderr)
        return 1
    variants: dict[str, Callable[[bytes], None]] = {}
    if args.engine != "pdfium":
        variants.update({"bare": bare_pypdf, "ours": ours_pypdf})
    if pdfium_installed() and args.engine != "pypdf":
        variants["pdfium"] = ours_pdfium
        variants["bare pdfium"] = bare_pdfium

    header = (
        f"{'file':<38} {'pages':>5} {'bare s':>8} {'ours s':>8} {'ratio':>6} "
        f"{'pdfium s':>9} {'bare pdfium':>11} {'pdfium ratio':>12}"
    )
    clock = time.process_time if args.cpu else time.perf_counter
    print(
        f"{len(files)} PDFs, median {'CPU time' if args.cpu else 'wall time'} of {args.runs} interleaved runs (more for a file whose bare loop "
        f"takes under {args.min_seconds} s in all); ratio: median of the runs' ratios; target ratio <= {TARGET_RATIO}"
    )
    print(header)
    print("-" * len(header))
    total = dict.fromkeys(variants, 0.0)
    worst = {"pypdf": 0.0, "pdfium": 0.0}
    for path in files:
        data = path.read_bytes()
        pages = len(PdfReader(io.BytesIO(data)).pages)
        first = interleaved_times(data, variants, 1, clock)  # each variant's first read of the file: not counted
        runs = file_runs(args.runs, min(seconds for (seconds,) in first.values()), args.min_seconds)
        times = interleaved_times(data, variants, runs, clock)
        median = {name: statistics.median(values) for name, values in times.items()}
        for name, seconds in median.items():
            total[name] += seconds
        ratios = {
            engine: paired_ratio(times[ours], times[bare]) if ours in times and bare in times else None
            for engine, (ours, bare) in (("pypdf", ("ours", "bare")), ("pdfium", ("pdfium", "bare pdfium")))
        }
        for engine, ratio_or_none in ratios.items():
            worst[engine] = max(worst[engine], ratio_or_none or 0.0)
        print(
            f"{path.name[:38]:<38} {pages:>5} {_seconds(median.get('bare')):>8} {_seconds(median.get('ours')):>8} "
            f"{_ratio(ratios['pypdf'], 3):>6} {_seconds(median.get('pdfium')):>9} "
            f"{_seconds(median.get('bare pdfium')):>11} {_ratio(ratios['pdfium'], 2):>12}",
            flush=True,
        )
    print("-" * len(header))
    ratio = total["ours"] / total["bare"] if "ours" in total else 0.0
    if "ours" in total:
        print(f"{'all files':<38} {'':>5} {total['bare']:>8.3f} {total['ours']:>8.3f} {ratio:>6.3f}")
    print(f"worst file: {worst['pypdf']:.3f} (pypdf, target {TARGET_RATIO}), {worst['pdfium']:.2f} (pdfium, target 2)")
    return 0 if ratio <= TARGET_RATIO else 2


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _ratio(ratio: float | None, digits: int) -> str:
    return "-" if ratio is None else f"{ratio:.{digits}f}"


if __name__ == "__main__":
    sys.exit(main())
