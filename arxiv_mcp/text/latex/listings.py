"""Code listings of the listings package as the PDF prints their captions.

`\\lstinputlisting[caption={...},label={...}]{file}` and `\\begin{lstlisting}[caption=...]`
take their caption and label as options, which a reader of the tokens never sees as a caption
(the environment is verbatim; the command's options would print as `[language=C,...]`). Before
tokenizing, each becomes a `listing` float holding that caption and label (`Listing 2: ...`,
which `\\ref` then names) where the listing stands; the code of a listing kept in another file is
not read. Options without a caption print nothing.
"""

from __future__ import annotations

import re

_OPTIONS = r"\[(?P<options>(?:[^\[\]{}]|\{(?:[^{}]|\{[^{}]*\})*\}){0,2000})\]"
_INPUT_RE = re.compile(r"\\lstinputlisting[ \t]*(?:" + _OPTIONS + r")?[ \t]*\{[^{}\n]{0,300}\}")
_ENVIRONMENT_RE = re.compile(r"\\begin\{lstlisting\}[ \t]*" + _OPTIONS)
_KEY_RE = re.compile(r"(?:^|,)\s*(?P<key>caption|label|title)\s*=\s*(?P<value>\{(?:[^{}]|\{[^{}]*\})*\}|[^,]*)")


def _caption(options: str | None) -> str:
    """The LaTeX a listing's options print before its code: a captioned float, or nothing."""
    values = {m.group("key"): m.group("value").strip() for m in _KEY_RE.finditer(options or "")}
    unbraced = {key: value[1:-1] if value.startswith("{") else value for key, value in values.items()}
    if "caption" in unbraced:
        label = f"\\label{{{unbraced['label']}}}" if unbraced.get("label") else ""
        return f"\\begin{{listing}}\\caption{{{unbraced['caption']}}}{label}\\end{{listing}}"
    if "title" in unbraced:  # a title is printed unnumbered
        return f"\n\n{unbraced['title']}\n\n"
    return ""


def listing_captions(source: str) -> str:
    """The source with every listing's caption option made a `listing` float (see the module)."""
    if "lst" not in source:
        return source
    source = _INPUT_RE.sub(lambda m: _caption(m.group("options")), source)
    return _ENVIRONMENT_RE.sub(lambda m: _caption(m.group("options")) + "\\begin{lstlisting}", source)
