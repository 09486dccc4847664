"""The tools/list answer, which clients put in the model's context every turn, stays small."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "tools_size.py"


def _tools_size_module():
    spec = importlib.util.spec_from_file_location("tools_size", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_tools_list_answer_is_under_the_limit():
    tools_size = _tools_size_module()
    result, wire_bytes = tools_size.fetch_tools_list()
    total = tools_size.size(result)
    assert {"search_papers", "get_paper", "read_paper"} <= {t["name"] for t in result["tools"]}
    assert total <= wire_bytes
    by_tool = sorted(((tools_size.size(t), t["name"]) for t in result["tools"]), reverse=True)
    assert total < tools_size.DEFAULT_LIMIT, (
        f"tools/list is {total} bytes, over {tools_size.DEFAULT_LIMIT}; largest: {by_tool[:5]}"
    )
