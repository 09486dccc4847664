"""resolve_references: requests and time for 50 ids and for 50 free-text entries, cold and
warm, and the verdict figures of the acceptance on generated references (issue 30).

Runs a real server process (`python -m arxiv_mcp`) over stdio against the fake arXiv with
arXiv's 3-second spacing (`--interval`), so the times are what a client waits. Usage:
`python -m benchmarks.resolve_references [--interval 3] [--seeds 3]`. Each workload is
called until every reference is checked (a call keeps the 120 s deadline and lists what it
left in `not_checked`; the next call asks only for those), then once more, whole.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import anyio  # noqa: E402
from mcp.client import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters  # noqa: E402

from tests.citation_generator import cite, references, synthetic_corpus  # noqa: E402
from tests.fake_arxiv import FakeArxiv  # noqa: E402
from tests.reference_papers import reference_papers  # noqa: E402


async def _call(client: Client, refs: list[str]) -> tuple[dict, float]:
    t0 = time.perf_counter()
    answer = await client.call_tool("resolve_references", {"references": refs})
    return answer.structured_content or {}, time.perf_counter() - t0


def _server(env: dict[str, str]) -> Client:
    import os

    return Client(StdioServerParameters(command=sys.executable, args=["-m", "arxiv_mcp"], env={**os.environ, **env}))


async def economy(interval: float) -> None:
    import random

    corpus = reference_papers() + synthetic_corpus(80)
    rng = random.Random(5)
    ids = [p.id for p in corpus[:50]]
    free = [cite(rng, p, rng.choice(("apa", "ieee", "acm", "chicago", "bibtex"))) for p in corpus[50:100]]
    with FakeArxiv(corpus) as fake, tempfile.TemporaryDirectory() as home:
        env = {**fake.env(), "ARXIV_MCP_HOME": home, "ARXIV_MCP_MIN_INTERVAL_S": str(interval)}
        async with _server(env) as server:
            print(f"| what (arXiv spacing {interval:g} s) | requests | seconds | verdicts |")
            print("|---|---|---|---|")
            for name, refs in (("50 ids", ids), ("50 free-text entries", free)):
                run, asked = 1, refs
                while True:
                    got, took = await _call(server, asked)
                    print(
                        f"| {name}, call {run} ({len(asked)} asked) | {got['requests']} | {took:.1f} | {got['summary']} |"
                    )
                    if not got["not_checked"] and len(asked) == len(refs) and run > 1:
                        break
                    asked = got["not_checked"] or refs
                    run += 1
        env["ARXIV_MCP_DEADLINE_S"] = "20"
        for wait in ("30", "5"):
            fake.clear_faults()
            fake.fault("/api", "status", times=1000, status=503, retry_after=wait)
            async with _server({**env, "ARXIV_MCP_HOME": f"{home}/throttled{wait}"}) as server:
                got, took = await _call(server, free[:10])
            print(
                f"| 10 free-text entries, arXiv answering 503 + Retry-After: {wait}, deadline 20 s | "
                f"{got['requests']} | {took:.1f} | {got['summary']} |"
            )


async def verdicts(seeds: int) -> None:
    corpus = reference_papers() + synthetic_corpus(80)
    print("\n| seed | references | fabricated exact/likely | clean right | mismatches caught | precision |")
    print("|---|---|---|---|---|---|")
    with FakeArxiv(corpus) as fake, tempfile.TemporaryDirectory() as home:
        env = {**fake.env(), "ARXIV_MCP_HOME": home}
        async with _server(env) as server:
            for seed in range(1, seeds + 1):
                refs = references(corpus, 260, seed=100 + seed)
                items: list[dict] = []
                for start in range(0, len(refs), 100):
                    items += (await _call(server, [r.text for r in refs[start : start + 100]]))[0]["items"]
                pairs = list(zip(refs, items, strict=True))
                trusted = [(r, i) for r, i in pairs if i["verdict"] in ("exact", "likely")]
                fab = sum(1 for r, _ in trusted if r.kind == "fabricated")
                clean = [(r, i) for r, i in pairs if r.kind == "clean"]
                right = sum(1 for r, i in clean if (r, i) in trusted and i["arxiv_id"] == r.arxiv_id)
                mism = [(r, i) for r, i in pairs if r.kind == "mismatch"]
                caught = sum(1 for r, i in mism if i["verdict"] == "mismatch")
                good = sum(1 for r, i in trusted if r.kind in ("clean", "perturbed") and i["arxiv_id"] == r.arxiv_id)
                print(
                    f"| {100 + seed} | {len(refs)} | {fab} | {right}/{len(clean)} | {caught}/{len(mism)} "
                    f"| {good}/{len(trusted)} = {good / max(1, len(trusted)):.3f} |"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--interval", type=float, default=3.0, help="seconds between requests (arXiv: 3)")
    parser.add_argument("--seeds", type=int, default=3, help="generated reference sets to score")
    args = parser.parse_args()
    anyio.run(economy, args.interval)
    anyio.run(verdicts, args.seeds)


if __name__ == "__main__":
    main()
