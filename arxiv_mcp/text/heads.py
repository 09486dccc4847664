"""How papers head a theorem-like block, and how readers name one: the one vocabulary.

A head is what amsthm, LaTeXML and a PDF print at a paragraph's start: `Theorem 2.3.`,
`Lemma 4.1 (Name).`, `THEOREM 2.`, `Definition 3:`, `Proof.`, `Proof of Theorem 2.3.`. A
reader names the same blocks as `Theorem 2.3`, `Thm. 2.3`, `Def. 2.1`, `Prop 1`, `lemmas`.
Both are read here against one table of words (`WORDS`: the printed word or abbreviation to
its kind, the `Statement.kind` of `document`), so what a paper prints and what a reader asks name
the same kind. Pure functions of strings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

WORDS: dict[str, str] = {
    "theorem": "theorem",
    "thm": "theorem",
    "main theorem": "theorem",
    "lemma": "lemma",
    "lem": "lemma",
    "proposition": "proposition",
    "prop": "proposition",
    "corollary": "corollary",
    "cor": "corollary",
    "definition": "definition",
    "def": "definition",
    "defn": "definition",
    "remark": "remark",
    "rem": "remark",
    "example": "example",
    "ex": "example",
    "claim": "claim",
    "conjecture": "conjecture",
    "conj": "conjecture",
    "assumption": "assumption",
    "hypothesis": "hypothesis",
    "problem": "problem",
    "exercise": "exercise",
    "proof": "proof",
    "proof sketch": "proof",
    "observation": "observation",
    "fact": "fact",
    "question": "question",
    "notation": "notation",
    "property": "property",
    "axiom": "axiom",
}
"""Printed words and the abbreviations readers write, case folded, to their kind."""

PLURALS: dict[str, str] = {
    "theorems": "theorem",
    "lemmas": "lemma",
    "lemmata": "lemma",
    "propositions": "proposition",
    "corollaries": "corollary",
    "definitions": "definition",
    "remarks": "remark",
    "examples": "example",
    "claims": "claim",
    "conjectures": "conjecture",
    "assumptions": "assumption",
    "hypotheses": "hypothesis",
    "problems": "problem",
    "exercises": "exercise",
    "proofs": "proof",
    "observations": "observation",
    "facts": "fact",
    "questions": "question",
    "properties": "property",
    "axioms": "axiom",
}

_ABBREVIATIONS = frozenset(("thm", "lem", "prop", "cor", "def", "defn", "rem", "ex", "conj"))
_PRINTED_WORDS = "|".join(sorted((w for w in WORDS if w not in _ABBREVIATIONS), key=len, reverse=True))
NUMBER = r"[A-Z]?\d+(?:\.\d+)*[a-z]?|[A-Z](?:\.\d+)*|[IVX]+"
_HEAD_RE = re.compile(
    rf"(?P<label>(?i:{_PRINTED_WORDS}))(?![\w-])"
    rf"(?:[ \t]+(?P<number>{NUMBER}))?"
    r"(?:[ \t]+of[ \t]+(?P<of>(?i:[a-z]+\.?)[ \t]*~?(?:[A-Z]?\d+(?:\.\d+)*[a-z]?|[A-Z]))(?=[ \t]*(?:[.:]|\n|$)))?"
    r"(?:[ \t]*\((?P<note>[^()\n]{1,160})\))?"
    r"(?:[ \t]*(?P<stop>[.:])(?=\s|$)|(?<=[\dA-Z])[ \t]*(?=\n|$))"
)
READER: dict[str, str] = WORDS | PLURALS | {"thms": "theorem", "props": "proposition", "defs": "definition"}
"""What a reader writes before a number: a printed word, an abbreviation, or a plural
(`Theorems 2`, as `footnotes 2` and `algorithms 1` read too)."""
_READER_WORDS = "|".join(sorted(READER, key=len, reverse=True))
_ASKED_RE = re.compile(
    rf"(?P<word>{_READER_WORDS})(?:\.\s*|\s+|(?=\d))(?P<number>{NUMBER})\s*(?:\([^()]*\))?[.:]?",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Head:
    kind: str
    label: str
    """As printed, its case kept (`Theorem`, `THEOREM`, `Main Theorem`)."""
    number: str | None
    note: str | None
    of: str | None
    """For a proof: what it says it proves (`Theorem 2.3`)."""
    end: int
    """Where the head ends in the text it was read from."""


def head_at(text: str, start: int = 0, end: int | None = None) -> Head | None:
    """The head a paragraph at `text[start:end]` opens with, or None (`Head.end` is an offset of
    `text`; nothing is copied, so a pass over a long paragraph stays linear). A label in lower case is a
    sentence (`proof of concept.`), not a head; an unnumbered one other than a proof needs its
    stop right after the word (`Remark.`), and every head a stop (`.`, or `:` after a number
    or for a proof), so `Theorem 2 shows that` is a sentence."""
    match = _HEAD_RE.match(text, start, len(text) if end is None else end)
    if match is None or not match.group("label")[0].isupper():
        return None
    label = " ".join(match.group("label").split())
    kind = WORDS[label.casefold()]
    number, note, of = match.group("number"), match.group("note"), match.group("of")
    stop = match.group("stop")
    if stop is None and not (kind == "proof" and match.group("of")):
        return None  # only `Proof of Theorem 1.8` stands on its own line without a stop
    if stop == ":" and kind != "proof" and number is None:
        return None  # `Example:` and `Definition:` lead lists and sentences as often as blocks
    if of is not None:
        of = " ".join(of.replace("~", " ").split())
    return Head(kind, label, number, note.strip() if note else None, of, match.end())


def asked(selector: str) -> tuple[str, str] | None:
    """(kind, number) a reader's selector names (`Thm. 2.3` -> (`theorem`, `2.3`)), or None."""
    match = _ASKED_RE.fullmatch(selector.strip())
    if match is None:
        return None
    return READER[match.group("word").casefold()], match.group("number")


def printed_numbers(text: str, label: str) -> list[str]:
    """The numbers the text prints after `label` (`Theorem 2.3`, `Theorem~4`), in order."""
    found = re.finditer(rf"\b{label}\s*~?\s*(?P<n>[A-Z]?\d+(?:\.\d+)*[a-z]?)(?![\w.]\d)", text)
    return list(dict.fromkeys(m.group("n") for m in found))


def plural(kind: str) -> str:
    return next((name for name, of in PLURALS.items() if of == kind), kind + "s")
