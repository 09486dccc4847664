"""Cross reference handlers: citations, \\ref, \\label, bibliography entries, links and DOIs.
What they write are placeholders that `references.Labels` resolves once the walk is over."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import Any

from ..document import Kind
from . import pace
from .drafts import Draft, letter
from .engine import Walk
from .numbering import STYLES, Shape
from .references import bib_label, cite_mark, entry_mark, ref_mark
from .sinks import Block, Sink, TableSink
from .specs import BIBLIOGRAPHY_ENVS, CITE_COMMANDS
from .tokens import BEGIN, CMD, END, LBRACE, MATH, PAR, RAW, RBRACE, TEXT, Token

_SCRIPT_MARKS_RE = re.compile(r"[\^_{}]")
MAX_ENTRIES = 10_000
"""Entries of one bibliography converted. The longest real ones (review articles) hold a few
thousand; the rest of a longer one is left out, and the text says so, so that a hostile list
of 200,000 entries costs the time of 10,000 and the paper still reads."""


def bounded_bibliographies(toks: list[Token]) -> list[Token]:
    """The tokens with each bibliography's entries past MAX_ENTRIES left out and a paragraph
    saying how many in their place. One pass: linear in the tokens."""
    if sum(1 for token in toks if token == (CMD, "bibitem")) <= MAX_ENTRIES:
        return toks
    out: list[Token] = []
    depth = entries = 0
    for k, (kind, value) in enumerate(toks):
        pace.tick(k)
        if kind == BEGIN and value in BIBLIOGRAPHY_ENVS:
            depth += 1
            entries = entries if depth > 1 else 0
        elif kind == END and value in BIBLIOGRAPHY_ENVS and depth:
            depth -= 1
            if not depth and entries > MAX_ENTRIES:
                left_out = entries - MAX_ENTRIES
                out += [(PAR, ""), (TEXT, f"[{left_out} more entries of this bibliography are left out: ")]
                out += [(TEXT, f"more than {MAX_ENTRIES} are too many to convert.]"), (PAR, "")]
        elif depth and kind == CMD and value == "bibitem":
            entries += 1
        if not depth or entries <= MAX_ENTRIES or (kind == END and value in BIBLIOGRAPHY_ENVS):
            out.append((kind, value))
    return out


def _past_options(w: Walk, i: int) -> int:
    """Past a citation's optional arguments (natbib's `[see][p. 3]`) at i."""
    for _ in range(2):
        opt = w.optional(i)
        if opt:
            i = opt[1] + 1
    return i


def starred_citations(w: Walk) -> set[str]:
    """The keys the walk's citations star (`\\cite{a,*b}`), whose entries natbib's merging
    prints in the entry before them (`references.Labels.merges`). Read before the walk, as
    LaTeX reads them from its previous run: a citation may come after the bibliography. One
    pass that skips each citation's arguments, as the walk does: linear in the tokens."""
    starred: set[str] = set()
    toks, k, steps = w.toks, 0, 0
    while k < len(toks):
        steps += 1
        pace.tick(steps)
        found = w.keys(_past_options(w, k + 1)) if toks[k][0] == CMD and toks[k][1] in CITE_COMMANDS else None
        if found is None:
            k += 1
            continue
        starred.update(key[1:] for key in found[0] if key.startswith("*") and len(key) > 1)
        k = found[1]
    return starred


def cmd_cite(w: Walk, i: int, name: str) -> int:
    i = _past_options(w, i)
    found = w.keys(i)
    if found is None:
        return i
    if found[0] and name != "nocite":
        w.sink.write(cite_mark(name, found[0]))
    return found[1]


def cmd_ref(w: Walk, i: int, name: str) -> int:
    found = w.keys(i)
    if found is None:
        return i
    w.sink.write(", ".join(ref_mark(name, key) for key in found[0]))
    return found[1]


def cmd_label(w: Walk, i: int, name: str) -> int:
    found = w.keys(i)
    if found is None:
        return i
    for key in found[0]:
        w.meta.labels.refs.setdefault(key, w.current_label)
        if w.anchor is not None and w.anchor[0] == w.current_label and w.anchor[1].anchor is None:
            w.anchor[1].anchor = key
    return found[1]


def cmd_step_equation(w: Walk, i: int, name: str) -> int:
    """After a numbered display (the tokenizer puts one after each numbered row): its number,
    or with \\tag{x} (`@tagequation{x}`) the tag as printed, without a step."""
    tag = None
    if name == "@tagequation":
        found = w.raw_text(i)
        if found is None:
            return i
        tag, i = " ".join(found[0].split()), found[1]
        if _MARK_ONLY_RE.fullmatch(tag):  # `\tag*{\qed}`: an end-of-proof mark, no number
            return i
    if tag is not None:
        number = tag
    elif w.sub_equations:  # in subequations: the group's number and a letter, 3a, 3b
        w.sub_equations[1] += 1
        number = w.sub_equations[0] + letter(w.sub_equations[1] - 1)
    else:
        number = w.step("equation")
    w.current_label = ("equation", number)
    blocks = w.sink.blocks
    if blocks and blocks[-1].kind == "math" and blocks[-1].record is None and not isinstance(w.sink, TableSink):
        text = blocks[-1].text
        draft = Draft(Kind.EQUATION, number, latex=text[2:-2] if text.startswith("$$") else text)
        blocks[-1] = Block("math", text, draft)
        w.anchor = (w.current_label, draft)
    return i


