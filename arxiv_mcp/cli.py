"""The `arxiv-mcp` command: parse arguments, load settings, serve.

Start-up failures are one line on stderr and exit status 2; stdout stays for JSON-RPC.
Started by hand in a terminal, it says on stderr what it is, and Ctrl-C quits at once.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
from typing import NoReturn, Protocol

from . import __version__


class _Runs(Protocol):  # the SDK's server, without importing `mcp` here
    def run(self) -> None: ...


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """One line, like every other start-up failure (argparse would print the usage too)."""
        self.exit(2, f"arxiv-mcp: {message} (see arxiv-mcp --help)\n")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="arxiv-mcp",
        description="MCP server for arXiv: search, metadata, full text by page, PDFs and LaTeX source, "
        "with a polite rate limiter and a local cache. Settings come from ARXIV_MCP_* "
        "environment variables (see README). `arxiv-mcp mirror sync|status` keeps a local mirror.",
    )
    p.add_argument("--version", action="version", version=f"arxiv-mcp {__version__}")
    p.add_argument("--transport", choices=["stdio", "http"], default="stdio", help="stdio (default) or streamable HTTP")
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="HTTP bind address (default 127.0.0.1); any other than loopback needs ARXIV_MCP_HTTP_TOKEN",
    )
    p.add_argument("--port", type=int, default=None, help="HTTP port (default 8000)")
    p.add_argument(
        "--tools",
        default=None,
        help="tool groups to expose, comma-separated: read, cite, library, explore, all "
        "(default: ARXIV_MCP_TOOLS, else all)",
    )
    p.add_argument(
        "--log-level",
        default="WARNING",
        choices=["DEBUG", "INFO", "WARNING", "ERROR"],
        help="stderr log level (default WARNING)",
    )
    return p


def _serve_stdio(server: _Runs) -> None:
    """stdio as a client runs it, and as a person who typed `arxiv-mcp` meets it: one line
    saying what this is, and Ctrl-C ending it at once. (The SDK reads stdin in a worker
    thread, so a KeyboardInterrupt waits for a line that never comes, and later ones print
    tracebacks.) Exiting straight away is safe: every cache write is a rename of a finished
    file, and the OS releases the file locks."""
    signal.signal(signal.SIGINT, lambda signum, frame: os._exit(128 + signal.SIGINT))
    if sys.stdin.isatty():
        print(
            f"arxiv-mcp {__version__}: an MCP server for arXiv talking JSON-RPC on stdin/stdout. "
            "An MCP client (Claude Code, Claude Desktop, Cursor, VS Code) normally starts it; Ctrl-C quits.",
            file=sys.stderr,
            flush=True,
        )
    from .budget import end_every_call
    from .surrogates import repairing_stdin

    # a lone surrogate gets an answer, not silence; the end of stdin stops every call at once,
    # even one blocked where the SDK's cancellation cannot reach (an upstream's dripping head)
    sys.stdin = repairing_stdin(sys.stdin.buffer, at_end=end_every_call)
    server.run()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["mirror"]:
        logging.basicConfig(level=logging.WARNING, format="arxiv-mcp %(levelname)s %(name)s: %(message)s")
        from .mirror_cli import main as mirror_main

        return mirror_main(argv[1:])
    args = _parser().parse_args(argv)
    stderr = logging.StreamHandler(sys.stderr)
    stderr.setLevel(args.log_level)  # the client may ask for more detail through MCP logging
    stderr.setFormatter(logging.Formatter("arxiv-mcp %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=args.log_level, handlers=[stderr])
    if args.log_level != "DEBUG":
        # pypdf warns once per broken reference: tens of lines for one read of a cut PDF,
        # whose answer already says it is damaged (and how much of it was read)
        logging.getLogger("pypdf").setLevel(logging.ERROR)
    from dataclasses import replace

    from .config import ConfigError, check_port, load, tool_groups
    from .errors import ArxivMcpError, concise

    try:
        if args.port is not None and args.transport != "http":
            raise ConfigError("--port is only used with --transport http (stdio has no port)")
        check_port(8000 if args.port is None else args.port)
        config = load()
        if args.tools is not None:
            config = replace(config, tools=tool_groups(args.tools, "--tools"))
        if args.transport == "http":
            from .http_guard import check_bind

            check_bind(args.host, config.http_tokens)
        from .server import build_server, serve_http

        server = build_server(config)  # opens the cache home: one that cannot be written stops here
    except (ConfigError, ArxivMcpError) as exc:
        print(f"arxiv-mcp: {concise(str(exc))}", file=sys.stderr)
        return 2
    if args.transport == "http":
        port = 8000 if args.port is None else args.port
        host = f"[{args.host.strip('[]')}]" if ":" in args.host else args.host
        print(f"arxiv-mcp {__version__}: serving MCP at http://{host}:{port}/mcp", file=sys.stderr, flush=True)
        serve_http(server, args.host, port, config.http_tokens)
    else:
        _serve_stdio(server)
    return 0


if __name__ == "__main__":
    sys.exit(main())
