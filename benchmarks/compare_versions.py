"""compare_versions of two cached versions of a long paper, against a cached page read of both.

Run: python benchmarks/compare_versions.py [--rounds N] [--fixtures DIR]

The paper: DeepSeek-V3's LaTeX e-print (docling_2412.19437 of the shared fixtures: 53 pages as
compiled, 138 K characters of text) as v1; v2 is the same source with a section added before
the conclusion, a sentence reworded and a number changed. Both versions' e-prints, documents
and metadata are put in a fresh cache as a read leaves them (upstream pointing nowhere: no
request can be made), then, in turn for N rounds (least times, wall clock and CPU time of the
process: on a shared machine the median measures the neighbours, and the CPU time less so), it
times:
- in a new process (one per call, each made the same way: the service built, its cache opened
  and both tools' modules imported, nothing read), the first call of a cached page read of
  both, read_paper(v1) + read_paper(v2), page 1, what issue 33 compares with, and the first
  compare_versions(v1, v2): each reads, checks and decodes its files, as a server's first call
  after start-up does; and the same two first calls with the modules they import counted;
- in process, both again with what the service, reading.py and the cache keep emptied, but
  the cache's memo of the file bodies read last (cache/readmemo.py) kept, as
  benchmarks/structure.py keeps it (no new process has it: the decoding only);
- compare_versions repeated in process (what the service keeps, kept);
- the same for v1 against an identical v2.
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arxiv_mcp import reading  # noqa: E402
from arxiv_mcp.config import load  # noqa: E402
from arxiv_mcp.ids import PaperId  # noqa: E402
from arxiv_mcp.rereads import PAGES_KEPT, TEXTS_KEPT, Rereads  # noqa: E402
from arxiv_mcp.research import skeleton, textdiff  # noqa: E402
from arxiv_mcp.service import ArxivService  # noqa: E402
from arxiv_mcp.text import formats, selectors  # noqa: E402
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


def _env(home: str) -> dict[str, str]:
    env = {"ARXIV_MCP_HOME": home, "ARXIV_MCP_API_URL": "http://127.0.0.1:9/api/query"}
    return env | {"ARXIV_MCP_SITE_URL": "http://127.0.0.1:9", "ARXIV_MCP_S2_URL": "http://127.0.0.1:9/s2"}


def _service(home: str, v1: bytes, v2: bytes) -> ArxivService:
    service = ArxivService(load(_env(home)))
    for version, raw in ((1, v1), (2, v2)):
        service.cache.put_raw(PaperId(PID, version), TextSource.SOURCE, raw, formats.TAR)
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


def _fresh(service: ArxivService) -> None:
    """No document, text or answer kept in memory (the cache's memo of file bodies kept)."""
    reading._PARSED.clear()
    reading._TEXTS.clear()
    selectors._KEPT.clear()
    textdiff._sentences.cache_clear()
    skeleton._title.cache_clear()
    tools = service.reading_tools
    tools.texts, tools.pages = Rereads(service.cache, TEXTS_KEPT), Rereads(service.cache, PAGES_KEPT)


_CHILD = """
import sys, time
from arxiv_mcp.config import load
from arxiv_mcp.ids import PaperId
from arxiv_mcp.service import ArxivService
call, imports, pid = sys.argv[1], sys.argv[2] == "counted", sys.argv[3]
service = ArxivService(load(dict(zip(sys.argv[4::2], sys.argv[5::2]))))
service.cache.versions(PaperId("0704.0001"))  # the cache opened, as by any earlier call
if not imports:
    import arxiv_mcp.research.versions, arxiv_mcp.text.selectors, arxiv_mcp.text.view
start, cpu = time.perf_counter(), time.process_time()
if call == "pages":
    service.read_paper(pid + "v1")
    service.read_paper(pid + "v2")
else:
    service.compare_versions(pid, 1, 2)
print(time.perf_counter() - start, time.process_time() - cpu)
"""


def _new_process(home: str, call: str, imports: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one first call in a new process (see the module's docstring)."""
    env = [part for pair in _env(home).items() for part in pair]
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, call, imports, PID, *env], capture_output=True, text=True, check=True, cwd=ROOT
    )
    wall, cpu = done.stdout.split()
    return float(wall), float(cpu)


def _least_new(home: str, rounds: int) -> list[tuple[float, float]]:
    """The least (wall, CPU) of `rounds` new processes for each first call, taken in turn."""
    calls = [("pages", "done"), ("compare", "done"), ("pages", "counted"), ("compare", "counted")]
    least = [(float("inf"), float("inf"))] * len(calls)
    for _ in range(rounds):
        for index, (call, imports) in enumerate(calls):
            took = _new_process(home, call, imports)
            least[index] = (min(least[index][0], took[0]), min(least[index][1], took[1]))
    return least


def measure(v1: bytes, v2: bytes, rounds: int) -> list[str]:
    with tempfile.TemporaryDirectory() as home:
        service = _service(home, v1, v2)
        new_page, new_cold, new_page_imports, new_cold_imports = _least_new(home, rounds)
        chars = [len(service.read_paper(f"{PID}v{v}").text) for v in (1, 2)]
        total = service.read_paper(f"{PID}v1").total_chars

        def pages() -> None:
            service.read_paper(f"{PID}v1")
            service.read_paper(f"{PID}v2")

        def compare() -> None:
            service.compare_versions(PID, 1, 2)

        def fresh() -> None:
            _fresh(service)

        def nothing() -> None:
            pass

        page, cold, warm = _least([(fresh, pages), (fresh, compare), (nothing, compare)], rounds)
        found = service.compare_versions(PID, 1, 2).summary
        service.cache.close()
    return [
        f"paper {PID}: {total:,} chars (pages of {chars[0]:,}); least of {rounds} rounds",
        "  wall ms (CPU ms), and the ratio of CPU times to the page read's",
        "  in a new process, the first call (its modules imported before):",
        f"  page read of both versions:      {_ms(new_page)}",
        f"  compare_versions:                {_ms(new_cold)} = {new_cold[1] / new_page[1]:5.2f}x",
        "  in a new process, the first call with the imports it makes:",
        f"  page read of both versions:      {_ms(new_page_imports)}",
        f"  compare_versions:                {_ms(new_cold_imports)} = {new_cold_imports[1] / new_page_imports[1]:5.2f}x",
        "  in process, what the service keeps emptied (the cache's file memo kept):",
        f"  page read of both versions:      {_ms(page)}",
        f"  compare_versions, first:         {_ms(cold)} = {cold[1] / page[1]:5.2f}x",
        f"  compare_versions, repeated:      {_ms(warm)} = {warm[1] / page[1]:5.2f}x",
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
