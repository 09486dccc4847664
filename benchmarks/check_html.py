"""Check HTML extraction on arXiv's real pages: title, abstract, every heading in order,
math as LaTeX (adjacent formulas never glued as `$a$$b$`), every author's name on the
author line, no LaTeXML labels ("Affiliation:", "footnotemark") in the front matter, and
no markup, script or style residue.

    python benchmarks/check_html.py [fixtures_dir]    (default <shared>/fixtures/arxiv, where
    <shared> is ../shared from the checkout or from its parent, as for a worktree; in a plain
    checkout without it, the real pages the tests carry in tests/fixtures)

Expected headings are read from the page itself (LaTeXML's ltx_title_* elements), so the
check is independent of the extractor. Exits 1 when any check fails.
"""

from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arxiv_mcp.errors import ExtractionError  # noqa: E402
from arxiv_mcp.text.html import html_to_text  # noqa: E402

HEADING_CLASSES = ("ltx_title_section", "ltx_title_subsection", "ltx_title_subsubsection", "ltx_title_appendix")
RESIDUE = re.compile(
    r"<\s*/?\s*(div|span|script|style|math|a|p|section|img)\b|function\s*\(|\{display:|"
    r"var\(--|&[a-z]+;",
    re.I,
)


class _Headings(HTMLParser):
    """Collects the text of LaTeXML section titles, skipping the math inside them."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.headings: list[str] = []
        self._depth = 0  # >0 while inside a heading element
        self._tags: list[str] = []
        self._math = 0
        self._buf: list[str] = []

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if self._depth:
            self._depth += 1
            if tag == "math":
                self._math += 1
                self._buf.append(dict(attrs).get("alttext") or "")
        elif any(c in HEADING_CLASSES for c in classes) and tag.startswith("h"):
            self._depth = 1
            self._buf = []

    def handle_endtag(self, tag):
        if self._depth:
            if tag == "math":
                self._math -= 1
            self._depth -= 1
            if self._depth == 0:
                self.headings.append(" ".join("".join(self._buf).split()))

    def handle_data(self, data):
        if self._depth and not self._math:
            self._buf.append(data)


# Math delimiters, read the way a Markdown reader does: display `$$...$$` standing apart,
# then inline `$...$`; a `$` left over means glued (`$a$$b$`) or broken formulas.
ESCAPED_DOLLAR = re.compile(r"\\\$")
DISPLAY_MATH = re.compile(r"(?:(?<=\s)|^)\$\$(?:[^$]|\$[^$]+\$)+\$\$(?=\s|$)", re.M)  # \text{$x$} inside is fine
CURRENCY = re.compile(r"(?<![\\$\w])\$\d[\d.,]*(?=\s|\)|$)")  # "a $10 rose" is the paper's own dollar
INLINE_MATH = re.compile(r"\$[^$]+\$")
# Labels LaTeXML itself writes into an author block ("Email:" is left out: papers write it too).
FRONT_LABELS = ("Affiliation:", "Thanks:", "footnotemark", "thanks:", "institutetext:", "footnotetext:")
MARK = re.compile(r"\$\^\{[^{}]*\}\$")


class _Names(HTMLParser):
    """Each ltx_personname's text before its first line break, without marks, math or notes."""

    SKIPPED = ("sup", "math")

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.names: list[str] = []
        self._depth = 0  # >0 inside a personname
        self._skip = 0  # >0 inside a mark, formula or note in it
        self._ended = False  # the name's first line break was seen

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if self._depth:
            self._depth += 1
            if tag == "br":
                self._depth -= 1
                self._ended = True
            elif self._skip or tag in self.SKIPPED or "ltx_note" in classes:
                self._skip += 1
        elif "ltx_personname" in classes:
            self._depth, self._skip, self._ended = 1, 0, False
            self.names.append("")

    def handle_endtag(self, tag):
        if self._depth:
            self._depth -= 1
            if self._skip:
                self._skip -= 1

    def handle_data(self, data):
        if self._depth and not self._skip and not self._ended:
            self.names[-1] += data


def _words(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def check(path: Path) -> tuple[list[str], int, int]:
    """Problems found, headings expected, characters extracted."""
    html = path.read_text("utf-8", errors="replace")
    try:
        text = html_to_text(html)
    except ExtractionError as exc:
        return [f"rejected: {exc}"], 0, 0
    parser = _Headings()
    parser.feed(html)
    problems = []
    lines = text.splitlines()
    if not lines or not lines[0].startswith("# ") or len(lines[0]) < 5:
        problems.append("no title line")
    if "## Abstract" not in text:
        problems.append("no abstract")
    heading_words = [_words(line.lstrip("#")) for line in lines if line.startswith("#")]
    position = 0
    for expected in parser.headings:
        want = _words(expected)
        found = next((i for i in range(position, len(heading_words)) if want and want in heading_words[i]), None)
        if found is None:
            problems.append(f"heading missing or out of order: {expected!r}")
        else:
            position = found + 1
    if "<math" in html and "$" not in text:
        problems.append("math not kept as LaTeX")
    for line in text.splitlines():
        left = INLINE_MATH.sub(" ", CURRENCY.sub(" ", DISPLAY_MATH.sub(" ", ESCAPED_DOLLAR.sub(" ", line))))
        if "$" in left:
            problems.append(f"math delimiters glued or unbalanced: {line[:90]!r}")
            break
    problems.extend(_front_problems(html, text))
    residue = RESIDUE.search(text)
    if residue:
        problems.append(f"markup residue: {text[max(0, residue.start() - 30) : residue.end() + 30]!r}")
    return problems, len(parser.headings), len(text)


def _front_problems(html: str, text: str) -> list[str]:
    """Authors missing from the author line, or LaTeXML labels left in the front matter."""
    names = _Names()
    names.feed(html)
    front = text.split("\n## ", 1)[0]
    author_line = _words(MARK.sub(" ", front.split("\n\n")[1])) if "\n\n" in front else ""
    problems = [f"author missing: {name!r}" for name in names.names if _words(name) not in author_line]
    problems += [f"front-matter label left: {label!r}" for label in FRONT_LABELS if label in front]
    return problems


def _default_base() -> Path:
    candidates = [ROOT.parent / "shared", ROOT.parent.parent / "shared"]
    shared = next((path for path in candidates if path.is_dir()), None)
    return shared / "fixtures" / "arxiv" if shared else ROOT / "tests" / "fixtures"


def main() -> int:
    base = Path(sys.argv[1]) if len(sys.argv) > 1 else _default_base()
    files = sorted((base / "html").glob("*.html")) + sorted((base / "ar5iv").glob("*.html"))
    if not files:
        print(f"no HTML fixtures under {base}", file=sys.stderr)
        return 2
    failed = 0
    print(f"{'file':<62}{'headings':>9}{'chars':>9}  result")
    for path in files:
        problems, headings, chars = check(path)
        expected_rejection = "fatal_error" in path.name
        ok = (problems and problems[0].startswith("rejected")) if expected_rejection else not problems
        failed += not ok
        verdict = "ok" + (" (rejected, as it should be)" if expected_rejection and ok else "")
        print(f"{path.name[:61]:<62}{headings:>9}{chars:>9}  {verdict if ok else '; '.join(problems)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