_COUNTERS = ("figure", "table", "equation")
_UNITS = ("chapter", "section", "subsection", "subsubsection")
_FLOAT_NAMES = {"figurename": "Figure", "tablename": "Table"}
_CSNAME_TOKENS = 20  # a \csname's name is a word or two
_MARK_ONLY_RE = re.compile(r"\\(?:qed|qedhere|square|blacksquare|Box|hfill)\s*")
_ENVIRONMENT_LOOKBACK = 2000  # tokens searched back for the environment a definition is in


def cmd_set_counter(w: Walk, i: int, name: str) -> int:
    """\\setcounter{figure}{4} (the next figure is 5) and \\addtocounter{equation}{-1}, on
    the numbered kinds and the section units."""
    found = w.raw_text(i)
    value = w.raw_text(found[1]) if found else None
    if found is None or value is None:
        return w.skip_spec(i, "mm")
    counter, written = found[0].strip(), value[0].strip()
    if (counter in _COUNTERS or counter in _UNITS) and re.fullmatch(r"-?\d{1,6}", written):
        w.numbers.set(counter, int(written), add=name == "addtocounter")
    return value[1]


def cmd_number_within(w: Walk, i: int, name: str) -> int:
    """\\numberwithin{equation}{section} (or \\counterwithin) in the body, often after
    \\appendix: from there on the counter resets with the unit and prints `A.1`. The starred
    \\counterwithin* only resets, and \\counterwithout undoes it."""
    star = i < len(w.toks) and w.toks[i] == (TEXT, "*")
    found = w.raw_text(i + star)
    unit = w.raw_text(found[1]) if found and name != "counterwithout" else None
    if found is None:
        return i
    counter = found[0].strip()
    if counter in _COUNTERS and not star:
        if unit is not None and unit[0].strip() in _UNITS:
            w.numbers.within[counter] = unit[0].strip()
        elif name == "counterwithout":
            w.numbers.within[counter] = ""
        w.meta.shapes.pop(counter, None)
    return unit[1] if unit else found[1]


