"""PDF bytes -> plain text, one `## Page N` block per page, in page order.

Engines: pypdf is the default and the fallback. pypdfium2 (the optional `fast` extra) is
several times faster; `engine="auto"` uses it when it can be imported (the setting
ARXIV_MCP_PDF_ENGINE chooses the engine for the server), falls back to pypdf for the whole
file when pdfium cannot open it or finds no text in it, and per page for a page pdfium cannot
read or one that asks for more drawing work than pdfium may do in one uninterruptible call
(see work): one heavy figure costs that page, not the paper. A
running-out deadline or too many pages are not engine failures and are raised at once.
A file neither engine can open (cut short, its xref or trailer lost) is read again as
`repair` rebuilds it; a page pypdf fails on, or reads blank while its fonts are lost, is read
again as `salvage` prepares it (broken fonts mended or stood in for, unreadable content left
out), and a page tree node a damaged byte mistyped is typed again first. pdf_to_document
notes a damaged file, or pages that could not be read, in `notes["damaged"]` (one line).

Output contract (shared with the HTML and LaTeX extractors; the paging module parses it):
every page starts with the line `## Page N` (N from 1) followed by its text, pages are
separated by one blank line, and no body line starts with `#` (a leading `#` becomes `\\#`).
Inside a page (pdf_to_text) the extractor's line structure is kept; a blank line is added
after a line that ends a sentence well short of the page's full line length (a paragraph's
last line). pdf_to_document reads the same lines as paragraphs and marks what they print
(see structure); arXiv's side stamp is in neither text, but in the document's notes.
A word hyphenated across a line end is mended when its rest is lower case ("trans-" +
"former"); the hyphen stays where it is real: after a part that already has one
("state-of-the-" + "art"), before one ("mass-" + "to-temperature"), or where the document
writes the same pair with a hyphen inside a line ("non-" + "relativistic"). A paragraph that
a column's footnotes and the next column's float interrupt reads on past them: they are moved
after it (see reading_order), in both texts.

Post-processing is a few linear passes over each page: the budget is 2x of a bare
pypdfium2 text loop over the same file.
"""

from __future__ import annotations

import functools
import itertools
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any

from ...errors import ExtractionError, NoTextLayer
from ..document import DAMAGED, Document
from ..formats import is_pdf
from ..shape import escape_line
from .fonts import FontSpy, forget_wide_spaces, page_fonts, pdfium_lines
from .forms import hidden_textless_forms
from .glyphs import compose_accents, pdfium_text
from .layout import Marked, PageLine, mark_headings, remove_furniture
from .lines import Line, PageText, heading_fragments
from .pagetree import mend_page_tree
from .params import PARAMS
from .pdfium_compat import PDFIUM_LOCK, Box
from .pypdf_compat import SharedFonts, opened_reader
from .reading_order import reading_order
from .repair import rebuilt
from .salvage import Salvage, salvageable
from .sentences import ends_with_stop
from .spacing import CharSpacing, sets_char_spacing
from .structure import full_line, opens_caption, pdf_document
from .tables import place_pieces
from .watch import watching
from .work import MAX_PAGE_WORK, PDFIUM_MAX_PAGE_WORK, UnmeasurableFile, heavy_pages, page_work

logger = logging.getLogger(__name__)

ENGINES = ("auto", "pypdf", "pdfium")

FAILED_PAGE_NOTE = "(the text of this page could not be extracted)"


def pdf_to_text(
    data: bytes,
    *,
    engine: str = "auto",
    deadline: float | None = None,
    max_pages: int = 2000,
    clock: Callable[[], float] = time.monotonic,
) -> str:
    """Text of every page of the PDF `data`, in order, in the shared page format.

    `deadline` is an absolute `clock()` (time.monotonic) value, checked between pages, and
    by pypdf also between the operators of a page.
    Raises ExtractionError (not a PDF, corrupt, encrypted, too many pages, deadline passed)
    or its subclass NoTextLayer (pages without text, e.g. scanned images).
    """
    return "\n".join(_extract(data, engine, _Budget(deadline=deadline, max_pages=max_pages, clock=clock)).lines)


