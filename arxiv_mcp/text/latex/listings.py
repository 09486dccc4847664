"""Code listings of the listings package as the PDF prints their captions.

`\\lstinputlisting[caption={...},label={...}]{file}` and `\\begin{lstlisting}[caption=...]`
take their caption and label as options, which a reader of the tokens never sees as a caption
(the environment is verbatim; the command's options would print as `[language=C,...]`). The
tokenizer reads each as a `listing` float holding that caption and label (`Listing 2: ...`,
which `\\ref` then names) and the environment's code, as minted's `listing` holds its code
(`algorithms.py` makes one record of them); the code of a listing kept in another file is not
read. Options without a caption print nothing. `tokens` reads the options of every code
environment and of \\lstinline by this grammar (over lines, brackets in braces).
"""

from __future__ import annotations

import re

_OPTIONS = r"\[(?P<options>(?:[^\[\]{}]|\{(?:[^{}]|\{[^{}]*\})*\}){0,2000})\]"
INPUT_RE = re.compile(r"\\lstinputlisting[ \t]*(?:" + _OPTIONS + r")?[ \t]*\{[^{}\n]{0,300}\}")
OPTIONS_RE = re.compile(r"[ \t]*" + _OPTIONS)  # a code environment's or \\lstinline's
_KEY_RE = re.compile(r"(?:^|,)\s*(?P<key>caption|label|title)\s*=\s*(?P<value>\{(?:[^{}]|\{[^{}]*\})*\}|[^,]*)")


def listing_float(options: str | None) -> tuple[str, str]:
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
