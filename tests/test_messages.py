"""Every error a model reads is one line under 1 KB with advice that works (issue 34.7), through
the real MCP client: a number past any bound, an argument of a megabyte echoed by any tool, an
image too large for the figure cap, an image the page embeds as a megabyte `data:` URL."""

from __future__ import annotations

import base64

import pytest
from mcp.shared.exceptions import MCPError

from arxiv_mcp import errors, figures
from arxiv_mcp.errors import MAX_MESSAGE_BYTES, concise
from tests.conftest import html_paper
from tests.test_structure import PID, _cache_document, _figure_document, _png, uri

pytestmark = pytest.mark.anyio

HUGE = "x" * 1_000_000


def short(text: str) -> str:
    assert len(text.encode()) < 1024 and "x" * 200 not in text, text[:300]
    return text


def one_line(result) -> str:
    assert result.is_error
    text = short(result.content[0].text)
    assert "\n" not in text, text
    return text


@pytest.mark.parametrize("offset", [2**63, 2**63 - 1, 10**6 + 1])
async def test_an_offset_past_any_cache_is_one_line_naming_the_range(connect, offset):
    async with connect() as client:
        text = one_line(await client.call_tool("list_cached", {"offset": offset}))
    assert text.startswith("offset must be a whole number from 0 to 1000000")


@pytest.mark.parametrize(
    "tool, args",
    [
        ("get_paper", {"paper_id": HUGE}),
        ("list_categories", {"group": HUGE}),
        ("start_session", {"session_id": HUGE}),
        ("category_trends", {"category": HUGE}),
        ("list_cached", {"sort": HUGE}),
        ("export_bibtex", {"paper_ids": [HUGE]}),
        ("list_new", {"category": HUGE}),
        ("list_new", {"category": "cs.LG", "since": HUGE}),
        ("search_papers", {"query": "x", "sort_by": HUGE}),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
async def test_a_megabyte_argument_is_never_echoed_whole(fake, connect, tool, args):
    async with connect() as client:
        text = one_line(await client.call_tool(tool, args))
    assert text  # one_line checked it is under 1 KB and holds no 200 characters of the argument
    assert not fake.requests


async def test_a_megabyte_selector_is_cut_in_its_error(fake, connect, service):
    fake.add(html_paper(PID, "Sparse graphs"))
    _cache_document(service, _figure_document("x1.png"))
    async with connect(service=service) as client:
        r = await client.call_tool("read_paper", {"paper_id": f"{PID}v1", "section": HUGE})
    assert r.is_error
    first = short(r.content[0].text).splitlines()[0]  # then the paper's headings, one a line
    assert "1,000,000 characters" in first


async def test_an_image_over_the_figure_cap_says_what_works(fake, connect, service, monkeypatch):
    monkeypatch.setattr(figures, "MAX_IMAGE_BYTES", 2**20)
    page = html_paper(PID, "Sparse graphs")
    page.images = {"x1.png": _png() + b"\0" * (2**20 + 1)}
    fake.add(page)
    _cache_document(service, _figure_document("x1.png"))
    async with connect(service=service) as client:
        with pytest.raises(MCPError) as err:
            await client.read_resource(uri("2"))
    text = short(str(err.value))
    assert "larger than the 1 MB an image may be" in text and 'read_paper(section="Figure 2")' in text
    assert "ARXIV_MCP_MAX_DOWNLOAD_MB" not in text  # it does not change this cap


async def test_a_megabyte_data_url_image_is_named_not_echoed(fake, connect, service):
    fake.add(html_paper(PID, "Sparse graphs"))
    data_url = "data:image/png;base64," + base64.b64encode(b"\0" * 750_000).decode()
    _cache_document(service, _figure_document(data_url))
    async with connect(service=service) as client:
        with pytest.raises(MCPError) as err:
            await client.read_resource(uri("2"))
    text = short(str(err.value))
    assert "embedded in the page as a data: URL" in text and "AAAA" not in text
    assert not fake.requests


def test_a_long_message_keeps_its_start_and_its_advice():
    message = "Reading failed on " + "y" * 50_000 + ": call read_paper again."
    got = concise(message)
    assert len(got.encode()) <= MAX_MESSAGE_BYTES + 40
    assert got.startswith("Reading failed on") and got.endswith("call read_paper again.")
    assert concise("a short one") == "a short one"


def test_apostrophes_and_two_short_quoted_values_never_pair_into_one_long_one():
    said = (
        '"Theorem 2.3" reads as Theorem 2.3, and this paper\'s structure does not carry theorems '
        'as items yet; they stay in the text where they are printed: find_in_paper(query="\\"Theorem '
        '2.3\\"") finds where it is printed.'
    )
    assert errors.concise(said) == said
    assert errors.concise(f"the paper's id '{'x' * 300}' is unknown") == (
        f"the paper's id '{'x' * 80}…' (300 characters) is unknown"
    )
