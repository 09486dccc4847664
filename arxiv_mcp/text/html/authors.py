"""The author block of a LaTeXML page, written compactly under the title.

LaTeXML writes authors in a few shapes: one `ltx_creator` per author with its affiliation
and e-mail as `ltx_contact` elements (REVTeX, acmart, ar5iv's older markup, repeated per
author); one creator whose name element holds everything after line breaks ("Name^1,
Name^2 <br> ^1 Dept A <br> ^2 Dept B", or "Name <br> Dept <br> e-mail"); `\\thanks` and
footnotes as notes inside names or contacts; and `institutetext`/`affiliationtext` notes,
often outside the block, listing the affiliations by mark. Whatever the shape:

- the names on one line, each followed only by its affiliation marks (`Name$^{1,2}$`);
  when the page gives affiliations per author without marks, each distinct affiliation is
  numbered once and the names carry the numbers (a creator without an affiliation shares
  the next one's, as LaTeXML hangs a group's shared affiliation on its last author);
- the affiliations once each (`$^{1}$Dept A; $^{2}$Dept B`), then the e-mails and other
  contacts once each, then the notes once each as `[^mark: text]`.
Labels LaTeXML adds ("Affiliation:", "thanks:") and footnote marks pointing back to a
note already written are dropped.
"""

from __future__ import annotations

import re

from .flow import Flow
from .parts import (
    AFFILIATION,
    AUTHOR_MARK,
    AUTHOR_NOTE,
    AUTHOR_NOTES,
    AUTHORS,
    BLOCK_TAGS,
    CONTACT,
    CREATOR,
    NAME,
    NAME_LINES,
    Frame,
    Sink,
    clean_alttext,
    collapse,
)

Attributes = dict[str, str | None]

_LINE_BREAK = "\x00"  # between the lines of a name element; never kept in text
_AFFILIATION_ROLES = frozenset(
    (
        "ltx_role_affiliation",
        "ltx_role_address",
        "ltx_role_institution",
        "ltx_role_institutetext",
        "ltx_role_affiliationtext",
    )
)
_NOTE_AFFILIATION_ROLES = frozenset(("ltx_role_institutetext", "ltx_role_affiliationtext"))
_CONTACT_ROLES = frozenset(("ltx_role_email", "ltx_role_url", "ltx_role_homepage", "ltx_role_orcid", "ltx_role_phone"))
_DROPPED_PARTS = frozenset(
    ("ltx_contact_name", "ltx_note_name", "ltx_author_before", "ltx_author_after", "ltx_role_footnotemark")
)
_NOTE_MARK_CLASSES = frozenset(("ltx_note_mark", "ltx_tag_note"))
_MARK_SINKS = frozenset((NAME, NAME_LINES, AFFILIATION))
_SUPERSCRIPT_ONLY = re.compile(r"(?:\{\})?\^\{?([^{}^_$]{1,20}?)\}?")  # alttext "{}^{1,2}" is a mark
_SPACE_BEFORE_MARK = re.compile(r"\s+(\$\^\{)")
_SPACE_AFTER_MARK = re.compile(r"((?:^|[,;]\s?)\$\^\{[^{}]*\}\$)\s+")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([,;])")
_REPEATED_COMMAS = re.compile(r",(?:\s*,)+")
_AT_MARK = re.compile(r"[,;]?\s*(?=\$\^\{[^{}]*\}\$)")  # where a marked affiliation list splits


def _tidy(text: str) -> str:
    """Marks against their word, no space before a comma, no doubled or dangling commas."""
    text = _SPACE_AFTER_MARK.sub(r"\1", _SPACE_BEFORE_MARK.sub(r"\1", text))
    return _REPEATED_COMMAS.sub(",", _SPACE_BEFORE_PUNCT.sub(r"\1", text)).strip(" ,;")


def _key(text: str) -> str:
    return " ".join(text.lower().split()).strip(" .,;")


def _is_contact(text: str) -> bool:
    return "@" in text and len(text.split()) <= 4


def _append_mark(sink: Sink, mark: str) -> None:
    """A superscript mark as `$^{mark}$`; marks written one after another (`<sup>1</sup>
    <sup>,</sup><sup>2</sup>`) become one `$^{1,2}$`, never `$^{1}$$^{2}$`."""
    mark = mark.replace(" ", "").strip(",")
    if not mark:
        return
    parts = sink.parts
    last = len(parts) - 1
    while last >= 0 and not parts[last].strip():
        last -= 1
    if last >= 0 and parts[last].endswith("}$") and parts[last].startswith("$^{"):
        parts[last] = parts[last][:-2] + "," + mark + "}$"
        del parts[last + 1 :]
    else:
        parts.append(f"$^{{{mark}}}$")


