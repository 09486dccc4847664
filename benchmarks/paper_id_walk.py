"""The walk of one `paper_id` from the tool's method to the bytes: how often it enters each module.

    python benchmarks/paper_id_walk.py

Runs `ArxivService.read_paper` in process against the fake arXiv, under `sys.settrace`, for
a cold read (the paper fetched and extracted) and then a warm one (the same page again, from
the cache). Only arxiv_mcp's own frames count; a frame's caller is the nearest arxiv_mcp frame
above it (stdlib frames in between are passed over).
- a visit to module M: a call into M from a frame of another module;
- a climb: a call into a module of a higher layer than its caller's (README's "Where things
  are", read by tests/test_layers.py): a lower layer calling back up through a callback;
- the cache asked: calls into `arxiv_mcp.cache` from outside it, by method (`paper` is the
  one record of what the cache knows of the paper), whichever of the cache's parts answers
  (`Cache`'s methods are its parts' own: store.py).
- the cache entered: every call into `arxiv_mcp.cache` from outside it.
Issue 35's targets: under 10 visits to `reading` and under 15 climbs.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from arxiv_mcp.cache.store import Cache  # noqa: E402
from arxiv_mcp.config import load  # noqa: E402
from arxiv_mcp.service import ArxivService  # noqa: E402
from tests.conftest import html_paper  # noqa: E402
from tests.fake_arxiv import FakeArxiv  # noqa: E402
from tests.test_layers import layer_of  # noqa: E402

PACKAGE_DIR = str(REPO_ROOT / "arxiv_mcp") + os.sep
PID, OTHER = "2403.00001", "2403.00002"
WATCHED = ("arxiv_mcp.reading",)
CACHE = "arxiv_mcp.cache"
ID_CHECKS = {
    "parse": "arxiv_mcp.ids",
    "check_key": "arxiv_mcp.ids",
    "check_paper_id": "arxiv_mcp.cache.files",
    "check_version": "arxiv_mcp.ids",
}
"""The functions that read or re-check a paper id, and their modules: `parse` at the tool's
boundary, `check_key` when a PaperId is made from parts (`PaperId(...)`), `check_paper_id` of
an id string (the cache checks those it reads from disk), `check_version` of a version alone
(`PaperId.with_version`: the id is not checked again)."""


def _module(frame: FrameType) -> str | None:
    path = frame.f_code.co_filename
    if not path.startswith(PACKAGE_DIR):
        return None
    parts = Path(path[len(PACKAGE_DIR) :]).with_suffix("").parts
    name = ".".join(("arxiv_mcp", *parts))
    return name.removesuffix(".__init__")


class Walk:
    """Counts the visits and climbs of the calls traced while it is on."""

    def __init__(self, cache: Cache) -> None:
        self.cache_methods = frozenset(name for name in dir(cache) if not name.startswith("_"))
        self.visits: Counter[str] = Counter()
        self.climbs: Counter[str] = Counter()
        self.checks: Counter[str] = Counter()
        self.asked: Counter[str] = Counter()
        """The cache's methods called from outside the cache, by name."""
        self.entered_cache = 0
        self.layers = layer_of()

    def trace(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return None
        callee = _module(frame)
        if callee is None:
            return None
        if ID_CHECKS.get(frame.f_code.co_name) == callee:
            self.checks[frame.f_code.co_name] += 1
        caller_frame = frame.f_back
        while caller_frame is not None and _module(caller_frame) is None:
            caller_frame = caller_frame.f_back
        caller = _module(caller_frame) if caller_frame is not None else None
        if caller is None or caller == callee:
            return None
        self.visits[callee] += 1
        if callee.startswith(CACHE + ".") and not caller.startswith(CACHE + "."):
            self.entered_cache += 1
            if frame.f_code.co_name in self.cache_methods:
                self.asked[frame.f_code.co_name] += 1
        if self.layers[callee] < self.layers[caller]:
            self.climbs[f"{caller} -> {callee}"] += 1
        return None

    def run(self, work: Any) -> None:
        sys.settrace(self.trace)
        try:
            work()
        finally:
            sys.settrace(None)

    def report(self, title: str) -> str:
        watched = ", ".join(f"{m.removeprefix('arxiv_mcp.')} {self.visits[m]}" for m in WATCHED)
        checked = ", ".join(f"{name} {self.checks[name]}" for name in ID_CHECKS)
        climbs = sum(self.climbs.values())
        lines = [
            f"{title}: visits {watched}; {climbs} climbs; cache entered {self.entered_cache}; id checks: {checked}"
        ]
        asked = ", ".join(f"{name} {count}" for name, count in sorted(self.asked.items()))
        lines.append(f"  the cache asked {sum(self.asked.values())} times: {asked}")
        lines.append("  most visited:")
        lines += [f"  {count:4d}  {module}" for module, count in self.visits.most_common(12)]
        lines += [f"  climb {count:3d}  {edge}" for edge, count in self.climbs.most_common(6)]
        return "\n".join(lines)


def main() -> int:
    papers = [html_paper(PID, "Sparse attention"), html_paper(OTHER, "Dense attention")]
    with FakeArxiv(papers) as fake, tempfile.TemporaryDirectory() as home:
        service = ArxivService(load({**fake.env(), "ARXIV_MCP_HOME": home}))
        reads = (
            ("cold read_paper of a version (fetched, extracted)", PID + "v1"),
            ("warm read_paper of that version (the cache)", PID + "v1"),
            ("cold read_paper of a bare id (latest version looked up)", OTHER),
            ("warm read_paper of the bare id", OTHER),
        )
        try:
            for title, paper_id in reads:
                walk = Walk(service.cache)
                walk.run(lambda paper_id=paper_id: service.read_paper(paper_id))
                print(walk.report(title) + "\n")
        finally:
            service.cache.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
