"""Every benchmark figure of arxiv-mcp in one command: `python benchmarks/run.py`.

Run from the repository root with the test group installed (`pip install . --group test`). It
starts the fake arXiv of tests/fake_arxiv.py on 127.0.0.1, drives real server processes over
stdio with raw JSON-RPC lines, and prints one table. Each figure is a median over repeated
runs; where a floor exists it is measured in the same run, interleaved with ours, and the
figure is also given as a ratio to it. BENCHMARKS.md explains every row.

Options: --runs N (repetitions of the process-level figures), --sizes (cache sizes in papers
for the "at scale" and cache index figures, default 200,2000,10000), --fixtures DIR (real
arXiv files: html/, ar5iv/, pdf/; default ../shared/fixtures/arxiv, or the smaller set in
tests/fixtures when that is absent), --skip-cache-index, --only STEP[,STEP] (e.g. "at scale").
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from benchmarks import cache_index as cache_index_bench  # noqa: E402
from benchmarks import library_scale  # noqa: E402
from benchmarks import pdf_extraction as pdf_bench  # noqa: E402
from tests import jsonrpc  # noqa: E402
from tests.fake_arxiv import FakeArxiv, FakePaper, eprint, latexml_html, make_corpus  # noqa: E402
from tests.pdfgen import make_pdf  # noqa: E402

SHARED_FIXTURES = REPO_ROOT.parent / "shared" / "fixtures" / "arxiv"
TEST_FIXTURES = REPO_ROOT / "tests" / "fixtures"
POLITE_SPACING_S = 3.0
PAGE_SIZE = 15000

PAPER_HTML = "2403.01234"
"""Recent, with arXiv HTML."""
PAPER_NO_HTML = "2404.05678"
"""Recent, arXiv HTML missing (404): the LaTeX source is the text."""
PAPER_AR5IV = "1705.04321"
"""Older: only ar5iv renders it."""
PAPER_LONG_PDF = "2405.09876"
"""50 pages of text in its PDF, no HTML and no source."""
TASK_QUERY = "neural networks"


# ---- a server process over stdio -----------------------------------------------------------


class StdioServer:
    """One MCP server process spoken to in raw JSON-RPC lines over its stdin and stdout."""

    def __init__(self, argv: list[str], env: dict[str, str]):
        self._log = tempfile.TemporaryFile()
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log, env=env, cwd=REPO_ROOT
        )
        self._next_id = 0

    def send(self, message: dict) -> None:
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict | None = None) -> dict:
        self._next_id += 1
        ident = self._next_id
        self.send(jsonrpc.request(ident, method, params))
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"{method}: the server closed stdout. Its log:\n{self.stderr_text()}")
            answer = json.loads(line)
            if answer.get("id") == ident:
                if "error" in answer:
                    raise RuntimeError(f"{method} failed: {answer['error']}")
                return answer["result"]

    def initialize(self) -> dict:
        result = self.request("initialize", jsonrpc.initialize_params("arxiv-mcp-bench"))
        self.send(jsonrpc.INITIALIZED)
        return result

    def tool_names(self) -> set[str]:
        return {tool["name"] for tool in self.request("tools/list")["tools"]}

    def call(self, tool: str, **arguments) -> dict:
        result = self.request("tools/call", {"name": tool, "arguments": arguments})
        if result.get("isError"):
            raise RuntimeError(f"{tool}({arguments}) failed: {result['content'][0]['text']}")
        return result

    def cpu_seconds(self) -> float | None:
        """CPU time of the server process's threads (Linux schedstat, in ns; a thread that ended
        in between is not counted); None where the platform does not say."""
        total = 0
        try:
            tasks = list(Path(f"/proc/{self.proc.pid}/task").iterdir())
        except OSError:
            return None
        for task in tasks:
            try:
                total += int((task / "schedstat").read_text().split()[0])
            except (OSError, ValueError, IndexError):
                continue
        return total / 1e9 if total else None

    def peak_rss_mb(self) -> float:
        """VmHWM of the server process: the most resident memory it has had so far."""
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError("no VmHWM in /proc status (Linux only)")

    def cpu_s(self) -> float:
        """CPU time the server process has used so far, all its threads (Linux schedstat, in ns):
        unlike the wall clock, hardly moved by other processes on a loaded machine."""
        total = 0
        for task in Path(f"/proc/{self.proc.pid}/task").iterdir():
            try:
                total += int((task / "schedstat").read_text().split()[0])
            except (FileNotFoundError, ProcessLookupError):  # a thread that has just ended
                continue
        return total / 1e9

    def stderr_text(self) -> str:
        self._log.seek(0)
        return self._log.read().decode(errors="replace")[-4000:]

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc.stdout.close()
        self._log.close()

    def __enter__(self) -> StdioServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def ours(env: dict[str, str]) -> StdioServer:
    return StdioServer([sys.executable, "-m", "arxiv_mcp"], env)


def bare(env: dict[str, str], *, typed: bool = False) -> StdioServer:
    return StdioServer([sys.executable, "-m", "benchmarks.bare_server", *(["--typed"] if typed else [])], env)


def server_env(fake: FakeArxiv, home: Path, **settings: str) -> dict[str, str]:
    """The fake's addresses and a cache home; bytecode caches allowed, as for an installed package
    (without them every start would compile arxiv_mcp's sources again)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARXIV_MCP_") and k != "PYTHONDONTWRITEBYTECODE"}
    env.update(fake.env(), ARXIV_MCP_HOME=str(home), **settings)
    return env


# ---- the papers the figures use ------------------------------------------------------------

_WORDS = (
    "model data result method sparse attention graph bound proof energy field signal error "
    "layer sample kernel matrix operator spectrum network training loss estimate"
).split()


def _prose(rng: random.Random, chars: int) -> str:
    """Plain sentences, about `chars` long, split into paragraphs."""
    sentences, size = [], 0
    while size < chars:
        words = [rng.choice(_WORDS) for _ in range(rng.randint(8, 18))]
        sentence = " ".join(words).capitalize() + "."
        sentences.append(sentence)
        size += len(sentence) + 1
    return "\n\n".join(" ".join(sentences[i : i + 6]) for i in range(0, len(sentences), 6))


def _sections(seed: int, count: int = 6, chars: int = 9000) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    names = ["Introduction", "Background", "Method", "Experiments", "Discussion", "Conclusion"]
    return [(names[i % len(names)], _prose(rng, chars)) for i in range(count)]


def _latex_source(title: str, sections: list[tuple[str, str]]) -> bytes:
    body = "".join(f"\\section{{{name}}}\n{text}\n\n" for name, text in sections)
    tex = (
        f"\\documentclass{{article}}\n\\title{{{title}}}\n\\begin{{document}}\n\\maketitle\n{body}\\end{{document}}\n"
    ).encode()
    return eprint({"main.tex": tex})


def _fixed(pid: str, title: str, published: datetime, **kw) -> FakePaper:
    return FakePaper(
        id=pid,
        title=title,
        abstract=f"We study {title.lower()}.",
        authors=["Ada Lovelace", ("Alan Turing", "University of Manchester")],
        categories=["cs.LG", "stat.ML"],
        published=published,
        **kw,
    )


def bench_papers() -> list[FakePaper]:
    """A 200-paper corpus plus the fixed papers of the agent task and the memory figure."""
    utc = UTC
    with_html = _fixed(PAPER_HTML, "Sparse attention for long documents", datetime(2024, 3, 5, tzinfo=utc))
    with_html.html = latexml_html(with_html, _sections(1))
    no_html = _fixed(PAPER_NO_HTML, "Kernel bounds for graph signals", datetime(2024, 4, 9, tzinfo=utc))
    no_html.source = _latex_source(no_html.title, _sections(2))
    old = _fixed(PAPER_AR5IV, "Spectral estimates of network operators", datetime(2017, 5, 12, tzinfo=utc))
    old.ar5iv = latexml_html(old, _sections(3))
    long_pdf = _fixed(
        PAPER_LONG_PDF, "A long report on training loss", datetime(2024, 5, 20, tzinfo=utc), pdf=long_pdf_bytes()
    )
    corpus = [
        p for p in make_corpus(200, seed=0) if p.id not in {PAPER_HTML, PAPER_NO_HTML, PAPER_AR5IV, PAPER_LONG_PDF}
    ]
    return corpus + [with_html, no_html, old, long_pdf]


def long_pdf_bytes(pages: int = 50) -> bytes:
    rng = random.Random(50)
    texts = [f"{n + 1}\n" + "\n".join(textwrap.wrap(_prose(rng, 3000).replace("\n\n", " "), 90)) for n in range(pages)]
    return make_pdf(texts)


# ---- figures -------------------------------------------------------------------------------


@dataclass
class Row:
    figure: str
    value: str
    floor: str = ""
    ratio: float | None = None
    target: str = ""
    met: bool | None = None


@dataclass
class Report:
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, *args, **kwargs) -> None:
        self.rows.append(Row(*args, **kwargs))