def pdf_to_document(
    data: bytes,
    *,
    engine: str = "auto",
    deadline: float | None = None,
    max_pages: int = 2000,
    clock: Callable[[], float] = time.monotonic,
) -> Document:
    """The PDF's text as pdf_to_text gives it, with the structure it prints marked (see
    structure), and arXiv's side stamp in `notes["stamp"]`. Raises as pdf_to_text."""
    rendered = _extract(data, engine, _Budget(deadline=deadline, max_pages=max_pages, clock=clock))
    notes = {"stamp": rendered.stamp, DAMAGED: rendered.damage}
    return pdf_document(rendered.lines, {key: note for key, note in notes.items() if note})


def _extract(data: bytes, engine: str, budget: _Budget) -> _Rendered:
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, not {engine!r}")
    _check_pdf_header(data)
    with watching(budget.check_opening):
        return _extract_or_rebuild(data, engine, budget)


def _extract_or_rebuild(data: bytes, engine: str, budget: _Budget) -> _Rendered:
    try:
        return _extract_from(data, engine, budget)
    except _Damaged:
        # cut short or its xref lost: the objects still in the file, written anew (see repair)
        repaired = rebuilt(data)
        if repaired is None:
            raise
        logger.info("the PDF is damaged; reading the %d bytes of objects it still holds", len(repaired.data))
        rendered = _extract_from(repaired.data, engine, budget)
        return replace(rendered, damage=_damage_note(rendered, repaired.declared_pages))


def _damage_note(rendered: _Rendered, declared: int | None) -> str:
    """One line on what a rebuilt file gave: pages read of pages it had (when still known)."""
    of = f" of {declared}" if declared and declared >= rendered.read else ""
    return (
        f"the PDF is damaged (cut short, or its index lost): {rendered.read}{of} pages read from what is left "
        "of it, some perhaps in part; download it again for the whole text"
    )


def _extract_from(data: bytes, engine: str, budget: _Budget) -> _Rendered:
    if engine in ("pdfium", "auto"):
        try:
            raw = _pdfium_pages(data, budget, refuse_heavy=engine == "pdfium")
            if engine == "auto":
                raw = _fill_from_pypdf(data, raw, budget)
            return _render(raw)
        except (_PdfiumFailed, NoTextLayer) as exc:
            if engine == "pdfium":
                if isinstance(exc, NoTextLayer):
                    raise
                if isinstance(exc, _TooMuchWork):
                    damaged = isinstance(exc.__cause__, UnmeasurableFile)
                    raise (_Damaged if damaged else ExtractionError)(str(exc)) from exc
                raise _Damaged(
                    f"the PDF is corrupt, truncated or encrypted: pdfium cannot read it ({str(exc).rstrip('.')})"
                ) from exc
            logger.info("pdfium failed on this PDF (%s); falling back to pypdf", exc)
    return _render(_pypdf_pages(data, budget))


def _fill_from_pypdf(data: bytes, raw: list[PageText | None], budget: _Budget) -> list[PageText | None]:
    """`raw` with each page pdfium left out (too heavy, or unreadable) read by pypdf, if it can."""
    missing = [index for index, page in enumerate(raw) if page is None]
    if not missing:
        return raw
    try:
        filled = _pypdf_pages(data, budget, only=frozenset(missing))
    except ExtractionError as exc:
        if "took too long" in str(exc):
            raise
        logger.info("pypdf cannot read the pages pdfium left out: %s", exc)
        return raw
    return [page if page is not None or index >= len(filled) else filled[index] for index, page in enumerate(raw)]


@dataclass(frozen=True)
class _Budget:
    deadline: float | None
    max_pages: int
    clock: Callable[[], float]

    def check_page_count(self, count: int) -> None:
        if count > self.max_pages:
            raise ExtractionError(f"the PDF has {count} pages, more than the {self.max_pages} this server extracts")
        if count == 0:
            raise ExtractionError("the PDF has no pages")

    def check_time(self, page_index: int, count: int, where: str = "before") -> None:
        if self.deadline is not None and self.clock() > self.deadline:
            raise ExtractionError(f"PDF extraction took too long (stopped {where} page {page_index + 1} of {count})")

    def check_opening(self) -> None:
        """The check of the work between pages: opening, measuring or rebuilding the file (watch)."""
        if self.deadline is not None and self.clock() > self.deadline:
            raise ExtractionError(
                "PDF extraction took too long (stopped while opening, measuring or rebuilding the file)"
            )

    def operator_check(self, page_index: int, count: int) -> Callable[..., None]:
        """A pypdf visitor that checks the deadline every few hundred operators of a page."""
        # pypdf calls it for every operator: one next() of a cycle says when, no arithmetic
        ticks = itertools.cycle(_CHECK_EVERY_256)

        def visit(*_: object) -> None:
            if next(ticks):
                self.check_time(page_index, count, "inside")

        return visit