class _Unique:
    """Texts in first-seen order, each once (case, spacing and end punctuation ignored).

    A set beside the list, so a collaboration's thousands of authors stay linear."""

    __slots__ = ("items", "_keys")

    def __init__(self) -> None:
        self.items: list[str] = []
        self._keys: set[str] = set()

    def add(self, text: str) -> bool:
        key = _key(text)
        if key in self._keys:
            return False
        self._keys.add(key)
        self.items.append(text)
        return True


class _Creator:
    __slots__ = ("name", "affiliations")

    def __init__(self) -> None:
        self.name = ""
        self.affiliations = _Unique()


class AuthorBlock:
    """Reads the author block and front-matter notes; `render` writes them as paragraphs."""

    def __init__(self, flow: Flow) -> None:
        self._flow = flow
        self._creators: list[_Creator] = []
        self._current: _Creator | None = None  # the creator being read
        self._loose = _Unique()  # affiliations not inside any creator
        self._contacts = _Unique()
        self._note_texts = _Unique()
        self._notes: list[tuple[str, str]] = []  # (mark, text), each text once

    # --- starts ---------------------------------------------------------------------------

    def start_block(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        if sink is not self._flow.flow:
            return False
        self._flow.push_sink(tag, AUTHORS)
        return True

    def start(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> None:
        """Any element inside the author block."""
        flow = self._flow
        if tag == "math":
            self._math(attributes, sink)
            flow.start_skip(tag)
        elif "ltx_note" in classes:
            self.start_note(tag, classes, sink)
        elif not classes.isdisjoint(_DROPPED_PARTS):
            flow.start_skip(tag)
        elif sink.kind in (AUTHOR_NOTE, AFFILIATION) and not classes.isdisjoint(_NOTE_MARK_CLASSES):
            flow.push_sink(tag, AUTHOR_MARK).label = "note"
        elif "ltx_creator" in classes:
            self._current = _Creator()
            self._creators.append(self._current)
            flow.push(Frame(tag, CREATOR))
        elif "ltx_personname" in classes and sink.kind == AUTHORS:
            flow.push_sink(tag, NAME)
        elif "ltx_author_notes" in classes and sink.kind in (AUTHORS, NAME, NAME_LINES):
            flow.push_sink(tag, AUTHOR_NOTES)
        elif "ltx_contact" in classes:
            flow.push_sink(tag, self._contact_kind(classes))
        elif (tag == "sup" or "ltx_sup" in classes) and sink.kind in _MARK_SINKS:
            flow.push_sink(tag, AUTHOR_MARK)
        elif tag in BLOCK_TAGS and sink.kind in (NAME, NAME_LINES, AFFILIATION):
            self.line_break(sink)
            flow.plain(tag)
        elif sink.kind == AFFILIATION and any(name.startswith("ltx_affiliation_") for name in classes):
            sink.parts.append(", ")  # acmart's institution, city, country parts
            flow.plain(tag)
        else:
            flow.plain(tag)

    def start_note(self, tag: str, classes: frozenset[str], sink: Sink) -> None:
        """A note in the author block or title, or a front-matter note anywhere."""
        if "ltx_role_footnotemark" in classes:
            self._flow.start_skip(tag)  # a mark pointing back to a note already written
        elif not classes.isdisjoint(_NOTE_AFFILIATION_ROLES):
            self._flow.push_sink(tag, AFFILIATION)
        else:
            self._flow.push_sink(tag, AUTHOR_NOTE)

    @staticmethod
    def _contact_kind(classes: frozenset[str]) -> str:
        if not classes.isdisjoint(_AFFILIATION_ROLES):
            return AFFILIATION
        if not classes.isdisjoint(_CONTACT_ROLES):
            return CONTACT
        return AUTHOR_NOTE  # thanks, and whatever else an author attached

    def _math(self, attributes: Attributes, sink: Sink) -> None:
        latex = clean_alttext(attributes.get("alttext") or "")
        if not latex or sink.kind == AUTHORS:
            return
        mark = _SUPERSCRIPT_ONLY.fullmatch(latex)
        if mark and sink.kind in _MARK_SINKS:
            _append_mark(sink, mark.group(1))
        else:
            sink.parts.append(f" ${latex}$ ")

    def line_break(self, sink: Sink) -> None:
        """A `<br>` or block edge: a name ends, a name's next line begins; elsewhere a separator."""
        if sink.kind == NAME:
            sink.label = "".join(sink.parts)  # the name; affiliation lines follow
            sink.parts = []
            sink.kind = NAME_LINES
        elif sink.kind in (NAME_LINES, AFFILIATION):
            sink.parts.append(_LINE_BREAK)
        elif sink.kind != AUTHORS:
            sink.parts.append(" ")

    # --- ends -----------------------------------------------------------------------------

    def close_creator(self, frame: Frame) -> None:
        self._current = None

    def close_block(self, frame: Frame, sink: Sink) -> None:
        self._current = None  # a front-matter note after the block belongs to no author

    def close_name(self, frame: Frame, sink: Sink) -> None:
        if sink.kind == NAME:
            name, lines = sink.text(), []
        else:
            name, lines = collapse(sink.label), [collapse(line) for line in "".join(sink.parts).split(_LINE_BREAK)]
        creator = self._current
        if creator is None or creator.name:  # a name element outside a creator, or a second one in it
            creator = self._current = _Creator()
            self._creators.append(creator)
        creator.name = _tidy(name)
        self._add_lines(creator, lines)

    def close_affiliation(self, frame: Frame, sink: Sink) -> None:
        self._add_lines(self._current, [collapse(line) for line in "".join(sink.parts).split(_LINE_BREAK)])

    def _add_lines(self, creator: _Creator | None, lines: list[str]) -> None:
        """Affiliation lines: an e-mail line is a contact; unmarked lines in a row are one
        affiliation ("Dept <br> University"); a marked line starts the next."""
        groups: list[list[str]] = []
        for line in filter(None, map(_tidy, lines)):
            if _is_contact(line):
                self._contacts.add(line)
            elif not groups or line.startswith("$^{"):
                groups.append([line])
            else:
                groups[-1].append(line)
        for group in groups:
            self._add_affiliation(creator, ", ".join(group))

    def close_contact(self, frame: Frame, sink: Sink) -> None:
        text = _tidy(sink.text())
        if text:
            self._contacts.add(text)

    def close_note(self, frame: Frame, sink: Sink) -> None:
        text = _tidy(sink.text())
        if text and self._note_texts.add(text):
            self._notes.append((sink.label, text))

    def close_author_notes(self, frame: Frame, sink: Sink) -> None:
        """Text written straight into ltx_author_notes: an e-mail, or a note."""
        text = _tidy(sink.text())
        if not text:
            return
        if _is_contact(text):
            self._contacts.add(text)
        elif self._note_texts.add(text):
            self._notes.append(("", text))

    def close_mark(self, frame: Frame, sink: Sink) -> None:
        text = sink.text().replace(" ", "")
        parent = self._flow.sinks[-1]
        if sink.label:  # a note's own mark: its label, never its text
            if not parent.label:
                parent.label = text
        else:
            _append_mark(parent, text)

    def _add_affiliation(self, creator: _Creator | None, text: str) -> None:
        pieces = [piece for piece in _AT_MARK.split(text) if piece] if text.startswith("$^{") else [text]
        for piece in map(_tidy, pieces):
            if piece:
                (creator.affiliations if creator is not None else self._loose).add(piece)

    # --- the result -----------------------------------------------------------------------

    def render(self) -> list[str]:
        """The paragraphs under the title: names, affiliations, contacts, notes (each if any)."""
        creators = [creator for creator in self._creators if creator.name or creator.affiliations.items]
        distinct = _Unique()
        for creator in creators:
            for text in creator.affiliations.items:
                distinct.add(text)
        names = [creator.name for creator in creators]
        affiliations = list(distinct.items)
        explicit = any("$^{" in text for text in (*names, *affiliations, *self._loose.items))
        if not explicit and len(affiliations) > 1:
            names = self._numbered(creators, affiliations)
            affiliations = [f"$^{{{n}}}${text}" for n, text in enumerate(affiliations, 1)]
        affiliations.extend(text for text in self._loose.items if distinct.add(text))
        paragraphs = [
            ", ".join(name for name in names if name),
            "; ".join(affiliations),
            ", ".join(self._contacts.items),
        ]
        paragraphs.append(" ".join(f"[^{mark or '*'}: {text}]" for mark, text in self._notes))
        return [paragraph for paragraph in paragraphs if paragraph]

    @staticmethod
    def _numbered(creators: list[_Creator], affiliations: list[str]) -> list[str]:
        numbers = {_key(text): str(n) for n, text in enumerate(affiliations, 1)}
        marks: list[str] = [""] * len(creators)
        waiting: list[int] = []  # creators without an affiliation, sharing the next one's
        for k, creator in enumerate(creators):
            waiting.append(k)
            if creator.affiliations.items:
                mark = ",".join(numbers[_key(text)] for text in creator.affiliations.items)
                for j in waiting:
                    marks[j] = mark
                waiting = []
        return [
            creator.name + (f"$^{{{mark}}}$" if mark else "") if creator.name else ""
            for creator, mark in zip(creators, marks, strict=True)
        ]
