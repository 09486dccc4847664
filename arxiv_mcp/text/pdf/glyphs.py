"""Accents and odd glyphs of TeX fonts made into the letters a reader sees, in both engines.

TeX draws an accent as a glyph of its own over the letter (`\\'e`: an acute, then a move
back, then "e"), and a font without a Unicode map gives it as a spacing character next to
the letter. In stream order (pypdf) it comes just before the letter ("M´exico"), set apart
by spaces ("J ¨ anos"), after the letter for math accents ("Sˆ") and for a cedilla ("c¸"),
or doubled before a letter that already has it ("Cient ´ ífica"): `compose_accents` makes
each one letter. pdfium orders characters by position and often moves a slightly raised
accent to the end of its line ("D. Muller and J. Fano ¨"), where no text rule can tell its
letter: `pdfium_text` puts each accent on the letter its box is drawn over, from pdfium's
character boxes. pdfium also gives TeX's math italic ℓ (glyph "lscript" at the grave's code,
unknown to its glyph list) as a backtick; the font's name tells them apart.
"""

from __future__ import annotations

import ctypes
import itertools
import re
import unicodedata
from collections.abc import Iterator
from typing import Any

from .params import PARAMS
from .pdfium_compat import Box, char_calls

SPACING_TO_COMBINING = {
    "\u00b4": "\u0301",  # acute
    "\u00a8": "\u0308",  # diaeresis
    "\u02c6": "\u0302",  # circumflex
    "\u02dc": "\u0303",  # tilde
    "\u02c7": "\u030c",  # caron
    "\u02d8": "\u0306",  # breve
    "\u02da": "\u030a",  # ring
    "\u02dd": "\u030b",  # double acute
    "\u02d9": "\u0307",  # dot above
    "\u0060": "\u0300",  # grave: also a plain backtick, so only straight before a vowel
    "\u00b8": "\u0327",  # cedilla: under c, s, t, on either side
}
_GRAVE, _CEDILLA, _DIAERESIS = "\u0060", "\u00b8", "\u00a8"
_LETTER = r"[^\W\d_]"
_ACCENT_CLASS = f"[{''.join(SPACING_TO_COMBINING)}]"
# a math accent may sit on a symbol that is not a letter: \tilde\Delta, \hat\nabla, \bar\partial
_BASE = r"[^\W\d_]|[\u2202\u2206\u2207]"
_SPACING_ACCENT = re.compile(
    f"(?P<pre>{_BASE})?(?P<s1> ?)(?P<accent>(?P<first>{_ACCENT_CLASS})(?: ?(?P=first))*)(?P<s2> ?)(?P<post>{_BASE})?"
)
ANY_ACCENT = re.compile(_ACCENT_CLASS)
_DOTLESS = {"\u0131": "i", "\u0237": "j"}


def with_accent(letter: str, accent: str) -> str:
    """`letter` with the spacing `accent` on it; once only (a doubled accent is one)."""
    mark = SPACING_TO_COMBINING[accent]
    if mark in unicodedata.normalize("NFD", letter):
        return letter
    return unicodedata.normalize("NFC", _DOTLESS.get(letter, letter) + mark)


def compose_accents(text: str) -> str:
    """Each spacing accent next to its letter (see the module docstring) made part of it."""
    # The pattern opens with optional groups, so a scan of the whole page tries it at every
    # character; a match holds a run of accents (one space apart at most) and at most two
    # characters either side of it, so only those stretches are scanned, with the same matches.
    if not _has_accent(text):  # most pages: a C search per accent, not a pattern scan of the page
        return text
    pieces: list[str] = []
    done = 0
    for start, end in _accent_stretches(text):
        pieces += (text[done:start], _SPACING_ACCENT.sub(_compose_accent, text[start:end]))
        done = end
    return "".join(pieces) + text[done:] if pieces else text


def _has_accent(text: str) -> bool:
    return any(accent in text for accent in SPACING_TO_COMBINING)


def _accent_stretches(text: str) -> Iterator[tuple[int, int]]:
    """Disjoint [start, end) spans around the accents of `text`, each holding every match that
    can touch its accents (accents under six characters apart share one span)."""
    start = end = -1
    for accent in ANY_ACCENT.finditer(text):
        at = accent.start()
        if start >= 0 and at - 2 > end:
            yield start, end
            start = -1
        if start < 0:
            start = max(0, at - 2)
        end = min(len(text), at + 3)
    if start >= 0:
        yield start, end


