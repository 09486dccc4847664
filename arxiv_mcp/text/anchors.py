"""Link targets a source hides behind words: `<a href=url>code</a>`, `\\href{url}{our code}`.

The extractors write a link's words and drop its target (the text reads as the paper prints
it); `links.py` needs the target, so each extraction also keeps the targets here, read from
the source itself in one linear scan. Invariants: only absolute http(s)/ftp targets (a
citation's `#bib.bib3` is a cross-reference, not a link); a link whose words show its own
target is left out (the text already has it); HTML page furniture outside the article
(arXiv's header, footer, navigation) is not the paper's; at most _MAX_ANCHORS per paper.
"""

from __future__ import annotations

import html
import re

from .document import Anchor

_MAX_ANCHORS = 2000
_MAX_WORDS = 200
_ANCHOR_RE = re.compile(r"<a\b([^>]{0,2000})>(.{0,4000}?)</a\s*>", re.IGNORECASE | re.DOTALL)
_HREF_RE = re.compile(r"""\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.IGNORECASE)
_TAG_RE = re.compile(r"<[^>]*>")
_ABSOLUTE_RE = re.compile(r"(?:https?|ftp)://\S+", re.IGNORECASE)
_BRACED = r"\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}"
"""A group three deep (`{\\emph {\\bibinfo {booktitle} {{Title}}}}`, as REVTeX's .bbl writes)."""
_TEX_HREF_RE = re.compile(
    r"\\href\s*\{\s*(\\doibase\s*)?([^{}\s]{1,2000})\s*\}\s*\{((?:[^{}]|" + _BRACED + r"){0,2000})\}"
)
"""`\\href{url}{words}`; REVTeX's `\\href {\\doibase 10.1103/X} {...}` is a DOI link."""
_TEX_COMMENT_RE = re.compile(r"(?<!\\)%[^\n]*")
_TEX_COMMAND_RE = re.compile(r"\\bib(?:field|info)\s*\{[^{}]*\}|\\[A-Za-z@]+\*?|[{}~]")
"""Commands and braces of a link's words; REVTeX's `\\bibinfo {journal}` names a field, not words."""
_TEX_ESCAPE_RE = re.compile(r"\\([#%_&~$])")


def html_anchors(raw: bytes) -> tuple[Anchor, ...]:
    page = raw.decode("utf-8", errors="replace")
    start = page.find("<article")
    if start >= 0:
        end = page.find("</article>", start)
        page = page[start : end if end > 0 else len(page)]
    found: list[Anchor] = []
    for match in _ANCHOR_RE.finditer(page):
        href = _HREF_RE.search(match.group(1))
        if href is None or ("ltx_ref" in match.group(1) and "ltx_href" not in match.group(1) and "#" in href.group(0)):
            continue  # LaTeXML's cross-reference to a place of the page (a citation, a figure)
        url = html.unescape(next(g for g in href.groups() if g is not None)).strip()
        words = " ".join(html.unescape(_TAG_RE.sub(" ", match.group(2))).split())
        _keep(found, url, words)
        if len(found) >= _MAX_ANCHORS:
            break
    return tuple(found)


def tex_anchors(files: dict[str, bytes]) -> tuple[Anchor, ...]:
    """`\\href` targets of the e-print's TeX files and bibliography (`.bbl`), comments left
    out, in file order."""
    found: list[Anchor] = []
    for name, data in files.items():
        if not name.lower().endswith((".tex", ".ltx", ".bbl")):
            continue
        source = _TEX_COMMENT_RE.sub("", data.decode("utf-8", errors="replace"))
        for match in _TEX_HREF_RE.finditer(source):
            url = _TEX_ESCAPE_RE.sub(r"\1", match.group(2))
            if match.group(1) and not url.startswith("http"):
                url = "https://doi.org/" + url
            if "#1" in url or "\\" in url:
                continue  # a macro's parameter, not a link
            words = " ".join(_TEX_COMMAND_RE.sub(" ", _TEX_ESCAPE_RE.sub(r"\1", match.group(3))).split())
            words = re.sub(r"\s+([,.;:)])", r"\1", words).replace("( ", "(")
            _keep(found, url, words)
            if len(found) >= _MAX_ANCHORS:
                return tuple(found)
    return tuple(found)


def _keep(found: list[Anchor], url: str, words: str) -> None:
    if not _ABSOLUTE_RE.fullmatch(url):
        return
    bare = url.split("://", 1)[1].rstrip("/")
    if bare and bare.casefold() in words.casefold():
        return  # the words show the target: the text has it already
    found.append(Anchor(url, words[:_MAX_WORDS]))
