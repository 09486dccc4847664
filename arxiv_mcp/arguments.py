"""One actionable line for a tool call whose arguments do not fit the tool's input schema.

The SDK's own validation answers with a pydantic dump (several lines, documentation links)
and silently drops arguments it does not know, so `read_paper(offset=...)` would read page 1
as if asked. `server.py` runs `problem()` on the raw arguments first: an unknown name, a
missing required one, a value of the wrong JSON type or a choice not in its `enum` is refused with one line naming the
argument and what it accepts. Ranges are the service's to check (`bounds.py`).
"""

from __future__ import annotations

import difflib
import json
from typing import Any

ALIASES: dict[str, tuple[str, ...]] = {
    "arxiv_id": ("paper_id", "paper_ids", "id_list"),
    "id": ("paper_id",),
    "id_or_url": ("paper_id",),
    "paper": ("paper_id",),
    "url": ("paper_id",),
    "ids": ("paper_ids", "id_list", "paper_id"),
    "arxiv_ids": ("paper_ids", "id_list", "paper_id"),
    "paper_id": ("paper_ids", "id_list"),
    "offset": ("page", "start"),
    "max_chars": ("page_size",),
    "chunk_size": ("page_size",),
    "limit": ("max_results", "max_hits"),
    "max_results": ("limit", "max_hits"),
    "q": ("query",),
    "search_query": ("query",),
    "categories": ("category",),
    "sort": ("sort_by",),
    "format": ("fmt",),
    "days": ("window_days",),
}
"""Names other arXiv servers use, and ours for the same thing (first one the tool has wins)."""

_JSON_TYPES = {"string": "a string", "integer": "a whole number", "boolean": "true or false", "array": "a list"}
_INT64 = 2**63
_ID_NAMES = ("paper_id", "paper_ids", "id_list", "session_id")


def problem(tool: str, schema: dict[str, Any], arguments: dict[str, Any]) -> str | None:
    """The one line that says what is wrong with `arguments`, or None when they fit."""
    properties: dict[str, Any] = schema.get("properties", {})
    unknown = [name for name in arguments if name not in properties]
    if unknown:
        return _unknown(tool, unknown[0], list(properties))
    for name in schema.get("required", []):
        if arguments.get(name) is None:
            return f"{tool} needs {name}: {_accepts(name, properties[name])}."
    for name, value in arguments.items():
        if value is not None and not _fits(properties[name], value):
            hint = _number_for_id(name, value) or _json_for_text(properties[name], value)
            return f"{name} must be {_accepts(name, properties[name])}; got {_shown(value)}{hint}."
    return None


def without_nulls(arguments: dict[str, Any]) -> dict[str, Any]:
    """Arguments with every null left out: clients send null for "not given", and a left-out
    argument takes its default (a required one is reported missing by `problem`)."""
    return {name: value for name, value in arguments.items() if value is not None}


def _unknown(tool: str, name: str, valid: list[str]) -> str:
    ours = next((alias for alias in ALIASES.get(name, ()) if alias in valid), None)
    ours = ours or next(iter(difflib.get_close_matches(name, valid, n=1, cutoff=0.6)), None)
    guess = f" (did you mean {ours}?)" if ours else ""
    listed = ", ".join(valid) if valid else "none"
    return f"{tool} has no argument {name!r}{guess}; its arguments: {listed}."


def _accepts(name: str, prop: dict[str, Any]) -> str:
    """What a property accepts, from its schema: type, range and description."""
    kind = _kind(prop)
    words = _JSON_TYPES.get(kind, kind)
    if "enum" in prop:
        words = "one of " + ", ".join(str(choice) for choice in prop["enum"])
    if kind == "array":
        item = _JSON_TYPES.get(prop.get("items", {}).get("type", ""), "values")
        words = f"a list of {item.removeprefix('a ')}s"
    low, high = prop.get("minimum"), prop.get("maximum")
    if low is not None:
        words += f" from {low} to {high}" if high is not None else f" of {low} or more"
    if "maxItems" in prop:
        words += f" (at most {prop['maxItems']})"
    description = prop.get("description")
    return f"{words} ({description})" if description else words


def _kind(prop: dict[str, Any]) -> str:
    if "type" in prop:
        return str(prop["type"])
    options = [o.get("type") for o in prop.get("anyOf", []) if o.get("type") != "null"]
    return str(options[0]) if options else "value"


def _fits(prop: dict[str, Any], value: Any) -> bool:
    kind = _kind(prop)
    if "enum" in prop:
        return value in prop["enum"]
    if kind == "string":
        return isinstance(value, str)
    if kind == "integer":
        return _whole(value)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "array":
        item = prop.get("items", {})
        return isinstance(value, list) and all(_fits(item, v) for v in value)
    return True


def _whole(value: Any) -> bool:
    """A whole number as JSON sends it: 5, 5.0 or "5" (the SDK converts all three, within
    64 bits; past that it fails with a dump, so such a value is refused here)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, float):
        return value.is_integer() and abs(value) < _INT64
    if isinstance(value, str):
        digits = value.strip().removeprefix("-")
        return digits.isdigit() and digits.isascii() and int(digits) < _INT64
    return isinstance(value, int)


def _number_for_id(name: str, value: Any) -> str:
    numbers = value if isinstance(value, list) else [value]
    if name in _ID_NAMES and any(isinstance(v, (int, float)) and not isinstance(v, bool) for v in numbers):
        return ': quote ids, e.g. "2401.00010" (as a number it loses its trailing zeros)'
    return ""


def _json_for_text(prop: dict[str, Any], value: Any) -> str:
    """A text argument that arrived as a list or number: a client read what was typed as JSON
    (the Inspector CLI sends section=[12] as a list, section=4.10 as the number 4.1)."""
    if _kind(prop) != "string" or not isinstance(value, (list, int, float)) or isinstance(value, bool):
        return ""
    if isinstance(value, float):  # 4.10 arrived as 4.1: an example made from it would name 4.1
        return ": quote it so it is sent as text (as a number it loses its trailing zeros)"
    return f": quote it so it is sent as text, e.g. {json.dumps(json.dumps(value))}"


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
