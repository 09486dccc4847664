"""Two documents' sections matched and compared (research/versions.py puts them in its answer).

A section is a heading with its own running text: paragraphs and lists up to the next heading
(figures, tables, equations and references are compared as items; page markers are not the
paper's). Sections are matched by printed number and title, then title alone (a renumbered
section is "moved"), then number with similar text (retitled), then similar text; the rest
are added or removed, each removed one listed where it stood. Equal texts give "unchanged".
"""

from __future__ import annotations

from operator import attrgetter

from ..models import SectionChange
from . import textdiff
from .skeleton import Section, Skeleton
from .textdiff import short

_MATCH_BY_NUMBER = 0.5
_MATCH_BY_TEXT = 0.6
_EXACT = (attrgetter("number", "key"), attrgetter("key"))
"""The exact passes' keys: printed number and title, then title alone."""


def section_changes(before: Skeleton, after: Skeleton) -> list[SectionChange]:
    old = before.sections(after.equations and not before.equations)
    new = after.sections(before.equations and not after.equations)
    pairs = _match_sections(old, new)
    paired_old = set(pairs.values())
    changes: list[SectionChange] = []
    placed = 0  # every removed section before this index is placed
    for j, section in enumerate(new):
        if j in pairs:
            matched = pairs[j]
            if matched > placed:  # removed sections before this one's match stand where they stood
                changes += [_removed(old[i]) for i in range(placed, matched) if i not in paired_old]
            placed = max(placed, matched + 1)
            changes.append(_section_change(old[matched], section))
        else:
            changes.append(SectionChange("added", None, section.number, None, section.title, added=_first(section)))
    changes += [_removed(old[i]) for i in range(placed, len(old)) if i not in paired_old]
    return changes


def _first(section: Section) -> list[str]:
    return [short(s) for s in textdiff.sentences(section.body)[:2]]


def _removed(section: Section) -> SectionChange:
    return SectionChange("removed", section.number, None, section.title, None, removed=_first(section))


def _match_sections(old: list[Section], new: list[Section]) -> dict[int, int]:
    """new index -> old index, in four passes (see the module's docstring)."""
    pairs: dict[int, int] = {}
    used: set[int] = set()
    for same in _EXACT:  # looked up, not scanned
        if _all_paired(pairs, used, old, new):
            return pairs
        waiting: dict[object, list[int]] = {}
        for i, key in enumerate(map(same, old)):
            if i not in used:
                waiting.setdefault(key, []).append(i)
        for j, key in enumerate(map(same, new)):
            free = waiting.get(key)
            if free and j not in pairs:
                pairs[j] = free.pop(0)
                used.add(pairs[j])
    if _all_paired(pairs, used, old, new):
        return pairs
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


def _all_paired(pairs: dict[int, int], used: set[int], old: list[Section], new: list[Section]) -> bool:
    """No pass can pair more (most revisions, after the first pass): every section of one
    side is paired."""
    return len(pairs) == len(new) or len(used) == len(old)


def _section_change(old: Section, new: Section) -> SectionChange:
    moved = old.number != new.number and old.number is not None and new.number is not None
    same_text = old.raw == new.raw or textdiff.same_words(old.body, new.body)
    if same_text and old.key == new.key and not moved:
        return SectionChange("unchanged", old.number, new.number, old.title, new.title, 1.0)
    removed: list[str]
    added: list[str]
    if same_text:
        removed, added, similarity = [], [], textdiff.similarity(old.body, new.body)
    else:
        removed, added, similarity = textdiff.sentence_diff(old.body, new.body)
    return SectionChange(
        "moved" if moved else "changed",
        old.number,
        new.number,
        old.title,
        new.title,
        similarity,
        [short(s) for s in removed[: textdiff.MAX_SENTENCES]],
        [short(s) for s in added[: textdiff.MAX_SENTENCES]],
        textdiff.number_changes(removed, added),
    )