def _ms(seconds: float, digits: int = 1) -> str:
    return f"{seconds * 1000:.{digits}f} ms"


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def cold_start(fake: FakeArxiv, scratch: Path, runs: int, report: Report) -> None:
    """Spawn to `initialize` answered (and on to `tools/list` answered), ours and the bare
    floor alternately; the first start of each is not recorded (it writes bytecode caches).
    Also the CPU time each process used up to the initialize answer (the same work, less
    disturbed by a loaded machine than the wall clock)."""
    env = server_env(fake, scratch / "cold-home")
    times: dict[tuple[str, str], list[float]] = {
        (who, what): [] for who in ("ours", "bare") for what in ("initialize", "tools/list", "cpu")
    }
    for run in range(runs + 1):
        order = [("ours", ours), ("bare", bare)] if run % 2 else [("bare", bare), ("ours", ours)]
        for name, start in order:
            with start(env) as server:
                server.initialize()
                initialized = time.perf_counter() - server.started
                cpu = server.cpu_s()
                server.request("tools/list")
                listed = time.perf_counter() - server.started
            if run:
                times[name, "initialize"].append(initialized)
                times[name, "tools/list"].append(listed)
                times[name, "cpu"].append(cpu)
    median = {key: statistics.median(values) for key, values in times.items()}
    ratio = median["ours", "initialize"] / median["bare", "initialize"]
    report.add(
        "cold start: spawn to initialize answered",
        _ms(median["ours", "initialize"]),
        _ms(median["bare", "initialize"]),
        ratio,
        "<= 1.05x",
        ratio <= 1.05,
    )
    spread = {who: f"{_ms(min(times[who, 'cpu']))}-{_ms(max(times[who, 'cpu']))}" for who in ("ours", "bare")}
    report.add(
        "cold start: CPU time to initialize answered (min-max)",
        f"{_ms(median['ours', 'cpu'])} ({spread['ours']})",
        f"{_ms(median['bare', 'cpu'])} ({spread['bare']})",
        median["ours", "cpu"] / median["bare", "cpu"],
    )
    report.add(
        "cold start: spawn to tools/list answered",
        _ms(median["ours", "tools/list"]),
        _ms(median["bare", "tools/list"]),
        median["ours", "tools/list"] / median["bare", "tools/list"],
    )


