"""Two versions of a paper compared: metadata, sections, figures, tables, equations, references.

Works on what a read already made (each version's `Document` and, when known, its Atom
metadata), so a comparison costs no request beyond reading the two versions. Invariants:
- two identical documents give no change at all (`textdiff` invents nothing on equal texts);
- sections are matched by printed number and title first, then by title alone (a renumbered
  section is "moved", never removed and added), then by number with similar text (retitled),
  then by similar text; what is left is added or removed;
- figures, tables and equations are matched by printed number, references by their text (a
  bibliography renumbers when an entry is added);
- where the two texts come from different sources (a PDF and arXiv's HTML), a kind of item one
  source does not mark is not reported as added or removed, and `source_note` says so.
The one-paragraph summary is made last, from the changes found.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..models import FieldChange, ItemChange, SectionChange, VersionComparison, VersionFacts
from ..text.document import Document, Equation, Figure, Kind, Reference, Table
from ..text.outline import outline
from ..upstream.atom import Paper
from . import textdiff
from .textdiff import flat, short

_WITHDRAWN_RE = re.compile(r"\bwithdrawn?\b", re.IGNORECASE)
_LEADING_NUMBER_RE = re.compile(r"^(?:appendix\s+)?(?:\d+|[A-Z]|[IVXLC]+)(?:\.(?:\d+|[A-Z]))*[.:]?\s+", re.IGNORECASE)
_EQUATION_LINE_RE = re.compile(r"(?:(?<=[.!?:])|^)\s*[^.!?:]*[=<>≤≥∑∫][^.!?:]*\(\d{1,3}(?:\.\d{1,3})?[a-z]?\)(?=\s|$)")
"""A display equation a PDF's text leaves inside a paragraph: math up to its number, `(7)`."""
_MATCH_BY_NUMBER = 0.5
_MATCH_BY_TEXT = 0.6
_SECTION_KINDS = (Kind.PARAGRAPH, Kind.LIST)
_NAMES = {"html": "arXiv's HTML", "ar5iv": "ar5iv's HTML", "source": "the LaTeX source", "pdf": "the PDF"}


@dataclass(frozen=True)
class Side:
    """One version as read: its number, metadata (None when unknown), document and source."""

    version: int
    paper: Paper | None
    doc: Document
    method: str
    file_bytes: int | None = None

    @property
    def withdrawn(self) -> bool:
        return is_withdrawn(self.paper)


def is_withdrawn(paper: Paper | None) -> bool:
    """arXiv marks a withdrawn version in its comment ("This paper has been withdrawn ...")."""
    return bool(paper and paper.comment and _WITHDRAWN_RE.search(paper.comment))


def compare(paper_id: str, before: Side, after: Side) -> VersionComparison:
    metadata = metadata_changes(before.paper, after.paper)
    sections = section_changes(before.doc, after.doc)
    items, unmarked = item_changes(before, after)
    facts = [_facts(before), _facts(after)]
    note = source_note(before, after, unmarked)
    return VersionComparison(
        paper_id=paper_id,
        from_version=before.version,
        to_version=after.version,
        summary=summarise(paper_id, facts, metadata, sections, items, note),
        versions=[_record(f) for f in facts],
        metadata=[_record(m) for m in metadata],
        sections=[_record(s) for s in sections],
        items=[_record(i) for i in items],
        source_note=note,
    )


def _record(change: FieldChange | SectionChange | ItemChange | VersionFacts) -> dict[str, Any]:
    """A change as structured content: its fields (strings and lists of strings, so a shallow
    copy; `asdict`'s deep copy cost a third of a long paper's comparison)."""
    return dict(vars(change))


def _facts(side: Side) -> VersionFacts:
    return VersionFacts(
        version=side.version,
        date=side.paper.updated if side.paper else None,
        method=side.method,
        chars=len(side.doc.text),
        file_bytes=side.file_bytes,
        withdrawn=side.withdrawn,
    )


# --- metadata ----------------------------------------------------------------------------------


