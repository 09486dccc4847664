"""PDF conversion time over object count: a file of N objects without a cross-reference
table (issue 34 point 5), read by each engine with no deadline.

Usage: python benchmarks/pdf_objects.py [--counts 10000,30000,...] [--runs N]

Each figure is the least process CPU time of N runs of pdf_to_document (the file opened,
measured, found damaged, rebuilt by repair and read again). Linear growth shows as a steady
time per 100,000 objects; repair keeps at most MAX_OBJECTS objects, so past it the rebuild
stops growing while the readers' scans of the file still do.
"""

from __future__ import annotations

import argparse
import gc
import logging
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from arxiv_mcp.text.pdf import pdf_to_document  # noqa: E402
from benchmarks.pdf_extraction import pdfium_installed  # noqa: E402
from tests.pdfgen import many_objects_pdf  # noqa: E402

DEFAULT_COUNTS = "10000,30000,100000,300000,1000000"


def least_cpu(data: bytes, engine: str, runs: int) -> float:
    times = []
    for _ in range(runs):
        gc.collect()
        start = time.process_time()
        pdf_to_document(data, engine=engine)
        times.append(time.process_time() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", default=DEFAULT_COUNTS)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    engines = ["pypdf", "pdfium"] if pdfium_installed() else ["pypdf"]
    print(f"least CPU time of {args.runs} runs, seconds (and per 100,000 objects)")
    print(f"{'objects':>9} {'MB':>6} " + " ".join(f"{engine:>20}" for engine in engines))
    for count in (int(text) for text in args.counts.split(",")):
        data = many_objects_pdf(count)
        cells = []
        for engine in engines:
            seconds = least_cpu(data, engine, args.runs)
            cells.append(f"{seconds:>9.2f} ({seconds / count * 1e5:>6.3f})")
        print(f"{count:>9} {len(data) / 2**20:>6.1f} " + " ".join(f"{cell:>20}" for cell in cells), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
