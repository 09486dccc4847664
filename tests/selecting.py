"""What the selector tests share: a view of a document or its error's one line, in process;
and, through the real MCP client, a fresh stdio server on the fake arXiv and what a tool
result says."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from mcp.client.stdio import StdioServerParameters

from arxiv_mcp.errors import InvalidInput
from arxiv_mcp.text.document import Document
from arxiv_mcp.text.selection import Selection
from arxiv_mcp.text.selectors import select


def view_or_error(doc: Document, selector: str) -> Selection | str:
    """The selection, or the error's line."""
    try:
        return select(doc, selector, lambda number: f"arxiv://paper/x/figure/{number}")
    except InvalidInput as error:
        return str(error)


def stdio_server(fake: Any, home: Path) -> StdioServerParameters:
    """`python -m arxiv_mcp` reading from the fake arXiv, its home in `home`."""
    env = {**fake.env(), "ARXIV_MCP_HOME": str(home)}
    return StdioServerParameters(command=sys.executable, args=["-m", "arxiv_mcp"], env=env)


def said(result: Any) -> str:
    """A tool result's text (empty when it has none)."""
    return result.content[0].text if result.content else ""


Expected = TypeVar("Expected")


async def misses(
    client: Any, forms: Mapping[str, Mapping[str, Expected]], holds: Callable[[Any, Expected], bool]
) -> dict[str, str]:
    """Each paper's selector forms read through `client` (`forms`: paper id -> selector ->
    what its answer should be): the forms whose answer `holds` refuses, with what came back."""
    failed: dict[str, str] = {}
    for pid, selectors in forms.items():
        for selector, expected in selectors.items():
            got = await client.call_tool("read_paper", {"paper_id": f"{pid}v1", "section": selector})
            if not holds(got, expected):
                failed[f"{pid} {selector[:40]}"] = said(got)[:300]
    return failed
