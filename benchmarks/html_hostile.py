"""Time and memory of the HTML reader on generated hostile pages, each under the 100 MB download
limit: 81 MB of entity references, the same with characters outside Latin-1, a 3000x300-cell
table, 1M footnotes, 1M paragraphs, 10M elements. Each runs in its own process; printed: the
page size, the outcome (read, or refused and why), CPU and wall seconds, and the peak of what
the reader allocates beyond the page's bytes (tracemalloc, in a second read).

    python benchmarks/html_hostile.py [case ...]
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_HEAD = (
    b'<html><body><article class="ltx_document"><h1 class="ltx_title ltx_title_document">T</h1>'
    b'<section><h2 class="ltx_title ltx_title_section">1 A</h2><div>'
)
_TAIL = b"</div></section></article></body></html>"


def _page(case: str) -> bytes:
    if case == "entities":
        body = b"&amp;" * (81_000_000 // 5)
    elif case == "entities-wide":
        body = ("<p>x" + "\U0001f600" * 10 + "</p><!-- c -->").encode() * (81_000_000 // 60)
    elif case == "table":
        row = b"<tr>" + b"<td>x</td>" * 300 + b"</tr>"
        body = b'<figure class="ltx_table"><table class="ltx_tabular">' + row * 3000 + b"</table></figure>"
    elif case == "footnotes":
        body = b'<span class="ltx_note ltx_role_footnote">n</span>' * 1_000_000
    elif case == "paragraphs":
        body = b"<p>x</p>" * 1_000_000
    elif case == "elements":
        body = b"<b>x</b>" * 10_000_000
    else:
        raise SystemExit(f"unknown case {case!r}")
    return _HEAD + body + _TAIL


def _child(case: str, path: str) -> None:
    sys.path.insert(0, str(ROOT))
    from arxiv_mcp.errors import ArxivMcpError
    from arxiv_mcp.text.extract import from_html

    raw = Path(path).read_bytes()  # one copy, as the reader gets it from the cache
    wall, cpu = time.perf_counter(), time.process_time()
    outcome = _outcome(from_html, raw, ArxivMcpError)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    tracemalloc.start()  # a second read, traced: the peak of what the reader allocates
    _outcome(from_html, raw, ArxivMcpError)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(
        f"{case:14} {len(raw) / 1e6:6.1f} MB  cpu {cpu:5.1f} s  wall {wall:5.1f} s  "
        f"peak +{peak / 1e6:.0f} MB  {outcome}"
    )


def _outcome(read, raw: bytes, errors: type[Exception]) -> str:
    try:
        return f"read, {len(read(raw).text):,} chars"
    except errors as exc:
        return f"refused: {str(exc)[:70]}"


def main() -> int:
    if len(sys.argv) > 3 and sys.argv[1] == "--child":
        _child(sys.argv[2], sys.argv[3])
        return 0
    cases = sys.argv[1:] or ["entities", "entities-wide", "table", "footnotes", "paragraphs", "elements"]
    with tempfile.TemporaryDirectory() as folder:
        for case in cases:
            path = Path(folder) / "page.html"
            path.write_bytes(_page(case))
            subprocess.run([sys.executable, __file__, "--child", case, str(path)], check=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
