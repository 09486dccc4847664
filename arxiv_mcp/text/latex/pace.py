"""The call's deadline, as the converter keeps it.

Every loop of the converter over characters, tokens, entries or blocks calls `tick(k)` with its
running count; every EVERY-th step asks `budget.check`, which raises OutOfTime once the call's
deadline has passed (or Cancelled), so a huge source stops within a few milliseconds of work
of its deadline instead of running on for nobody. Outside a tool call it does nothing.
"""

from __future__ import annotations

from ... import budget

EVERY = 1024
"""Steps between two looks at the clock: each step is bounded (one token, one entry, one
block), so 1,024 of them take milliseconds, and a look costs well under a microsecond."""
DOING = "Converting the paper's LaTeX source"
ADVICE = "the source is too large to convert in time: raise ARXIV_MCP_DEADLINE_S, or use download_paper for the PDF"


def tick(step: int) -> None:
    if step % EVERY == 0:
        budget.check(DOING, ADVICE)


def check() -> None:
    """Between the converter's stages."""
    budget.check(DOING, ADVICE)