def startup_stages(fake: FakeArxiv, scratch: Path, runs: int, report: Report) -> None:
    """Where start-up goes, from benchmarks/startup_stages.py in fresh interpreters."""
    env = server_env(fake, scratch / "cold-home")
    samples = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-m", "benchmarks.startup_stages"],
            env=env,
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        samples.append(json.loads(out.stdout))
    median = {key: statistics.median(s[key] for s in samples) for key in samples[0]}
    report.add("start-up stage: import the MCP SDK (floor pays it too)", _ms(median["import_mcp"]))
    report.add("start-up stage: import arxiv_mcp (beyond the SDK)", _ms(median["import_arxiv_mcp"]))
    report.add("start-up stage: load settings", _ms(median["config"]))
    report.add(
        f"start-up stage: build_server ({median['tools']:g} tools, cache home checked)",
        _ms(median["build_server"]),
        _ms(median["bare_build"]) + " (bare)",
    )
    report.add("after start-up: the service, on the first call (import, build)", _ms(median["first_call_service"]))


def warm_read(fake: FakeArxiv, scratch: Path, calls: int, report: Report) -> None:
    """read_paper of a cached 15,000-character page against the bare server shipping the very
    same page (floor-page: text and structured content, from memory), once declaring
    read_paper's output model as ours does (the SDK then validates the page as it validates
    ours) and once declaring none, and its trivial echo."""
    env = server_env(fake, scratch / "warm-home")
    with ours(env) as server, bare(env) as floor, bare(env, typed=True) as typed, bare(env) as echo:
        for each in (server, floor, typed, echo):
            each.initialize()
        first = server.call("read_paper", paper_id=PAPER_HTML, page=1, page_size=PAGE_SIZE)
        page_chars = len(first["structuredContent"]["text"])
        page_file = scratch / "floor-page.json"
        page_file.write_text(
            json.dumps({"text": first["content"][0]["text"], "structured": first["structuredContent"]})
        )
        for each in (floor, typed):
            if each.call("page", path=str(page_file))["structuredContent"] != first["structuredContent"]:
                raise RuntimeError("the floor's page differs from ours")
        steps = (
            ("ours", lambda: server.call("read_paper", paper_id=PAPER_HTML, page=1, page_size=PAGE_SIZE)),
            ("typed", lambda: typed.call("page", path=str(page_file))),
            ("page", lambda: floor.call("page", path=str(page_file))),
            ("echo", lambda: echo.call("echo", text="x")),
        )
        for _ in range(20):  # warm all: imports on first use, thread pool, caches
            for _, step in steps:
                step()
        processes = {"ours": server, "typed": typed, "page": floor}
        cpu_before = {name: process.cpu_seconds() for name, process in processes.items()}
        times: dict[str, list[float]] = {name: [] for name, _ in steps}
        for call in range(calls):
            turn = call % len(steps)  # each server goes first in turn
            for name, step in steps[turn:] + steps[:turn]:
                start = time.perf_counter()
                step()
                times[name].append(time.perf_counter() - start)
        cpu = {name: _spent(cpu_before[name], process.cpu_seconds(), calls) for name, process in processes.items()}
    p50 = {name: statistics.median(t) for name, t in times.items()}
    p99 = {name: _percentile(t, 0.99) for name, t in times.items()}
    for floor_name, label in (("typed", "floor-page"), ("page", "floor-page without output schema")):
        ratio = p50["ours"] / p50[floor_name]
        report.add(
            f"warm read_paper p50 ({page_chars:,}-char page, {calls} calls) vs {label}",
            _ms(p50["ours"], 2),
            _ms(p50[floor_name], 2),
            ratio,
            "<= 1.2x",
            ratio <= 1.2,
        )
    report.add("warm read_paper p99 vs floor-page", _ms(p99["ours"]), _ms(p99["typed"]), p99["ours"] / p99["typed"])
    for floor_name, label in (("typed", "floor-page"), ("page", "floor-page without output schema")):
        ours_cpu, floor_cpu = cpu["ours"], cpu[floor_name]
        if ours_cpu is not None and floor_cpu is not None:  # the server's own CPU: what load moves least
            ratio = ours_cpu / floor_cpu
            report.add(f"warm read_paper server CPU per call vs {label}", _ms(ours_cpu, 3), _ms(floor_cpu, 3), ratio)
    report.add(
        "warm read_paper p50 vs the bare echo tool", _ms(p50["ours"]), _ms(p50["echo"]), p50["ours"] / p50["echo"]
    )


