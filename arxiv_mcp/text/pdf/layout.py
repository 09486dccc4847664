"""The layout a PDF's text lines leave behind: page furniture out, section headings in.

Works on the tidied lines of every page of one document (engine.py makes them), so that what
repeats across pages can be told from what a page says:

- Furniture: a line at a page's top or bottom edge that starts or ends many pages (a running
  header or footer, digits ignored so "4 J. Smith et al." and "6 J. Smith et al." are one), or
  a bare page number there, is dropped, and so are a figure's axis labels there (a run of
  lines of numbers only). arXiv's side stamp (`arXiv:2401.12345v1 [cs.LG] 1 Jan
  2024`) is taken out of the text and returned apart (it names the version and date).
- Headings: a line reads as a section heading when it is short, starts with a capital and does
  not end like a sentence or a contents line, and either is a known unnumbered title
  (Abstract, References, ...), or is run into its paragraph in a heading font (llncs's bold
  "Abstract. We ..."), or carries a section number (`2`, `2.1`, `IV.`, `B.`, `A.3`, a named
  `Appendix B:` or MNRAS's `APPENDIX B:`, IEEEtran's `APPENDIX B` over a title line in capitals
  or a heading font, or a lone `Appendix.`). Two commas make a numbered
  line an address unless it is in a heading font; a year in a title is no number; a title
  holding "et al." or a sentence's end is text; a letter above the abstract opens the paper's
  title, not appendix A; a roman paper's lettered subsections print their stop ("A.").
  Numbered candidates must form a valid numbering sequence through the document (1, 1.1,
  1.2, 2, ..., then appendices A, A.1, B), found as the longest such chain; a numbered list,
  an affiliation list or a table column rarely survives that. Where the engine reports fonts,
  a candidate must also be drawn in a heading font (bold, or larger than the body) when the
  document has any. A paper with no numbered section at all takes, after its Introduction
  heading, the lines set alone in that heading's font: in capitals (REVTeX), or in title case
  with a paragraph after them (ACS). Headings become HeadingLines: Markdown headings
  (shape.heading, `##` for sections, `###` and deeper for their subsections) that carry their
  level, title and printed number, numbered once here in document order (Numbering); a page's
  start is a PageLine. Later passes read what such a line is from its type (Marked), never
  from its `#`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from ... import ids
from .. import labels
from ..roman import from_roman
from ..shape import heading, page_heading
from .chain import longest_chain
from .params import PARAMS

# --- furniture ------------------------------------------------------------------------------

_BARE_PAGE_NUMBER = re.compile(r"(?:[-–—]\s*)?(?:\d{1,4}|(?=[ivx])x{0,3}(?:ix|iv|v?i{0,3}))(?:\s*[-–—])?")
ARXIV_STAMP = re.compile(
    rf"arXiv:(?:{ids.NEW_STYLE}|{ids.OLD_STYLE}){ids.VERSION}\s*\[[^\]\n]{{1,40}}\]\s*"
    r"\d{1,2}\s*[A-Z][a-z]{2}\s*\d{4}"
)


def _edge_key(line: str) -> str:
    return re.sub(r"\d+", "#", line.lower())


def _edges(lines: list[str]) -> Iterable[int]:
    """Indexes of the non-blank lines at the top and bottom edges of a page."""
    filled = [index for index, line in enumerate(lines) if line]
    return {*filled[: PARAMS.edge_lines], *filled[-PARAMS.edge_lines :]}


# LaTeXiT's equation PDFs carry their LaTeX source as hidden base64 text; pdftotext and pypdf
# print it ('<latexit sha1_base64="WC5v...=">AAAB+nicbVC7...</latexit>'), pdfium does not.
_LATEXIT = re.compile(r'<latexit sha1_base64="[A-Za-z0-9+/=]*">[A-Za-z0-9+/=\s]*</latexit>')


def _without_latexit(lines: list[str]) -> list[str]:
    """`lines` without LaTeXiT's hidden source, and without the lines it was all of."""
    kept = []
    for line in lines:
        if "<latexit" in line:
            cut = " ".join(_LATEXIT.sub(" ", line).split())
            if not cut:
                continue
            line = cut
        kept.append(line)
    return kept


