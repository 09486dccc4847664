"""Numbered things papers print that the document does not type yet: theorem-like blocks,
algorithms, listings, footnotes; and pages, which `section` does not read.

A selector naming one (`"Theorem 2.3"`, `"Lemma 4.1"`, `"Def. 2"`, `"Algorithm 1"`,
`"footnote 2"`) is never read as a heading name (a subsection "Proof of Theorem 2.3" is not
Theorem 2.3): it gets one line naming the kind understood, saying the paper's structure does
not carry that kind, listing the numbers of that kind the text prints, and the `find_in_paper`
query that finds it. When a later document model types these blocks, their views replace this.
"""

from __future__ import annotations

import re

from ..errors import InvalidInput

_KINDS: dict[str, tuple[str, ...]] = {
    "Theorem": ("theorems?", "thms?"),
    "Lemma": ("lemmas?", "lemmata", "lem"),
    "Proposition": ("propositions?", "props?"),
    "Corollary": ("corollar(?:y|ies)", "cor"),
    "Definition": ("definitions?", "defs?", "defn"),
    "Remark": ("remarks?", "rem"),
    "Example": ("examples?", "ex"),
    "Claim": ("claims?",),
    "Conjecture": ("conjectures?", "conj"),
    "Assumption": ("assumptions?",),
    "Hypothesis": ("hypothes[ie]s",),
    "Problem": ("problems?",),
    "Exercise": ("exercises?",),
    "Proof": ("proofs?",),
    "Algorithm": ("algorithms?", "algs?", "algo"),
    "Listing": ("listings?",),
    "Footnote": ("footnotes?", "fn"),
}
_NUMBER = r"(?P<n>[A-Z]?\d+(?:[.\-]\d+)*[a-z]?|[IVXLC]+|[A-Z])"
_PATTERNS = {
    kind: re.compile(rf"(?:{'|'.join(words)})(?:\.\s*|\s+|(?=\d)){_NUMBER}\s*(?:\([^()]*\))?", re.IGNORECASE)
    for kind, words in _KINDS.items()
}
_PLURALS = {kind: re.compile(rf"(?:{words[0]})", re.IGNORECASE) for kind, words in _KINDS.items()}
_PAGE_RE = re.compile(r"(?:pages?|pp?\.)\s*(?P<n>\d{1,6})(?:\s*[-–]\s*\d{1,6})?", re.IGNORECASE)
_LISTED = 30


def kind_of(selector: str) -> str | None:
    """The kind a selector names (`Theorem` for `"Thm. 2.3"`, `Page` for `"p. 3"`), or None."""
    if _PAGE_RE.fullmatch(selector):
        return "Page"
    return next((kind for kind, pattern in _PATTERNS.items() if pattern.fullmatch(selector)), None)


def refuse(text: str, selector: str) -> None:
    """Raise the one line for a numbered kind the document does not type (see the module)."""
    page = _PAGE_RE.fullmatch(selector)
    if page:
        raise InvalidInput(
            f"section does not take a page: to read page {page.group('n')}, call read_paper with "
            f'page={page.group("n")} and no section (section="outline" lists the sections).'
        )
    for kind, pattern in _PATTERNS.items():
        match = pattern.fullmatch(selector)
        if match:
            message = _footnote_message if kind == "Footnote" else _message
            raise InvalidInput(message(text, kind, match.group("n"), selector))


def plural_kind(selector: str) -> str | None:
    """`"theorems"`, `"lemmas"`: the kind a list name asks for, None for any other selector."""
    return next((kind for kind, pattern in _PLURALS.items() if pattern.fullmatch(selector)), None)


def refuse_list(text: str, kind: str) -> InvalidInput:
    """The error for a list of a kind the document does not type (`"lemmas"`)."""
    if kind == "Footnote":
        named, query = f"The text holds {text.count('[^')} ([^N: text] or [^text]).", '\\"[^\\"'
    else:
        numbers = printed_numbers(text, kind)
        named = f"The text names {kind} {_listed(numbers)}." if numbers else f"The text names no numbered {kind}."
        query = kind
    return InvalidInput(
        f"this paper's structure does not carry {_plural(kind)} as items yet (it types sections, figures, "
        f'tables, equations and references). {named} find_in_paper(query="{query}") finds each.'
    )


def _plural(kind: str) -> str:
    return {"Corollary": "corollaries", "Hypothesis": "hypotheses"}.get(kind, kind.lower() + "s")


def _message(text: str, kind: str, number: str, selector: str) -> str:
    numbers = printed_numbers(text, kind)
    if numbers and number.casefold() not in {n.casefold() for n in numbers}:
        named = f"The text names no {kind} {number}; it names {kind} {_listed(numbers)}."
    elif numbers:
        named = f"The text names {kind} {_listed(numbers)}."
    else:
        named = f"The text names no numbered {kind}."
    return (
        f'"{selector}" reads as {kind} {number}, and this paper\'s structure does not carry '
        f"{_plural(kind)} as items yet (it types sections, figures, tables, equations and references). "
        f'{named} find_in_paper(query="\\"{kind} {number}\\"") finds where it is printed.'
    )


def _footnote_message(text: str, kind: str, number: str, selector: str) -> str:
    """Footnotes stay in the text where they are attached: `[^2: text]` from HTML, `[^text]`
    from LaTeX; a PDF's stand at its pages' feet. So the query is their mark, not a word."""
    marks = list(dict.fromkeys(re.findall(r"\[\^(\d+):", text)))
    if number in marks:
        where = f'find_in_paper(query="\\"[^{number}:\\"") finds it where it is attached.'
    elif marks:
        where = (
            f"The text marks footnotes {_listed(marks)}, not {number}: "
            'find_in_paper(query="\\"[^N:\\"") finds footnote N.'
        )
    elif "[^" in text:
        count = text.count("[^")
        plural = "s" if count != 1 else ""
        where = f'The text holds {count} unnumbered footnote{plural}: find_in_paper(query="\\"[^\\"") finds each.'
    else:
        where = (
            "The text marks none: find_in_paper with the footnote's words finds it (a PDF's stand at its pages' feet)."
        )
    return (
        f'"{selector}" reads as footnote {number}, and this paper\'s structure does not carry footnotes as '
        f"items yet; they stay in the text where they are attached, as [^N: text] (or [^text]). {where}"
    )


def printed_numbers(text: str, kind: str) -> list[str]:
    """The numbers the text prints after the kind's name (`Theorem 2.3`, `Theorem~4`), in order."""
    found = re.finditer(rf"\b{kind}\s*~?\s*(?P<n>[A-Z]?\d+(?:\.\d+)*[a-z]?)(?![\w.]\d)", text)
    return list(dict.fromkeys(m.group("n") for m in found))


def _listed(numbers: list[str]) -> str:
    shown = numbers[:_LISTED]
    words = ", ".join(shown[:-1]) + f" and {shown[-1]}" if len(shown) > 1 else shown[0]
    return words + (" …" if len(numbers) > _LISTED else "")
