"""Lone UTF-16 surrogates: text that JSON can carry and UTF-8 cannot.

JSON may escape a code point as `\\ud800` with no partner. Python's `json` reads that into a
str no UTF-8 encoder accepts, and the SDK's parser refuses the whole message, so a request
holding one went unanswered (with no id read, there is nobody to answer). Two rules:

- upstream text (Atom, Semantic Scholar) is repaired: each lone surrogate becomes U+FFFD
  (`repair`, `repair_tree`), so what reaches the model always encodes;
- a client's message is repaired the same way before the SDK reads it (`repair_message`:
  stdio lines and HTTP bodies), and a request that carried one is marked in its `_meta`
  under `MARK` with the names of the values that held one, so the server refuses it with
  one line instead of acting on altered text.

A message with no `\\uD800`-`\\uDFFF` escape (nearly all) is passed on byte for byte.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from typing import Any, BinaryIO

MARK = "io.github.arxiv-mcp/lone-surrogates"
"""`_meta` key of a repaired request: the dotted names of the values that held one."""

_LONE = re.compile("[\ud800-\udfff]")
"""After `json.loads` has joined every valid pair, any surrogate left is a lone one."""
_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_MAX_NAMED = 5


def repair(text: str) -> str:
    """`text` with each lone surrogate replaced by U+FFFD."""
    return _LONE.sub("\ufffd", text)


def has_lone(text: str) -> bool:
    return _LONE.search(text) is not None


def repair_tree(value: Any, path: str = "") -> tuple[Any, list[str]]:
    """A JSON value with every string (keys too) repaired, and where repairs were made."""
    if isinstance(value, str):
        return (repair(value), [path or "value"]) if has_lone(value) else (value, [])
    found: list[str] = []
    if isinstance(value, list):
        items = []
        for index, item in enumerate(value):
            fixed, where = repair_tree(item, f"{path}[{index}]")
            items.append(fixed)
            found += where
        return items, found
    if isinstance(value, dict):
        members = {}
        for key, item in value.items():
            name = f"{path}.{key}" if path else str(key)
            if isinstance(key, str) and has_lone(key):
                key, name = repair(key), repair(name)
                found.append(name)
            fixed, where = repair_tree(item, name)
            members[key] = fixed
            found += where
        return members, found
    return value, found


def repair_message(raw: bytes) -> bytes:
    """One JSON-RPC message (or batch) as bytes, repaired and marked as the module says."""
    if _ESCAPE.search(raw) is None:
        return raw
    try:
        message = json.loads(raw)
    except (ValueError, RecursionError):
        return raw  # not JSON: the SDK answers it as a parse error
    fixed = [_repair_one(m) for m in message] if isinstance(message, list) else _repair_one(message)
    if fixed == message:
        return raw  # every escape was half of a valid pair
    end = b"\n" if raw.endswith(b"\n") else b""
    return json.dumps(fixed, ensure_ascii=False, separators=(",", ":")).encode() + end


def _repair_one(message: Any) -> Any:
    fixed, where = repair_tree(message)
    if not where or not isinstance(fixed, dict) or "method" not in fixed or "id" not in fixed:
        return fixed  # a notification or a response: nothing to refuse, repairing is enough
    params = fixed.get("params")
    if not isinstance(params, dict):
        return fixed
    meta = params.get("_meta")
    meta = dict(meta) if isinstance(meta, dict) else {}
    names = [name.removeprefix("params.").removeprefix("arguments.") for name in where]
    meta[MARK] = names[:_MAX_NAMED]
    return {**fixed, "params": {**params, "_meta": meta}}


def refusal(names: list[str]) -> str:
    """The one line answering a request that carried a lone surrogate."""
    shown = ", ".join(str(name) for name in names[:_MAX_NAMED]) or "a value"
    return (
        f"{shown} holds a lone UTF-16 surrogate (a \\ud800-\\udfff escape without its pair), which is "
        "not text: send the value as valid Unicode and call again."
    )


class _RepairingReader(io.RawIOBase):
    """A binary stream of JSON-RPC lines, each passed through `repair_message`."""

    def __init__(self, source: BinaryIO, at_end: Callable[[], None]) -> None:
        super().__init__()
        self._source = source
        self._at_end = at_end
        self._line = memoryview(b"")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if not self._line:
            raw = self._source.readline()
            if not raw:
                self._at_end()
            self._line = memoryview(repair_message(raw))
        size = min(len(buffer), len(self._line))
        buffer[:size] = self._line[:size]
        self._line = self._line[size:]
        return size


def repairing_stdin(source: BinaryIO, at_end: Callable[[], None] = lambda: None) -> io.TextIOWrapper:
    """A text stdin whose lines are repaired; it has no file descriptor, so the SDK reads it
    in place instead of claiming descriptor 0. `at_end` runs when it reaches its end."""
    reader = _RepairingReader(source, at_end)
    return io.TextIOWrapper(io.BufferedReader(reader), encoding="utf-8", errors="replace")
