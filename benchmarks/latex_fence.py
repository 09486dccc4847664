"""The LaTeX fence: hash what the converter makes of every LaTeX source at hand, to show a
refactor changes nothing (or to list exactly what it changes).

    python benchmarks/latex_fence.py record FILE.json [--shared DIR] [--inputs FILE.pkl]
    python benchmarks/latex_fence.py compare FILE.json [--shared DIR] [--inputs FILE.pkl] [--show DIR]
    python benchmarks/latex_fence.py dump DIR [--shared DIR] [--inputs FILE.pkl]

Sources: the e-prints of `tests/fixtures/src/` and `<shared>/fixtures/arxiv/{src,real/src}/`
(<shared> as in text_quality.py), plus, with --inputs, every source the tests convert: run

    LATEX_FENCE_INPUTS=FILE.pkl python -m pytest -p benchmarks.latex_fence tests/test_latex_*.py

to record them (this module is also a pytest plugin that wraps `latex_to_document`). Each
source's text and document JSON (or its error) is hashed with sha256; `compare` lists the
sources whose hash changed, and with --show writes their new output there to diff by hand;
`dump` writes every source's output to DIR (one file each), so two checkouts' dumps can be
compared with `diff -r`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.append(str(REPO_ROOT))

from benchmarks.text_quality import shared_dir  # noqa: E402

_SEEN: list[tuple[dict[str, bytes], tuple[str, ...]]] = []


def pytest_configure(config: Any) -> None:
    """As a pytest plugin: record every source handed to `latex_to_document`."""
    import arxiv_mcp.text.latex.convert as convert

    original = convert.latex_to_document

    def recording(files: dict[str, bytes], *args: Any, **kwargs: Any) -> Any:
        _SEEN.append((dict(files), tuple(kwargs.get("members", ()))))
        return original(files, *args, **kwargs)

    convert.latex_to_document = recording


def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
    out = Path(os.environ.get("LATEX_FENCE_INPUTS", "latex-fence-inputs.pkl"))
    kept = pickle.loads(out.read_bytes()) if out.exists() else []
    known = {_key(files) for files, _ in kept}
    kept += [(files, members) for files, members in _SEEN if _key(files) not in known]
    out.write_bytes(pickle.dumps(kept))


def _key(files: dict[str, bytes]) -> str:
    return hashlib.sha256(pickle.dumps(sorted(files.items()))).hexdigest()


def outputs(shared: Path, inputs: Path | None) -> Iterator[tuple[str, str]]:
    """(label, text + document JSON or the error) of every source."""
    from arxiv_mcp.text.archive import read_source
    from arxiv_mcp.text.latex.convert import bundle_to_document, latex_to_document

    folders = [REPO_ROOT / "tests/fixtures/src", shared / "fixtures/arxiv/src", shared / "fixtures/arxiv/real/src"]
    for folder in folders:
        for path in sorted(folder.iterdir()) if folder.is_dir() else []:
            try:
                document = bundle_to_document(read_source(path.read_bytes()))
                yield f"{folder.parent.name}/{folder.name}/{path.name}", document.text + "\0" + document.to_json()
            except Exception as exc:
                yield f"{folder.parent.name}/{folder.name}/{path.name}", f"ERROR {type(exc).__name__}: {exc}"
    for files, members in pickle.loads(inputs.read_bytes()) if inputs else []:
        try:
            document = latex_to_document(files, members=members)
            yield f"test-source-{_key(files)[:12]}", document.text + "\0" + document.to_json()
        except Exception as exc:
            yield f"test-source-{_key(files)[:12]}", f"ERROR {type(exc).__name__}: {exc}"


def _readable(out: str) -> str:
    """The text, then the document JSON one field a line, so `diff` shows what changed."""
    text, _, document = out.partition("\0")
    return text + ("\n=== document ===\n" + json.dumps(json.loads(document), indent=1) if document else "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=("record", "compare", "dump"))
    parser.add_argument("hashes", type=Path, help="the hashes' file (record, compare) or the dump's folder")
    parser.add_argument("--shared", help="the shared/ directory (default: see text_quality.py)")
    parser.add_argument("--inputs", type=Path, help="the sources the tests convert, recorded as above")
    parser.add_argument("--show", type=Path, help="with compare: write the changed outputs here")
    args = parser.parse_args()
    made = {
        label: (hashlib.sha256(out.encode("utf-8", "surrogatepass")).hexdigest(), out)
        for label, out in outputs(shared_dir(args.shared), args.inputs)
    }
    if args.mode == "dump":
        args.hashes.mkdir(parents=True, exist_ok=True)
        for label, (_, out) in made.items():
            (args.hashes / label.replace("/", "_")).write_text(_readable(out), encoding="utf-8", errors="surrogatepass")
        print(f"{len(made)} sources dumped")
        return 0
    if args.mode == "record":
        args.hashes.write_text(json.dumps({label: digest for label, (digest, _) in made.items()}, indent=1))
        print(f"{len(made)} sources recorded")
        return 0
    before = json.loads(args.hashes.read_text())
    changed = [label for label in before if label in made and made[label][0] != before[label]]
    print(f"{len(made)} sources; changed: {len(changed)}; new: {len(set(made) - set(before))}")
    for label in changed:
        print("  " + label)
        if args.show:
            args.show.mkdir(parents=True, exist_ok=True)
            (args.show / label.replace("/", "_")).write_text(made[label][1], encoding="utf-8", errors="surrogatepass")
    return 1 if changed else 0


if __name__ == "__main__":
    raise SystemExit(main())
