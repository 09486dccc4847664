"""The LaTeX source as one text: which file is main, \\input inlined, comments gone.

Everything here reads source text, before tokenising, each for a reason the tokenizer cannot
serve: the main-file choice (made before any file is read); each file's comments (TeX drops them
as it reads a file's lines, before it makes tokens; the tokenizer sees none), its `\\endinput`
(which ends the file it stands in) and the branches of its conditionals it leaves untaken
(`conditionals`: `\\iffalse`, `\\newif` flags), all before include inlining from the archive's
own files, since TeX reads no `\\input` that is commented out, hidden or after the end of its
file; the document split, and the packages the e-print ships (their text is not tokenized), with
every package and class loaded, from which the class, how citations print and babel's languages
are read; the float names (the paper's definitions are `definitions.py`'s).
"""

from __future__ import annotations

import logging
import posixpath
import re
from collections.abc import Iterable

from ...errors import ExtractionError
from . import pace
from .babel import caption_names
from .biblatex import NameStyle, is_biblatex, name_style, to_thebibliography
from .conditionals import decide
from .references import MARK_CHARS
from .specs import CLASS_FLOAT_NAMES
from .tokens import VERBATIM_ENVS, find_unescaped

log = logging.getLogger(__name__)

MAX_INPUT_DEPTH = 12
MAX_INLINED_FILES = 2000  # \input of the same small files in a wide fan-out must not explode
LINE_BREAK = "\x00"  # line-break marker inside a paragraph (`\\`); stripped from the source on decode
_OWN_MARKS = dict.fromkeys(map(ord, LINE_BREAK + MARK_CHARS))

# ---------------------------------------------------------------------------------------------
# Source assembly: main file, comments, \input inlining
# ---------------------------------------------------------------------------------------------

_TEX_SUFFIXES = (".tex", ".ltx", ".latex")


# Bytes 0x80-0x9f read as Latin-1 are control characters, never text: a file that is not UTF-8
# and has them was written in Windows-1252 (`Riemann\x92s`, `\x93quoted\x94`, `\x96` an en dash)
_WINDOWS_1252 = {c: bytes([c]).decode("cp1252", errors="ignore") or None for c in range(0x80, 0xA0)}


def decode(raw: bytes) -> str:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1").translate(_WINDOWS_1252)
    # The converter's own marks (line breaks, reference placeholders) never come from the paper.
    return text.replace("\r\n", "\n").replace("\r", "\n").translate(_OWN_MARKS)


_DOCCLASS_RE = re.compile(r"\\document(?:class|style)(?![A-Za-z])")


_PREFERRED_STEMS = ("main", "ms", "paper", "article", "manuscript")


_VERBATIM_BEGIN_RE = re.compile(rf"\\begin\{{({'|'.join(map(re.escape, sorted(VERBATIM_ENVS | {'comment'})))})\}}")


def _strip_comments(text: str) -> str:
    """Drop `%` comments and comment environments the way TeX reads lines (the only reader of
    comments: the tokenizer sees none); one pass, linear in the text (each line is looked at once)."""
    out: list[str] = []
    verbatim_end = ""
    in_comment_env = False
    glue = False
    for k, line in enumerate(text.split("\n")):
        pace.tick(k)
        if in_comment_env:
            end = line.find("\\end{comment}")
            if end < 0:
                continue
            in_comment_env = False
            line = line[end + len("\\end{comment}") :]
        if verbatim_end:
            end = line.find(verbatim_end)
            if end < 0 or find_unescaped(line, "%", end) < 0:
                out.append(line + "\n")
                verbatim_end = verbatim_end if end < 0 else ""
                continue
            out.append(line[: end + len(verbatim_end)])  # a comment after its end is one
            line = line[end + len(verbatim_end) :]
            verbatim_end = ""
        cut = find_unescaped(line, "%", 0)
        code = line if cut < 0 else line[:cut]
        begin = _VERBATIM_BEGIN_RE.search(code)
        if begin and begin.group(1) == "comment":
            out.append(code[: begin.start()])
            end = code.find("\\end{comment}", begin.end())
            if end < 0:
                in_comment_env = True
                continue
            code = code[: begin.start()] + code[end + len("\\end{comment}") :]
            begin = None
        if begin and ("\\end{" + begin.group(1) + "}") not in line[begin.end() :]:
            verbatim_end = "\\end{" + begin.group(1) + "}"
            out.append(line + "\n")
            continue
        if glue:
            code = code.lstrip(" \t")
        if cut >= 0:
            out.append(code)
            glue = True
        elif code.strip():
            out.append(code + "\n")
            glue = False
        else:
            out.append("\n\n")
            glue = False
    text = "".join(out)
    # scanned only when it holds a conditional a file decides (\ifmmode waits for a macro's use)
    decided = decide(text) if any(word in text for word in ("\\iffalse", "\\iftrue", "\\newif", "\\ifnum")) else None
    return decided[0] if decided else text


