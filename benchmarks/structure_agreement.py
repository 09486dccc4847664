"""The same answers from every source (issue 32, point 7): the papers of the shared corpus that
exist in more than one form are read from each, and every selector a reader would use is asked
of each reading; the answers are compared.

    python benchmarks/structure_agreement.py [--shared DIR] [--only SUBSTRING] [--engine auto|pypdf|pdfium]
    python benchmarks/structure.py --agree            (the same report)

Pairs (`<shared>/fixtures/arxiv/`): each e-print of `real/src/X` with the PDF compiled from it
(`real/compiled_pdf_MADE_HERE/X.pdf`), and `ar5iv/ar5iv_1706.03762_*.html` with
`real/pdf/1706.03762.pdf`. For each paper, the selectors asked are the union over its readings
of: every printed section number, `Figure N`, `Table N`, `Eq. (N)` and every bibliography
label (`[12]`, or an author-year label as printed). Per kind, an item agrees when every reading
answers it and the answers match on each aspect the kind has (a column each):
- number: the printed number (section, figure, table, equation);
- label: a section's heading words (its title less its number, as a word set: Jaccard >= 0.5),
  a reference's label as the reading prints it (`12`, `Smith et al., 2020`);
- words: a figure's or table's caption, its first 12 words (Jaccard >= 0.5);
- entry: a reference's first word, and a four-digit year both readings print in it.
Theorem-like blocks (`Theorem 3.1`: number and kind), algorithms (`Algorithm 1`: number and
caption words) and footnotes (`footnote 2`: mark and its first 12 words) are asked the same way.
An equation's body is not compared (a PDF carries the printed line, not LaTeX). Each
disagreement is listed: the selector, and per reading what it answered (or its error).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.append(str(REPO_ROOT))

from arxiv_mcp.errors import InvalidInput  # noqa: E402
from arxiv_mcp.text.document import (  # noqa: E402
    Algorithm,
    Document,
    Equation,
    Figure,
    Footnote,
    Heading,
    Reference,
    Statement,
    Table,
)
from arxiv_mcp.text.extract import extract  # noqa: E402
from arxiv_mcp.text.selection import Selection  # noqa: E402
from arxiv_mcp.text.selectors import select  # noqa: E402
from benchmarks.text_quality import shared_dir  # noqa: E402

KINDS = ("section", "figure", "table", "equation", "reference", "statement", "algorithm", "footnote")
_WORD_RE = re.compile(r"[^\W_]+")
_YEAR_RE = re.compile(r"(?<!\d)(?:1[89]|20)\d\d(?!\d)")


@dataclass
class Answer:
    """What one reading answered a selector: comparable keys (None: the kind has no such
    aspect), or the error."""

    number: str | None = None
    label: frozenset[str] | str | None = None
    words: frozenset[str] | None = None
    entry: tuple[str, frozenset[str]] | None = None
    error: str | None = None

    def show(self) -> str:
        if self.error is not None:
            return "error: " + self.error[:70]
        shown = [self.number or "", _shown(self.label), _shown(self.words)]
        if self.entry:
            shown.append(f"{self.entry[0]} {'/'.join(sorted(self.entry[1]))}")
        return " ".join(part for part in shown if part)


def _shown(value: frozenset[str] | str | None) -> str:
    if isinstance(value, frozenset):
        return " ".join(sorted(value))[:60]
    return value or ""


ASPECTS = ("number", "label", "words", "entry")


@dataclass
class Tally:
    asked: int = 0
    answered: int = 0
    """Items every reading answered (no error)."""
    agreed: int = 0
    aspects: dict[str, list[int]] = field(default_factory=dict)
    """Aspect -> [agreeing, compared] over the items every reading answered."""
    disagreements: list[str] = field(default_factory=list)


def pairs(fixtures: Path) -> list[tuple[str, list[tuple[str, Path]]]]:
    found: list[tuple[str, list[tuple[str, Path]]]] = []
    compiled = fixtures / "real" / "compiled_pdf_MADE_HERE"
    for source in sorted((fixtures / "real" / "src").iterdir()):
        stem = source.name.split(".tar")[0]
        pdf = compiled / f"{stem}.pdf"
        if pdf.exists():
            found.append((stem, [("latex", source), ("pdf", pdf)]))
    for page in sorted((fixtures / "ar5iv").glob("ar5iv_1706.03762_*.html")):
        found.append(("1706.03762", [("html", page), ("pdf", fixtures / "real" / "pdf" / "1706.03762.pdf")]))
    return found


def read(kind: str, path: Path, engine: str) -> Document:
    source = {"latex": "source", "html": "html", "pdf": "pdf"}[kind]
    return extract(source, path.read_bytes(), pdf_engine=engine)


def selectors(doc: Document) -> Iterator[tuple[str, str]]:
    """(kind, selector) for every item the reading has."""
    for heading in doc.records(Heading):
        if heading.number:
            yield "section", heading.number
    for figure in doc.records(Figure):
        yield "figure", f"Figure {figure.number}"
    for table in doc.records(Table):
        yield "table", f"Table {table.number}"
    for equation in doc.records(Equation):
        yield "equation", f"Eq. ({equation.number})"
    for reference in doc.records(Reference):
        label = reference.label.strip()
        yield "reference", f"[{label}]" if label.isdigit() else label
    for statement in doc.records(Statement):
        if statement.number and statement.kind != "proof":
            yield "statement", f"{statement.label} {statement.number}"
    for algorithm in doc.records(Algorithm):
        if algorithm.number:
            yield "algorithm", f"{algorithm.label} {algorithm.number}"
    for footnote in doc.records(Footnote):
        yield "footnote", f"footnote {footnote.mark}"


def answer(doc: Document, kind: str, selector: str) -> Answer:
    try:
        chosen = select(doc, selector, lambda number: number)
    except InvalidInput as error:
        return Answer(error=str(error))
    return _KEYS[kind](chosen)


def _words(text: str, limit: int | None = None) -> frozenset[str]:
    return frozenset(w.casefold() for w in _WORD_RE.findall(text)[:limit] if not w.isdigit())


def _section(chosen: Selection) -> Answer:
    title = chosen.label.split(" ", 1)[-1]
    number, _, rest = title.partition(" ")
    return Answer(number.rstrip("."), label=_words(rest))


def _figure(chosen: Selection) -> Answer:
    figure = chosen.figures[0]
    return Answer(figure.number, words=_words(figure.caption, 12))


def _table(chosen: Selection) -> Answer:
    table = chosen.tables[0]
    return Answer(table.number, words=_words(table.caption, 12))


def _equation(chosen: Selection) -> Answer:
    return Answer(chosen.equations[0].number)


def _reference(chosen: Selection) -> Answer:
    reference = chosen.references[0]
    first = next(iter(_WORD_RE.findall(reference.text)), "").casefold()
    years = frozenset(_YEAR_RE.findall(reference.text))
    return Answer(label=" ".join(reference.label.strip("[]").split()), entry=(first, years))


def _statement(chosen: Selection) -> Answer:
    """A theorem-like block: its printed number and its kind's word (`Theorem 3.1`); the
    statement's words are not compared (LaTeX math against a PDF's printed symbols)."""
    word, _, number = chosen.label.rpartition(" ")
    return Answer(number, label=_words(word))


def _algorithm(chosen: Selection) -> Answer:
    head = chosen.text.split("\n", 1)[0]
    name, _, caption = head.partition(": ")
    return Answer(name.rpartition(" ")[2], words=_words(caption, 12))


def _footnote(chosen: Selection) -> Answer:
    head = chosen.text.split("\n", 1)[0]
    return Answer(chosen.label.rpartition(" ")[2], words=_words(head.partition(": ")[2], 12))


_KEYS: dict[str, Callable[[Selection], Answer]] = {
    "section": _section,
    "figure": _figure,
    "table": _table,
    "equation": _equation,
    "reference": _reference,
    "statement": _statement,
    "algorithm": _algorithm,
    "footnote": _footnote,
}


def same(aspect: str, answers: list[Answer]) -> bool | None:
    """Whether every reading's answer has the same `aspect`; None when the kind has none."""
    values = [getattr(a, aspect) for a in answers]
    if values[0] is None:
        return None
    first = values[0]
    for other in values[1:]:
        if aspect == "entry":
            if other[0] != first[0] or not other[1] & first[1]:
                return False
        elif isinstance(first, frozenset) and isinstance(other, frozenset):
            union = first | other
            if union and len(first & other) / len(union) < 0.5:
                return False
        elif other != first:
            return False
    return True


