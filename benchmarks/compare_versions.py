"""compare_versions of two cached versions of a long paper, against a cached page read of both.

Run: python benchmarks/compare_versions.py [--rounds N] [--fixtures DIR]

The paper: DeepSeek-V3's LaTeX e-print (docling_2412.19437 of the shared fixtures: 53 pages as
compiled, 138 K characters of text) as v1; v2 is the same source with a section added before
the conclusion, a sentence reworded and a number changed. Both versions' documents and
metadata are put in a fresh cache (upstream pointing nowhere: no request can be made), then,
in process and in turn for N rounds (least times, wall clock and CPU time of the process: on a
shared machine the median measures the neighbours, and the CPU time less so), it times:
- a cached page read of both: read_paper(v1) + read_paper(v2), page 1, as in a fresh process
  (nothing the service or reading.py keeps: each text decoded from the cached JSON), what issue
  33 compares with; the cache's memo of the file bodies read last (cache/readmemo.py) is kept,
  as benchmarks/structure.py keeps it;
- compare_versions(v1, v2) the same way (each version read from the JSON);
- compare_versions repeated (what the service keeps, kept);
- both firsts again with the cache's file memo emptied too: a fresh process's first reads,
  which read, check and decode each file;
- the same for v1 against an identical v2.
"""

from __future__ import annotations

import argparse
import io
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arxiv_mcp import reading  # noqa: E402
from arxiv_mcp.cache.readmemo import ReadMemo  # noqa: E402
from arxiv_mcp.config import load  # noqa: E402
from arxiv_mcp.ids import PaperId  # noqa: E402
from arxiv_mcp.rereads import PAGES_KEPT, TEXTS_KEPT, Rereads  # noqa: E402
from arxiv_mcp.research import textdiff  # noqa: E402
from arxiv_mcp.service import ArxivService  # noqa: E402
from arxiv_mcp.text import selectors  # noqa: E402
from arxiv_mcp.text.extract import EXTRACTOR_VERSION, TextSource, extract  # noqa: E402

FIXTURES = Path("/work/shared/fixtures/arxiv")
SOURCE = "real/src/docling_2412.19437.tar"
PID = "2412.19437"
_EDITS = (
    (
        "\\section{Conclusion, Limitations, and Future Directions}",
        "\\section{Discussion}\nThis version adds a short discussion of the results before the conclusion, "
        "as the reviewers asked.\n\n\\section{Conclusion, Limitations, and Future Directions}",
    ),
    ("671B", "685B"),
)


def _sources(fixtures: Path) -> tuple[bytes, bytes]:
    """The e-print as it is, and as v2: one tar, the main file edited."""
    raw = (fixtures / SOURCE).read_bytes()
    out = io.BytesIO()
    with tarfile.open(fileobj=io.BytesIO(raw)) as tar, tarfile.open(fileobj=out, mode="w") as edited:
        for member in tar.getmembers():
            data = tar.extractfile(member).read() if member.isfile() else None  # type: ignore[union-attr]
            if member.name.endswith("main.tex") and data is not None:
                text = data.decode("utf-8")
                for old, new in _EDITS:
                    text = text.replace(old, new, 1)
                data = text.encode("utf-8")
                member.size = len(data)
            edited.addfile(member, io.BytesIO(data) if data is not None else None)
    return raw, out.getvalue()


def _service(home: str, v1: bytes, v2: bytes) -> ArxivService:
    env = {"ARXIV_MCP_HOME": home, "ARXIV_MCP_API_URL": "http://127.0.0.1:9/api/query"}
    env |= {"ARXIV_MCP_SITE_URL": "http://127.0.0.1:9", "ARXIV_MCP_S2_URL": "http://127.0.0.1:9/s2"}
    service = ArxivService(load(env))
    for version, raw in ((1, v1), (2, v2)):
        doc = extract(TextSource.SOURCE, raw)
        service.cache.put_text(
            PaperId(PID, version), doc.to_json(), method=TextSource.SOURCE, extractor_version=EXTRACTOR_VERSION
        )
        meta = {
            "id": PID,
            "version": version,
            "title": "DeepSeek-V3 Technical Report",
            "abstract": "We present DeepSeek-V3.",
            "authors": [{"name": "DeepSeek-AI", "affiliations": []}],
            "categories": ["cs.CL"],
            "primary_category": "cs.CL",
            "published": "2024-12-27T00:00:00Z",
            "updated": f"2025-0{version}-18T00:00:00Z",
        }
        service.cache.put_meta(PaperId(PID, version), meta, latest=version == 2)
    return service


