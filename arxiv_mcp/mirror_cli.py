"""`arxiv-mcp mirror sync [--sets cs.LG,hep-th]` and `arxiv-mcp mirror status`.

A sync harvests in the foreground, one progress line per page on stderr, through the same
shared limiter as every server on the home (so it is polite beside them, and they go first).
Ctrl-C or SIGTERM ends it at once: every stored page is whole, and the next sync resumes
from the stored token. The status goes to stdout (this is not the JSON-RPC server).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from dataclasses import replace


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="arxiv-mcp mirror",
        description="A local mirror of the arXiv categories you follow, harvested through OAI-PMH "
        "into $ARXIV_MCP_HOME/mirror.sqlite3 (see README, 'A local mirror').",
    )
    sub = p.add_subparsers(dest="command", required=True)
    sync = sub.add_parser("sync", help="harvest the mirrored sets now (what is new since the last sync)")
    sync.add_argument(
        "--sets", default=None, help="categories or archives, comma-separated (default: ARXIV_MCP_MIRROR)"
    )
    sub.add_parser("status", help="sets, records, last and next sync, size")
    return p


def main(argv: list[str]) -> int:
    from . import render
    from .config import ConfigError, check_mirror_interval, load, mirror_names
    from .errors import ArxivMcpError, concise

    args = _parser().parse_args(argv)
    try:
        config = load()
        if getattr(args, "sets", None):
            config = replace(config, mirror=mirror_names(args.sets, "--sets"))
        if not config.mirror:
            raise ConfigError("no categories to mirror: set ARXIV_MCP_MIRROR (cs.LG,math.CO) or give --sets")
        check_mirror_interval(config, "a mirror")
        from .service import ArxivService

        service = ArxivService(config)
    except (ConfigError, ArxivMcpError) as exc:
        print(f"arxiv-mcp: {concise(str(exc))}", file=sys.stderr)
        return 2
    if args.command == "status":
        print(render.mirror_status(service.mirror_status()))
        return 0
    signal.signal(signal.SIGINT, lambda signum, frame: os._exit(128 + signal.SIGINT))

    def progress(name: str, pages: int, records: int, reached: str | None) -> None:
        print(f"mirror {name}: page {pages}, {records} records, reached {reached or '-'}", file=sys.stderr, flush=True)

    try:
        note = service.mirror_sync(config.mirror, due_only=False, report=progress)
    except ArxivMcpError as exc:
        print(
            concise(f"arxiv-mcp: the harvest stopped: {exc} (the next sync resumes where it stopped)"), file=sys.stderr
        )
        return 1
    print(note, file=sys.stderr)
    return 0 if not note.startswith("A mirror harvest is already running") else 1