def _spent(before: float | None, after: float | None, calls: int) -> float | None:
    return None if before is None or after is None else (after - before) / calls


def html_throughput(fixtures: Path, runs: int, report: Report) -> None:
    from arxiv_mcp.errors import ExtractionError
    from arxiv_mcp.text.extract import from_html

    files = []
    for path in sorted((fixtures / "html").glob("*.html")) + sorted((fixtures / "ar5iv").glob("*.html")):
        try:
            from_html(path.read_bytes())
        except ExtractionError:  # a notice page, not a paper (ar5iv's "fatal error")
            continue
        files.append(path)
    total_in = total_out = 0
    total_s = 0.0
    for path in files:
        raw = path.read_bytes()
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            text = from_html(raw).text
            times.append(time.perf_counter() - start)
        total_s += statistics.median(times)
        total_in += len(raw.decode("utf-8", errors="replace"))
        total_out += len(text)
    report.add(
        f"HTML extraction ({len(files)} real files, {total_in / 1e6:.2f} M chars)",
        f"{total_in / total_s / 1e6:.2f} M chars/s in, {total_out / total_s / 1e6:.2f} M out",
    )


def pdf_throughput(fixtures: Path, runs: int, report: Report) -> None:
    from pypdf import PdfReader

    files = sorted((fixtures / "pdf").glob("*.pdf"))
    variants = {"bare": pdf_bench.bare_pypdf, "ours": pdf_bench.ours_pypdf}
    if pdf_bench.pdfium_installed():
        variants["pdfium"] = pdf_bench.ours_pdfium
    totals = dict.fromkeys(variants, 0.0)
    pages = 0
    for path in files:
        data = path.read_bytes()
        pages += len(PdfReader(io.BytesIO(data)).pages)
        for name, seconds in pdf_bench.median_times(data, variants, runs).items():
            totals[name] += seconds
    ratio = totals["ours"] / totals["bare"]
    report.add(
        f"PDF extraction, pypdf ({len(files)} real PDFs, {pages} pages)",
        f"{pages / totals['ours']:.1f} pages/s",
        f"{pages / totals['bare']:.1f} pages/s",
        ratio,
        f"<= {pdf_bench.TARGET_RATIO}x",
        ratio <= pdf_bench.TARGET_RATIO,
    )
    if "pdfium" in totals:
        report.add(
            "PDF extraction, `fast` extra (pypdfium2)",
            f"{pages / totals['pdfium']:.1f} pages/s",
            f"{pages / totals['bare']:.1f} pages/s",
            totals["pdfium"] / totals["bare"],
        )
    else:
        report.add("PDF extraction, `fast` extra (pypdfium2)", "not installed")


