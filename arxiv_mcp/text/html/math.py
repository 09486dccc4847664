"""Math in LaTeXML HTML: the LaTeX of `alttext`, never the MathML's own text.

Inline math is `$...$` (adjacent formulas keep a space between them: `$a$$b$` would read as
display math); display math is its own `$$...$$` paragraph, or part of its equation row.
A `<math>` without alttext falls back to its `application/x-tex` annotation.
"""

from __future__ import annotations

from typing import cast

from .flow import Flow
from .parts import (
    EQ_CELL,
    EQ_ROW,
    NO_MATH_SINKS,
    TEX_MATH,
    TEX_READING,
    TEX_SOURCE,
    Block,
    Frame,
    Sink,
    clean_alttext,
)

Attributes = dict[str, str | None]


class Math:
    """Writes formulas where they stand; reads the TeX annotation when there is no alttext."""

    def __init__(self, flow: Flow) -> None:
        self._flow = flow
        self.tex: Sink | None = None  # the TeX annotation being looked for inside a <math>
        self.reading = False  # inside that annotation: its text is the formula

    def start(self, tag: str, attributes: Attributes, classes: frozenset[str], sink: Sink) -> bool:
        flow = self._flow
        parent = flow.stack[-1] if flow.stack else None
        alttext = attributes.get("alttext")
        display = attributes.get("display") == "block"
        beside_equation = parent is not None and parent.kind == EQ_CELL
        if alttext is None:  # rare: fall back to the TeX annotation inside the MathML
            self.tex = Sink(TEX_SOURCE)
            flow.skip += 1
            flow.push(Frame(tag, TEX_MATH, state=(display, beside_equation)))
            return True
        if sink.kind == EQ_ROW:
            sink.raw.append((sink.index, alttext))
        self.emit(clean_alttext(alttext), display, beside_equation)
        flow.start_skip(tag)
        return True

    def start_annotation(self, tag: str, attrs: list[tuple[str, str | None]]) -> bool:
        """Inside a skipped <math>: whether `tag` opens the TeX annotation to read."""
        if self.tex is None or tag != "annotation" or ("encoding", "application/x-tex") not in attrs:
            return False
        self._flow.push(Frame(tag, TEX_READING))
        self.reading = True
        return True

    def close_annotation(self, frame: Frame) -> None:
        self.reading = False

    def close_tex_math(self, frame: Frame) -> None:
        self._flow.skip -= 1
        sink, self.tex, self.reading = self.tex, None, False
        display, beside_equation = cast(tuple[bool, bool], frame.state)
        if sink is not None:
            self.emit(clean_alttext("".join(sink.parts)), display, beside_equation)

    def emit(self, latex: str, display: bool, beside_equation: bool) -> None:
        flow = self._flow
        sink = flow.sinks[-1]
        if not latex or sink.kind in NO_MATH_SINKS:
            return
        if sink.kind == EQ_ROW and (display or beside_equation or latex.startswith("\\displaystyle")):
            if sink.parts:
                sink.segments.append((False, "".join(sink.parts)))
                sink.parts = []
            sink.segments.append((True, latex))
        elif display and sink is flow.flow:
            flow.flush()
            flow.emit(Block.PARA, f"$${latex}$$")
        elif display:
            sink.parts.append(f" $${latex}$$ ")
        else:
            # "$a$$b$" reads as display math: adjacent inline formulas keep a space between them
            after_math = bool(sink.parts) and sink.parts[-1].endswith("$")
            sink.parts.append(f"{' ' if after_math else ''}${latex}$")