def _compose_accent(match: re.Match[str]) -> str:
    pre, s1, accents, s2, post = (match["pre"] or "", match["s1"], match["accent"], match["s2"], match["post"] or "")
    if len(set(accents.replace(" ", ""))) > 1:
        return match[0]
    accent = accents[0]  # "´ ´ı": the same accent twice is one
    if accent == _CEDILLA:
        if pre in "cCsStT" and pre and not s1:
            return with_accent(pre, accent) + s2 + post
        if post in "cCsStT" and post and not s2:
            return pre + s1 + with_accent(post, accent)
        return match[0]
    if accent == _GRAVE:
        return pre + s1 + with_accent(post, accent) if post in "aeiouAEIOU" and post and not s2 else match[0]
    if post and s1 == s2:  # "M´exico" or "J ¨ anos": the accent belongs to the next letter
        return pre + with_accent(post, accent) if pre else s1 + with_accent(post, accent)
    if post and s1 and accent == _DIAERESIS and post.islower() and _lone_letter(match):
        return pre + with_accent(post, accent)  # "f ¨ur", "M ¨unchen": TeX's umlaut after a lone letter
    if post and s1:  # "l’ ´Ecole": a word starting with an accented letter
        return pre + s1 + with_accent(post, accent)
    if pre and not s1:  # "Sˆ", "R˙ 2": a math accent after its letter
        return with_accent(pre, accent) + s2 + post
    return match[0]


def _lone_letter(match: re.Match[str]) -> bool:
    """The accent's letter before it is a word of one letter: "f" of "f ¨ur", "M" of "M ¨uller".

    pypdf sets a space before TeX's umlaut where the accent, centred over the next letter,
    starts a little after the one before; a one-letter word before a word starting with an
    umlaut (German's "über", "ähnlich") is rarer than "für", "München", "Zürich", "Müller"."""
    start = match.start("pre")
    return start >= 0 and (start == 0 or match.string[start - 1].isspace())


# --- pdfium: accents placed by their boxes, ℓ from a math italic font ---------------------

# TeX's math italic fonts (OML encoding: Computer/Latin Modern, txfonts, pxfonts, newtx; the
# raw rtxmi/rpxmi of txfonts and pxfonts too)
_MATH_ITALIC = re.compile(r"(?:^|\+)(?:cm|lm|r?n?tx|r?n?px)mib?\d*$|lmmathitalic", re.I)


def pdfium_text(raw: Any, textpage: Any, text: str, boxes: dict[int, Box | None]) -> str:
    """pdfium's page `text` with its accents on their letters, ℓ for a math backtick, code
    not letter-spaced, and its inline scripts on their lines. `boxes`: the characters' boxes
    read already (by index), most of those the script pass asks for (lines' ends)."""
    page = _Chars(raw, textpage, boxes)
    edits = _glyphs_placed(page, text)
    _close_up_letter_spacing(page, text, edits)
    _scripts_joined(page, text, edits)
    if not edits:  # most pages: the text as pdfium gave it, not taken apart and joined again
        return text
    # a page has a few edits in thousands of characters: the text between them is sliced,
    # not taken apart into a list of characters and joined again (a millisecond on a paper)
    pieces: list[str] = []
    done = 0
    for at in sorted(edits):
        pieces += (text[done:at], edits[at])
        done = at + 1
    pieces.append(text[done:])
    return "".join(pieces)


def _glyphs_placed(page: _Chars, text: str) -> dict[int, str]:
    """The characters of `text` to change (by place), each spacing accent moved onto its
    letter ("" where it was)."""
    chars: dict[int, str] = {}
    if not _has_accent(text):  # a C search each: most pages have none
        return chars
    offset = drift = 0
    at = 0
    simple = one_unit_each(text)
    for match in ANY_ACCENT.finditer(text):
        offset += match.start() - at if simple else utf16_length(text[at : match.start()])
        at = match.start()
        index = page.find(match[0], offset + drift)
        if index is None:
            continue
        drift = index - offset
        if match[0] == _GRAVE and _MATH_ITALIC.search(page.calls.font_name(page.textpage, index).decode("latin-1")):
            chars[at] = "\u2113"
            continue
        letter = _letter_under(page, index, match[0] == _CEDILLA)
        where = None if letter is None else at + letter - index
        now = chars.get(where, text[where]) if where is not None and 0 <= where < len(text) else ""
        if where is not None and now and _same(now, text[where]):
            chars[where] = with_accent(now, match[0])
            chars[at] = ""
    return chars


