"""Every selector form of issue 32 against every readable file of the shared corpus.

    python benchmarks/selector_sweep.py [--shared DIR] [--engine auto|pypdf|pdfium] [--verbose]

For each HTML page (LaTeXML and oxide), e-print and PDF of `<shared>/fixtures/arxiv/` that
reads, two sweeps:

- every item the document lists, asked in every printed form a reader writes (`4.2`, `Sec. 4-2`,
  `§4.2`, `Appendix B`, `Figure 3`, `Fig. 3(a)`, `FIG. 3 (left)`, `Table 2`, `TABLE II`,
  `Eq. (7)`, `(7)`, `[12]`, `ref 12`, `[12, 14]`, `[12-14]`, the label as printed, the cite key,
  the arXiv id, and for an author-year label `(X et al., 2021)`, `X et al. (2021)`,
  `X et al. 2021`, `X and Y, 2021`, `X & Y 2021`): the answer must be that item (a miss is an
  error; a wrong item is a silent wrong answer);
- adversarial forms naming what the paper does not print: a number that holds a printed one
  as a substring or is held by one (`1` beside `11`, `VIII-A` beside `III-A`), numbers past the
  last, `S1` on a paper with no supplementary section, "et al." of an entry of one or two
  authors, a year one off, and the kinds the document does not type (`Theorem 1`, ...). Each
  must be an error (or, for a typed kind, never a section): an answer is a silent wrong answer.

An answer is judged by the printed number of what it returns, never by comparing with another
run of ours. For a LaTeXML page the numbers it prints are also read from the markup itself
(`ltx_tag` spans of sections, figures, tables, equations and `ltx_bibitem` entries), so an item
the page prints but the document misses is counted too. The in-test sweep against truth
written by hand from the sources is `tests/test_selector_forms.py`.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.append(str(REPO_ROOT))

from arxiv_mcp.errors import ExtractionError, InvalidInput  # noqa: E402
from arxiv_mcp.text.document import Document, Equation, Figure, Heading, Reference, Table  # noqa: E402
from arxiv_mcp.text.extract import extract  # noqa: E402
from arxiv_mcp.text.roman import to_roman  # noqa: E402
from arxiv_mcp.text.selection import Selection  # noqa: E402
from arxiv_mcp.text.selectors import select  # noqa: E402
from benchmarks.text_quality import shared_dir  # noqa: E402

UNTYPED = ("Theorem 1", "Lemma 2.1", "Definition 3", "Algorithm 1", "footnote 1", "Thm. 2.3", "Prop 1")
UNKNOWN_FORMS = (
    ("figure", "Figures 1 and 2"),
    ("figure", "Figure 3-5"),
    ("table", "Tables 1 and 2"),
    ("equation", "Eqs. (1)-(2)"),
    ("section", "Sec. 3(b)"),
)
"""Forms no reader of ours knows: each an error naming the kind it reads as."""
Check = Callable[[Selection], bool]
_TOKEN_RE = re.compile(r"\d+|[^\W\d_]+")
_ROMAN = {to_roman(n).casefold(): n for n in range(1, 40)}


def files(fixtures: Path) -> Iterator[tuple[str, Path]]:
    for page in sorted(fixtures.glob("html/**/*.html")) + sorted(fixtures.glob("ar5iv/*.html")):
        yield "html", page
    for folder in ("real/src", "src"):
        yield from (("source", p) for p in sorted((fixtures / folder).iterdir()) if "edgecase" not in p.name)
    yield from (("pdf", p) for p in sorted(fixtures.glob("**/*.pdf")))


def _tokens(number: str) -> tuple[str, ...]:
    return tuple(_TOKEN_RE.findall(number.casefold()))


# --- the forms of what the paper prints ----------------------------------------------------


def section_forms(number: str, roman_paper: bool = False) -> list[str]:
    """A printed section number as readers write it; `roman_paper`: the paper numbers its
    sections in Roman (REVTeX), so a lone `I` or `V` is a section, never an appendix."""
    forms = [number, f"Section {number}", f"Sec. {number}", f"§{number}", f"sec {number}"]
    if re.fullmatch(r"[A-Z]", number) and not (roman_paper and number.casefold() in _ROMAN):
        forms.append(f"Appendix {number}")
    split = re.fullmatch(r"([^.\-]+)([.\-])(.+)", number)
    if split:
        head, sep, tail = split.groups()
        other = "-" if sep == "." else "."
        forms += [f"{head}{other}{tail}", f"Sec. {head}{other}{tail}"]
        if head.casefold() in _ROMAN and re.fullmatch(r"[A-Z]", tail):  # REVTeX's V.B is section 5.2
            forms.append(f"Section {_ROMAN[head.casefold()]}.{ord(tail) - ord('A') + 1}")
            forms += [f"{head} {tail}", f"Sec. {head} {tail}", f"Sec. {head}{tail}"]  # as REVTeX's \ref prints it
    return forms


def figure_forms(number: str) -> list[str]:
    forms = [f"Figure {number}", f"Fig. {number}", f"FIG. {number}", f"Figs. {number}", f"fig{number}"]
    forms += [f"Fig. {number}(a)", f"Figure {number} (left)", f"Fig. {number} (top)", f"Fig. {number}."]
    supplementary = re.fullmatch(r"S(\d+)", number)
    return forms + ([f"Supplementary Figure {supplementary.group(1)}"] if supplementary else [])


def table_forms(number: str) -> list[str]:
    forms = [f"Table {number}", f"Tab. {number}", f"Table {number}(a)", f"TABLE {number}", f"Table {number}."]
    return forms + ([f"TABLE {to_roman(int(number))}"] if number.isdigit() and 0 < int(number) < 40 else [])


def equation_forms(number: str) -> list[str]:
    return [
        f"({number})",
        f"Eq. ({number})",
        f"Eq. {number}",
        f"Equation {number}",
        f"eqn. ({number})",
        f"Eq. {number}.",
    ]


_AUTHOR_YEAR_LABEL_RE = re.compile(
    r"(?P<first>[^\W\d][\w'’\-]*(?: [^\W\d][\w'’\-]*){0,2})"
    r"(?: (?P<etal>et al\.?)| (?:and|&) (?P<second>[^\W\d][\w'’\-]*(?: [^\W\d][\w'’\-]*){0,2}))?"
    r",? \(?(?P<year>(?:1[6-9]|20)\d\d)(?P<suffix>[a-z]?)\)?"
)


def author_year_forms(label: str) -> list[str]:
    """The citation forms of an author-year label (`Smith et al., 2020`), or none."""
    match = _AUTHOR_YEAR_LABEL_RE.fullmatch(" ".join(label.split()))
    if not match:
        return []
    first, year = match.group("first"), match.group("year") + match.group("suffix")
    if match.group("etal"):
        names = [f"{first} et al."]
    elif match.group("second"):
        names = [f"{first} and {match.group('second')}", f"{first} & {match.group('second')}"]
    else:
        names = [first]
    return [form for name in names for form in (f"({name}, {year})", f"{name} ({year})", f"{name} {year}")]


def own_forms(doc: Document) -> Iterator[tuple[str, str, Check]]:
    """(kind, selector, is-it) for every form of every item the document lists."""
    headings = [h for h in doc.records(Heading) if h.number]
    roman_paper = any(
        len(h.number or "") > 1 and re.split(r"[.\-]", h.number or "")[0].casefold() in _ROMAN for h in headings
    )
    for heading in headings:
        if heading.number:
            for form in section_forms(heading.number, roman_paper):
                yield "section", form, lambda s, h=heading: s.label.split(" ", 1)[-1] == h.title
    kinds: tuple[tuple[type, str, Callable[[str], list[str]]], ...] = (
        (Figure, "figures", figure_forms),
        (Table, "tables", table_forms),
        (Equation, "equations", equation_forms),
    )
    for kind, field, forms in kinds:
        for record in doc.records(kind):
            for form in forms(record.number):
                yield kind.__name__.lower(), form, lambda s, n=record.number, f=field: _numbers(s, f) == [n]
    yield from _reference_forms(doc)


def _numbers(selection: Selection, field: str) -> list[str]:
    return [item.number for item in getattr(selection, field)]


def _reference_forms(doc: Document) -> Iterator[tuple[str, str, Check]]:
    references = doc.records(Reference)
    labels = [r.label.strip() for r in references]
    for reference in references:
        label = reference.label.strip()
        is_it: Check = lambda s, r=reference: _entry_labels(s) == [r.label]  # noqa: E731
        if label.isdigit():
            forms = [f"[{label}]", f"ref {label}", f"Ref. [{label}]", f"reference {label}"]
        else:
            forms = [label] + author_year_forms(label)
            is_it = lambda s, r=reference: r.label in _entry_labels(s) and _same_printed(s, r)  # noqa: E731
        if reference.key:
            forms.append(reference.key)
        if reference.arxiv_id and sum(r.arxiv_id == reference.arxiv_id for r in references) == 1:
            forms += [reference.arxiv_id, f"arXiv:{reference.arxiv_id}"]
        for form in forms:
            yield "reference", form, is_it
    numeric = [label for label in labels if label.isdigit()]
    if len(numeric) >= 3 and numeric[:3] == ["1", "2", "3"]:
        yield "reference", "[1, 3]", lambda s: _entry_labels(s) == ["1", "3"]
        yield "reference", "[1-3]", lambda s: _entry_labels(s) == ["1", "2", "3"]
        yield "reference", "[1], [3]", lambda s: _entry_labels(s) == ["1", "3"]


def _entry_labels(selection: Selection) -> list[str]:
    return [item.label for item in selection.references]


def _same_printed(selection: Selection, reference: Reference) -> bool:
    """Every entry answered is printed as `reference` is (two entries may share a label)."""
    bare = _tokens(reference.label)
    return all(_tokens(label) == bare for label in _entry_labels(selection))


# --- what the paper does not print ---------------------------------------------------------


def absent_forms(doc: Document, printed_labels: bool = True) -> Iterator[tuple[str, str]]:
    """(kind, selector) of numbers the document does not print, each a near miss of one it does."""
    printed = {
        "section": [h.number for h in doc.records(Heading) if h.number],
        "figure": [f.number for f in doc.records(Figure)],
        "table": [t.number for t in doc.records(Table)],
        "equation": [e.number for e in doc.records(Equation)],
    }
    ask = {
        "section": lambda n: f"Section {n}",
        "figure": lambda n: f"Figure {n}",
        "table": lambda n: f"Table {n}",
        "equation": lambda n: f"Eq. ({n})",
    }
    for kind, numbers in printed.items():
        for near in _near_misses(numbers):
            yield kind, ask[kind](near)
            if kind == "section":
                yield kind, near
    if not any(_tokens(n)[:1] == ("s",) for n in printed["section"]):
        yield "section", "S1"
    yield from _absent_references(doc, printed_labels)
    for kind, selector in UNKNOWN_FORMS:
        yield kind, selector
    for selector in UNTYPED:
        yield "untyped", selector


def _near_misses(numbers: list[str]) -> list[str]:
    """Numbers that hold a printed one as a substring or are held by one, or come after the
    last, that name no printed number: neither token for token, nor by value (a Roman head and
    capital letters as their places, `V.B` being 5.2), nor as the parts it names (`2.5` names
    2.5a and 2.5b), nor as a part of one (`1a` is part (a) of 1)."""
    have = {_value(n) for n in numbers}
    parents = {_tokens(n)[:-1] for n in numbers if re.search(r"\d[a-z]$", n)}
    candidates: list[str] = []
    for number in numbers:
        candidates += [number + "1", "1" + number, number[1:], number[:-1]]
        if re.match(r"[IVXLC]+\b", number):
            candidates.append("V" + number)
    candidates += [str(len(numbers) + 50), "99"]
    out = []
    for candidate in dict.fromkeys(c.strip(".-") for c in candidates):
        if not _tokens(candidate) or _value(candidate) in have or _tokens(candidate) in parents:
            continue
        if re.fullmatch(r"\d+[A-Za-z]", candidate):
            continue
        out.append(candidate)
    return out[:30]


def _value(number: str) -> tuple[int | str, ...]:
    """The number's tokens as values: the first Roman or Arabic, a later capital letter its
    place in the alphabet (`VIII-A` is (8, 1)); two numbers of one value name one item."""
    values: list[int | str] = []
    for index, token in enumerate(re.findall(r"\d+|[^\W\d_]+", number)):
        if token.isdigit():
            values.append(int(token))
        elif index == 0 and token.casefold() in _ROMAN:
            values.append(_ROMAN[token.casefold()])
        elif index and len(token) == 1 and token.isupper():
            values.append(ord(token) - ord("A") + 1)
        else:
            values.append(token.casefold())
    return tuple(values)


def _absent_references(doc: Document, printed_labels: bool) -> Iterator[tuple[str, str]]:
    """`printed_labels`: the labels are the source's (a PDF's author-year labels are made up
    from the first author, so a bare name there says nothing of how many authors there are)."""
    references = doc.records(Reference)
    labels = {r.label.strip() for r in references}
    numeric = sorted(int(label) for label in labels if label.isdigit())
    if numeric:
        yield "reference", f"[{numeric[-1] + 1}]"
        yield "reference", "[0]"
    printed = {_tokens(label) for label in labels}
    for reference in references:
        match = _AUTHOR_YEAR_LABEL_RE.fullmatch(" ".join(reference.label.split()))
        if not match:
            continue
        first, year = match.group("first"), int(match.group("year"))
        two = match.group("second") is not None  # printed "X and Y": two authors, never "et al."
        if (two or printed_labels) and not match.group("etal") and _tokens(f"{first} et al {year}") not in printed:
            yield "reference", f"{first} et al. {year}"
        for other in (year - 1, year + 1):
            if not any(_tokens(label)[:1] == _tokens(first)[:1] and str(other) in label for label in labels):
                yield "reference", f"{first} {other}"


# --- the sweep -----------------------------------------------------------------------------


def _view(doc: Document, selector: str) -> Selection | str:
    try:
        return select(doc, selector, lambda number: number)
    except InvalidInput as error:
        return str(error)


def sweep(doc: Document, printed_labels: bool = True) -> tuple[int, list[str], list[str]]:
    """(selectors asked, silent wrong answers, misses) of one document."""
    asked, wrong, missed = 0, [], []
    for kind, selector, is_it in own_forms(doc):
        asked += 1
        got = _view(doc, selector)
        if isinstance(got, str):
            missed.append(f"{kind} {selector!r}: error {got[:100]}")
        elif not is_it(got):
            wrong.append(f"{kind} {selector!r}: gave {got.label[:80]!r}")
    for kind, selector in absent_forms(doc, printed_labels):
        asked += 1
        got = _view(doc, selector)
        if isinstance(got, str):
            if kind != "untyped" and kind not in got.casefold() and "reads as" not in got:
                wrong.append(f"{kind} {selector!r} (not printed): the error names no {kind}: {got[:100]}")
        elif kind != "untyped" or got.label.startswith("section:"):
            wrong.append(f"{kind} {selector!r} (not printed): gave {got.label[:80]!r}")
    return asked, wrong, missed


# --- what a LaTeXML page prints, read from its markup ----------------------------------------

_MARKUP_TAGS = {
    "figure": re.compile(r'class="ltx_figure(?![\w-])(?![^"]*ltx_figure_panel)[^"]*"'),
    "table": re.compile(r'class="ltx_table(?![\w-])(?![^"]*ltx_figure_panel)[^"]*"'),
    "equation": re.compile(r'class="ltx_tag ltx_tag_equation[^"]*">\((?P<n>[^)<]+)\)<'),
    "reference": re.compile(r'<li[^>]*class="ltx_bibitem\b'),
}


def markup_counts(page: str) -> dict[str, int]:
    """How many figures, tables, numbered equations and entries a LaTeXML page's markup holds
    (an equation only with its math: a page may keep a number whose formula it lost)."""
    counts = {kind: len(pattern.findall(page)) for kind, pattern in _MARKUP_TAGS.items()}
    tables = [table.split("</table>", 1)[0] for table in page.split('<table class="ltx_equation')[1:]]
    equations = [table for table in tables if "<math" in table]
    counts["equation"] = len({m.group("n") for table in equations for m in _MARKUP_TAGS["equation"].finditer(table)})
    return counts


def document_counts(doc: Document) -> dict[str, int]:
    return {
        "figure": len(doc.records(Figure)),
        "table": len(doc.records(Table)),
        "equation": len({e.number for e in doc.records(Equation)}),
        "reference": len(doc.records(Reference)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", default=None)
    parser.add_argument("--engine", default="auto", choices=("auto", "pypdf", "pdfium"))
    parser.add_argument("--verbose", action="store_true", help="list the misses too")
    args = parser.parse_args(argv)
    fixtures = shared_dir(args.shared) / "fixtures" / "arxiv"
    total, papers, wrong, missed, counted = 0, 0, [], [], []
    for kind, path in files(fixtures):
        try:
            data = path.read_bytes()
            doc = extract(kind, data, pdf_engine=args.engine)
        except ExtractionError:
            continue
        asked, silent, misses = sweep(doc, printed_labels=kind != "pdf")
        total, papers = total + asked, papers + 1
        wrong += [f"{path.name} {line}" for line in silent]
        missed += [f"{path.name} {line}" for line in misses]
        if kind == "html" and b"ltx_page_main" in data:
            page, have = markup_counts(data.decode("utf-8", "replace")), document_counts(doc)
            counted += [f"{path.name} {k}: markup {page[k]}, document {have[k]}" for k in page if page[k] > have[k]]
    print(f"{papers} documents, {total} selectors asked")
    print(f"{len(wrong)} silent wrong answers, {len(missed)} items not answered by a form of theirs")
    print(f"{len(counted)} kinds of a LaTeXML page with fewer items in the document than in the markup")
    for line in wrong + (missed if args.verbose else missed[:20]) + counted:
        print("  " + line)
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