def cache_index(sizes: list[int], scratch: Path) -> list[str]:
    """The cache index rows of benchmarks/cache_index.py, one per size."""
    root = scratch / "cache-index"
    root.mkdir()
    rng = random.Random(1)
    return [cache_index_bench.run(size, root, rng) for size in sizes]


def _timed_call(server: StdioServer, tool: str, **arguments) -> tuple[float, int]:
    """Seconds for one call and the size of its answer (text and structured content), in bytes."""
    start = time.perf_counter()
    result = server.call(tool, **arguments)
    return time.perf_counter() - start, len(json.dumps(result, ensure_ascii=False).encode())


def at_scale(fake: FakeArxiv, sizes: list[int], scratch: Path, runs: int) -> list[str]:
    """Issue 20's figures at each cache size, one row per size: caches built by the project's
    own code (benchmarks/library_scale.py), start-up against the same server on 200 papers
    (interleaved), and the cache tools in new server processes."""
    homes: dict[int, tuple[Path, float]] = {}
    for size in sorted({200, *sizes}):
        started = time.monotonic()
        library_scale.build(scratch / f"library-{size}", size)
        homes[size] = (scratch / f"library-{size}", time.monotonic() - started)

    def env(size: int) -> dict[str, str]:
        return server_env(fake, homes[size][0], ARXIV_MCP_MAX_PAPERS=str(size + 1000), ARXIV_MCP_MAX_DISK_MB="100000")

    starts: dict[int, list[float]] = {size: [] for size in homes}
    for run in range(runs * 2 + 1):
        for size in list(homes)[:: 1 if run % 2 else -1]:
            with ours(env(size)) as server:
                server.initialize()
                if run:
                    starts[size].append(time.perf_counter() - server.started)
    rows = []
    for size in sizes:
        figures: dict[str, list[float]] = {}
        for run in range(runs):
            with ours(env(size)) as server:
                server.initialize()
                queries = library_scale.QUERIES[run % 4 :] + library_scale.QUERIES[: run % 4]
                samples = {"search first": _timed_call(server, "search_cached", query=queries[0])}
                for name, tool in (("list", "list_cached"), ("stats", "cache_stats")):
                    samples[name] = _timed_call(server, tool)
                later = [_timed_call(server, "search_cached", query=query)[0] for query in queries[1:] * 3]
                figures.setdefault("search later", []).extend(later)
            for name, (seconds, size_bytes) in samples.items():
                figures.setdefault(name, []).append(seconds)
                figures.setdefault(name + " bytes", []).append(size_bytes)
        med = {name: statistics.median(values) for name, values in figures.items()}
        start = statistics.median(starts[size])
        rows.append(
            f"{size:>7} | {start * 1000:7.1f} ms {start / statistics.median(starts[200]):5.2f}x | "
            f"{med['list'] * 1000:6.1f} ms {med['list bytes'] / 1000:5.1f} KB | "
            f"{med['stats'] * 1000:6.1f} ms {med['stats bytes'] / 1000:5.1f} KB | "
            f"{med['search first'] * 1000:7.1f} ms | {med['search later'] * 1000:6.1f} ms | {homes[size][1]:5.0f} s"
        )
    return rows


