"""What `read_paper(section=...)` shows of a theorem-like block, an algorithm or listing, or a
footnote (the blocks `statements.py` and the extractors type), and the lists of them.

- `"Theorem 2.3"`, `"Thm. 2.3"`, `"Lemma 5"`, `"Def. 2.1"`, `"Prop 1"`: the statement as
  printed (its head paragraph, with the display equations and the paragraph pieces that
  continue it), its proof when the paper marks one for it, and the passages naming it.
- `"Algorithm 1"`, `"Alg. 2"`, `"Listing 2"`: the caption and the body as a code block.
- `"footnote 3"`, `"fn 3"`, `"note 3"`, `"footnote (3)"`, `"footnote *"`, `"[^3]"`: its text
  and where it is attached (the paragraph carrying its mark, or the page whose foot it stands at).
- `"theorems"`, `"lemmas"`, ... `"proofs"`, `"statements"`, `"algorithms"`, `"listings"`,
  `"footnotes"` (or the singular): one line each. `"results"` lists the statements unless the
  paper has a section of that whole name (most papers' "Results" is a section); with neither,
  a section whose name holds it, else its error.

A selector of one of these kinds never reads as a heading's part (a subsection "Proof of
Theorem 2.3" is not Theorem 2.3): it is the item, a heading of that whole name, or an error
naming the kind and what the paper has of it, also for a number in a form no view reads
(`"Theorem 2-3"`, `"footnote 2.1"`: `unknown_form_view`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from ..errors import InvalidInput
from ..words import counted, singular
from . import heads, numbers
from .document import Algorithm, Block, Document, Footnote, Kind, Statement
from .outline import select_section
from .places import Places, section_words
from .selection import FigureUri, Selection, mention_lines, mentions, named_section

_STATEMENT_CHARS = 6000
_PROOF_CHARS = 8000
_CONTINUATION_BLOCKS = 8
_PROOF_BLOCKS = 60
_LIST_CHARS = 160
_LISTED = 40
_QED_RE = re.compile(r"(?:∎|□|■|◻|\\(?:qed|square|blacksquare|Box)\b\$?|Q\.?E\.?D\.?)\s*\$?\s*$")
_ALGORITHM_RE = re.compile(
    r"(?P<word>algorithms?|algs?\.?|algo|listings?)\s*(?P<n>[A-Z]?\d+(?:\.\d+)*[a-z]?)(?:\s*\([^()]*\))?\.?",
    re.IGNORECASE,
)
_FOOTNOTE_WORD = r"(?:foot\s*notes?|fn\.?|notes?)"
_FOOTNOTE_RE = re.compile(
    rf"{_FOOTNOTE_WORD}\s*(?P<open>\()?(?P<mark>\d{{1,3}}|[*†‡§¶‖∗⋆]{{1,3}})(?(open)\))"
    rf"|{_FOOTNOTE_WORD}\s+(?P<letter>[a-z])"
    r"|\[\^(?P<bracket>[^\]:\s]{1,4})\]",
    re.IGNORECASE,
)
_UNKNOWN_FORM_RE = re.compile(
    rf"(?P<word>{'|'.join(re.escape(w) for w in sorted(heads.READER, key=len, reverse=True))}"
    r"|algorithms?|algs?|algo|listings?|foot\s*notes?|fn)(?:\.\s*|\s+|(?=\d))"
    r"(?P<n>[A-Z]?\d+(?:[.\-]\d+)*[a-z]?|[IVXLC]+|[A-Z])\s*(?:\([^()]*\))?[.:]?",
    re.IGNORECASE,
)
_LIST_WORDS = {"algorithms": "algorithms", "listings": "listings", "footnotes": "footnotes"}
_LIST_WORDS |= {"algorithm": "algorithms", "listing": "listings", "footnote": "footnotes"}


# --- theorem-like blocks --------------------------------------------------------------------


_PROOF_OF_RE = re.compile(r"proofs?\s+of\s+(?P<of>.+)", re.IGNORECASE)


def statement_view(places: Places, wanted: str, figure_uri: FigureUri) -> Selection | None:
    proof_of = _PROOF_OF_RE.fullmatch(wanted)
    if proof_of is not None:
        return _proof_view(places, wanted, proof_of.group("of"))
    asked = heads.asked(wanted)
    if asked is None:
        return None
    kind, number = asked
    blocks = _blocks(places, Statement)
    same_kind = [b for b in blocks if _statement(b).kind == kind]
    found = numbers.matching(number, same_kind, lambda b: _statement(b).number)
    if not found:
        section = named_section(places, wanted)  # a heading named "Problem 1" is that heading
        if section is not None:
            return section
        raise InvalidInput(_missing_statement(places, kind, number, blocks))
    return _statement_view(places, found[0], len(found))


def _proof_view(places: Places, wanted: str, of: str) -> Selection | None:
    """`Proof of Theorem 2.3`: a section of that whole name, else the proof the paper marks for
    Theorem 2.3 (shown with the statement), else an error naming both."""
    asked = heads.asked(of)
    if asked is None:
        return None
    section = named_section(places, wanted)
    if section is not None:
        return section
    kind, number = asked
    same_kind = [b for b in _blocks(places, Statement) if _statement(b).kind == kind]
    found = numbers.matching(number, same_kind, lambda b: _statement(b).number)
    if found and _proof_of(places, _statement(found[0])) is not None:
        return _statement_view(places, found[0], len(found))
    label = kind.capitalize()
    have = "it has no such statement" if not found else f"it marks no proof of {label} {number}"
    raise InvalidInput(
        f'this paper has no "Proof of {label} {number}": {have}. '
        f'find_in_paper(query="\\"{label} {number}\\"") finds where it is printed.'
    )


def _statement(block: Block) -> Statement:
    assert isinstance(block.record, Statement)
    return block.record


def _named(statement: Statement) -> str:
    return f"{statement.label} {statement.number}" if statement.number else statement.label


def _statement_view(places: Places, block: Block, printed: int) -> Selection:
    statement = _statement(block)
    name = _named(statement)
    heading = places.section(block.start)
    title = name + (f" ({statement.note})" if statement.note else "")
    lines = [title + (f", {section_words(heading)}" if heading else "")]
    if printed > 1:
        lines.append(f"(the paper prints {name} {printed} times; this is the first)")
    proof = _proof_of(places, statement)
    lines += ["", _cut(_statement_text(places, block, proof), _STATEMENT_CHARS)]
    if proof is not None:
        lines += ["", _cut(_extent_text(places, proof, proof=True), _PROOF_CHARS)]
    elif statement.kind != "proof":
        lines += ["", "(no proof of it is marked in the paper's text)"]
    found = mentions(places, block, _mention_starts(places.doc.text, statement))
    lines += mention_lines(found)
    return Selection(name, "\n".join(lines))


def _statement_text(places: Places, block: Block, proof: Block | None) -> str:
    """The statement up to its proof when the proof follows it closely with nothing but
    paragraphs, display math and lists between (a theorem's second paragraph is its own);
    else as far as `_extent_text` sees it continue."""
    if proof is not None and proof.start > block.start:
        between = places.doc.blocks[places.block_index(block) + 1 : places.block_index(proof)]
        closed = all(b.kind not in (Kind.HEADING, Kind.STATEMENT, Kind.REFERENCE) for b in between)
        if closed and len(between) <= _CONTINUATION_BLOCKS:
            return places.doc.text[block.start : between[-1].end] if between else _block_text(places, block)
    return _extent_text(places, block, proof=False)


def _block_text(places: Places, block: Block) -> str:
    return places.doc.text[block.start : block.end]


def _extent_text(places: Places, block: Block, proof: bool) -> str:
    """The block's text and what continues it: a statement's display math, lists and the
    pieces of its paragraph a footnote split off; a proof's blocks up to its end mark (∎, □,
    QED), the next statement or the next heading."""
    doc = places.doc
    index = places.block_index(block)
    end = block.end
    previous = block
    for following in doc.blocks[index + 1 : index + 1 + (_PROOF_BLOCKS if proof else _CONTINUATION_BLOCKS)]:
        if proof and _QED_RE.search(doc.text[previous.start : previous.end]):
            break
        if following.kind in (Kind.HEADING, Kind.STATEMENT, Kind.REFERENCE):
            break
        if not proof and not _continues(doc.text, following, previous):
            break
        end, previous = following.end, following
    return doc.text[block.start : end]


def _continues(text: str, block: Block, previous: Block) -> bool:
    """Whether `block` is still the statement `previous` is part of: display math, a list, the
    rest of a paragraph a footnote split, or words after a display that do not start a sentence."""
    if block.kind in (Kind.EQUATION, Kind.FOOTNOTE, Kind.LIST):
        return True
    if block.kind is not Kind.PARAGRAPH:
        return False
    first = text[block.start : block.start + 2]
    if first == "$$" or previous.kind is Kind.FOOTNOTE or text[previous.end - 1 : previous.end] in (",", ":", ";"):
        return True
    after_display = previous.kind in (Kind.EQUATION, Kind.LIST) or text.startswith("$$", previous.start)
    return after_display and not first[:1].isupper()


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[:limit].rstrip() + "… (cut here: read the section for the rest)"


def _proof_of(places: Places, statement: Statement) -> Block | None:
    if statement.kind == "proof" or not statement.number:
        return None
    key = numbers.tokens(statement.number)
    for block in _blocks(places, Statement):
        proves = heads.asked(_statement(block).proves or "") if _statement(block).kind == "proof" else None
        if proves and proves[0] == statement.kind and numbers.tokens(proves[1]) == key:
            return block
    return None


def _mention_starts(text: str, statement: Statement) -> list[int]:
    if not statement.number:
        return []
    words = sorted({w for w, kind in heads.WORDS.items() if kind == statement.kind}, key=len, reverse=True)
    pattern = rf"\b(?:{'|'.join(re.escape(w) for w in words)})\.?[\s~]*{re.escape(statement.number)}(?![\d]|\.\d)"
    return [m.start() for m in re.finditer(pattern, text, re.IGNORECASE)]


def _missing_statement(places: Places, kind: str, number: str, blocks: list[Block]) -> str:
    label = kind.capitalize()
    same = [_statement(b) for b in blocks if _statement(b).kind == kind and _statement(b).number]
    others = [_statement(b) for b in blocks if _statement(b).kind not in (kind, "proof")]
    printed = heads.printed_numbers(places.doc.text, label)
    find = f'find_in_paper(query="\\"{label} {number}\\"") finds where it is printed.'
    if number.casefold() in {p.casefold() for p in printed}:
        return (
            f"this paper's text names {label} {number} but marks no block headed so (its head may be "
            f"printed inside a paragraph this reader did not split): {find}"
        )
    have = f"it has {label} {_listed([s.number or '' for s in same])}" if same else f"it marks no {heads.plural(kind)}"
    if others:
        have += f' (and {_grouped(others)}: section="statements" lists them all)'
    if blocks:
        return f"this paper has no {label} {number}; {have}. {find}"
    named = f" Its text names {label} {_listed(printed)} in passing." if printed else ""
    return (
        f"this paper has no {label} {number} marked: its text shows no theorem-like block (a paragraph "
        f'headed "{label} 2.3." or "Proof.").{named} {find}'
    )


def _grouped(statements: list[Statement]) -> str:
    """`Theorem 1.1, 1.2 and 3.1; Fact 1.4; Remark`: the numbers of each label together."""
    numbers_by_label: dict[str, list[str]] = {}
    for statement in statements:
        numbers_by_label.setdefault(statement.label, []).append(statement.number or "")
    parts = []
    for label, printed in numbers_by_label.items():
        numbered = [n for n in printed if n]
        parts.append(f"{label} {_listed(numbered)}" if numbered else label)
    return "; ".join(parts)


def _listed(items: list[str]) -> str:
    distinct = list(dict.fromkeys(items))
    shown = distinct[:_LISTED]
    more = " …" if len(distinct) > _LISTED else ""
    return (", ".join(shown[:-1]) + f" and {shown[-1]}" if len(shown) > 1 else shown[0]) + more


# --- algorithms and listings ----------------------------------------------------------------


def algorithm_view(places: Places, wanted: str, figure_uri: FigureUri) -> Selection | None:
    match = _ALGORITHM_RE.fullmatch(wanted)
    if match is None:
        return None
    listing = match.group("word").casefold().startswith("l")
    label = "Listing" if listing else "Algorithm"
    blocks = [b for b in _blocks(places, Algorithm) if _is_listing(b) == listing]
    found = numbers.matching(match.group("n"), blocks, lambda b: _algorithm(b).number)
    if found:
        return _algorithm_view(places, found[0])
    section = named_section(places, wanted)
    if section is not None:
        return section
    number = match.group("n")
    if blocks:
        listed = _listed([_algorithm(b).number or "" for b in blocks if _algorithm(b).number])
        raise InvalidInput(
            f"this paper has no {label} {number}; it has {label} {listed}. "
            f'find_in_paper(query="\\"{label} {number}\\"") finds where it is printed.'
        )
    printed = heads.printed_numbers(places.doc.text, label)
    named = f" Its text names {label} {_listed(printed)}." if printed else ""
    raise InvalidInput(
        f"this paper has no {label} {number} marked: its text marks no {label.lower()}s as items "
        f'(a captioned {label.lower()} float).{named} find_in_paper(query="\\"{label} {number}\\"") '
        "finds where it is printed."
    )


def _algorithm(block: Block) -> Algorithm:
    assert isinstance(block.record, Algorithm)
    return block.record


def _is_listing(block: Block) -> bool:
    return _algorithm(block).label.casefold().startswith("listing")


def _algorithm_view(places: Places, block: Block) -> Selection:
    algorithm = _algorithm(block)
    name = f"{algorithm.label} {algorithm.number}" if algorithm.number else algorithm.label
    heading = places.section(block.start)
    lines = [f"{name}: {algorithm.caption}" + (f" ({section_words(heading)})" if heading else "")]
    lines += ["", "```", algorithm.code.strip("\n"), "```"]
    if algorithm.number:
        pattern = rf"\b{re.escape(algorithm.label)}s?\.?[\s~]*{re.escape(algorithm.number)}(?![\d]|\.\d)"
        starts = [m.start() for m in re.finditer(pattern, places.doc.text, re.IGNORECASE)]
        lines += mention_lines(mentions(places, block, starts))
    return Selection(name, "\n".join(lines))


# --- footnotes ------------------------------------------------------------------------------


def footnote_view(places: Places, wanted: str, figure_uri: FigureUri) -> Selection | None:
    match = _FOOTNOTE_RE.fullmatch(wanted)
    if match is None:
        return None
    mark = match.group("mark") or match.group("letter") or match.group("bracket")
    blocks = _blocks(places, Footnote)
    found = [b for b in blocks if _footnote(b).mark.casefold() == mark.casefold()]
    if found:
        return _footnote_view(places, found[0])
    section = named_section(places, wanted)
    if section is not None:
        return section
    if blocks:
        raise InvalidInput(
            f"this paper has no footnote {mark}; it has footnote {_listed([_footnote(b).mark for b in blocks])}. "
            "find_in_paper with the footnote's words finds it if the paper prints it unmarked."
        )
    raise InvalidInput(
        f"this paper has no footnote {mark} marked: its text marks no footnotes. find_in_paper with the "
        "footnote's words finds it (a PDF's stand at its pages' feet)."
    )


def _footnote(block: Block) -> Footnote:
    assert isinstance(block.record, Footnote)
    return block.record


def _footnote_view(places: Places, block: Block) -> Selection:
    footnote = _footnote(block)
    lines = [f"Footnote {footnote.mark}: {footnote.text}", "", _attached(places, block)]
    return Selection(f"footnote {footnote.mark}", "\n".join(lines))


def _attached(places: Places, block: Block) -> str:
    """Where the footnote is attached: the words its mark follows (the paragraph it splits,
    back to that paragraph's start), else the page whose foot it stands at."""
    doc = places.doc
    index = places.block_index(block)
    start = block.start
    while index > 0:
        before = doc.blocks[index - 1]
        joined = before.kind in (Kind.PARAGRAPH, Kind.LIST, Kind.STATEMENT, Kind.FOOTNOTE)
        if not joined or "\n\n" in doc.text[before.end : start]:
            break
        start, index = before.start, index - 1
    heading = places.section_name(block.start)
    if start < block.start:
        words = " ".join(doc.text[start : block.start].split())
        snippet = words if len(words) <= 300 else "…" + words[-299:]
        return f"Attached to ({heading or 'no section'}): {snippet} [^{_footnote(block).mark}]"
    page = next((b for b in reversed(doc.blocks[: places.block_index(block)]) if b.kind is Kind.PAGE), None)
    if page is None:
        return f"In section {heading!r}" if heading else "Before the first section"
    where = f"At the foot of {doc.text[page.start : page.end].lstrip('# ').strip()}"
    mark = _footnote(block).mark
    printed = list(
        re.finditer(
            rf"(?:(?<=[^\W\d_])|(?<=[^\W\d_][.,;:)])){re.escape(mark)}(?=\s|$)", doc.text[page.end : block.start]
        )
    )
    if not printed:
        return where + (f" (section {heading!r})" if heading else "")
    at = page.end + printed[-1].end()
    words = " ".join(doc.text[max(page.end, at - 300) : at].split())
    return f"{where}; its mark follows ({places.section_name(at) or 'no section'}): …{words}"


# --- forms of these kinds no view above reads --------------------------------------------------


def unknown_form_view(places: Places, wanted: str, figure_uri: FigureUri) -> Selection | None:
    """A kind's word and a number in a form no view above reads (`Theorem 2-3`, `Algorithm 1
    (Foo)`, `footnote 2.1`): the heading of that whole name, else that kind's error naming what
    the paper has of it; never a heading's part."""
    match = _UNKNOWN_FORM_RE.fullmatch(wanted)
    section = named_section(places, wanted) if match else None
    if match is None or section is not None:
        return section
    word = " ".join(match.group("word").casefold().split())
    if word in heads.READER:
        kind = heads.READER[word]
        label, plural, example = kind.capitalize(), heads.plural(kind), f"{kind.capitalize()} 2.3"
        printed = [_statement(b).number for b in _blocks(places, Statement) if _statement(b).kind == kind]
    elif word.startswith("foot") or word == "fn":
        label, plural, example = "footnote", "footnotes", "footnote 3"
        printed = [_footnote(b).mark for b in _blocks(places, Footnote)]
    else:
        listing = word.startswith("l")
        label = "Listing" if listing else "Algorithm"
        plural, example = label.lower() + "s", label + " 1"
        printed = [_algorithm(b).number for b in _blocks(places, Algorithm) if _is_listing(b) == listing]
    numbered = [n for n in printed if n]
    have = f"It has {label} {_listed(numbered)}." if numbered else f"It marks no numbered {plural}."
    number = match.group("n")
    raise InvalidInput(
        f'"{wanted}" reads as {label} {number} in a form this reader does not know: name one as "{example}". '
        f'{have} find_in_paper(query="\\"{label} {number}\\"") finds where it is printed.'
    )


# --- lists ----------------------------------------------------------------------------------


def list_view(places: Places, wanted: str, figure_uri: FigureUri) -> Selection | None:
    name = wanted.casefold()
    kind = heads.PLURALS.get(name) or (name if name in heads.PLURALS.values() else None)  # "theorem" too
    if kind is None and name not in ("results", "statements") and name not in _LIST_WORDS:
        return None
    section = named_section(places, wanted)  # a section named "Results" or "Examples" is that section
    if section is not None:
        return section
    if name in _LIST_WORDS:
        return _list_algorithms_or_footnotes(places, _LIST_WORDS[name])
    blocks = [
        b for b in _blocks(places, Statement) if (_statement(b).kind == kind if kind else _statement(b).kind != "proof")
    ]
    if not blocks:
        if name == "results":
            return _results_section(places, wanted)
        what = heads.plural(kind) if kind else "theorem-like blocks"
        raise InvalidInput(_none_listed(places, what))
    lines = [_statement_line(places, b) for b in blocks]
    heading = counted(len(lines), kind, heads.plural(kind)) if kind else counted(len(lines), "statement")
    return Selection(name, f"{heading}:\n" + "\n".join(lines))


def _results_section(places: Places, wanted: str) -> Selection:
    """A section whose name holds "Results" ("Experimental Results") is what a reader means when
    the paper marks no statements; a paper with neither gets one line saying so."""
    try:
        heading, text = select_section(places.doc, wanted, places.headings)
    except InvalidInput:
        raise InvalidInput(
            'this paper has no section named Results and marks no theorem-like blocks: section="outline" '
            "lists its sections."
        ) from None
    return Selection(f"section:{heading.number} {heading.title}", text)


def _statement_line(places: Places, block: Block) -> str:
    statement = _statement(block)
    head = _named(statement) + (f" ({statement.note})" if statement.note else "")
    if statement.proves:
        head += f" [of {statement.proves}]"
    heading = places.section(block.start)
    where = f" ({section_words(heading)})" if heading else ""
    text = places.doc.text[block.start : block.end]
    printed = heads.head_at(text)
    body = text[printed.end :] if printed else text
    if not body.strip():  # `Proof of Theorem 1.6` on its own line: its words follow it
        body = _extent_text(places, block, proof=True)[len(text) :]
    return f"{head}{where}: {_short(body)}"


def _list_algorithms_or_footnotes(places: Places, name: str) -> Selection:
    lines: list[str] = []
    if name == "footnotes":
        for block in _blocks(places, Footnote):
            footnote = _footnote(block)
            lines.append(f"[^{footnote.mark}] {_short(footnote.text)}")
    else:
        listing = name == "listings"
        for block in _blocks(places, Algorithm):
            if _is_listing(block) == listing:
                algorithm = _algorithm(block)
                lines.append(f"{algorithm.label} {algorithm.number or ''}: {_short(algorithm.caption)}")
    if not lines:
        raise InvalidInput(_none_listed(places, name))
    return Selection(name, f"{counted(len(lines), singular(name), name)}:\n" + "\n".join(lines))


def _none_listed(places: Places, what: str) -> str:
    statements = [_statement(b) for b in _blocks(places, Statement) if _statement(b).kind != "proof"]
    has = f" It has {_grouped(statements)}." if statements else ""
    return (
        f"this paper's text marks no {what}.{has} find_in_paper finds what it prints "
        '(section="outline" lists its sections).'
    )


def counts_words(doc: Document) -> str:
    """` Also: 12 theorem-like blocks ("Theorem 2.3", "statements"), ...`, for the outline's counts
    line; empty for a paper that marks none."""
    kinds = Counter(type(block.record) for block in doc.blocks if block.record is not None)
    statements = sum(1 for s in doc.records(Statement) if s.kind != "proof")
    parts = [
        (statements, "theorem-like block", '"Theorem 2.3", "statements"'),
        (kinds[Algorithm], "algorithm or listing", '"Algorithm 1", "algorithms"'),
        (kinds[Footnote], "footnote", '"footnote 3", "footnotes"'),
    ]
    said = [f"{counted(n, noun)} ({ask})" for n, noun, ask in parts if n]
    return f" Also: {', '.join(said)}." if said else ""


def _short(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _LIST_CHARS else flat[: _LIST_CHARS - 1].rstrip() + "…"


def _blocks(places: Places, record_type: type) -> list[Block]:
    return [b for b in places.doc.blocks if isinstance(b.record, record_type)]


VIEWS: tuple[tuple[str, Callable[[Places, str, FigureUri], Selection | None]], ...] = (
    ("statement list", list_view),
    ("statement", statement_view),
    ("algorithm", algorithm_view),
    ("footnote", footnote_view),
    ("unknown form", unknown_form_view),
)
"""The rows `selectors.SELECTORS` takes, in this order."""
