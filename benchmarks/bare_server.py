"""The floor for start-up and round-trip figures: a bare MCPServer with one trivial tool.

Started exactly like arxiv-mcp (`python -m benchmarks.bare_server` from the repository root,
stdio transport), so the difference between the two is what arxiv-mcp itself adds. The tool
is a plain `def`, like arxiv-mcp's tools, so it takes the same worker-thread path.
"""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer


def build() -> MCPServer:
    server = MCPServer("bare")

    @server.tool()
    def echo(text: str = "") -> str:
        """Return the text unchanged."""
        return text

    return server


if __name__ == "__main__":
    build().run()
