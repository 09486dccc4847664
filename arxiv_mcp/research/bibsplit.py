"""A pasted bibliography cut into its entries, in order.

Recognised, first match wins: BibTeX (`@type{...}` entries, braces counted), natbib
(`\\bibitem`), a numbered list (`[1] ...` or `1. ...` at line starts, continuation lines joined),
entries separated by blank lines, and otherwise one entry per line. Labels are dropped; the
text of each entry is kept as pasted (the citation reader copes with its style).
"""

from __future__ import annotations

import re

_BIBTEX_START = re.compile(r"@[A-Za-z]+\s*[{(]")
_BRACKET_LABEL = re.compile(r"^\s*\[\s*\d{1,3}\s*\]\s*", re.M)
_NUMBER_LABEL = re.compile(r"^\s*\d{1,3}[.)]\s+", re.M)
_BLANK_LINE = re.compile(r"\n\s*\n")


def split(text: str) -> list[str]:
    """The entries of `text`, in order, without their labels; empty ones dropped."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if _BIBTEX_START.search(text):
        entries = _bibtex(text)
    elif "\\bibitem" in text:
        entries = ["\\bibitem" + part for part in text.split("\\bibitem")[1:]]
    elif len(_BRACKET_LABEL.findall(text)) >= 2:
        entries = _numbered(text, _BRACKET_LABEL)
    elif _consecutive(_NUMBER_LABEL.findall(text)):
        entries = _numbered(text, _NUMBER_LABEL)
    elif _BLANK_LINE.search(text.strip()):
        entries = _BLANK_LINE.split(text)
    else:
        entries = text.split("\n")
    return [e.strip() for e in entries if e.strip()]


def _numbered(text: str, label: re.Pattern[str]) -> list[str]:
    starts = list(label.finditer(text))
    ends = [m.start() for m in starts[1:]] + [len(text)]
    return [" ".join(text[m.end() : end].split()) for m, end in zip(starts, ends, strict=True)]


def _consecutive(labels: list[str]) -> bool:
    """`1.`, `2.`, `3.` ...: a numbered list, not a number that happens to start a line."""
    numbers = [int(re.sub(r"\D", "", label)) for label in labels]
    return len(numbers) >= 2 and numbers == list(range(numbers[0], numbers[0] + len(numbers)))


def _bibtex(text: str) -> list[str]:
    """Each `@type{...}` entry whole (its braces counted); text between entries is a comment."""
    out: list[str] = []
    pos = 0
    while (m := _BIBTEX_START.search(text, pos)) is not None:
        opener = text[m.end() - 1]
        closer = "}" if opener == "{" else ")"
        depth, i = 1, m.end()
        while i < len(text) and depth:
            if text[i] == "{" or (opener == "(" and text[i] == "("):
                depth += 1
            elif text[i] == "}" or (closer == ")" and text[i] == ")"):
                depth -= 1
            i += 1
        kind = text[m.start() + 1 : m.end() - 1].strip().lower()
        if kind not in ("comment", "preamble", "string"):
            out.append(text[m.start() : i])
        pos = i
    return out
