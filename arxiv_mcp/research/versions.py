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
The one-paragraph summary is made last, from the changes found. What is compared of each
version is read by `skeleton.py`, sections are compared in `section_diff.py`, items in
`item_diff.py`, texts in `textdiff.py`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..models import FieldChange, ItemChange, SectionChange, VersionComparison, VersionFacts
from ..reading import Text
from ..text.document import Document
from ..upstream.atom import Paper
from . import skeleton, textdiff
from .item_diff import item_changes
from .section_diff import section_changes
from .textdiff import flat, short

_WITHDRAWN_RE = re.compile(r"\bwithdrawn?\b", re.IGNORECASE)
_NAMES = {"html": "arXiv's HTML", "ar5iv": "ar5iv's HTML", "source": "the LaTeX source", "pdf": "the PDF"}


@dataclass(frozen=True)
class Side:
    """One version as read: its number, metadata (None when unknown), document and source.
    `doc` may be a read's `Text`: its cached blocks are then read without building its
    document (skeleton.py)."""

    version: int
    paper: Paper | None
    doc: Document | Text
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
    old, new = skeleton.of_pair(before.doc, after.doc)
    sections = section_changes(old, new)
    items, unmarked = item_changes(old, new, before.method == after.method)
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
