"""Score full-text extraction on the developer corpus of real arXiv files, one table.

    python benchmarks/text_quality.py [--kind pdf|source|html|all] [--engine auto|pypdf|pdfium]
                                      [--shared DIR] [--only SUBSTRING] [--damage N]
    python benchmarks/text_quality.py --dir DIR [--engine ...]   # any directory of PDFs

The corpus is `<shared>/fixtures/arxiv/real/` (see its PROVENANCE.md) plus, for HTML, the
arXiv and ar5iv pages in `<shared>/fixtures/arxiv/{html,ar5iv}/`; <shared> is the first that
exists of $ARXIV_MCP_SHARED, <repo>/../shared and /work/shared. To score another checkout's
code, put it first on the path: `PYTHONPATH=/other/checkout python benchmarks/text_quality.py`.

What each file is scored against (its "truth"):
- compiled_pdf_MADE_HERE/X.pdf: words of the text this checkout makes from src/X (the LaTeX
  the PDF was compiled from, math spans left out: the PDF shows glyphs, not macros);
  headings: the PDF's own bookmarks (hyperref writes one per \\section) when it has them,
  else the `##`/`###` headings made from the LaTeX source.
- pdf/X.pdf (real arXiv PDFs, source not at hand), and every X.pdf of `--dir DIR` (real PDFs
  gathered elsewhere, e.g. papers the developer corpus lacks): words of `pdftotext` when
  poppler-utils is installed (else no word scores); headings: the PDF's bookmarks, when it has
  them.
- src/X (e-prints): words of the compiled PDF's text (pdftotext when installed, else bare
  pypdfium2, else bare pypdf), less the words drawn by the paper's included graphics (below);
  headings: the PDF's bookmarks.
- HTML pages: words of the page's visible text (tags, scripts, styles and math markup out,
  the math's alttext in); headings: LaTeXML's ltx_title_* elements.

Comparing an e-print's text with its compiled PDF, like with like:
- Figures. A PDF or EPS figure is placed in the compiled PDF as a form XObject, and its axis
  labels and legends are text there (CMS plots' `signal`, `expected`; an image of an HTML table
  showing `td` 271 times), which no text made from the LaTeX source can hold. So the words whose
  glyphs pypdfium2 finds inside a form XObject (at any depth) are taken out of the truth, as a
  multiset, for every file alike; bitmap figures hold no text, and body text is never inside a
  form. Without pypdfium2 nothing is taken out (and recall reads low on figure-heavy papers).
- Math. Our text keeps LaTeX math (`$\\sigma_i$`, right for models) where the PDF shows glyphs
  (`σi`): each math span of the text is rendered roughly as the PDF prints it before counting
  words (Greek macros as letters, `\\mathrm{X}`/`\\text{X}` as X, operator names as words,
  any other command as a separator, braces dropped and a base joined to its scripts' letters,
  TeX's spaces in math ignored, the span joined to the text around it). An unexpanded macro in math (`\\GeV`) counts as nothing,
  so it still costs recall.
- Letters. Both sides are NFKD-normalised with combining marks dropped (`Università` and
  pdftotext's `Universita` are one word), and a hyphen between letters (in a word or at a
  line's end) joins them, since pdftotext splits words at line ends and TeX's source does not.
`--damage N` drops every Nth paragraph of each extracted text before scoring: recall must fall
by about 1/N, which shows the exclusions above do not hide lost text.

Columns: recall/precision are multiset overlaps of lower-cased letter words of 2+ letters
(numbers and single letters differ too much between math renderings); `prose` is recall against
a pdftotext truth's prose lines (see prose_lines) less its page furniture (running heads and
footers, see without_furniture), which our text leaves out on purpose; `head` is the share of
truth headings found, in order, among the text's Markdown headings (page markers excluded);
`split` counts paragraphs cut in two (a line going on in lower case after one that ended a
sentence: a caption or footnote read into the paragraph; see split_paragraphs);
`debris` counts macro leftovers (bibinfo, secondoftwo, NoStop, `#1`, a stray `\\cmd`);
`furn` is the share of pages whose first or last line is a bare page number or a line that
starts or ends many pages (running header/footer); `accent` counts spacing accents
(´ ¨ ˆ ˜ ˇ ¸ ` ˘ ˚ ˝ ˙) next to a letter; `glued` counts words that are not in the truth but
are two truth words run together; `sec` says whether `read_paper(section=<first section>)`
finds it; time and the peak memory growth (RSS, MB) of one extraction, each file in its own
process. For PDFs `bare` is a bare pypdfium2 text loop's time (the speed reference) and
`pdftotext` rows give the reference's own scores for the same file.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
import unicodedata
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.append(str(REPO_ROOT))  # after PYTHONPATH: another checkout's code can be scored

WORD_RE = re.compile(r"[^\W\d_]{2,}")
HYPHEN_RE = re.compile(r"(?<=[^\W\d_])-\n?(?=[^\W\d_])")
MATH_RE = re.compile(r"(?<!\\)\$\$.*?\$\$|(?<!\\)\$(?:[^$\n\\]|\\.)*\$|\\\[.*?\\\]", re.S)
DEBRIS_RE = re.compile(
    r"bibinfo|bibfield|secondoftwo|firstoftwo|BibitemShut|NoStop|providecommand|\\[A-Za-z]+\{|#\d|\\[A-Za-z]{2,}(?![A-Za-z])"
)
ACCENTS = "\u00b4\u00a8\u02c6\u02dc\u02c7\u00b8\u0060\u02d8\u02da\u02dd\u02d9"
STRAY_ACCENT_RE = re.compile(rf"[^\W\d_] ?[{ACCENTS}]|[{ACCENTS}] ?[^\W\d_]")
PAGE_RE = re.compile(r"^## Page \d+$", re.M)
HEADING_RE = re.compile(r"^(#{1,6}) (.+)$", re.M)
BARE_NUMBER_RE = re.compile(r"^(?:[-–—]\s*)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s*[-–—])?$", re.I)
# 4.2, IV.A, IV-A1, B.1, and a named appendix as printed ("Appendix A:", "APPENDIX B:"; its bookmark: "A Proofs")
NUMBERING_RE = re.compile(r"^(?:(?:Appendix\s+|APPENDIX\s+)?(?:\d+|[A-Z]|[IVXL]+)(?:[.-](?:\d+|[A-Z])|\d+)*[.:]?\s+)")


def shared_dir(explicit: str | None) -> Path:
    candidates = [explicit, os.environ.get("ARXIV_MCP_SHARED"), str(REPO_ROOT.parent / "shared"), "/work/shared"]
    for candidate in candidates:
        if candidate and Path(candidate, "fixtures").is_dir():
            return Path(candidate)
    sys.exit("no shared/ directory with fixtures/: set ARXIV_MCP_SHARED or pass --shared")


# --- truth -----------------------------------------------------------------------------


def words(text: str) -> Counter[str]:
    """Lower-cased letter words of 2+ letters, accents off (NFKD, combining marks dropped, the
    dotless ı of an accented i as i); a hyphen inside a word or ending a line joins its halves
    (`black-box`, pdftotext's `recon-` / `struction`), as either side may have either."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    plain = HYPHEN_RE.sub("", plain.replace("\u0131", "i"))
    return Counter(word.lower() for word in WORD_RE.findall(plain))


GREEK = (
    {
        name: chr(code)
        for code, name in enumerate(
            "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho "
            "varsigma sigma tau upsilon phi chi psi omega".split(),
            start=0x3B1,
        )
    }
    | {
        name.capitalize(): chr(code)
        for code, name in enumerate(
            "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho "
            "_ sigma tau upsilon phi chi psi omega".split(),
            start=0x391,
        )
        if name != "_"
    }
    | {"varepsilon": "ε", "vartheta": "ϑ", "varphi": "φ", "varpi": "ϖ", "varrho": "ϱ", "ell": "ℓ"}
)
MATH_OPERATORS = set(
    "sin cos tan cot sec csc sinh cosh tanh log ln lg exp max min sup inf lim det dim ker deg gcd arg Pr".split()
)
MATH_TEXT = {"text", "textrm", "textit", "textbf", "textsf", "texttt", "mbox", "hbox", "textnormal", "mathrm"}
MATH_FONTS = {
    "mathit",
    "mathbf",
    "mathsf",
    "mathtt",
    "mathcal",
    "mathbb",
    "mathfrak",
    "mathscr",
    "boldsymbol",
    "bm",
    "operatorname",
    "rm",
    "it",
    "bf",
    "mathnormal",
    "vec",
    "hat",
    "bar",
    "tilde",
    "widehat",
    "widetilde",
    "overline",
    "underline",
    "dot",
    "ddot",
    "mathring",
    "check",
    "breve",
    "acute",
    "grave",
}
MATH_HIDDEN = {"begin", "end", "label", "color", "hspace", "vspace", "phantom", "hphantom", "vphantom", "tag"}
MATH_TOKEN_RE = re.compile(r"\\([A-Za-z]+)|\\.|\s+|[^\W\d_]+|.", re.S)
TEXT_MATH_RE = re.compile(r"(?<!\\)\$\$(.*?)\$\$|(?<!\\)\$((?:[^$\n\\]|\\.)*)\$", re.S)


def glyph_math(latex: str) -> str:
    """A math span roughly as the PDF prints it (see the module docstring)."""
    out: list[str] = []
    depth, previous, after_script = 0, "", False
    until = {"text": -1, "hidden": -1, "script": -1}  # the group depth each state ends at
    pending: str | None = None  # what the next group is: "text", "hidden", "script" or None
    for m in MATH_TOKEN_RE.finditer(latex):
        token, name = m.group(), m.group(1)
        script = pending == "script" or until["script"] >= 0
        if token == "{":
            depth += 1
            if pending and until[pending] < 0:
                until[pending] = depth
            elif previous == "}" and until["hidden"] < 0:
                out.append(" ")  # \\frac{a}{b}: the two groups print apart
            pending = None
            continue
        if token == "}":
            after_script = after_script or until["script"] == depth
            until = {state: -1 if end == depth else end for state, end in until.items()}
            depth -= 1
            previous = token
            continue
        elif until["hidden"] >= 0 or (token.isspace() and until["text"] < 0):
            pass
        elif token in "_^":
            pending = "script"
            previous = token
            continue
        elif name is not None:
            glyph = GREEK.get(name) or (f" {name} " if name in MATH_OPERATORS else "")
            out.append(glyph if glyph or name in MATH_TEXT | MATH_FONTS else " ")
            if glyph and not script:
                out[-1], after_script = (" " if after_script else "") + glyph, False
            pending = "text" if name in MATH_TEXT else "hidden" if name in MATH_HIDDEN else pending
            previous = token
            continue
        elif token in ("&", "~") or token.startswith("\\"):
            out.append(" ")
        else:
            # a script's digits and signs sit above or below, in either order (`K^0_S` prints
            # KS0): only its letters join the base (`Rossi$^{a}$` prints Rossia), a comma parts them
            # (`Wang$^{1,g}$` prints Wang1,g); what follows a script is set apart from it
            if script:
                out.append(" " if token == "," else "".join(c for c in token if c.isalpha()))
            else:
                out.append((" " if after_script else "") + token)
                after_script = False
        after_script = after_script or pending == "script"
        pending = None if pending == "script" else pending
        previous = token
    return "".join(out)


def render_math(text: str) -> str:
    """The text with each `$...$`/`$$...$$` span replaced by glyph_math of it, joined to the
    text around it as TeX sets it (`Rossi$^{a}$` prints `Rossia`)."""
    return TEXT_MATH_RE.sub(lambda m: glyph_math(m.group(1) or m.group(2) or ""), text)


def figure_words(data: bytes) -> Counter[str]:
    """Words whose glyphs are drawn inside a form XObject (an included PDF/EPS graphic)."""
    try:
        import ctypes

        import pypdfium2
        import pypdfium2.raw as pdfium_c
    except ImportError:
        return Counter()

    def address(handle: object) -> int | None:
        return ctypes.cast(handle, ctypes.c_void_p).value

    found: Counter[str] = Counter()
    document = pypdfium2.PdfDocument(data)
    try:
        for page in document:
            objects = page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_TEXT])
            inside = {address(o.raw) for o in objects if o.level > 0}
            if not inside:
                continue
            textpage = page.get_textpage()
            chars = []
            for k in range(textpage.count_chars()):
                owner = pdfium_c.FPDFText_GetTextObject(textpage, k)
                drawn = owner and address(owner) in inside
                chars.append(chr(pdfium_c.FPDFText_GetUnicode(textpage, k)) if drawn else " ")
            found.update(words("".join(chars)))
    finally:
        document.close()
    return found


