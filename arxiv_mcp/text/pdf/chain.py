"""The longest chain of printed numbers that follow one another, the one routine for it.

A PDF prints numbers that the text alone cannot tell from others: a heading's `2.1` from a
list item's, an equation's `(7)` from a citation's year in brackets. Read in document order,
the true ones follow one another (1, 1.1, 2, ...; (1), (2), (2.1) ...), the others rarely
do: `layout` keeps the headings and `structure` the equations on the longest such chain.
Invariants: the chain is in the candidates' order and starts at a number `follows(None, key)`
accepts; each link is tried only among the `earlier(index)` candidates (which bounds the
search); of chains as long, the one with more `weights` wins, then the one whose links are
nearer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

Key = TypeVar("Key")


def longest_chain(
    keys: Sequence[Key],
    follows: Callable[[Key | None, Key], bool],
    earlier: Callable[[int], Iterable[int]],
    weights: Sequence[int] | None = None,
) -> list[int]:
    """Indexes into `keys` of the longest chain, in order; [] when no key may start one."""
    best: list[tuple[int, int]] = []  # (length, weight) of the best chain ending at each key
    link: list[int] = []
    for index, key in enumerate(keys):
        weight = weights[index] if weights else 0
        score, before = ((1, weight) if follows(None, key) else (0, 0)), -1
        for previous in earlier(index):
            if best[previous][0] and follows(keys[previous], key):
                extended = (best[previous][0] + 1, best[previous][1] + weight)
                if extended >= score:
                    score, before = extended, previous
        best.append(score)
        link.append(before)
    if not best or max(best)[0] == 0:
        return []
    end = max(range(len(best)), key=best.__getitem__)
    chain = []
    while end >= 0:
        chain.append(end)
        end = link[end]
    return chain[::-1]
