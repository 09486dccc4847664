"""The paper's own counters (`\\newcounter{Universal}[section]`): stepped by \\stepcounter and
\\refstepcounter, printed by \\theUniversal and \\arabic{Universal}, so an environment of the
paper's that numbers its blocks and equations on one counter prints the numbers LaTeX prints.
Only counters the paper creates, the numbered kinds (figure, table, equation) and the section
units are read; any other counter (`page`, a class's own) prints nothing, as before."""

from __future__ import annotations

import re

from .engine import KINDS, UNITS, Walk
from .numbering import STYLES

_NAME_RE = re.compile(r"[A-Za-z]{1,40}")


def cmd_new_counter(w: Walk, i: int, name: str) -> int:
    """\\newcounter{name}[reset by]: a counter of the paper's, numbered within that unit."""
    found = w.raw_text(i)
    if found is None:
        return i
    counter, after = found[0].strip(), found[1]
    within = w.optional(after)
    unit = "".join(w.toks[within[0] + 1][1].split()) if within and within[1] == within[0] + 2 else ""
    if _NAME_RE.fullmatch(counter) and counter not in KINDS and counter not in UNITS:
        w.meta.counters.add(counter)
        if unit in UNITS:
            w.numbers.within[counter] = unit
    return within[1] + 1 if within else after


def cmd_step_counter(w: Walk, i: int, name: str) -> int:
    """\\stepcounter{name}, and \\refstepcounter{name}, whose number the next \\label names."""
    found = w.raw_text(i)
    if found is None:
        return i
    counter = found[0].strip()
    if counter in w.meta.counters:
        number = w.numbers.advance(counter)
        if name == "refstepcounter":
            w.current_label = (counter, number)
            w.anchor = None
    return found[1]


def cmd_count(w: Walk, i: int, name: str) -> int:
    """\\arabic{name} (\\roman, \\Alph, ...): the counter's count in that style."""
    found = w.raw_text(i)
    if found is None:
        return i
    counter = found[0].strip()
    level = w.numbers.levels().get(counter)
    if level is not None:
        w.sink.write(STYLES[name](w.numbers.counters[level]))
    elif counter in w.meta.counters or counter in KINDS:
        unit = w.numbers.counter_unit(counter)[0]
        w.sink.write(STYLES[name](w.numbers.counts.get(f"{counter}:{unit}", 0)))
    return found[1]
