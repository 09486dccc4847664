"""Algorithm and code listing floats as typed blocks: `algorithm` (algorithmic, algpseudocode,
algorithm2e), `algorithm*`, minted's `listing` and the `listing` float `listings.py` makes of a
captioned `lstlisting`.

The float opens and closes as every float does (`floats.open_float`); its code is its text and
its caption counts algorithms (`Algorithm 2: AugUCB`) or listings, not figures. When it closes,
what it wrote becomes one block carrying an `Algorithm` record: the name and number its caption
prints, the caption's words, and the other lines as its code. A float whose body holds a
numbered equation or a table keeps its blocks as they are (one block may carry one record).
"""

from __future__ import annotations

from ..document import Algorithm
from .drafts import Float
from .engine import Walk
from .floats import open_float
from .sinks import Block, blocks_text
from .typed import typed_caption


def env_algorithm(w: Walk, j: int, end: int, env: str) -> int:
    open_float(w, "listing" if env == "listing" else "algorithm", end, grouped=_grouped)  # minted's and ours
    return w.skip_spec(j, "o")


def _grouped(state: Float, written: list[Block]) -> list[Block]:
    """What the float wrote as one algorithm block, or as it is when no caption is found or a
    block already carries a record (one block may carry one record)."""
    found = _caption(written, state)
    if found is None or any(block.record is not None for block in written):
        return written
    at, name, number, words = found
    code = "\n".join(block.text for k, block in enumerate(written) if k != at)
    text = blocks_text(written)
    return [Block("algorithm", text, Algorithm(name, number, words, code))]


def _caption(written: list[Block], state: Float) -> tuple[int, str, str, str] | None:
    """Which block is the float's caption, and the name, number and words it prints: its
    \\caption's, as counted, else one the authors typed (`typed.py`)."""
    at = next((k for k, block in enumerate(written) if block.kind == "caption"), None)
    if state.caption is not None and at is not None:
        name, draft = state.caption
        return at, name, draft.number, draft.caption
    for k, block in enumerate(written):
        if (typed := typed_caption(block.text, algorithm=True)) is not None:
            return k, typed.name, typed.number, typed.caption
    return None