def remove_furniture(pages: list[list[str] | None]) -> tuple[list[list[str] | None], str | None]:
    """Pages without running headers, footers, edge page numbers, the arXiv stamp and LaTeXiT's
    hidden equation source; and the stamp."""
    stamp = None
    cleaned: list[list[str] | None] = []
    for lines in pages:
        if lines is not None:
            # the page's lines searched at once (line ends hold neither text): most pages hold neither
            page = "\n".join(lines)
            found = (
                [line for line in lines if line.startswith("arXiv:") and ARXIV_STAMP.fullmatch(line)]
                if "arXiv:" in page
                else []
            )
            stamp = stamp or (found[0] if found else None)
            if found:
                lines = [line for line in lines if line not in found]
            if "<latexit" in page:
                lines = _without_latexit(lines)
        cleaned.append(lines)
    readable = [lines for lines in cleaned if lines is not None]
    edge_counts = Counter(
        key
        for lines in readable
        for key in {_edge_key(lines[i]) for i in _edges(lines) if len(lines[i]) <= PARAMS.max_furniture_chars}
    )
    needed = max(3, (len(readable) + 2) // 3)  # on a third of the pages, and never fewer than three
    repeated = {key for key, count in edge_counts.items() if count >= needed}
    return [None if lines is None else _strip_edges(lines, repeated) for lines in cleaned], stamp


# A figure at the top or bottom of a page leaves its axis labels there: one number a line
# ("10-8" for 10^-8, "-0.05", "100") up the y axis, a line of numbers along the x axis
# ("0 20 40 60 80"); a run of such lines at the edge is the figure's, not text.
_TICK = r"[-−+]?\d+(?:[.,]\d+)?(?:[-−]\d+)?"
_AXIS_TICK = re.compile(f"{_TICK}(?: {_TICK})*")


def _without_axis_ticks(lines: list[str]) -> list[str]:
    """`lines` without the run of lone numbers they start with (blank lines in between go too)."""
    start = 0
    while start < len(lines) and (not lines[start] or _AXIS_TICK.fullmatch(lines[start])):
        start += 1
    return lines[start:]


def _strip_edges(lines: list[str], repeated: set[str]) -> list[str]:
    def furniture(line: str) -> bool:
        return bool(_BARE_PAGE_NUMBER.fullmatch(line)) or _edge_key(line) in repeated

    kept = list(lines)
    for _ in range(PARAMS.edge_lines + 1):  # top edge: a header, then the page number under it
        filled = next((i for i, line in enumerate(kept) if line), None)
        if filled is None or not furniture(kept[filled]):
            break
        del kept[filled]
    kept = _without_axis_ticks(kept)
    for _ in range(PARAMS.edge_lines + 1):
        filled = next((i for i in range(len(kept) - 1, -1, -1) if kept[i]), None)
        if filled is None or not furniture(kept[filled]):
            break
        del kept[filled]
    kept = _without_axis_ticks(kept[::-1])[::-1]
    while kept and not kept[0]:
        kept.pop(0)
    while kept and not kept[-1]:
        kept.pop()
    return kept


# --- headings -------------------------------------------------------------------------------

_UNNUMBERED = {
    "abstract": True,
    "references": True,
    "bibliography": True,
    "acknowledgments": True,
    "acknowledgements": True,
    "acknowledgment": True,
    "acknowledgement": True,
    "introduction": False,  # False: a heading only in a heading font, or when no font is known
    "conclusion": False,
    "conclusions": False,
    "summary": False,
    "appendix": False,
    "appendices": False,
    "contents": False,
}
_UNNUMBERED_INITIALS = frozenset(name[0] for name in _UNNUMBERED)  # tested first, on every line
# Appendices named as such ("Appendix A: Proofs", IOP's lone "Appendix. Model specification")
# are numbered like "A. Proofs": appendix A. A title starts with a capital, accented or Greek
# too ("A. Überblick", "2 État de l'art").
_NUMBERED = re.compile(
    r"(?P<number>(?P<arabic>\d{1,2}(?:\.\d{1,2}){0,3})\.?|(?P<roman>[IVX]{1,5})\.|(?P<named>(?:Appendix|APPENDIX)\s+(?=[A-Z]))?"
    r"(?P<letter>[A-Z])(?:\.(?P<sub>\d{1,2}(?:\.\d{1,2}){0,2}))?(?(named)[.:]?|\.?)|(?P<lone>Appendix|APPENDIX)[.:])"
    # a title may open with a tag in brackets, not a citation: "4.3 [D1] Discover Relevant Citations"
    r"\s+(?P<title>(?:\[[A-Z][A-Za-z]{0,3}\d{0,2}\]\s+)?[A-Z\u00c0-\u00de\u0391-\u03a9(][^\n]*)"
)
# llncs and similar classes set "Abstract." in bold at the start of the abstract's first line:
# a heading run into its paragraph, believed only when the engine says the line starts bold.
_RUN_IN = re.compile(r"(?P<name>abstract|acknowledge?ments?)[.:—]\s+(?=\S)", re.IGNORECASE)
# words a title cannot end with: a line ending in one breaks off a title set on two
_JOINING_WORDS = frozenset("a an and as at by for from in into of on or the to via with".split())
# dot leaders, or ends with a page number; a number after a relation ("for H > 0") is math
_CONTENTS_LINE = re.compile(r"(?:\.\s*){3,}\d*$|(?<![=<>≤≥≈∼])\s\d{1,3}$")
_YEAR = re.compile(r"\b(?:1[89]|20)\d\d\b")
_ET_AL = re.compile(r"\bet al\.")
# IEEEtran's appendices: "APPENDIX A" on a line, the title in capitals on the next
_LONE_NAMED = re.compile(r"(?:Appendix|APPENDIX) (?P<letter>[A-Z])")
_SENTENCE_INSIDE = re.compile(r"[a-z]{3}\. [A-Z]")  # one sentence ends, the next starts ("vs. Bayes" is a title)
_APPENDIX = 100  # appendix A is numbered 101, so it may follow any numbered section


@dataclass(frozen=True)
class _Candidate:
    page: int
    line: int
    key: tuple[int, ...]
    emphasized: bool
    roman: bool = False  # I., II. (revtex and IEEE sections) ; their subsections are A., B.
    appendix: bool = False  # named "Appendix": never a subsection, even among roman sections
    stopped: bool = True  # the number ends in a stop ("A." , "2."): REVTeX and IEEE subsections always do


def heading_number(title: str) -> str | None:
    """The number a heading line written here prints (`2.1`, `IV`, `B`, `A.3`, `B` of
    `Appendix B: Proofs`), None for an unnumbered one or a lone `Appendix.`."""
    match = _NUMBERED.fullmatch(title)
    if match is None or match["lone"]:
        return None
    if match["arabic"] or match["roman"]:
        return match["arabic"] or match["roman"]
    return match["letter"] + (f".{match['sub']}" if match["sub"] else "")


class Marked(str):
    """A line the engine writes for what it is, not as a page printed it: a heading, or a
    page's start. Its text is the shared page format's (`## 2 Methods`, `## Page 3`), so every
    pass reads it as a line and pdf_to_text joins it as one; what it is, its type says (the
    passes after this one read that, never its `#`)."""

    __slots__ = ()


class HeadingLine(Marked):
    """A section heading as the text prints it (`## 2 Methods`), with its level, its title
    (`name`: `title` is str's) and the number it prints (see Numbering)."""

    __slots__ = ("level", "name", "number")
    level: int
    name: str
    number: str | None

    def __new__(cls, level: int, title: str, number: str | None) -> HeadingLine:
        line = super().__new__(cls, heading(level, title))
        line.level, line.name, line.number = level, title, number
        return line


class PageLine(Marked):
    """The line that opens page `number` (from 1)."""

    __slots__ = ()

    def __new__(cls, number: int) -> PageLine:
        return super().__new__(cls, page_heading(number))


class Numbering:
    """Heading lines made in document order, each with the number its title prints
    (heading_number); a roman paper's lettered subsection is numbered in its section, as
    `_rekey_roman` keys it: REVTeX's "A." under "IV." is IV.A."""

    def __init__(self) -> None:
        self.roman: str | None = None  # the roman section open

    def __call__(self, level: int, title: str) -> HeadingLine:
        title = " ".join(title.split())
        number = heading_number(title)
        if number is not None and level == 2:
            self.roman = number if re.fullmatch(r"[IVXL]+", number) and number != "L" else None
        elif number is not None and self.roman and level == 3 and re.fullmatch(r"[A-Z]", number):
            number = f"{self.roman}.{number}"
        return HeadingLine(level, title, number)


def _plausible_title(title: str, emphasized: bool = False) -> bool:
    """Whether a numbered line's title reads as a section title. Two commas make a line an
    address ("1 Department of Physics, Walrus University, Oslo"), unless it is in a heading
    font ("3.1 Molecular Representations, Datasets, and Benchmarks"); years are words, not
    numbers ("3.3 Modulation between August 2012 and October 2015")."""
    words = title.split()
    if not words or len(title) > PARAMS.max_title_chars or len(words) > PARAMS.max_title_words:
        return False
    # a colon may end the first line of a capitals heading set on two ("4 EVOLUTION AFTER ...:")
    if title[-1] in ".,;=" or (title[-1] == ":" and not title.isupper()):
        return False
    if _CONTENTS_LINE.search(title) or (title.count(",") > 1 and not emphasized):
        return False
    if _ET_AL.search(title):  # a reference entry opening with an initial: "A. Chang et al., “Overview ..."
        return False
    if _SENTENCE_INSIDE.search(title):  # "D. The computational cost ... per configuration. Solving": D is an operator
        return False
    letters = sum(ch.isalpha() for ch in title)
    digits = sum(ch.isdigit() for ch in _YEAR.sub("", title))
    return letters >= PARAMS.title_letters * len(title.replace(" ", "")) and digits <= 4


def _numbered(match: re.Match[str]) -> tuple[tuple[int, ...], bool] | None:
    """The section key a numbered line claims, and whether it is a roman-numbered section."""
    if match["lone"]:
        return (_APPENDIX + 1,), False
    if match["arabic"]:
        return tuple(int(part) for part in match["arabic"].split(".")), False
    if match["roman"]:
        return (from_roman(match["roman"]) or 0,), True  # the pattern holds only I, V and X
    letter = ord(match["letter"]) - ord("A") + 1
    sub = tuple(int(part) for part in match["sub"].split(".")) if match["sub"] else ()
    return (_APPENDIX + letter, *sub), False


def _follows(previous: tuple[int, ...] | None, key: tuple[int, ...]) -> bool:
    """Whether `key` may be the next section number after `previous` (None: the first one)."""
    if previous is None:
        return key in ((1,), (_APPENDIX + 1,))
    if key == (*previous, 1):
        return True
    if key == (_APPENDIX + 1,) and previous[0] < _APPENDIX:
        return True
    return any(key == (*previous[:depth], previous[depth] + 1) for depth in range(len(previous)))


def _is_emphasized(line: str, title: str, fragments: frozenset[str]) -> bool:
    """Whether the line starts with a text drawn in a heading font. A fragment that breaks a
    word at its end ("... August 2012 and Octo-") was mended into the line ("... October")."""
    return any(
        len(fragment) > 1
        and (line.startswith(fragment.removesuffix("-")) or title.startswith(fragment) or fragment.startswith(title))
        for fragment in fragments
    )


def mark_headings(pages: list[list[str] | None], styles: list[frozenset[str] | None]) -> list[list[str] | None]:
    """`pages` with their section heading lines written as HeadingLines, numbered in order.

    `styles[i]` holds the texts page i draws in a heading font (None: the engine said nothing).
    """
    numbered, unnumbered = _candidates(pages, styles)
    numbered = _after_front_matter(numbered, unnumbered, pages)
    styled = any(candidate.emphasized for candidate in (*numbered, *unnumbered))
    if styled:
        numbered = _in_heading_style(numbered, pages)
    levels = {(c.page, c.line): len(c.key) + 1 for c in _longest_chain(_rekey_roman(numbered))}
    seen: set[str] = set()
    for candidate in unnumbered:
        name = _candidate_name(_line(pages, candidate))
        if name in seen or (not _UNNUMBERED[name] and styled and not candidate.emphasized):
            continue
        seen.add(name)
        levels.setdefault((candidate.page, candidate.line), 2)
    if not levels.keys() - {(c.page, c.line) for c in unnumbered}:  # no numbered section at all
        levels.update(dict.fromkeys(_unnumbered_sections(pages, styles, unnumbered), 2))
    by_page: list[dict[int, int]] = [{} for _ in pages]
    for (page, line), level in levels.items():
        by_page[page][line] = level
    numbering = Numbering()
    return [
        None if lines is None else _write(lines, by_page[page], styles[page] if page < len(styles) else None, numbering)
        for page, lines in enumerate(pages)
    ]


def _after_front_matter(
    numbered: list[_Candidate], unnumbered: list[_Candidate], pages: list[list[str] | None]
) -> list[_Candidate]:
    """The numbered candidates, less the lettered ones above the abstract: there a bold "A
    Perspective on Explanations of Molecular" is the paper's title, not its appendix A (in a
    paper whose sections carry no number, nothing else kept it out of the chain)."""
    abstract = next((c for c in unnumbered if _candidate_name(_line(pages, c)) == "abstract"), None)
    if abstract is None:
        return numbered
    start = (abstract.page, abstract.line)
    return [c for c in numbered if not (c.key[0] > _APPENDIX and not c.appendix and (c.page, c.line) < start)]


def _unnumbered_sections(
    pages: list[list[str] | None], styles: list[frozenset[str] | None], unnumbered: list[_Candidate]
) -> list[tuple[int, int]]:
    """In a paper whose sections carry no numbers, the lines after its "Introduction" heading
    set alone in a heading font, as that heading is: in capitals when it is (REVTeX's
    "EXPERIMENTAL CONFIGURATION"), else a title a paragraph follows (ACS's "Attribution
    methods"; a bold table head is followed by its rows). A figure or table label is none."""
    start = next((c for c in unnumbered if c.emphasized and _candidate_name(_line(pages, c)) == "introduction"), None)
    if start is None:
        return []
    capitals = _in_capitals(f"1 {_line(pages, start)}")
    found = []
    for page in range(start.page, len(pages)):
        fragments = (styles[page] if page < len(styles) else None) or frozenset()
        for index, line in enumerate(pages[page] or ()):
            if (page, index) <= (start.page, start.line) or line not in fragments or _LABEL.match(line):
                continue
            if not _plausible_title(line):
                continue
            if _in_capitals(f"1 {line}") if capitals else _paragraph_follows(pages[page] or [], index):
                found.append((page, index))
    return found


def _paragraph_follows(lines: list[str], index: int) -> bool:
    """Whether a title-case line at `index` opens with a capital and a paragraph's line follows
    it, not a caption (a figure's bold legend, "Cut Efficiency Fit", stands above "FIG. 1. ...")."""
    following = next((line for line in lines[index + 1 :] if line), "")
    return (
        lines[index][:1].isupper()
        and following[:1].isupper()
        and len(following.split()) >= PARAMS.paragraph_words
        and not _LABEL.match(following)
    )


_LABEL = re.compile(labels.PRINTED_LABEL)  # a figure's or a table's label, as its caption opens


def _in_heading_style(numbered: list[_Candidate], pages: list[list[str] | None]) -> list[_Candidate]:
    """The numbered candidates set as headings in a document that has a heading font: those in
    it; sections whose title is in capitals, with the lettered subsections of roman ones; and
    subsections (x.y) of the sections kept. IEEEtran sets "I. INTRODUCTION" in small capitals
    of the body font and "A. Data" in italics, AASTeX "1. INTRODUCTION" in the body font, IOP's
    journals "3.1. Dependence on x" in italics, none of which reads as a heading font (and
    pdfium may see no weight in a dvips paper's bold); a section number before a title in
    capitals is that style's own mark."""
    capitals = {id(c) for c in numbered if len(c.key) == 1 and c.key[0] < _APPENDIX and _in_capitals(_line(pages, c))}
    capitals |= {id(c) for c in numbered if c.appendix and _LONE_NAMED.fullmatch(_line(pages, c))}
    roman = any(c.roman for c in numbered if id(c) in capitals)
    sections = {c.key for c in numbered if len(c.key) == 1 and (c.emphasized or id(c) in capitals)}
    return [
        c
        for c in numbered
        if c.emphasized
        or id(c) in capitals
        or (roman and not c.roman and not c.appendix and len(c.key) == 1 and c.key[0] > _APPENDIX)
        or (len(c.key) == 2 and c.key[:1] in sections and _opens_paragraph(pages, c))
    ]


def _opens_paragraph(pages: list[list[str] | None], candidate: _Candidate) -> bool:
    """Whether the line after a candidate starts a sentence: amsart's statements numbered in
    their section ("5.1. We further assume that w(t) ∈ L2" / "(Ω).") go on where a title ends."""
    lines = pages[candidate.page] or []
    following = next((line for line in lines[candidate.line + 1 :] if line), "")
    return following[:1].isupper()


def _in_capitals(line: str) -> bool:
    """Whether a numbered line's title is set in capitals (Greek and math letters aside)."""
    match = _NUMBERED.fullmatch(line)
    latin = [ch for ch in match["title"] if ch.isascii() and ch.isalpha()] if match else []
    return len(latin) >= 3 and all(ch.isupper() for ch in latin)


def _line(pages: list[list[str] | None], candidate: _Candidate) -> str:
    lines = pages[candidate.page]
    assert lines is not None
    return lines[candidate.line]


def _unnumbered_name(line: str) -> str:
    return line.rstrip(".:").strip().lower()


def _candidate_name(line: str) -> str:
    """The unnumbered heading name a candidate line holds, whole or run in."""
    run_in = _RUN_IN.match(line)
    return run_in["name"].lower() if run_in else _unnumbered_name(line)


def _candidates(
    pages: list[list[str] | None], styles: list[frozenset[str] | None]
) -> tuple[list[_Candidate], list[_Candidate]]:
    numbered: list[_Candidate] = []
    unnumbered: list[_Candidate] = []
    for page, lines in enumerate(pages):
        fragments = (styles[page] if page < len(styles) else None) or frozenset()
        for index, line in enumerate(lines or ()):
            if len(line) > PARAMS.max_title_chars + 12 or not line[:1].isalnum():
                continue
            if line[0].lower() in _UNNUMBERED_INITIALS and _unnumbered_name(line) in _UNNUMBERED:
                unnumbered.append(_Candidate(page, index, (), _is_emphasized(line, line, fragments)))
                continue
            # each pattern only where its first letter is (a run-in name's "a" or "A"; a
            # section number's digit or capital): most lines start with neither
            run_in = _RUN_IN.match(line) if line[0] in "aA" else None
            if run_in is not None and _is_emphasized(line, run_in[0].strip(), fragments):
                unnumbered.append(_Candidate(page, index, (), True))
                continue
            lone = _LONE_NAMED.fullmatch(line) if line[0] == "A" else None
            if lone is not None:
                following = next((text for text in (lines or ())[index + 1 :] if text), "")
                if _plausible_title(following) and (_in_capitals(f"1 {following}") or following in fragments):
                    letter = (_APPENDIX + ord(lone["letter"]) - ord("A") + 1,)
                    numbered.append(_Candidate(page, index, letter, following in fragments, appendix=True))
                continue
            match = _NUMBERED.fullmatch(line) if line[0].isdecimal() or "A" <= line[0] <= "Z" else None
            if match is None:
                continue
            emphasized = _is_emphasized(line, match["title"], fragments)
            if not _plausible_title(match["title"], emphasized):
                continue
            claimed = _numbered(match)
            if claimed is not None:
                key, roman = claimed
                appendix = bool(match["named"] or match["lone"])
                stopped = line[len(match["number"]) - 1] in ".:"
                numbered.append(_Candidate(page, index, key, emphasized, roman, appendix, stopped))
    return _without_lists(numbered), unnumbered


def _without_lists(candidates: list[_Candidate]) -> list[_Candidate]:
    """Candidates that are not items of a numbered list: no sibling number on the next line.

    Sections are separated by text; "1 ...", "2 ..." on adjacent lines are a list (a section
    directly followed by its first subsection, "2 Method" then "2.1 Data", is not).
    """
    listed: set[int] = set()
    for index, (first, second) in enumerate(zip(candidates, candidates[1:])):
        adjacent = first.page == second.page and second.line - first.line <= 2
        siblings = len(first.key) == len(second.key) and second.key[:-1] == first.key[:-1]
        if adjacent and siblings and second.key[-1] == first.key[-1] + 1:
            listed.update((index, index + 1))
    return [candidate for index, candidate in enumerate(candidates) if index not in listed]


def _rekey_roman(candidates: list[_Candidate]) -> list[_Candidate]:
    """In a document numbered I., II., ...: letters are subsections of the last roman section,
    printed "A." (a bare "A Picture of Lycoming County" there is a line of a figure's text)."""
    romans = {c.key for c in candidates if c.roman}
    if not {(1,), (2,)} <= romans:
        return [c for c in candidates if not c.roman]
    out: list[_Candidate] = []
    section = 0
    for c in candidates:
        if c.roman or c.appendix:
            section = c.key[0]  # IEEEtran's "A." under "APPENDIX B" is B.1
            out.append(c)
        elif c.key[0] > _APPENDIX and len(c.key) == 1 and section and c.stopped:
            out.append(_Candidate(c.page, c.line, (section, c.key[0] - _APPENDIX), c.emphasized))
    return out


def _longest_chain(candidates: list[_Candidate]) -> list[_Candidate]:
    """The longest run of candidates, in document order, whose numbers follow one another
    (more of them in a heading font among runs as long); a lone one only in a heading font."""
    found = longest_chain(
        [c.key for c in candidates],
        _follows,
        lambda index: range(max(0, index - PARAMS.section_window), index),
        [c.emphasized for c in candidates],
    )
    chain = [candidates[index] for index in found]
    return chain if len(chain) >= 2 or (chain and chain[0].emphasized) else []


def _write(lines: list[str], levels: dict[int, int], styled: frozenset[str] | None, numbering: Numbering) -> list[str]:
    """The page's lines with its headings (`levels`: each one's level by its line; `styled`: the
    page's texts in a heading font) written by `numbering`, and no blank line last."""
    if not levels and (not lines or lines[-1]):
        return lines  # most pages: no heading, no blank line to drop, nothing to write
    out: list[str] = []
    rest = None  # a heading's second line, taken into it
    for index, line in enumerate(lines):
        level = levels.get(index)
        if level is None:
            if index != rest:
                out.append(line)
            continue
        if out and out[-1]:
            out.append("")
        run_in = _RUN_IN.match(line)
        if run_in is not None:  # the heading on its own line, its paragraph after it
            out.extend((numbering(level, run_in["name"]), "", line[run_in.end() :]))
            continue
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if index + 1 not in levels and _goes_on(line, following, styled or frozenset()):
            rest = index + 1
            kept = not _in_capitals(line) and following[:1].isupper()  # "Aux-Loss-" / "Free Models"
            line = (line if kept else line[:-1]) + following if line.endswith("-") else f"{line} {following}"
        out.extend((numbering(level, line), ""))
    while out and not out[-1]:
        out.pop()
    return out


def breaks_off(title: str) -> bool:
    """Whether a title's line stops mid-phrase, after a hyphen or a joining word ("... from the
    macro to"): a title in mixed case then goes on in the next line (see _goes_on)."""
    words = title.rsplit(maxsplit=1)  # its last word: a title's every word split apart cost more than the test
    return bool(words) and (title.endswith("-") or words[-1].lower() in _JOINING_WORDS)


def may_go_on(line: str) -> bool:
    """Whether a line could be a numbered title broken off mid-phrase, to be ended by the next."""
    line = line.strip()
    return breaks_off(line) and _NUMBERED.fullmatch(line) is not None


def _goes_on(title: str, following: str, styled: frozenset[str]) -> bool:
    """Whether a numbered heading in capitals goes on in the line after it: a long title set on
    two lines ("II. FLAVOR STRUCTURE OF LIGHT AND" / "HEAVY LIGHT DIQUARKS", or broken at a
    hyphen, "... EN-" / "ERGY QUANTIZATION"). The second line is capitals too, letters only
    (no number, no reference), and no heading of its own. A title in mixed case goes on when
    both lines are in the heading font and the first breaks off mid-phrase, after a hyphen or a
    joining word ("3.1 Dust description: from the macro to" / "the nanoscale"); a complete
    title ("A. Contributions and Acknowledgments") may be followed by a heading of its own."""
    if not following[:1].isalpha() or len(following) > PARAMS.max_title_chars:
        return False
    if _NUMBERED.fullmatch(following) or any(ch.isdigit() for ch in following):
        return False
    if _LONE_NAMED.fullmatch(title):  # "APPENDIX A" / "AUTOMATICALLY GENERATED TEXTS"
        return True
    if not _in_capitals(title):
        return breaks_off(title) and title in styled and following in styled
    latin = [ch for ch in following if ch.isascii() and ch.isalpha()]
    return len(latin) >= 2 and all(ch.isupper() for ch in latin)