def damaged(text: str, every: int) -> str:
    """The text with every `every`-th paragraph dropped (the scorer's own honesty check)."""
    blocks = text.split("\n\n")
    return "\n\n".join(block for k, block in enumerate(blocks, start=1) if k % every)


def overlap(truth: Counter[str], got: Counter[str]) -> tuple[float, float]:
    common = sum((truth & got).values())
    return common / max(1, sum(truth.values())), common / max(1, sum(got.values()))


def pdftotext(path: Path) -> str | None:
    if shutil.which("pdftotext") is None:
        return None
    done = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, timeout=120)
    return done.stdout.decode("utf-8", "replace") if done.returncode == 0 else None


def bare_pdf_text(data: bytes) -> str:
    try:
        import pypdfium2
    except ImportError:
        import io

        from pypdf import PdfReader

        return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    document = pypdfium2.PdfDocument(data)
    try:
        return "\n".join(document[i].get_textpage().get_text_range() for i in range(len(document)))
    finally:
        document.close()


# hyperref writes an accent it cannot put in a bookmark as debris: \^{i} becomes "{^i }".
# Composed back, the letter is exactly the one the page prints, so no other title can match.
_ACCENT_DEBRIS = re.compile(r"\{([\^'`\"~=.])\s*\\?([A-Za-z])\s*\}")
_COMBINING = {"^": "\u0302", "'": "\u0301", "`": "\u0300", '"': "\u0308", "~": "\u0303", "=": "\u0304", ".": "\u0307"}


