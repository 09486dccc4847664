"""Algorithm and code listing floats as typed blocks: `algorithm` (algorithmic, algpseudocode,
algorithm2e), `algorithm*`, minted's `listing` and the `listing` float `listings.py` makes of a
captioned `lstlisting`.

The float's code is text where it stands and its caption counts algorithms (`Algorithm 2:
AugUCB`) or listings, not figures (`floats.caption`); when the float ends, what it wrote becomes
one block carrying an `Algorithm` record: the name and number its caption prints, the caption's
words, and the other lines as its code. A float whose body holds a numbered equation or a table
keeps its blocks as they are (one block may carry one record). The code of a captioned
`lstlisting` follows its caption float: `document.render` joins the two.
"""

from __future__ import annotations

from functools import partial

from ..document import Algorithm
from .drafts import Float
from .engine import Walk
from .sinks import Block, Discard, Sink, TableSink
from .typed import typed_algorithm


def env_algorithm(w: Walk, j: int, end: int, env: str) -> int:
    sink = w.sink
    sink.par()
    state = Float("listing" if env == "listing" else "algorithm", sink, collect=sink)  # minted's and ours
    w.floats.append(state)
    w.later(end, w.floats.pop)
    if not isinstance(sink, (Discard, TableSink)):
        w.later(end, partial(_group, sink, len(sink.blocks), state))
    return w.skip_spec(j, "o")


def _group(sink: Sink, first: int, state: Float) -> None:
    sink.par()
    written = sink.blocks[first:]
    found = _caption(written, state)
    if found is None or any(block.record is not None for block in written):
        return
    at, name, number, words = found
    code = "\n".join(block.text for k, block in enumerate(written) if k != at)
    del sink.blocks[first:]
    text = "\n\n".join(block.text for block in written)
    sink.blocks.append(Block("algorithm", text, Algorithm(name, number, words, code)))


def _caption(written: list[Block], state: Float) -> tuple[int, str, str, str] | None:
    """Which block is the float's caption, and the name, number and words it prints: its
    \\caption's, as counted, else one the authors typed (`typed.py`)."""
    at = next((k for k, block in enumerate(written) if block.kind == "caption"), None)
    if state.caption is not None and at is not None:
        name, draft = state.caption
        return at, name, draft.number, draft.caption
    for k, block in enumerate(written):
        if (typed := typed_algorithm(block.text)) is not None:
            return k, typed.name, typed.number, typed.caption
    return None
