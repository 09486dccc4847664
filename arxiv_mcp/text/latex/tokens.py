"""LaTeX source text -> a flat token list, plus the brace/bracket matching the converter walks by.

One forward pass with memoised searches over text whose comments are gone (`source`): math,
verbatim and URLs become single tokens, accents, control symbols and babel's shorthands (read
in text only, as TeX reads its active characters) become text, and every other control word is
a CMD token for the converter.
A use of the paper's macros (`macros.Macros`) is expanded where it is read: what it stands for
is read as tokens in its place (MAX_MACRO_DEPTH deep), and the LaTeX of math is rewritten by the
same definitions before its rows and labels are read.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from typing import Protocol

from . import pace
from .babel import Shorthands
from .listings import INPUT_RE, OPTIONS_RE, listing_float
from .specs import CITE_COMMANDS, HEADING_COMMANDS, SIZE_SWITCHES, SKIP_SPECS

TEXT, PAR, CMD, BEGIN, END, LBRACE, RBRACE = "text", "par", "cmd", "begin", "end", "{", "}"
LBRACKET, RBRACKET, AMP, NEWLINE, MATH, DMATH, VERB, RAW = "[", "]", "&", "nl", "math", "dmath", "verb", "raw"

Token = tuple[str, str]

MAX_MACRO_DEPTH = 3  # a macro's body is read for macros again at most this many times
AFTER_WORD_RE = re.compile(r"[ \t]*(?:\n(?![ \t]*\n)[ \t]*)?")
ENVIRONMENT_NAME = r"[ \t]*\{[ \t]*([A-Za-z@]+\*?)[ \t]*\}"  # after \begin or \end

_ACCENTS = {
    "'": "\u0301",
    "`": "\u0300",
    "^": "\u0302",
    '"': "\u0308",
    "~": "\u0303",
    "=": "\u0304",
    ".": "\u0307",
    "c": "\u0327",
    "v": "\u030c",
    "u": "\u0306",
    "H": "\u030b",
    "r": "\u030a",
    "k": "\u0328",
    "d": "\u0323",
}
_CONTROL_SYMBOLS = {
    "%": "%",
    "&": "&",
    "$": "\\$",  # a literal dollar beside $-delimited math stays escaped, as Markdown writes it
    "#": "#",
    "_": "_",
    "{": "{",
    "}": "}",
    " ": " ",
    "\n": " ",
    "\t": " ",
    ",": " ",
    ";": " ",
    ":": " ",
    ">": " ",
    "!": "",
    "-": "",
    "/": "",
    "@": "",
    "|": "\u2016",
}
# The math environments the tokenizer reads, by the environment their rows are set in: each
# numbered one has a starred form that numbers nothing (`_display`); displaymath and math number nothing
_NUMBERED_MATH = {
    "equation": "",
    "align": "aligned",
    "eqnarray": "aligned",
    "flalign": "aligned",
    "alignat": "alignedat",
    "gather": "gathered",
    "multline": "gathered",
    "dmath": "",
    "IEEEeqnarray": "aligned",  # IEEEtrantools': its column spec ({rCl}) is left out
}
_UNNUMBERED_MATH = {"displaymath": "", "math": "inline"}
_MATH_ENVS = {name + star: rows for name, rows in _NUMBERED_MATH.items() for star in ("", "*")} | _UNNUMBERED_MATH
# environments whose lines are code: not read for commands, comments or math
VERBATIM_ENVS = {"verbatim", "verbatim*", "Verbatim", "Verbatim*", "lstlisting", "minted", "alltt"}
_READ_HERE = {*_MATH_ENVS, *VERBATIM_ENVS}  # environments the tokenizer reads itself
# commands whose `*` is part of the name: those `specs`' tables give a starred form, those a
# handler's row names starred (`handlers` cannot be read here) and the environment definers
_STARRABLE = {name[:-1] for name in (*SKIP_SPECS, *HEADING_COMMANDS, *CITE_COMMANDS) if name.endswith("*")} | {
    "caption",
    "renewcommand",
    "newtheorem",
    "includegraphics",
    "footnote",
    "thanks",
    "item",
    "multicolumn",
    "newenvironment",
    "renewenvironment",
}


class Searcher:
    """Forward `str.find` with memo: repeated searches for the same needle stay linear overall."""

    def __init__(self, text: str):
        self.text = text
        self.memo: dict[str, tuple[int, int]] = {}

    def find(self, needle: str, start: int) -> int:
        known = self.memo.get(needle)
        if known is not None and known[0] <= start and (known[1] < 0 or start <= known[1]):
            return known[1]
        found = self.text.find(needle, start)
        self.memo[needle] = (start, found)
        return found

    def find_word(self, needle: str, start: int) -> int:
        """Like find, but `needle` (a control word) must not be followed by another letter."""
        pos = self.find(needle, start)
        while pos >= 0:
            after = pos + len(needle)
            if after >= len(self.text) or not self.text[after].isalpha():
                return pos
            pos = self.find(needle, pos + 1)
        return -1


def find_unescaped(text: str, char: str, start: int, find: Callable[[str, int], int] | None = None) -> int:
    """Where `char` stands from `start` on, not escaped by a backslash (`\\%` is not a comment),
    or -1; `find` searches `text` (a `Searcher`'s memoised search), else `str.find` does."""
    find = find or text.find
    pos = find(char, start)
    while pos >= 0 and escaped(text, pos, start):
        pos = find(char, pos + 1)
    return pos


def escaped(text: str, pos: int, start: int = 0) -> bool:
    """Whether the character at `pos` is escaped: an odd run of backslashes (from `start` on) before it."""
    k = pos
    while k > start and text[k - 1] == "\\":
        k -= 1
    return (pos - k) % 2 == 1


def group_end(text: str, open_at: int, limit: int, opener: str = "{") -> int:
    """Index of the `}` closing the `{` at open_at, or with `opener` "[" of the `]` outside
    braces closing an optional argument's `[` (escapes skipped), or -1: no `opener` there, or
    none closing it within `limit` chars."""
    if not text.startswith(opener, open_at):
        return -1
    bracket = opener == "["
    depth = 0
    k = open_at + bracket
    stop = min(len(text), open_at + limit + 2)
    while k < stop:
        c = text[k]
        if c == "\\":
            k += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0 and not bracket:
                return k
        elif c == "]" and depth == 0 and bracket:
            return k
        k += 1
    return -1


def match_end(pattern: re.Pattern[str], text: str, pos: int) -> int:
    """End of `pattern` matched at `pos` (patterns that may match empty), or `pos` when it does not."""
    m = pattern.match(text, pos)
    return m.end() if m else pos


# An accent on a letter, dotless i and j too: `\\'e`, `\\"{o}`, and a letter's accent braced, `\\c{c}`
_ACCENT_RE = re.compile(
    r"\\(?:([cvuHrkd])(?=[ \t]*\{)|(['`^\"~=.]))[ \t]*"
    r"(?:\{[ \t]*(\\[ij](?![A-Za-z])|[A-Za-z])[ \t]*\}|(\\[ij](?![A-Za-z])|[A-Za-z]))"
)


def _accented(accent: re.Match[str]) -> str:
    base = accent.group(3) or accent.group(4)
    base = {"\\i": "i", "\\j": "j"}.get(base, base)
    return unicodedata.normalize("NFC", base + _ACCENTS[accent.group(1) or accent.group(2)])


class Macros(Protocol):
    """The paper's macros (`macros.Macros`): the tokenizer records each definition where it reads
    it and expands each use where it reads it, so the source is read once."""

    @property
    def aliases(self) -> Mapping[str, tuple[str, str]]:
        """Macros standing for a \\begin or \\end (`\\beq`), by name."""

    @property
    def end_aliases(self) -> Mapping[str, list[str]]:
        """The macros standing for each environment's \\end, by environment."""

    def defines(self, name: str) -> bool:
        """Whether `name` is a macro to expand."""

    def define_at(self, src: str, pos: int) -> int:
        """Record the definition at `pos`; where it ends when it is usable, else -1."""

    def in_text(self, src: str, pos: int, name: str) -> tuple[str, int, int] | None:
        """The use of `name` whose arguments start at `pos`: its body, where it ends, how many
        arguments it took."""

    def in_math(self, latex: str, depth: int) -> str:
        """Math with the uses in it expanded."""

    def own_environment(self, name: str) -> bool:
        """Whether `name` is one of the paper's own environments (`\\newenvironment`)."""

    def environment(self, src: str, pos: int, name: str) -> tuple[str, int, str] | None:
        """A use of the environment `name` whose arguments start at `pos`: what its \\begin
        prints, where its arguments end, what its \\end prints."""

    def environment_ends(self, src: str) -> dict[int, tuple[int, int]]:
        """Where each \\begin of those environments in `src` is closed (its \\end's start and end)."""


# The names after which a control word is being defined, not used
DEFINERS = {
    "def",
    "gdef",
    "edef",
    "xdef",
    "let",
    "newcommand",
    "renewcommand",
    "providecommand",
    "DeclareRobustCommand",
    "DeclareMathOperator",
    "NewDocumentCommand",
    "RenewDocumentCommand",
    "ProvideDocumentCommand",
    "DeclareDocumentCommand",
}


# The definers whose definitions the tokenizer records where it reads them (`macros.Macros.define_at`)
_RECORDED = DEFINERS | {"newenvironment", "renewenvironment", "DeclareSIUnit"}
DEFINER_RE = re.compile(rf"\\(?:{'|'.join(map(re.escape, sorted(_RECORDED)))})(?![A-Za-z@])")
_MAX_ENDS_READS = 8  # the own environments' ends read again, at most, as more are defined: linear


def being_defined(toks: list[Token] | tuple[Token, ...], k: int) -> bool:
    """The macro name at `k`, right after \\def, \\newcommand{ ... or \\let, is its definition, not a use."""
    j = k - 1
    while j >= 0 and toks[j][0] == TEXT and not toks[j][1].strip() and k - j < 4:
        j -= 1
    if j >= 0 and toks[j][0] == LBRACE:
        j -= 1
    if j >= 0 and toks[j][0] == CMD and toks[j][1].removesuffix("*") in DEFINERS:  # `\\newcommand*` too
        return True
    return (CMD, "let") in toks[max(0, k - 4) : k]


XSPACE_RE = re.compile(r"\\[Xx]space(?![A-Za-z])")  # heppennames spells it \\Xspace
_XSPACES = ((CMD, "xspace"), (CMD, "Xspace"))
_XSPACE_EXCEPTIONS = set(",.'/?;:!~-)\u2013\u2014\u201d")
_PEEK = 40  # characters read to find the token after a use: a token's start is shorter


def _xspace_adds_space(following: Token | None) -> bool:
    """\\xspace: a space unless punctuation, a brace, a space or a footnote follows."""
    if following is None:
        return False
    kind, value = following
    if kind == TEXT:
        return bool(value) and not value[0].isspace() and value[0] not in _XSPACE_EXCEPTIONS
    if kind == CMD:
        return value not in ("footnote", "footnotemark", "xspace")
    return kind in (MATH, RAW, LBRACKET)


def _xspaced(toks: list[Token], src: str, after: int, nested: bool, reader: _Tokenizer) -> list[Token]:
    """What a use read whole expands to, its \\xspace (anywhere in it) a space unless the token
    after the use (at `after` in `src`) is punctuation, a brace, a space or a footnote; a use
    ending a macro's body (`nested`, nothing after it) leaves its \\xspace to the use of that
    macro, where the token after it is known."""
    if not any(t in _XSPACES or (t[0] in (MATH, DMATH) and XSPACE_RE.search(t[1])) for t in toks):
        return toks
    if nested and after >= len(src):
        return toks
    kept = [(kind, XSPACE_RE.sub("", value) if kind in (MATH, DMATH) else value) for kind, value in toks]
    kept = [t for t in kept if t not in _XSPACES]
    peek = _Tokenizer(src[after : after + _PEEK], shorthands=reader.shorthands)
    peek.aliases = reader.aliases
    following = peek.run()
    if _xspace_adds_space(following[0] if following else None):
        kept.append((TEXT, " "))
    return kept


class _Tokenizer:
    def __init__(self, src: str, macros: Macros | None = None, shorthands: Shorthands | None = None):
        self.src = src
        self.shorthands = shorthands  # babel's, read in text as TeX reads its active characters
        self.aliases: Mapping[str, tuple[str, str]] = macros.aliases if macros is not None else {}
        self.end_aliases: Mapping[str, list[str]] = macros.end_aliases if macros is not None else {}
        self.macros = macros
        self.recorder = macros  # where the definitions read are recorded (also in a definition's body)
        self.records_from = 0  # where in `src` a definition is recorded: past the one read as written
        self.depth = 0  # of the macro body being read (`expanded`): 0 for the source itself
        self.math_until = -1  # where a macro's body ending in math ends
        self.own_ends: dict[int, tuple[int, int]] | None = None  # the paper's environments' ends, once read
        self.ends_read = 0  # how often they were read again: a new environment defined after they were
        self.search = Searcher(src)
        self.toks: list[Token] = []

    _PAR_RE = re.compile(r"\n[ \t]*\n\s*")

    def text(self, chunk: str) -> None:
        chunk = chunk.replace("---", "\u2014").replace("--", "\u2013").replace("``", "\u201c").replace("''", "\u201d")
        pieces = self._PAR_RE.split(chunk)
        for k, piece in enumerate(pieces):
            if k:
                self.toks.append((PAR, ""))
            if piece:
                self.toks.append((TEXT, piece))

    _SPECIAL_RE = re.compile(r"[\\{}$&~\[\]]")

    def run(self) -> list[Token]:
        """One pass over the source, linear in its length (each search starts where the last ended)."""
        src, n, i = self.src, len(self.src), 0
        while i < n:
            pace.tick(len(self.toks))
            m = self._SPECIAL_RE.search(src, i)
            j = m.start() if m else n
            if j > i:
                self.text(src[i:j] if self.shorthands is None else self.shorthands.text(src, i, j))
            if not m:
                break
            c = src[j]
            if c == "\\":
                i = self.control(j)
            elif c == "$":
                i = self.dollar(j)
            elif c == "~" and self.shorthands is not None and (tie := self.shorthands.tie(src, j)):
                self.toks.append((TEXT, tie[0]))
                i = tie[1]
            else:
                self.toks.append(
                    {
                        "{": (LBRACE, ""),
                        "}": (RBRACE, ""),
                        "&": (AMP, ""),
                        "~": (TEXT, " "),
                        "[": (LBRACKET, ""),
                        "]": (RBRACKET, ""),
                    }[c]
                )
                i = j + 1
        return self.toks

    def dollar(self, j: int) -> int:
        src = self.src
        if src.startswith("$$", j):
            end = self.search.find("$$", j + 2)
            if end < 0:
                return j + 2
            if self.plain_alignment(src[j + 2 : end]):
                return end + 2
            eqno = _EQNO_RE.search(src, j + 2, end)  # plain TeX's `$$ x \eqno(3) $$` numbers it
            self.toks.extend(_math(DMATH, self.in_math(src[j + 2 : eqno.start() if eqno else end])))
            if eqno:
                self.toks.extend(_command("@tagequation", eqno.group(2)) + _labels(src[j + 2 : eqno.start()]))
            return end + 2
        end = find_unescaped(src, "$", j + 1, self.search.find)
        if end < 0 or self._PAR_RE.search(src, j + 1, end):
            self.toks.append((TEXT, "$"))
            return j + 1
        self.toks.extend(_math(MATH, self.in_math(src[j + 1 : end])))
        return end + 1

    def plain_alignment(self, display: str) -> bool:
        """Plain TeX's `$$\\eqalignno{a &= b & (1) \\cr ...}$$`: one display per numbered row,
        each numbered as written; False when the display is not one."""
        found = _ALIGNNO_RE.search(display)
        close = group_end(display, found.end() - 1, len(display)) if found else -1
        if found is None or close < 0:
            return False
        for row in display[found.end() : close].split("\\cr"):
            number = _ROW_NUMBER_RE.search(row)
            self.toks.extend(_math(DMATH, self.in_math(row[: number.start()] if number else row), "aligned"))
            if number:
                self.toks.extend(_command("@tagequation", number.group(1)))
        return True

    def in_math(self, latex: str) -> str:
        if self.recorder is not None and "\\" in latex:  # `\\def` inside a display: recorded there
            for definer in DEFINER_RE.finditer(latex):
                self.recorder.define_at(latex, definer.start())
        if self.macros is None:
            return latex
        return self.macros.in_math(latex, self.depth)

    # A control word; `@` joins letters into one name (\@secondoftwo, \href@noop: the internal
    # names of .bbl preambles and packages), while a lone `\@` stays the spacing command.
    _WORD_RE = re.compile(r"\\((?:[A-Za-z]+|@+[A-Za-z]+)(?:@+[A-Za-z]+)*)")

    _ENV_NAME_RE = re.compile(ENVIRONMENT_NAME)

    def control(self, j: int) -> int:
        src = self.src
        accent = _ACCENT_RE.match(src, j)
        if accent:
            self.toks.append((TEXT, _accented(accent)))
            return accent.end()
        word = self._WORD_RE.match(src, j)
        if not word:
            return self.control_symbol(j)
        name, k = word.group(1), word.end()
        if self.recorder is not None and name in _RECORDED and j >= self.records_from:
            end = self.recorder.define_at(src, j)
            if name.endswith("environment") and self.ends_read < _MAX_ENDS_READS:
                self.own_ends = None  # read again: a paper defines its environments in its preamble
            if end >= 0:
                return self.as_written(src[j:end], end)
        if self.macros is not None and self.expands(name):
            use = self.macros.in_text(src, k, name)
            if use is not None:
                return self.expanded(j, *use)
        if name in ("begin", "end"):
            env = self._ENV_NAME_RE.match(src, k)
            if not env:
                return match_end(AFTER_WORD_RE, src, k)
            own = self.own_environment(j, env.group(1), env.end()) if name == "begin" else None
            return own if own is not None else self.environment(name, env.group(1), env.end())
        if name in self.aliases and not src.startswith("*", k):
            kind, alias = self.aliases[name]
            return self.environment(kind, alias, k)
        if name == "verb" and k < len(src):
            return self.verb(k)
        if name == "lstinline":
            return self.inline_code(k)
        listing = INPUT_RE.match(src, j) if name == "lstinputlisting" else None
        if listing:
            return self.expanded(j, "".join(listing_float(listing.group("options"))), listing.end(), 0, spaced=False)
        if name in ("url", "path") or (name == "href" and src.startswith("{", k)):
            return self.url(name, k)
        if src.startswith("*", k) and name in _STARRABLE:
            name += "*"
            k += 1
        self.toks.append((CMD, name))
        return match_end(AFTER_WORD_RE, src, k)

    def own_environment(self, j: int, env: str, k: int) -> int | None:
        """The paper's own environment at `j` read as LaTeX reads it: what its \\begin prints,
        what it holds, what its \\end prints, as one text (a display its \\begin opens and its
        \\end closes, `{$$}{\\eqno(\\theX)$$}`, is one display); None when it is not one (no
        \\end closes it, an argument is missing, the budget is spent): read as before."""
        macros = self.macros
        if macros is None or self.depth > MAX_MACRO_DEPTH or not macros.own_environment(env) or env in _READ_HERE:
            return None
        if self.own_ends is None:
            self.own_ends = macros.environment_ends(self.src)
            self.ends_read += 1
        end, after = self.own_ends.get(j, (-1, -1))
        use = macros.environment(self.src, k, env) if end >= 0 else None
        if use is None or use[1] > end:
            return None
        begin, start, finish = use
        return self.expanded(j, begin + self.src[start:end] + finish, after, 0, spaced=False)

    def expanded(self, j: int, body: str, end: int, nargs: int, spaced: bool = True) -> int:
        """The body of the use at `j`, read as tokens where the use stands (its own macros
        expanded, MAX_MACRO_DEPTH deep as `macros` says), and where the source goes on.
        Math never touches other math (`$a$$b$` would read as display math). `spaced`: a
        macro's use, after which TeX drops the spaces (an environment's \\end is not one)."""
        outer = self.src, self.search, self.toks, self.depth, self.math_until, self.own_ends
        self.src, self.search, self.toks, self.depth, self.math_until = body, Searcher(body), [], self.depth + 1, -1
        self.own_ends = None
        toks = self.run()
        self.src, self.search, self.toks, self.depth, self.math_until, self.own_ends = outer
        if spaced:  # TeX drops the spaces after a control word; \\xspace may put one back
            end = end if nargs else match_end(AFTER_WORD_RE, self.src, end)
            toks = _xspaced(toks, self.src, end, self.depth > 0, self)
        before = self.src[j - 1 : j] == "$" or self.math_until == j
        if body.startswith("$") and self.toks and self.toks[-1][0] in (MATH, DMATH) and before:
            self.toks.append((TEXT, " "))
        self.toks.extend(toks)
        if body.endswith("$") and self.src.startswith("$", end):
            self.toks.append((TEXT, " "))
        self.math_until = end if body.endswith("$") else -1
        # as in TeX, the spaces after a control word ending what the use expands to are not
        # text (\\xspace: its own rule)
        ends_in_word = spaced and bool(toks) and toks[-1][0] == CMD and toks[-1] not in _XSPACES
        return match_end(AFTER_WORD_RE, self.src, end) if ends_in_word else end

    def as_written(self, definition: str, end: int) -> int:
        """A definition's tokens as written: nothing in it expanded or read as math or an alias, as
        TeX reads it; the definitions inside it (`\\newcommand{\\setup}{\\def\\a{...}}`) are recorded,
        as no use of a macro that defines macros is expanded here."""
        inside = _Tokenizer(definition, shorthands=self.shorthands)
        inside.recorder, inside.records_from = self.recorder, 1
        self.toks.extend(inside.run())
        return end

    def expands(self, name: str) -> bool:
        """Whether the control word `name` just read is a use of one of the paper's macros to expand."""
        return (
            self.macros is not None
            and self.depth <= MAX_MACRO_DEPTH
            and self.macros.defines(name)
            and not being_defined(self.toks, len(self.toks))
        )

    def control_symbol(self, j: int) -> int:
        src = self.src
        if j + 1 >= len(src):
            return j + 1
        c = src[j + 1]
        if c == "\\":
            self.toks.append((NEWLINE, ""))
            return match_end(_LINE_BREAK_OPTIONS_RE, src, j + 2)
        if c in "([":
            close = "\\)" if c == "(" else "\\]"
            end = self.search.find(close, j + 2)
            if end < 0:
                return j + 2
            self.toks.extend(_math(MATH if c == "(" else DMATH, self.in_math(src[j + 2 : end])))
            return end + 2
        self.toks.append((TEXT, _CONTROL_SYMBOLS.get(c, "")))
        return j + 2

    def environment(self, kind: str, env: str, k: int) -> int:
        src = self.src
        if kind == "end":
            self.toks.append((END, env))
            return k
        if env in _READ_HERE:
            end, after = self.find_env_end(env, k)
            if env == "lstlisting":
                return self.listing(k, end, after)
            if end < 0:
                self.toks.append((BEGIN, env))
                return k
            inner = src[k:end]
            if env in _MATH_ENVS:
                self.toks.extend(_display(env, self.in_math(inner)))
            elif env in VERBATIM_ENVS:
                self.toks.append((VERB, _verbatim_body(env, inner)))
            return after
        self.toks.append((BEGIN, env))
        return k

    def listing(self, k: int, end: int, after: int) -> int:
        """A code listing whose options `k` starts: its code inside the float its caption option
        makes (`listings.py`); an unclosed one's float stands before its \\begin."""
        options = OPTIONS_RE.match(self.src, k)
        before, close = listing_float(options.group("options") if options else None)
        start = options.end() if options else k
        self.expanded(k, before if end >= 0 else before + close, start, 0, spaced=False)
        if end < 0:
            self.toks.append((BEGIN, "lstlisting"))
            return start
        self.toks.append((VERB, _verbatim_body("lstlisting", self.src[start:end])))
        return self.expanded(after, close, after, 0, spaced=False)

    def find_env_end(self, env: str, k: int) -> tuple[int, int]:
        closer = "\\end{" + env + "}"
        best = self.search.find(closer, k)
        best_after = best + len(closer)
        for word in self.end_aliases.get(env, ()):
            pos = self.search.find_word(word, k)
            if pos >= 0 and (best < 0 or pos < best):
                best, best_after = pos, pos + len(word)
        return best, best_after

    def verb(self, k: int) -> int:
        src = self.src
        if src.startswith("*", k):
            k += 1
        delim = src[k : k + 1]
        end = -1 if not delim or delim.isalpha() or delim.isspace() else src.find(delim, k + 1, k + 2000)
        line_end = src.find("\n", k + 1, k + 2000)
        if end < 0 or (0 <= line_end < end):
            self.toks.append((CMD, "verb"))
            return k
        self.toks.append((TEXT, src[k + 1 : end]))
        return end + 1

    def inline_code(self, k: int) -> int:
        """\\lstinline[options]|code| (or {code}): the code, as \\verb prints it."""
        k = match_end(OPTIONS_RE, self.src, k)
        if self.src.startswith("{", k):
            return k  # the group is read as text
        return self.verb(k)

    def url(self, name: str, k: int) -> int:
        src = self.src
        brace = match_end(AFTER_WORD_RE, src, k)
        if not src.startswith("{", brace):
            self.toks.append((CMD, name))
            return k
        # the first `}` closes it (a memoised search: a long run of unclosed \url{ stays linear)
        end = self.search.find("}", brace + 1)
        if end < 0 or end - brace > 4000:
            self.toks.append((CMD, name))
            return k
        if name == "href":
            self.toks.append((CMD, "href"))
        self.toks.append((RAW, _url_text(src[brace + 1 : end])))
        return end + 1


_DOIBASE_RE = re.compile(r"\\doibase(?![A-Za-z])")


_URL_CONTROL_RE = re.compile(r"\\(?:([_%#&~$/])|[A-Za-z@]+)")


def _url_text(raw: str) -> str:
    """A URL as printed: `\\doibase` (REVTeX's DOI prefix) spelled out, escapes unescaped, other
    control words dropped, so no macro name is left inside a link."""
    raw = _DOIBASE_RE.sub("https://doi.org/", "".join(raw.split()))
    return _URL_CONTROL_RE.sub(lambda m: m.group(1) or "", raw)


# ---------------------------------------------------------------------------------------------
# Math as tokens: one MATH or DMATH per formula, and each numbered display followed by its number
# ---------------------------------------------------------------------------------------------

_LABEL_KEY_RE = re.compile(r"\\label[ \t]*\{([^{}]*)\}")


# A text size switch inside math (`$^\\textrm{\\scriptsize 98}$`, ATLAS's author marks) sizes nothing
# a reader sees
_MATH_SIZE_RE = re.compile(rf"\\(?:{'|'.join(SIZE_SWITCHES)})(?![A-Za-z])\s*")


def _clean_math(latex: str) -> str:
    cleaned = " ".join(_MATH_SIZE_RE.sub("", _LABEL_KEY_RE.sub("", latex)).replace("\\protect", "").split())
    # a control space or a row break ending the math (`$1, 2, \\ldots\\ $`) sets nothing; kept,
    # its backslash would stand before the closing dollar, which then reads as a literal one
    return cleaned.rstrip(" \\") if cleaned.endswith("\\") else cleaned


_ALIGNNO_RE = re.compile(r"\\l?eqalignno\s*\{")
_ROW_NUMBER_RE = re.compile(r"&\s*\(([^()&$\\]{1,20})\)\s*\Z")
_NONUMBER_RE = re.compile(r"\\(?:nonumber|notag|IEEEnonumber)(?![A-Za-z])")
_TAG_RE = re.compile(r"\\tag\*?[ \t]*\{((?:[^{}\n]|\{[^{}\n]{0,40}\}){0,60})\}")  # one brace level: \tag{\ref{x}'}
# `\eqno(3)`, `\eqno \mathrm{(\theUniversal)}`: the number as written, or the counter it prints
_EQNO_RE = re.compile(
    r"\\l?eqno\s*(?:\\(?:mathrm|rm|hbox|text|textrm)\s*)?(\{)?\s*\(?\s*([^()$\\{}]{1,20}?|\\the[A-Za-z]+)\s*\)?\s*(?(1)\})\s*$"
)
_COLUMNS_RE = re.compile(r"\A\s*\{[^{}]{0,10}\}")


def _math(kind: str, latex: str, wrapper: str = "") -> list[Token]:
    """The formula's token (none when it sets nothing), inside its `wrapper` environment."""
    latex = _clean_math(latex)
    if not latex:
        return []
    if wrapper == "inline":
        kind = MATH
    elif wrapper:
        latex = f"\\begin{{{wrapper}}}{latex}\\end{{{wrapper}}}"
    return [(kind, latex)]


def _command(name: str, argument: str) -> list[Token]:
    """`\\name{argument}` as tokens: an equation's number (`@tagequation`) or a `label`."""
    return [(CMD, name), (LBRACE, ""), (TEXT, argument), (RBRACE, "")]


def _labels(latex: str) -> list[Token]:
    return [tok for label in _LABEL_KEY_RE.findall(latex) for tok in _command("label", label)]


def _display(env: str, inner: str) -> list[Token]:
    """A display environment: one DMATH per equation it numbers, each followed by its number
    (`\\@stepequation`, or `\\@tagequation{x}` for \\tag{x}) and that row's `\\label`s, so the
    converter numbers equations in document order and \\eqref reads. The rows of an alignment
    go with the numbered row they end at (`a &= b \\nonumber \\\\ &= c` is one equation); an
    alignment numbering no row stays one display."""
    wrapper = _MATH_ENVS[env]
    if env.startswith("IEEEeqnarray"):
        inner = _COLUMNS_RE.sub("", inner, count=1)
    numbered = not env.endswith("*") and env not in _UNNUMBERED_MATH
    if not numbered or not wrapper or env.startswith("multline"):
        if _TAG_RE.search(inner) or (numbered and not _NONUMBER_RE.search(inner)):
            return _math(DMATH, inner, wrapper) + _equation_number(inner)  # a starred display's \tag is printed
        return _math(DMATH, inner, wrapper)
    columns = _COLUMNS_RE.match(inner) if wrapper == "alignedat" else None
    prefix = columns.group() if columns else ""
    groups: list[list[str]] = [[]]
    for row in _top_rows(inner[len(prefix) :]):
        groups[-1].append(row)
        if _numbers(row):
            groups.append([])
    if not groups[-1]:
        groups.pop()
    elif len(groups) > 1:
        groups[-2].extend(groups.pop())  # unnumbered rows after the last number stay with it
    toks: list[Token] = []
    for rows in groups:
        toks += _math(DMATH, prefix + "\\\\".join(rows), wrapper)
        numbers = [row for row in rows if _numbers(row)]
        # a \\label in an alignment numbering no row names the equation before it
        toks += _equation_number(numbers[-1], "".join(rows)) if numbers else _labels("".join(rows))
    return toks


def _numbers(row: str) -> bool:
    return bool(row.strip()) and (not _NONUMBER_RE.search(row) or bool(_TAG_RE.search(row)))


def _equation_number(row: str, rows: str | None = None) -> list[Token]:
    """The number of the equation `row` ends (its \\tag, else the next), then the `\\label`s
    of its `rows` (a label on an unnumbered row names the number its group prints)."""
    tag = _TAG_RE.search(row)
    number: list[Token] = []
    if tag is None:
        number = [(CMD, "@stepequation")]
    elif tag.group(1).strip() or not tag.group().startswith("\\tag*"):  # `\\tag*{}` prints nothing
        number = _command("@tagequation", tag.group(1))
    return number + _labels(row if rows is None else rows)


# A number as TeX reads one in a length (`-2`, `1.5`, `.5`)
NUMBER = r"-?(?:\d+(?:\.\d*)?|\.\d+)"
# What follows a line break `\\`, in text and in a formula's rows: a star, a length (`\\[2pt]`,
# `\\[.5\baselineskip]`, `\\[\jot]`)
_LINE_BREAK_OPTIONS = rf"\*?(?:[ \t]*\[[ \t]*(?:{NUMBER}[ \t]*[a-z]{{2}}|(?:{NUMBER})?[ \t]*\\[A-Za-z]+)[ \t]*\])?"
_LINE_BREAK_OPTIONS_RE = re.compile(_LINE_BREAK_OPTIONS)
_ROW_PART_RE = re.compile(rf"\\\\{_LINE_BREAK_OPTIONS}|\\(?:begin|end)(?![A-Za-z])|\\.|[{{}}]")


def _top_rows(inner: str) -> list[str]:
    """The rows of an alignment: split at `\\\\` outside braces and nested environments (a
    `cases` or matrix inside a row keeps its own rows)."""
    rows: list[str] = []
    depth = 0
    start = 0
    for m in _ROW_PART_RE.finditer(inner):
        token = m.group()
        if token in ("{", "\\begin"):
            depth += 1
        elif token in ("}", "\\end"):
            depth = max(0, depth - 1)
        elif token.startswith("\\\\") and depth == 0:
            rows.append(inner[start : m.start()])
            start = m.end()
    rows.append(inner[start:])
    return rows


_MINTED_LANGUAGE_RE = re.compile(r"[ \t]*\{[^}\n]{0,40}\}")


def _verbatim_body(env: str, inner: str) -> str:
    """The code an environment prints: its options (listings' grammar, over lines and braces
    as fancyvrb's and minted's are written too; a listing's are read for its float, `listing`)
    and minted's language are not code."""
    start = match_end(OPTIONS_RE, inner, 0) if env in ("minted", "Verbatim", "Verbatim*") else 0
    return inner[match_end(_MINTED_LANGUAGE_RE, inner, start) if env == "minted" else start :].strip("\n")


def tokenize(src: str, macros: Macros | None = None, shorthands: Shorthands | None = None) -> list[Token]:
    """`macros`: the paper's macros, expanded as they are read (in math before its rows are
    numbered, so `\\def\\nn{\\nonumber}` is a \\nonumber); `shorthands`: babel's, read in text."""
    return _Tokenizer(src, macros, shorthands).run()


def match_groups(toks: list[Token]) -> list[int]:
    """Index of the partner of every `{`/`}` and \\begin/\\end; -1 when unmatched. Well nested.
    Linear: one pass with a stack, each opener pushed and popped once (a closer with no open
    partner is skipped, so a stray `}` pops nothing)."""
    match = [-1] * len(toks)
    stack: list[int] = []
    open_count: dict[str, int] = {}
    for i, (kind, value) in enumerate(toks):
        if kind == LBRACE or kind == BEGIN:
            key = "{" if kind == LBRACE else value
            stack.append(i)
            open_count[key] = open_count.get(key, 0) + 1
        elif kind == RBRACE or kind == END:
            key = "{" if kind == RBRACE else value
            if not open_count.get(key):
                continue
            while stack:
                j = stack.pop()
                kj = "{" if toks[j][0] == LBRACE else toks[j][1]
                open_count[kj] -= 1
                if kj == key:
                    match[i], match[j] = j, i
                    break
    return match


def match_brackets(toks: list[Token]) -> list[int]:
    """Partner of every `[` / `]` at the same brace depth within one paragraph; -1 otherwise.
    Linear: one pass with a stack."""
    match = [-1] * len(toks)
    stack: list[tuple[int, int]] = []
    depth = 0
    for i, (kind, _) in enumerate(toks):
        if kind == LBRACKET:
            stack.append((i, depth))
        elif kind == RBRACKET:
            if stack and stack[-1][1] == depth:
                j = stack.pop()[0]
                match[i], match[j] = j, i
        elif kind == LBRACE:
            depth += 1
        elif kind == RBRACE:
            depth -= 1
            while stack and stack[-1][1] > depth:
                stack.pop()
        elif kind in (PAR, BEGIN, END):
            stack.clear()
    return match