def bookmark_title(title: str) -> str:
    """A bookmark title with hyperref's accent debris composed and TeX's dashes as printed."""
    title = _ACCENT_DEBRIS.sub(lambda m: m[2] + _COMBINING[m[1]], title)
    return unicodedata.normalize("NFC", title.replace("---", "\u2014").replace("--", "\u2013"))


def bookmarks(data: bytes) -> list[str]:
    """Top two levels of the PDF's outline (bookmarks), in order; [] when it has none."""
    import io

    from pypdf import PdfReader

    titles: list[str] = []

    def walk(items: list, depth: int) -> None:
        for item in items:
            if isinstance(item, list):
                if depth < 2:
                    walk(item, depth + 1)
            elif getattr(item, "title", None):
                titles.append(bookmark_title(str(item.title)))

    try:
        outline = PdfReader(io.BytesIO(data)).outline
        if len(outline) == 2 and isinstance(outline[1], list):
            outline = outline[1]  # one top entry (the paper's title) holding the sections
        walk(outline, 0)
    except Exception:  # a broken outline is no truth, not a failure of the text
        return []
    return titles


def markdown_headings(text: str) -> list[str]:
    return [
        title for hashes, title in HEADING_RE.findall(text) if len(hashes) >= 2 and not re.fullmatch(r"Page \d+", title)
    ]


