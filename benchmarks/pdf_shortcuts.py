"""What each shortcut into pypdf's or pypdfium2's internals gains: each turned off and on, file by file.

Usage: python benchmarks/pdf_shortcuts.py [dir ...] [--runs N]
(default directories: doc_hashes' corpus, the test fixtures and the shared ones).

The shortcuts live behind the compat fence (SHORTCUTS of text/pdf/pypdf_compat.py and
pdfium_compat.py). For each
file and shortcut, pdf_to_document runs with the shortcut on and off, alternately, N times
each, in the engine whose path uses it ("shared_fonts": pypdf; the measuring reader's
"objects_one_at_a_time" and the character questions' "undeclared_calls": pdfium), beside
the bare engine loop. Each figure is the least
process CPU time of its runs: what the code costs with the least interference from other
jobs (medians moved by 20% between two runs of one file on a loaded machine; minima by a
few percent). The gain is (off - on) / off; the table gives every file, the whole corpus,
and each variant's worst ratio to the bare loop, the bound that must hold without it
(pypdf engine <= 1.2x bare pypdf, pdfium engine <= 2x bare pypdfium2). A shortcut gaining
under 10% on every file is to be deleted unless its absence breaks a bound.
"""

from __future__ import annotations

import argparse
import gc
import logging
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from arxiv_mcp.text.pdf import pdf_to_document, pdfium_compat, pypdf_compat  # noqa: E402
from benchmarks.doc_hashes import DEFAULT_DIRS, corpus  # noqa: E402
from benchmarks.pdf_extraction import _first_read, bare_pdfium, bare_pypdf, pdfium_installed  # noqa: E402

ENGINE_OF = {"shared_fonts": "pypdf", "objects_one_at_a_time": "pdfium", "undeclared_calls": "pdfium"}
BOUND = {"pypdf": 1.2, "pdfium": 2.0}
BARE: dict[str, Callable[[bytes], None]] = {"pypdf": bare_pypdf, "pdfium": bare_pdfium}


def least_cpu(run: Callable[[], None]) -> float:
    gc.collect()
    start = time.process_time()
    run()
    return time.process_time() - start


def on_and_off(data: bytes, name: str, runs: int) -> tuple[float, float, float]:
    """The least CPU time of the engine with `name` on, off, and of the bare loop."""
    engine = ENGINE_OF[name]
    module = pdfium_compat if name in pdfium_compat.SHORTCUTS else pypdf_compat
    saved = module.SHORTCUTS

    def ours() -> None:
        _first_read()
        pdf_to_document(data, engine=engine)

    def off() -> None:
        module.SHORTCUTS = saved - {name}
        try:
            ours()
        finally:
            module.SHORTCUTS = saved

    times: dict[str, list[float]] = {"on": [], "off": [], "bare": []}
    for run in range(runs):
        order = [("on", ours), ("off", off), ("bare", lambda: BARE[engine](data))]
        for label, variant in order if run % 2 == 0 else order[::-1]:
            times[label].append(least_cpu(variant))
    return min(times["on"]), min(times["off"]), min(times["bare"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    names = [name for name in ENGINE_OF if name in pypdf_compat.SHORTCUTS | pdfium_compat.SHORTCUTS]
    if not pdfium_installed():
        names = [name for name in names if ENGINE_OF[name] != "pdfium"]
    files = corpus([path.resolve() for path in args.dirs] or DEFAULT_DIRS)
    print(f"{len(files)} PDFs, least CPU time of {args.runs} alternating runs; gain = (off - on) / off")
    print(f"{'file':<36} " + " ".join(f"{name + ' gain':>28} {'ratio on/off':>13}" for name in names))
    totals = {name: [0.0, 0.0] for name in names}
    best = dict.fromkeys(names, (-1.0, ""))
    worst_off = dict.fromkeys(names, 0.0)
    for path in files:
        data = path.read_bytes()
        cells = []
        for name in names:
            on, off, bare = on_and_off(data, name, args.runs)
            totals[name][0] += on
            totals[name][1] += off
            best[name] = max(best[name], ((off - on) / off, path.name))
            worst_off[name] = max(worst_off[name], off / bare)
            cells.append(f"{(off - on) / off:>+28.1%} {on / bare:>6.2f}/{off / bare:<6.2f}")
        print(f"{path.name[:36]:<36} " + " ".join(cells), flush=True)
    print()
    for name in names:
        on, off = totals[name]
        print(
            f"{name}: all files {(off - on) / off:+.1%} ({on:.3f} s on, {off:.3f} s off); best file "
            f"{best[name][0]:+.1%} ({best[name][1]}); worst ratio off {worst_off[name]:.2f} "
            f"(bound {BOUND[ENGINE_OF[name]]:g})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
