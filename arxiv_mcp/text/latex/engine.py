"""The engine: one linear pass over the tokens (`Walk`: its state and the readers every
handler uses).

What a known command or environment means is a row in `specs.py` (a kind of name, or the
arguments to drop) or a handler in `handlers.py`; each handler lives with its concern: `front` (title, authors, abstract),
`sections` (headings, lists, theorems), `floats` (figures, tables, captions), `crossrefs`
(citations, references, labels, links), `units` (siunitx), each a function over the walk,
found through `handlers.HANDLERS`; `numbering` keeps the counters. Work due at a closing
brace or \\end is queued (`later`) and run when the walk reaches it, so nothing recurses.
Paper source is untrusted data: nothing is executed, and every reader is bounded by the
precomputed brace/bracket matching.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, NamedTuple

from . import pace
from .definitions import TheoremKind
from .document import Meta
from .drafts import Draft, Float
from .numbering import Numbers
from .sinks import Discard, Sink, SinkT, TableSink
from .specs import (
    ALGORITHM_WORDS,
    DISCARD_ENVS,
    ENV_SPECS,
    FONT_SWITCHES,
    PAR_COMMANDS,
    SKIP_SPECS,
    SYMBOLS,
    TITLE_FONTS,
    title_size,
)
from .tokens import (
    AMP,
    BEGIN,
    CMD,
    DMATH,
    END,
    LBRACE,
    LBRACKET,
    MATH,
    NEWLINE,
    NUMBER,
    PAR,
    RAW,
    RBRACE,
    RBRACKET,
    TEXT,
    VERB,
    Token,
    match_brackets,
    match_groups,
)

# TeX's units, as the patterns below read them (and its numbers: tokens.NUMBER)
_UNIT = r"(?:cm|mm|pt|in|em|ex|bp|pc|sp|dd|cc|mu)"
_GLUE_UNIT = r"(?:fill|fil|cm|mm|pt|in|em|ex)"
_ASSIGNMENT_RE = re.compile(
    rf"[ \t]*=[ \t]*{NUMBER}(?![\w.,])"
    rf"|[ \t]*=[ \t]*{NUMBER}[ \t]*{_UNIT}\b"
    rf"(?:[ \t]*(?:plus|minus)[ \t]*{NUMBER}[ \t]*{_GLUE_UNIT}\b)*"
)
"""`= 10000` or `=0pt plus 1pt` right after a command: a TeX register assignment."""
# plain TeX's rule specification: `\\vrule depth 6pt height 12pt width 0pt` (a strut)
_RULE_SPEC_RE = re.compile(rf"(?:\s*(?:height|depth|width)\s*{NUMBER}\s*(?:cm|mm|pt|in|em|ex|bp|pc|sp|dd|cc))+")
# LaTeX's and TeX's length registers by their names' endings (\\parindent, \\tabcolsep, \\topskip)
_LENGTH_NAME_RE = re.compile(r"(?:skip|sep|indent|width|height|depth|offset|hsize|vsize|jot|rule|parsep|length)$")
_SCRIPT_MARKS_RE = re.compile(r"[\^_{}]")
_GROUP_FONTS = FONT_SWITCHES | TITLE_FONTS  # the switches that may open a title's font group
_DIMENSION_RE = re.compile(
    rf"[ \t]*(?:=[ \t]*)?{NUMBER}[ \t]*(?:true)?{_UNIT}(?:[ \t]*(?:plus|minus)[ \t]*{NUMBER}[ \t]*{_GLUE_UNIT})*"
)
# what may stand between a length and the register its value is a multiple of: `=`, `=-`, `= 1.2`
_FACTOR_RE = re.compile(rf"(?:=[ \t]*)?(?:{NUMBER}|-)?")  # matched stripped: no backtracking on spaces


_NAME_SPACING = {"quad", "qquad", "hfill", "enspace", "hfil"}
_MAX_PLAIN_TOKENS = 8  # text tokens of one plain argument (`plain_arguments`)


CommandHandler = Callable[["Walk", int, str], int]
"""A command's handler: (walk, index after the command, its name) -> the index to go on from."""
EnvironmentHandler = Callable[["Walk", int, int, str], int]
"""An environment's: (walk, index after \\begin, index of its \\end, its name) -> where to go on."""


class Handlers(NamedTuple):
    """What the walk calls, by name (`handlers.HANDLERS`: one row per handler)."""

    commands: dict[str, CommandHandler]
    environments: dict[str, EnvironmentHandler]
    theorem: EnvironmentHandler  # the paper's own theorem-like environments (\\newtheorem)


