"""Counters as the paper sets and prints them, where it says so in the body or the preamble:
\\setcounter and \\addtocounter, \\numberwithin and \\counterwithin, and a renewed
\\thefigure (`S1`, `A1`, a table's own `2a`) or \\tablename. A definition inside an
environment holds to its \\end, as TeX's grouping has it; one the walk cannot read (a macro of
the paper's, \\fnsymbol) changes nothing, so the numbers stay LaTeX's defaults.

The paper's own counters (`\\newcounter{Universal}[section]`) are stepped by \\stepcounter and
\\refstepcounter and printed by \\theUniversal and \\arabic{Universal}, so an environment of the
paper's that numbers its blocks and equations on one counter prints the numbers LaTeX prints.
Only counters the paper creates, the numbered kinds (figure, table, equation) and the section
units are read; any other counter (`page`, a class's own) prints nothing."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import Any

from .engine import Walk
from .numbering import KINDS, STYLES, UNITS, Shape
from .tokens import BEGIN, CMD, TEXT

_NAME_RE = re.compile(r"[A-Za-z]{1,40}")
_FLOAT_NAMES = {"figurename": "Figure", "tablename": "Table"}
_ENVIRONMENT_LOOKBACK = 2000  # tokens searched back for the environment a definition is in


def cmd_set_counter(w: Walk, i: int, name: str) -> int:
    """\\setcounter{figure}{4} (the next figure is 5) and \\addtocounter{equation}{-1}, on
    the numbered kinds, the section units and the paper's own counters."""
    found = w.raw_text(i)
    value = w.raw_text(found[1]) if found else None
    if found is None or value is None:
        return w.skip_spec(i, "mm")
    counter, written = found[0].strip(), value[0].strip()
    if w.numbers.keeps(counter) and re.fullmatch(r"-?\d{1,6}", written):
        w.numbers.set(counter, int(written), add=name == "addtocounter")
    return value[1]


def cmd_number_within(w: Walk, i: int, name: str) -> int:
    """\\numberwithin{equation}{section} (or \\counterwithin) in the body, often after
    \\appendix: from there on the counter resets with the unit and prints `A.1`; \\counterwithout
    undoes it. The starred forms change only the reset: the counter prints as it did."""
    star = i < len(w.toks) and w.toks[i] == (TEXT, "*")
    found = w.raw_text(i + star)
    unit = w.raw_text(found[1]) if found and name != "counterwithout" else None
    if found is None:
        return i
    counter = found[0].strip()
    if counter in KINDS:
        printed = w.numbers.shape(counter)
        if unit is not None and unit[0].strip() in UNITS:
            w.numbers.within[counter] = unit[0].strip()
        elif name == "counterwithout":
            w.numbers.within[counter] = ""
        put(w.numbers.shapes, counter, printed if star else None)
    return unit[1] if unit else found[1]


def cmd_renew_the(w: Walk, i: int, name: str) -> int:
    """\\renewcommand{\\thefigure}{S\\arabic{figure}} (supplementary S1, appendix A1, 5.1a) or
    \\thesection (`\\Roman{section}`: I, II.1), in the preamble or between floats: the counter
    prints so from there on. Any other
    redefinition is skipped as before (`macros` applies it)."""
    after = w.skip_spec(i, "moom")
    k = w.skip_space(i)
    braced = w.group(k)
    named = w.toks[braced[0] + 1] if braced and braced[1] == braced[0] + 2 else w.toks[k] if k < len(w.toks) else None
    if named is None or named[0] != CMD:
        return after
    body = w.group(w.skip_space(braced[1] + 1 if braced else k + 1))
    if named[1] in _FLOAT_NAMES and body is not None:  # a table's own name, set where it stands
        printed = w.raw_text(body[0])
        if printed is not None and printed[0].strip():
            scoped(w, i, w.meta.float_names, _FLOAT_NAMES[named[1]], " ".join(printed[0].split()))
        return after
    counter = named[1][3:]
    if not named[1].startswith("the") or not w.numbers.keeps(counter):
        return after
    shape = _shape(w, counter, body[0] + 1, body[1]) if body else None
    if shape is not None:
        scoped(w, i, w.numbers.shapes, counter, shape)
    unit = shape[0][1] if shape and shape[0][0] == "unit" and shape[1:] == (("text", "."), ("count", "arabic")) else ""
    if w.preamble and counter in KINDS and unit in UNITS[:3]:  # the paper resets it with the unit
        w.numbers.within[counter] = unit
    return after


