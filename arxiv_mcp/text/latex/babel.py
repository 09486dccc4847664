"""babel's shorthands (what Spanish and German papers type for their letters) and the caption
names the paper's main language prints (`Figura 1`, `Abbildung 1`).

With `\\usepackage[spanish]{babel}` an author may write `informaci'on` (activeacute), `a~no`
and `ling"u'istica`; with `ngerman`, `Gr"o"se` and `"s`. TeX prints the accented letters: the
tokenizer spells them out where it reads text (`Shorthands`); a paper without those languages
is left alone (an apostrophe in English is an apostrophe).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

_ACUTE = "\u0301"
_UMLAUT = "\u0308"
_SPANISH_ACUTE_RE = re.compile(r"(?<=[A-Za-z\u00c0-\u017f])'([aeiouAEIOU])|(?<![\w\\])'([aeiouAEIOU])(?=[a-z])")
_SPANISH_TILDE_RE = re.compile(r"(?<=[A-Za-z])~([nN])(?=[a-z])|(?<![\w\\])~([nN])(?=[a-z])")
_UMLAUT_RE = re.compile(r'(?<!\\)"([aeiouAOU])')
_GERMAN_RE = re.compile(r'(?<!\\)"(s|`|\'|-|=|~|<|>)')
_GERMAN = {"s": "\u00df", "`": "\u201e", "'": "\u201c", "-": "", "=": "-", "~": "-", "<": "\u00ab", ">": "\u00bb"}


def languages(loads: list[tuple[str, str, str]]) -> list[str]:
    """babel's options in order, from the packages and class loaded (`source.Load`: read once per
    paper); when babel names no language, the class's options, which babel reads too
    (`\\documentclass[spanish]{article}\\usepackage{babel}`). Empty without babel."""
    if not any(name == "babel" for _, _, name in loads):
        return []
    options = [o.strip() for _, given, name in loads if name == "babel" for o in given.split(",") if o.strip()]
    if not any(o in _CAPTION_NAMES or o.endswith("english") or o in _ENGLISH for o in options):
        given = next((given for command, given, _ in loads if command == "documentclass"), "")
        options += [o.strip() for o in given.split(",") if o.strip()]
    return options


class Shorthands:
    """The shorthands of the babel languages loaded (`languages`), read by the tokenizer where
    it reads text, as TeX reads an active character: never inside math, verbatim or a URL."""

    def __init__(self, options: list[str]):
        loaded = set(options)
        self.rules: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = []
        # `'a` is á only with the activeacute option (without it TeX prints an apostrophe, and
        # Catalan's `l'any` keeps it); spanish's `~n` and `"u` are on unless its options turn them off
        if loaded & {"spanish", "catalan", "galician"} and "activeacute" in loaded:
            self.rules.append((_SPANISH_ACUTE_RE, lambda m: _compose(m.group(1) or m.group(2), _ACUTE)))
        spanish = "spanish" in loaded and not loaded & {"es-noshorthands", "es-sloppy"}
        self.tilde = spanish and "es-notilde" not in loaded
        umlauts = {"german", "ngerman", "austrian", "naustrian", "swissgerman", "dutch", "catalan"}
        if spanish or loaded & umlauts:
            self.rules.append((_UMLAUT_RE, lambda m: _compose(m.group(1), _UMLAUT)))
        self.german = bool(loaded & {"german", "ngerman", "austrian", "naustrian", "swissgerman"})
        if self.german:
            self.rules.append((_GERMAN_RE, lambda m: _GERMAN[m.group(1)]))

    @property
    def active(self) -> bool:
        """Whether the languages loaded make any shorthand (most papers load none)."""
        return bool(self.rules) or self.tilde

    def text(self, src: str, start: int, end: int) -> str:
        """`src[start:end]`, text between the tokenizer's special characters, its shorthands
        spelled out (the character before `start` is seen, as a shorthand's context)."""
        context = max(start - 1, 0)
        piece = src[context:end]
        for pattern, spelled in self.rules:
            out: list[str] = []
            pos = start - context
            for m in pattern.finditer(piece, pos):
                out.append(piece[pos : m.start()] + spelled(m))
                pos = m.end()
            piece = piece[: start - context] + "".join(out) + piece[pos:]
        # German's `"~` (a hyphen) ends at the tokenizer's `~`: its quote is read there (`tie`)
        return piece[start - context : -1 if self._hyphen(src, end - 1) else None]

    def tie(self, src: str, pos: int) -> tuple[str, int] | None:
        """spanish's `~n`, or German's `"~`, at `pos` (the `~`): what it prints and where it ends."""
        if self._hyphen(src, pos - 1):
            return _GERMAN["~"], pos + 1
        m = _SPANISH_TILDE_RE.match(src, pos) if self.tilde else None
        return (_compose(m.group(1) or m.group(2), "\u0303"), m.end()) if m else None

    def _hyphen(self, src: str, pos: int) -> bool:
        return self.german and pos >= 0 and src.startswith('"~', pos) and bool(_GERMAN_RE.match(src, pos))


# What babel's \\captions<language> set \\figurename and \\tablename to; English is the classes'
# own. Spanish tables are `Cuadro` unless the `es-tabla` option asks for `Tabla`.
_CAPTION_NAMES = {
    "spanish": ("Figura", "Cuadro"),
    "catalan": ("Figura", "Taula"),
    "galician": ("Figura", "Táboa"),
    "portuguese": ("Figura", "Tabela"),
    "portuges": ("Figura", "Tabela"),
    "brazil": ("Figura", "Tabela"),
    "brazilian": ("Figura", "Tabela"),
    "italian": ("Figura", "Tabella"),
    "french": ("Figure", "Table"),
    "francais": ("Figure", "Table"),
    "german": ("Abbildung", "Tabelle"),
    "ngerman": ("Abbildung", "Tabelle"),
    "austrian": ("Abbildung", "Tabelle"),
    "naustrian": ("Abbildung", "Tabelle"),
    "dutch": ("Figuur", "Tabel"),
    "polish": ("Rysunek", "Tabela"),
    "czech": ("Obrázek", "Tabulka"),
    "russian": ("Рис.", "Таблица"),
    "ukrainian": ("Рис.", "Таблиця"),
    "turkish": ("Şekil", "Tablo"),
    "greek": ("Σχήμα", "Πίνακας"),
}
_ENGLISH = ("american", "british", "canadian", "australian", "newzealand")


def caption_names(options: list[str]) -> dict[str, str]:
    """Figure and table names of the main language (babel's last option, or the class's last
    language option when babel has none: `languages`); empty for English or a language not listed."""
    main = [o for o in options if o in _CAPTION_NAMES or o.endswith("english") or o in _ENGLISH]
    if not main or main[-1] not in _CAPTION_NAMES:
        return {}
    figure, table = _CAPTION_NAMES[main[-1]]
    if main[-1] == "spanish" and {"es-tabla", "mexico", "mexico-com"} & set(options):
        table = "Tabla"
    return {"Figure": figure, "Table": table}


def _compose(letter: str, mark: str) -> str:
    return unicodedata.normalize("NFC", letter + mark)
