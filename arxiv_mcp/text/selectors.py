"""What `read_paper(section=...)` shows: the outline, a list, a figure, table or equation
(`items.py`), a bibliography entry (`cited.py`), or a section (`outline.py`).

Every view is a pure function of a `Document`, read in one pass over its blocks (no
extraction, no request), so a structural view of a cached paper costs about what a page
does. `links` lists the text's URLs by kind (`links.py`); any other selector is read by the
first kind of `SELECTORS` that reads it, in order: `outline`, a list name (`figures`,
`tables`, `equations`, `references`), a figure, a table, an equation, a theorem-like block, an
algorithm, listing or footnote and their lists (`statement_views.py`), a page (its error:
`page=` reads pages), a bibliography entry in any printed citation form, then a section (a
printed number, `section:N`, or a name). A label the paper does not have is an error that
lists the labels it has.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Callable

from ..errors import InvalidInput
from ..models import EquationItem, ReferenceItem
from ..words import counted, singular
from . import cited, items, links, numbers, statement_views
from .document import Document, Equation, Figure, Reference, Table
from .outline import clean, render_outline, select_section
from .places import Places, reference_label, section_words
from .selection import (
    MAX_MENTIONS,
    FigureUri,
    Selection,
    mention,
    mention_lines,
    named_section,
    none_marked,
)

_LIST_CHARS = 200
_MAX_SELECTOR = 500
_LISTS = {"figures": "figures", "tables": "tables", "equations": "equations", "references": "references"}
_LISTS |= {"bibliography": "references", "figure": "figures", "table": "tables", "equation": "equations"}
_PAGE_RE = re.compile(r"(?:pages?|pp?\.)\s*(?P<n>\d{1,6})(?:\s*[-–]\s*\d{1,6})?", re.IGNORECASE)


Selector = Callable[[Places, str, FigureUri], Selection | None]
"""One kind of selector: its view when the selector is of that kind, else None."""


def select(doc: Document, selector: str, figure_uri: FigureUri, own_id: str | None = None) -> Selection:
    """The view `selector` names: `links`, else the first kind of `SELECTORS` that reads it.
    `own_id`: the paper's id, so `links` leaves out the paper's own arXiv page (the one view
    that needs to know whose document it is, so it is read before the table)."""
    wanted = clean(selector)
    numbers.refuse_long_digits(wanted)
    if len(wanted) > _MAX_SELECTOR:
        raise InvalidInput(
            f"section is {len(wanted):,} characters long; no heading, label or number is: pass a "
            'heading name, a printed number ("4.2", "Figure 3", "[12]"), or section="outline".'
        )
    if wanted.casefold() == "links":
        text, found = links.view(doc, own_id)
        return Selection("links", text, links=found)
    places = _places(doc)
    for _, view in SELECTORS:
        selection = view(places, wanted, figure_uri)
        if selection is not None:
            return selection
    raise AssertionError("the section selector reads every selector")


def _outline_view(places: Places, wanted: str, figure_uri: FigureUri) -> Selection | None:
    if wanted.casefold() != "outline":
        return None
    return Selection("outline", render_outline(places.headings) + "\n\n" + counts_line(places.doc))


def _list_view(places: Places, wanted: str, figure_uri: FigureUri) -> Selection | None:
    which = _LISTS.get(wanted.casefold())
    return None if which is None else _list(places, which, figure_uri)


def _page_view(places: Places, wanted: str, figure_uri: FigureUri) -> Selection | None:
    page = _PAGE_RE.fullmatch(wanted)
    if page is None:
        return None
    section = named_section(places, wanted)  # a heading named "Page 3" is that heading
    if section is not None:
        return section
    raise InvalidInput(
        f"section does not take a page: to read page {page.group('n')}, call read_paper with "
        f'page={page.group("n")} and no section (section="outline" lists the sections).'
    )


def _reference_view(places: Places, wanted: str, figure_uri: FigureUri) -> Selection | None:
    try:
        found = cited.entries(places.doc, wanted)
    except InvalidInput:
        citation = cited.author_year(wanted)  # "COVID 2019" or "Observations in 2019" may name a heading
        cites_author = citation is None or cited.by_first_author(places.doc.records(Reference), citation.surnames[0])
        section = named_section(places, wanted, whole=bool(cites_author))
        if section is not None:
            return section
        raise
    return None if found is None else _references(places, found)


def _section_view(places: Places, wanted: str, figure_uri: FigureUri) -> Selection:
    heading, text = select_section(places.doc, wanted, places.headings)
    return Selection(f"section:{heading.number} {heading.title}", text)


SELECTORS: tuple[tuple[str, Selector], ...] = (
    ("outline", _outline_view),
    ("list", _list_view),
    ("figure", items.figure_view),
    ("table", items.table_view),
    ("equation", items.equation_view),
    *statement_views.VIEWS,
    ("page", _page_view),
    ("reference", _reference_view),
    ("section", _section_view),
)
"""The kinds of selector, in the order they are tried: the first that reads a selector views
it. A number-like selector of a kind (`"Figure 3-5"`, `"Theorem 2"`) stops at its kind, with
that kind's error; only what no kind reads goes on to the sections."""