def scoped(w: Walk, i: int, table: dict[str, Any], key: str, value: Any) -> None:
    """`table[key] = value` from token i on, as a definition there holds (`_until_the_environment_ends`)."""
    _until_the_environment_ends(w, i, partial(put, table, key, table.get(key)))
    table[key] = value


def put(table: dict[str, Any], key: str, value: Any) -> None:
    """`table[key] = value`, or no such key for None: a value as it was before a definition."""
    if value is None:
        table.pop(key, None)
    else:
        table[key] = value


def _until_the_environment_ends(w: Walk, i: int, restore: Callable[[], None]) -> None:
    """A definition inside an environment (a table's own \\renewcommand{\\thetable}) holds to
    its \\end, as TeX's grouping has it; at the top level, from there on."""
    for k in range(i - 1, max(-1, i - _ENVIRONMENT_LOOKBACK), -1):
        if w.toks[k][0] == BEGIN and w.match[k] > i:
            if not w.pending or w.pending[-1][0] >= w.match[k]:  # the walk's actions stay in order
                w.later(w.match[k], restore)
            return


def _shape(w: Walk, counter: str, start: int, end: int) -> Shape | None:
    """The parts of a counter's printed form, or None for a form read otherwise (\\fnsymbol,
    a macro of the paper's): text, units and at most one count of `counter` in a style (none:
    the paper prints a fixed label, `\\renewcommand{\\thetable}{2a}`)."""
    parts: list[tuple[str, str]] = []
    k = start
    while k < end:
        kind, value = w.toks[k]
        argument = w.raw_text(k + 1) if kind == CMD and value in STYLES else None
        if kind == TEXT:
            parts += [("text", value.strip())] if value.strip() else []
        elif argument is not None and argument[0].strip() in (counter, *UNITS):
            written = argument[0].strip()
            parts.append(("count", value) if written == counter else ("unit", written))
            k = argument[1]
            continue
        elif kind == CMD and value[3:] in UNITS and value.startswith("the"):
            parts.append(("unit", value[3:]))
        else:
            return None
        k += 1
    return tuple(parts) if sum(part == "count" for part, _ in parts) <= 1 else None


def cmd_new_counter(w: Walk, i: int, name: str) -> int:
    """\\newcounter{name}[reset by]: a counter of the paper's, numbered within that unit."""
    found = w.raw_text(i)
    if found is None:
        return i
    counter, after = found[0].strip(), found[1]
    within = w.optional(after)
    unit = "".join(w.toks[within[0] + 1][1].split()) if within and within[1] == within[0] + 2 else ""
    if _NAME_RE.fullmatch(counter) and counter not in KINDS and counter not in UNITS:
        w.numbers.own.add(counter)
        if unit in UNITS:
            w.numbers.within[counter] = unit
    return within[1] + 1 if within else after


def cmd_step_counter(w: Walk, i: int, name: str) -> int:
    """\\stepcounter{name}, and \\refstepcounter{name}, whose number the next \\label names."""
    found = w.raw_text(i)
    if found is None:
        return i
    counter = found[0].strip()
    if counter in w.numbers.own:
        if name == "refstepcounter":
            w.step(counter)
        else:
            w.numbers.advance(counter)
    return found[1]


def cmd_count(w: Walk, i: int, name: str) -> int:
    """\\arabic{name} (\\roman, \\Alph, ...): the counter's count in that style."""
    found = w.raw_text(i)
    if found is None:
        return i
    counter = found[0].strip()
    if w.numbers.keeps(counter):
        w.sink.write(STYLES[name](w.numbers.value(counter)))
    return found[1]
