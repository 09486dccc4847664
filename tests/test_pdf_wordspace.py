"""Word gaps of a composite font whose code 32 is a letter read as spaces with pypdf (wordspace)."""

from __future__ import annotations

from arxiv_mcp.text.pdf import pdf_to_text
from tests.pdfgen import assemble

# A subset ArialMT as a figure program embeds it: Identity-H codes numbering the subset's
# glyphs, no glyph for the space (word gaps are pen moves), and "S" the 32nd glyph (code 32).
_LETTERS = "abcdefghijklmnopqrstuvwxyzHIOLTW.,MNPRAB"
ALPHABET = _LETTERS[:31] + "S" + _LETTERS[31:]
_WIDTHS = dict.fromkeys(ALPHABET, 556) | {"S": 667, "i": 222, "l": 222, "j": 222, "t": 278, "f": 278, "r": 333}
_WIDTHS |= {"H": 722, "I": 278, "O": 778, "L": 556, "T": 611, "W": 944, ".": 278, ",": 278, "M": 833}


def codes(text: str, alphabet: str = ALPHABET) -> bytes:
    """`text` as a hex string of the font's two-byte codes."""
    return b"<" + b"".join(b"%04X" % (alphabet.index(char) + 1) for char in text) + b">"


def line(*words: str, gap: float = 278, alphabet: str = ALPHABET) -> bytes:
    """A TJ array setting `words` apart by `gap` thousandths of the font size, as the figure does."""
    return b"[" + (b" %g " % -gap).join(codes(word, alphabet) for word in words) + b"] TJ"


def arial_pdf(page: bytes, form: bytes = b"", alphabet: str = ALPHABET) -> bytes:
    """A one-page PDF whose font /F0 is the subset above (or of `alphabet`, a space 278 units
    wide), drawn by `page` and by `form` (a form XObject the page may draw as /Fm1)."""
    widths = b" ".join(b"%d" % (278 if char == " " else _WIDTHS.get(char, 556)) for char in alphabet)
    to_unicode = b"\n".join(
        [
            b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Adobe-Identity-UCS def",
            b"/CMapType 2 def 1 begincodespacerange <0000> <FFFF> endcodespacerange",
            b"%d beginbfchar" % len(alphabet),
            *(b"<%04X> <%04X>" % (code, ord(char)) for code, char in enumerate(alphabet, 1)),
            b"endbfchar endcmap CMapName currentdict /CMap defineresource pop end end",
        ]
    )
    fonts = b"<< /Font << /F0 3 0 R >> >>"
    return assemble(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [7 0 R] /Count 1 >>",
            b"<< /Type /Font /Subtype /Type0 /BaseFont /PETKQD+ArialMT /Encoding /Identity-H"
            b" /DescendantFonts [4 0 R] /ToUnicode 5 0 R >>",
            b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /PETKQD+ArialMT /CIDSystemInfo"
            b" << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 6 0 R"
            b" /DW 750 /W [1 [" + widths + b"]] /CIDToGIDMap /Identity >>",
            _stream(b"", to_unicode),
            b"<< /Type /FontDescriptor /FontName /PETKQD+ArialMT /Flags 32 /FontBBox [-665 -325 2000 1040]"
            b" /ItalicAngle 0 /Ascent 905 /Descent -212 /CapHeight 716 /StemV 80 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 8 0 R /Resources"
            b" << /Font << /F0 3 0 R >> /XObject << /Fm1 9 0 R >> >> >>",
            _stream(b"", page),
            _stream(b"/Type /XObject /Subtype /Form /BBox [0 0 1400 1000] /Resources " + fonts, form),
        ]
    )


def _stream(dictionary: bytes, data: bytes) -> bytes:
    return b"<< %s /Length %d >>\nstream\n%s\nendstream" % (dictionary, len(data), data)


def _label(x: float, y: float, shown: bytes) -> bytes:
    # each label placed by its own matrix, as the figure program writes them
    return b"q 1 0 0 1 %g %g cm BT /F0 36 Tf 0 0 Td %s ET Q" % (x, y, shown)


FIGURE = b"\n".join(
    [
        _label(100, 900, line("Structure", "Tags", gap=259.9)),  # kerned before a capital
        _label(100, 860, b"[" + codes("in") + b" -278 " + codes("OTSL") + b" -240.9 " + codes("format") + b"] TJ"),
        _label(100, 700, line("Horizontally", "merged", "cells", "are", "not", "present")),
        _label(100, 500, line("Bounding", "box", "drifting", "at", "the", "end")),
    ]
)


def sentence(alphabet: str = ALPHABET) -> bytes:
    """A line of the page, in the font of `alphabet`, at the top."""
    return (
        b"BT /F0 10 Tf 72 740 Td " + line("Walruses", "haul", "out", "on", "the", "ice.", alphabet=alphabet) + b" ET\n"
    )


def test_the_word_gaps_of_a_figure_whose_font_has_a_letter_at_code_32_read_as_spaces():
    page = sentence()
    page += b"q 0.42 0 0 0.42 72 200 cm /Fm1 Do Q"  # the figure, scaled down into the page
    text = pdf_to_text(arial_pdf(page, FIGURE), engine="pypdf")
    for phrase in (
        "Walruses haul out on the ice.",
        "Structure Tags",
        "in OTSL format",
        "Horizontally merged cells are not present",
        "Bounding box drifting at the end",
    ):
        assert phrase in text


def test_the_letter_at_code_32_is_measured_by_its_own_width():
    # "Seal" then "s" drawn where "Seal" ends: one word, which it would not be were "S"
    # measured as the word space pypdf now assumes for the font
    end = sum(_WIDTHS[char] for char in "Seal") / 100
    page = sentence() + b"BT /F0 10 Tf 72 720 Td %s Tj %.2f 0 Td %s Tj ET" % (codes("Seal"), end, codes("s"))
    assert "Seals" in pdf_to_text(arial_pdf(page), engine="pypdf").split()


def test_a_composite_font_whose_code_32_is_a_space_keeps_its_word_space():
    # letters set apart by 0.12 em are not words apart in a font whose space is 0.278 em
    alphabet = ALPHABET[:31] + " " + ALPHABET[31:]
    page = sentence(alphabet) + b"BT /F0 10 Tf 72 720 Td " + line(*"Seals", gap=120, alphabet=alphabet) + b" ET"
    assert "Seals" in pdf_to_text(arial_pdf(page, alphabet=alphabet), engine="pypdf").split()


def test_a_page_pypdf_reads_again_after_a_failure_keeps_the_word_gaps():
    # a string never closed: pypdf fails the page, salvage reads it again without the damage
    page = sentence() + b"BT /F0 10 Tf 72 700 Td (unclosed Tj\nET"
    assert "Walruses haul out on the ice." in pdf_to_text(arial_pdf(page), engine="pypdf")
