"""The tools' JSON schemas as clients see them: compacted, and stored for start-up.

No `mcp` here. The server derives each tool's schemas from its signature through the SDK and
compacts them (`input_schema`, `output_schema`): every tools/list goes into the model's
context. `SCHEMAS_FILE` holds the result for every tool, so start-up builds no pydantic model;
tests/test_tool_schemas.py checks that it matches what the signatures give (and rewrites it
when run as `python -m tests.test_tool_schemas`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SCHEMAS_FILE = Path(__file__).with_name("tool_schemas.json")
"""Every tool's input and output schema, as `server.derived_tools` makes them."""


def stored() -> dict[str, dict[str, Any]]:
    """Tool name -> {"input": schema, "output": schema}, as `SCHEMAS_FILE` holds them."""
    schemas: dict[str, dict[str, Any]] = json.loads(SCHEMAS_FILE.read_text(encoding="utf-8"))
    return schemas


def input_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """An input schema as every client takes it: an optional argument is just its type (absent
    and null mean the same to every tool), no per-field titles, no null defaults."""
    walked: dict[str, Any] = _walk(schema, drop_null=True)
    return walked


def output_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """An output schema without what no client needs: titles, defaults, the models' docstrings
    and `required` (structured content is a dataclass's `asdict`, so every field is always
    there; the lists cost 1.7 KB of every tools/list). A nullable field stays `anyOf [T, null]`
    (a `type` array is less portable)."""
    walked: dict[str, Any] = _walk(schema, drop_null=False)
    return walked


def _walk(schema: Any, *, drop_null: bool) -> Any:
    if isinstance(schema, list):
        return [_walk(s, drop_null=drop_null) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "title" and isinstance(value, str):
            continue
        if key == "default" and (value is None or not drop_null):
            continue
        if key == "description" and not drop_null and isinstance(value, str):
            continue
        if key == "required" and not drop_null and isinstance(value, list):
            continue
        if key in ("properties", "$defs"):
            out[key] = {name: _walk(v, drop_null=drop_null) for name, v in value.items()}
        else:
            out[key] = _walk(value, drop_null=drop_null)
    options = out.get("anyOf")
    if drop_null and isinstance(options, list) and len(options) == 2 and {"type": "null"} in options:
        del out["anyOf"]
        out.update(options[0] if options[1] == {"type": "null"} else options[1])
    return out