_KEPT: list[tuple[Document, Places]] = []
_KEPT_LOCK = threading.Lock()


def _places(doc: Document) -> Places:
    """The look-ups of a document, kept for the last few documents (the reader keeps the
    documents of the papers being read, and one paper is asked view after view)."""
    with _KEPT_LOCK:
        for kept, places in _KEPT:
            if kept is doc:
                return places
    places = Places(doc)
    with _KEPT_LOCK:
        _KEPT.insert(0, (doc, places))
        del _KEPT[8:]
    return places


def counts_line(doc: Document) -> str:
    """`9 figures, 4 tables, 31 numbered equations, 58 references`, and how to ask for each."""
    kinds = Counter(type(block.record) for block in doc.blocks)
    counts = [
        (kinds[Figure], "figure", '"Figure 3"'),
        (kinds[Table], "table", '"Table 2"'),
        (kinds[Equation], "numbered equation", '"Eq. (7)"'),
        (kinds[Reference], "reference", '"[12]"'),
    ]
    said = ", ".join(counted(n, noun) for n, noun, _ in counts)
    asks = [ask for n, _, ask in counts if n]
    how = (
        f'Read one with section={" / ".join(asks)}, list them with section="figures" (tables, equations, references).'
        if asks
        else "This text marks none of them."
    )
    return (
        f'{said}. {how}{statement_views.counts_words(doc)} A section: its printed number (section="4.2", '
        '"Appendix B"), its name, or [sN] as section:N.'
    )


# --- lists ---------------------------------------------------------------------------------


def _list(places: Places, which: str, figure_uri: FigureUri) -> Selection:
    doc = places.doc
    lines: list[str] = []
    selection = Selection(which, "")
    wanted = {"figures": Figure, "tables": Table, "equations": Equation, "references": Reference}[which]
    for block in doc.blocks:
        record = block.record
        if not isinstance(record, wanted):
            continue
        heading = places.section(block.start)
        section = heading.title if heading else None
        where = f" ({section_words(heading)})" if heading else ""
        if which == "figures" and isinstance(record, Figure):
            selection.figures.append(items.figure_item(record, section, figure_uri))
            lines.append(f"{record.label}{where}: {_short(record.caption)}")
        elif which == "tables" and isinstance(record, Table):
            selection.tables.append(items.table_item(record, section))
            lines.append(f"{record.label}{where}: {_short(record.caption)}")
        elif which == "equations" and isinstance(record, Equation):
            selection.equations.append(EquationItem(record.number, record.latex, section))
            lines.append(f"({record.number}){where}: {_short(record.latex)}")
        elif which == "references" and isinstance(record, Reference):
            reference = _reference_item(record)
            selection.references.append(reference)
            lines.append(_reference_line(record, reference.text))
    if not lines:
        try:  # a text that marks none may still have a section of that name ("References")
            heading, text = select_section(doc, which, places.headings)
        except InvalidInput:
            raise InvalidInput(none_marked(which)) from None
        return Selection(f"section:{heading.number} {heading.title}", text)
    selection.text = f"{counted(len(lines), singular(which), which)}:\n" + "\n".join(lines)
    return selection


def _short(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _LIST_CHARS else flat[: _LIST_CHARS - 1].rstrip() + "…"


def _reference_line(reference: Reference, flat: str | None = None) -> str:
    """`[12] The entry. [arXiv:...; doi:...]`; `flat` is the entry's text on one line when known."""
    flat = " ".join(reference.text.split()) if flat is None else flat
    ids = [f"arXiv:{reference.arxiv_id}" if reference.arxiv_id else "", f"doi:{reference.doi}" if reference.doi else ""]
    extra = "; ".join(i for i in ids if i)
    return f"{reference_label(reference)} {flat}" + (f" [{extra}]" if extra else "")


# --- references ----------------------------------------------------------------------------


def _references(places: Places, references: list[Reference]) -> Selection:
    """Each entry named, with the passages citing it (one answer per entry)."""
    views = [_reference(places, reference) for reference in references]
    if len(views) == 1:
        return views[0]
    label = "references " + ", ".join(reference_label(r) for r in references)
    text = "\n\n".join(view.text for view in views)
    return Selection(label, text, references=[item for view in views for item in view.references])


def _reference(places: Places, reference: Reference) -> Selection:
    item = _reference_item(reference)
    targets = {t for t in (reference.key, reference.label) if t}
    first_in_block: dict[int, int] = {}
    for citation in places.doc.citations:
        if targets & set(citation.targets):
            block = places.block(citation.start)
            first_in_block.setdefault(block.start if block else citation.start, citation.start)
    item.mentions = [mention(places, offset) for offset in list(first_in_block.values())[:MAX_MENTIONS]]
    lines = [_reference_line(reference)] + mention_lines(item.mentions, "Cited in")
    return Selection(f"reference {reference_label(reference)}", "\n".join(lines), references=[item])


def _reference_item(reference: Reference) -> ReferenceItem:
    return ReferenceItem(reference.label, " ".join(reference.text.split()), reference.arxiv_id, reference.doi)
