"""Document structure handlers: numbered headings (chapters, appendices), lists and items,
theorem-like environments, the bibliography and acknowledgments headings."""

from __future__ import annotations

from typing import Any

from ..roman import to_roman
from .engine import Engine
from .sinks import Sink
from .source import TheoremKind
from .specs import CHAPTER_LEVELS, ENV_SPECS, HEADING_LEVELS, LIST_ENVS
from .tokens import TEXT


def _letter(number: int) -> str:
    return chr(ord("A") + number - 1) if 1 <= number <= 26 else str(number)


class Sections(Engine):
    """Headings numbered as LaTeX numbers them, lists, theorems."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.counters = [0, 0, 0, 0]
        self.appendix = False
        self.lists: list[list[Any]] = []

    def cmd_heading(self, i: int, name: str) -> int:
        base = name.rstrip("*")
        opt = self.optional(i)
        if opt:
            i = opt[1] + 1
        if self.group(i) is None:
            return i
        if base in ("part", "chapter", "section") and not self.preamble:
            self.end_front()
        hashes, number = self.heading_number(base, numbered=not name.endswith("*"))
        if number:
            self.current_label = ("appendix" if self.appendix and "." not in number else "section", number)
            self.anchor = None

        def done(sink: Sink) -> None:
            title = sink.flat()
            head = " ".join(x for x in ("#" * hashes, number, title) if x)
            self.sink.block("h", head, number or None)

        return self.capture(i, done)

    def heading_number(self, base: str, numbered: bool) -> tuple[int, str]:
        if base == "paragraph":
            return 5, ""
        if base == "subparagraph":
            return 6, ""
        if base == "part":
            return 2, ""
        levels = CHAPTER_LEVELS if self.has_chapters else HEADING_LEVELS
        level = levels.get(base, 0)
        if not numbered:
            return 2 + level, ""
        self.counters[level] += 1
        for k in range(level + 1, len(self.counters)):
            self.counters[k] = 0
        return 2 + level, self.unit_number(base)

    def start_appendix(self) -> None:
        self.appendix = True
        self.counters = [0, 0, 0, 0]

    def cmd_appendix(self, i: int, name: str) -> int:
        self.start_appendix()
        return i

    def env_appendix(self, j: int, end: int, env: str) -> int:
        self.start_appendix()
        return j

    def env_theorem(self, j: int, end: int, env: str) -> int:
        """`Theorem 2.` / `Lemma 3.1 (Name).` as amsthm prints them; a starred one unnumbered."""
        own = self.theorems.get(env)  # `\\newtheorem*{name*}` is a name of its own
        kind = own or self.theorems[env.rstrip("*")]
        number = self.theorem_number(kind) if kind.numbered and (own or not env.endswith("*")) else ""
        title = f"{kind.label} {number}" if number else kind.label
        opt = self.optional(j)
        if opt is None:
            self.sink.write(f"{title}. ")
            return j
        a, b = opt
        self.sink.write(f"{title} (")
        self.toks[b] = (TEXT, "). ")
        return a + 1

    def theorem_number(self, kind: TheoremKind) -> str:
        """Step the kind's counter (reset in each `within` unit) and make it the next \\label's target."""
        unit = self.unit_number(kind.within)
        key = f"theorem:{kind.counter}:{unit}"
        self.counts[key] = self.counts.get(key, 0) + 1
        number = f"{unit}.{self.counts[key]}" if unit else str(self.counts[key])
        self.current_label = ("theorem", number)
        return number

    def unit_number(self, unit: str) -> str:
        """The number the current section (or chapter, subsection) prints; "" for no such unit.
        REVTeX and IEEEtran print sections in roman numerals and subsections as letters after
        them (`IV.A`; IEEEtran `IV-A`, `IV-A1`); their appendices are lettered."""
        level = (CHAPTER_LEVELS if self.has_chapters else HEADING_LEVELS).get(unit)
        if level is None:
            return ""
        style = "" if self.has_chapters else self.meta.numbering
        if self.appendix:
            top = _letter(self.counters[0])
        else:
            top = to_roman(self.counters[0]) if style else str(self.counters[0])
        parts = [top]
        for depth, count in enumerate(self.counters[1 : level + 1], 1):
            if style == "ieee" and not self.appendix:
                parts.append(("-" if depth == 1 else "") + (_letter(count) if depth == 1 else str(count)))
            else:
                lettered = style == "revtex" and not self.appendix and depth == 1
                parts.append("." + (_letter(count) if lettered else str(count)))
        return "".join(parts)

    def counter_unit(self, counter: str) -> tuple[str, str]:
        """REVTeX numbers an appendix's equations within it, without a stop: (A1), (A2), (B1)."""
        if counter == "equation" and self.appendix and self.meta.numbering == "revtex":
            return self.unit_number("section"), ""
        return super().counter_unit(counter)

    def env_list(self, j: int, end: int, env: str) -> int:
        self.lists.append([LIST_ENVS[env], 0])
        self.later(end, self.lists.pop)
        return self.skip_spec(j, ENV_SPECS.get(env, "o"))

    def cmd_item(self, i: int, name: str) -> int:
        kind, depth = ("-", 1)
        if self.lists:
            kind, depth = self.lists[-1][0], len(self.lists)
        marker = "- "
        if kind == "1":
            self.lists[-1][1] += 1
            marker = f"{self.lists[-1][1]}. "
            self.current_label = ("item", str(self.lists[-1][1]))
        self.sink.start_item("  " * min(depth - 1, 6) + marker)
        opt = self.optional(i)
        if opt:
            a, b = opt
            self.toks[a] = (TEXT, "")
            self.toks[b] = (TEXT, ": " if kind == "d" else " ")
        return i

    def env_bibliography(self, j: int, end: int, env: str) -> int:
        self.sink.block("h", "## References")
        return self.skip_spec(j, "m")

    def env_acknowledgments(self, j: int, end: int, env: str) -> int:
        self.sink.block("h", "## Acknowledgments")
        return j
