"""siunitx quantities as the PDF prints them: `\\SI{13}{\\TeV}` is `13 TeV`, `\\si{\\per\\femto\\barn}`
is `fb$^{-1}$`, `\\num{1.2e3}` is `$1.2 \\times 10^{3}$`.

A unit argument is read as siunitx reads it: prefixes (`\\giga`), units (`\\electronvolt`), their
abbreviations (`\\GeV`, `\\fb`), powers (`\\per`, `\\squared`, `\\square`, `^{-1}`), the paper's own
`\\DeclareSIUnit`s and literal text (`GeV`). Anything else is dropped, never shown as a command.
"""

from __future__ import annotations

import re
from typing import Any

from .engine import Walk
from .tokens import CMD, LBRACE, MATH, RAW, RBRACE, TEXT, group_end

PREFIXES = {
    "quecto": "q",
    "ronto": "r",
    "yocto": "y",
    "zepto": "z",
    "atto": "a",
    "femto": "f",
    "pico": "p",
    "nano": "n",
    "micro": "\u00b5",
    "milli": "m",
    "centi": "c",
    "deci": "d",
    "deca": "da",
    "deka": "da",
    "hecto": "h",
    "kilo": "k",
    "mega": "M",
    "giga": "G",
    "tera": "T",
    "peta": "P",
    "exa": "E",
    "zetta": "Z",
    "yotta": "Y",
}
UNIT_SYMBOLS = {
    "electronvolt": "eV",
    "barn": "b",
    "metre": "m",
    "meter": "m",
    "second": "s",
    "gram": "g",
    "kilogram": "kg",
    "kelvin": "K",
    "ampere": "A",
    "mole": "mol",
    "candela": "cd",
    "hertz": "Hz",
    "newton": "N",
    "pascal": "Pa",
    "joule": "J",
    "watt": "W",
    "coulomb": "C",
    "volt": "V",
    "farad": "F",
    "ohm": "\u03a9",
    "siemens": "S",
    "weber": "Wb",
    "tesla": "T",
    "henry": "H",
    "degreeCelsius": "\u00b0C",
    "lumen": "lm",
    "lux": "lx",
    "becquerel": "Bq",
    "gray": "Gy",
    "sievert": "Sv",
    "minute": "min",
    "hour": "h",
    "day": "d",
    "degree": "\u00b0",
    "arcminute": "\u2032",
    "arcsecond": "\u2033",
    "litre": "l",
    "liter": "L",
    "tonne": "t",
    "astronomicalunit": "au",
    "atomicmassunit": "u",
    "dalton": "Da",
    "decibel": "dB",
    "percent": "%",
    "radian": "rad",
    "steradian": "sr",
    "bit": "bit",
    "byte": "B",
    "angstrom": "\u00c5",
    "bar": "bar",
    "parsec": "pc",
    "lightyear": "ly",
    "clight": "c",
    "speedoflight": "c",
}
# siunitx's abbreviations: a prefix letter and a unit symbol (`\\GeV`, `\\fb`, `\\cm`, `\\MHz`)
_ABBREVIATED = ("eV", "b", "m", "s", "g", "Hz", "V", "A", "W", "J", "K", "T", "Pa", "L", "l", "mol", "N")
_LETTERS = {"f": "f", "p": "p", "n": "n", "u": "\u00b5", "m": "m", "c": "c", "k": "k", "M": "M", "G": "G", "T": "T"}
ABBREVIATIONS = {letter + unit: symbol + unit for letter, symbol in _LETTERS.items() for unit in _ABBREVIATED}
ABBREVIATIONS.update({unit: unit for unit in _ABBREVIATED if unit not in ("m", "s", "g", "b", "l", "L", "A", "N")})
ABBREVIATIONS.update({"ifb": "fb$^{-1}$", "ipb": "pb$^{-1}$", "inb": "nb$^{-1}$", "fb": "fb", "pb": "pb"})

POWER_BEFORE = {"square": 2, "cubic": 3}  # `\\square\\metre`
POWER_AFTER = {"squared": 2, "cubed": 3}  # `\\metre\\squared`