_CHECK_EVERY_256 = (False,) * 255 + (True,)


class _Damaged(ExtractionError):
    """The file cannot be opened as it is (cut short, no usable xref or trailer)."""


class _PdfiumFailed(Exception):
    """pdfium is missing or cannot read the file; "auto" then uses pypdf."""


class _TooMuchWork(_PdfiumFailed):
    """A page asks for more work than pdfium may do at once, or its work cannot be measured."""


def _check_pdf_header(data: bytes) -> None:
    if not data:
        raise ExtractionError("the PDF is empty (0 bytes)")
    if not is_pdf(data):
        looks_like = "an HTML page" if data.lstrip()[:1] == b"<" else f"data starting {data[:16]!r}"
        raise ExtractionError(f"this is not a PDF (it is {looks_like})")


# --- engines: each returns one PageText per page (None: that page failed) --------------


def _pypdf_pages(data: bytes, budget: _Budget, only: frozenset[int] | None = None) -> list[PageText | None]:
    """One text per page (None: unreadable or too heavy); with `only`, just those pages are read."""
    from pypdf.errors import DependencyError

    try:
        reader = opened_reader(data)
        if reader.is_encrypted and not reader.decrypt(""):
            raise ExtractionError("the PDF is encrypted with a password")
        mend_page_tree(data, reader)
        pages = reader.pages
        count = len(pages)
    except ExtractionError:
        raise
    except DependencyError as exc:
        raise ExtractionError(f"the PDF is encrypted in a way pypdf cannot undo here ({exc})") from exc
    except Exception as exc:  # pypdf raises many types on broken files; all mean "unreadable"
        raise _Damaged(f"the PDF is corrupt, truncated or damaged ({type(exc).__name__}: {exc})") from exc
    budget.check_page_count(count)
    texts: list[PageText | None] = []
    salvage: Salvage | None = None  # made at the first page pypdf fails on
    fonts = SharedFonts()  # not shared with salvage's reads: they change fonts
    for index in range(count):
        if only is not None and index not in only:
            texts.append(None)
            continue
        budget.check_time(index, count)
        try:
            work = page_work(pages[index], MAX_PAGE_WORK)
        except Exception as exc:  # unmeasurable: pypdf's own limits and the deadline still apply
            logger.info("could not measure page %d of the PDF: %s: %s", index + 1, type(exc).__name__, exc)
            work = 0
        if work > MAX_PAGE_WORK:
            logger.warning(
                "page %d of the PDF asks for more than %d MB of drawing instructions; left out",
                index + 1,
                MAX_PAGE_WORK // 2**20,
            )
            texts.append(None)
            continue
        text: PageText | None
        try:
            with fonts.active():
                text = _pypdf_page_text(pages[index], budget, index, count)
        except ExtractionError:
            raise
        except Exception as exc:  # one broken page should not cost the whole paper
            logger.info(
                "pypdf could not extract page %d (%s: %s); trying without its broken fonts",
                index + 1,
                type(exc).__name__,
                exc,
            )
            text = None
        if text is None or salvageable(pages[index], text.text):
            salvage = salvage or Salvage(data)
            text = _salvaged_page(salvage, budget, index, count)
        texts.append(text)
    return texts


def _pypdf_page_text(page: Any, budget: _Budget, index: int, count: int) -> PageText | None:
    """The page's text; None when most of it is U+FFFD (its fonts' encodings are gone, as in a
    file cut before them: pypdf has no glyph names to read, where pdfium reads the font program)."""
    fonts = FontSpy()
    forget_wide_spaces(page)
    check = budget.operator_check(index, count)
    before = check
    if sets_char_spacing(page):  # most pages never do: they pay no second visitor per operator
        spacing = CharSpacing(page_fonts(page))

        def before(operator: bytes, operands: list[Any], *matrices: object) -> None:
            check()
            spacing(operator, operands)

    with hidden_textless_forms(page):  # pypdf would parse them for the visitors (forms.py)
        text = page.extract_text(visitor_operand_before=before, visitor_text=fonts)
    if text.count("\ufffd") * 2 > len(text) - text.count(" ") - text.count("\n") > 0:
        logger.warning("pypdf could not decode the glyphs of page %d (its fonts have no encoding left)", index + 1)
        return None
    return PageText(fonts.closed_up(text), fonts.page_lines(), _pypdf_width(page))