def compare(name: str, readings: list[tuple[str, Document]], tallies: dict[str, Tally]) -> None:
    asked = list(dict.fromkeys(s for _, doc in readings for s in selectors(doc)))
    for kind, selector in asked:
        answers = [answer(doc, kind, selector) for _, doc in readings]
        tally = tallies[kind]
        tally.asked += 1
        agreed = all(a.error is None for a in answers)
        if agreed:
            tally.answered += 1
            for aspect in ASPECTS:
                verdict = same(aspect, answers)
                if verdict is not None:
                    counts = tally.aspects.setdefault(aspect, [0, 0])
                    counts[0] += verdict
                    counts[1] += 1
                    agreed = agreed and verdict
        if agreed:
            tally.agreed += 1
        else:
            shown = "; ".join(f"{form}: {a.show()}" for (form, _), a in zip(readings, answers))
            tally.disagreements.append(f"{name} {selector!r}: {shown}")


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} {part / whole:.0%}" if whole else "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", default=None)
    parser.add_argument("--only", default="")
    parser.add_argument("--engine", default="auto", choices=("auto", "pypdf", "pdfium"))
    parser.add_argument("--show", type=int, default=15, help="disagreements listed per kind (all: -1)")
    args = parser.parse_args(argv)
    fixtures = shared_dir(args.shared) / "fixtures" / "arxiv"
    tallies = {kind: Tally() for kind in KINDS}
    print(f"{'paper':22} forms             seconds  items")
    for name, forms in pairs(fixtures):
        if args.only not in name:
            continue
        started = time.perf_counter()
        readings = [(kind, read(kind, path, args.engine)) for kind, path in forms]
        compare(name, readings, tallies)
        items = " ".join(f"{kind}:{sum(1 for _ in selectors(doc))}" for kind, doc in readings)
        print(f"{name:22} {'+'.join(k for k, _ in forms):17} {time.perf_counter() - started:7.1f}  {items}")
    print(f"\n{'kind':10} {'answered by all':>18} " + " ".join(f"{a:>14}" for a in ASPECTS) + f" {'all agree':>14}")
    for kind, tally in tallies.items():
        cells = [_share(*tally.aspects[a]) if a in tally.aspects else "-" for a in ASPECTS]
        print(
            f"{kind:10} {_share(tally.answered, tally.asked):>18} "
            + " ".join(f"{c:>14}" for c in cells)
            + f" {_share(tally.agreed, tally.asked):>14}"
        )
    total = sum(t.asked for t in tallies.values())
    agreed = sum(t.agreed for t in tallies.values())
    print(f"{'all':10} {'':>18} " + " " * 15 * len(ASPECTS) + f"{_share(agreed, total):>14}")
    for kind, tally in tallies.items():
        listed = tally.disagreements if args.show < 0 else tally.disagreements[: args.show]
        if listed:
            print(
                f"\n{kind}: {len(tally.disagreements)} disagreements"
                + (" (first listed)" if len(listed) < len(tally.disagreements) else "")
            )
            for line in listed:
                print("  " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
