"""Theorem-like blocks and footnotes typed over a built document, from what its text prints.

Every extractor writes a theorem-like block as the paper prints it: a run-in head at a
paragraph's start (`Theorem 2.3.`, `Lemma 4.1 (Name).`, `Proof of Theorem 2.3.`): the LaTeX
walk writes amsthm's head from the paper's `\\newtheorem`, LaTeXML's run-in title leads the
block's first paragraph, and a PDF prints it. `typed` reads those heads (`heads.py`) once over
the built document, whatever its source, and makes each headed paragraph a `Statement` block;
a head that starts a line inside a paragraph (a PDF that did not break the paragraph there)
splits it. A proof proves what its head names (`Proof of Theorem 2.3`), else the numbered
statement it directly follows (no heading and at most a few blocks between).

Footnotes: the HTML and LaTeX extractors leave each where it is attached, as `[^N: text]`
(HTML, with its printed mark) or `[^text]` (LaTeX). Each becomes a `Footnote` block over that
span, splitting the paragraph around it (the text is unchanged). An unmarked one is numbered
as LaTeX numbers them: 1, 2, ... in order after the first section heading; before it (the
title's `\\thanks`) `*`, `†`, `‡`, ... A document that already has footnote blocks (a PDF's,
from its pages' feet) keeps them.

Invariants: the text, citations and notes are unchanged; blocks stay in order without
overlapping; only paragraph (and, for footnotes, list) blocks are retyped. Linear in the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from .document import Block, Document, Footnote, Kind, Statement
from .heads import Head, head_at

_PROOF_REACH = 12
"""Blocks a proof may stand after the statement it proves (its display equations, a remark)."""
_SYMBOLS = ("*", "†", "‡", "§", "¶", "‖", "**", "††", "‡‡")
_MARK_RE = re.compile(r"(?P<mark>\d{1,3}|[a-z]|[*†‡§¶‖∗⋆]{1,3}|\$[^$\n]{1,24}\$):\s")
_MAX_NOTE = 20_000
_INNER_HEAD_RE = re.compile(r"(?:\n|(?<=[.!?])[ \t]+)(?=[A-Z])")
"""Where a head may start inside a paragraph: a line start (a PDF paragraph not broken there),
or a numbered head right after a sentence (one a PDF ran into the paragraph before it)."""
_SENTENCE_ENDS = frozenset(".!?:)]$∎□■")
_WORD_RE = re.compile(r"\S")


def typed(doc: Document) -> Document:
    """`doc` with its theorem-like paragraphs and inline footnotes as typed blocks."""
    if not doc.blocks:
        return doc
    blocks: list[Block] = list(doc.blocks)
    if not any(block.kind is Kind.FOOTNOTE for block in blocks) and "[^" in doc.text:
        blocks = list(_with_footnotes(doc.text, blocks))
    blocks = list(_with_statements(doc.text, blocks))
    return replace(doc, blocks=tuple(blocks))


# --- statements -----------------------------------------------------------------------------


def _with_statements(text: str, blocks: list[Block]) -> Iterator[Block]:
    last: str | None = None  # `Theorem 2.3`: the last numbered statement, for the proof after it
    since = 0
    for index, block in enumerate(blocks):
        if block.kind is Kind.HEADING:
            last = None
        if block.kind is not Kind.PARAGRAPH:
            yield block
            since += 1
            continue
        following = blocks[index + 1] if index + 1 < len(blocks) else None
        for start, end, head in _pieces(text, block, _display(text, following)):
            if head is None:
                yield Block(Kind.PARAGRAPH, start, end)
                since += 1
                continue
            proves = None
            if head.kind == "proof":
                proves = head.of or (last if since <= _PROOF_REACH else None)
            yield Block(Kind.STATEMENT, start, end, Statement(head.kind, head.label, head.number, head.note, proves))
            if head.kind != "proof" and head.number:
                last, since = f"{head.label} {head.number}", 0
            else:
                since += 1


def _display(text: str, block: Block | None) -> bool:
    """Whether `block` is display math or a list, which a statement may open with (LaTeXML
    writes the run-in head of `\\begin{theorem}\\begin{itemize}` as a paragraph of its own)."""
    if block is None:
        return False
    return block.kind in (Kind.LIST, Kind.EQUATION) or text.startswith("$$", block.start)


def _pieces(text: str, block: Block, display_next: bool = False) -> Iterator[tuple[int, int, Head | None]]:
    """The paragraph cut where a head starts inside it; each piece with its head (or None).
    A paragraph that is a head alone is one only before display math or a list."""
    cuts = [(block.start, _head(text, block.start, block.end, alone=display_next))]
    for match in _INNER_HEAD_RE.finditer(text, block.start, block.end):
        head = _head(text, match.end(), block.end)
        if head is None or (match.group(0)[0] != "\n" and head.number is None and head.kind != "proof"):
            continue  # `… > 0. Proof. We fix T` (a PDF that ran the proof into its lemma) is a head
        before = _last_char(text, block.start, match.start())
        colon_line = match.group(0) == "\n" and head.number is not None and text[head.end - 1] == ":"
        if before and (before in _SENTENCE_ENDS or colon_line):  # `We show\nTheorem 1.14: ...`
            cuts.append((match.end(), head))
    for index, (start, head) in enumerate(cuts):
        end = cuts[index + 1][0] if index + 1 < len(cuts) else block.end
        while end > start and text[end - 1].isspace():
            end -= 1
        if end > start:
            yield start, end, head


def _head(text: str, start: int, end: int, alone: bool = False) -> Head | None:
    """The head at `start`, when words follow it in the paragraph (a line `Theorem 1.15.` that
    ends a paragraph is the end of a sentence broken over lines), or `alone` allows none. A
    proof that names what it proves may stand alone: `{\\bf Proof of Theorem 1.6}` is a
    paragraph of its own in LaTeX, its proof in the paragraphs after it."""
    head = head_at(text, start, end)
    if head is None or not (alone or head.of is not None or _WORD_RE.search(text, head.end, end)):
        return None
    return head


def _last_char(text: str, start: int, end: int) -> str:
    """The last character of `text[start:end]` that is not a space ("" if none)."""
    while end > start and text[end - 1].isspace():
        end -= 1
    return text[end - 1] if end > start else ""


# --- footnotes ------------------------------------------------------------------------------


def _with_footnotes(text: str, blocks: list[Block]) -> Iterator[Block]:
    counted = 0
    symbols = 0
    in_body = False
    for block in blocks:
        if block.kind is Kind.HEADING and block.record is not None and getattr(block.record, "level", 1) > 1:
            in_body = True
        if block.kind not in (Kind.PARAGRAPH, Kind.LIST):
            yield block
            continue
        position = block.start
        for start, end in _notes(text, block.start, block.end):
            inner = text[start + 2 : end - 1]
            marked = _MARK_RE.match(inner)
            if marked:
                mark, words = marked.group("mark"), inner[marked.end() :]
            elif in_body:
                counted += 1
                mark, words = str(counted), inner
            else:
                mark, words = _SYMBOLS[min(symbols, len(_SYMBOLS) - 1)], inner
                symbols += 1
            yield from _paragraph(text, block.kind, position, start)
            yield Block(Kind.FOOTNOTE, start, end, Footnote(mark, " ".join(words.split())))
            position = end
        yield from _paragraph(text, block.kind, position, block.end)


def _paragraph(text: str, kind: Kind, start: int, end: int) -> Iterator[Block]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start < end:
        yield Block(kind, start, end)


def _notes(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """Spans of `[^...]` in `text[start:end]`, brackets inside balanced (`[^see [12]]`)."""
    found = text.find("[^", start, end)
    while found >= 0:
        depth, k = 0, found
        limit = min(end, found + _MAX_NOTE)
        while k < limit:
            char = text[k]
            if char == "[":
                depth += 1
            elif char == "]":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        if k >= limit:
            return
        yield found, k + 1
        found = text.find("[^", k + 1, end)