def _pypdf_width(page: Any) -> float:
    """The page's width in points; 0 when its box is missing or unreadable (a damaged file)."""
    try:
        return float(page.mediabox.width)
    except Exception:  # whatever a broken /MediaBox raises, the text still counts
        return 0.0


def _salvaged_page(salvage: Salvage, budget: _Budget, index: int, count: int) -> PageText | None:
    """A page pypdf failed on, read again as salvage prepares it; None if it still fails."""

    def read(page: Any) -> PageText | None:
        with SharedFonts().active():  # fonts built as for the first read, for this read only (pypdf_compat)
            return _pypdf_page_text(page, budget, index, count)

    try:
        return salvage.read(index, read)
    except ExtractionError:
        raise
    except Exception as exc:
        logger.warning("pypdf could not extract page %d: %s: %s", index + 1, type(exc).__name__, exc)
        return None


def _heavy_pages(data: bytes, max_pages: int) -> frozenset[int]:
    """The pages too heavy for pdfium; a file pypdf cannot measure is too much work for it."""
    try:
        return heavy_pages(data, max_pages)
    except UnmeasurableFile as exc:
        raise _TooMuchWork(str(exc)) from exc


# --- pdfium -------------------------------------------------------------------------------


@functools.cache
def _import_pdfium() -> ModuleType | None:
    try:
        import pypdfium2
    except ImportError:
        return None
    module: ModuleType = pypdfium2  # untyped to mypy (pyproject's override)
    return module


def _pdfium_pages(data: bytes, budget: _Budget, refuse_heavy: bool) -> list[PageText | None]:
    """One text per page; None for a page too heavy for pdfium (`refuse_heavy`: raise) or one it cannot read."""
    pdfium = _import_pdfium()
    if pdfium is None:
        raise _PdfiumFailed("pypdfium2 is not installed: install the 'fast' extra")
    heavy = _heavy_pages(data, budget.max_pages)
    if heavy and refuse_heavy:
        raise _TooMuchWork(
            f"a page of the PDF asks for more than {PDFIUM_MAX_PAGE_WORK // 2**20} MB of "
            "drawing instructions, too much for pdfium to parse at once"
        )
    with PDFIUM_LOCK:
        try:
            document = pdfium.PdfDocument(data)
        except pdfium.PdfiumError as exc:
            raise _PdfiumFailed(str(exc)) from exc
        try:
            count = len(document)
            budget.check_page_count(count)
            texts: list[PageText | None] = []
            for index in range(count):
                budget.check_time(index, count)
                texts.append(None if index in heavy else _pdfium_page_text(pdfium, document, index))
            return texts
        finally:
            document.close()


def _pdfium_page_text(pdfium: ModuleType, document: Any, index: int) -> PageText | None:
    try:
        page = document[index]
        textpage = page.get_textpage()
        text = textpage.get_text_range()
        boxes: dict[int, Box | None] = {}  # read by both passes, each box once
        lines = pdfium_lines(pdfium.raw, textpage.raw, text, boxes)
        text = pdfium_text(pdfium.raw, textpage.raw, text, boxes)
        width = float(page.get_width())
        textpage.close()
        page.close()
    except pdfium.PdfiumError as exc:
        logger.warning("pdfium could not read page %d: %s", index + 1, exc)
        return None
    return PageText(_pdfium_line_ends(text), lines, width)


def _pdfium_line_ends(text: str) -> str:
    # pdfium ends lines with \r\n and joins a word hyphenated at a line end, marking the
    # hyphen with U+FFFE; restore that line break so both engines mend words the same way.
    if "\ufffe" in text:
        text = text.replace("\ufffe\r\n", "-\n").replace("\ufffe", "-\n")
    return text.replace("\r\n", "\n")


