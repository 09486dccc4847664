"""Document structure handlers: numbered headings (chapters, appendices), lists and items,
theorem-like environments (and \\newtheorem, which defines them where it stands), the
bibliography and acknowledgments headings."""

from __future__ import annotations

import re

from .definitions import THEOREM_NAME_RE, TheoremKind
from .engine import Walk
from .sinks import Sink
from .specs import ENV_SPECS, LIST_ENVS
from .tokens import TEXT


def cmd_heading(w: Walk, i: int, name: str) -> int:
    base = name.rstrip("*")
    i = w.skip_spec(i, "o")
    if w.group(i) is None:
        return i
    if base in ("part", "chapter", "section") and not w.preamble:
        w.end_front()
    hashes, number = w.numbers.heading(base, numbered=not name.endswith("*"))
    if number:
        w.target("appendix" if w.numbers.appendix and "." not in number else "section", number)

    def done(sink: Sink) -> None:
        title = sink.flat()
        head = " ".join(x for x in ("#" * hashes, number, title) if x)
        w.sink.block("h", head, number or None)

    return w.capture(i, done)


def cmd_appendix(w: Walk, i: int, name: str) -> int:
    w.numbers.start_appendix()
    return i


def env_appendix(w: Walk, j: int, end: int, env: str) -> int:
    w.numbers.start_appendix()
    return j


_COUNTER_RE = re.compile(r"[A-Za-z]{1,40}")
_LABEL_RE = re.compile(r"[^\\{}$\n]{1,60}")


def cmd_new_theorem(w: Walk, i: int, name: str) -> int:
    """\\newtheorem{name}[shares the counter of]{Label}[numbered within], \\newtheorem*{name}{Label}:
    a theorem kind from here on (`definitions.TheoremKind`), its name and label plain text."""
    found = w.plain_arguments(i, "mOmO")
    kind, shared, label = (found[0] or "", found[1], " ".join((found[2] or "").split())) if found else ("", None, "")
    fits = THEOREM_NAME_RE.fullmatch(kind) and _LABEL_RE.fullmatch(label)
    if found is not None and fits and (shared is None or _COUNTER_RE.fullmatch(shared)):
        within = found[3] if found[3] and _COUNTER_RE.fullmatch(found[3]) else ""
        if name.endswith("*"):
            w.theorems[kind] = TheoremKind(label)
        elif shared and shared in w.theorems:
            w.theorems[kind] = TheoremKind(label, w.theorems[shared].counter, w.theorems[shared].within)
        else:
            w.theorems[kind] = TheoremKind(label, kind, within)
    return w.skip_spec(i, "mm" if name.endswith("*") else "momo")


def env_theorem(w: Walk, j: int, end: int, env: str) -> int:
    """`Theorem 2.` / `Lemma 3.1 (Name).` as amsthm prints them; a starred one unnumbered."""
    own = w.theorems.get(env)  # `\\newtheorem*{name*}` is a name of its own
    kind = own or w.theorems[env.rstrip("*")]
    number = theorem_number(w, kind) if kind.numbered and (own or not env.endswith("*")) else ""
    title = f"{kind.label} {number}" if number else kind.label
    opt = w.optional(j)
    if opt is None:
        w.sink.write(f"{title}. ")
        return j
    a, b = opt
    w.sink.write(f"{title} (")
    w.toks[b] = (TEXT, "). ")
    return a + 1


def theorem_number(w: Walk, kind: TheoremKind) -> str:
    """Step the kind's counter, numbered within its `within` unit as \\newtheorem's last
    argument says (none: throughout, even where the document has chapters), and make it the next
    \\label's target."""
    counter = f"theorem:{kind.counter}"  # apart from the counters of the same name
    # `\\newtheorem{cor}{Corollary}[theorem]`: Corollary 2.1.1, within a kind itself numbered
    # within a unit (one step, so no kind is ever within itself)
    within = w.theorems.get(kind.within)
    one_step = within is not None and within.counter != kind.counter and within.within not in w.theorems
    w.numbers.within[counter] = f"theorem:{within.counter}" if within and within.counter and one_step else kind.within
    return w.target("theorem", w.numbers.advance(counter))


def env_list(w: Walk, j: int, end: int, env: str) -> int:
    w.lists.append([LIST_ENVS[env], 0])
    w.later(end, w.lists.pop)
    return w.skip_spec(j, ENV_SPECS.get(env, "o"))


def cmd_item(w: Walk, i: int, name: str) -> int:
    kind, depth = ("-", 1)
    if w.lists:
        kind, depth = w.lists[-1][0], len(w.lists)
    marker = "- "
    if kind == "1":
        w.lists[-1][1] += 1
        marker = f"{w.lists[-1][1]}. "
        w.target("item", str(w.lists[-1][1]))
    w.sink.start_item("  " * min(depth - 1, 6) + marker)
    opt = w.optional(i)
    if opt:
        a, b = opt
        w.toks[a] = (TEXT, "")
        w.toks[b] = (TEXT, ": " if kind == "d" else " ")
    return i


def env_bibliography(w: Walk, j: int, end: int, env: str) -> int:
    w.sink.block("h", "## References")
    return w.skip_spec(j, "m")


def env_acknowledgments(w: Walk, j: int, end: int, env: str) -> int:
    w.sink.block("h", "## Acknowledgments")
    return j