def metadata_changes(before: Paper | None, after: Paper | None) -> list[FieldChange]:
    if before is None or after is None:
        return []
    changes: list[FieldChange] = []
    for name in ("title", "abstract"):
        old, new = getattr(before, name), getattr(after, name)
        if flat(old) != flat(new):
            changes.append(FieldChange(name, old, new, textdiff.word_diff(old, new)))
    authors = _author_change([a.name for a in before.authors], [a.name for a in after.authors])
    if authors is not None:
        changes.append(authors)
    for name in ("comment", "journal_ref", "doi"):
        old, new = getattr(before, name), getattr(after, name)
        if flat(old or "") != flat(new or ""):
            changes.append(FieldChange(name, old, new))
    if before.categories != after.categories:
        gone = [c for c in before.categories if c not in after.categories]
        came = [c for c in after.categories if c not in before.categories]
        diff = " ".join([f"[-{c}-]" for c in gone] + [f"{{+{c}+}}" for c in came]) or "reordered"
        changes.append(FieldChange("categories", ", ".join(before.categories), ", ".join(after.categories), diff))
    return changes


def _author_change(old: list[str], new: list[str]) -> FieldChange | None:
    if old == new:
        return None
    removed = [name for name in old if name not in new]
    added = [name for name in new if name not in old]
    parts = [f"added: {', '.join(added)}" if added else "", f"removed: {', '.join(removed)}" if removed else ""]
    kept_old = [name for name in old if name in new]
    kept_new = [name for name in new if name in old]
    if kept_old != kept_new:
        parts.append("reordered")
    return FieldChange("authors", ", ".join(old), ", ".join(new), "; ".join(p for p in parts if p))


# --- sections ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Section:
    number: str | None
    title: str
    key: str
    body: str


def sections_of(doc: Document, unmarked_equations: bool = False) -> list[_Section]:
    """Each heading with its own running text (paragraphs and lists up to the next heading):
    figures, tables, equations and references are compared as items, and page markers are
    not the paper's text. `unmarked_equations`: this text leaves its numbered equations in its
    paragraphs (a PDF) while the other marks them; those lines are left out here too."""
    headings = outline(doc)
    if len(headings) > 1 and headings[0].level == 1 and headings[1].level > 1:
        headings = headings[1:]  # the document's title: compared with the metadata, not as a section
    starts = [h.start for h in headings] + [len(doc.text)]
    pieces: list[list[str]] = [[] for _ in headings]
    index = 0
    for block in doc.blocks:
        while index + 1 < len(headings) and block.start >= starts[index + 1]:
            index += 1
        if headings and block.kind in _SECTION_KINDS and block.start >= starts[index]:
            pieces[index].append(doc.text[block.start : block.end])
    found = []
    for heading, parts in zip(headings, pieces):
        title = _LEADING_NUMBER_RE.sub("", heading.title) if heading.printed else heading.title
        body = " ".join(parts)
        if unmarked_equations:
            body = _EQUATION_LINE_RE.sub(" ", body)
        found.append(_Section(heading.printed, title.strip(), _fold(title), body))
    return found


