"""Which bibliography entries a reader means, in every form papers print citations.

`entries(doc, selector)` reads: a numeric label or list (`[12]`, `[12, 14]`, `[12-14]`,
`[12], [14]`, `ref 12`), a label as printed (`[Smi21]`, `Smith et al., 2020`), a cite key, an arXiv id the
entry states (`arXiv:2401.12345`), and an author-year citation (`(Austin et al., 2021)`,
`Austin et al. (2021)`, `Austin and Smith, 2021`, `Austin & Smith 2021`, `Austin 2021a`). It
returns None for a selector that is none of these, the entries named (one per entry, in the
order named) otherwise, and raises InvalidInput naming what the paper has when a citation
form names no entry: an entry is never guessed (`Vaswani et al.` without its year names the
one entry of that first author and three authors or more, else is an error listing them).

An author-year citation names the entries whose first author has that surname and whose year
is that year (and suffix, when given): read from an author-year label when the paper prints
one (else, or when the label names another first author, as a PDF's labels made up from the
entry's words may, from the entry's author list), the year a whole four-digit token. Other
named authors must appear among the entry's authors. "et al." names only entries of three
authors or more; a form naming one or two authors prefers the entries with that many.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from ..errors import InvalidInput
from .document import Document, Reference
from .places import reference_label

_LISTED = 40
_MAX_RANGE = 200
_OUTLINE_RE = re.compile(r"\[s\d+\]")
_BRACKET_RE = re.compile(r"\[\s*(?P<inner>[^\]]+?)\s*\]")
_BRACKETS_RE = re.compile(r"(?:\[[^\[\]]+\]\s*[,;]?\s*){2,}")
_REF_WORD_RE = re.compile(
    r"(?:ref(?:erence)?s?\.?)(?:\s*\[\s*(?P<bracketed>[^\]]+?)\s*\]|\s*(?P<numbers>\d+(?:\s*[-–—,]\s*\d+)*)"
    r"|\s+(?P<label>[\w.:+/-]+))",
    re.IGNORECASE,
)
"""`ref 12`, `Refs. 3-5`, `Ref. [12]`, `reference smith2020`: a word and a label, never a name
(`Reference frames`, `Refinement` read as headings when no entry is labelled so)."""
_NUMERIC_RE = re.compile(r"\d+(?:\s*(?:,|[-–—])\s*\d+)*")
_ARXIV_RE = re.compile(
    r"(?:arxiv\s*:?\s*)?(?P<id>\d{4}\.\d{4,5}|[a-z]+(?:-[a-z]+)?(?:\.[a-z]{2})?/\d{7})(?:v\d+)?", re.IGNORECASE
)
_AUTHOR_YEAR_RE = re.compile(
    r"(?P<authors>[^\W\d_](?:[^\d()\[\]]|(?<=-)\d)*?)[\s,]*\(?\s*(?P<year>(?:1[6-9]|20)\d\d)(?P<suffix>[a-z])?\s*\)?"
)
_ET_AL_RE = re.compile(r"\bet\s*al\.?", re.IGNORECASE)
_NO_YEAR_RE = re.compile(
    r"\(?(?P<name>[^\W\d_][\w'’\-]*(?:\s+[^\W\d_][\w'’\-]*){0,2})\s+et\s*al\.?,?\)?", re.IGNORECASE
)
_AUTHOR_SPLIT_RE = re.compile(r"\s*(?:,|;|&|\band\b)\s*", re.IGNORECASE)
_FIRST_CHUNK_RE = re.compile(r"[,;&(]|\band\b|\s\d")
_AUTHORS_END_RE = re.compile(r"(?<=[^\W\d_]{3})\.\s|[\"“(:]|(?<!\d)(?:1[6-9]|20)\d\d(?!\d)")
"""Where an entry's author list ends: a sentence end after a word (not an initial), a quoted
or bracketed title or year, or the year itself."""
_INITIALS_RE = re.compile(r"(?:[^\W\d_]\.?(?:[\s\-]+|$))+")
_AND_RE = re.compile(r"&|\band\b", re.IGNORECASE)


@dataclass(frozen=True)
class AuthorYear:
    """A citation as printed: `Austin and Smith, 2021a` is (Austin, Smith), 2021, a."""

    surnames: tuple[str, ...]
    year: str
    suffix: str
    printed: str
    et_al: bool = False
    """Printed with "et al.": three authors or more."""


def entries(doc: Document, selector: str) -> list[Reference] | None:
    """The entries `selector` names, or None when it is no citation form (see the module)."""
    references = doc.records(Reference)
    by_key = [r for r in references if r.key == selector or (not r.label.isdigit() and _same_label(r, selector))]
    if by_key:
        return _one_or_namesakes(by_key, selector)
    inner, loose = _inner(selector)
    if inner is not None and (loose or _OUTLINE_RE.fullmatch(selector)):
        if not any(_same_label(r, inner) or r.key == inner for r in references):
            return None  # "[s5]" as the outline shows section:5, "Reference frames" a heading
    if inner is not None:
        return _by_labels(references, inner, selector)
    arxiv = _ARXIV_RE.fullmatch(selector)
    if arxiv:
        return _by_arxiv_id(references, arxiv.group("id"))
    cited = author_year(selector)
    if cited is None:
        return _without_year(references, selector)
    printed = _as_printed(doc, selector, cited)
    if printed:
        return [printed]
    found = by_author_year(references, cited)
    # `Audibert et al. 2009` is the label `Audibert et al., 2009` but for its punctuation.
    return [r for r in found if _bare(r.label) == _bare(selector)] or found


def _without_year(references: list[Reference], selector: str) -> list[Reference] | None:
    """`Vaswani et al.`: the one entry of three authors or more by that first author; with
    none or several, that kind's error listing the entries of that first author (never the
    heading error). None for a selector of no such form."""
    match = _NO_YEAR_RE.fullmatch(selector)
    if match is None:
        return None
    name = match.group("name")
    same = by_first_author(references, name)
    fitting = [r for r in same if (count := author_count(r)) is None or count >= 3]
    if len(fitting) == 1:
        return fitting
    if not same:
        raise InvalidInput(_no_entry(references, f'reference with first author "{name}"'))
    shown = "; ".join(f"{reference_label(r)} {_short(r.text)}" for r in same[:10])
    raise InvalidInput(
        f'"{selector}" reads as a citation without its year, and {len(fitting)} entries fit it: name one '
        f'with its year ("{name} et al. 2020") or as its label prints it. Entries with first author {name}: {shown}.'
    )


def _as_printed(doc: Document, selector: str, cited: AuthorYear) -> Reference | None:
    """The entry a citation printed as `selector` names, when one names a single entry (of
    entries sharing its target's label, as a PDF's made-up `Li 2021` may, the one whose authors
    fit `cited`, if only one does)."""
    wanted = _fold(selector.strip("()[] "))
    for citation in doc.citations:
        if len(citation.targets) == 1 and _fold(doc.text[citation.start : citation.end].strip("()[] ")) == wanted:
            (target,) = citation.targets
            named = [r for r in doc.records(Reference) if target in (r.key, r.label)]
            if len(named) > 1:
                named = [r for r in named if _cites(r, cited) and _fits(author_count(r), cited)]
            return named[0] if len(named) == 1 else None
    return None


def author_year(selector: str) -> AuthorYear | None:
    """`(Austin et al., 2021)` and its kin read as surnames, year and suffix; None otherwise."""
    match = _AUTHOR_YEAR_RE.fullmatch(selector.strip().strip("()").strip())
    if not match:
        return None
    names = _ET_AL_RE.sub(" ", match.group("authors"))
    surnames = tuple(s for s in (" ".join(p.split()) for p in _AUTHOR_SPLIT_RE.split(names)) if s)
    if not surnames or any(len(s.split()) > 4 or not s[0].isalpha() for s in surnames):
        return None
    et_al = _ET_AL_RE.search(match.group("authors")) is not None
    return AuthorYear(surnames, match.group("year"), match.group("suffix") or "", selector, et_al)


def _inner(selector: str) -> tuple[str | None, bool]:
    """What a bracketed label or a `ref 12` holds (None for neither), and whether it is a bare
    word after `ref`, which may as well be a heading's name."""
    bracket = _BRACKET_RE.fullmatch(selector)
    if bracket:
        return bracket.group("inner"), False
    if _BRACKETS_RE.fullmatch(selector):  # `[12], [14]`, `[3][5]`: one list
        return ", ".join(m.group("inner") for m in _BRACKET_RE.finditer(selector)), False
    word = _REF_WORD_RE.fullmatch(selector)
    if word:
        return word.group("bracketed") or word.group("numbers") or word.group("label"), bool(word.group("label"))
    return None, False