def source_text(path: Path) -> str:
    from arxiv_mcp.text.extract import from_source

    return from_source(path.read_bytes()).text


class _VisibleText(HTMLParser):
    """A page's visible words (math as its alttext) and LaTeXML section titles."""

    SKIP = {"script", "style", "head", "nav", "footer", "button"}
    TITLES = ("ltx_title_section", "ltx_title_subsection", "ltx_title_subsubsection", "ltx_title_appendix")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.headings: list[str] = []
        self._skip = 0
        self._math = 0
        self._title: list[str] | None = None
        self._title_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if self._title is not None:
            self._title_depth += 1
        if tag in self.SKIP:
            self._skip += 1
        elif tag == "math":
            self._math += 1
            self.parts.append(" " + (attributes.get("alttext") or "") + " ")
        elif (
            self._title is None
            and tag.startswith("h")
            and set((attributes.get("class") or "").split()) & set(self.TITLES)
        ):
            self._title, self._title_depth = [], 1

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP:
            self._skip = max(0, self._skip - 1)
        elif tag == "math":
            self._math = max(0, self._math - 1)
        if self._title is not None:
            self._title_depth -= 1
            if self._title_depth == 0:
                self.headings.append(" ".join("".join(self._title).split()))
                self._title = None

    def handle_data(self, data: str) -> None:
        if self._skip or self._math:
            return
        self.parts.append(data)
        if self._title is not None:
            self._title.append(data)


