"""Gather the real arXiv files behind the text-quality figures from benchmarks/corpus/MANIFEST.json.

    python benchmarks/gather_corpus.py OUT_DIR [--set developer|unseen-pdf|unseen-source] [--mirror DIR]

Each manifest entry names a file in a public repository: `repo`, `path`, `commit`, `bytes`,
`sha256`. The file is read at exactly that commit, from raw.githubusercontent.com or, with
`--mirror DIR`, from local git clones laid out as `DIR/<owner>+<name>/repo` (what the project's
research tools fetch), and kept only when its size and sha256 match; a file already in OUT_DIR
with the right hash is not fetched again. Then, for example:
`python benchmarks/text_quality.py --dir OUT_DIR/unseen/pdf --engine pypdf`.
Exit status 1 when any file could not be gathered or did not match.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

MANIFEST = Path(__file__).resolve().parent / "corpus" / "MANIFEST.json"
RAW_URL = "https://raw.githubusercontent.com/{repo}/{commit}/{path}"
FIELDS = ("file", "set", "repo", "path", "commit", "bytes", "sha256")


def entries(manifest: Path = MANIFEST) -> list[dict[str, Any]]:
    """The manifest's files, each checked to carry every field and a name that stays inside OUT_DIR."""
    files = json.loads(manifest.read_text(encoding="utf-8"))["files"]
    for entry in files:
        missing = [name for name in FIELDS if name not in entry]
        if missing:
            raise ValueError(f"{entry.get('file')}: no {', '.join(missing)}")
        if entry["file"].startswith("/") or ".." in Path(entry["file"]).parts:
            raise ValueError(f"{entry['file']}: not a relative path inside the output folder")
    return files


def fetch(entry: dict[str, Any], mirror: Path | None) -> bytes:
    """The file's bytes at its commit: from a local clone under `mirror`, else over HTTPS."""
    if mirror is not None:
        clone = mirror / entry["repo"].replace("/", "+") / "repo"
        shown = subprocess.run(
            ["git", "-C", str(clone), "show", f"{entry['commit']}:{entry['path']}"], capture_output=True, check=False
        )
        if shown.returncode != 0:
            raise OSError(shown.stderr.decode(errors="replace").strip() or f"git show failed in {clone}")
        return shown.stdout
    with urllib.request.urlopen(RAW_URL.format(**entry), timeout=60) as answer:  # noqa: S310 (a fixed https URL)
        data: bytes = answer.read()
    return data


def matches(data: bytes, entry: dict[str, Any]) -> bool:
    return len(data) == entry["bytes"] and hashlib.sha256(data).hexdigest() == entry["sha256"]


def gather(out: Path, files: list[dict[str, Any]], mirror: Path | None) -> list[str]:
    """Write every file of `files` under `out`; the problems met, one line each."""
    problems = []
    for entry in files:
        target = out / entry["file"]
        if target.is_file() and matches(target.read_bytes(), entry):
            continue
        try:
            data = fetch(entry, mirror)
        except OSError as exc:
            problems.append(f"{entry['file']}: not gathered ({exc})")
            continue
        if not matches(data, entry):
            problems.append(f"{entry['file']}: {len(data)} bytes whose sha256 is not the manifest's")
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the folder to gather into")
    parser.add_argument("--set", dest="subset", help="only this set of the manifest")
    parser.add_argument("--mirror", type=Path, help="local clones as DIR/<owner>+<name>/repo, instead of HTTPS")
    parser.add_argument("--manifest", type=Path, default=MANIFEST)
    args = parser.parse_args(argv)
    files = [e for e in entries(args.manifest) if args.subset in (None, e["set"])]
    problems = gather(args.out, files, args.mirror)
    for line in problems:
        print(line, file=sys.stderr)
    print(f"{len(files) - len(problems)} of {len(files)} files in {args.out}, each matching its sha256")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