# --- post-processing ------------------------------------------------------------------


@dataclass(frozen=True)
class _Rendered:
    lines: list[str]
    """The text's lines, page markers (layout.PageLine) and the blank line between pages too:
    structure reads these, and pdf_to_text joins them."""
    stamp: str | None
    read: int
    """Pages with text (the others failed, or were left out as too much work)."""
    damage: str | None = None
    """One line saying the file was damaged and what was read of it, when it was."""


def _render(raw_pages: list[PageText | None]) -> _Rendered:
    if all(page is None for page in raw_pages):
        raise ExtractionError("no page of the PDF could be read")
    styles = [None if page is None else _fragments(page.lines) for page in raw_pages]
    normalised = [None if page is None else _normalise_chars(page.text) for page in raw_pages]
    known_hyphenated = _hyphenated_words(normalised)
    tidied = [None if page is None else _tidy_lines(page, known_hyphenated) for page in normalised]
    joined = ["".join(page) for page in tidied if page is not None]  # counted a page at a time, not a line
    text_chars = sum(len(page) - page.count(" ") for page in joined)
    if text_chars < PARAMS.min_chars_per_page * len(tidied):
        raise NoTextLayer(
            f"the PDF has no text layer (scanned images?): its {len(tidied)} pages hold only "
            f"{text_chars} characters of text"
        )
    furnished, stamp = remove_furniture(tidied)
    records = [None if page is None else page.lines for page in raw_pages]
    laid_out = _in_reading_order(mark_headings(furnished, styles), records, known_hyphenated)
    document: list[str] = []
    for number, lines in enumerate(laid_out, 1):
        document.extend(("", PageLine(number)) if document else (PageLine(number),))
        document.extend([FAILED_PAGE_NOTE] if lines is None else lines)
    read = sum(lines is not None for lines in laid_out)
    unread = len(laid_out) - read
    damage = (
        f"{unread} of {len(laid_out)} pages of the PDF could not be read (damaged, or too much work)"
        if unread
        else None
    )
    return _Rendered(document, stamp, read, damage)


def _in_reading_order(
    pages: list[list[str] | None], records: list[list[Line] | None], known_hyphenated: frozenset[str]
) -> list[list[str] | None]:
    """Each page with the captions and footnotes that interrupt a paragraph moved out (reading_order),
    and a word the move brings together again across a line end mended ("trans-" + "formers");
    the lines near table captions with their placed pieces (tables.place_pieces)."""
    short = int(PARAMS.short_line * full_line([line for lines in pages if lines for line in lines]))
    out: list[list[str] | None] = []
    continued = False  # the page before ended inside a paragraph
    for lines, placed in zip(pages, records):
        ordered = None
        if lines is not None:
            ordered, places = reading_order(lines, placed or [], short, opens_caption, continued)
            place_pieces(ordered, places)
        if ordered is not None and ordered != lines:
            ordered = _mend_hyphens(ordered, known_hyphenated)
        last = next((line for line in reversed(ordered or ()) if line), "")
        continued = len(last) >= short and not isinstance(last, Marked) and not ends_with_stop(last)
        out.append(ordered)
    return out


def _fragments(lines: list[Line]) -> frozenset[str]:
    """The page's texts in a heading font (lines.heading_fragments), normalised like its text."""
    return frozenset(" ".join(_normalise_chars(fragment).split()) for fragment in heading_fragments(lines))


