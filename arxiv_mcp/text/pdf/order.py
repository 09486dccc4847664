"""Floats and footnotes put back out of the paragraph they interrupt, in an engine's lines.

A TeX engine writes a page column by column: a paragraph that runs from the foot of one column
to the head of the next is interrupted, in the content stream and so in both engines' text, by
what the page sets between: the first column's footnotes, then a float (figure or table) at
the head of the next column ("... deep networks, trans-" / "1 Counted by hand." / "Figure 1:
Herds ..." / "formers trained on ..."). A reader skips those, and so does this pass: a run of
lines that starts with a caption or a footnote (or a figure's own words: short lines, with
the figure's caption after them) right after a line that does not end its sentence, or at the
head of a page when the page before ended inside a paragraph, and ends where the paragraph
resumes (a line starting in lower case after one that ends a sentence), is moved out: its
captions to the end of the paragraph, its footnotes to the end of the page's text.

Invariants: lines are only moved, never changed, added or dropped (but blank lines around a
moved run); a run never spans a heading or a page marker (`#` lines), and nothing moves past
the page's end; a run is moved only when the paragraph is seen to resume within PARAMS.max_run lines,
right after the run, so text that merely looks like a footnote's start ("12 Galaxies ...")
stays where it is unless a paragraph visibly goes on around it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from .params import PARAMS

# A footnote's first line: its mark (a number or a symbol, perhaps raised and so glued to the
# word) and a capitalised word: "7 The Lemaître–Tolman model ...", "∗Corresponding author".
FOOTNOTE_START = re.compile(
    r"(?:\d{1,2}|[\u2217*\u2020\u2021\u00a7\u00b6]{1,2}) ?[A-Z][a-z\u00df-\u00ff]+(?=[\s,.;:)\u2013-])"
)  # a capitalised word, not a unit ("1 GeV/c µ+ is ...")
_GOES_ON = re.compile(r"[a-z\u00df-\u00ff]{2,}\b|a\s")  # a sentence's words go on (not a table's "n ℓ a")
_CLOSERS = ")]'\"\u2019\u201d"  # closing brackets and quotes a sentence's stop may have after it
# a sentence's end, not an abbreviation's ("et al.", "e.g.", "Fig."): a small word of three
# letters or more, a number or a bracket before the stop
_SENTENCE_END = re.compile(rf"(?:[a-z]{{3,}}|\d|[)\]])[.!?][{re.escape(_CLOSERS)}]*$")


@functools.lru_cache(maxsize=4096)  # asked of one line again by each run start scanning past it
def ends_sentence(line: str) -> bool:
    # a line that does not end with a stop (most: a paragraph's lines run on) is not searched;
    # the pattern tried at each place of the tail cost more than the test
    if not ends_with_stop(line) and not line.endswith("\n"):
        return False
    # its tail only: searched from every start of a line of one endless word, the pattern's
    # letters would run to the line's end each time (quadratic)
    return bool(_SENTENCE_END.search(line[-_TAIL:]))


_TAIL = 24  # a sentence's last word, its stop and closing marks


def ends_with_stop(line: str) -> bool:
    """Whether `line` ends with a stop (`.`, `!` or `?`, closing brackets and quotes after it
    allowed): a sentence's end, or an abbreviation's ("et al."), which ends_sentence tells apart."""
    tail = line.rstrip(_CLOSERS)
    return bool(tail) and tail[-1] in ".!?"


def reading_order(
    lines: list[str], short: int, is_caption: Callable[[list[str], int], bool], continued: bool = False
) -> list[str]:
    """A page's `lines` with each interrupting run of captions and footnotes moved out (see above).

    `short`: a line shorter than this ends its paragraph; `is_caption(lines, i)`: whether
    line i opens a figure's or a table's caption; `continued`: the page before ended inside a
    paragraph, which this page's first text goes on (when it does not start with a float).
    """
    out = list(lines)
    index = 0
    before = -1  # the last line with text before `index`
    while index < len(out):
        line = out[index]
        # _move_run's first tests, here: most lines follow a line that ends its paragraph or
        # sentence, or a heading, and a call per line cost more than the tests
        if line and not line.startswith("#") and (before >= 0 or continued):
            interrupted = out[before] if before >= 0 else ""
            if before < 0 or not (
                interrupted.startswith("#") or len(interrupted) < short or ends_sentence(interrupted)
            ):
                moved = _move_run(out, index, short, is_caption, continued)
                if moved is not None:
                    index = moved
                    before = next((i for i in range(index - 1, -1, -1) if out[i]), -1)
                    continue
        if line:
            before = index
        index += 1
    return out


def _move_run(
    out: list[str], start: int, short: int, is_caption: Callable[[list[str], int], bool], continued: bool
) -> int | None:
    """Moves the run starting at `start`, if one does; returns where to look next."""
    line = out[start]
    if not line or line.startswith("#"):
        return None
    before = start - 1  # the cheap test first: most lines follow a line that ends its paragraph or sentence
    while before >= 0 and not out[before]:
        before -= 1
    if before < 0 and not continued:
        return None
    interrupted = out[before] if before >= 0 else ""
    if before >= 0 and (interrupted.startswith("#") or len(interrupted) < short or ends_sentence(interrupted)):
        return None
    opens = bool(FOOTNOTE_START.match(line)) or is_caption(out, start)
    if not opens and not _debris(line, short):
        return None
    found = _resumes(out, start, short, is_caption)
    if found is None or not (opens or found[1]):
        return None  # a run of a figure's own words must hold its caption
    resume = found[0]
    end = _paragraph_end(out, resume, short)
    captions, footnotes = _parts(out[start:resume], is_caption)
    rebuilt = [*out[resume:end], "", *captions, "", *out[end:]]
    if footnotes:
        rebuilt += ["", *footnotes]
    trailing = [""] if not out[-1] else []  # a page's last blank line separates it from the next
    rebuilt = _single_blanks(rebuilt)
    while rebuilt and not rebuilt[-1]:
        rebuilt.pop()
    out[before + 1 :] = rebuilt + trailing
    return before + 1 + (end - resume)


def _debris(line: str, short: int) -> bool:
    """A short line that does not end a sentence: a figure's own words ("Scattering angle (deg)")."""
    return len(line) < short and not ends_sentence(line) and not _GOES_ON.match(line)