Timed = tuple[Callable[[], object], Callable[[], object]]
"""What to do before a call (untimed: emptying the memos frees the last call's objects, which
would be counted against the next call), and the call."""


def _least(calls: list[Timed], rounds: int) -> list[tuple[float, float]]:
    """(wall, CPU) seconds of each call, the least of `rounds`."""
    least = [(float("inf"), float("inf"))] * len(calls)
    for _ in range(rounds):
        for index, (before, call) in enumerate(calls):
            before()
            start, cpu = time.perf_counter(), time.process_time()
            call()
            took = (time.perf_counter() - start, time.process_time() - cpu)
            least[index] = (min(least[index][0], took[0]), min(least[index][1], took[1]))
    return least


def _fresh(service: ArxivService, files: bool = False) -> None:
    """As in a fresh process: no document, text or answer kept in memory (`files`: nor the
    cache's memo of the file bodies read last)."""
    if files:
        service.cache._texts = ReadMemo()
    reading._PARSED.clear()
    reading._TEXTS.clear()
    selectors._KEPT.clear()
    textdiff._sentences.cache_clear()
    service.texts, service.pages = Rereads(service.cache, TEXTS_KEPT), Rereads(service.cache, PAGES_KEPT)


def measure(v1: bytes, v2: bytes, rounds: int) -> list[str]:
    with tempfile.TemporaryDirectory() as home:
        service = _service(home, v1, v2)
        chars = [len(service.read_paper(f"{PID}v{v}").text) for v in (1, 2)]
        total = service.read_paper(f"{PID}v1").total_chars

        def pages() -> None:
            service.read_paper(f"{PID}v1")
            service.read_paper(f"{PID}v2")

        def compare() -> None:
            service.compare_versions(PID, 1, 2)

        def fresh() -> None:
            _fresh(service)

        def fresh_files() -> None:
            _fresh(service, files=True)

        def nothing() -> None:
            pass

        page, cold, warm, file_page, file_cold = _least(
            [(fresh, pages), (fresh, compare), (nothing, compare), (fresh_files, pages), (fresh_files, compare)],
            rounds,
        )
        found = service.compare_versions(PID, 1, 2).summary
        service.cache.close()
    return [
        f"paper {PID}: {total:,} chars (pages of {chars[0]:,}); least of {rounds} rounds, in process",
        "  wall ms (CPU ms), and the ratio of CPU times to the page read's",
        f"  page read of both versions:      {_ms(page)}",
        f"  compare_versions, first:         {_ms(cold)} = {cold[1] / page[1]:5.2f}x",
        f"  compare_versions, repeated:      {_ms(warm)} = {warm[1] / page[1]:5.2f}x",
        "  the cache's file memo emptied too (a fresh process's first reads):",
        f"  page read of both versions:      {_ms(file_page)}",
        f"  compare_versions, first:         {_ms(file_cold)} = {file_cold[1] / file_page[1]:5.2f}x",
        f"  summary: {found[:300]}",
    ]


def _ms(least: tuple[float, float]) -> str:
    return f"{least[0] * 1000:7.2f} ms ({least[1] * 1000:6.2f} ms)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--fixtures", type=Path, default=FIXTURES)
    args = parser.parse_args()
    v1, v2 = _sources(args.fixtures)
    print("v1 against an edited v2 (a section added, a sentence and a number changed):")
    print("\n".join(measure(v1, v2, args.rounds)))
    print("v1 against an identical v2:")
    print("\n".join(measure(v1, v1, args.rounds)))


if __name__ == "__main__":
    main()
