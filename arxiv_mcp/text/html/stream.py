"""A page's bytes as the parser reads them: in bounded pieces, defused, decoded as they go.

The page is never decoded whole: a 100 MB download with one character outside Latin-1
would be a 400 MB string. Pieces of at most `PIECE_BYTES` are cut from the bytes, defused
and decoded incrementally (UTF-8, or Latin-1 when the bytes are not UTF-8), so memory
beyond the download itself stays a few pieces plus what the reader keeps.

Defusing neutralises the constructs that make `HTMLParser` rescan to the end of its input.
Python's parser looks ahead for a construct's terminator and, when there is none, waits for
more input and looks again: an unterminated tag after the last `>`, or `<!--` / `<![`
openers, make it quadratic. Comments are dropped in one forward scan (an unterminated one
runs to the end of the page), `<![` is made text, and any `<` after the last `>` is made
text. All three are ASCII, so working on the bytes is the same in UTF-8 and Latin-1.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator

PIECE_BYTES = 1 << 18


def pieces(raw: bytes, encoding: str) -> Iterator[str]:
    """`raw` decoded as `encoding` in pieces, defused; UnicodeDecodeError when it is not that."""
    decoder = codecs.getincrementaldecoder(encoding)()
    for chunk in _defused(raw):
        text = decoder.decode(chunk)
        if text:
            yield text
    tail = decoder.decode(b"", final=True)
    if tail:
        yield tail


def _defused(raw: bytes) -> Iterator[bytes]:
    last_gt = raw.rfind(b">")
    carry = b""  # a `<` or `<!` at a piece's end, held back so `<![` is seen whole
    for start, end in _outside_comments(raw):
        for cut in range(start, end, PIECE_BYTES):
            stop = min(end, cut + PIECE_BYTES)
            chunk = raw[cut:stop]
            if stop > last_gt + 1:
                split = max(0, last_gt + 1 - cut)
                chunk = chunk[:split] + chunk[split:].replace(b"<", b"&lt;")
            chunk = carry + chunk
            carry = b""
            for held in (b"<!", b"<"):
                if chunk.endswith(held):
                    chunk, carry = chunk[: -len(held)], held
                    break
            yield chunk.replace(b"<![", b"&lt;![")
    if carry:
        yield carry


def _outside_comments(raw: bytes) -> Iterator[tuple[int, int]]:
    """The spans of `raw` outside `<!-- ... -->` comments."""
    position = 0
    while True:
        opening = raw.find(b"<!--", position)
        if opening < 0:
            yield position, len(raw)
            return
        yield position, opening
        closing = raw.find(b"-->", opening + 4)
        if closing < 0:
            return  # an unterminated comment runs to the end of the document
        position = closing + 3
