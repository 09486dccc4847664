"""A cache of N papers built by arxiv-mcp's own code, for the figures at scale in run.py.

`build(home, size)` fills a cache home the way the server does (Cache.put_meta, put_text),
without fsync to build quickly: every paper has metadata (a title, three authors, a
1,000-character abstract), one in five also an extracted text of about 30,000 characters
(issue 20's mix: 2,000 texts at 10,000 papers). Then it runs one search_cached-equivalent
search, which writes the library index beside the cache, as a server's first search would.
"""

from __future__ import annotations

import functools
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arxiv_mcp.cache import atomic  # noqa: E402
from arxiv_mcp.cache import tiers as cache_module  # noqa: E402
from arxiv_mcp.cache.store import Cache  # noqa: E402
from arxiv_mcp.ids import PaperId  # noqa: E402
from arxiv_mcp.research.library import Library  # noqa: E402

TEXT_EVERY = 5
TEXT_CHARS = 30_000


def _word(rng: random.Random) -> str:
    return "".join(rng.choice("abcdefghiklmnoprstuvwy") for _ in range(rng.randint(3, 10)))


_VOCABULARY = [_word(random.Random(n)) for n in range(20_000)]
QUERIES = [" ".join(_VOCABULARY[n] for n in picks) for picks in ((40, 900), (120, 2000, 7000), (15, 300), (600,))]
"""Queries of common, middling and rare words, as a person's would be."""


def _words(rng: random.Random, count: int) -> str:
    # Zipf-like: a few words are everywhere, most are rare, as in real papers.
    return " ".join(_VOCABULARY[min(int(rng.paretovariate(0.9)) - 1, len(_VOCABULARY) - 1)] for _ in range(count))


def paper_id(number: int) -> str:
    return f"{2000 + number // 100000 % 100:04d}.{number % 100000:05d}"


def record(rng: random.Random, number: int) -> dict:
    return {
        "id": paper_id(number),
        "title": _words(rng, 9).capitalize(),
        "authors": [{"name": f"Author {rng.randrange(5000)}"} for _ in range(3)],
        "abstract": _words(rng, 150),
        "categories": ["cs.LG", "stat.ML"],
    }


def build(home: Path, size: int, seed: int = 0) -> None:
    """Fill `home` with `size` papers and write its library index."""
    rng = random.Random(seed)
    durable_stage = cache_module.stage
    cache_module.stage = functools.partial(atomic.stage, durable=False)
    try:
        with Cache(home, max_papers=size + 1000, max_bytes=2**40) as cache:
            for number in range(size):
                cache.put_meta(PaperId(paper_id(number), 1), record(rng, number), latest=True)
                if number % TEXT_EVERY == 0:
                    text = _words(rng, TEXT_CHARS // 6)
                    cache.put_text(PaperId(paper_id(number), 1), text, method="html", extractor_version=1)
            Library(cache).search("model", 10)
    finally:
        cache_module.stage = durable_stage
