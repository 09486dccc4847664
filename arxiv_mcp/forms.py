"""The text and structured content of an answer, made once per answer object.

A warm read served again hands back the very same answer object (rereads.py); shipping it
again does not render and convert it again (a dataclass's `asdict` deep-copies every field).
An entry lives exactly as long as its answer: it goes when the answer is freed, so nothing is
kept alive here. The forms are shared between calls: nothing downstream may mutate them.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from dataclasses import asdict
from typing import Any


class AnswerForms:
    def __init__(self) -> None:
        self._forms: dict[int, tuple[weakref.ref[Any], str, dict[str, Any]]] = {}
        self._lock = threading.RLock()  # a freed answer's callback may run in any thread

    def of(self, answer: Any, text: Callable[[Any], str]) -> tuple[str, dict[str, Any]]:
        """`text(answer)` and `asdict(answer)`, made the first time this object is shipped."""
        key = id(answer)
        kept = self._forms.get(key)
        if kept is not None and kept[0]() is answer:
            return kept[1], kept[2]
        rendered, structured = text(answer), asdict(answer)
        with self._lock:
            self._forms[key] = (weakref.ref(answer, lambda ref: self._forget(key, ref)), rendered, structured)
        return rendered, structured

    def _forget(self, key: int, ref: weakref.ref[Any]) -> None:
        with self._lock:
            kept = self._forms.get(key)
            if kept is not None and kept[0] is ref:
                del self._forms[key]

    def __len__(self) -> int:
        return len(self._forms)
