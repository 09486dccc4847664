"""arxiv-mcp: a polite, cached MCP server for arXiv."""

__version__ = "0.1.0"
