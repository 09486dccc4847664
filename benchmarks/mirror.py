"""The local mirror's figures (issue 31): search at 100,000 records against a cached page read,
start-up with a mirror configured against without, harvest pages per minute against arXiv's
limit (20), and database bytes per record.

`python -m benchmarks.mirror [--records 100000] [--runs 10]` from the repository root. The
records are synthetic (a fixed seed: titles of four topic words, ~1,000-character abstracts
of Zipf-distributed pseudo-words with the paper's topic words among them, 1-3 versions, a primary category and cross-lists among ten cs and stat
categories, five years of dates), stored through `MirrorStore.store_page` in pages of 2,500
(arXiv's page size). Searches and the cached page read run in one process through the
service, interleaved; start-up runs real server processes over stdio, alternating; the
harvest runs against the fake's OAI-PMH at the real 3 s spacing.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from benchmarks.run import PAGE_SIZE, PAPER_HTML, bench_papers, ours, server_env  # noqa: E402
from tests.fake_arxiv import FakeArxiv, FakePaper  # noqa: E402

CATEGORIES = ["cs.LG", "cs.CL", "cs.CV", "cs.AI", "cs.RO", "cs.IR", "cs.NE", "cs.CR", "stat.ML", "stat.ME"]
TOPICS = (
    "graph neural network transformer attention diffusion model reinforcement learning policy gradient "
    "language model retrieval augmented generation vision segmentation detection robot manipulation "
    "federated privacy adversarial robustness contrastive representation kernel bayesian inference "
    "optimization convergence stochastic gradient descent sparse pruning quantization benchmark dataset"
).split()
SYLLABLES = "ka lo mi ter pra sen do vi gra tion ment al ic ous ble re con de ex in".split()
VOCABULARY = [a + b + c for a in SYLLABLES for b in SYLLABLES for c in SYLLABLES][:20_000]
"""Pseudo-words drawn by Zipf's law (the k-th with weight 1/k), as words of real text are: a
few are everywhere, most are rare; the topic words then match a few percent of the papers,
as real queries do, not most of them."""
FIRST = (
    "Ada Alan Grace Emmy Kurt Sofia John Maria Wei Priya Kenji Amara Lars Ines Omar Yuki Chen Ravi Lena Tomás".split()
)
LAST = [a.capitalize() + b for a in SYLLABLES for b in ("son", "er", "ova", "ez", "ström", "wala", "ski")] + ["Hopper"]
NAMES = [f"{f} {last}" for f in FIRST for last in LAST]
"""About 3,000 names, so one author's papers are a few dozen, as in a real field."""
QUERIES = [
    {"query": "graph neural network", "category": "cs.LG"},
    {"query": "transformer attention", "category": "cs.CL", "sort_by": "submittedDate"},
    {"title": "diffusion", "category": "cs.CV"},
    {"author": "Grace Hopper", "category": "cs.LG", "sort_by": "lastUpdatedDate"},
    {"category": "cs.LG", "date_from": "2024-01-01", "date_to": "2024-03-31", "sort_by": "submittedDate"},
    {"query": '"reinforcement learning" -robot', "category": "cs.LG"},
    {"query": "ti:kernel AND abs:bayesian", "category": "cs.AI"},
    {"query": "privacy", "category": "cs.CR,cs.LG", "sort_order": "ascending", "sort_by": "submittedDate"},
]


def _records(count: int, seed: int = 7):
    from arxiv_mcp.upstream.oai import Record, Version

    rng = random.Random(seed)
    start = datetime(2021, 1, 1, tzinfo=UTC)
    weights = list(itertools.accumulate(1 / k for k in range(1, len(VOCABULARY) + 1)))
    for i in range(count):
        words = rng.sample(TOPICS, 4)
        title = " ".join(w.capitalize() for w in words[:3]) + f" for {words[3]}"
        filler = rng.choices(VOCABULARY, cum_weights=weights, k=150)
        abstract = " ".join(rng.choice(words) if rng.random() < 0.1 else w for w in filler)
        day = start + timedelta(minutes=rng.randrange(5 * 365 * 24 * 60))
        versions = [
            Version(
                k, (day + timedelta(days=30 * (k - 1))).strftime("%Y-%m-%dT%H:%M:%SZ"), f"{rng.randrange(50, 3000)}kb"
            )
            for k in range(1, rng.randint(1, 3) + 1)
        ]
        cats = [rng.choice(CATEGORIES[:8])] + rng.sample(CATEGORIES, rng.randint(0, 2))
        yield Record(
            id=f"{day:%y%m}.{i:05d}",
            datestamp=versions[-1].date[:10],
            sets=["cs:cs"],
            title=title,
            authors=rng.sample(NAMES, rng.randint(1, 4)),
            categories=list(dict.fromkeys(cats)),
            abstract=abstract,
            versions=versions,
            comments=f"{rng.randrange(4, 40)} pages",
        )


