"""Roman numerals both ways: the one codec for papers that number in them (REVTeX's and
IEEE's sections `IV`, tables `TABLE II`) and for readers who ask by either form.

Invariant: `from_roman(to_roman(n)) == n` for every n >= 1.
"""

from __future__ import annotations

_VALUES = (
    ("M", 1000),
    ("CM", 900),
    ("D", 500),
    ("CD", 400),
    ("C", 100),
    ("XC", 90),
    ("L", 50),
    ("XL", 40),
    ("X", 10),
    ("IX", 9),
    ("V", 5),
    ("IV", 4),
    ("I", 1),
)
_LETTERS = {numeral: value for numeral, value in _VALUES if len(numeral) == 1}


def to_roman(number: int) -> str:
    """`number` in capital Roman numerals (14 is `XIV`); a number below 1 stays in digits."""
    if number <= 0:
        return str(number)
    out = []
    for numeral, value in _VALUES:
        count, number = divmod(number, value)
        out.append(numeral * count)
    return "".join(out)


def from_roman(numeral: str) -> int | None:
    """The value of a Roman numeral in any case (`xiv` is 14), None when it is not one. A
    smaller letter before a larger one is subtracted, as readers take `IV` and `XC`."""
    values = [_LETTERS.get(letter) for letter in numeral.upper()]
    if not values or None in values:
        return None
    known = [value for value in values if value is not None]
    return sum(-v if i + 1 < len(known) and v < known[i + 1] else v for i, v in enumerate(known))
