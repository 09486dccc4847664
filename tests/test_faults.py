"""Upstream faults on every path the server fetches (API, HTML, PDF, source), through the MCP client.

Each injected fault ends either in success after retrying or in a readable tool error; the
same server then answers the next call; and no partial or broken body is ever cached or
served later (the cache holds only bytes equal to the genuine ones, and text extracted
from them). The last test kills a reading process with SIGKILL at random points.
"""

from __future__ import annotations

import email.utils
import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from arxiv_mcp.cache.store import Cache
from arxiv_mcp.ids import PaperId
from arxiv_mcp.service import ArxivService
from arxiv_mcp.text.extract import extract
from tests import platforms
from tests.conftest import html_paper, paper
from tests.fake_arxiv import eprint

pytestmark = pytest.mark.anyio

REPO = Path(__file__).resolve().parent.parent
PID = "2403.00001"
LATEX = rb"""\documentclass{article}
\title{Fault tolerant reading}
\begin{document}
\maketitle
\section{Introduction}
The walrus lemma survives every fault the network throws at it.
\end{document}
"""


def full_paper():
    """HTML, LaTeX source and PDF all available."""
    return html_paper(PID, "Fault tolerant reading", source=eprint({"main.tex": LATEX}))


def source_only_paper():
    """No HTML: a read goes to the e-print."""
    return paper(PID, "Fault tolerant reading", source=eprint({"main.tex": LATEX}))


def pdf_only_paper():
    """Neither HTML nor source: a read ends at the PDF."""
    return paper(PID, "Fault tolerant reading")


@dataclass(frozen=True)
class Route:
    """One upstream path, the tool call that travels it, and what a good answer looks like."""

    prefix: str
    make_paper: Callable
    tool: str
    args: dict
    check: Callable[[dict], bool]
    method: str | None = None
    """For reads: the source the text comes from when nothing goes wrong."""


def _is_text(r: dict) -> bool:
    return r["total_chars"] > 100 and ("walrus" in r["text"] or "Fault tolerant" in r["text"])


def _download(path: str, fmt: str, content_type: str) -> Route:
    """download_paper of `fmt` for the paper that has every source; its answer names `content_type`."""
    args = {"paper_id": PID + "v1", "fmt": fmt}
    return Route(path, full_paper, "download_paper", args, lambda r: r["content_type"] == content_type)


ROUTES = {
    "api": Route("/api/", full_paper, "get_paper", {"paper_id": PID}, lambda r: r["title"] == "Fault tolerant reading"),
    "html": Route("/html/", full_paper, "read_paper", {"paper_id": PID + "v1"}, _is_text, "html"),
    "pdf": _download("/pdf/", "pdf", "application/pdf"),
    "source": _download("/e-print/", "source", "application/gzip"),
    "pdf-read": Route("/pdf/", pdf_only_paper, "read_paper", {"paper_id": PID + "v1"}, _is_text, "pdf"),
    "source-read": Route("/e-print/", source_only_paper, "read_paper", {"paper_id": PID + "v1"}, _is_text, "source"),
}


def http_date(seconds_from_now: float) -> str:
    return email.utils.formatdate(time.time() + seconds_from_now, usegmt=True)


# (fault kind, fault keyword arguments). Retry-After "0" and a date in the past only work if
# the header is read: the service's back-off is set far beyond the call's deadline, so a
# retry that fell back to back-off would give up at once instead of succeeding.
RETRIED = {
    "503-seconds": ("status", {"status": 503, "retry_after": "0"}),
    "503-date": ("status", {"status": 503, "retry_after": http_date(-5)}),
    "429-seconds": ("status", {"status": 429, "retry_after": "0"}),
    "429-date": ("status", {"status": 429, "retry_after": http_date(-5)}),
    "rate-exceeded": ("rate_exceeded", {}),
    "reset": ("reset", {}),
    "truncated": ("truncate", {}),
    "empty": ("empty", {}),
    "stall": ("stall", {"delay": 3.0}),
}
HALF = "the first half of the genuine body"
NOT_RETRIED = {"malformed": ("malformed", {}), "cut": ("malformed", {"body": HALF}), "huge": ("huge", {})}

# What a single malformed or oversized answer leads to, per path: "ok" (another source was
# used, or the answer was usable) or "error" (a readable tool error).
ONE_BAD_ANSWER = {
    ("api", "malformed"): "error",
    ("html", "malformed"): "ok",  # the LaTeX source is read instead
    ("pdf", "malformed"): "error",
    ("source", "malformed"): "error",
    ("pdf-read", "malformed"): "error",
    ("source-read", "malformed"): "ok",  # the PDF is read instead
    ("pdf", "cut"): "error",  # sent whole by the server, with a matching length, yet cut
    ("source", "cut"): "error",
    ("pdf-read", "cut"): "ok",  # the pages it holds are read, with a note; nothing is kept
    ("source-read", "cut"): "ok",
    **{(path, "huge"): "error" for path in ROUTES},
}


def settings(make_config, **extra):
    return make_config(
        **{"ARXIV_MCP_TIMEOUT_S": 1, "ARXIV_MCP_DEADLINE_S": 20, "ARXIV_MCP_MAX_DOWNLOAD_MB": 2, **extra}
    )