def _one_or_namesakes(matched: list[Reference], selector: str) -> list[Reference]:
    """The entry a key names, else every entry printed under that label: a PDF's author-year
    bibliography labels `Audibert and Bubeck, 2009` and `Audibert et al., 2009` both
    `Audibert 2009`, and the first alone would be a silent half answer."""
    keyed = [r for r in matched if r.key == selector]
    return keyed[:1] or matched


def _same_label(reference: Reference, label: str) -> bool:
    return _fold(reference.label.strip("[] ")) == _fold(label.strip())


def _by_labels(references: list[Reference], inner: str, selector: str) -> list[Reference]:
    whole = [r for r in references if _same_label(r, inner) or r.key == inner]
    if whole:
        return _one_or_namesakes(whole, inner)
    labels = list(_numeric_labels(inner)) if _NUMERIC_RE.fullmatch(inner) else [p.strip() for p in inner.split(",")]
    found = [next((r for r in references if _same_label(r, label) or r.key == label), None) for label in labels]
    if len(labels) > 1 and all(found):
        return [r for r in found if r is not None]
    cited = author_year(inner)
    if cited is not None:
        return by_author_year(references, cited)
    missing = [label for label, reference in zip(labels, found) if reference is None] or [inner]
    raise InvalidInput(_no_entry(references, f"reference {', '.join(f'[{m}]' for m in missing)}"))