def _resumes(
    out: list[str], start: int, short: int, is_caption: Callable[[list[str], int], bool]
) -> tuple[int, bool] | None:
    """The line where the interrupted paragraph goes on, in lower case after a sentence's end,
    and whether a caption came before it; None when a line after a sentence's end neither goes
    on nor opens another caption or footnote nor is a figure's word (the run was the start of
    something else: the paragraph does not resume here)."""
    for index in range(start + 1, min(len(out), start + PARAMS.max_run)):
        line, previous = out[index], out[index - 1]
        if line.startswith("#"):
            return None
        if previous and not ends_sentence(previous):
            continue
        if _GOES_ON.match(line) and (len(line) >= short or ends_sentence(line)):
            return index, any(is_caption(out, i) for i in range(start, index + 1))  # asked once, here
        if line and not (is_caption(out, index) or FOOTNOTE_START.match(line) or _debris(line, short)):
            return None
    return None


def _paragraph_end(out: list[str], resume: int, short: int) -> int:
    """The index just past the resumed paragraph's last line."""
    for index in range(resume, min(len(out), resume + PARAMS.max_paragraph)):
        line = out[index]
        if not line or line.startswith("#"):
            return index
        if len(line) < short and ends_sentence(line):
            return index + 1
    return min(len(out), resume + PARAMS.max_paragraph)


def _parts(run: list[str], is_caption: Callable[[list[str], int], bool]) -> tuple[list[str], list[str]]:
    """The run's caption lines and footnote lines, each part with the lines that go on it."""
    captions: list[str] = []
    footnotes: list[str] = []
    current = footnotes if FOOTNOTE_START.match(run[0]) else captions  # a figure's words go with its caption
    for index, line in enumerate(run):
        if is_caption(run, index):
            current = captions
            if captions:
                captions.append("")
        elif FOOTNOTE_START.match(line) and (index == 0 or ends_sentence(run[index - 1]) or not run[index - 1]):
            current = footnotes
            if footnotes:
                footnotes.append("")
        current.append(line)
    return captions, footnotes


def _single_blanks(lines: list[str]) -> list[str]:
    """`lines` with runs of blank lines made one and no blank line first."""
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return out
