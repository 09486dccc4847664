"""Damaged PDFs: how many pages each engine reads of real files cut short or bit-flipped.

Usage: python benchmarks/damaged_pdfs.py [DIR ...] [--seeds N] [--detail]
(default directories: shared/fixtures/arxiv/pdf, real/pdf and real/compiled_pdf_MADE_HERE
beside the checkout).

Each file is damaged in seven ways: cut at 30, 50, 70 and 90 % of its bytes, and 1, 10 or
100 random bytes of its body (seeded) replaced. For each variant the script counts the pages
bare pdfium reads (pypdfium2 on the damaged bytes, as a reader with the `fast` extra could),
and the pages our extractor returns with engine="pypdf" (the plain install) and engine="auto"
with pypdfium2 installed (the `fast` extra). A page counts
as read when it holds at least half of the characters pdfium reads on that page of the intact
file (at most 200); pages of under 20 characters when intact are not counted. Bare pdfium's
page counts so only by the characters of its words that are words of that page intact, and
only when those are at least half its characters: on a stream garbled past its start, pdfium
shows the operators a stray `(` swallowed as text (`]TJ/F30 9.9626 Tf 311335 0 Td`), which
is not reading the page. Each file runs in a subprocess of its own with a time limit, so a
crash or hang shows as such.
Target (issue 19): both engines read every page bare pdfium reads and, of a cut file, every
page whose content streams end before the cut. A variant is short for an engine when one of
those pages (not just their number) is missing from what the engine read.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from tests.damage import chars, chars_per_page, content_ends, flipped, pages_read, pdfium_texts  # noqa: E402

# the shared fixtures sit beside the main checkout, two levels up from a helper's worktree
FIXTURES = next(
    (root / "shared" / "fixtures" / "arxiv" for root in REPO_ROOT.parents[:2] if (root / "shared").is_dir()),
    REPO_ROOT.parent / "shared" / "fixtures" / "arxiv",
)
DEFAULT_DIRS = [FIXTURES / "pdf", FIXTURES / "real" / "pdf", FIXTURES / "real" / "compiled_pdf_MADE_HERE"]
CUTS = (0.3, 0.5, 0.7, 0.9)
FLIPS = (1, 10, 100)
FILE_TIMEOUT = 900
ENGINES = ("pypdf", "auto")  # the plain install, and the `fast` extra's default


def variants(data: bytes, seed: int) -> dict[str, bytes]:
    """The damaged copies of `data`: cut short, or bytes of its body replaced (never the header)."""
    out = {f"cut {int(cut * 100)}%": data[: int(len(data) * cut)] for cut in CUTS} if seed == 0 else {}
    for count in FLIPS:
        out[f"flip {count}"] = flipped(data, count, seed)
    return out


def our_pages(data: bytes, engine: str) -> tuple[list[int], float, str]:
    """Characters per page of our text, the CPU seconds it took, and its error (if any)."""
    from arxiv_mcp.errors import ExtractionError
    from arxiv_mcp.text.pdf import pdf_to_text

    started = time.process_time()
    try:
        text = pdf_to_text(data, engine=engine, deadline=time.monotonic() + 120)
    except ExtractionError as exc:
        return [], time.process_time() - started, str(exc)[:100]
    return chars_per_page(text), time.process_time() - started, ""


def _read(counts: list[int], intact: list[int]) -> list[int]:
    return sorted(pages_read(counts, intact))


def pdfium_counts(texts: list[str], intact: list[str]) -> list[int]:
    """Characters bare pdfium reads on each page that count (see the docstring): those of its
    words found on that page intact, or 0 when they are under half its characters."""
    counts = []
    for index, text in enumerate(texts):
        words = set(intact[index].split()) if index < len(intact) else set()
        genuine = sum(len(word) for word in text.split() if word in words)
        counts.append(genuine if 2 * genuine >= chars(text) else 0)
    return counts


def one_file(path: Path, seeds: int) -> list[dict]:
    import logging

    logging.disable(logging.CRITICAL)
    data = path.read_bytes()
    intact_texts = pdfium_texts(data)
    intact = [chars(text) for text in intact_texts]
    ends = content_ends(data)
    rows = []
    for seed in range(seeds):
        for name, damaged in variants(data, seed).items():
            row: dict = {"file": path.name, "variant": name, "seed": seed, "pages": sum(c >= 20 for c in intact)}
            row["pdfium_bare"] = _read(pdfium_counts(pdfium_texts(damaged), intact_texts), intact)
            row["before_cut"] = [
                index
                for index, (end, want) in enumerate(zip(ends, intact))
                if want >= 20 and (0 < end < len(damaged) or not name.startswith("cut"))
            ]
            for engine in ENGINES:
                counts, seconds, error = our_pages(damaged, engine)
                row[engine], row[f"{engine}_cpu"], row[f"{engine}_error"] = _read(counts, intact), seconds, error
            rows.append(row)
            print(json.dumps(row), flush=True)
    return rows


def _run_file(path: Path, seeds: int) -> list[dict]:
    command = [sys.executable, __file__, "--one", str(path), "--seeds", str(seeds)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=FILE_TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        print(f"{path.name}: TIMED OUT after {FILE_TIMEOUT} s", file=sys.stderr)
        return []
    if done.returncode:
        print(f"{path.name}: exit {done.returncode}: {done.stderr[-500:]}", file=sys.stderr)
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def _reference(row: dict) -> set[int]:
    """The pages an engine should read: bare pdfium's, and of a cut file every page before the cut."""
    return set(row["pdfium_bare"]) | (set(row["before_cut"]) if row["variant"].startswith("cut") else set())


