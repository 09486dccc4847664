"""The floor for start-up and round-trip figures: a bare MCPServer with two trivial tools.

Started exactly like arxiv-mcp (`python -m benchmarks.bare_server` from the repository root,
stdio transport), so the difference between the two is what arxiv-mcp itself adds. The tools
are plain `def`s, like arxiv-mcp's tools, so they take the same worker-thread path. `page`
returns a page kept in a JSON file ({"text", "structured"}), read once and then held in
memory: the SDK's own cost of shipping the very answer a warm read_paper gives (floor-page).

With `--typed` (`build(typed=True)`) `page` declares read_paper's output model
(`arxiv_mcp.models.PaperText`), so the SDK validates the page against it as it validates
ours: the floor of shipping a typed structured answer (floor-page, typed). Without it the
tool declares no output schema and the SDK ships the page unchecked. Only `--typed` imports
arxiv_mcp (for the model), so the plain floor's start-up stays the SDK's alone.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent

_pages: dict[str, dict] = {}


def build(*, typed: bool = False) -> MCPServer:
    server = MCPServer("bare")
    answer: Any = CallToolResult
    if typed:
        from arxiv_mcp.models import PaperText

        answer = Annotated[CallToolResult, PaperText]

    @server.tool()
    def echo(text: str = "") -> str:
        """Return the text unchanged."""
        return text

    def page(path: str) -> CallToolResult:
        """Return the page kept in a JSON file, as text and structured content."""
        body = _pages.get(path)
        if body is None:
            body = _pages[path] = json.loads(Path(path).read_text())
        return CallToolResult(
            content=[TextContent(type="text", text=body["text"])], structured_content=body["structured"]
        )

    page.__annotations__["return"] = answer
    server.tool()(page)
    return server


if __name__ == "__main__":
    build(typed="--typed" in sys.argv[1:]).run()