def build_mirror(home: Path, count: int) -> tuple[float, int]:
    """Store `count` records as a harvest would (pages of 2,500); (seconds, database bytes)."""
    from arxiv_mcp.mirror.store import MirrorStore

    store = MirrorStore(home)
    store.begin_set("cs:cs", "cs", None)
    started = time.perf_counter()
    page: list = []
    for record in _records(count):
        page.append(record)
        if len(page) == 2500:
            store.store_page("cs:cs", page, "more", "2026-12-07T00:00:00Z")
            page = []
    store.store_page("cs:cs", page, None, datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"))
    seconds = time.perf_counter() - started
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    size = store.size_bytes()
    store.close()
    return seconds, size


def search_against_page_read(fake: FakeArxiv, home: Path, runs: int) -> dict[str, float]:
    from arxiv_mcp.config import load
    from arxiv_mcp.service import ArxivService

    svc = ArxivService(load({**fake.env(), "ARXIV_MCP_HOME": str(home), "ARXIV_MCP_MIRROR": "cs"}))
    first = svc.read_paper(PAPER_HTML, 1, PAGE_SIZE)
    pages = first.total_pages
    searches: list[float] = []
    reads: list[float] = []
    per_query: dict[int, list[float]] = {i: [] for i in range(len(QUERIES))}
    for run in range(runs):
        for i, args in enumerate(QUERIES):
            t = time.perf_counter()
            found = svc.search(**args)
            elapsed = time.perf_counter() - t
            assert found.source == "mirror", found.note
            searches.append(elapsed)
            per_query[i].append(elapsed)
            t = time.perf_counter()
            svc.read_paper(PAPER_HTML, 1 + (run * len(QUERIES) + i) % pages, PAGE_SIZE)
            reads.append(time.perf_counter() - t)
    assert not fake.requests_to("/api"), "a mirrored search asked the API"
    for i, args in enumerate(QUERIES):
        hits = svc.search(**args).total_results
        print(f"  query {i + 1}: {args} -> {hits} hits, p50 {statistics.median(per_query[i]) * 1000:.1f} ms")
    svc.cache.close()
    return {"search": statistics.median(searches), "read": statistics.median(reads)}


def start_up(fake: FakeArxiv, scratch: Path, runs: int) -> dict[str, float]:
    """Spawn to `initialize` answered, with a mirror of three sets configured and without,
    alternating which goes first; medians of the wall time and of the server's CPU time (the
    same work, less moved by a loaded machine). The first start of each is not counted."""
    times: dict[str, list[float]] = {"without": [], "with": [], "without cpu": [], "with cpu": []}
    envs = {
        "without": server_env(fake, scratch / "start-without"),
        "with": server_env(fake, scratch / "start-with", ARXIV_MCP_MIRROR="cs.LG,math.CO,hep-th"),
    }
    for run in range(runs + 1):
        for name in ("with", "without") if run % 2 else ("without", "with"):
            with ours(envs[name]) as server:
                server.initialize()
                wall, cpu = time.perf_counter() - server.started, server.cpu_s()
                if run:
                    times[name].append(wall)
                    times[f"{name} cpu"].append(cpu)
    return {name: statistics.median(values) for name, values in times.items()}


def harvest_rate(scratch: Path, pages: int) -> float:
    """Pages per minute of a harvest at arXiv's 3 s spacing, against the fake's OAI-PMH."""
    from arxiv_mcp.config import load
    from arxiv_mcp.service import ArxivService

    papers = [
        FakePaper(
            id=f"2401.{i:05d}",
            title=f"Paper {i}",
            abstract="Words.",
            authors=["Ada Lovelace"],
            categories=["cs.LG"],
            published=datetime(2024, 1, 1, tzinfo=UTC) + timedelta(days=i),
        )
        for i in range(1, 2 * pages + 1)
    ]
    with FakeArxiv(papers) as fake:
        env = {**fake.env(), "ARXIV_MCP_HOME": str(scratch / "harvest"), "ARXIV_MCP_MIRROR": "cs.LG"}
        svc = ArxivService(load({**env, "ARXIV_MCP_MIN_INTERVAL_S": "3"}))
        svc.mirror_sync(("cs.LG",), due_only=False)
        arrivals = [r.t for r in fake.requests_to("/oai")]
        svc.cache.close()
    assert len(arrivals) == pages
    return (len(arrivals) - 1) / (arrivals[-1] - arrivals[0]) * 60


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=10, help="repetitions of each search and of each start-up")
    parser.add_argument("--pages", type=int, default=6, help="pages of the harvest measured at 3 s spacing")
    parser.add_argument("--only-start-up", action="store_true", help="the start-up figure alone")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp, FakeArxiv(bench_papers()) as fake:
        scratch = Path(tmp)
        if args.only_start_up:
            _print_start_up(start_up(fake, scratch, args.runs))
            return
        seconds, size = build_mirror(scratch / "home", args.records)
        print(f"stored {args.records:,} records in {seconds:.1f} s ({args.records / seconds:,.0f} records/s)")
        print(f"database: {size:,} bytes, {size / args.records:,.0f} bytes per record")
        timed = search_against_page_read(fake, scratch / "home", args.runs)
        print(
            f"mirrored search p50 at {args.records:,} records: {timed['search'] * 1000:.1f} ms (target <= 50 ms); "
            f"cached page read p50 {timed['read'] * 1000:.2f} ms; ratio {timed['search'] / timed['read']:.1f}x"
        )
        _print_start_up(start_up(fake, scratch, args.runs))
    rate = harvest_rate(Path(tempfile.mkdtemp()), args.pages)
    print(f"harvest: {rate:.2f} pages per minute at 3 s spacing (arXiv's limit: 20)")


def _print_start_up(boot: dict[str, float]) -> None:
    print(
        f"start-up to initialize answered: with a mirror {boot['with'] * 1000:.1f} ms, without "
        f"{boot['without'] * 1000:.1f} ms; ratio {boot['with'] / boot['without']:.3f}x (target <= 1.05x); "
        f"CPU {boot['with cpu'] * 1000:.1f} ms against {boot['without cpu'] * 1000:.1f} ms, "
        f"ratio {boot['with cpu'] / boot['without cpu']:.3f}x"
    )


if __name__ == "__main__":
    main()
