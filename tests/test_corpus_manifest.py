"""benchmarks/corpus/MANIFEST.json names real files that gather_corpus.py can fetch and check."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess

import pytest

from benchmarks import gather_corpus


def test_every_entry_names_a_commit_a_size_and_a_sha256_once():
    files = gather_corpus.entries()
    assert files and len({e["file"] for e in files}) == len(files)
    for entry in files:
        assert re.fullmatch(r"[0-9a-f]{40}", entry["commit"]) and re.fullmatch(r"[0-9a-f]{64}", entry["sha256"])
        assert entry["bytes"] > 0 and re.fullmatch(r"[\w.-]+/[\w.-]+", entry["repo"])
    assert {e["set"] for e in files} == {"developer", "latex-truth", "unseen-pdf", "unseen-source"}


def test_a_name_outside_the_output_folder_is_refused(tmp_path):
    manifest = tmp_path / "MANIFEST.json"
    entry = dict.fromkeys(gather_corpus.FIELDS, "x") | {"file": "../escape.pdf"}
    manifest.write_text(json.dumps({"files": [entry]}))
    with pytest.raises(ValueError, match="inside the output folder"):
        gather_corpus.entries(manifest)


def test_gathered_from_a_clone_at_its_commit_and_checked(tmp_path):
    clone = tmp_path / "mirror" / "owner+name" / "repo"
    clone.mkdir(parents=True)
    body = b"%PDF-1.4 a stand-in for a paper\n"

    def git(*args: str) -> str:
        done = subprocess.run(["git", "-C", str(clone), *args], capture_output=True, text=True, check=True)
        return done.stdout.strip()

    git("init", "-q")
    (clone / "tests").mkdir()
    (clone / "tests" / "paper.pdf").write_bytes(body)
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "fixture")
    commit = git("rev-parse", "HEAD")
    good = {"file": "unseen/pdf/paper.pdf", "set": "unseen-pdf", "repo": "owner/name", "path": "tests/paper.pdf"}
    good |= {"commit": commit, "bytes": len(body), "sha256": hashlib.sha256(body).hexdigest()}
    bad = good | {"file": "unseen/pdf/other.pdf", "sha256": "0" * 64}
    problems = gather_corpus.gather(tmp_path / "out", [good, bad], tmp_path / "mirror")
    assert (tmp_path / "out" / "unseen" / "pdf" / "paper.pdf").read_bytes() == body
    assert problems == ["unseen/pdf/other.pdf: 32 bytes whose sha256 is not the manifest's"]
    assert not (tmp_path / "out" / "unseen" / "pdf" / "other.pdf").exists()