# \endinput, and the braces around it: an escaped brace counts for nothing (`\{`, not `\\{`)
_ENDINPUT_RE = re.compile(r"\\endinput(?![A-Za-z])|\\[{}\\]|[{}]")


def _top_level_endinput(text: str) -> int:
    """Where an \\endinput outside braces ends the file, or -1. One inside a group is not reached
    as a plain stop: biber's .bbl opens with `{... \\aftergroup\\endinput}`, run only when biblatex
    is missing, and its entries follow."""
    depth = 0
    for m in _ENDINPUT_RE.finditer(text) if "\\endinput" in text else ():
        depth += {"{": 1, "}": -1}.get(m.group(), 0)
        if depth <= 0 and m.group().startswith("\\endinput"):
            return m.start()
    return -1


_INPUT_RE = re.compile(
    r"\\(input|include|subfile|bibliography)(?![A-Za-z@])[ \t]*(?:\{([^{}\n]*)\}|([^\s{}\\%]+))"
    r"|\\(printbibliography)(?![A-Za-z@])(?:[ \t]*\[[^\]\n]{0,300}\])?"
)


class Assembler:
    """Inline \\input/\\include/\\subfile (and the .bbl for \\bibliography) from `files` only."""

    def __init__(self, files: dict[str, bytes], max_chars: int):
        self.files = files
        self.max_chars = max_chars
        self.used = 0
        self.cache: dict[str, str] = {}
        self.bbl_done = False
        self.main = ""
        self.inlined = 0

    def find_main(self) -> str:
        """The file arXiv compiles: a complete document (class and body) at the e-print's top,
        by a usual name, else the longest. Each candidate is read as it would be inlined, once."""
        files = self.files
        tex = [n for n in files if n.lower().endswith(_TEX_SUFFIXES)]
        if not tex:
            tex = [n for n in files if n.lower().endswith(".txt")]
        if not tex:
            raise ExtractionError("The source holds no .tex file.")
        if len(tex) == 1:
            return tex[0]

        def rank(name: str) -> tuple[int, int, int, int, int]:
            text = self._text(name)
            has_class = bool(_DOCCLASS_RE.search(text))
            has_body = "\\begin{document}" in text
            stem = posixpath.splitext(posixpath.basename(name))[0].lower()
            # arXiv compiles the main file from the e-print's top folder; a complete document in a
            # subfolder is a standalone table or figure (ATLAS notes ship generated ones).
            top = "/" not in name.strip("/")
            return (has_class and has_body, has_class or has_body, top, stem in _PREFERRED_STEMS, len(files[name]))

        return max(tex, key=rank)

    def assemble(self, main: str) -> str:
        self.main = main
        return self._expand(main, (main,))

    def _text(self, name: str) -> str:
        if name not in self.cache:
            text = _strip_comments(decode(self.files[name]))
            end = _top_level_endinput(text)
            self.cache[name] = text[:end] if end >= 0 else text
        return self.cache[name]

    def _take(self, piece: str) -> str:
        room = self.max_chars - self.used
        if len(piece) > room:
            log.warning("LaTeX source longer than %d characters; the rest is ignored", self.max_chars)
            piece = piece[: max(room, 0)]
        self.used += len(piece)
        return piece

    def _expand(self, name: str, stack: tuple[str, ...]) -> str:
        text = self._text(name)
        if len(stack) > 1:
            text = split_document(text)[1]  # an included complete document gives its body
        out: list[str] = []
        pos = 0
        for m in _INPUT_RE.finditer(text):
            out.append(self._take(text[pos : m.start()]))
            pos = m.end()
            command = m.group(1) or m.group(4)
            target = m.group(2) if m.group(2) is not None else (m.group(3) or "")
            if command in ("bibliography", "printbibliography"):
                bbl = self._bbl(target)
                out.append(self._take(self._bibliography(bbl)) if bbl else "")
                continue
            resolved = self._resolve(target, posixpath.dirname(name))
            if resolved is None or resolved in stack or len(stack) > MAX_INPUT_DEPTH:
                log.debug("not inlining %s{%s} from %s", command, target, name)
                continue
            if self.inlined >= MAX_INLINED_FILES or self.used >= self.max_chars:
                log.warning("too many or too large \\input files; the rest of the source is ignored")
                continue
            self.inlined += 1
            inlined = self._expand(resolved, stack + (resolved,))
            out.append(inlined if inlined[-1:].isspace() else inlined + " ")
        out.append(self._take(text[pos:]))
        return "".join(out)

    def _bibliography(self, bbl: str) -> str:
        """The .bbl as LaTeX: a biber-made one (biblatex data) rewritten as \\bibitem entries."""
        text = self._text(bbl)
        return to_thebibliography(text, self._name_style()) if is_biblatex(text) else text

    def _name_style(self) -> NameStyle:
        """biblatex's name options as the main file, then the packages the e-print ships, give them."""
        main = split_document(self._text(self.main))[0]
        shipped = [self._text(n) for n in sorted(self.files) if n.lower().endswith(".sty")][:MAX_PACKAGE_FILES]
        return name_style(main, *shipped)

    def packages(self, preamble: str) -> tuple[str, list[Load]]:
        """The text of the .sty/.cls files the preamble loads that ship in the e-print, in load
        order (a class's own \\usepackage followed as well), so a unit or particle macro defined
        there (\\TeV, \\PQt) is known; and every load the preamble, then those files, make (how
        citations print and the class are read from them). Each file is read once, as an
        \\input is (comments out, up to its \\endinput), and at most MAX_PACKAGE_FILES of them."""
        by_name: dict[str, str] = {}
        for name in self.files:
            base = posixpath.basename(name)
            if base.lower().endswith((".sty", ".cls")):
                by_name.setdefault(base, name)
        seen: set[str] = set()
        out: list[tuple[str, list[Load]]] = []

        def visit(loads: list[Load], depth: int) -> None:
            for command, _, stem in loads if by_name else ():
                suffix = ".sty" if command in ("usepackage", "RequirePackage") else ".cls"
                # `\\usepackage{latex/atlasphysics}`: a package in a folder of the e-print
                name = by_name.get(posixpath.basename(stem) + suffix)
                if name is None or name in seen or len(seen) >= MAX_PACKAGE_FILES or depth > MAX_INPUT_DEPTH:
                    continue
                seen.add(name)
                own = _loads(self._text(name))
                visit(own, depth + 1)
                out.append((self._text(name), own))

        preamble_loads = _loads(preamble)
        visit(preamble_loads, 0)
        return "\n".join(text for text, _ in out), preamble_loads + [load for _, own in out for load in own]

    def _resolve(self, target: str, folder: str) -> str | None:
        target = target.strip().strip('"').strip()
        if not target:
            return None
        for base in (folder, ""):
            path = posixpath.normpath(posixpath.join(base, target))
            if path.startswith(("/", "../")) or path == "..":
                continue
            for candidate in (path, path + ".tex"):
                if candidate in self.files and candidate.lower().endswith(_TEX_SUFFIXES + (".bbl", ".txt")):
                    return candidate
        return None

    def _bbl(self, target: str) -> str | None:
        if self.bbl_done:
            return None
        stem = posixpath.splitext(self.main)[0]
        names = [stem + ".bbl"] + [t.strip() + ".bbl" for t in target.split(",") if t.strip()]
        bbls = [n for n in self.files if n.lower().endswith(".bbl")]
        if len(bbls) == 1:
            names.append(bbls[0])
        for name in names:
            if name in self.files:
                self.bbl_done = True
                return name
        return None


