"""The call's deadline, seen inside the work between two page checks: opening a file (pypdf
reads every object's header when it rebuilds a lost xref), measuring it, rebuilding it.

engine opens `watching(check)` around an extraction; every pypdf reader reads its file
through `Watched`, whose seeks call the check every CHECK_EVERY (pypdf seeks at least once
per object it reads, so a file of 10^6 objects is seen about a thousand times while opened),
and repair's loops over objects go through `every`. Outside `watching`, nothing is checked.
The check raises (engine's: ExtractionError naming the deadline); it is cheap (a clock read).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

T = TypeVar("T")
CHECK_EVERY = 1024
_check: ContextVar[Callable[[], None] | None] = ContextVar("arxiv_mcp_pdf_check", default=None)


@contextmanager
def watching(check: Callable[[], None]) -> Iterator[None]:
    """Run the enclosed extraction with `check` called at bounded intervals inside it."""
    token = _check.set(check)
    try:
        yield
    finally:
        _check.reset(token)


def every(items: Iterable[T], step: int = CHECK_EVERY) -> Iterator[T]:
    """`items`, the check called before the first and then every `step` of them."""
    current = _check.get()
    for index, item in enumerate(items):
        if current is not None and index % step == 0:
            current()
        yield item


class Watched(io.BytesIO):
    """A PDF's bytes for a pypdf reader: every CHECK_EVERY-th seek calls the check."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self._watch = _check.get()
        self._seeks = 0

    def seek(self, offset: int, whence: int = 0) -> int:
        self._seeks += 1
        if self._watch is not None and self._seeks % CHECK_EVERY == 0:
            self._watch()
        return super().seek(offset, whence)
