"""AASTeX's deluxetable as the table it prints.

`\\begin{deluxetable}{lcc} \\tablecaption{..} \\tablehead{\\colhead{A} & ..} \\startdata rows
\\enddata \\tablecomments{..} \\end{deluxetable}` sets its caption, header and rows through
commands a tabular does not have, so read as it stands its column spec, `\\tablenum{1}` and
`\\tablewidth{0pt}` print as text and its rows are no table. Before tokenizing, each becomes a
`table` float holding a tabular of the same columns: the caption, the header row, the rows, then
the notes (`\\tablecomments`, `\\tablenotetext`, `\\tablerefs`) as text under it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .tokens import group_end

_BEGIN_RE = re.compile(r"\\begin\{(deluxetable\*?)\}[ \t]*(?:\[[^\]\n]{0,40}\])?[ \t]*")
_SETTINGS_RE = re.compile(r"\\(?:tablenum|tabletypesize|tablewidth|tablecolumns)[ \t]*(?=\{)")
_ROTATE_RE = re.compile(r"\\(?:rotate|tablecolumns\s*\d+)(?![A-Za-z])")
_COLHEAD_RE = re.compile(r"\\colhead[ \t]*(?=\{)")
_CUTINHEAD_RE = re.compile(r"\\cutinhead[ \t]*(?=\{)")
_PARTS = ("tablecaption", "tablehead")
MAX_TABLE = 200_000  # characters of one deluxetable at most; a longer one is left as written


def _group_end(src: str, i: int) -> int:
    """Index past the brace group opening at i (nesting counted, `\\{` skipped), or -1."""
    close = group_end(src, i, MAX_TABLE)
    return close + 1 if close >= 0 else -1


def _drop_commands(src: str, pattern: re.Pattern[str]) -> str:
    """`src` without each command of `pattern` and its brace argument."""
    return _replace_commands(src, pattern, lambda argument: "")


def _unwrap(src: str, pattern: re.Pattern[str], before: str = "", after: str = "") -> str:
    """`src` with each command of `pattern` replaced by its argument (between before and after)."""
    return _replace_commands(src, pattern, lambda argument: before + argument + after)


def _replace_commands(src: str, pattern: re.Pattern[str], replacement: Callable[[str], str]) -> str:
    """`src` with each command of `pattern` and its brace argument replaced by `replacement(argument)`."""
    out, pos = [], 0
    for m in pattern.finditer(src):
        if m.start() < pos:
            continue
        end = _group_end(src, m.end())
        if end < 0:
            continue
        out.append(src[pos : m.start()] + replacement(src[m.end() + 1 : end - 1]))
        pos = end
    out.append(src[pos:])
    return "".join(out)


def _command_argument(src: str, name: str) -> tuple[str, str] | None:
    """The argument of the first `\\name{...}` in src, and src without that command."""
    m = re.search(rf"\\{name}[ \t]*(?=\{{)", src)
    if m is None:
        return None
    end = _group_end(src, m.end())
    if end < 0:
        return None
    return src[m.end() + 1 : end - 1], src[: m.start()] + src[end:]


def _converted(env: str, spec: str, inner: str) -> str:
    columns = len(re.findall(r"[lcrpXmb]", re.sub(r"\{[^{}]*\}", "", spec))) or 1
    parts: dict[str, str] = {}
    for name in _PARTS:
        found = _command_argument(inner, name)
        if found is not None:
            parts[name], inner = found
    start, stop = inner.find("\\startdata"), inner.find("\\enddata")
    if start < 0:
        return ""
    stop = stop if stop > start else len(inner)
    rows = inner[start + len("\\startdata") : stop]
    notes = inner[:start] + inner[stop + len("\\enddata") :]
    rows = _unwrap(rows, _CUTINHEAD_RE, f"\\multicolumn{{{columns}}}{{c}}{{", "}\\\\")
    head = parts.get("tablehead", "").strip()
    if head and not head.endswith("\\\\"):
        head += " \\\\"
    caption = f"\\caption{{{parts['tablecaption']}}}" if "tablecaption" in parts else ""
    notes = _ROTATE_RE.sub("", _drop_commands(notes, _SETTINGS_RE))
    float_env = "table*" if env.endswith("*") else "table"
    return (
        f"\\begin{{{float_env}}}{caption}\\begin{{tabular}}{{{spec}}}{_unwrap(head, _COLHEAD_RE)}\n{rows}"
        f"\\end{{tabular}}\n\n{notes}\\end{{{float_env}}}"
    )


def deluxe_tables(source: str) -> str:
    """The source with every deluxetable made a table float of a tabular (see the module)."""
    if "deluxetable" not in source:
        return source
    out, pos = [], 0
    for m in _BEGIN_RE.finditer(source):
        if m.start() < pos:
            continue
        spec_end = _group_end(source, m.end())
        close = source.find(f"\\end{{{m.group(1)}}}", m.end(), m.end() + MAX_TABLE)
        if spec_end < 0 or close < 0:
            continue
        table = _converted(m.group(1), source[m.end() + 1 : spec_end - 1], source[spec_end:close])
        if not table:
            continue
        out.append(source[pos : m.start()] + table)
        pos = close + len(f"\\end{{{m.group(1)}}}")
    out.append(source[pos:])
    return "".join(out)