_PIECE_RE = re.compile(r"\\([A-Za-z]+)|\^\s*(-?\d+)|([^\\^\s]+)")
MAX_ARGUMENT_TOKENS = 400
_MAX_POWER_DIGITS = 6  # a unit's power longer than this is a hostile one, not printed
_WRAPPER_RE = re.compile(r"\\(?:text|mathrm|textrm|mbox|ensuremath|xspace)(?![A-Za-z])\s*|\$")


def unit_text(expression: str, declared: dict[str, str], depth: int = 0) -> str:
    """A siunitx unit expression as printed (units separated by a space, powers as `$^{-1}$`).
    A unit the paper's own macro spelled out (`\\text{GeV}`) is read as its text."""
    expression = _WRAPPER_RE.sub("", expression).replace("{", "").replace("}", "")
    out: list[list[Any]] = []  # [symbol, power]
    prefix, per, power_next = "", False, 1
    for m in _PIECE_RE.finditer(expression):
        name, power, literal = m.groups()
        if power is not None and out:
            out[-1][1] *= int(power) if len(power) <= _MAX_POWER_DIGITS else 1
            continue
        symbol = literal
        if name in PREFIXES:
            prefix += PREFIXES[name]
            continue
        if name == "per":
            per = True
            continue
        if name in POWER_BEFORE:
            power_next = POWER_BEFORE[name]
            continue
        if name in POWER_AFTER and out:
            out[-1][1] *= POWER_AFTER[name]
            continue
        if name in declared and depth < 3:
            symbol = unit_text(declared[name], declared, depth + 1)
        elif name is not None:
            symbol = UNIT_SYMBOLS.get(name) or ABBREVIATIONS.get(name)
        if not symbol:
            continue
        out.append([prefix + symbol, -power_next if per else power_next])
        prefix, per, power_next = "", False, 1
    return " ".join(symbol + (f"$^{{{power}}}$" if power != 1 else "") for symbol, power in out)


def _integer(written: str) -> str:
    """An integer as `int` prints it (`+03` -> `3`, `-0` -> `0`), for any number of digits (a
    hostile `\\num{1e999...}` exceeds Python's int-string limit)."""
    digits = written.lstrip("+-").lstrip("0") or "0"
    return "-" + digits if written.startswith("-") and digits != "0" else digits


_EXPONENT_RE = re.compile(r"\A([-+]?[\d.,]*)\s*[eE]\s*([-+]?\d+)\Z")


def number_text(number: str) -> str:
    """`1.2e3` -> `$1.2 \\times 10^{3}$`, `3 +- 1` -> `3 ± 1`; other numbers as written."""
    number = " ".join(number.replace("+-", " \u00b1 ").replace("\\pm", " \u00b1 ").split())
    m = _EXPONENT_RE.match(number)
    if m:
        mantissa = f"{m.group(1)} \\times " if m.group(1) else ""
        return f"${mantissa}10^{{{_integer(m.group(2))}}}$"
    return number


def arguments(w: Walk, i: int, count: int) -> tuple[list[str], int] | None:
    """The LaTeX of `count` mandatory arguments (options in brackets skipped before each)."""
    values = []
    for _ in range(count):
        i, g = w.after_option(i)
        if g is None or g[1] - g[0] > MAX_ARGUMENT_TOKENS:  # nested hostile \\SI{\\SI{...}} stays linear
            return None
        values.append(source_of(w, g[0] + 1, g[1]))
        i = g[1] + 1
    return values, i


def source_of(w: Walk, a: int, b: int) -> str:
    parts = []
    for kind, value in w.toks[a:b]:
        if kind == CMD:
            parts.append(f"\\{value} ")
        elif kind in (TEXT, RAW, MATH):
            parts.append(value)
        elif kind in (LBRACE, RBRACE):
            parts.append(kind)
    return "".join(parts)


def cmd_quantity(w: Walk, i: int, name: str) -> int:
    opt = w.optional(i)
    if name == "unit" and opt is not None:  # the units package's \\unit[13]{TeV}
        w.sink.write(number_text(source_of(w, opt[0] + 1, opt[1])) + " ")
        i = opt[1] + 1
    found = arguments(w, i, len(_READS[name]))
    if found is None:
        return i
    values, end = found
    if name == "ang":
        w.sink.write(number_text(values[0]).replace(";", " ") + "\u00b0")
    else:
        w.sink.write(printed(name, values, w.meta.units))
    return end


