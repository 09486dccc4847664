"""babel's shorthands: what Spanish and German papers type for their letters.

With `\\usepackage[spanish]{babel}` an author may write `informaci'on` (activeacute), `a~no`
and `ling"u'istica`; with `ngerman`, `Gr"o"se` and `"s`. TeX prints the accented letters, so
they are spelled out in the source before tokenizing; a paper without those languages is left
alone (an apostrophe in English is an apostrophe).
"""

from __future__ import annotations

import re
import unicodedata

_BABEL_RE = re.compile(r"\\usepackage[ \t]*\[([^\]]{0,300})\][ \t]*\{[^{}]*\bbabel\b[^{}]*\}")
_ACUTE = "\u0301"
_UMLAUT = "\u0308"
_SPANISH_ACUTE_RE = re.compile(r"(?<=[A-Za-z\u00c0-\u017f])'([aeiouAEIOU])|(?<![\w\\])'([aeiouAEIOU])(?=[a-z])")
_SPANISH_TILDE_RE = re.compile(r"(?<=[A-Za-z])~([nN])(?=[a-z])|(?<![\w\\])~([nN])(?=[a-z])")
_UMLAUT_RE = re.compile(r'(?<!\\)"([aeiouAOU])')
_GERMAN_RE = re.compile(r'(?<!\\)"(s|`|\'|-|=|~|<|>)')
_GERMAN = {"s": "\u00df", "`": "\u201e", "'": "\u201c", "-": "", "=": "-", "~": "-", "<": "\u00ab", ">": "\u00bb"}


def languages(preamble: str) -> set[str]:
    found: set[str] = set()
    for m in _BABEL_RE.finditer(preamble):
        found.update(option.strip() for option in m.group(1).split(","))
    return found


def shorthands(source: str, preamble: str) -> str:
    """`source` with the shorthands of the babel languages the preamble loads spelled out."""
    loaded = languages(preamble)
    if loaded & {"spanish", "catalan", "galician"}:
        source = _SPANISH_ACUTE_RE.sub(lambda m: _compose(m.group(1) or m.group(2), _ACUTE), source)
        source = _SPANISH_TILDE_RE.sub(lambda m: _compose(m.group(1) or m.group(2), "\u0303"), source)
    if loaded & {"spanish", "german", "ngerman", "austrian", "naustrian", "swissgerman", "dutch", "catalan"}:
        source = _UMLAUT_RE.sub(lambda m: _compose(m.group(1), _UMLAUT), source)
    if loaded & {"german", "ngerman", "austrian", "naustrian", "swissgerman"}:
        source = _GERMAN_RE.sub(lambda m: _GERMAN[m.group(1)], source)
    return source


def _compose(letter: str, mark: str) -> str:
    return unicodedata.normalize("NFC", letter + mark)
