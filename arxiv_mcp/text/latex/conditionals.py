"""TeX's conditionals (`\\if... \\else ... \\fi`) decided where TeX's answer is known without running it.

One reader for both places they are met: each file's text before it is tokenized (`\\iffalse`,
a common way to hide text, and the flags of the text's own `\\newif`) and a macro's body once its
arguments are in place (`\\ifnum` on two numbers, `\\ifmmode` where the use's mode is known).
The blanks TeX skips after a control word (or the space ending a number) go with the word; the
branch not taken is left out. Other conditionals (`\\ifx`, `\\ifdim`) are kept whole, their
`\\else` and `\\fi` counted, and reported: a macro whose body holds one is not expanded here.
"""

from __future__ import annotations

import re

from .tokens import AFTER_WORD_RE

# A conditional's words, each with the blanks TeX skips after it (as after any control word):
# \newif's declaration, a declared flag set (`\drafttrue`), \if... (\ifnum with its two numbers
# when they are written out), \else, \fi and \or.
_CONDITIONAL_RE = re.compile(
    r"\\(?:newif\\if(?P<declared>[A-Za-z]+)|(?P<word>if[A-Za-z]*|else|fi|or)|(?P<flag>[A-Za-z]+)(?P<value>true|false))"
    r"(?![A-Za-z])(?:(?<=\\ifnum)[ \t]*(?P<left>-?\d{1,10})[ \t]*(?P<op>[<=>])[ \t]*(?P<right>-?\d{1,10})(?!\d))?"
    + AFTER_WORD_RE.pattern
)
_BRACED_RE = re.compile(r"[ \t]*\{")  # \ifthenelse{..}, etoolbox's \iftoggle{..}: commands, closed by no \fi


def decide(text: str, math: bool | None = None) -> tuple[str, bool] | None:
    """`text` with the branches its decided conditionals do not take left out, and whether every
    conditional in it was decided; None when a decided one is not closed. Decided: `\\iftrue`,
    `\\iffalse`, a flag of the text's own `\\newif` (false until `\\drafttrue` sets it, in the
    order of the text), `\\ifnum` on two numbers, and `\\ifmmode` when `math` gives the mode."""
    flags: dict[str, bool] = {}
    stack: list[bool | None] = []  # per open conditional: the branch kept now, None when undecided
    hiding = 0  # how many of them hide the text now (a count: nesting may be deep in hostile text)
    undecided = False
    out: list[str] = []
    pos = 0
    for m in _CONDITIONAL_RE.finditer(text):
        shown = not hiding
        word = m.group("word")
        if word is None:
            if shown and m.group("declared"):
                flags.setdefault(m.group("declared"), False)
            elif shown and m.group("flag") in flags:
                flags[m.group("flag")] = m.group("value") == "true"
            continue
        taken = _holds(m, flags, math) if word.startswith("if") else None
        if word.startswith("if") and taken is None:
            if not _BRACED_RE.match(text, m.end("word")):
                stack.append(None)
                undecided = True
            continue
        if not word.startswith("if") and (word == "or" or not stack or stack[-1] is None):
            undecided = True  # an \ifcase's \or, or the \else or \fi of an undecided one (or of none)
            if word == "fi" and stack:
                stack.pop()
            continue
        if shown:
            out.append(text[pos : m.start()])
        pos = m.end()
        if word == "else":
            stack[-1] = not stack[-1]
            hiding += 1 if stack[-1] is False else -1
        elif word == "fi":
            hiding -= stack.pop() is False
        else:
            stack.append(taken)
            hiding += taken is False
    if any(branch is not None for branch in stack):
        return None
    out.append(text[pos:])
    return "".join(out), not undecided


def _holds(m: re.Match[str], flags: dict[str, bool], math: bool | None) -> bool | None:
    """Whether the conditional `m` opens takes its first branch; None when that is not known here."""
    word = m.group("word")
    if m.group("op") is not None:
        left, right = int(m.group("left")), int(m.group("right"))
        return {"<": left < right, "=": left == right, ">": left > right}[m.group("op")]
    if word in ("iftrue", "iffalse"):
        return word == "iftrue"
    return math if word == "ifmmode" else flags.get(word[2:])