def html_truth(path: Path) -> tuple[str, list[str]]:
    parser = _VisibleText()
    parser.feed(path.read_text("utf-8", errors="replace"))
    return " ".join(parser.parts), parser.headings


# --- scores ------------------------------------------------------------------------------


def _normal_title(title: str) -> str:
    return " ".join(WORD_RE.findall(NUMBERING_RE.sub("", title.strip()).lower()))


def heading_recall(truth: list[str], got: list[str]) -> float | None:
    """Share of truth headings found in order among `got` (numbering and case ignored)."""
    wanted = [title for title in map(_normal_title, truth) if title]
    if not wanted:
        return None
    have = [_normal_title(title) for title in got]
    found, position = 0, 0
    for title in wanted:
        hit = next((i for i in range(position, len(have)) if have[i] and _same_title(title, have[i])), None)
        if hit is not None:
            found, position = found + 1, hit + 1
    return found / len(wanted)


def _same_title(want: str, have: str) -> bool:
    return want == have or (len(have) >= len(want) / 2 and (want.startswith(have) or have.startswith(want)))


def first_section_works(text: str, truth: list[str]) -> bool | None:
    """Whether read_paper's section lookup finds the first truth heading by its name."""
    from arxiv_mcp.errors import InvalidInput
    from arxiv_mcp.text.outline import select_section

    names = [NUMBERING_RE.sub("", title).strip() for title in truth]
    name = next((n for n in names if _normal_title(n) and _normal_title(n) != "abstract"), None)
    if name is None:
        return None
    try:
        heading, _ = select_section(text, name)
    except InvalidInput:
        return False
    return _same_title(_normal_title(name), _normal_title(heading.title))


def pages_of(text: str, paged_by_formfeed: bool = False) -> list[list[str]]:
    chunks = text.split("\f") if paged_by_formfeed else PAGE_RE.split(text)[1:]
    return [[line.strip() for line in chunk.split("\n") if line.strip()] for chunk in chunks]


def _furniture_key(line: str) -> str:
    return re.sub(r"\d+", "#", " ".join(line.lower().split()))


