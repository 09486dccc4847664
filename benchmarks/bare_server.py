"""The floor for start-up and round-trip figures: a bare MCPServer with two trivial tools.

Started exactly like arxiv-mcp (`python -m benchmarks.bare_server` from the repository root,
stdio transport), so the difference between the two is what arxiv-mcp itself adds. The tools
are plain `def`s, like arxiv-mcp's tools, so they take the same worker-thread path. `page`
returns a page kept in a JSON file ({"text", "structured"}), read once and then held in
memory: the SDK's own cost of shipping the very answer a warm read_paper gives (floor-page).
"""

from __future__ import annotations

import json
from pathlib import Path

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent

_pages: dict[str, dict] = {}


def build() -> MCPServer:
    server = MCPServer("bare")

    @server.tool()
    def echo(text: str = "") -> str:
        """Return the text unchanged."""
        return text

    @server.tool()
    def page(path: str) -> CallToolResult:
        """Return the page kept in a JSON file, as text and structured content."""
        body = _pages.get(path)
        if body is None:
            body = _pages[path] = json.loads(Path(path).read_text())
        return CallToolResult(
            content=[TextContent(type="text", text=body["text"])], structured_content=body["structured"]
        )

    return server


if __name__ == "__main__":
    build().run()
