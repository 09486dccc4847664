"""Algorithm and code listing floats as typed blocks: `algorithm` (algorithmic, algpseudocode,
algorithm2e), `algorithm*`, minted's `listing` and the `listing` float `listings.py` makes of a
captioned `lstlisting`.

The float's own handler (`floats.env_algorithm_float`) writes its caption (`Algorithm 2:
AugUCB`, counted as LaTeX counts algorithms) and its body where it stands; here, when the float
ends, what it wrote becomes one block carrying an `Algorithm` record: the label and number its
caption prints, the caption's words, and the other lines as its code. A float whose body
holds a numbered equation or a table keeps its blocks as they are (one block may carry one
record). The code of a captioned `lstlisting` follows its caption float: `document.render`
joins the two.
"""

from __future__ import annotations

import re

from ..document import Algorithm
from . import floats
from .engine import Walk
from .sinks import Block, Discard, Sink, TableSink

_CAPTION_RE = re.compile(
    r"(?P<label>Algorithm|Listing|Procedure|Function)\s+(?P<number>[A-Z]?\d+(?:\.\d+)*)[:.]\s*(?P<caption>.*)", re.S
)


def env_algorithm(w: Walk, j: int, end: int, env: str) -> int:
    sink = w.sink
    sink.par()
    first = len(sink.blocks)
    after = floats.env_algorithm_float(w, j, end, env)
    if not isinstance(sink, (Discard, TableSink)):
        w.later(end, lambda: _group(sink, first))
    return after


def _group(sink: Sink, first: int) -> None:
    sink.par()
    written = sink.blocks[first:]
    if not written or any(block.record is not None for block in written):
        return
    caption = next((k for k, block in enumerate(written) if _CAPTION_RE.match(block.text)), None)
    if caption is None:
        return
    match = _CAPTION_RE.match(written[caption].text)
    assert match is not None
    code = "\n".join(block.text for k, block in enumerate(written) if k != caption)
    record = Algorithm(match.group("label"), match.group("number"), " ".join(match.group("caption").split()), code)
    del sink.blocks[first:]
    sink.blocks.append(Block("algorithm", "\n\n".join(block.text for block in written), record))
