"""How many bytes the tool list costs a client: the whole tools/list answer and each tool.

Run: python benchmarks/tools_size.py [--limit 22500] [--groups]

Starts the real server (`python -m arxiv_mcp`, stdio, a throw-away cache home), asks it for
tools/list as a client does, and measures compact UTF-8 JSON: the whole `result` object, then
each tool (largest first) split into description, inputSchema and outputSchema. Every client
puts this text in the model's context on every turn, so it is worth keeping small.
Exits 1 when the whole answer is over --limit bytes. With --groups, first the bytes of each
tool group alone (ARXIV_MCP_TOOLS=read, cite, ...), as a client configured with it sees them.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: tests.jsonrpc is the repository's

from tests import jsonrpc  # noqa: E402

DEFAULT_LIMIT = 22_500
"""Issues 13 and 21: every tools/list a client reads goes into the model's context; keep it
under this, whatever arguments are added. It was 17,000 until the issues asked for new
tools: a tool an issue asks for raises it by what that tool costs, and nothing else does.
Issue 33 raised it by the 1,255 bytes of compare_versions (its output schema gives its four
lists as objects, as read_paper's items) and get_paper's `links` (100 bytes); issue 31 by
`list_new` (1.5 KB, the leanest it can be with an output schema) and the mirror's fields on
get_paper and category_trends (about 100 bytes; `mirror_status` is listed only with a
mirror); issue 30 by resolve_references (about 1,900 bytes with its output schema) and
get_references' `resolve` and `max_lookups` (about 250)."""


def size(value) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def fetch_tools_list(groups: str = "all") -> tuple[dict, int]:
    """The tools/list `result` from a fresh stdio server, and the byte size of its wire message."""
    messages = [*jsonrpc.handshake("tools-size"), jsonrpc.request(2, "tools/list")]
    with tempfile.TemporaryDirectory() as home:
        env = jsonrpc.environment()
        env.update(ARXIV_MCP_HOME=home, ARXIV_MCP_TOOLS=groups)
        talk = jsonrpc.converse([sys.executable, "-m", "arxiv_mcp"], messages, env, cwd=ROOT)
    if 2 not in talk.answers:
        raise RuntimeError(f"the server closed stdout before answering tools/list:\n{talk.stderr}")
    wire = next(line for line in talk.lines if json.loads(line).get("id") == 2)
    return talk.answers[2]["result"], len(wire.rstrip(b"\r\n"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=DEFAULT_LIMIT, help="bytes the whole answer may use")
    parser.add_argument("--groups", action="store_true", help="also the bytes of each tool group alone")
    args = parser.parse_args(argv)
    if args.groups:
        print(f"{'ARXIV_MCP_TOOLS':<16}{'tools':>6}{'bytes':>8}")
        for groups in ("read", "cite", "library", "explore", "read,cite", "all"):
            result, _ = fetch_tools_list(groups)
            print(f"{groups:<16}{len(result['tools']):>6}{size(result):>8}")
    result, wire = fetch_tools_list()
    total = size(result)
    tools = sorted(result["tools"], key=size, reverse=True)
    print(f"tools/list: {len(tools)} tools, {total} bytes compact JSON (wire message {wire} bytes; limit {args.limit})")
    print(f"{'tool':<18}{'bytes':>7}{'descr':>7}{'input':>7}{'output':>8}{'other':>7}")
    for tool in tools:
        parts = [size(tool.get(k, "")) if k in tool else 0 for k in ("description", "inputSchema", "outputSchema")]
        print(f"{tool['name']:<18}{size(tool):>7}{parts[0]:>7}{parts[1]:>7}{parts[2]:>8}{size(tool) - sum(parts):>7}")
    if total > args.limit:
        print(f"over the limit by {total - args.limit} bytes", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