def split_document(source: str) -> tuple[str, str]:
    start = source.find("\\begin{document}")
    if start < 0:
        return "", source
    end = source.find("\\end{document}", start)
    return source[:start], source[start + len("\\begin{document}") : end if end >= 0 else len(source)]


# ---------------------------------------------------------------------------------------------
# What captions print before their number
# ---------------------------------------------------------------------------------------------


def float_names(
    packages: Iterable[tuple[str, str]], own: Iterable[tuple[str, str]], languages: list[str], document_class: str
) -> dict[str, str]:
    """What captions print before their number, by float ("Figure", "Table"): the class's
    (`specs.CLASS_FLOAT_NAMES`), then the main babel language's, then the first definition in the packages and class the e-print
    ships (a class defines one per language option, English first: svjour3's `Fig.` before
    `Abb.`), then the paper's own last \\figurename/\\tablename definition."""
    names = dict(CLASS_FLOAT_NAMES.get(document_class, {}))
    names.update(caption_names(languages))  # babel's, set at \\begin{document}
    shipped: dict[str, str] = {}
    for name, printed in packages:
        shipped.setdefault(name, printed)
    return names | shipped | dict(own)


# ---------------------------------------------------------------------------------------------
# The packages and classes a text loads (`Assembler.packages` reads those the e-print ships)
# ---------------------------------------------------------------------------------------------