class Walk:
    """The walk's state and its argument readers. What a command or environment does is a
    function over this walk found by its name in `handlers` (`handlers.py`), returning the
    index the walk goes on from."""

    def __init__(
        self, toks: list[Token], meta: Meta, theorems: dict[str, TheoremKind], handlers: Handlers, *, preamble: bool
    ):
        self.handlers = handlers
        self.toks = toks
        self.match = match_groups(toks)
        self.bracket = match_brackets(toks)
        self.meta = meta
        self.theorems = theorems
        self.preamble = preamble
        self.front = Discard() if preamble else Sink()
        self.body = Sink()
        self.in_front = not preamble
        self.sinks: list[Sink] = [self.front]
        self.pending: list[tuple[int, Callable[[], object]]] = []
        self.stacked_cells = 0
        self.meta_depth = 0
        self.current_label: tuple[str, str] = ("", "")
        # the record whose number current_label is (a float, an equation): the next \\label names it
        self.anchor: Draft | None = None
        self.in_author = 0  # depth of \\author arguments being read
        has_chapters = any(t == (CMD, "chapter") or t == (CMD, "chapter*") for t in toks)
        self.numbers = Numbers(
            has_chapters, meta.numbering, meta.within, meta.shapes, meta.document_class, meta.counters
        )
        self.lists: list[list[Any]] = []  # [kind, items so far] of each open list
        self.floats: list[Float] = []  # the figures and tables being read, innermost last
        self.institutes = 0
        self.icml_marks: dict[str, str] = {}  # ICML affiliation key -> its printed mark
        self.need_title = not preamble and not meta.title and (CMD, "title") not in toks
        # the size of the font group read as the title when there is no \\title (None: not so read);
        # a later group in a bigger size is the title instead (LHCb's `\\large` lab header, then
        # the `\\huge` title)
        self.title_size: int | None = None

    # -- the walk -------------------------------------------------------------------------------

    @property
    def sink(self) -> Sink:
        return self.sinks[-1]

    def run(self) -> None:
        """One walk over the tokens: each handler moves on past what it read, so the walk is
        linear in the tokens (readers are bounded by the precomputed matching)."""
        toks, n, i, steps = self.toks, len(self.toks), 0, 0
        while i < n:
            steps += 1
            pace.tick(steps)
            while self.pending and self.pending[-1][0] <= i:
                self.pending.pop()[1]()
            kind, value = toks[i]
            if kind == TEXT:
                self.sink.write(value)
                nxt = i + 1
            elif kind == RAW:  # a URL; in a bibliography entry it may be the entry's eprint
                self.sink.write(value)
                if self.sink.entry is not None:
                    self.sink.entry.links.append(value)
                nxt = i + 1
            elif kind == CMD:
                nxt = self.command(i, value)
            elif kind == LBRACE:
                nxt = self.open_group(i)
            elif kind == PAR:
                self.sink.par()
                nxt = i + 1
            elif kind == MATH:
                self.sink.write_math(value)
                nxt = i + 1
            elif kind == DMATH:
                self.sink.block("math", f"$${value}$$")
                nxt = i + 1
            elif kind == BEGIN:
                nxt = self.begin(i, value)
            elif kind == END:
                self.sink.par()
                nxt = i + 1
            elif kind == NEWLINE:
                if self.stacked_cells:
                    self.sink.write(" ")
                else:
                    self.sink.newline()
                nxt = i + 1
            elif kind == AMP:
                if isinstance(self.sink, TableSink):
                    self.sink.end_cell()
                else:
                    self.sink.write(" ")
                nxt = i + 1
            elif kind == LBRACKET or kind == RBRACKET:
                self.sink.write(kind)
                nxt = i + 1
            elif kind == VERB:
                self.sink.block("verb", value)
                nxt = i + 1
            else:
                nxt = i + 1
            i = max(nxt, i + 1)
        while self.pending:
            self.pending.pop()[1]()
        self.sinks[0].par()

    def command(self, i: int, name: str) -> int:
        handler = self.handlers.commands.get(name)
        if handler is not None:
            return handler(self, i + 1, name)
        shown = self.numbers.printed(name[3:]) if name.startswith("the") else None
        if shown is not None:  # `\\theUniversal`: the number the counter prints now
            self.sink.write(shown)
            return i + 1
        if name in SYMBOLS:  # in an author list, `A \\quad B` spaces names apart: a separator
            self.sink.write(", " if self.in_author and name in _NAME_SPACING else SYMBOLS[name])
            return i + 1
        if name in ALGORITHM_WORDS:
            return self.algorithm_line(i + 1, *ALGORITHM_WORDS[name])
        if name in SKIP_SPECS:
            nxt = self.skip_spec(i + 1, SKIP_SPECS[name])
        elif name not in PAR_COMMANDS and _LENGTH_NAME_RE.search(name):  # `\bigskip` is a space, no register
            nxt = self.skip_spec(i + 1, "d")  # `\fboxsep=1.5pt`, `\topskip0pt`: a length set, not text
        else:
            nxt = self.skip_assignment(i + 1)
        if name in PAR_COMMANDS:
            self.sink.par()
        if name == "newline":
            self.sink.newline()
        return nxt

    def begin(self, i: int, env: str) -> int:
        self.sink.par()
        end = self.match[i]
        if end < 0:
            return i + 1
        if env in DISCARD_ENVS:  # a drawing is not text, but a \\label in it names what is being drawn
            for k in range(i + 1, end):
                if self.toks[k] == (CMD, "label"):
                    self.handlers.commands["label"](self, k + 1, "label")
            return end + 1
        handler = self.handlers.environments.get(env)
        if handler is None and env.rstrip("*") in self.meta.new_floats:
            handler = self.handlers.environments.get("@newfloat")
        if handler is None and self.meta.wrappers.get(env) in self.theorems:  # the paper's name for a kind
            return self.handlers.theorem(self, i + 1, end, self.meta.wrappers[env])
        if handler is None and (env in self.theorems or env.rstrip("*") in self.theorems):
            handler = self.handlers.theorem
        if handler is not None:
            return handler(self, i + 1, end, env)
        return self.skip_spec(i + 1, ENV_SPECS.get(env, "o"))

    def algorithm_line(self, i: int, words: str, after_argument: str) -> int:
        """A pseudocode line: its words, then (`for x do`) what follows the first argument."""
        self.sink.newline()
        self.sink.write(words)
        g = self.group(i) if after_argument else None
        if g is not None:
            self.toks[g[1]] = (TEXT, after_argument)
        return i

    def open_group(self, i: int) -> int:
        if self.in_front and self.match[i] > i and (self.need_title or self.title_size is not None):
            fonts = []
            j = self.skip_space(i + 1)
            while j < len(self.toks) and self.toks[j][0] == CMD and self.toks[j][1] in _GROUP_FONTS:
                fonts.append(self.toks[j][1])
                j = self.skip_space(j + 1)
            if any(font in TITLE_FONTS for font in fonts) and self.may_title(size := title_size(fonts)):
                return self.capture(i, lambda sink: self.maybe_title(sink, size))
        return i + 1

    def may_title(self, size: int) -> bool:
        """A font group can be the title: none is yet, or it is bigger than the one read as such."""
        return self.need_title or (self.title_size is not None and size > self.title_size)

    def maybe_title(self, sink: Sink, size: int = 0) -> None:
        text = sink.flat()
        if self.may_title(size) and 3 <= len(text) <= 300 and any(c.isalpha() for c in text):
            if not self.need_title:  # the smaller heading read as the title before is text again
                self.sink.write(f" {self.meta.title} ")
            self.meta.title = text
            self.title_size = size
            self.need_title = False
        elif text:
            self.sink.write(f" {text} ")

    # -- plumbing -------------------------------------------------------------------------------

    def later(self, index: int, action: Callable[[], object]) -> None:
        self.pending.append((index, action))

    def push(self, sink: SinkT) -> SinkT:
        self.sinks.append(sink)
        return sink

    def pop(self, sink: SinkT) -> SinkT:
        for k in range(len(self.sinks) - 1, 0, -1):
            if self.sinks[k] is sink:
                del self.sinks[k]
                break
        return sink

    def capture(self, i: int, done: Callable[[Sink], None], sink: Sink | None = None) -> int:
        """Send the group at i to a fresh sink and call done(sink) at its closing brace."""
        g = self.group(i)
        if g is None:
            return i
        self.until(g[1], done, sink)
        return g[0] + 1

    def until(self, end: int, done: Callable[[Sink], object], sink: Sink | None = None) -> None:
        """Send what the walk writes up to token `end` to `sink` (a fresh one by default) and
        call done(sink) there: an argument, an environment's body, a float."""
        target = self.push(sink or Sink())
        self.later(end, lambda: done(self.pop(target)))

    def end_front(self) -> None:
        if self.in_front:
            self.in_front = False
            self.need_title = False
            self.front.par()
            self.sinks[0] = self.body

    def step(self, counter: str) -> str:
        """Advance a counter (figure, table, equation) and make it the target of the next \\label,
        as \\refstepcounter does; numbered within its unit (`2.3`) where the paper or class says."""
        return self.target(counter, self.numbers.advance(counter))

    def target(self, kind: str, number: str) -> str:
        """Make `number` what the next \\label names and \\ref prints (as the name of `kind`:
        `Figure 3`), as \\refstepcounter does; no record of it yet (`anchor`)."""
        self.current_label = (kind, number)
        self.anchor = None
        return number

    # -- argument readers -----------------------------------------------------------------------

    def skip_space(self, i: int) -> int:
        toks, n = self.toks, len(self.toks)
        while i < n and toks[i][0] == TEXT and not toks[i][1].strip():
            i += 1
        return i

    def group(self, i: int) -> tuple[int, int] | None:
        """(open, close) of the `{...}` argument starting at i (after spaces), if any."""
        j = self.skip_space(i)
        if j < len(self.toks) and self.toks[j][0] == LBRACE and self.match[j] > j:
            return j, self.match[j]
        return None

    def after_option(self, i: int) -> tuple[int, tuple[int, int] | None]:
        """Past a `[...]` argument at i (if any), and the `{...}` argument after it (None: none)."""
        i = self.skip_spec(i, "o")
        return i, self.group(i)

    def optional(self, i: int) -> tuple[int, int] | None:
        """(open, close) of a `[...]` argument at i, if any."""
        j = self.skip_space(i)
        if j < len(self.toks) and self.toks[j][0] == LBRACKET and self.bracket[j] > j:
            return j, self.bracket[j]
        return None

    def argument_end(self, i: int) -> int:
        """Index just past one mandatory argument (a group or a single token) at i."""
        toks = self.toks
        j = self.skip_space(i)
        if j >= len(toks):
            return j
        kind, value = toks[j]
        if kind == LBRACE:
            return self.match[j] + 1 if self.match[j] > j else j + 1
        if kind == TEXT:
            rest = value.lstrip()[1:]
            toks[j] = (TEXT, rest)
            return j if rest else j + 1
        if kind in (CMD, MATH, RAW):
            return j + 1
        return i

    def plain_arguments(self, i: int, spec: str) -> list[str | None] | None:
        """The plain-text arguments at `i` by `spec` (`m` a `{...}`, `O` an optional `[...]`, None
        when absent), each of a few text tokens only, stripped; None when a mandatory one is
        missing or holds anything else (a definition's name or label is a few words)."""
        toks, out = self.toks, list[str | None]()
        for code in spec:
            i = self.skip_space(i)
            opening, closing = (LBRACE, RBRACE) if code == "m" else (LBRACKET, RBRACKET)
            if i >= len(toks) or toks[i][0] != opening:
                if code == "m":
                    return None
                out.append(None)
                continue
            end = i + 1
            while end < len(toks) and end - i <= _MAX_PLAIN_TOKENS and toks[end][0] == TEXT:
                end += 1
            if end >= len(toks) or toks[end][0] != closing:
                return None
            out.append("".join(value for _, value in toks[i + 1 : end]).strip())
            i = end + 1
        return out

    def raw_text(self, i: int) -> tuple[str, int] | None:
        """Plain text of the group at i (keys, labels) and the index after it."""
        g = self.group(i)
        if g is None:
            return None
        a, b = g
        text = "".join(v for k, v in self.toks[a + 1 : b] if k in (TEXT, RAW))
        return text, b + 1

    def label_text(self, a: int, b: int) -> tuple[str, list[str]]:
        """Plain text of the tokens between a and b (an optional argument: a bibitem's label, an
        author's affiliation labels, \\captionsetup's kind) and of its top-level groups."""
        text: list[str] = []
        parts: list[str] = []
        depth = 0
        for kind, value in self.toks[a + 1 : b]:
            if kind == LBRACE:
                depth += 1
                if depth == 1:
                    parts.append("")
            elif kind == RBRACE:
                depth -= 1
            elif kind in (TEXT, RAW, MATH):
                if kind == MATH:  # alpha styles' `A{\\etalchar{+}}85` is `A$^{+}$85`: printed A+85
                    value = _SCRIPT_MARKS_RE.sub("", value)
                text.append(value)
                if depth >= 1 and parts:
                    parts[-1] += value
        return "".join(text), parts

    def keys(self, i: int) -> tuple[list[str], int] | None:
        """The comma-separated keys of the raw argument at `i` and the index after it."""
        found = self.raw_text(i)
        if found is None:
            return None
        return [k for k in ("".join(part.split()) for part in found[0].split(",")) if k], found[1]

    def skip_spec(self, i: int, spec: str) -> int:
        toks = self.toks
        for code in spec:
            if code == "o":
                opt = self.optional(i)
                if opt:
                    i = opt[1] + 1
            elif code == "m":
                i = self.argument_end(i)
            elif code == "P":
                k = i
                while k < len(toks) and k - i < 20 and toks[k][0] not in (LBRACE, PAR):
                    k += 1
                i = k if k < len(toks) and toks[k][0] == LBRACE else i
            elif code == "d":
                i = self.skip_dimension(i)
            elif code in "=rk" and i < len(toks) and toks[i][0] == TEXT:
                value = toks[i][1]
                if code == "k":
                    m = _RULE_SPEC_RE.match(value)
                    value = value[m.end() :] if m else value
                elif code == "=":
                    stripped = value.lstrip()
                    value = stripped[1:] if stripped.startswith("=") else value
                else:
                    stripped = value.lstrip()
                    close = stripped.find(")")
                    value = stripped[close + 1 :] if stripped.startswith("(") and close > 0 else value
                toks[i] = (TEXT, value)
        return i

    def skip_dimension(self, i: int) -> int:
        """Drop what TeX reads as a dimension after a length: an optional `=`, then a number and
        unit (`=3pt plus 1pt`) or a register with an optional factor (`=1.2\\baselineskip`,
        `=-\\parsep`, `\\vskip\\baselineskip`)."""
        toks = self.toks
        if i < len(toks) and toks[i][0] == TEXT:
            value = toks[i][1]
            m = _DIMENSION_RE.match(value)
            if m is None and _FACTOR_RE.fullmatch(value.strip()) and i + 1 < len(toks) and toks[i + 1][0] == CMD:
                toks[i] = (TEXT, "")  # the register is next
                return i + 2
            stripped = value.lstrip()  # no dimension TeX can read: its `=` is still the assignment's
            toks[i] = (TEXT, value[m.end() :] if m else stripped[1:] if stripped.startswith("=") else value)
            return i
        return i + 1 if i < len(toks) and toks[i][0] == CMD else i

    def skip_assignment(self, i: int) -> int:
        """After a command no table knows, drop a plain-TeX assignment of a number or length
        (`\\overfullrule=0pt`, `\\hbadness = 10000`): a register set in the document, never
        printed. Only with its `=`: `\\foo 3 apples` stays text."""
        toks = self.toks
        if i < len(toks) and toks[i][0] == TEXT:
            found = _ASSIGNMENT_RE.match(toks[i][1])
            if found:
                toks[i] = (TEXT, toks[i][1][found.end() :])
        return i


