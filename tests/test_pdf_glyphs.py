"""pdfium's glyph passes (arxiv_mcp.text.pdf.glyphs): their shortcuts find what the plain scans find."""

from __future__ import annotations

import random

import pytest

from arxiv_mcp.text.pdf import glyphs


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