def furniture_share(pages: list[list[str]]) -> float | None:
    """Share of pages starting or ending with a bare number or a line repeated at many page edges."""
    pages = [page for page in pages if page]
    if not pages:
        return None
    edges = Counter(_furniture_key(line) for page in pages for line in {page[0], page[-1]})
    repeated = {key for key, count in edges.items() if count >= max(3, len(pages) // 4)}
    flagged = sum(
        any(BARE_NUMBER_RE.match(line) or _furniture_key(line) in repeated for line in (page[0], page[-1]))
        for page in pages
    )
    return flagged / len(pages)


SENTENCE_END_RE = re.compile(r"(?:[a-z]{3,}|\d|[)\]])[.!?][)\]'\"\u2019\u201d]*$")
LOWER_WORD_RE = re.compile(r"[a-z]{2,}\b")


def without_furniture(reference: str) -> str:
    """pdftotext's text (pages split by form feeds) less its page furniture: the lines of three
    words or more that recur, digits aside, on many pages (a running head, a journal's footer;
    a repeated line of math is shorter). pdftotext prints a footer wherever its reading order
    puts it, not always at a page's edge, so the place is not asked. Issue 15 has us drop these lines; recall against the whole reference
    counts what we were asked to leave out as lost."""
    pages = [[line for line in page.split("\n") if line.strip()] for page in reference.split("\f")]
    keys = Counter(key for page in pages for key in {_furniture_key(line) for line in page})
    repeated = {
        key for key, count in keys.items() if count >= max(3, len(pages) // 4) and sum(words(key).values()) >= 3
    }
    return "\f".join("\n".join(line for line in page if _furniture_key(line) not in repeated) for page in pages)


_PROSE_WORD = re.compile(r"\b[a-z]{3,}\b")


def prose_lines(reference: str) -> str:
    """The lines of a reference that read as prose: six words or more, most of them lower-case
    words of three letters or more. A formula, a table row or a label is left out: pdftotext
    prints CMSY's ‖ ⟨ ⟩ as the letters k h i and a script as a word of its own ("kwk", "kus"),
    so recall there measures two programs' spelling of math, not the text a reader reads."""
    return "\n".join(
        line
        for line in reference.split("\n")
        if len(tokens := line.split()) >= 6 and len(_PROSE_WORD.findall(line)) >= 0.6 * len(tokens)
    )


def split_paragraphs(text: str) -> int:
    """Paragraphs cut in two: a line that goes on in lower case after a line that ended a sentence
    (blank lines between), as when a caption or footnote set between a paragraph's parts was
    read into it. Reference-free; lines after a heading or page marker are not counted."""
    count = 0
    previous = ""
    for line in text.split("\n"):
        if not line:
            continue
        ended = previous and not previous.startswith("#") and SENTENCE_END_RE.search(previous[-24:])
        count += bool(ended and LOWER_WORD_RE.match(line))
        previous = line
    return count


def glued_words(got: Counter[str], truth: Counter[str] | None) -> int | None:
    if truth is None:
        return None
    count = 0
    for word, times in got.items():
        if len(word) < 6 or word in truth:
            continue
        if any(word[:cut] in truth and word[cut:] in truth for cut in range(2, len(word) - 1)):
            count += times
    return count


def score(
    text: str,
    truth_text: str | None,
    truth_headings: list[str],
    paged: bool,
    formfeed: bool = False,
    excluded: Counter[str] | None = None,
) -> dict:
    """`excluded`: words taken out of the truth (an e-print's figure words); with it, the
    text's math is rendered as glyphs before counting (an e-print's text against its PDF)."""
    got = words(render_math(text) if excluded is not None else text)
    truth = words(truth_text) - (excluded or Counter()) if truth_text is not None else None
    recall, precision = overlap(truth, got) if truth is not None else (None, None)
    prose = recall
    if truth_text is not None and "\f" in truth_text and not formfeed:
        prose = overlap(words(prose_lines(without_furniture(truth_text))) - (excluded or Counter()), got)[0]
    headings = markdown_headings(text)
    return {
        "recall": recall,
        "prose": prose,
        "precision": precision,
        "head": heading_recall(truth_headings, headings) if not formfeed else None,
        "sec": first_section_works(text, truth_headings) if not formfeed and truth_headings else None,
        "debris": len(DEBRIS_RE.findall(MATH_RE.sub(" ", text))),  # LaTeX inside math is kept on purpose
        "furn": furniture_share(pages_of(text, formfeed)) if paged else None,
        "accent": len(STRAY_ACCENT_RE.findall(text)),
        "glued": glued_words(got, truth),
        "split": split_paragraphs(text),
    }


# --- one extraction per process ------------------------------------------------------------


def _status_mb(field: str) -> float:
    """A memory figure of this process from /proc (VmRSS now, VmHWM its peak).

    Not `ru_maxrss`: Linux carries that over exec from the parent, so a worker would report
    the scoring parent's size instead of its own."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def worker(kind: str, engine: str, path: str) -> None:
    """Extract one file and print {"seconds", "peak_mb", "text"|"error"} as JSON."""
    from arxiv_mcp.text import extract

    raw = Path(path).read_bytes()
    if kind == "pdf":
        import pypdf  # noqa: F401  (imports are not the extraction's cost)

        import arxiv_mcp.text.pdf.engine as pdf_module

        pdf_module._import_pdfium()

        run = lambda: extract.from_pdf(raw, engine=engine)  # noqa: E731
    elif kind == "bare":
        run = lambda: bare_pdf_text(raw)  # noqa: E731
    elif kind == "html":
        import arxiv_mcp.text.html  # noqa: F401

        run = lambda: extract.from_html(raw)  # noqa: E731
    else:
        import arxiv_mcp.text.latex.convert  # noqa: F401

        run = lambda: extract.from_source(raw)  # noqa: E731
    before = _status_mb("VmRSS")
    start = time.perf_counter()
    try:
        result = {"text": run().text}
    except Exception as exc:  # the table shows the failure; the other files still run
        result = {"error": f"{type(exc).__name__}: {exc}"[:200]}
    result["seconds"] = time.perf_counter() - start
    result["peak_mb"] = max(0.0, _status_mb("VmHWM") - before)
    json.dump(result, sys.stdout)


def run_worker(kind: str, engine: str, path: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), str(REPO_ROOT)) if p))
    done = subprocess.run(
        [sys.executable, __file__, "--worker", kind, engine, str(path)], capture_output=True, env=env, timeout=600
    )
    if done.returncode != 0:
        return {"error": done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:], "seconds": 0, "peak_mb": 0}
    return json.loads(done.stdout)


# --- the corpus ------------------------------------------------------------------------------


def _stem(path: Path) -> str:
    return path.name.split(".tar")[0].removesuffix(".pdf").removesuffix(".gz")


def pdf_cases(real: Path) -> list[tuple[str, Path, str | None, list[str]]]:
    """(kind, file, truth text, truth headings) for every PDF."""
    cases = []
    sources = {_stem(path): path for path in (real / "src").iterdir()}
    for path in sorted((real / "compiled_pdf_MADE_HERE").glob("*.pdf")):
        source = sources.get(_stem(path))
        try:
            latex = source_text(source) if source else None
        except Exception as exc:
            print(f"{path.name}: no LaTeX truth ({type(exc).__name__}: {exc})", file=sys.stderr)
            latex = None
        truth = MATH_RE.sub(" ", latex) if latex else None
        heads = bookmarks(path.read_bytes()) or (markdown_headings(latex) if latex else [])
        cases.append(("pdf", path, truth, heads))
    for path in sorted((real / "pdf").glob("*.pdf")):
        cases.append(("pdf", path, pdftotext(path), bookmarks(path.read_bytes())))
    return cases


def source_cases(real: Path) -> list[tuple[str, Path, str | None, list[str]]]:
    cases = []
    for path in sorted((real / "src").iterdir()):
        compiled = real / "compiled_pdf_MADE_HERE" / f"{_stem(path)}.pdf"
        if compiled.exists():
            data = compiled.read_bytes()
            cases.append(("source", path, pdftotext(compiled) or bare_pdf_text(data), bookmarks(data)))
        else:
            cases.append(("source", path, None, []))
    return cases


def excluded_words(kind: str, path: Path) -> Counter[str] | None:
    """For an e-print scored against its compiled PDF: the PDF's figure words (see the docstring)."""
    compiled = path.parent.parent / "compiled_pdf_MADE_HERE" / f"{_stem(path)}.pdf"
    if kind != "source" or not compiled.exists():
        return None
    return figure_words(compiled.read_bytes())


def html_cases(fixtures: Path) -> list[tuple[str, Path, str | None, list[str]]]:
    paths = sorted((fixtures / "html").glob("*.html")) + sorted((fixtures / "ar5iv").glob("*.html"))
    return [("html", path, *html_truth(path)) for path in paths]


# --- the table -------------------------------------------------------------------------------

COLUMNS = (
    "recall",
    "prose",
    "precision",
    "head",
    "sec",
    "debris",
    "furn",
    "accent",
    "glued",
    "split",
    "seconds",
    "bare",
    "peak_mb",
)
HEADER = (
    f"{'kind':<7}{'file':<34}{'recall':>7}{'prose':>6}{'prec':>6}{'head':>6}{'sec':>5}{'debris':>7}{'furn':>6}{'accent':>7}"
    f"{'glued':>6}{'split':>6}{'sec.':>7}{'bare':>6}{'MB':>6}"
)


def _cell(value: object, width: int, digits: int = 2) -> str:
    if value is None:
        return "-".rjust(width)
    if isinstance(value, bool):
        return ("yes" if value else "NO").rjust(width)
    if isinstance(value, float):
        return f"{value:.{digits}f}".rjust(width)
    return str(value).rjust(width)


def row(kind: str, name: str, scores: dict) -> str:
    widths = (7, 6, 6, 6, 5, 7, 6, 7, 6, 6, 7, 6, 6)
    digits = {"seconds": 2, "bare": 2, "peak_mb": 0}
    cells = "".join(_cell(scores.get(c), w, digits.get(c, 2)) for c, w in zip(COLUMNS, widths))
    return f"{kind:<7}{name[:33]:<34}{cells}"


def evaluate(kind: str, path: Path, truth: str | None, heads: list[str], engine: str, damage: int = 0) -> list[str]:
    result = run_worker(kind, engine, path)
    lines = []
    if "error" in result:
        lines.append(f"{kind:<7}{path.name[:33]:<34}  failed: {result['error']}")
    else:
        text = damaged(result["text"], damage) if damage else result["text"]
        scores = score(text, truth, heads, paged=kind == "pdf", excluded=excluded_words(kind, path))
        scores.update(seconds=result["seconds"], peak_mb=result["peak_mb"])
        if kind == "pdf":
            scores["bare"] = run_worker("bare", engine, path)["seconds"]
        lines.append(row(kind, path.name, scores))
    if kind == "pdf" and shutil.which("pdftotext") and path.parent.name == "compiled_pdf_MADE_HERE":
        start = time.perf_counter()
        reference = pdftotext(path) or ""
        scores = score(reference, truth, heads, paged=True, formfeed=True)
        scores["seconds"] = time.perf_counter() - start
        lines.append(row("", "  pdftotext", scores))
    elif kind == "pdf" and shutil.which("pdftotext"):
        reference = pdftotext(path) or ""
        scores = {"furn": furniture_share(pages_of(reference, True)), "accent": len(STRAY_ACCENT_RE.findall(reference))}
        lines.append(row("", "  pdftotext", scores))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kind", choices=("pdf", "source", "html", "all"), default="all")
    parser.add_argument("--engine", choices=("auto", "pypdf", "pdfium"), default="auto")
    parser.add_argument("--shared", help="the shared/ directory (default: see the module docstring)")
    parser.add_argument("--only", help="score only files whose name contains this")
    parser.add_argument("--damage", type=int, default=0, metavar="N", help="drop every Nth paragraph first")
    parser.add_argument("--dir", type=Path, help="score every PDF of this directory against pdftotext instead")
    args = parser.parse_args(argv)
    if args.dir:
        paths = sorted(args.dir.glob("*.pdf"))
        return table([("pdf", path, pdftotext(path), bookmarks(path.read_bytes())) for path in paths], args)
    fixtures = shared_dir(args.shared) / "fixtures" / "arxiv"
    real = fixtures / "real"
    cases = []
    if args.kind in ("pdf", "all"):
        cases += pdf_cases(real)
    if args.kind in ("source", "all"):
        cases += source_cases(real)
    if args.kind in ("html", "all"):
        cases += html_cases(fixtures)
    return table(cases, args)


def table(cases: list[tuple[str, Path, str | None, list[str]]], args: argparse.Namespace) -> int:
    if args.only:
        cases = [case for case in cases if args.only in case[1].name]
    print(HEADER)
    for kind, path, truth, heads in cases:
        for line in evaluate(kind, path, truth, heads, args.engine, args.damage):
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--worker":
        worker(*sys.argv[2:])
    else:
        sys.exit(main())