def service_with_backoff(config, backoff_s: float) -> ArxivService:
    svc = ArxivService(config)
    svc.http.backoff_s = backoff_s
    return svc


def assert_readable_error(result) -> str:
    assert result.is_error
    text = result.content[0].text
    assert len(text) > 30 and "Traceback" not in text and "Error executing tool" not in text, text
    assert result.structured_content is None and result.meta["kind"], result.meta
    return text


def assert_cache_whole(svc: ArxivService, fake_paper) -> None:
    """Only whole files: each equal to the genuine bytes, each text made from them."""
    cache = svc.cache
    assert cache.verify() == []
    assert list((cache.home / "tmp").iterdir()) == []
    genuine = {
        "pdf": fake_paper.pdf,
        "source": fake_paper.source,
        "html": fake_paper.html.encode() if isinstance(fake_paper.html, str) else None,
    }
    for version in cache.versions(PaperId(PID)):
        for kind, data in genuine.items():
            raw = cache.get_raw(PaperId(PID, version), kind)
            if raw is not None:
                assert raw.path.read_bytes() == data, f"{kind} in the cache is not the genuine file"
        text = cache.get_text(PaperId(PID, version))
        if text is not None:
            assert text.text == extract(text.method, genuine[text.method]).to_json()
        meta = cache.get_meta(PaperId(PID, version))
        if meta is not None:
            assert meta.record["title"] == fake_paper.title
    for search in (cache.home / "searches").iterdir():
        assert json.loads(search.read_bytes())["value"]


