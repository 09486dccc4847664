"""Text of citations made comparable: TeX accents and commands, Unicode forms, case, punctuation.

Two spellings of one title or name must compare equal however they were typed: `{\\"o}`,
`\\"{o}`, `ö` and `o` are one letter; `{\\L}ukasz` is `Lukasz`; braces that protect a word's
capitals, `\\emph{...}`, `~` and `--` carry no meaning. Everything here is pure and keeps no
state; matching (`resolve`) and parsing (`citations`) both read text through it.
"""

from __future__ import annotations

import re
import unicodedata

_TEX_LETTERS = {
    "L": "L",
    "l": "l",
    "o": "o",
    "O": "O",
    "ss": "ss",
    "ae": "ae",
    "AE": "AE",
    "oe": "oe",
    "OE": "OE",
    "aa": "a",
    "AA": "A",
    "i": "i",
    "j": "j",
    "DH": "D",
    "dh": "d",
    "TH": "Th",
    "th": "th",
    "NG": "NG",
    "ng": "ng",
}
_UNICODE_LETTERS = str.maketrans(
    {"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "đ": "d", "Đ": "D"}
    | {"ı": "i", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th", "\u2010": "-", "\u2011": "-", "\u2013": "-", "\u2014": "-"}
)
_ACCENT = re.compile(r"\\[\"'`^~=.uvHckbdrt]\s*(?:\{\s*(\\?[A-Za-z]{1,2})\s*\}|(\\?[A-Za-z]))")
_LETTER = re.compile(r"\\(ss|ae|AE|oe|OE|aa|AA|DH|dh|TH|th|NG|ng|[LlOoij])(?![A-Za-z])(?:\{\})?")
_FORMAT = re.compile(r"\\(?:emph|textit|textbf|textsc|textrm|textsf|texttt|mbox|hbox|text|mathrm|mathbf|url|href)\s*")
_SWITCH = re.compile(r"\\(?:em|it|bf|sc|rm|sf|tt|sl|newblock|relax|natexlab)\b\s*")
_OTHER_COMMAND = re.compile(r"\\[A-Za-z]+\*?\s*")
_ESCAPED = re.compile(r"\\([&%$#_{}])")


def detex(text: str) -> str:
    """`text` with TeX's accents as plain letters and its markup gone (braces, `~`, `--`,
    formatting commands); ordinary text passes unchanged."""
    if "\\" not in text and "{" not in text and "~" not in text:
        return text
    s = _ACCENT.sub(lambda m: _letter(m.group(1) or m.group(2)), text)
    s = _LETTER.sub(lambda m: _TEX_LETTERS[m.group(1)], s)
    s = _ESCAPED.sub(lambda m: {"&": "&", "%": "%", "$": "", "#": "#", "_": "_", "{": "", "}": ""}[m.group(1)], s)
    s = _SWITCH.sub(" ", _FORMAT.sub("", s))
    s = _OTHER_COMMAND.sub(" ", s)
    s = s.replace("{", "").replace("}", "").replace("~", " ").replace("---", "-").replace("--", "-")
    s = s.replace("``", '"').replace("''", '"')
    return " ".join(s.split())


def _letter(found: str) -> str:
    return _TEX_LETTERS.get(found[1:], found[1:]) if found.startswith("\\") else found


def fold(text: str) -> str:
    """Lower-case ASCII-ish text: accents stripped, letters such as ł, ø, ß spelt out."""
    s = unicodedata.normalize("NFKD", detex(text).translate(_UNICODE_LETTERS))
    return "".join(c for c in s if not unicodedata.combining(c)).lower()


def words(text: str) -> list[str]:
    """The words of `text`, folded; a hyphen inside a word joins it (`pre-training` is
    `pretraining`), so either spelling compares equal."""
    joined = re.sub(r"(?<=\w)[-'’](?=\w)", "", fold(text))
    return re.findall(r"[^\W_]+", joined)