def _fold(title: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", title.casefold()).split())


def section_changes(before: Document, after: Document) -> list[SectionChange]:
    marked_before = any(block.kind is Kind.EQUATION for block in before.blocks)
    marked_after = any(block.kind is Kind.EQUATION for block in after.blocks)
    old = sections_of(before, marked_after and not marked_before)
    new = sections_of(after, marked_before and not marked_after)
    pairs = _match_sections(old, new)
    paired_old = set(pairs.values())
    changes: list[SectionChange] = []
    placed: set[int] = set()
    for j, section in enumerate(new):
        if j in pairs:
            matched = pairs[j]
            for i in range(matched):  # removed sections before this one's match stand where they stood
                if i not in paired_old and i not in placed:
                    changes.append(_removed(old[i]))
                    placed.add(i)
            changes.append(_section_change(old[matched], section))
        else:
            changes.append(SectionChange("added", None, section.number, None, section.title, added=_first(section)))
    changes += [_removed(old[i]) for i in range(len(old)) if i not in paired_old and i not in placed]
    return changes


def _first(section: _Section) -> list[str]:
    return [short(s) for s in textdiff.sentences(section.body)[:2]]


def _removed(section: _Section) -> SectionChange:
    return SectionChange("removed", section.number, None, section.title, None, removed=_first(section))


def _match_sections(old: list[_Section], new: list[_Section]) -> dict[int, int]:
    """new index -> old index, in four passes (see the module's docstring)."""
    pairs: dict[int, int] = {}
    used: set[int] = set()
    for same in (lambda s: (s.number, s.key), lambda s: s.key):  # exact passes: looked up, not scanned
        waiting: dict[object, list[int]] = {}
        for i, section in enumerate(old):
            if i not in used:
                waiting.setdefault(same(section), []).append(i)
        for j, section in enumerate(new):
            free = waiting.get(same(section))
            if j not in pairs and free:
                pairs[j] = free.pop(0)
                used.add(pairs[j])
    for by_number in (True, False):
        threshold = _MATCH_BY_NUMBER if by_number else _MATCH_BY_TEXT
        for j, section in enumerate(new):
            if j in pairs or not section.body:
                continue
            free = [
                i
                for i in range(len(old))
                if i not in used and old[i].body and (not by_number or (old[i].number or "") == (section.number or "-"))
            ]
            score, best = max(((textdiff.similarity(old[i].body, section.body), i) for i in free), default=(0.0, -1))
            if score >= threshold:
                pairs[j] = best
                used.add(best)
    return pairs


def _section_change(old: _Section, new: _Section) -> SectionChange:
    moved = old.number != new.number and old.number is not None and new.number is not None
    same_text = old.body == new.body or flat(old.body) == flat(new.body)
    if same_text and old.key == new.key and not moved:
        return SectionChange("unchanged", old.number, new.number, old.title, new.title, 1.0)
    removed, added = ([], []) if same_text else textdiff.sentence_changes(old.body, new.body)
    return SectionChange(
        "moved" if moved else "changed",
        old.number,
        new.number,
        old.title,
        new.title,
        textdiff.similarity(old.body, new.body),
        [short(s) for s in removed[: textdiff.MAX_SENTENCES]],
        [short(s) for s in added[: textdiff.MAX_SENTENCES]],
        textdiff.number_changes(removed, added),
    )


# --- figures, tables, equations, references ----------------------------------------------------


def item_changes(before: Side, after: Side) -> tuple[list[ItemChange], list[str]]:
    """The items that changed, and the kinds left out because one source marks none of them."""
    changes: list[ItemChange] = []
    unmarked: list[str] = []
    records_before, records_after = _records(before.doc), _records(after.doc)
    for kind, record_type, compare_kind in (
        ("figure", Figure, _numbered),
        ("table", Table, _numbered),
        ("equation", Equation, _numbered),
        ("reference", Reference, _references),
    ):
        old, new = records_before.get(record_type, []), records_after.get(record_type, [])
        if before.method != after.method and bool(old) != bool(new):
            unmarked.append(kind)
            continue
        changes += compare_kind(kind, old, new)
    return changes, unmarked


def _records(doc: Document) -> dict[type, list[Any]]:
    """The document's records by type, in one pass over its blocks."""
    found: dict[type, list[Any]] = {}
    for block in doc.blocks:
        if block.record is not None:
            found.setdefault(type(block.record), []).append(block.record)
    return found


def _numbered(
    kind: str, old: list[Figure | Table | Equation], new: list[Figure | Table | Equation]
) -> list[ItemChange]:
    before = {record.number.casefold(): record for record in old}
    after = {record.number.casefold(): record for record in new}
    changes: list[ItemChange] = []
    for key, record in after.items():
        if key not in before:
            changes.append(ItemChange(kind, "added", _label(record), after=_describe(record)))
            continue
        details = _item_details(before[key], record)
        if details:
            changes.append(
                ItemChange(kind, "changed", _label(record), _describe(before[key]), _describe(record), details)
            )
    changes += [
        ItemChange(kind, "removed", _label(r), before=_describe(r)) for k, r in before.items() if k not in after
    ]
    return changes


def _label(record: Figure | Table | Equation) -> str:
    return f"Eq. ({record.number})" if isinstance(record, Equation) else record.label


def _describe(record: Figure | Table | Equation) -> str:
    return short(record.latex if isinstance(record, Equation) else record.caption, 160)


def _item_details(old: Figure | Table | Equation, new: Figure | Table | Equation) -> list[str]:
    if isinstance(old, Equation) and isinstance(new, Equation):
        same = "".join(old.latex.split()) == "".join(new.latex.split())
        return [] if same else [f"LaTeX: {short(old.latex, 100)} -> {short(new.latex, 100)}"]
    details = []
    if isinstance(old, Figure | Table) and isinstance(new, Figure | Table) and flat(old.caption) != flat(new.caption):
        details.append("caption: " + textdiff.word_diff(old.caption, new.caption))
    if isinstance(old, Table) and isinstance(new, Table):
        details += table_cell_changes(old, new)
    return details


def table_cell_changes(old: Table, new: Table, limit: int = 8) -> list[str]:
    """`row Ours, Acc: 91.2 -> 92.7` for each cell that changed, rows and columns named by the
    first cell of the row and the header row's cell (a PDF's rows are approximate: said so)."""
    if [list(map(flat, r)) for r in old.rows] == [list(map(flat, r)) for r in new.rows]:
        return []
    if old.approximate or new.approximate or len(old.rows) != len(new.rows):
        return _words_changed(old, new)
    header = new.rows[0] if new.header_rows and new.rows else ()
    cells = []
    for r, (row_old, row_new) in enumerate(zip(old.rows, new.rows)):
        for c in range(max(len(row_old), len(row_new))):
            a = flat(row_old[c]) if c < len(row_old) else ""
            b = flat(row_new[c]) if c < len(row_new) else ""
            if a != b:
                row_name = flat(row_new[0]) if row_new and c else f"row {r + 1}"
                column = flat(header[c]) if c < len(header) and header[c].strip() else f"column {c + 1}"
                cells.append(f"row {row_name}, {column}: {a or '(empty)'} -> {b or '(empty)'}")
    shown = cells[:limit]
    if len(cells) > limit:
        shown.append(f"… {len(cells) - limit} more cells")
    return shown


def _words_changed(old: Table, new: Table) -> list[str]:
    """Tables whose cells cannot be lined up (a PDF's rows are approximate, or rows were added):
    each row's words compared, the numbers that changed named by the row's first word."""
    before = [" ".join(" ".join(cell.split()) for cell in row) for row in old.rows]
    after = [" ".join(" ".join(cell.split()) for cell in row) for row in new.rows]
    if before == after:
        return []
    how = " (approximate: rows read from a PDF's layout)" if old.approximate or new.approximate else ""
    found = []
    if len(before) == len(after):
        for row_old, row_new in zip(before, after):
            if row_old != row_new:
                name = row_new.split(" ", 1)[0]
                found += [f"row {name}: {a} -> {b}" for _, a, b in _row_numbers(row_old, row_new)]
    return [f"rows {len(old.rows)} -> {len(new.rows)}{how}"] + (found or ["cells changed"])


def _row_numbers(old: str, new: str) -> list[tuple[str, str, str]]:
    """A row's numbers that changed, when its words line up one to one."""
    words_old, words_new = textdiff.words(old), textdiff.words(new)
    return textdiff.numbers_between(words_old, words_new) if len(words_old) == len(words_new) else []


def _references(kind: str, old: list[Reference], new: list[Reference]) -> list[ItemChange]:
    """Entries matched by their text (labels renumber when one is added); an entry whose text
    changed a little is "changed", with both texts."""
    before = {flat(r.text).casefold(): r for r in old}
    after = {flat(r.text).casefold(): r for r in new}
    gone = [r for key, r in before.items() if key not in after]
    came = [r for key, r in after.items() if key not in before]
    changes: list[ItemChange] = []
    for entry in came:
        twin = max(gone, key=lambda r: textdiff.similarity(r.text, entry.text), default=None)
        if twin is not None and textdiff.similarity(twin.text, entry.text) >= 0.8:
            gone.remove(twin)
            diff = textdiff.word_diff(twin.text, entry.text)
            changes.append(ItemChange(kind, "changed", f"[{entry.label}]", short(twin.text), short(entry.text), [diff]))
        else:
            changes.append(ItemChange(kind, "added", f"[{entry.label}]", after=short(entry.text)))
    changes += [ItemChange(kind, "removed", f"[{r.label}]", before=short(r.text)) for r in gone]
    return changes


# --- what the sources may explain, and the summary ----------------------------------------------


def source_note(before: Side, after: Side, unmarked: list[str]) -> str | None:
    if before.method == after.method:
        return None
    note = (
        f"v{before.version} was read from {_NAMES.get(before.method, before.method)} and v{after.version} from "
        f"{_NAMES.get(after.method, after.method)}: differences of wording, line breaks, headings and tables "
        "may come from the extraction rather than the paper."
    )
    if unmarked:
        note += f" One of the two marks no {', '.join(k + 's' for k in unmarked)}, so those are not compared."
    return note


def summarise(
    paper_id: str,
    facts: list[VersionFacts],
    metadata: list[FieldChange],
    sections: list[SectionChange],
    items: list[ItemChange],
    note: str | None,
) -> str:
    a, b = facts
    head = f"{paper_id} v{a.version} ({_date(a)}, {a.method}) -> v{b.version} ({_date(b)}, {b.method}): "
    said = [_metadata_words(change) for change in metadata] + _section_words(sections) + _item_words(items)
    body = "; ".join(said) if said else "no change found in the metadata or the text"
    withdrawn = "".join(f" v{v.version} is withdrawn." for v in facts if v.withdrawn)
    return head + body + "." + withdrawn + (" " + note if note else "")


def _date(facts: VersionFacts) -> str:
    return facts.date[:10] if facts.date else "date unknown"


def _metadata_words(change: FieldChange) -> str:
    if change.field == "abstract":
        removed, added = textdiff.sentence_changes(change.before or "", change.after or "")
        return f"abstract changed ({len(added)} sentence(s) added, {len(removed)} removed)"
    if change.field in ("title", "authors", "categories"):
        return f"{change.field} changed ({short(change.diff, 120)})" if change.diff else f"{change.field} changed"
    return f"{change.field.replace('_', ' ')} changed"


def _section_words(sections: list[SectionChange]) -> list[str]:
    words = []
    for status in ("added", "removed", "changed", "moved"):
        chosen = [s for s in sections if s.status == status]
        if not chosen:
            continue
        names = ", ".join(_section_name(s, status) for s in chosen[:6]) + (" …" if len(chosen) > 6 else "")
        words.append(f"{len(chosen)} section(s) {status}: {names}")
    return words


def _section_name(section: SectionChange, status: str) -> str:
    number = section.number_before if status == "removed" else section.number_after
    title = section.title_before if status == "removed" else section.title_after
    name = f"{number} {title}" if number else str(title)
    if status == "moved":
        name = f"{title} ({section.number_before} -> {section.number_after})"
    if section.numbers:
        name += f" [{'; '.join(section.numbers[:3])}]"
    return name


def _item_words(items: list[ItemChange]) -> list[str]:
    words = []
    for kind in ("figure", "table", "equation", "reference"):
        for status in ("added", "removed", "changed"):
            chosen = [i for i in items if i.kind == kind and i.status == status]
            if chosen:
                labels = ", ".join(i.label for i in chosen[:5]) + (" …" if len(chosen) > 5 else "")
                words.append(f"{len(chosen)} {kind}(s) {status} ({labels})")
    return words
