"""Word rules shared by every search and every answer: the stop-word list, the plural rule,
and a count said with its noun.

The plural rule is deliberately small (no dictionary, no full stemmer): "models" and "model", "queries" and
"query", "boxes" and "box" should meet; "bus", "analysis" and "class" must stay whole.
"""

from __future__ import annotations

STOPWORDS = frozenset(
    """
a about above after again against all also am an and any are as at based be because been
before being below between both but by can could did do does doing down during each few for
from further had has have having he her here hers herself him himself his how however i if
in into is it its itself just may me might more most must my myself no nor not now of off on
once only or other our ours ourselves out over own same shall she should so some such than
that the their theirs them themselves then there these they this those through thus to too
towards under until up upon use used using very via was we were what when where which while
who whom why will with would yet you your yours yourself yourselves
""".split()
)
"""Words too common to search by: left out of composed arXiv queries, the local index and
trends' title terms (arXiv's own list, plus the connectives papers overuse)."""


def singular(word: str) -> str:
    """`word` (lowercase) without a plural ending."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "ches", "shes", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def counted(n: int, one: str, many: str | None = None) -> str:
    """`1 figure`, `3 figures`: a count as a reader says it (`many` for a plural not made by "s")."""
    return f"{n} {one if n == 1 else many or one + 's'}"
