"""Cross reference handlers: citations, \\ref, \\label, bibliography entries, links and DOIs.
What they write are placeholders that `references.Labels` resolves once the walk is over."""

from __future__ import annotations

import re
from functools import partial

from ..document import Kind
from . import pace
from .counters import put
from .drafts import Draft
from .engine import Walk
from .references import bib_label, cite_mark, entry_mark, ref_mark
from .sinks import Block, Sink, TableSink
from .specs import BIBLIOGRAPHY_ENVS, CITE_COMMANDS
from .tokens import BEGIN, CMD, END, PAR, RAW, TEXT, Token

MAX_ENTRIES = 10_000
"""Entries of one bibliography converted. The longest real ones (review articles) hold a few
thousand; the rest of a longer one is left out, and the text says so, so that a hostile list
of 200,000 entries costs the time of 10,000 and the paper still reads."""

_CITE_OPTIONS = "oo"  # natbib's `\\cite[see][p. 3]{key}`


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
        found = w.keys(w.skip_spec(k + 1, _CITE_OPTIONS)) if toks[k][0] == CMD and toks[k][1] in CITE_COMMANDS else None
        if found is None:
            k += 1
            continue
        starred.update(key[1:] for key in found[0] if key.startswith("*") and len(key) > 1)
        k = found[1]
    return starred


def cmd_cite(w: Walk, i: int, name: str) -> int:
    i = w.skip_spec(i, _CITE_OPTIONS)
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
        if w.anchor is not None and w.anchor.anchor is None:
            w.anchor.anchor = key
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
        # `\tag{\ref{eq:a}'}` prints the number of the equation it names: (4.7')
        tag = _TAG_REF_RE.sub(lambda m: w.meta.labels.refs.get(m.group(1), ("", m.group(1)))[1], tag)
        tag = _TAG_THE_RE.sub(lambda m: w.numbers.printed(m.group(1)) or m.group(), tag)  # `\eqno(\theUniversal)`
        if _MARK_ONLY_RE.fullmatch(tag):  # `\tag*{\qed}`: an end-of-proof mark, no number
            return i
    number = w.target("equation", tag) if tag is not None else w.step("equation")
    blocks = w.sink.blocks
    if blocks and blocks[-1].kind == "math" and blocks[-1].record is None and not isinstance(w.sink, TableSink):
        text = blocks[-1].text
        draft = Draft(Kind.EQUATION, number, latex=text[2:-2] if text.startswith("$$") else text)
        blocks[-1] = Block("math", text, draft)
        w.anchor = draft
    return i


_TAG_REF_RE = re.compile(r"\\(?:eq)?ref\{([^{}]+)\}")
_TAG_THE_RE = re.compile(r"\\the([A-Za-z]+)")
_MARK_ONLY_RE = re.compile(r"\\(?:qed|qedhere|square|blacksquare|Box|hfill)\s*")


def env_subequations(w: Walk, j: int, end: int, env: str) -> int:
    """amsmath's subequations: one step of the equation counter; a \\label right after the
    \\begin names the group (3); inside, the counter starts again and prints the group's number
    and a letter (3a, 3b), as amsmath renews \\theequation; at the \\end both are as before."""
    group = w.step("equation")
    numbers, shapes = w.numbers, w.numbers.shapes
    w.later(end, partial(numbers.set, "equation", numbers.value("equation")))
    w.later(end, partial(put, shapes, "equation", shapes.get("equation")))
    numbers.set("equation", 0)
    shapes["equation"] = (("text", group), ("count", "alph"))
    return j


def cmd_bibitem(w: Walk, i: int, name: str) -> int:
    """An entry of the bibliography, in a paragraph of its own after its printed label. A part
    natbib merges (`references.Labels.merges`: REVTeX's `\\cite{a,*b}`) starts no entry: it
    goes on the entry before it after a `;`, as REVTeX prints `[33] X. Li et al., ... (2017);
    Y. X. Guo et al., ...`, and is numbered and cited as that entry. Constant work past reading
    its arguments, so a bibliography stays linear."""
    opt = w.optional(i)
    optional, parts = w.label_text(*opt) if opt else (None, [])
    found = w.keys(opt[1] + 1 if opt else i)
    labels = w.meta.labels
    entry = _open_entry(w.sink) if found and found[0] and labels.merges(found[0][0]) else None
    if found and entry is not None:
        labels.add_part(found[0][0], entry.key)
        w.sink.write_close("; ")
        return found[1]
    w.sink.par()
    if found is None:
        return i
    _start_entry(w, found[0][0] if found[0] else "", optional, parts)
    return found[1]


def _start_entry(w: Walk, key: str, optional: str | None, parts: list[str]) -> None:
    count = w.numbers.count("bibitem")
    # `\\bibitem[]{}` (author-year lists that no \\cite names) is an entry all the same
    key = key or f"bibitem:{count}"
    w.meta.labels.add_entry(key, bib_label(count, optional, parts))
    w.sink.write(entry_mark(key) + " ")
    w.sink.entry = Draft(Kind.REFERENCE, key=key)


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
    short = w.label_text(*opt)[0] if opt else names[0]
    _start_entry(w, found[0][0] if found[0] else "", None, [short, year[0]])
    return found[1]


_CSNAME_TOKENS = 20  # a \csname's name is a word or two


def cmd_csname(w: Walk, i: int, name: str) -> int:
    """\\csname name\\endcsname builds a command's name, never text: natbib's .bbl files open
    with `\\expandafter\\ifx\\csname natexlab\\endcsname\\relax`, which printed `natexlab`."""
    for k in range(i, min(len(w.toks), i + _CSNAME_TOKENS)):
        if w.toks[k] == (CMD, "endcsname"):
            return k + 1
    return i


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