def _same(now: str, was: str) -> bool:
    """The letter is still the one pdfium gave (perhaps with an accent already put on it)."""
    return unicodedata.normalize("NFD", now)[:1] == unicodedata.normalize("NFD", _DOTLESS.get(was, was))[:1]


def utf16_length(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-16-le")) // 2


def one_unit_each(text: str) -> bool:
    """Every character of `text` is one UTF-16 unit, so its place in the text is pdfium's index."""
    # an astral character (𝓁, 𝑥) is two units; encoding is one C pass, a pattern scan was
    # several times slower, on every page, at each of the passes that ask
    return text.isascii() or len(text.encode("utf-16-le", "surrogatepass")) == 2 * len(text)


def find_char(raw: Any, textpage: Any, code: int, expected: int, count: int) -> int | None:
    unicode = char_calls(raw).unicode
    if 0 <= expected < count and unicode(textpage, expected) == code:
        return expected
    for step in range(1, PARAMS.char_search):
        for index in (expected + step, expected - step):
            if 0 <= index < count and unicode(textpage, index) == code:
                return index
    return None


def _letter_under(page: _Chars, index: int, below: bool) -> int | None:
    """The letter the accent at `index` is drawn over (under, for a cedilla), found by position.

    pdfium may have put the accent at the end of its letter's line, or on a line of its own.
    """
    accent = page.box(index)
    if accent is None:
        return None
    # a point just past the accent's edge, further from it than the tolerance (pdfium would
    # answer with the accent itself)
    height = max(accent[3] - accent[2], 1.0)
    reach = PARAMS.accent_reach * height
    y = accent[3] + reach if below else accent[2] - reach
    other = _index_at(page, (accent[0] + accent[1]) / 2, y, height)
    if not 0 <= other < page.count or other == index:
        return None
    char = chr(page.calls.unicode(page.textpage, other))
    box = page.box(other)
    if not char.isalpha() or char in SPACING_TO_COMBINING or box is None or not _touches(accent, box, below):
        return None
    return other


def _index_at(page: _Chars, x: float, y: float, height: float) -> int:
    """pdfium's character at (x, y), or else the nearest within PARAMS.char_tolerance
    across and `height` up or down (-1: none).

    pdfium answers with the first character (in page order) whose box holds the point, else
    the nearest whose box widened by the tolerance does; it widens and tests every box of the
    page for that. Asked without a tolerance, it only tests the boxes (half the work), and a
    box holding the point is the same answer: the tolerance is asked for only when none does.
    """
    index = int(page.raw.FPDFText_GetCharIndexAtPos(page.textpage, x, y, 0.0, 0.0))
    if index >= 0:
        return index
    return int(page.raw.FPDFText_GetCharIndexAtPos(page.textpage, x, y, PARAMS.char_tolerance, height))


def _touches(accent: tuple[float, float, float, float], letter: tuple[float, float, float, float], below: bool) -> bool:
    """The accent sits on the letter: just above it (a cedilla: just under), not a line away."""
    height = letter[3] - letter[2]
    if below:
        return letter[2] - height <= accent[3] <= letter[2] + height / 2
    return letter[2] + height / 2 <= accent[2] <= letter[3] + height / 2


# --- pdfium: a code listing not letter-spaced ----------------------------------------------

# pdfium adds a space wherever the gap between two characters looks like a word space; a
# listing drawn a character at a time with a gap after each comes out "d e f f o o". A space
# pdfium made up (not a glyph of the page) between two characters of a fixed-pitch font whose
# origins are less than 1.1 em apart is not a word space: a character is 0.5-0.6 em wide
# there, and a word space one more character.
_SPACED = re.compile(r"(?<!\S)\S(?: \S){2,}(?!\S)")
# three small letters apart: code's identifiers are in small letters; capitals set apart are
# a table or a grid of tokens ("C C L L"), drawn with real spaces
THREE_LETTERS = re.compile(r"(?<!\S)[a-zß-öø-ÿ] [a-zß-öø-ÿ] [a-zß-öø-ÿ](?!\S)")
# the last two of three small letters apart: a pattern opening with a plain space scans a page
# in half the time of one opening with a lookbehind, and is rarer than its letters
_TWO_LETTERS_APART = re.compile(r" [a-zß-öø-ÿ] [a-zß-öø-ÿ](?!\S)")
MONO_NAME = re.compile(r"courier|mono|typewriter|consol|(?:^|\+)[a-z]*tt\d|pcrr", re.I)
_FIXED_PITCH = 1  # the FixedPitch bit of a font's flags


def _close_up_letter_spacing(page: _Chars, text: str, chars: dict[int, str]) -> None:
    simple = one_unit_each(text)
    for match in _spaced_letters(text):
        offset = match.start() if simple else utf16_length(text[: match.start()])
        first = page.find(match[0][0], offset)
        if first is None or not _fixed_pitch(page, first):
            continue
        for at in range(match.start() + 1, match.end(), 2):
            index = page.find(" ", first + at - match.start())
            if index is not None and page.raw.FPDFText_IsGenerated(page.textpage, index) == 1 and _close(page, index):
                chars[at] = ""


def _spaced_letters(text: str) -> Iterator[re.Match[str]]:
    """The letter-spaced stretches of `text` that hold three small letters apart.

    Code rarely writes "a b c"; math often does, in a proportional font. Most pages hold no
    three small letters apart at all: a stretch's three letters are three in the page too
    (its ends are white space or the page's ends), so the page is searched for them first,
    and stretches, which never cross a line end, looked for from the line of the first on.
    Three letters apart end in two letters apart: these are looked for first, the same way.
    """
    second = _TWO_LETTERS_APART.search(text)
    first = None if second is None else THREE_LETTERS.search(text, text.rfind("\n", 0, second.start()) + 1)
    if first is None:
        return
    for match in _SPACED.finditer(text, text.rfind("\n", 0, first.start()) + 1):
        if THREE_LETTERS.search(match[0]):
            yield match


def _fixed_pitch(page: _Chars, index: int) -> bool:
    name, flags = page.calls.font(page.textpage, index)
    return bool(flags & _FIXED_PITCH or MONO_NAME.search(name.decode("latin-1")))


def _close(page: _Chars, space: int) -> bool:
    """The characters either side of a made-up space are close together."""
    before, after = _origin(page, space - 1), _origin(page, space + 1)
    size = page.size(space - 1)
    return before is not None and after is not None and 0 < after - before < PARAMS.code_pitch * size


def _origin(page: _Chars, index: int) -> float | None:
    x, y = ctypes.c_double(), ctypes.c_double()
    return x.value if page.raw.FPDFText_GetCharOrigin(page.textpage, index, ctypes.byref(x), ctypes.byref(y)) else None


# --- pdfium: a super- or subscript kept on its line ------------------------------------------

# pdfium starts a new line wherever the baseline moves, so an inline script comes out as a
# line of its own between two halves of its line ("L", "2", "(Ω) for every"). A short line
# whose first character continues the line before it (to its right, near its height) and
# whose last is continued by the line after is put back between them.


def _scripts_joined(page: _Chars, text: str, chars: dict[int, str]) -> None:
    """Adds to `chars` (changes to pdfium's `text`, by place) each inline script line put back on its line."""
    lines = text.split("\r\n")
    short, neighbour = PARAMS.script_line, PARAMS.script_neighbour
    if len(lines) < 3 or all(len(line) > short for line in lines[1:-1]):
        return
    starts = [0]  # where each line starts in `text`, and (offsets) in pdfium's UTF-16 units
    for line in lines:
        starts.append(starts[-1] + len(line) + 2)
    offsets = (
        starts
        if one_unit_each(text)
        else list(itertools.accumulate((utf16_length(line) + 2 for line in lines), initial=0))
    )
    base = 0  # the last line before this one that is not a script line
    for number in range(1, len(lines) - 1):
        line, previous, following = lines[number], lines[number - 1], lines[number + 1]
        if len(previous) > short:
            base = number - 1
        if not line or len(line) > short or not previous or not following:
            continue
        if len(previous) <= neighbour and len(following) <= neighbour:
            continue  # a run of short lines is display math (a fraction, a sum's limits)
        last, first = (previous[-1], offsets[number] - 3), (line[0], offsets[number])
        before = _continues(page, last, first)
        # a subscript under a superscript starts back at its left: a script line (smaller than
        # the text it is on) after a script line, or after a line that ends in a script. The
        # size against the text's is tested first: most short lines are not scripts (a
        # table's cells, an equation's number), while a line of text often ends in a raised
        # citation ("... as shown^12"): on the corpus the first fails 87% of the time, the
        # second 27%
        if (
            before is None
            and lines[base]
            and _smaller(page, first, (lines[base][0], offsets[base]))
            and (len(previous) <= short or _smaller_at_end(page, previous, offsets[number - 1]))
        ):
            before = _continues(page, last, first, stacked=True)
        if before is None:
            continue
        after = _continues(page, (line[-1], offsets[number + 1] - 3), (following[0], offsets[number + 1]), True)
        if after is not None:  # each line end is "\r\n" in `text`: its "\r" becomes the join
            for end, joined in ((starts[number] - 2, before), (starts[number + 1] - 2, after)):
                chars[end], chars[end + 1] = joined, ""


class _Chars:
    """pdfium's answers about the characters of one page, for the passes above, each place,
    box and size asked of it once: the script pass asks about a line's first and last
    characters again for each test it makes."""

    def __init__(self, raw: Any, textpage: Any, boxes: dict[int, Box | None]) -> None:
        self.raw, self.textpage = raw, textpage
        self.calls = calls = char_calls(raw)
        self._unicode, self._box, self._size = calls.unicode, calls.box, calls.font_size
        self.count = raw.FPDFText_CountChars(textpage)
        self._found: dict[tuple[str, int], int | None] = {}
        self._boxes = boxes
        self._sizes: dict[int, float] = {}

    # each answer is looked up once (get, not a test and an index): the pass asks thousands
    def find(self, char: str, where: int) -> int | None:
        """The index of `char`, looked for near where the text puts it."""
        key = (char, where)
        found = self._found.get(key, _UNASKED)
        if found is _UNASKED:
            code = ord(char)
            # find_char's first try, here: a character is most often where the text puts it
            if 0 <= where < self.count and self._unicode(self.textpage, where) == code:
                found = where
            else:
                found = find_char(self.raw, self.textpage, code, where, self.count)
            self._found[key] = found
        return found  # type: ignore[return-value]

    def box(self, index: int) -> tuple[float, float, float, float] | None:
        box = self._boxes.get(index, _UNASKED)
        if box is _UNASKED:
            box = self._boxes[index] = self._box(self.textpage, index)
        return box  # type: ignore[return-value]

    def size(self, index: int) -> float:
        size = self._sizes.get(index)
        if size is None:
            size = self._sizes[index] = self._size(self.textpage, index)
        return size


_UNASKED = object()


def _smaller_at_end(page: _Chars, line: str, start: int) -> bool:
    return _smaller(page, (line[-1], start + utf16_length(line) - 1), (line[0], start))


def _smaller(page: _Chars, small: tuple[str, int], large: tuple[str, int]) -> bool:
    """The character `small` is in a clearly smaller size than `large` (each: character, where)."""
    found = page.find(*small), page.find(*large)
    if found[0] is None or found[1] is None:
        return False
    return page.size(found[0]) < PARAMS.script_smaller * page.size(found[1])


def _continues(page: _Chars, last: tuple[str, int], first: tuple[str, int], stacked: bool = False) -> str | None:
    """ "" or " " when the character `first` goes on the line of the character `last`; None if not.

    Each is a character and where the text puts it in the page; it is looked for near there.
    """
    found = page.find(*last), page.find(*first)
    if found[0] is None or found[1] is None or found[0] >= found[1]:
        return None
    left, right = page.box(found[0]), page.box(found[1])
    size = page.size(found[0])
    if left is None or right is None or size <= 0:
        return None
    gap = right[0] - left[1]
    # a script stacked on another may start back at the other's left, after the wider one,
    # and a script's height away
    params = PARAMS
    reach = params.script_reach[stacked] * size
    height = max(left[3] - left[2], size / 2) * params.script_height[stacked]
    middle = (right[2] + right[3]) / 2
    back = params.script_back[stacked] * size
    margin = params.script_middle * height
    if not (-back <= gap <= reach and left[2] - margin <= middle <= left[3] + margin):
        return None
    # a letter against a letter is set apart ("A vac", not "Avac", a word nobody wrote)
    return " " if gap > params.script_space * size or (last[0].isalpha() and first[0].isalpha()) else ""
