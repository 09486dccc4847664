"""Two documents' figures, tables, numbered equations and references compared.

Figures, tables and equations are matched by printed number (a table's cells compared cell
by cell, or row by row when a PDF's rows are approximate), references by their text (a
bibliography renumbers when an entry is added; an entry whose text changed a little, or that
keeps its printed name such as `Ya79`, is "changed"). When the two texts come from different
sources and one marks none of a kind, that kind is not compared: its items would all read as
added or removed.
"""

from __future__ import annotations

from ..models import ItemChange
from ..text.document import Equation, Figure, Kind, Reference, Table
from . import textdiff
from .skeleton import Skeleton
from .textdiff import flat, short


def item_changes(before: Skeleton, after: Skeleton, same_source: bool) -> tuple[list[ItemChange], list[str]]:
    """The items that changed, and the kinds left out because one source marks none of them."""
    changes: list[ItemChange] = []
    unmarked: list[str] = []
    for kind, compare_kind in (
        (Kind.FIGURE, _numbered),
        (Kind.TABLE, _numbered),
        (Kind.EQUATION, _numbered),
        (Kind.REFERENCE, _references),
    ):
        stored_before, stored_after = before.stored(kind), after.stored(kind)
        if not same_source and bool(stored_before) != bool(stored_after):
            unmarked.append(kind.value)
        elif stored_before != stored_after:  # equal lists: the same records, nothing changed
            changes += compare_kind(kind.value, before.records(kind), after.records(kind))
    return changes, unmarked


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
    if old == new:  # the same record: nothing to look into (most items of a revision)
        return []
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
    if [r.text for r in old] == [r.text for r in new]:
        return []
    before = {flat(r.text).casefold(): r for r in old}
    after = {flat(r.text).casefold(): r for r in new}
    gone = [r for key, r in before.items() if key not in after]
    came = [r for key, r in after.items() if key not in before]
    changes: list[ItemChange] = []
    for entry in came:
        twin = max(gone, key=lambda r: textdiff.similarity(r.text, entry.text), default=None)
        named = next((r for r in gone if _named_alike(r, entry)), None)
        twin = twin if twin is not None and textdiff.similarity(twin.text, entry.text) >= 0.8 else named
        if twin is not None:
            gone.remove(twin)
            diff = textdiff.word_diff(twin.text, entry.text)
            changes.append(ItemChange(kind, "changed", f"[{entry.label}]", short(twin.text), short(entry.text), [diff]))
        else:
            changes.append(ItemChange(kind, "added", f"[{entry.label}]", after=short(entry.text)))
    changes += [ItemChange(kind, "removed", f"[{r.label}]", before=short(r.text)) for r in gone]
    return changes


def _named_alike(old: Reference, new: Reference) -> bool:
    """Two entries with the same printed name (`Ya79`, `Smith et al., 2020`) are one entry
    whose text reads differently (another source, a corrected page range); a number is not a
    name, as a bibliography renumbers when an entry is added."""
    return not old.label.isdigit() and flat(old.label).casefold() == flat(new.label).casefold()