def printed(name: str, values: list[str], declared: dict[str, str], math: bool = False, first: str = "") -> str:
    """A quantity as printed from the arguments its command read, in text or in math (a thin
    space before the unit, the unit and `to` upright): `first` (a number read before them)
    and each number with the unit after it; a range's two joined by `to`, a list's as `1 m, 2 m
    and 3 m`."""
    reads = _READS[name]
    number = _number_math if math else number_text
    space, to = ("\\,", "\\text{ to }") if math else (" ", " to ")
    unit = next((unit_text(v, declared) for v, kind in zip(values, reads) if kind == "u"), "")
    unit = _unit_math(unit) if math else unit
    numbers = [number(first)] if first else []
    numbers += [number(v) for v, kind in zip(values, reads) if kind == "n"]
    if reads in ("lu", "L"):
        numbers = [number(x) for x in values[0].split(";") if x.strip()]
    with_units = [(f"{n}{space}{unit}" if unit else n).strip() for n in numbers]
    if reads in ("lu", "L") and len(with_units) > 1:
        return f"{', '.join(with_units[:-1])} and {with_units[-1]}"
    return to.join(with_units) or unit  # an empty \\numlist{}: nothing but the unit


# What each quantity command reads, in order: n a number, u a unit, l (L alone) a list of numbers
# (`1;2;3`)
_READS = {
    "SI": "nu",
    "qty": "nu",
    "si": "u",
    "unit": "u",
    "num": "n",
    "tablenum": "n",
    "ang": "n",
    "SIrange": "nnu",
    "qtyrange": "nnu",
    "numrange": "nn",
    "SIlist": "lu",
    "qtylist": "lu",
    "numlist": "L",
}


# --- quantities inside math ------------------------------------------------------------------

_MATH_QUANTITY_RE = re.compile(r"\\(SI|qty|si|unit|num|SIrange|qtyrange|numrange)(?![A-Za-z])\s*")
_UNIT_MATH_RE = re.compile(r"\$([^$]*)\$")
_MAX_MATH_ARGUMENT = 4 * MAX_ARGUMENT_TOKENS  # characters of one argument in math


def _unit_math(unit: str) -> str:
    """A unit as printed (`fb$^{-1}$`) as math: upright text, then its powers."""
    pieces = _UNIT_MATH_RE.split(unit)
    return "".join(
        piece if k % 2 else (f"\\text{{{piece}}}" if piece.strip() else "") for k, piece in enumerate(pieces)
    )


def _number_math(number: str) -> str:
    return number_text(number).strip("$")


def quantities_in_math(latex: str, declared: dict[str, str]) -> str:
    """siunitx's and the units package's commands inside math (`$E > \\SI{13}{\\TeV}$`,
    `$\\unit[10^{14}]{eV}$`) as the LaTeX the PDF prints: the number, a thin space, the unit
    upright (`13\\,\\text{TeV}`). A command whose arguments cannot be read stays as written."""
    out: list[str] = []
    pos = 0
    while (m := _MATH_QUANTITY_RE.search(latex, pos)) is not None:
        name, i = m.group(1), m.end()
        value = ""
        if latex.startswith("[", i):
            end = latex.find("]", i, i + _MAX_MATH_ARGUMENT) + 1
            if not end:
                break
            if name == "unit":  # the units package's \unit[13]{TeV}; siunitx's options print nothing
                value = latex[i + 1 : end - 1]
            i = end
        arguments = []
        for _ in _READS[name]:
            while i < len(latex) and latex[i].isspace():
                i += 1
            end = group_end(latex, i, _MAX_MATH_ARGUMENT) + 1  # 0: no group at i
            if not end:
                break
            arguments.append(latex[i + 1 : end - 1])
            i = end
        if len(arguments) != len(_READS[name]):
            out.append(latex[pos : m.end()])
            pos = m.end()
            continue
        out.append(latex[pos : m.start()] + printed(name, arguments, declared, math=True, first=value))
        pos = i
    out.append(latex[pos:])
    return "".join(out)