MAX_PACKAGE_FILES = 40
_LOAD_RE = re.compile(
    r"\\(usepackage|RequirePackage|documentclass|documentstyle|LoadClass)(?![A-Za-z])[ \t]*"
    r"(?:\[([^\]]{0,500})\][ \t]*)?\{([^{}]{1,500})\}"
)


Load = tuple[str, str, str]  # (command, options, name) of one \\usepackage, \\documentclass, ...


def _loads(text: str) -> list[Load]:
    """Each package or class the text loads, in order (`\\usepackage{a,b}` gives two)."""
    return [
        (m.group(1), m.group(2) or "", name.strip())
        for m in _LOAD_RE.finditer(text)
        for name in m.group(3).split(",")
        if name.strip()
    ]


# ---------------------------------------------------------------------------------------------
# How citations print, as the preamble's classes and packages decide
# ---------------------------------------------------------------------------------------------

_NUMERIC_CLASS_RE = re.compile(r"revtex\d?-?\d*|aa|JHEP|jhep|svjour\d*")
_AUTHORYEAR_OPTION_RE = re.compile(r"authoryear|authortitle|\bharvard|\bapa\b|chicago|\bmla\b")
_CITESTYLE_NUMBERS_RE = re.compile(r"\\setcitestyle[ \t]*\{[^}]{0,500}\bnumbers\b")


def citation_style(loads: list[Load], text: str) -> tuple[bool, bool, bool, bool]:
    """(numeric, sort, compress, merge): whether citations print as numbers even when the .bbl
    carries author-year labels (REVTeX, JHEP, svjour, aa; natbib's `numbers`; biblatex's and
    elsarticle's defaults unless an author-year option), whether a citation's entries are sorted
    (natbib's `sort`, REVTeX, the cite package), whether runs print as ranges (`[2–7]`: natbib's
    `compress`, REVTeX, cite, biblatex's numeric-comp) and whether a starred key (`\\cite{a,*b}`)
    merges its entry into the one before it (REVTeX 4.1 and later, natbib's `merge` and `elide`,
    the mcite and mciteplus packages; natbib's `mcite` option only reads the star)."""
    numeric = bool(_CITESTYLE_NUMBERS_RE.search(text))
    sort = compress = merge = False
    default: bool | None = None  # biblatex's, else elsarticle's
    for command, options, name in loads:
        is_class = command in ("documentclass", "documentstyle")
        if is_class and _NUMERIC_CLASS_RE.fullmatch(name):
            numeric = True
            if name.startswith("revtex"):
                sort = compress = True
                merge = name.startswith("revtex4-")  # 4.1 on: REVTeX 3 and 4.0 predate natbib's merging
        elif name == "natbib":
            numeric = numeric or bool(re.search(r"\bnumbers\b", options))
            sort = sort or "sort" in options
            compress = compress or "compress" in options
            merge = merge or bool(re.search(r"\b(?:merge|elide)\b", options))
        elif name in ("mcite", "mciteplus"):
            merge = True
        elif name == "cite":
            sort = compress = True
        elif name == "biblatex" or (is_class and name in ("elsarticle", "cas-sc", "cas-dc") and default is None):
            default = not _AUTHORYEAR_OPTION_RE.search(options)
            compress = compress or "-comp" in options
    return numeric or bool(default), sort, compress, merge
