"""Found black-box in round 15, driving `python -m arxiv_mcp` through the SDK's stdio client (and
the in-process client) against a fake arXiv configured unlike the project's own: other ids and
versions, answers dripped slowly, several server processes on one home.
"""

from __future__ import annotations

import anyio
import pytest
from mcp.client import Client

from tests.conftest import html_paper
from tests.selecting import said, stdio_server

pytestmark = pytest.mark.anyio


async def test_two_processes_asking_one_papers_metadata_fetch_it_once(fake, tmp_path):
    """Two servers on one home asked get_paper of the same paper at once: the second waited
    for the first's request (the flight's lock spans processes), then asked arXiv the same
    id_list again, though the first had just cached the answer."""
    fake.add(html_paper("2609.04321", "Seed-guided data mining", versions=2))
    fake.fault("/api/query", "drip_chunked", size=400, interval=0.2, times=2)  # about 1 s each
    answers = []
    async with (
        Client(stdio_server(fake, tmp_path / "home")) as first,
        Client(stdio_server(fake, tmp_path / "home")) as second,
    ):

        async def ask(client: Client) -> None:
            answers.append(await client.call_tool("get_paper", {"paper_id": "2609.04321"}))

        async with anyio.create_task_group() as group:
            group.start_soon(ask, first)
            group.start_soon(ask, second)
    assert [said(a).splitlines()[0] for a in answers] == ["[2609.04321v2] Seed-guided data mining"] * 2
    assert [r.path for r in fake.requests] == ["/api/query"]