async def run_fault_case(
    fake,
    make_config,
    connect,
    route: Route,
    kind: str,
    fault_args: dict,
    times: int,
    backoff_s: float,
    expect: str,
    **config_extra,
):
    fake_paper = route.make_paper()
    fake.add(fake_paper)
    svc = service_with_backoff(settings(make_config, **config_extra), backoff_s)
    if fault_args.get("body") == HALF:
        whole = fake_paper.pdf if route.prefix == "/pdf/" else fake_paper.source
        fault_args = {**fault_args, "body": whole[: len(whole) // 2]}
    fake.fault(route.prefix, kind, times=times, **fault_args)
    async with connect(config=svc.config, service=svc) as client:
        first = await client.call_tool(route.tool, route.args)
        if expect == "ok":
            assert not first.is_error, first.content[0].text
            assert route.check(first.structured_content)
        else:
            assert_readable_error(first)
        assert_cache_whole(svc, fake_paper)
        fake.clear_faults()
        again = await client.call_tool(route.tool, route.args)
        assert not again.is_error, again.content[0].text
        assert route.check(again.structured_content)
        assert_cache_whole(svc, fake_paper)
    return first


# The stall costs a read timeout, so it is shown on the four direct paths only.
TRANSIENT_CASES = [
    (path, fault) for path in ROUTES for fault in RETRIED if not (fault == "stall" and path.endswith("-read"))
]


@pytest.mark.parametrize("path, fault", TRANSIENT_CASES)
async def test_one_transient_fault_is_retried_to_success(fake, make_config, connect, path, fault):
    kind, args = RETRIED[fault]
    route = ROUTES[path]
    started = time.monotonic()
    backoff = 1000.0 if kind == "status" else 0.05
    first = await run_fault_case(fake, make_config, connect, route, kind, args, 1, backoff, "ok")
    if route.method:
        assert first.structured_content["method"] == route.method
    assert len(fake.requests_to(route.prefix)) == 2  # the fault, then the retry that worked
    if fault == "stall":
        assert 1.0 <= time.monotonic() - started < 8  # the 1 s read timeout fired, then a retry


PERSISTENT = ["503-seconds", "429-date", "rate-exceeded", "reset", "truncated", "empty"]
PERSISTENT_CASES = [
    (path, fault)
    for path in ROUTES
    for fault in PERSISTENT
    if not path.endswith("-read") or fault in ("503-seconds", "truncated")
]


@pytest.mark.parametrize("path, fault", PERSISTENT_CASES)
async def test_a_fault_that_persists_is_a_readable_error(fake, make_config, connect, path, fault):
    kind, args = RETRIED[fault]
    first = await run_fault_case(fake, make_config, connect, ROUTES[path], kind, args, 50, 0.01, "error")
    text = first.content[0].text
    if kind in ("status", "rate_exceeded"):
        assert "throttling" in text and first.meta["retry_after_seconds"] is not None
    else:
        assert "after retrying" in text
    assert len(fake.requests_to(ROUTES[path].prefix)) >= 4 + 1  # four attempts, then the good call


async def test_a_stall_that_persists_ends_in_a_timeout_error(fake, make_config, connect):
    first = await run_fault_case(
        fake, make_config, connect, ROUTES["api"], "stall", {"delay": 2.0}, 4, 0.01, "error", ARXIV_MCP_TIMEOUT_S=0.3
    )
    assert "timed out" in first.content[0].text


@pytest.mark.parametrize("path, fault", list(ONE_BAD_ANSWER))
async def test_a_malformed_or_oversized_answer_is_never_kept(fake, make_config, connect, path, fault):
    kind, args = NOT_RETRIED[fault]
    first = await run_fault_case(
        fake, make_config, connect, ROUTES[path], kind, args, 1, 0.01, ONE_BAD_ANSWER[(path, fault)]
    )
    if first.is_error and fault == "huge":
        assert "MAX_DOWNLOAD_MB" in first.content[0].text


async def test_an_error_page_instead_of_the_pdf_is_tried_again_next_time(fake, make_config, connect):
    page = b"<!DOCTYPE html><html><body><h1>The PDF is being generated, try again.</h1></body></html>"
    await run_fault_case(fake, make_config, connect, ROUTES["pdf-read"], "malformed", {"body": page}, 1, 0.01, "error")


@pytest.mark.parametrize("retry_after", ["1", "date"])
async def test_retry_after_is_waited_out(fake, make_config, connect, retry_after):
    """Judged by causality, not by a stopwatch: the retry is booked from the moment the 503
    was read, so it arrives more than the header's delay after the first request, and for a
    date, no earlier than that date (the fake's clock is this machine's)."""
    due = int(time.time()) + 3
    value = retry_after if retry_after != "date" else email.utils.formatdate(due, usegmt=True)
    fake.add(full_paper())
    svc = service_with_backoff(settings(make_config), 1000.0)
    fake.fault("/api/", "status", status=503, retry_after=value)
    async with connect(config=svc.config, service=svc) as client:
        result = await client.call_tool("get_paper", {"paper_id": PID})
    assert not result.is_error, result.content[0].text
    first, retry = fake.requests_to("/api/")
    if retry_after == "date":
        wall_offset = time.time() - time.monotonic()
        assert retry.t + wall_offset >= due - 0.01
    else:
        assert retry.t - first.t > 1.0


async def test_a_broken_search_answer_is_not_remembered(fake, make_config, connect):
    fake.add(full_paper())
    svc = service_with_backoff(settings(make_config), 0.01)
    fake.fault("/api/", "malformed")
    async with connect(config=svc.config, service=svc) as client:
        bad = await client.call_tool("search_papers", {"query": "fault tolerant"})
        assert_readable_error(bad)
        assert list((svc.cache.home / "searches").iterdir()) == []
        good = await client.call_tool("search_papers", {"query": "fault tolerant"})
        again = await client.call_tool("search_papers", {"query": "fault tolerant"})
    assert [p["id"] for p in good.structured_content["papers"]] == [PID]
    assert again.structured_content == good.structured_content
    assert len(fake.requests_to("/api/")) == 2  # the broken answer, then one good one reused


# --- a process killed while it writes -----------------------------------------------------------

READER = textwrap.dedent(
    """
    import json, sys
    from arxiv_mcp.config import load
    from arxiv_mcp.service import ArxivService

    svc = ArxivService(load(json.loads(sys.argv[1])))
    svc.http.backoff_s = 0.01
    ids = json.loads(sys.argv[2])
    print("ready", flush=True)
    while True:
        for pid in ids:
            svc.read_paper(pid + "v1")
            svc.download_paper(pid + "v1", "pdf")
    """
)


@platforms.posix_signals
def test_a_reader_killed_at_random_points_leaves_a_whole_bounded_cache(fake, make_config, tmp_path):
    papers = [html_paper(f"2403.{n:05d}", f"Paper number {n}") for n in range(10, 18)]
    for p in papers:
        fake.add(p)
    config = settings(make_config, ARXIV_MCP_MAX_PAPERS=3)
    env = {
        **fake.env(),
        "ARXIV_MCP_HOME": str(config.home),
        "ARXIV_MCP_MAX_PAPERS": "3",
        "ARXIV_MCP_TIMEOUT_S": "1",
        "ARXIV_MCP_DEADLINE_S": "20",
    }
    rng = random.Random(7)
    dead_pids = []
    for _ in range(6):
        child = subprocess.Popen(
            [sys.executable, "-c", READER, json.dumps(env), json.dumps([p.id for p in papers])],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
        try:
            assert child.stdout.readline().strip() == b"ready"
            time.sleep(rng.uniform(0.02, 0.4))
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait()
        dead_pids.append(child.pid)
    leftover = config.home / "tmp" / f"{dead_pids[-1]}.planted.tmp"
    leftover.write_bytes(b"half a file")

    with Cache(config.home, max_papers=3) as cache:
        assert cache.verify() == []
        assert cache.stats().papers <= 3
        assert not leftover.exists()
        by_id = {p.id: p for p in papers}
        for entry in cache.list_cached():
            fake_paper = by_id[entry.paper_id]
            raw = cache.get_raw(PaperId(fake_paper.id, 1), "pdf")
            if raw is not None:
                assert raw.path.read_bytes() == fake_paper.pdf
            text = cache.get_text(PaperId(fake_paper.id, 1))
            if text is not None:
                assert text.text == extract("html", fake_paper.html.encode()).to_json()
    svc = ArxivService(config)
    for p in papers[:4]:
        assert "Paper number" in svc.read_paper(p.id + "v1").text
    assert svc.cache.stats().papers <= 3
