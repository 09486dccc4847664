"""Where a line of a PDF's text ends its sentence: a paragraph's last line is told by it.

Invariant: the tests read one line's tail only (bounded work per line, whatever its length).
"""

from __future__ import annotations

import functools
import re

_CLOSERS = ")]'\"\u2019\u201d"  # closing brackets and quotes a sentence's stop may have after it
# a sentence's end, not an abbreviation's ("et al.", "e.g.", "Fig."): a small word of three
# letters or more, a number or a bracket before the stop
_SENTENCE_END = re.compile(rf"(?:[a-z]{{3,}}|\d|[)\]])[.!?][{re.escape(_CLOSERS)}]*$")
_TAIL = 24  # a sentence's last word, its stop and closing marks


@functools.lru_cache(maxsize=4096)  # asked of one line again by the passes that scan past it
def ends_sentence(line: str) -> bool:
    """Whether `line` ends a sentence (not an abbreviation: "et al.")."""
    # a line that does not end with a stop (most: a paragraph's lines run on) is not searched
    if not ends_with_stop(line) and not line.endswith("\n"):
        return False
    # its tail only: searched from every start of a line of one endless word, the pattern's
    # letters would run to the line's end each time (quadratic)
    return bool(_SENTENCE_END.search(line[-_TAIL:]))


def ends_with_stop(line: str) -> bool:
    """Whether `line` ends with a stop (`.`, `!` or `?`, closing brackets and quotes after it
    allowed): a sentence's end, or an abbreviation's ("et al."), which ends_sentence tells apart."""
    tail = line.rstrip(_CLOSERS)
    return bool(tail) and tail[-1] in ".!?"
