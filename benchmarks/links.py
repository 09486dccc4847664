"""Links found in real papers and Atom entries, against a truth written by reading the files.

Run: python benchmarks/links.py [--fixtures DIR] [--verbose]

Reads every paper of /work/shared/fixtures/arxiv (html/, html/oxide/, src/, pdf/, real/) the
way read_paper does (text.extract), lists its URLs (text.links.document_links) and compares
them with benchmarks/links_truth.json; does the same for the code/data/model/project links
get_paper lists from every Atom entry of atom/ (text.links.metadata_links). Prints recall,
precision and how often the kind is right, per document and in all. How the truth was made:
benchmarks/links_truth.md.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arxiv_mcp.text.extract import extract  # noqa: E402
from arxiv_mcp.text.links import document_links, metadata_links  # noqa: E402
from arxiv_mcp.upstream.atom import parse_feed  # noqa: E402

FIXTURES = Path("/work/shared/fixtures/arxiv")
TRUTH = Path(__file__).with_name("links_truth.json")
_ID_RE = re.compile(r"(\d{4}\.\d{4,5})")


def key(url: str) -> str:
    """A URL as compared: scheme, `www.`, a trailing slash, a repository's `.git` and an
    anchor inside the page (`#readme`) aside, the host in lower case."""
    full = url if "://" in url else "http://" + url
    parts = urlsplit(full)
    host = (parts.hostname or "").removeprefix("www.")
    rest = full.split("://", 1)[1]
    rest = rest[rest.find("/") :] if "/" in rest else ""
    rest, _, fragment = rest.partition("#")
    if fragment.startswith(("/", "!")):  # a one-page site's route names another page
        rest += "#" + fragment
    return (host + rest).rstrip("/").removesuffix(".git").rstrip("/")


def score(found: dict[str, str], truth: dict[str, str]) -> tuple[int, int, int, int, int, int]:
    """(true positives, found, truth, kind right among the true positives, truth links not
    "other", kind right among those)."""
    got = {key(u): k for u, k in found.items()}
    want = {key(u): k for u, k in truth.items()}
    hits = got.keys() & want.keys()
    kinds = sum(got[h] == want[h] for h in hits)
    special = [h for h in want if want[h] != "other"]
    special_right = sum(got.get(h) == want[h] for h in special)
    return len(hits), len(got), len(want), kinds, len(special), special_right


def documents(fixtures: Path, truth: dict, verbose: bool) -> list[int]:
    totals = [0] * 6
    for doc in truth["documents"]:
        raw = (fixtures / doc["file"]).read_bytes()
        own = _ID_RE.search(doc["file"])
        try:
            found = {
                link.url: link.kind for link in document_links(extract(doc["form"], raw), own.group(1) if own else None)
            }
        except Exception as exc:  # noqa: BLE001 - a paper the extractors refuse (a stub page) states no link
            found = {}
            if verbose:
                print(f"  ({doc['file']}: {exc})")
        counts = score(found, doc["links"])
        totals = [a + b for a, b in zip(totals, counts)]
        if verbose or counts[0] != counts[1] or counts[0] != counts[2]:
            _report(doc["file"], counts, found, doc["links"], verbose)
    return totals


def _report(name: str, counts: tuple[int, ...], found: dict[str, str], truth: dict[str, str], verbose: bool) -> None:
    tp, n_found, n_truth = counts[:3]
    print(f"  {name}: {tp}/{n_truth} found, {n_found - tp} extra")
    if verbose:
        want = {key(u) for u in truth}
        got = {key(u) for u in found}
        for url in sorted(got - want):
            print(f"    extra: {url}")
        for url in sorted(want - got):
            print(f"    missed: {url}")


def atom(fixtures: Path, truth: dict) -> list[int]:
    wanted = {entry["id"]: entry["links"] for entry in truth["atom"]}
    seen: set[str] = set()
    totals = [0] * 6
    for path in sorted((fixtures / "atom").glob("*.xml")):
        try:
            feed = parse_feed(path.read_bytes())
        except Exception:  # noqa: BLE001 - the error feeds hold no paper
            continue
        for paper in feed.papers:
            if paper.id in seen:
                continue
            seen.add(paper.id)
            found = {link.url: link.kind for link in metadata_links(paper.abstract, paper.comment, paper.id)}
            counts = score(found, wanted.get(paper.id, {}))
            totals = [a + b for a, b in zip(totals, counts)]
            if counts[0] != counts[1] or counts[0] != counts[2]:
                print(f"  atom {paper.id}: found {sorted(found.items())}, truth {wanted.get(paper.id, {})}")
    print(f"  ({len(seen)} Atom entries read)")
    return totals


def line(name: str, totals: list[int]) -> str:
    tp, found, want, kinds, special, special_right = totals
    recall = tp / want if want else 1.0
    precision = tp / found if found else 1.0
    kind = kinds / tp if tp else 1.0
    named = special_right / special if special else 1.0
    return (
        f"{name}: recall {recall:.3f} ({tp}/{want}), precision {precision:.3f} ({tp}/{found}), "
        f"kind right {kind:.3f} ({kinds}/{tp}); code/data/model/project links found with their kind "
        f"{named:.3f} ({special_right}/{special})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixtures", type=Path, default=FIXTURES)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    truth = json.loads(TRUTH.read_text(encoding="utf-8"))
    papers = documents(args.fixtures, truth, args.verbose)
    entries = atom(args.fixtures, truth)
    print(line(f"papers ({len(truth['documents'])} files)", papers))
    print(line("Atom entries (get_paper's links)", entries))
    print(line("all", [a + b for a, b in zip(papers, entries)]))


if __name__ == "__main__":
    main()