SCALE_HEADER = (
    f"{'papers':>7} | {'start-up, vs 200':>18} | {'list_cached':>17} | {'cache_stats':>17} | "
    f"{'search 1st':>10} | {'later':>9} | build"
)


@dataclass
class TaskRun:
    requests: int
    paths: list[str]
    local_s: float
    implied_s: float
    bibtex: str


def agent_task(server: StdioServer, fake: FakeArxiv, has_bibtex: bool) -> TaskRun:
    """Search 10; metadata of 3; pages 1-3 of the first two; BibTeX of the 3."""
    fake.clear_log()
    start = time.monotonic()
    found = server.call("search_papers", query=TASK_QUERY, max_results=10)["structuredContent"]
    if len(found["papers"]) != 10:
        raise RuntimeError(f"the task search found {len(found['papers'])} papers, not 10")
    trio = [PAPER_HTML, PAPER_NO_HTML, PAPER_AR5IV]
    for pid in trio:
        server.call("get_paper", paper_id=pid)
    for pid in trio[:2]:
        for page in (1, 2, 3):
            server.call("read_paper", paper_id=pid, page=page, page_size=PAGE_SIZE)
    bibtex = "measured"
    if has_bibtex:
        server.call("export_bibtex", paper_ids=trio)
    else:
        bibtex = "not offered: counted as 0 requests (all 3 metadata records are cached by then)"
    local = time.monotonic() - start
    requests = list(fake.requests)
    waits = sum(max(0.0, POLITE_SPACING_S - (b.t - a.t)) for a, b in zip(requests, requests[1:]))
    return TaskRun(len(requests), [r.path for r in requests], local, local + waits, bibtex)


def agent_task_figures(fake: FakeArxiv, scratch: Path, runs: int, report: Report) -> None:
    colds, warms = [], []
    for run in range(runs):
        env = server_env(fake, scratch / f"task-home-{run}")
        for runs_list in (colds, warms):
            with ours(env) as server:
                server.initialize()
                has_bibtex = "export_bibtex" in server.tool_names()
                runs_list.append(agent_task(server, fake, has_bibtex))
    for label, results, target in (("cold cache", colds, 7), ("second process, same cache", warms, 0)):
        counts = sorted({r.requests for r in results})
        count = statistics.median(r.requests for r in results)
        implied = statistics.median(r.implied_s for r in results)
        local = statistics.median(r.local_s for r in results)
        report.add(
            f"agent task requests, {label}",
            f"{count:g}" + (f" (varied: {counts})" if len(counts) > 1 else ""),
            "",
            None,
            f"<= {target}",
            count <= target,
        )
        report.add(f"agent task wall time at 3 s spacing, {label}", f"{implied:.1f} s", f"local work {local:.2f} s")
    report.notes.append("agent task upstream requests (cold): " + ", ".join(colds[0].paths))
    if colds[0].bibtex != "measured":
        report.notes.append("export_bibtex " + colds[0].bibtex)


def memory(fake: FakeArxiv, scratch: Path, runs: int, report: Report) -> None:
    idle, after = [], {"auto": [], "pypdf": []}
    for run in range(runs):
        for engine in after:
            env = server_env(fake, scratch / f"mem-home-{engine}-{run}", ARXIV_MCP_PDF_ENGINE=engine)
            with ours(env) as server:
                server.initialize()
                server.tool_names()
                if engine == "auto":
                    idle.append(server.peak_rss_mb())
                result = server.call("read_paper", paper_id=PAPER_LONG_PDF, page=1, page_size=PAGE_SIZE)
                method = result["structuredContent"]["method"]
                if method != "pdf":
                    raise RuntimeError(f"the 50-page paper was read from {method}, not the PDF")
                after[engine].append(server.peak_rss_mb())
    with bare(server_env(fake, scratch / "mem-bare")) as floor:
        floor.initialize()
        floor.request("tools/list")
        bare_idle = floor.peak_rss_mb()
    report.add(
        "peak RSS idle (after initialize, tools/list)",
        f"{statistics.median(idle):.1f} MB",
        f"{bare_idle:.1f} MB",
        statistics.median(idle) / bare_idle,
    )
    engine_name = "pypdfium2" if pdf_bench.pdfium_installed() else "pypdf"
    report.add(
        f"peak RSS after reading a 50-page PDF (default engine: {engine_name})",
        f"{statistics.median(after['auto']):.1f} MB",
    )
    report.add(
        "peak RSS after reading a 50-page PDF (ARXIV_MCP_PDF_ENGINE=pypdf)",
        f"{statistics.median(after['pypdf']):.1f} MB",
    )


