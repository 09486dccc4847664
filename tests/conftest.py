"""Shared fixtures: a fake arXiv on 127.0.0.1, a service and an MCP client bound to it."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from datetime import UTC, datetime

import pytest
from mcp.client import Client

from arxiv_mcp.config import load
from arxiv_mcp.server import build_server
from arxiv_mcp.service import ArxivService
from tests.fake_arxiv import FakeArxiv, FakePaper, latexml_html


@pytest.fixture
def anyio_backend():
    return "asyncio"


def in_threads(work, count: int = 10) -> list:
    """Run work(0) .. work(count - 1) in `count` threads at once; their results in that order,
    or the first error raised."""
    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(work, range(count)))


def paper(pid: str, title: str, *, year: int = 2024, month: int = 3, **kw) -> FakePaper:
    """A small realistic paper for the fake; HTML/source/PDF as the test asks."""
    kw.setdefault("abstract", f"We study {title.lower()} and report results.")
    kw.setdefault("authors", ["Ada Lovelace", ("Alan Turing", "University of Manchester")])
    kw.setdefault("categories", ["cs.LG", "stat.ML"])
    return FakePaper(id=pid, title=title, published=datetime(year, month, 5, 12, tzinfo=UTC), **kw)


def html_paper(pid: str, title: str, sections=None, **kw) -> FakePaper:
    p = paper(pid, title, **kw)
    p.html = latexml_html(
        p,
        sections
        or [
            ("Introduction", "Transformers changed sequence modelling. " * 40),
            ("Method", "We define the loss $L = \\sum_i x_i$ and minimise it. " * 40),
            ("Results", "The unicorn dataset shows a large improvement. " * 40),
        ],
    )
    return p


def cited_paper() -> FakePaper:
    """2403.00003 in HTML with one reference (an old paper not on arXiv) and no citations:
    enough for every citation tool to answer."""
    return html_paper(
        "2403.00003",
        "Attention for graphs",
        references=[{"title": "Old", "year": 2001, "authors": ["A"], "arxiv": None}],
        citations=[],
    )


@pytest.fixture
def fake():
    with FakeArxiv() as f:
        yield f


@pytest.fixture
def make_config(tmp_path, fake):
    def make(**env):
        values = {**fake.env(), "ARXIV_MCP_HOME": str(tmp_path / "home")}
        values.update({k: str(v) for k, v in env.items()})
        return load(values)

    return make


@pytest.fixture
def service(make_config):
    made = ArxivService(make_config())
    yield made
    made.cache.close()  # its lock and index files: a suite of such tests must not run out of descriptors


@pytest.fixture
def connect(make_config):
    """`async with connect() as client:` an MCP client talking to a fresh server in process."""

    @asynccontextmanager
    async def open_client(config=None, service=None):
        server = build_server(config or make_config(), service)
        async with Client(server) as client:
            yield client

    return open_client


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto` (pyproject's addopts): no workers for a run that names its modules or tests,
    where starting them costs more than they save (2.5x the CPU of one small module); for the
    whole suite or a subset by -m/-k, xdist's own count (a worker per core)."""
    return 0 if config.args_source is pytest.Config.ArgsSource.ARGS else None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the slow tests (tests/slow_tests.py) so `-m "not slow"` is the quick subset."""
    from tests.slow_tests import is_slow

    for item in items:
        module = getattr(item, "module", None)
        name = getattr(item, "originalname", item.name)
        if module is not None and is_slow(module.__name__.rsplit(".", 1)[-1], name):
            item.add_marker(pytest.mark.slow)