def cmd_renew_the(w: Walk, i: int, name: str) -> int:
    """\\renewcommand{\\thefigure}{S\\arabic{figure}} (supplementary S1, appendix A1, 5.1a),
    in the preamble or between floats: the counter prints so from there on. Any other
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
            names, kind = w.meta.float_names, _FLOAT_NAMES[named[1]]
            _until_the_environment_ends(w, i, partial(_put, names, kind, names.get(kind)))
            names[kind] = " ".join(printed[0].split())
        return after
    if named[1][3:] not in _COUNTERS or not named[1].startswith("the"):
        return after
    shape = _shape(w, named[1][3:], body[0] + 1, body[1]) if body else None
    if shape is not None:
        counter = named[1][3:]
        _until_the_environment_ends(w, i, partial(_put, w.meta.shapes, counter, w.meta.shapes.get(counter)))
        w.meta.shapes[counter] = shape
    return after


def _put(table: dict[str, Any], key: str, value: Any) -> None:
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
        elif argument is not None and argument[0].strip() in (counter, *_UNITS):
            written = argument[0].strip()
            parts.append(("count", value) if written == counter else ("unit", written))
            k = argument[1]
            continue
        elif kind == CMD and value[3:] in _UNITS and value.startswith("the"):
            parts.append(("unit", value[3:]))
        else:
            return None
        k += 1
    return tuple(parts) if sum(part == "count" for part, _ in parts) <= 1 else None


def env_subequations(w: Walk, j: int, end: int, env: str) -> int:
    """amsmath's subequations: one step of the equation counter; a \\label right after the
    \\begin names the group (3), the equations inside print 3a, 3b."""
    outer = w.sub_equations
    w.sub_equations = [w.step("equation"), 0]
    w.later(end, lambda: setattr(w, "sub_equations", outer))
    return j


def cmd_bibitem(w: Walk, i: int, name: str) -> int:
    """An entry of the bibliography, in a paragraph of its own after its printed label. A part
    natbib merges (`references.Labels.merges`: REVTeX's `\\cite{a,*b}`) starts no entry: it
    goes on the entry before it after a `;`, as REVTeX prints `[33] X. Li et al., ... (2017);
    Y. X. Guo et al., ...`, and is numbered and cited as that entry. Constant work past reading
    its arguments, so a bibliography stays linear."""
    opt = w.optional(i)
    optional, parts = label_text(w, *opt) if opt else (None, [])
    found = w.keys(opt[1] + 1 if opt else i)
    labels = w.meta.labels
    entry = _open_entry(w.sink) if found and found[0] and labels.merges(found[0][0]) else None
    if found and entry is not None:
        labels.add_part(found[0][0], entry.label)
        w.sink.write_close("; ")
        return found[1]
    w.sink.par()
    if found is None:
        return i
    _start_entry(w, found[0][0] if found[0] else "", optional, parts)
    return found[1]


def cmd_csname(w: Walk, i: int, name: str) -> int:
    """\\csname name\\endcsname builds a command's name, never text: natbib's .bbl files open
    with `\\expandafter\\ifx\\csname natexlab\\endcsname\\relax`, which printed `natexlab`."""
    for k in range(i, min(len(w.toks), i + _CSNAME_TOKENS)):
        if w.toks[k] == (CMD, "endcsname"):
            return k + 1
    return i


def _start_entry(w: Walk, key: str, optional: str | None, parts: list[str]) -> None:
    count = w.numbers.count("bibitem")
    # `\\bibitem[]{}` (author-year lists that no \\cite names) is an entry all the same
    key = key or f"bibitem:{count}"
    w.meta.labels.add_entry(key, bib_label(count, optional, parts))
    w.sink.write(entry_mark(key) + " ")
    w.sink.entry = Draft(Kind.REFERENCE, label=key)


def cmd_harvarditem(w: Walk, i: int, name: str) -> int:
    """The harvard package's entry, \\harvarditem[short names]{names}{year}{key}: labelled by
    names and year as its citations print them (the short names where given)."""
    opt = w.optional(i)
    names = w.raw_text(opt[1] + 1 if opt else i)
    year = w.raw_text(names[1]) if names else None
    found = w.keys(year[1]) if year else None
    w.sink.par()
    if names is None or year is None or found is None:
        return i
    short = label_text(w, *opt)[0] if opt else names[0]
    _start_entry(w, found[0][0] if found[0] else "", None, [short, year[0]])
    return found[1]


def _open_entry(sink: Sink) -> Draft | None:
    """The bibliography entry the sink is writing, or the one its last block is (a blank line
    between two \\bibitems closed it: the paragraph goes on as a block of the same entry, which
    `document.render` joins to it, so no text is copied twice); None after anything else: a
    bibliography's first entry (after its heading) starts one, as natbib's does."""
    if sink.entry is None:
        last = sink.blocks[-1].record if sink.blocks and not any(part.strip() for part in sink.parts) else None
        if not (isinstance(last, Draft) and last.kind is Kind.REFERENCE):
            return None
        sink.entry = last
    return sink.entry if isinstance(sink.entry, Draft) else None


def label_text(w: Walk, a: int, b: int) -> tuple[str, list[str]]:
    """Plain text of the tokens a..b (a bibitem's optional label) and of its top-level groups."""
    text: list[str] = []
    parts: list[str] = []
    depth = 0
    for kind, value in w.toks[a + 1 : b]:
        if kind == LBRACE:
            depth += 1
            if depth == 1:
                parts.append("")
        elif kind == RBRACE:
            depth -= 1
        elif kind in (TEXT, RAW, MATH):
            if kind == MATH:  # alpha styles' `A{\\etalchar{+}}85` is `A$^{+}$85`: printed A+85
                value = _SCRIPT_MARKS_RE.sub("", value)
            text.append(value)
            if depth >= 1 and parts:
                parts[-1] += value
    return "".join(text), parts


def cmd_href(w: Walk, i: int, name: str) -> int:
    """The link target is not text; a target the tokenizer left as a group (\\href spliced
    in from a macro such as REVTeX's \\Eprint) is skipped as well."""
    if i < len(w.toks) and w.toks[i][0] == RAW:
        if w.sink.entry is not None:
            w.sink.entry.links.append(w.toks[i][1])
        return i + 1
    found = w.raw_text(i)
    if found is None:
        return i
    if w.sink.entry is not None:  # REVTeX's `\\href {\\doibase 10.1103/X}`: its DOI
        w.sink.entry.links.append("".join(found[0].split()))
    return found[1]


def cmd_eprint(w: Walk, i: int, name: str) -> int:
    """natbib's \\eprint[archive]{id}: printed as the id; the entry's eprint."""
    i = w.skip_spec(i, "o")
    found = w.raw_text(i)
    if found is None:
        return i
    written = "".join(found[0].split())
    w.sink.write(written)
    if w.sink.entry is not None and not w.sink.entry.eprint:
        w.sink.entry.eprint = written
    return found[1]


def cmd_doi(w: Walk, i: int, name: str) -> int:
    found = w.raw_text(i)
    if found is None:
        return i
    if found[0].strip():
        w.sink.write(w.meta.doi_prefix + "".join(found[0].split()))
    return found[1]