def _missing(row: dict, engine: str) -> list[int]:
    """The pages (numbered from 1) the engine should read and did not."""
    return [index + 1 for index in sorted(_reference(row) - set(row[engine]))]


def report(rows: list[dict], detail: bool) -> None:
    pooled: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for row in rows:
        got = pooled[row["variant"]]
        got["pages"] += row["pages"]
        for key in ("before_cut", "pdfium_bare", *ENGINES):
            got[key] += len(row[key])
        got["variants"] += 1
        for engine in ENGINES:
            got[f"{engine}_short"] += bool(_missing(row, engine))
            got[f"{engine}_cpu_max"] = max(got[f"{engine}_cpu_max"], row[f"{engine}_cpu"])
    print(
        "| damage | variants | pages | pages before the cut | bare pdfium reads | ours, pypdf | ours, auto (fast) "
        "| variants short (pypdf / auto) | max CPU s (pypdf / auto) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for kind, got in pooled.items():
        print(
            f"| {kind} | {got['variants']:.0f} | {got['pages']:.0f} | "
            f"{got['before_cut']:.0f} | {got['pdfium_bare']:.0f} | {got['pypdf']:.0f} | {got['auto']:.0f} | "
            f"{got['pypdf_short']:.0f} / {got['auto_short']:.0f} | {got['pypdf_cpu_max']:.1f} / {got['auto_cpu_max']:.1f} |"
        )
    for engine in ENGINES if rows else ():
        slowest = max(rows, key=lambda row: row[f"{engine}_cpu"])
        print(f"slowest, {engine}: {slowest['file']} {slowest['variant']}: {slowest[f'{engine}_cpu']:.1f} s CPU")
    for row in rows if detail else []:
        if any(_missing(row, engine) for engine in ENGINES):
            print(
                f"  short: {row['file']} {row['variant']} seed {row['seed']}: want {len(_reference(row))} pages, "
                + ", ".join(
                    f"{engine} misses pages {_missing(row, engine)} {row[engine + '_error']!r}" for engine in ENGINES
                )
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="*", type=Path, default=DEFAULT_DIRS)
    parser.add_argument("--seeds", type=int, default=1, help="seeds per file for the bit flips")
    parser.add_argument("--detail", action="store_true", help="list each variant where an engine read fewer pages")
    parser.add_argument("--one", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        one_file(args.one, args.seeds)
        return
    rows = []
    for directory in args.dirs:
        for path in sorted(directory.glob("*.pdf")):
            started = time.monotonic()
            rows += _run_file(path, args.seeds)
            print(f"{path.name}: {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    report(rows, args.detail)


if __name__ == "__main__":
    main()
