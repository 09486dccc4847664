"""Code listings of the listings package as the PDF prints their captions.

`\\lstinputlisting[caption={...},label={...}]{file}` and `\\begin{lstlisting}[caption=...]`
take their caption and label as options, which a reader of the tokens never sees as a caption
(the environment is verbatim; the command's options would print as `[language=C,...]`). Before
tokenizing, each becomes a `listing` float holding that caption and label (`Listing 2: ...`,
which `\\ref` then names) and the environment's code, as minted's `listing` holds its code
(`algorithms.py` makes one record of them); the code of a listing kept in another file is not
read. Options without a caption print nothing.
"""

from __future__ import annotations

import re

_OPTIONS = r"\[(?P<options>(?:[^\[\]{}]|\{(?:[^{}]|\{[^{}]*\})*\}){0,2000})\]"
_INPUT_RE = re.compile(r"\\lstinputlisting[ \t]*(?:" + _OPTIONS + r")?[ \t]*\{[^{}\n]{0,300}\}")
_ENVIRONMENT_RE = re.compile(r"\\begin\{lstlisting\}[ \t]*" + _OPTIONS)
_END = "\\end{lstlisting}"
_KEY_RE = re.compile(r"(?:^|,)\s*(?P<key>caption|label|title)\s*=\s*(?P<value>\{(?:[^{}]|\{[^{}]*\})*\}|[^,]*)")


def _float(options: str | None) -> tuple[str, str]:
    """The LaTeX a listing's options print before its code and after it: a captioned float
    around it, or an unnumbered title before it, or nothing."""
    values = {m.group("key"): m.group("value").strip() for m in _KEY_RE.finditer(options or "")}
    unbraced = {key: value[1:-1] if value.startswith("{") else value for key, value in values.items()}
    if "caption" in unbraced:
        label = f"\\label{{{unbraced['label']}}}" if unbraced.get("label") else ""
        return f"\\begin{{listing}}\\caption{{{unbraced['caption']}}}{label}", "\\end{listing}"
    if "title" in unbraced:  # a title is printed unnumbered
        return f"\n\n{unbraced['title']}\n\n", ""
    return "", ""


def listing_captions(source: str) -> str:
    """The source with every listing's caption option made a `listing` float (see the module).
    Linear: the source is searched for ends once, each from the environment it closes, and
    not again once none is left (an unclosed listing's code follows its float)."""
    if "lst" not in source:
        return source
    source = _INPUT_RE.sub(lambda m: "".join(_float(m.group("options"))), source)
    out, pos, closed = [], 0, True
    for m in _ENVIRONMENT_RE.finditer(source):
        if m.start() < pos:
            continue
        before, after = _float(m.group("options"))
        end = source.find(_END, m.end()) if closed else -1
        closed = end >= 0
        code = "\\begin{lstlisting}" + source[m.end() : end + len(_END)] if closed else ""
        out.append(source[pos : m.start()] + before + code + after + ("" if closed else "\\begin{lstlisting}"))
        pos = end + len(_END) if closed else m.end()
    out.append(source[pos:])
    return "".join(out)
