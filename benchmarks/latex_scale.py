"""LaTeX conversion time over bibliography size: the curve must be a straight line.

    python benchmarks/latex_scale.py [--sizes 1000,2000,...] [--style author-year|numeric]

For each size N, a synthetic paper (one section citing every 1/1000th entry, then a
`thebibliography` of N entries, author-year labels `Author7 et al.(1907)` with natbib's `sort`,
or plain numeric ones) is converted by `latex_to_document`, and the CPU seconds (best of
--repeat) are printed with microseconds per entry. Two columns:

- `shipped`: as a read converts it; past `crossrefs.MAX_ENTRIES` entries the tail is left out
  (the text says so), so the cost past that size is tokenizing the source, still linear;
- `uncapped`: MAX_ENTRIES lifted, every entry converted: the converter's own growth.

Linear growth shows as a flat `us/entry` column. Before the fix (labels scanned every entry
per entry) 16,000 numeric entries took 90 s under the profiler, 20,000 about 47 s plain.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.append(str(REPO_ROOT))

from arxiv_mcp.text.latex import crossrefs  # noqa: E402
from arxiv_mcp.text.latex.convert import latex_to_document  # noqa: E402

DEFAULT_SIZES = (1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000)


def paper(entries: int, style: str) -> bytes:
    if style == "author-year":
        items = [
            f"\\bibitem[Author{k} et al.({1900 + k % 120})]{{key{k}}} A. Author{k}, J. {k % 50}, {k}.\n"
            for k in range(entries)
        ]
        preamble = "\\usepackage[sort]{natbib}\n"
    else:
        items = [f"\\bibitem{{key{k}}} A. Author{k}, J. {k % 50}, {k}.\n" for k in range(entries)]
        preamble = ""
    cites = " ".join(f"See \\citep{{key{k}}}." for k in range(0, entries, max(1, entries // 1000)))
    return (
        f"\\documentclass{{article}}\n{preamble}\\begin{{document}}\n\\title{{Scale}}\\maketitle\n"
        f"\\section{{Introduction}}\n{cites}\n\\begin{{thebibliography}}{{99}}\n{''.join(items)}"
        "\\end{thebibliography}\n\\end{document}\n"
    ).encode()


def seconds(source: bytes, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        latex_to_document({"main.tex": source})
        best = min(best, time.process_time() - started)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)))
    parser.add_argument("--style", choices=("author-year", "numeric"), default="author-year")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    shipped_cap = crossrefs.MAX_ENTRIES
    print(f"style: {args.style}; CPU seconds, best of {args.repeat}; MAX_ENTRIES = {shipped_cap}")
    print(f"{'entries':>8} {'MB':>6} {'shipped s':>10} {'us/entry':>9} {'uncapped s':>11} {'us/entry':>9}")
    for size in (int(s) for s in args.sizes.split(",")):
        source = paper(size, args.style)
        crossrefs.MAX_ENTRIES = shipped_cap
        shipped = seconds(source, args.repeat)
        crossrefs.MAX_ENTRIES = 10**9
        uncapped = seconds(source, args.repeat)
        print(
            f"{size:>8} {len(source) / 1e6:>6.1f} {shipped:>10.2f} {shipped / size * 1e6:>9.1f} "
            f"{uncapped:>11.2f} {uncapped / size * 1e6:>9.1f}"
        )
    crossrefs.MAX_ENTRIES = shipped_cap
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
