"""Words as the mirror's full-text index sees them, for the search without FTS5.

FTS5's `unicode61 remove_diacritics 2` tokenizer folds case and accents and splits on every
character that is not a letter or digit; `tokens` does the same in Python, so the fallback
matches the same papers. A term is a word or a phrase (consecutive words).
"""

from __future__ import annotations

import re
import unicodedata

_TOKEN = re.compile(r"[^\W_]+")


def tokens(text: str) -> list[str]:
    decomposed = unicodedata.normalize("NFKD", text or "")
    folded = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()
    return _TOKEN.findall(folded)


def count(haystack: list[str], needle: list[str]) -> int:
    """Occurrences of the word sequence `needle` in `haystack`."""
    n = len(needle)
    if n == 0:
        return 0
    if n == 1:
        return haystack.count(needle[0])
    return sum(1 for i in range(len(haystack) - n + 1) if haystack[i : i + n] == needle)


def cat_token(category: str) -> str:
    """One index word for a category or archive (`cs.LG` -> `catcs0lg`, `hep-th` -> `cathep1th`):
    the tokenizer would split `cs.LG` in two, and `cat` keeps it apart from any real word."""
    return "cat" + category.lower().replace(".", "0").replace("-", "1")


def cat_tokens(categories: list[str]) -> str:
    """The index words of a paper's categories: each one, and each one's archive (`cs`)."""
    names = dict.fromkeys(c for cat in categories for c in (cat, cat.split(".", 1)[0]))
    return " ".join(cat_token(c) for c in names)


def match_text(text: str | None, needle: str, _unused: int = 0) -> int:
    """sqlite function `mirror_match(text, needle, 0)`: occurrences of the phrase `needle` in `text`."""
    return count(tokens(text or ""), needle.split())
