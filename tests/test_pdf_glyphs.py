"""pdfium's glyph passes (arxiv_mcp.text.pdf.glyphs): their shortcuts find what the plain scans find."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from arxiv_mcp.text.pdf import glyphs

HAS_PDFIUM = importlib.util.find_spec("pypdfium2") is not None
REVTEX_2009 = Path(__file__).parent / "fixtures" / "pdf" / "0908.0054v1.pdf"


def _spaced_by_definition(text: str) -> list[tuple[int, int]]:
    return [match.span() for match in glyphs._SPACED.finditer(text) if glyphs.THREE_LETTERS.search(match[0])]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "d e f f o o",
        "x d e f",  # the stretch starts before its three letters
        "xd e f g",  # three letters apart inside a stretch that starts at a word
        "A B C and a b\r\nc d e",
        "one line\r\nd e f\r\n",
        "Ω a b c",
        "a b C d e f",
        "é è ê",
        "a b\r\nc",  # not across a line end
    ],
)
def test_spaced_letters_are_the_spaced_stretches_holding_three_letters(text):
    assert [match.span() for match in glyphs._spaced_letters(text)] == _spaced_by_definition(text)


def test_spaced_letters_agree_on_random_pages():
    rng = random.Random(7)
    alphabet = "ab z\r\nXY1 éΩ"
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        assert [match.span() for match in glyphs._spaced_letters(text)] == _spaced_by_definition(text), text


@pytest.mark.skipif(not HAS_PDFIUM, reason="pypdfium2 missing")
def test_the_letter_under_an_accent_is_pdfiums_answer_with_its_tolerance():
    import pypdfium2

    document = pypdfium2.PdfDocument(REVTEX_2009.read_bytes())
    try:
        page = document[0]
        textpage = page.get_textpage()
        raw, handle = pypdfium2.raw, textpage.raw
        chars = glyphs._Chars(raw, handle, {})
        rng = random.Random(5)
        points = []
        for index in rng.sample(range(chars.count), 60):
            box = chars.box(index)
            if box is not None:  # on a box, just past its edges, and between lines
                middle = (box[0] + box[1]) / 2
                points += [(middle, (box[2] + box[3]) / 2), (box[1] + 0.3, box[2]), (middle, box[2] - 2.5)]
        width, height = page.get_size()
        points += [(rng.uniform(0, width), rng.uniform(0, height)) for _ in range(100)]
        for x, y in points:
            expected = raw.FPDFText_GetCharIndexAtPos(handle, x, y, 0.5, 4.0)
            assert glyphs._index_at(chars, x, y, 4.0) == expected
        textpage.close()
        page.close()
    finally:
        document.close()


def test_a_page_without_spacing_accents_is_returned_as_it_is():
    text = "Plain text, a backtick-free line: nothing to compose."
    assert glyphs.compose_accents(text) is text
    assert glyphs.compose_accents("M\u00b4exico") == "M\u00e9xico"