def _char_map() -> dict[int, str | None]:
    table: dict[int, str | None] = {code: None for code in (*range(0x20), *range(0x7F, 0xA0))}
    table.update({ord(c): " " for c in "\t\x0b\x0c"})
    table[ord("\n")] = "\n"
    for invisible in "\u00ad\u200b\ufeff\ufffe\uffff":
        table[ord(invisible)] = None
    for hyphen in "\u2010\u2011":
        table[ord(hyphen)] = "-"
    ligatures = {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl"}
    table.update({ord(lig): letters for lig, letters in ligatures.items()})
    table.update({0xFB05: "st", 0xFB06: "st"})
    # the Dutch ij is a ligature glyph in some TeX fonts: ATLAS papers print "multĳet", "Beĳing"
    table.update({0x132: "IJ", 0x133: "ij"})
    return table


_CHAR_MAP = _char_map()
# str.translate looks every character of a non-ASCII page up in the map (a tenth of a
# second on a long paper); the few characters it changes are found by one pattern instead
_MAPPED = re.compile("[" + re.escape("".join(chr(code) for code in _CHAR_MAP if code != ord("\n"))) + "]")


def _mapped(match: re.Match[str]) -> str:
    return _CHAR_MAP[ord(match[0])] or ""


def _normalise_chars(text: str) -> str:
    """\\n line ends, a soft hyphen ending a line made visible, no controls, accents and ligatures resolved."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\u00ad" in text:
        text = text.replace("\u00ad\n", "-\n")
    return compose_accents(_MAPPED.sub(_mapped, text))


# A match may start only where a run of letters starts: tried inside a long run, every start
# would scan to the run's end first, which makes one long "word" cost quadratic time.
_INWORD_HYPHEN = re.compile(r"(?<![^\W\d_])[^\W\d_]+(?:-[^\W\d_]+)+")


def _hyphenated_words(pages: list[str | None]) -> frozenset[str]:
    """Lower-cased 'word-word' pairs written with a hyphen inside a line somewhere in the document."""
    pairs: set[str] = set()
    # only the words with a hyphen are searched: a pattern tried at every character of a
    # whole paper cost more than all the other passes over it; and only the lines with one
    # are split into words (a line end is a word's end: the same words, in the same order)
    hyphenated = " ".join(
        word
        for page in pages
        if page
        for line in page.split("\n")
        if "-" in line
        for word in line.split()
        if "-" in word
    )
    for compound in _INWORD_HYPHEN.findall(hyphenated):
        parts = compound.lower().split("-")
        pairs.update(f"{left}-{right}" for left, right in zip(parts, parts[1:]))
    return frozenset(pairs)


def _tidy_lines(text: str, known_hyphenated: frozenset[str]) -> list[str]:
    """The page's lines tidied (white space, hyphens, scripts, lone punctuation), a blank line
    after each paragraph's last one and none at the end."""
    lines = _join_scripts(_mend_hyphens(_collapsed_lines(text), known_hyphenated))
    lines = _join_lone_punctuation(lines)
    out: list[str] = []
    for line, paragraph_ends in zip(lines, _paragraph_ends(lines)):
        if not line:
            if out and out[-1]:
                out.append("")
            continue
        # only a line starting with a blank or a '#' can change (most do not: no call for them)
        out.append(escape_line(line) if line[0] == "#" or line[0].isspace() else line)
        if paragraph_ends:
            out.append("")
    while out and not out[-1]:
        out.pop()
    return out


# The white space str.split() cuts at, besides " " and "\n" (Unicode's, and the four
# information separators Python counts as white space)
_OTHER_SPACE = re.compile("[\t\x0b\x0c\r\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")


def _collapsed_lines(text: str) -> list[str]:
    """The page's lines, each with its runs of white space made one space and none at its ends
    (" ".join(line.split())). Most lines have nothing to change: on a page whose only white
    space is spaces and line ends, only a line with two spaces together or one at an end is
    split and joined again (a split and a join of every line was a third of tidying a page)."""
    lines = text.split("\n")
    if _OTHER_SPACE.search(text):
        return [" ".join(line.split()) for line in lines]
    return [" ".join(line.split()) if "  " in line or line[:1] == " " or line[-1:] == " " else line for line in lines]


_TRAILING_PUNCTUATION = ".,;:!?)]}'\"\u2019\u201d"

# A super- or subscript drawn above or below the line's baseline comes out as a line of its
# own ("L", "2", "(Ω) for every"): a line of at most three such characters, after a line
# ending in a letter, digit or bracket and before one that goes on with punctuation, is
# put back between them ("L2(Ω) for every").
_SCRIPT = re.compile(r"[0-9A-Za-z+\-\u2212\u2217*\u2032\u2020]{1,3}")
_GOES_ON = tuple("(),.;:=]")


def _join_scripts(lines: list[str]) -> list[str]:
    out: list[str] = []
    index = 0
    count = len(lines)  # the lines are joined in place, never taken out
    while index < count:
        line = lines[index]
        # the cheap tests first, the script's length the first of them: this runs on every line
        if index + 2 < count and line and 0 < len(lines[index + 1]) <= 3:
            script, following = lines[index + 1], lines[index + 2]
            if (
                following.startswith(_GOES_ON)
                and (line[-1].isalnum() or line[-1] in ")]\u2032")
                and _SCRIPT.fullmatch(script)
            ):
                lines[index + 2] = line + script + following
                index += 2
                continue
        out.append(line)
        index += 1
    return out


def _join_lone_punctuation(lines: list[str]) -> list[str]:
    """Put a line of one comma back on the line before it, and a list item on its lone number.

    After a raised affiliation mark ("J. Coelho160" then ","), the engine starts a new line
    for the comma back on the baseline; text never starts a line with a lone comma. (A lone
    colon may end a heading's first line, "4 EVOLUTION AFTER ...", and stays apart.)
    """
    out: list[str] = []
    for line in lines:
        if line == "," and out and out[-1]:
            out[-1] += line
            continue
        if (
            out
            and len(out[-1]) <= _MAX_MARKER
            and _LIST_MARKER.fullmatch(out[-1])
            and line
            and not line.startswith("#")
            and not (len(out) > 1 and out[-2][-1:].isalnum())  # "... in Section" / "5.": a sentence's end
        ):
            out[-1] += " " + line  # "1." then its item: an engine's line of its own for the number
            continue
        out.append(line)
    return out


_LIST_MARKER = re.compile(r"\d{1,2}\.|[\u2022\u25e6\u25aa\u2023\u2219]")
_MAX_MARKER = 3  # "12.": the length is tested first, the pattern only on a line that short


def _mend_hyphens(lines: list[str], known_hyphenated: frozenset[str]) -> list[str]:
    """Join a word split at a line-end hyphen onto the first line, when the rest is lower case;
    close a compound split at a hyphen inside a line (see _closed_compounds)."""
    out: list[str] = []
    for line in lines:
        if line and out and out[-1].endswith("-") and not isinstance(out[-1], Marked):  # a heading is whole
            joined = _join_hyphenated(out[-1], line, known_hyphenated)
            if joined is not None:
                out[-1], line = joined
                if not line:
                    continue
        out.append(_closed_compounds(line, known_hyphenated) if "- " in line else line)
    return out


_SPACED_COMPOUND = re.compile(r"(?<![^\W\d_])([^\W\d_]+)- ([^\W\d_]+)")


def _closed_compounds(line: str, known_hyphenated: frozenset[str]) -> str:
    """A compound broken at its hyphen over two lines that the engine put on one ("A two-
    dimensional fit": pypdf read the line end as a space) is closed when the document writes it
    whole elsewhere; a suspended hyphen ("pre- and post-processing") is no such compound."""
    closed = _SPACED_COMPOUND.sub(
        lambda m: f"{m[1]}-{m[2]}" if f"{m[1].lower()}-{m[2].lower()}" in known_hyphenated else m[0], line
    )
    return line if closed == line else closed  # the line itself: what it is (a heading, a placed row) kept


def _join_hyphenated(first: str, second: str, known_hyphenated: frozenset[str]) -> tuple[str, str] | None:
    head, _, rest = second.partition(" ")
    word = head.rstrip(_TRAILING_PUNCTUATION)
    if not (word.replace("-", "").isalpha() and word.islower()):
        return None
    stem = first[first.rfind(" ") + 1 : -1]
    last_part = stem[stem.rfind("-") + 1 :]
    if not last_part.isalpha():
        return None
    # TeX breaks a word that has a hyphen only at that hyphen: "state-of-the-" + "art".
    first_part = word.partition("-")[0]
    keep_hyphen = "-" in stem or "-" in word or f"{last_part.lower()}-{first_part}" in known_hyphenated
    return (first if keep_hyphen else first[:-1]) + head, rest


def _paragraph_ends(lines: list[str]) -> list[bool]:
    """Flag a line that ends a sentence short of a full line, before one that starts a new one.

    Justified lines are all about as long; ragged ones at most a long word shorter.
    """
    full = full_line(lines)
    if not full:
        return [False] * len(lines)
    short = PARAMS.paragraph_end * full
    following = [*lines[1:], ""]
    return [
        0 < len(line) < short and ends_with_stop(line) and not following_line[:1].islower()
        for line, following_line in zip(lines, following)
    ]
