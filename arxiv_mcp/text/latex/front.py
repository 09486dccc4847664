"""Front matter handlers: title, authors, affiliations (REVTeX, elsarticle, authblk, svjour,
llncs conventions), the abstract, keywords; gathered into `Meta` for `document.render`."""

from __future__ import annotations

import re
from typing import Any

from .engine import Engine
from .references import cite_mark
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


class FrontMatter(Engine):
    """Handlers of the title page: what they read goes to `self.meta`, not the body."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.institutes = 0
        self.icml_marks: dict[str, str] = {}  # ICML affiliation key -> its printed mark

    def cmd_title(self, i: int, name: str) -> int:
        opt = self.optional(i)
        if opt:
            i = opt[1] + 1

        def done(sink: Sink) -> None:
            self.meta_depth -= 1
            if not self.meta.title:
                self.meta.title = sink.flat()

        if self.group(i) is None:
            return i
        self.meta_depth += 1
        return self.capture(i, done)

    def cmd_author(self, i: int, name: str) -> int:
        """\\author[a,b]{Name} (elsarticle, authblk: the labels of the name's affiliations) or
        \\author{Name} (REVTeX, aastex: the \\affiliation commands that follow give them)."""
        opt = self.optional(i)
        marks = ""
        if opt:
            option = "".join(v for k, v in self.toks[opt[0] + 1 : opt[1]] if k == TEXT).strip()
            marks = affiliation_labels(option, self.meta.document_class)
            i = opt[1] + 1

        def done(sink: Sink) -> None:
            self.meta_depth -= 1
            self.in_author -= 1
            text = tidy_list(sink.flat(", "))
            if text:
                self.meta.add_author(text, marks)

        g = self.group(i)
        if g is None:
            return i
        self.drop_key_values(g[1] + 1)
        self.meta_depth += 1
        self.in_author += 1
        return self.capture(i, done)

    def drop_key_values(self, i: int) -> None:
        """Elsevier's cas classes take the author's ORCID and roles after the name
        (`\\author[1]{Name}[orcid=...]`): options, not text."""
        opt = self.optional(i)
        if opt and any(k == TEXT and "=" in v for k, v in self.toks[opt[0] + 1 : opt[1]]):
            for k in range(opt[0], opt[1] + 1):
                self.toks[k] = (TEXT, "")

    def cmd_affiliation(self, i: int, name: str) -> int:
        """\\affiliation/\\address/\\affil: with a [label] it is that label's; without, it belongs
        to the authors named since the previous one (REVTeX, aastex), numbered once per text."""
        opt = self.optional(i)
        label = ""
        if opt:
            label = "".join(v for k, v in self.toks[opt[0] + 1 : opt[1]] if k == TEXT).strip()
            i = opt[1] + 1
        if self.group(i) is None:
            return i

        def done(sink: Sink) -> None:
            self.meta_depth -= 1
            text = tidy_list(_AFFILIATION_KEY_RE.sub(r"\1", sink.flat(", ")))
            if text:
                self.meta.add_affiliation(text, label)

        self.meta_depth += 1
        return self.capture(i, done)

    def cmd_institute(self, i: int, name: str) -> int:
        """svjour/llncs \\institute{A \\label{a} \\and B}: numbered 1, 2, ... in order, which is
        what \\thanksref{a} and \\inst{1} print."""
        if self.group(i) is None:
            return i
        self.institutes = 1
        self.current_label = ("institute", "1")

        def done(sink: Sink) -> None:
            self.meta_depth -= 1
            self.institutes = 0
            text = _MARK_SPACE_RE.sub(r"\1", sink.flat("; ").replace(" ;", ";").strip(" ;"))
            if text:
                self.meta.affiliations.append("$^{1}$" + text)

        self.meta_depth += 1
        return self.capture(i, done)

    def cmd_icml_symbol(self, i: int, name: str) -> int:
        """ICML's \\icmlsetsymbol{equal}{*}: the mark an author key prints instead of a number."""
        key = self.raw_text(i)
        symbol = self.raw_text(key[1]) if key is not None else None
        if key is None or symbol is None:
            return i
        self.icml_marks[key[0].strip()] = symbol[0].strip()
        return symbol[1]

    def icml_mark(self, key: str) -> str:
        """An ICML affiliation key as printed: its symbol, or its number in order of first use."""
        if key not in self.icml_marks:
            self.icml_marks[key] = str(sum(mark.isdigit() for mark in self.icml_marks.values()) + 1)
        return self.icml_marks[key]

    def cmd_icml_author(self, i: int, name: str) -> int:
        """ICML's \\icmlauthor{Name}{keys}: one author of the list, marked per affiliation key."""
        g = self.group(i)
        found = self.keys(g[1] + 1) if g is not None else None
        if g is None or found is None:
            return i
        keys, end = found
        marks = ",".join(self.icml_mark(key) for key in keys)
        for k in range(g[1] + 1, end):
            self.toks[k] = (TEXT, "")

        def done(sink: Sink) -> None:
            self.meta_depth -= 1
            text = sink.flat()
            if text:
                self.meta.add_author(text, marks)

        self.meta_depth += 1
        return self.capture(i, done)

    def cmd_icml_affiliation(self, i: int, name: str) -> int:
        """ICML's \\icmlaffiliation{key}{Lab, City}: an affiliation, marked as its authors are."""
        found = self.raw_text(i)
        if found is None or self.group(found[1]) is None:
            return i
        mark = self.icml_mark(found[0].strip())

        def done(sink: Sink) -> None:
            self.meta_depth -= 1
            text = tidy_list(sink.flat(", "))
            if text:
                self.meta.add_affiliation(text, mark)

        self.meta_depth += 1
        return self.capture(found[1], done)

    def cmd_affiliation_part(self, i: int, name: str) -> int:
        """acmart's \\institution{..}, \\city{..}, ...: items of one address (`MIT, Cambridge, USA`)."""
        if self.group(i) is None:
            return i

        def done(sink: Sink) -> None:
            text = sink.flat()
            if text:
                self.sink.write(text + ", ")

        return self.capture(i, done)

    def cmd_column_switch(self, i: int, name: str) -> int:
        """\\twocolumn[...]: the bracket holds text set across both columns (ICML's title block)."""
        opt = self.optional(i)
        if opt:
            self.toks[opt[0]] = self.toks[opt[1]] = (TEXT, "")
        return i

    def cmd_and(self, i: int, name: str) -> int:
        if not self.institutes:
            self.sink.write(", ")
            return i
        self.institutes += 1
        self.current_label = ("institute", str(self.institutes))
        self.sink.newline()
        self.sink.write(f"$^{{{self.institutes}}}$")
        return i

    def cmd_thanksref(self, i: int, name: str) -> int:
        found = self.keys(i)
        if found is None:
            return i
        self.sink.write(cite_mark("thanksref", found[0]))
        return found[1]

    def cmd_inst(self, i: int, name: str) -> int:
        found = self.raw_text(i)
        if found is None:
            return i
        if found[0].strip():
            self.sink.write(f"$^{{{''.join(found[0].split())}}}$")
        return found[1]

    def cmd_abstract(self, i: int, name: str) -> int:
        if self.group(i) is None:
            return i
        return self.capture(i, self.keep_abstract)

    def env_abstract(self, j: int, end: int, env: str) -> int:
        target = self.push(Sink())
        self.later(end, lambda: self.keep_abstract(self.pop(target)))
        return j

    def keep_abstract(self, sink: Sink) -> None:
        """The abstract closes the front matter: what follows is body even without a section."""
        self.meta.abstract.extend(sink.flat_blocks())
        self.end_front()

    def cmd_maketitle(self, i: int, name: str) -> int:
        self.sink.par()
        if self.meta.abstract:
            self.end_front()
        return i

    def cmd_font(self, i: int, name: str) -> int:
        if self.in_front and self.may_title(size := title_size([name])) and self.group(i) is not None:
            return self.capture(i, lambda sink: self.maybe_title(sink, size))
        return i

    def env_keywords(self, j: int, end: int, env: str) -> int:
        self.sink.write("Keywords: ")
        return j

    def cmd_footnote(self, i: int, name: str) -> int:
        """A footnote stays where it is cited, as ` [^text]`; in the title or an author, a note."""
        i = self.skip_spec(i, "o")
        g = self.group(i)
        if g is None:
            return i
        if self.meta_depth:  # in the title or an author: a title-page note
            self.meta_depth += 1
            return self.capture(g[0], self.keep_note)
        self.sink.write(" [^")
        self.toks[g[1]] = (TEXT, "]")
        return g[0] + 1

    def cmd_note(self, i: int, name: str) -> int:
        """A title-page note (\\thanks, or a \\footnote in the title or an author): the PDF prints it
        as a footnote of the first page (funding, addresses), so it joins the front matter's notes."""
        if self.group(i) is None:
            return i
        self.meta_depth += 1
        return self.capture(i, self.keep_note)

    def keep_note(self, sink: Sink) -> None:
        self.meta_depth -= 1
        text = sink.flat()
        if text and text not in self.meta.notes:
            self.meta.notes.append(text)
