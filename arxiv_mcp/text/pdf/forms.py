"""Form XObjects that cannot give text, hidden from pypdf while it reads a page.

pypdf skips a content stream without text operators, unless a visitor is passed: then it
parses every form each time it is drawn, and a figure drawn as thousands of small forms
(1706.03762: 5,130 invocations on one page) costs twice bare pypdf. We pass visitors (the
deadline's operator check, the font spy), so before reading a page the forms that can give
no text (no text operator in their bytes, no forms of their own) are marked as images, which
pypdf skips, and put back right after. The walk that finds them, `drawn_forms` (each form a
page may draw, at most MAX_FORMS), also gives fonts the forms' fonts to look at.

Invariant: only a form with no text operator anywhere in its decoded bytes and no /XObject
of its own is hidden (a false "has text" costs time, never text), and every mark is undone
before `hidden_textless_forms` returns, so the reader's objects are as they were.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .work import resolved as _resolved

_TEXT_OPERATORS = (b"Tj", b"TJ", b"'", b'"')
MAX_FORMS = 20_000
"""Forms looked at per page at most: past that the rest are left to pypdf (and its limits)."""


@contextmanager
def hidden_textless_forms(page: Any) -> Iterator[int]:
    """While open, the page's text-less forms read as images to pypdf; yields how many."""
    from pypdf.generic import NameObject

    hidden: list[tuple[Any, Any]] = []
    try:
        for form in _textless_forms(page):
            hidden.append((form, form.get("/Subtype")))
            form[NameObject("/Subtype")] = NameObject("/Image")
        yield len(hidden)
    finally:
        for form, subtype in hidden:
            form[NameObject("/Subtype")] = subtype


def drawn_forms(page: Any) -> Iterator[Any]:
    """Each form XObject the page (a page or form dictionary) may draw, itself or through its
    forms, once; after MAX_FORMS forms, only the rest of the resources being looked at."""
    seen: set[int] = set()
    pending = [_resolved(page.get("/Resources"))]
    while pending and len(seen) < MAX_FORMS:
        resources = pending.pop()
        xobjects = _resolved(resources.get("/XObject")) if isinstance(resources, dict) else None
        if not isinstance(xobjects, dict):
            continue
        for reference in xobjects.values():
            form = _resolved(reference)
            if id(form) in seen or not isinstance(form, dict) or form.get("/Subtype") != "/Form":
                continue
            seen.add(id(form))
            own = _resolved(form.get("/Resources"))
            if isinstance(own, dict) and own.get("/XObject") is not None:
                pending.append(own)
            yield form


def _textless_forms(page: Any) -> Iterator[Any]:
    for form in drawn_forms(page):
        own = _resolved(form.get("/Resources"))
        if not (isinstance(own, dict) and own.get("/XObject") is not None) and not _may_show_text(form):
            yield form


def _may_show_text(form: Any) -> bool:
    try:
        data = form.get_data()
    except Exception:  # undecodable: let pypdf decide (and report) as it would
        return True
    return not isinstance(data, bytes) or any(operator in data for operator in _TEXT_OPERATORS)
