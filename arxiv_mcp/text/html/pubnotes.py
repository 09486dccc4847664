"""latexml-oxide's publication-metadata notes (`ltx_pubnotes_meta`): one short line per note.

acmart's DOI, journal, CCS concepts and the like are `ltx_pubnote` elements, each with its
`ltx_note_name` ("DOI: ", "Journal: "). Each named note becomes one line (`Journal: JACM`)
where the block stands; notes without a name (a bare issue number or month) and template
placeholders (`XXXXXXX.XXXXXXX`) say nothing and are dropped. The block may sit inside the
title's `<h1>` on older conversions: its lines never join the title.
"""

from __future__ import annotations

import re

from .flow import Flow
from .parts import PUBNOTE, PUBNOTES, Frame, Sink

Attributes = dict[str, str | None]

_PLACEHOLDER_RE = re.compile(r"X{4,}")
_MAX_LINES = 50
_MAX_LINE_CHARS = 300


class PubNotes:
    """Collects the metadata notes of a pubnotes block and writes them as lines."""

    def __init__(self, flow: Flow) -> None:
        self._flow = flow
        self._lines: list[str] = []

    def start_block(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        self._flow.push(Frame(tag, PUBNOTES))
        return True

    def start_note(self, tag: str) -> None:
        self._flow.push_sink(tag, PUBNOTE)

    def start_name(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        """A note's name ("Journal: ") is read as its text; it marks the note as one worth a line."""
        if sink.kind == PUBNOTE:
            sink.label = "named"
        return False

    def close_note(self, frame: Frame, sink: Sink) -> None:
        text = sink.text()
        if sink.label and text and not _PLACEHOLDER_RE.search(text) and len(self._lines) < _MAX_LINES:
            self._lines.append(text[:_MAX_LINE_CHARS])

    def close_block(self, frame: Frame) -> None:
        lines, self._lines = self._lines, []
        if lines:
            self._flow.emit_lines(lines)
