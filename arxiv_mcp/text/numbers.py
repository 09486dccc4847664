"""Printed numbers as readers write them and papers print them, compared whole.

A number is read as its tokens: runs of digits or of letters, whatever stands between them
(`III-A`, `III.A`, `V.B`, `A.2`, `A2`, `S1`, `2.5a` are (iii, a), (iii, a), (v, b), (a, 2),
(a, 2), (s, 1), (2, 5, a)). Two numbers are the same when their tokens are: `III-A` is never
`VIII-A`, `1.1` never `11`. A reader's number also names a printed one whose tokens have the
same values, the first read as Roman or Arabic and the others as letters or digits (`5.2` names
a REVTeX paper's `V.B`), but only when no printed number is the same token for token.

Digit runs longer than `MAX_DIGITS` are refused before any `int()` (Python refuses to convert
strings of more than 4,300 digits; no paper prints a number of sixteen digits).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TypeVar

from ..errors import InvalidInput
from .roman import from_roman, to_roman

MAX_DIGITS = 15
_TOKEN_RE = re.compile(r"\d+|[^\W\d_]+")
_ROMAN_RE = re.compile(r"[ivxlc]+")
_LONG_DIGITS_RE = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")

T = TypeVar("T")


def tokens(number: str) -> tuple[str, ...]:
    """The number's digit and letter runs, case folded."""
    return tuple(_TOKEN_RE.findall(number.casefold()))


def refuse_long_digits(selector: str) -> None:
    """One clear line for a number longer than any paper prints (and than `int()` takes)."""
    if _LONG_DIGITS_RE.search(selector):
        raise InvalidInput(
            f"section holds a number of more than {MAX_DIGITS} digits, which no paper prints: "
            'pass a printed number ("4.2", "Figure 3", "Eq. (7)"), a heading name, or section:N.'
        )


def roman_value(token: str) -> int | None:
    """`iv` -> 4 (lower case, as `tokens` gives it); None for a token that is no Roman numeral
    written the usual way (`iiii` is not 4)."""
    if not _ROMAN_RE.fullmatch(token):
        return None
    value = from_roman(token)
    return value if value is not None and to_roman(value).casefold() == token else None


def _values(number: str) -> tuple[int | str, ...]:
    """Each token as a value: the first Roman or Arabic, a later capital letter its place in the
    alphabet (REVTeX's `V.B` is 5.2; a lower-case suffix, `2.5a`, stays a letter)."""
    values: list[int | str] = []
    for index, token in enumerate(_TOKEN_RE.findall(number)):
        folded = token.casefold()
        if token.isdigit():
            values.append(int(token))
        elif index == 0:
            roman = roman_value(folded)
            values.append(folded if roman is None else roman)
        elif len(token) == 1 and token.isupper():
            values.append(ord(folded) - ord("a") + 1)
        else:
            values.append(folded)
    return tuple(values)


def matching(wanted: str, items: Iterable[T], printed: Callable[[T], str | None]) -> list[T]:
    """The items whose printed number is `wanted`: token for token, else by value (see above)."""
    listed = [(item, number) for item in items if (number := printed(item))]
    key = tokens(wanted)
    if not key:
        return []
    same = [item for item, number in listed if tokens(number) == key]
    if same:
        return same
    value = _values(wanted)
    return [item for item, number in listed if _values(number) == value]
