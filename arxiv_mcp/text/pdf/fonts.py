"""Each engine's lines of a page, placed and styled (lines.Line), and pypdf's fonts.

pdfium: `pdfium_lines` reads a text page's lines; pypdf: `FontSpy`, its text visitor, makes
them of the runs it reports. layout takes the texts in a heading font (lines.heading_fragments)
as evidence for a section heading; an engine that reports nothing gives no evidence rather
than wrong evidence. pypdf's runs of a fixed-pitch font also tell which letter-spaced texts
are code listings to close up (pdfium's are closed up by position, in glyphs).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterator, Sequence
from typing import Any

from .forms import drawn_forms
from .glyphs import MONO_NAME, THREE_LETTERS, find_char, one_unit_each, utf16_length
from .layout import may_go_on
from .lines import Line, Piece, Style
from .params import PARAMS
from .pdfium_compat import Box, CharCalls, char_calls
from .pypdf_compat import forget
from .tables import measured, near_captions, pdfium_pieces

_BOLD_NAMES = ("bold", "black", "heavy", "semibold", "demi", "medi", "cmbx", "cmssbx", "sfbx", "sfrb")


def bold_name(name: str) -> bool:
    lowered = name.lower().partition("+")[2] or name.lower()  # "ABCDEF+CMBX10": the subset tag out
    return any(marker in lowered for marker in _BOLD_NAMES)


def pdfium_lines(raw: Any, textpage: Any, text: str, boxes: dict[int, Box | None]) -> list[Line]:
    """The lines of a pdfium page `text`, each where its first and last characters' boxes put
    it, and sampled for their style: every few lines (the body), and every line that could be
    a heading, each with its first letter's style. The boxes read go into `boxes` (by
    character index), for the passes after this one to ask pdfium no second time.

    pdfium's character indexes count UTF-16 units, its text ends lines with \r\n, and a few
    of its characters do not appear in the text at all: a sampled line's first letter is
    looked up near where the text puts it, and the drift carried on to the lines after it.
    """
    lines: list[Line] = []
    offset = drift = 0
    count = raw.FPDFText_CountChars(textpage)
    simple = one_unit_each(text)  # then a character's index is its place in the text
    # a sample costs a few pdfium calls: bound once, and the first try of find_char inlined
    calls = char_calls(raw)
    get_unicode, get_size, get_weight, get_font = calls.unicode, calls.font_size, calls.font_weight, calls.font_name
    ends, add, heading_like = calls.ends, lines.append, _HEADING_LIKE.match
    body_sample, max_fragment, bold_weight = PARAMS.body_sample, PARAMS.max_fragment, PARAMS.bold_weight
    styles: dict[tuple[float, bytes], Style] = {}  # by size and font name: a page has a handful
    broken: str | None = None  # the line before, sampled: perhaps a numbered title broken off mid-phrase
    texts = text.split("\r\n")
    placed = near_captions(texts)  # the lines whose words are placed (tables)
    for number, line in enumerate(texts):
        length = len(line) if simple else utf16_length(line)
        lead = len(line) - len(line.lstrip()) if not line or line[0].isspace() else 0
        if lead == len(line):
            offset += length + 2
            broken = None
            continue
        # a line that could be a heading (see _HEADING_LIKE), tested here: a call per line cost more than the
        # test; whether the line before broke off is asked last, when nothing else has the line sampled
        sampled = (
            number % body_sample == 0
            or ((len(line) <= 103 or lead) and heading_like(line) is not None)
            or (broken is not None and may_go_on(broken))
        )
        letter = _LETTER.search(line) if sampled else None
        broken = None
        style = None
        if letter is not None:
            first = letter.start()
            expected = offset + drift + (first if simple else utf16_length(line[:first]))
            code = ord(line[first])
            found = 0 <= expected < count and get_unicode(textpage, expected) == code
            index = expected if found else find_char(raw, textpage, code, expected, count)
            if index is not None:
                drift = index - expected + drift
                # The weight alone misleads: pdfium reports 250 for cm-super's SFBX (bold), so a
                # bold font name counts too; and it reads the weight from the stem, which some
                # files make a bold one's for every font (see lines.heading_fragments).
                size, font = get_size(textpage, index), get_font(textpage, index)
                style = styles.get((size, font))
                if style is None:  # a font's weight is its own: asked once a style, not once a line
                    heavy = get_weight(textpage, index) >= bold_weight
                    style = styles[size, font] = Style(size, _bold_font(font), heavy)
                # its next line, however it starts, may end the title: layout joins the two
                # when both are in the heading font ("... from the macro to" / "the nanoscale")
                broken = line if len(line) <= max_fragment else None
        start = offset + drift
        if "\ufffe" in line:
            lines.extend(_hyphen_parts(calls, textpage, line, (start, lead, start + length - 1), style))
        else:
            head, tail = ends(textpage, start + lead, start + length - 1)
            boxes[start + lead], boxes[start + length - 1] = head, tail
            pieces = pdfium_pieces(ends, textpage, line, start, simple) if placed[number] else None
            add(_placed(line, head, tail, style, pieces))
        offset += length + 2
    return lines


def _placed(
    text: str, head: Box | None, tail: Box | None, style: Style | None, pieces: list[Piece] | None = None
) -> Line:
    """A line whose first and last characters have the boxes `head` and `tail` (0 for an edge
    pdfium has no box for)."""
    left, bottom = (head[0], head[2]) if head else (0.0, 0.0)
    return Line(text, left, tail[1] if tail else left, bottom, style, pieces)


def _hyphen_parts(
    calls: CharCalls, textpage: Any, line: str, where: tuple[int, int, int], style: Style | None
) -> Iterator[Line]:
    """A line pdfium broke at a hyphen (U+FFFE) as the lines of the text the engine makes of
    it ("... Aux-Loss-" / "Free Models"), each styled as the line and placed where its
    characters are. `where`: the line's first character's index, the spaces it opens with,
    its last character's index; a part's indexes are estimated by its place in the line."""
    first, lead, last = where
    parts = line.replace("\ufffe", "-\n").split("\n")
    for number, part in enumerate(parts):
        end = last if number == len(parts) - 1 else first + len(part) - 1
        yield _placed(part, *calls.ends(textpage, first + (lead if number == 0 else 0), end), style)
        first = end + 1


@functools.lru_cache(maxsize=512)
def _bold_font(name: bytes) -> bool:
    return bold_name(name.decode("latin-1"))


_LETTER = re.compile(r"[^\W\d_]")
# Each look-up costs a few pdfium calls: the body's size and weight are taken from every
# third line (PARAMS.body_sample), and every line that could be a heading (short, starting
# with a number or a capital) is looked up.
# A longer line starting with no space cannot match: the pattern, tried, would count its
# first 101 characters and back off one at a time looking for the end (tested first).
_HEADING_LIKE = re.compile(r"\s*[0-9A-Z\u00c0-\u00de\u0391-\u03a9].{0,101}$")


# A code listing drawn a character at a time, with a gap after each, comes out of pypdf
# letter-spaced ("l o a d _ d a t a s e t"): pypdf takes a gap over half a default space (the
# width it assumes for a TeX font, which has no space glyph) for a word space. In a run of a
# fixed-pitch font, a stretch of single characters set apart by single spaces is closed up
# when it holds three small letters in a row (code rarely writes "a b c"); two spaces or more are a
# real space. Proportional text is left alone: its single letters apart are math.
_SPACED = re.compile(r"(?<!\S)\S(?: \S)+(?!\S)")


def closed_up(run: str) -> str:
    """A letter-spaced run with its stretches of single characters closed up (see above)."""
    if not THREE_LETTERS.search(run):
        return run
    return re.sub(r"  +", " ", _SPACED.sub(lambda m: m[0].replace(" ", ""), run))


def heavy_stem(font: Any) -> bool:
    """Whether a pypdf font dictionary's descriptor gives a bold weight, read from its stem
    width as pdfium reads it (5 x StemV below 140): a bold font whose name says nothing
    (acmart's Linux Libertine "LinLibertineTB", StemV 130) is then bold in both engines."""
    if not hasattr(font, "get"):
        return False
    descriptor = _resolved(font.get("/FontDescriptor"))
    if descriptor is None and isinstance(_resolved(font.get("/DescendantFonts")), list):
        descendant = _resolved(_resolved(font["/DescendantFonts"])[0])
        descriptor = _resolved(descendant.get("/FontDescriptor")) if hasattr(descendant, "get") else None
    try:
        stem = float(descriptor.get("/StemV", 0)) if hasattr(descriptor, "get") else 0.0
    except (TypeError, ValueError):
        return False
    return (stem * 5 if stem < 140 else stem * 4 + 140) >= PARAMS.bold_weight


def fixed_pitch(font: Any) -> bool:
    """Whether a pypdf font dictionary is a fixed-pitch (typewriter) font."""
    if not hasattr(font, "get"):
        return False
    if MONO_NAME.search(str(font.get("/BaseFont", ""))):
        return True
    descriptor = font.get("/FontDescriptor")
    if hasattr(descriptor, "get") and int(descriptor.get("/Flags", 0)) & 1:
        return True
    widths = [float(w) for w in font.get("/Widths", ()) if float(w) > 0]
    return len(widths) >= 16 and max(widths) - min(widths) < 1


class FontSpy:
    """A pypdf `visitor_text` that makes the page's lines (lines.Line: each where its runs'
    matrices put it, with its first letter's size and boldness) of the runs pypdf reports up to
    each line end, and records the letter-spaced runs of fixed-pitch fonts (`letter_spaced`:
    each run and what it should read).

    pypdf calls it for every text run of a page, thousands of times: a call does the least it
    can; a run's size and font are read only when it opens a line (or may be code), its place
    (an origin's x: a few multiplications) always.
    """

    def __init__(self) -> None:
        self.letter_spaced: dict[str, str] = {}
        # per font object of the page: the object itself (so its id is not reused while the
        # page is read), its kind (1 when its name is bold, + 2 when its stem is a bold one's),
        # whether it is fixed-pitch (asked lazily).
        # A page draws thousands of runs in a handful of fonts: reading a font's dictionary
        # for every run was most of what this visitor cost.
        self._fonts: dict[int, list[Any]] = {}
        # each closed line: its runs, where each of its runs with text starts, where its
        # first run starts, where its last run ends, its first letter's size and font kind
        # (made lines.Line records by page_lines, the pieces of the few lines kept only)
        self._closed: list[tuple[list[str], list[float], tuple[float, float], float, tuple[float, int]]] = []
        self._runs: list[str] = []  # the open line's
        self._starts: list[float] = []  # where its runs with text start (tables)
        self._style: tuple[float, int] | None = None  # its first letter's size and font kind
        self._start = (0.0, 0.0)  # where its first run starts
        self._end = 0.0  # where its last run ends, estimated (see lines.Line.x1)

    def __call__(self, text: str, cm: Sequence[float], tm: Sequence[float], font: Any, size: float) -> None:
        if "\n" in text:
            for number, part in enumerate(text.split("\n")):
                if number:
                    self._close()
                self(part, cm, tm, font, size)
            return
        if not text or text.isspace():
            if self._style is not None:
                self._runs.append(text)
            return
        known: list[Any] | None = None
        # where the run starts: its text matrix's origin through the graphics matrix
        x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
        if self._style is None:
            known = self._font(font)
            t0, t1, t2, t3 = tm[0], tm[1], tm[2], tm[3]
            a = t0 * cm[0] + t1 * cm[2]
            b = t0 * cm[1] + t1 * cm[3]
            c = t2 * cm[0] + t3 * cm[2]
            d = t2 * cm[1] + t3 * cm[3]
            self._style = (float(size) * (_sqrt(abs(a * d - b * c)) or 1.0), known[1])
            self._start = (x, tm[4] * cm[1] + tm[5] * cm[3] + cm[5])
        self._end = x + len(text.rstrip()) * self._style[0] * PARAMS.mean_letter_width
        self._runs.append(text)
        self._starts.append(x)
        if THREE_LETTERS.search(text):
            known = known or self._font(font)
            if known[2] is None:
                known[2] = fixed_pitch(font)
            if known[2]:
                self.letter_spaced[text] = closed_up(text)

    def _font(self, font: Any) -> list[Any]:
        known = self._fonts.get(id(font))
        if known is None:
            base = font.get("/BaseFont", "") if hasattr(font, "get") else ""
            known = self._fonts[id(font)] = [font, bold_name(str(base)) + 2 * heavy_stem(font), None]
        return known

    def _close(self) -> None:
        if self._style is not None:  # else no run is open: one with text opens the line
            self._closed.append((self._runs, self._starts, self._start, self._end, self._style))
            self._runs, self._starts, self._style = [], [], None

    def closed_up(self, text: str) -> str:
        """The page `text` pypdf made with the letter-spaced runs seen closed up."""
        for run, closed in self.letter_spaced.items():
            text = text.replace(run, closed)
        return text

    def page_lines(self) -> list[Line]:
        """The page's lines, the last one closed; the runs kept of those near a table's
        caption that read as rows (tables.near_captions), each where it starts."""
        self._close()
        texts = ["".join(runs) for runs, *_ in self._closed]
        lines = []
        for text, kept, (runs, starts, (x, y), end, (size, kind)) in zip(texts, near_captions(texts), self._closed):
            pieces = measured(_runs_placed(runs, starts), size) if kept and starts else None
            lines.append(Line(text, x, end, y, Style(size, bool(kind & 1), bool(kind & 2)), pieces))
        return lines


def _runs_placed(runs: list[str], starts: list[float]) -> list[Piece]:
    """A line's runs with text, each with where it starts (its end left to tables.measured)."""
    return [(x, x, text) for x, text in zip(starts, [run for run in runs if run and not run.isspace()])]


_sqrt = math.sqrt


# pypdf takes a font's word space from the width of its code 32 and puts a space wherever a
# gap is over about half of it. A TeX font in the T1 (EC) encoding has the visible space "␣"
# at 32, 500 units wide (TeX Gyre Termes: its real space is 250): every gap of a justified
# line fell short of that, and words ran together ("producedcarbondust"). No proportional
# text font has a space of 0.4 em or more (PARAMS.max_space_width), so such a width is not the space's: it is set to
# 0 in the in-memory fonts of the page and of the forms it draws (a figure made by pdflatex
# and included as a form labels it in such a font; the file's bytes are untouched), and pypdf
# then uses its default space, as for a TeX font with no glyph at 32.


def page_fonts(page: Any) -> dict[Any, Any]:
    """The /Font resources of a pypdf page or form ({} when it has none or they are broken)."""
    resources: Any = _resolved(page.get("/Resources"))
    fonts: Any = _resolved(resources.get("/Font")) if isinstance(resources, dict) else None
    return fonts if isinstance(fonts, dict) else {}


def forget_wide_spaces(page: Any) -> None:
    """Drop an implausible code-32 width from the simple fonts of a pypdf page and of the forms
    it draws (see above)."""
    seen: set[int] = set()
    for owner in (page, *drawn_forms(page)):
        for reference in page_fonts(owner).values():
            font: Any = _resolved(reference)
            if isinstance(font, dict) and id(font) not in seen:
                seen.add(id(font))
                _forget_wide_space(font)


def _forget_wide_space(font: Any) -> None:
    widths, first = _resolved(font.get("/Widths")), font.get("/FirstChar")
    if not isinstance(widths, list) or not isinstance(first, int) or not 0 <= 32 - first < len(widths):
        return
    if float(widths[32 - first]) >= PARAMS.max_space_width and _space_at_32(font) and not fixed_pitch(font):
        from pypdf.generic import NumberObject

        widths[32 - first] = NumberObject(0)
        forget(font)  # a Font pypdf built from it before (a form past MAX_FORMS drew it) is stale now


def _space_at_32(font: Any) -> bool:
    """Whether the font's encoding says code 32 is the space: its /Differences leave 32 alone or
    name it `space`. A font with no /Differences (a symbol font's own encoding: CMSY's arrow,
    CMMI's psi at 32) may draw anything there, and its width is that glyph's."""
    encoding = _resolved(font.get("/Encoding"))
    differences = _resolved(encoding.get("/Differences")) if isinstance(encoding, dict) else None
    if not isinstance(differences, list):
        return False
    code, named = 0, None
    for item in differences:
        if isinstance(item, int):
            code = item
            continue
        if code == 32:
            named = str(item)
        code += 1
    return named in (None, "/space")


def _resolved(value: Any) -> Any:
    return value.get_object() if hasattr(value, "get_object") else value
