"""LaTeX conversion time over bibliography size: the curve must be a straight line.

    python benchmarks/latex_scale.py [--sizes 1000,2000,...] [--style author-year|numeric]
    python benchmarks/latex_scale.py --shapes [--n 5000]

For each size N, a synthetic paper (one section citing every 1/1000th entry, then a
`thebibliography` of N entries, author-year labels `Author7 et al.(1907)` with natbib's `sort`,
or plain numeric ones) is converted by `latex_to_document`, and the CPU seconds (best of
--repeat) are printed with microseconds per entry. Two columns:

- `shipped`: as a read converts it; past `crossrefs.MAX_ENTRIES` entries the tail is left out
  (the text says so), so the cost past that size is tokenizing the source, still linear;
- `uncapped`: MAX_ENTRIES lifted, every entry converted: the converter's own growth.

Linear growth shows as a flat `us/entry` column. `--shapes` converts 22 other shapes of input
(macro uses, labels and references, equations, table cells, footnotes, items, figures, theorems,
nested braces, siunitx quantities, one citation of every entry, one merging every entry (natbib's
`merge`), math spans, unmatched dollars, comment lines, the paper's own environments: used, unclosed, nested;
definitions each used after it: macros, a template renewed, environments) at n and 4n items and prints the ratio
of the CPU times: about 4 is linear. Before the fix (labels scanned every entry per entry)
16,000 numeric entries took 90 s under the profiler, 20,000 about 47 s plain.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
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


_HEAD = (
    "\\documentclass{article}\\usepackage{siunitx}\\usepackage[merge]{natbib}"
    "\\newcommand{\\x}[1]{#1 and #1}\\newcommand{\\y}{why}"
    "\\newtheorem{thm}{Theorem}\\newcounter{u}[section]\\newenvironment{eqn}{\\refstepcounter{u}$$}{\\eqno(\\theu)$$}"
    "\\newenvironment{box}[1]{[#1: \\begin{eqn}}{\\end{eqn}]}\\begin{document}\\section{A}\n"
)
SHAPES: dict[str, Callable[[int], str]] = {
    "template uses": lambda n: "".join(f"\\x{{a{k}}} " for k in range(n)),
    "text macro uses": lambda n: "\\y " * n,
    "labels+refs": lambda n: "".join(f"\\section{{S{k}}}\\label{{s{k}}} see \\ref{{s{k}}}.\n" for k in range(n)),
    "equations": lambda n: "".join(
        f"\\begin{{equation}}x_{k}\\label{{e{k}}}\\end{{equation}} \\eqref{{e{k}}}\n" for k in range(n)
    ),
    "table cells": lambda n: (
        "\\begin{table}\\caption{T}\\begin{tabular}{cc}"
        + "".join(f"a{k} & b \\\\\n" for k in range(n))
        + "\\end{tabular}\\end{table}"
    ),
    "footnotes": lambda n: "".join(f"w{k}\\footnote{{n{k}}} " for k in range(n)),
    "items": lambda n: "\\begin{itemize}" + "".join(f"\\item i{k}\n" for k in range(n)) + "\\end{itemize}",
    "figures": lambda n: "".join(
        f"\\begin{{figure}}\\includegraphics{{f{k}}}\\caption{{c{k}}}\\label{{f{k}}}\\end{{figure}}\n" for k in range(n)
    ),
    "theorems": lambda n: "".join(f"\\begin{{thm}}t{k}\\end{{thm}}\n" for k in range(n)),
    "nested braces": lambda n: "{" * n + "x" + "}" * n,
    "quantities": lambda n: "".join(f"\\SI{{{k}}}{{\\metre}} " for k in range(n)),
    "cite every entry": lambda n: (
        "\\cite{"
        + ",".join(f"k{k}" for k in range(n))
        + "}\\begin{thebibliography}{9}"
        + "".join(f"\\bibitem{{k{k}}} e" for k in range(n))
        + "\\end{thebibliography}"
    ),
    # natbib's merging: every entry a part of the first, a blank line between (`_entries_joined`)
    "merged citation": lambda n: (
        "\\cite{k0,"
        + ",".join(f"*k{k}" for k in range(1, n))
        + "}\\begin{thebibliography}{9}"
        + "".join(f"\\bibitem{{k{k}}} e{k}\n\n" for k in range(n))
        + "\\end{thebibliography}"
    ),
    "math spans": lambda n: "".join(f"$x_{{{k}}}$ " for k in range(n)),
    "dollar unmatched": lambda n: "$ a " * n,
    "comment lines": lambda n: "".join(f"a % c{k}\n" for k in range(n)),
    "own environments": lambda n: "".join(f"\\begin{{box}}{{b{k}}}x_{k}\\end{{box}}\n" for k in range(n)),
    "own env. unclosed": lambda n: "\\begin{box}{b} " * n,
    "own env. nested": lambda n: "\\begin{box}{b}" * n + "x" + "\\end{box}" * n,
    # definitions recorded where the tokenizer reads them, each used after it
    "defined, used": lambda n: "".join(f"\\newcommand{{\\m{_letters(k)}}}{{d{k}}}\\m{_letters(k)} " for k in range(n)),
    "renewed, used": lambda n: "".join(f"\\renewcommand{{\\x}}[1]{{#1{k}}}\\x{{a}} " for k in range(n)),
    "env. defined, used": lambda n: "".join(
        f"\\newenvironment{{e{_letters(k)}}}{{[}}{{]}}\\begin{{e{_letters(k)}}}x\\end{{e{_letters(k)}}} "
        for k in range(n)
    ),
}


def _letters(k: int) -> str:
    """k spelled in letters, a name TeX reads as one control word."""
    return "".join(chr(ord("a") + int(digit)) for digit in str(k))


def shapes(n: int, repeat: int) -> None:
    print(f"{'shape':18} {'n s':>7} {'4n s':>7} {'ratio':>6}   (CPU seconds, n = {n}; 4 is linear)")
    for name, make in SHAPES.items():
        small, large = (seconds((_HEAD + make(size) + "\\end{document}").encode(), repeat) for size in (n, 4 * n))
        print(f"{name:18} {small:7.2f} {large:7.2f} {large / max(small, 1e-3):6.1f}")


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
    parser.add_argument("--shapes", action="store_true", help="the ratio n -> 4n over 22 other input shapes")
    parser.add_argument("--n", type=int, default=5000)
    args = parser.parse_args()
    if args.shapes:
        shapes(args.n, args.repeat)
        return 0
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
