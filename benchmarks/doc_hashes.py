"""Hashes of every corpus PDF's document, engine by engine: the fence for speed-path changes.

Usage: python benchmarks/doc_hashes.py [--out FILE] [--compare FILE] [--off NAMES] [dir ...]
(default directories: tests/fixtures/pdf and, when present, ../shared/fixtures/arxiv/pdf,
.../real/pdf and .../real/compiled_pdf_MADE_HERE).

Each line is `engine path sha256` of `pdf_to_document(data, engine=...).to_json()` (or of the
error's type and message). A change that only makes a path faster (a shortcut into a
dependency turned off, say) must leave every line as it was: `--compare` a saved run and it
prints the lines that differ and exits 1 when any does. `--off shared_fonts`
(or `--off all`) turns those shortcuts of the compat modules off for the run.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from arxiv_mcp.text.pdf import pdf_to_document, pdfium_compat, pypdf_compat  # noqa: E402

# the shared fixtures beside the checkout (a worktree sits one level deeper)
SHARED = next(
    (up / "shared" / "fixtures" / "arxiv" for up in REPO_ROOT.parents if (up / "shared" / "fixtures").is_dir()),
    REPO_ROOT.parent / "shared" / "fixtures" / "arxiv",
)
DEFAULT_DIRS = [
    REPO_ROOT / "tests" / "fixtures" / "pdf",
    SHARED / "pdf",
    SHARED / "real" / "pdf",
    SHARED / "real" / "compiled_pdf_MADE_HERE",
]
ENGINES = ("pypdf", "pdfium", "auto")


def document_hash(data: bytes, engine: str) -> str:
    try:
        text = pdf_to_document(data, engine=engine).to_json()
    except Exception as exc:  # the error is part of what the file gives
        text = f"{type(exc).__name__}: {exc}"
    if not isinstance(text, str):
        text = json.dumps(text, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def corpus(dirs: list[Path]) -> list[Path]:
    return [path for folder in dirs if folder.is_dir() for path in sorted(folder.glob("*.pdf"))]


def hashes(dirs: list[Path]) -> list[str]:
    lines = []
    for path in corpus(dirs):
        data = path.read_bytes()
        name = path.relative_to(REPO_ROOT) if REPO_ROOT in path.parents else path.relative_to(SHARED.parent.parent)
        for engine in ENGINES:
            lines.append(f"{engine} {name} {document_hash(data, engine)}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="*", type=Path)
    parser.add_argument("--out", type=Path, help="write the lines here")
    parser.add_argument("--compare", type=Path, help="a saved run: print the lines that differ")
    parser.add_argument("--off", default="", help="shortcuts to turn off, comma-separated, or 'all'")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)  # pypdf's warnings about odd fonts would drown the lines
    off = {name for name in args.off.split(",") if name}
    for module in (pypdf_compat, pdfium_compat):
        module.SHORTCUTS = frozenset() if "all" in off else module.SHORTCUTS - off
    lines = hashes([path.resolve() for path in args.dirs] or DEFAULT_DIRS)
    if args.out:
        args.out.write_text("\n".join(lines) + "\n")
    if args.compare is None:
        print("\n".join(lines))
        return 0
    before = args.compare.read_text().splitlines()
    differ = [f"- {old}\n+ {new}" for old, new in zip(before, lines) if old != new]
    if len(before) != len(lines):
        differ.append(f"{len(before)} lines before, {len(lines)} now")
    print("\n".join(differ) or f"all {len(lines)} documents identical")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