# -- commands every part of a document has ------------------------------------------------------


def cmd_if_then_else(w: Walk, i: int, name: str) -> int:
    """\\ifthenelse{condition}{then}{else}: the condition cannot be run here; the first branch
    is what styles mean (LHCb's `\\ifthenelse{\\boolean{articletitles}}{title}{}`)."""
    condition = w.group(i)
    return cmd_first_of_two(w, condition[1] + 1, name) if condition else i


def cmd_toggle(w: Walk, i: int, name: str) -> int:
    """etoolbox's \\toggletrue{name} (\\togglefalse, \\booltrue, \\boolfalse) and \\settoggle{name}{true}
    (\\setbool): what \\iftoggle reads from here on; never text."""
    two = name in ("settoggle", "setbool")
    found = w.plain_arguments(i, "mm" if two else "m")
    if found and found[0] and not any(c.isspace() for c in found[0]) and (not two or found[1] in ("true", "false")):
        w.meta.toggles[found[0]] = (found[1] if two else name[-4:]) == "true"
    return w.skip_spec(i, "mm" if two else "m")


def cmd_if_toggle(w: Walk, i: int, name: str) -> int:
    """etoolbox's \\iftoggle{name}{yes}{no} (and \\ifbool): the branch the toggle's setting
    so far chooses (`cmd_toggle`); the other is blanked."""
    found = w.raw_text(i)
    first = w.group(found[1]) if found is not None else None
    second = w.group(first[1] + 1) if first is not None else None
    if found is None or first is None or second is None:
        return i
    if w.meta.toggles.get(found[0].strip(), False):
        return cmd_first_of_two(w, first[0], name)
    for k in range(first[0], first[1] + 1):
        w.toks[k] = (TEXT, "")
    return second[0] + 1


def cmd_first_of_two(w: Walk, i: int, name: str) -> int:
    """\\texorpdfstring{TeX}{PDF string}: the printed first branch; the second is blanked."""
    first = w.group(i)
    if first is None:
        return i
    second = w.group(first[1] + 1)
    if second is not None:
        for k in range(second[0], second[1] + 1):
            w.toks[k] = (TEXT, "")
    return first[0] + 1
