"""Opt-in checks against the real arXiv and Semantic Scholar: did they change under us?

Run: `ARXIV_MCP_LIVE=1 python -m pytest tests/live -q` (about a minute: seven requests, spaced
three seconds apart as arXiv asks). Skipped otherwise, and never run by CI: CI must not depend
on the network or load arXiv. Each check asserts only what a well-known paper has had for
years, so a failure means an upstream change (a format, an address, a policy), not a flaky
test. Set ARXIV_MCP_CONTACT to your e-mail so arXiv can reach you about the traffic.
"""

from __future__ import annotations

import os

import pytest

from arxiv_mcp.config import load
from arxiv_mcp.service import ArxivService

pytestmark = pytest.mark.skipif(
    os.environ.get("ARXIV_MCP_LIVE") != "1", reason="live arXiv checks: set ARXIV_MCP_LIVE=1 to run them"
)


@pytest.fixture(scope="module")
def live(tmp_path_factory) -> ArxivService:
    """One service for the module: one cache and one limiter, so requests stay three seconds apart."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARXIV_MCP_") or k == "ARXIV_MCP_CONTACT"}
    env["ARXIV_MCP_HOME"] = str(tmp_path_factory.mktemp("live-home"))
    return ArxivService(load(env))


def test_search_finds_a_famous_title(live):
    found = live.search(title="Attention Is All You Need", max_results=5)
    assert "1706.03762" in [p.id for p in found.papers]


def test_metadata_of_a_known_paper(live):
    got = live.get_paper("1706.03762")
    assert got.title.startswith("Attention Is All You Need") and got.version >= 5
    assert any("Vaswani" in a.name for a in got.authors) and got.primary_category == "cs.CL"


def test_html_read(live):
    text = live.read_paper("2501.12977v1", section="outline")
    assert text.method == "html" and text.total_chars > 200


def test_pdf_read_of_a_pdf_only_submission(live):
    text = live.read_paper("1805.05865v1")
    assert text.method == "pdf" and text.total_chars > 1000


def test_e_print_download(live):
    got = live.download_paper("1602.00123v1", "source")
    assert got.bytes > 1000 and got.content_type in ("application/gzip", "application/x-tar")


def test_semantic_scholar_references(live):
    refs = live.neighbours("1706.03762", "references", 5)
    assert len(refs.neighbours) == 5 and any(n.arxiv_id for n in refs.neighbours)
