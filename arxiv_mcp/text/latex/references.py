"""Cross references as a reader sees them: \\ref as the number LaTeX prints, \\cite as the label.

The converter walks the document once, but a reference may come before its \\label and a citation
before its \\bibitem; so it writes a placeholder (`ref_mark`, `cite_mark`) and records what each
label and bibliography key turned out to be (`Labels`); `Labels.resolve` replaces the placeholders
in the finished text. The placeholder characters are removed from the source on decode, so paper
text cannot forge one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..bibids import publication_year

START, SEP, STOP = "\x02", "\x01", "\x03"
MARK_CHARS = START + SEP + STOP


def ref_mark(command: str, key: str) -> str:
    return f"{START}R{command}{SEP}{key}{STOP}"


def entry_mark(key: str) -> str:
    """What stands before a bibliography entry: `[12]`, or `[Author et al., 2016]`."""
    return f"{START}B{SEP}{key}{STOP}"


def cite_mark(command: str, keys: list[str]) -> str:
    return f"{START}C{command}{SEP}{','.join(keys)}{STOP}"


@dataclass(frozen=True)
class BibLabel:
    number: str
    authors: str = ""
    year: str = ""


_AUTHOR_YEAR_RE = re.compile(r"\A\s*(.+?)\s*\(\s*((?:\d{4}|n\.\s?d\.)[a-z]?)?\s*\)")


def bib_label(number: int, optional: str | None, parts: list[str]) -> BibLabel:
    """A \\bibitem's label from its optional argument: `\\citeauthoryear{A}{Y}` (named, apalike)
    gives parts [A, Y]; natbib's `A et al.(2016)A, B and C` is read by pattern; any other text
    (alpha styles' `Knu84`) is the label itself; none means the running number."""
    if len(parts) >= 2 and parts[-1].strip()[:4].isdigit():
        # mn2e/mnras write the comma into the names (`\\citeauthoryear{Brienza et~al.,}{..}{2016}`)
        return BibLabel(str(number), " ".join(parts[0].split()).rstrip(","), parts[-1].strip())
    if optional:
        m = _AUTHOR_YEAR_RE.match(optional)
        if m:
            # an empty year (natbib's `Yu et al.()`): a running number, never the text as a label
            return BibLabel(str(number), " ".join(m.group(1).split()), m.group(2) or "")
        text = " ".join(optional.split())
        if text and len(text) <= 40:
            return BibLabel(text)
    return BibLabel(str(number))


_MARK_RE = re.compile("\x02([RCB])([^\x01\x02\x03]*)\x01([^\x01\x02\x03]*)\x03")


# What a reference command prints around a label's number: `(number)` (\\eqref), `Name number`
# (\\autoref, \\cref: the name of the kind of counter the label followed, then the number in
# parentheses for an equation, as for any form but the bare `number` of \\ref and \\pageref).
_REF_FORMS = {"eqref": "(number)", "Eqref": "(number)", "ref": "number", "pageref": "number"}
_REF_FORMS |= dict.fromkeys(("autoref", "cref", "Cref", "vref", "Vref", "fref", "Fref"), "Name number")
_KIND_NAMES = {
    kind: kind.capitalize() for kind in ("section", "appendix", "figure", "table", "equation", "item", "theorem")
}


@dataclass
class Labels:
    """What every \\label and \\bibitem key printed as, filled in during the walk."""

    numeric: bool = True  # `source.citation_style`
    sort: bool = False  # natbib's `sort` option: a citation's entries in the bibliography's order
    compress: bool = False  # natbib's `compress`: runs of three or more numbers as a range
    merge: bool = False  # REVTeX's (natbib's `merge`) \\cite{a,*b}: b's entry printed in a's
    refs: dict[str, tuple[str, str]] = field(default_factory=dict)  # key -> (kind, number)
    bib: dict[str, BibLabel] = field(default_factory=dict)  # in the bibliography's order; see `add_entry`
    dated: bool = False  # some entry has a year (kept by `add_entry`, so no question scans the entries)
    order: dict[str, int] = field(default_factory=dict)  # key -> its place in the bibliography
    starred: set[str] = field(default_factory=set)  # keys a citation stars, known before the walk
    merged: dict[str, str] = field(default_factory=dict)  # a merged part's key -> its entry's key

    def add_entry(self, key: str, label: BibLabel) -> None:
        """Record an entry's label (the first one of a key wins, as LaTeX warns and keeps it);
        constant time, so a bibliography of n entries costs O(n) here."""
        if key in self.bib:
            return
        self.order[key] = len(self.bib)
        self.bib[key] = label
        self.dated = self.dated or bool(label.year)

    def merges(self, key: str) -> bool:
        """Whether the \\bibitem of `key` goes on the entry before it (natbib's merging: a key
        some citation stars, in its first \\bibitem) rather than starting one."""
        return self.merge and key in self.starred and key not in self.bib

    def add_part(self, key: str, entry: str) -> None:
        """Record a merged part: it prints, and is cited, as the entry `entry` (constant time)."""
        head = self.merged.get(entry, entry)
        self.merged[key] = head
        self.bib[key] = self.bib[head]
        self.order[key] = self.order[head]

    def entries(self, keys: list[str]) -> list[str]:
        """The entries a citation's keys name, in its order: a merged part's key names its
        entry, and a starred part cited with its entry adds nothing (`\\cite{a,*b}` prints
        a's number once). Linear in the keys."""
        out: list[str] = []
        seen: set[str] = set()
        for key in keys:
            bare = key.lstrip("*")
            entry = self.merged.get(bare, bare)
            if bare != key and entry in seen:
                continue
            seen.add(entry)
            out.append(entry)
        return out

    def author_year(self) -> bool:
        """Constant time: asked once per entry and per citation."""
        return not self.numeric and self.dated

    def entry_label(self, key: str) -> str:
        """What stands before a bibliography entry."""
        label = self.bib.get(key)
        if label is None:
            return key
        if self.author_year() and label.year:
            return f"{label.authors}, {label.year}"
        return label.number

    def with_year(self, key: str, entry: str) -> str:
        """An entry as printed, with its label's year after it where it states none: natbib's
        label (`\\bibitem[Zhao et al.(2020)]`) holds the year of an entry a numeric style prints
        without one (apsrev's JHEP entries, whose year is in the volume), and a reader of the
        entry asks for its year. An author-year label prints its year already."""
        label = self.bib.get(key)
        year = label.year[:4] if label else ""
        if not year.isdecimal() or self.author_year() or publication_year(entry) is not None:
            return entry
        return f"{entry} ({year})"

    def resolve(self, text: str) -> str:
        return "".join(printed for printed, _ in self.pieces(text))

    def pieces(self, text: str) -> Iterator[tuple[str, tuple[str, ...] | None]]:
        """The text resolved, in pieces: (printed, None) for plain text and (printed, cite keys)
        for each citation, so a citation's span and targets can be marked."""
        if START not in text:
            yield text, None
            return
        parts = _MARK_RE.split(text)  # plain, then (kind, command, keys, plain) per mark
        plain = [parts[0]]
        for k in range(1, len(parts), 4):
            kind, command, keys, after = parts[k : k + 4]
            printed = self._printed(kind, command, keys)
            if kind == "C" and printed:
                if any(plain):
                    yield "".join(plain), None
                plain = []
                yield printed, tuple(self.entries([key for key in keys.split(",") if key]))
            else:
                plain.append(printed)
            plain.append(after)
        if any(plain):
            yield "".join(plain), None

    def _printed(self, kind: str, command: str, keys: str) -> str:
        if kind == "R":
            return self._ref(command, keys)
        if kind == "B":
            return f"[{self.entry_label(keys)}]"
        return self._cite(command, [k for k in keys.split(",") if k])

    def _ref(self, command: str, key: str) -> str:
        if command == "thanksref":  # svjour's: the numbers of the institutes named, as a superscript
            numbers = [self.refs[one][1] for one in key.split(",") if self.refs.get(one, ("", ""))[0] == "institute"]
            return f"$^{{{','.join(numbers)}}}$" if numbers else ""
        found = self.refs.get(key)
        if found is None or not found[1]:
            return "??"  # as LaTeX prints an unknown label: a raw key is never text
        kind, number = found
        form = _REF_FORMS.get(command, "")
        if form == "(number)" or (kind == "equation" and form != "number"):
            number = f"({number})"
        if form == "Name number" and kind in _KIND_NAMES:
            return f"{_KIND_NAMES[kind]} {number}"
        return number

    def _cite(self, command: str, keys: list[str]) -> str:
        keys = self.entries(keys)
        labels = [self.bib.get(key) for key in keys]
        if not keys:
            return ""
        if any(label is None for label in labels):
            # as LaTeX prints a key the bibliography lacks (`[3, ?]`): a raw key is never text
            return "[" + ", ".join(label.number if label else "?" for label in labels) + "]"
        known = [label for label in labels if label is not None]
        if self.sort:  # natbib's `sort`: in the bibliography's order (O(k log k) for k keys)
            places = sorted(range(len(keys)), key=lambda k: self.order.get(keys[k], 0))
            known = [known[k] for k in places]
        form = _FORMS.get(command.rstrip("*").lower(), "")
        if self.author_year():
            return _author_year_cite(form, known)
        if form == "authors" and all(label.authors for label in known):
            return ", ".join(label.authors for label in known)
        numbers = [label.number for label in known]
        bracket = "[" + ", ".join(_ranges(numbers) if self.compress else numbers) + "]"
        if form == "textual" and all(label.authors for label in known):
            return ", ".join(label.authors for label in known) + " " + bracket
        return bracket


def _ranges(numbers: list[str]) -> list[str]:
    """`1, 2, 3, 5` -> `1–3, 5`: three or more consecutive numbers as a range, as natbib prints.
    Decimal digits only: `²` is a digit to `str.isdigit` but not a number to `int`."""
    out: list[str] = []
    run: list[int] = []
    for number in [*numbers, ""]:
        if number.isdecimal() and run and int(number) == run[-1] + 1:
            run.append(int(number))
            continue
        if run:
            out += [f"{run[0]}\u2013{run[-1]}"] if len(run) >= 3 else [str(k) for k in run]
            run = []
        if number.isdecimal():
            run = [int(number)]
        elif number:
            out.append(number)
    return out


# What a citation command prints, by its name without a star in lower case (natbib's and
# biblatex's \\citet and \\Citet alike); any other prints the parenthetical form.
_FORMS = {
    "citet": "textual",
    "textcite": "textual",
    "citealt": "bare",
    "citealp": "comma",
    "citeauthor": "authors",
    "citeyear": "years",
    "citeyearpar": "(years)",
}
# How an author-year style prints each form's neighbours of the same authors (`_same_authors`)
_AUTHOR_YEAR = {"textual": "{} ({})", "bare": "{} {}", "comma": "{}, {}"}


def _author_year_cite(form: str, labels: list[BibLabel]) -> str:
    if form == "authors":
        return "; ".join(label.authors for label in labels)
    if form in ("years", "(years)"):
        years = ", ".join(label.year for label in labels)
        return f"({years})" if form == "(years)" else years
    printed = "; ".join(_AUTHOR_YEAR.get(form, "{}, {}").format(*group) for group in _same_authors(labels))
    return printed if form in _AUTHOR_YEAR else f"({printed})"


def _same_authors(labels: list[BibLabel]) -> list[tuple[str, str]]:
    """natbib's merging of neighbours with the same authors: `Jones, 1990, 1991` and, within
    one year, `Jones, 1990a,b` (the year's letters only)."""
    groups: list[tuple[str, list[str]]] = []
    for label in labels:
        if groups and groups[-1][0] == label.authors:
            groups[-1][1].append(label.year)
        else:
            groups.append((label.authors, [label.year]))
    out = []
    for authors, years in groups:
        text = years[0]
        for previous, year in zip(years, years[1:]):
            letters_only = year[:4] == previous[:4] and year[4:] and previous[4:]
            text += "," + year[4:] if letters_only else ", " + year
        out.append((authors, text))
    return out