def _numeric_labels(inner: str) -> Iterator[str]:
    """`12, 14-16` -> 12, 14, 15, 16 (a range of at most 200: no paper cites more at once)."""
    for part in inner.split(","):
        ends = re.split(r"\s*[-–—]\s*", part.strip())
        first, last = int(ends[0]), int(ends[-1])
        if len(ends) == 2 and first < last <= first + _MAX_RANGE:
            yield from (str(n) for n in range(first, last + 1))
        else:
            yield from (str(int(end)) for end in ends)


def _by_arxiv_id(references: list[Reference], arxiv_id: str) -> list[Reference]:
    """The entries stating `arxiv_id`, in any version (the selector's version is left out)."""
    found = [r for r in references if r.arxiv_id and _unversioned(r.arxiv_id) == arxiv_id.casefold()]
    if found:
        return found
    stated = [f"{reference_label(r)} arXiv:{r.arxiv_id}" for r in references if r.arxiv_id]
    if not references:
        raise InvalidInput(_none_marked())
    have = f"Entries stating an arXiv id: {', '.join(stated[:_LISTED])}." if stated else "No entry states one."
    raise InvalidInput(f"no entry of this paper's bibliography states arXiv id {arxiv_id}. {have}")


def _unversioned(arxiv_id: str) -> str:
    return re.sub(r"v\d+$", "", arxiv_id.casefold())


def by_author_year(references: list[Reference], cited: AuthorYear) -> list[Reference]:
    """The entries `cited` names: of those by its first author and year, the ones whose number
    of authors fits it ("et al." is three or more: never an entry of one or two; else as many as
    it names, or, when none has that many, any whose authors include the ones it names)."""
    found = [r for r in references if _cites(r, cited)]
    fitting = [r for r in found if _fits(author_count(r), cited)]
    found = fitting if cited.et_al else fitting or found
    if found:
        return found
    if not references:
        raise InvalidInput(_none_marked())
    same_author = by_first_author(references, cited.surnames[0])
    if same_author:
        shown = "; ".join(f"{reference_label(r)} {_short(r.text)}" for r in same_author[:10])
        raise InvalidInput(
            f'this paper has no reference "{cited.printed}" ({cited.surnames[0]}, {cited.year}{cited.suffix}). '
            f"Its entries with first author {cited.surnames[0]}: {shown}."
        )
    raise InvalidInput(_no_entry(references, f'reference "{cited.printed}"'))


def by_first_author(references: list[Reference], surname: str) -> list[Reference]:
    """The entries whose first author has that surname."""
    first = _fold(surname)
    return [r for r in references if _has_word(_fold(_first_chunk(_authors_text(r))), first)]


