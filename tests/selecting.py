"""What the selector tests share: a view of a document or its error's one line, in process;
and, through the real MCP client, a fresh stdio server on the fake arXiv and what a tool
result says."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

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