# ---- output --------------------------------------------------------------------------------


def render(report: Report) -> str:
    header = ("figure", "value", "floor", "ratio", "target", "met")
    lines = [
        (
            r.figure,
            r.value,
            r.floor,
            "" if r.ratio is None else f"{r.ratio:.2f}x",
            r.target,
            "" if r.met is None else ("yes" if r.met else "NO"),
        )
        for r in report.rows
    ]
    widths = [max([len(header[i]), *(len(line[i]) for line in lines)]) for i in range(len(header))]

    def fmt(cells) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"

    out = [fmt(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out += [fmt(line) for line in lines]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="repetitions of each process-level figure")
    parser.add_argument("--calls", type=int, default=300, help="warm read_paper calls")
    parser.add_argument("--sizes", default="200,2000,10000", help="cache sizes, in papers")
    parser.add_argument("--fixtures", type=Path, default=None, help="real arXiv files (html/, ar5iv/, pdf/)")
    parser.add_argument("--skip-cache-index", action="store_true")
    parser.add_argument("--only", default=None, help="comma-separated step names to run (default: all)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)  # pypdf's font warnings would drown the table
    fixtures = args.fixtures or (SHARED_FIXTURES if SHARED_FIXTURES.is_dir() else TEST_FIXTURES)
    sizes = [int(s) for s in args.sizes.split(",")]

    began = time.monotonic()
    report = Report()
    scratch = Path(tempfile.mkdtemp(prefix="arxiv-mcp-bench-"))
    index_rows: list[str] = []
    scale_rows: list[str] = []
    try:
        with FakeArxiv(bench_papers()) as fake:
            steps = [
                ("cold start", lambda: cold_start(fake, scratch, args.runs * 3, report)),
                ("start-up stages", lambda: startup_stages(fake, scratch, args.runs, report)),
                ("warm read_paper", lambda: warm_read(fake, scratch, args.calls, report)),
                ("agent task", lambda: agent_task_figures(fake, scratch, max(1, args.runs // 2), report)),
                ("memory", lambda: memory(fake, scratch, max(1, args.runs // 2), report)),
                ("HTML extraction", lambda: html_throughput(fixtures, args.runs, report)),
                ("PDF extraction", lambda: pdf_throughput(fixtures, max(1, args.runs // 2), report)),
                ("at scale", lambda: scale_rows.extend(at_scale(fake, sizes, scratch, args.runs))),
            ]
            report.notes.append(f"extraction figures from the real files in {fixtures}")
            if not args.skip_cache_index:
                steps.append(("cache index", lambda: index_rows.extend(cache_index(sizes, scratch))))
            only = set(args.only.split(",")) if args.only else None
            for name, step in steps:
                if only is not None and name not in only:
                    continue
                started = time.monotonic()
                step()
                print(f"[{name}: {time.monotonic() - started:.0f} s]", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"arxiv-mcp benchmarks: Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load {load} at the end, "
        f"{args.runs} runs (medians)\n"
    )
    print(render(report))
    if scale_rows:
        print("\nat scale: new server processes on caches built by the project's own code (medians)")
        print(SCALE_HEADER)
        print("\n".join(scale_rows))
    if index_rows:
        print("\ncache index (benchmarks/cache_index.py): median [p90] per operation")
        print(
            f"{'papers':>7} | {'hit (p90)':>22} | {'insert (p90)':>22} | {'insert-nosync (p90)':>22} | "
            f"{'open':>11} | {'compact':>11} | build"
        )
        print("\n".join(index_rows))
    for note in report.notes:
        print(f"\nnote: {note}")
    print(f"\ntotal time {time.monotonic() - began:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