def _cites(reference: Reference, cited: AuthorYear) -> bool:
    """The entry's first author and year are the citation's (read from an author-year label
    when the paper prints one, else, or when the label names another first author, from the
    entry: a PDF's labels are made up from the entry's words; a label of the same author and
    another year is believed over a year the entry's text mentions), and its other authors are
    among the entry's."""
    head = _authors_text(reference)
    year = _first_author_and_year(head, cited, head is reference.text)
    if (
        year is None
        and head is not reference.text
        and not _has_word(_fold(_first_chunk(head)), _fold(cited.surnames[0]))
    ):
        year = _first_author_and_year(reference.text, cited, True)
    if year is None:
        return False
    entry = reference.text
    in_entry = re.search(rf"(?<!\d){cited.year}(?!\d)", entry)
    authors = _fold(entry[: in_entry.start()] if in_entry else entry[:300]) + " " + _fold(year.string[: year.start()])
    return all(_has_word(authors, _fold(other)) for other in cited.surnames[1:])


def _first_author_and_year(head: str, cited: AuthorYear, entry: bool) -> re.Match[str] | None:
    """Where `head` prints the citation's year, when its first name chunk before it (in an
    `entry`, before its author list ends: a title's words are no author) is the citation's
    first author."""
    year = re.search(rf"(?<!\d){cited.year}(?P<suffix>[a-z]?)(?![\da-z])", head, re.IGNORECASE)
    if year is None or (cited.suffix and year.group("suffix").casefold() != cited.suffix):
        return None
    names = head[: year.start()]
    end = _AUTHORS_END_RE.search(names) if entry else None
    names = names[: end.start()] if end else names
    return year if _has_word(_fold(_first_chunk(names)), _fold(cited.surnames[0])) else None


def _fits(count: int | None, cited: AuthorYear) -> bool:
    if count is None:
        return True
    return count >= 3 if cited.et_al else count == len(cited.surnames)


def author_count(reference: Reference) -> int | None:
    """How many authors the entry has (3 standing for "three or more" where it prints "et al."),
    read from an author-year label that says "et al." or "and", else from the entry's author
    list (its initials not counted); None when the entry shows no author list."""
    label = reference.label
    year = re.search(r"(?:1[6-9]|20)\d\d", label)
    if year and not label.strip("[] ").isdigit():
        head = label[: year.start()]
        if _ET_AL_RE.search(head) or _AND_RE.search(head):  # a bare name may be a label made up
            return 3 if _ET_AL_RE.search(head) else 2  # from the first author (a PDF's)
    end = _AUTHORS_END_RE.search(reference.text)
    head = reference.text[: end.start()] if end else reference.text[:200]
    if _ET_AL_RE.search(head):
        return 3
    and_at = _AND_RE.search(head)
    if and_at:  # the list ends with the name after its "and" (a journal may follow a comma)
        after = [c for c in re.split(r"\s*[,;]\s*", head[and_at.end() :]) if c.strip()]
        head = head[: and_at.start()] + " and " + (after[0] if after else "")
    names = [c.strip(" .") for c in _AUTHOR_SPLIT_RE.split(head)]
    count = sum(1 for name in names if name and not _INITIALS_RE.fullmatch(name + "."))
    return count or None


def _authors_text(reference: Reference) -> str:
    """Where the first author and the year are: an author-year label, else the entry itself."""
    label = reference.label
    if re.search(r"(?:1[6-9]|20)\d\d", label) and not label.strip("[] ").isdigit():
        return label
    return reference.text


def _first_chunk(names: str) -> str:
    match = _FIRST_CHUNK_RE.search(names)
    return names[: match.start()] if match else names


def _has_word(text: str, word: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text) is not None


def _fold(text: str) -> str:
    """Case, accents and spacing folded: `Gödel` is `godel`."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


def _bare(text: str) -> str:
    """Folded, and only its words: `Smith et al. (2020)` is `smith et al 2020`."""
    return " ".join(re.findall(r"\w+", _fold(text)))


def _short(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= 90 else flat[:89].rstrip() + "…"


def _none_marked() -> str:
    return (
        "this paper's text marks no references (the source it was read from may not mark them): "
        'use find_in_paper to look for them, or section="outline" for its sections.'
    )


def _no_entry(references: list[Reference], what: str) -> str:
    if not references:
        return _none_marked()
    labels = [reference_label(r) for r in references]
    shown = ", ".join(labels[:_LISTED]) + (" …" if len(labels) > _LISTED else "")
    return f'this paper has no {what}. Its references: {shown}. section="references" lists them.'
