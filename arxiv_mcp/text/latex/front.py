"""Front matter handlers: title, authors, affiliations (REVTeX, elsarticle, authblk, svjour,
llncs conventions), the abstract, keywords; gathered into `Meta` for `document.render`."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial

from .engine import Walk
from .references import ref_mark
from .sinks import Sink
from .specs import title_size
from .tokens import TEXT

_MARK_SPACE_RE = re.compile(r"(\$\^\{\d+\}\$) ")  # `\\and \\pagebreak[0] Name`: the mark sits on the name
# Items of an author or address list left empty by \\and, \\\\, a box or a mark with no text
_EMPTY_ITEMS_RE = re.compile(r"\s*,(?:\s*,)+")
_LABEL_RE = re.compile(r"[^\s=]{1,12}")
_ORCID_RE = re.compile(r"\d{4}-\d{4}-\d{4}-\d{3}[\dX]")
# elsarticle's (and Elsevier cas's) key-value affiliations print the values alone
_AFFILIATION_KEY_RE = re.compile(r"(^|,\s*)(?:organization|addressline|city|postcode|postcodesep|state|country)\s*=\s*")


def affiliation_labels(option: str, document_class: str) -> str:
    """The labels in \\author's optional argument (`a,b`), or "" when the class gives that
    argument another meaning: amsart's short name for the running head, aastex's ORCID."""
    if document_class.startswith("ams"):
        return ""
    items = [item.strip() for item in option.split(",")]
    kept = [item for item in items if _LABEL_RE.fullmatch(item) and not _ORCID_RE.fullmatch(item)]
    return option if len(kept) == len(items) else ",".join(kept)


def tidy_list(text: str) -> str:
    """A flattened author or address block as one list: no empty items (`A,, B`), no ends."""
    return _EMPTY_ITEMS_RE.sub(",", text.replace(" ,", ",")).strip(" ,")


def front_argument(w: Walk, i: int, keep: Callable[[Sink], None]) -> int:
    """Read the argument at i as front matter (a title, an author, an affiliation, a note):
    a \\footnote in it is a title-page note, and `keep` gets what it printed."""
    if w.group(i) is None:
        return i
    w.meta_depth += 1

    def done(sink: Sink) -> None:
        w.meta_depth -= 1
        keep(sink)

    return w.capture(i, done)


def cmd_title(w: Walk, i: int, name: str) -> int:
    def keep(sink: Sink) -> None:
        if not w.meta.title:
            w.meta.title = sink.flat()

    return front_argument(w, w.skip_spec(i, "o"), keep)


def cmd_author(w: Walk, i: int, name: str) -> int:
    """\\author[a,b]{Name} (elsarticle, authblk: the labels of the name's affiliations) or
    \\author{Name} (REVTeX, aastex: the \\affiliation commands that follow give them)."""
    opt = w.optional(i)
    marks = ""
    if opt:
        marks = affiliation_labels(w.label_text(*opt)[0].strip(), w.meta.document_class)
        i = opt[1] + 1
    g = w.group(i)
    if g is None:
        return i
    drop_key_values(w, g[1] + 1)
    return author(w, i, marks)


def author(w: Walk, i: int, marks: str) -> int:
    """The name at i, one author of the list, marked `marks` (its affiliations')."""

    def keep(sink: Sink) -> None:
        w.in_author -= 1
        text = tidy_list(sink.flat(", "))
        if text:
            w.meta.add_author(text, marks)

    w.in_author += 1
    return front_argument(w, i, keep)


def drop_key_values(w: Walk, i: int) -> None:
    """Elsevier's cas classes take the author's ORCID and roles after the name
    (`\\author[1]{Name}[orcid=...]`): options, not text."""
    opt = w.optional(i)
    if opt and any(k == TEXT and "=" in v for k, v in w.toks[opt[0] + 1 : opt[1]]):
        for k in range(opt[0], opt[1] + 1):
            w.toks[k] = (TEXT, "")


def cmd_affiliation(w: Walk, i: int, name: str) -> int:
    """\\affiliation/\\address/\\affil: with a [label] it is that label's; without, it belongs
    to the authors named since the previous one (REVTeX, aastex), numbered once per text."""
    opt = w.optional(i)
    return affiliation(w, opt[1] + 1, w.label_text(*opt)[0].strip()) if opt else affiliation(w, i, "")


def affiliation(w: Walk, i: int, label: str) -> int:
    """The address at i, an affiliation labelled `label` (none: numbered, `Meta.add_affiliation`)."""

    def keep(sink: Sink) -> None:
        text = tidy_list(_AFFILIATION_KEY_RE.sub(r"\1", sink.flat(", ")))
        if text:
            w.meta.add_affiliation(text, label)

    return front_argument(w, i, keep)


def cmd_institute(w: Walk, i: int, name: str) -> int:
    """svjour/llncs \\institute{A \\label{a} \\and B}: numbered 1, 2, ... in order, which is
    what \\thanksref{a} and \\inst{1} print."""
    if w.group(i) is None:
        return i
    w.institutes = 1
    w.target("institute", "1")

    def keep(sink: Sink) -> None:
        w.institutes = 0
        text = _MARK_SPACE_RE.sub(r"\1", sink.flat("; ").replace(" ;", ";").strip(" ;"))
        if text:  # with its marks, as printed
            w.meta.add_affiliation("$^{1}$" + text, "")

    return front_argument(w, i, keep)


def cmd_icml_symbol(w: Walk, i: int, name: str) -> int:
    """ICML's \\icmlsetsymbol{equal}{*}: the mark an author key prints instead of a number."""
    key = w.raw_text(i)
    symbol = w.raw_text(key[1]) if key is not None else None
    if key is None or symbol is None:
        return i
    w.icml_marks[key[0].strip()] = symbol[0].strip()
    return symbol[1]


def icml_mark(w: Walk, key: str) -> str:
    """An ICML affiliation key as printed: its symbol, or its number in order of first use."""
    if key not in w.icml_marks:
        w.icml_marks[key] = str(sum(mark.isdigit() for mark in w.icml_marks.values()) + 1)
    return w.icml_marks[key]


def cmd_icml_author(w: Walk, i: int, name: str) -> int:
    """ICML's \\icmlauthor{Name}{keys}: one author of the list, marked per affiliation key."""
    g = w.group(i)
    found = w.keys(g[1] + 1) if g is not None else None
    if g is None or found is None:
        return i
    keys, end = found
    for k in range(g[1] + 1, end):
        w.toks[k] = (TEXT, "")
    return author(w, i, ",".join(icml_mark(w, key) for key in keys))


def cmd_icml_affiliation(w: Walk, i: int, name: str) -> int:
    """ICML's \\icmlaffiliation{key}{Lab, City}: an affiliation, marked as its authors are."""
    found = w.raw_text(i)
    if found is None or w.group(found[1]) is None:
        return i
    return affiliation(w, found[1], icml_mark(w, found[0].strip()))


def cmd_affiliation_part(w: Walk, i: int, name: str) -> int:
    """acmart's \\institution{..}, \\city{..}, ...: items of one address (`MIT, Cambridge, USA`)."""

    def done(sink: Sink) -> None:
        text = sink.flat()
        if text:
            w.sink.write(text + ", ")

    return w.capture(i, done)


def cmd_column_switch(w: Walk, i: int, name: str) -> int:
    """\\twocolumn[...]: the bracket holds text set across both columns (ICML's title block)."""
    opt = w.optional(i)
    if opt:
        w.toks[opt[0]] = w.toks[opt[1]] = (TEXT, "")
    return i


def cmd_and(w: Walk, i: int, name: str) -> int:
    if not w.institutes:
        w.sink.write(", ")
        return i
    w.institutes += 1
    w.target("institute", str(w.institutes))
    w.sink.newline()
    w.sink.write(f"$^{{{w.institutes}}}$")
    return i


def cmd_thanksref(w: Walk, i: int, name: str) -> int:
    found = w.keys(i)
    if found is None:
        return i
    w.sink.write(ref_mark("thanksref", ",".join(found[0])))
    return found[1]


def cmd_inst(w: Walk, i: int, name: str) -> int:
    found = w.raw_text(i)
    if found is None:
        return i
    if found[0].strip():
        w.sink.write(f"$^{{{''.join(found[0].split())}}}$")
    return found[1]


def cmd_abstract(w: Walk, i: int, name: str) -> int:
    return w.capture(i, partial(keep_abstract, w))


def env_abstract(w: Walk, j: int, end: int, env: str) -> int:
    w.until(end, partial(keep_abstract, w))
    return j


def keep_abstract(w: Walk, sink: Sink) -> None:
    """The abstract closes the front matter: what follows is body even without a section."""
    w.meta.abstract.extend(sink.flat_blocks())
    w.end_front()


def cmd_maketitle(w: Walk, i: int, name: str) -> int:
    w.sink.par()
    if w.meta.abstract:
        w.end_front()
    return i


def cmd_font(w: Walk, i: int, name: str) -> int:
    if w.in_front and w.may_title(size := title_size([name])):
        return w.capture(i, lambda sink: w.maybe_title(sink, size))
    return i


def env_keywords(w: Walk, j: int, end: int, env: str) -> int:
    w.sink.write("Keywords: ")
    return j


def cmd_footnote(w: Walk, i: int, name: str) -> int:
    """A footnote stays where it is cited, as ` [^text]`; in the title or an author, a note."""
    i, g = w.after_option(i)
    if g is None:
        return i
    if w.meta_depth:  # in the title or an author: a title-page note
        return front_argument(w, g[0], partial(keep_note, w))
    w.sink.write(" [^")
    w.toks[g[1]] = (TEXT, "]")
    return g[0] + 1


def cmd_note(w: Walk, i: int, name: str) -> int:
    """A title-page note (\\thanks, or a \\footnote in the title or an author): the PDF prints it
    as a footnote of the first page (funding, addresses), so it joins the front matter's notes."""
    return front_argument(w, i, partial(keep_note, w))


def keep_note(w: Walk, sink: Sink) -> None:
    text = sink.flat()
    if text and text not in w.meta.notes:
        w.meta.notes.append(text)
