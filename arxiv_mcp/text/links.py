"""The URLs a paper states, each with what it points at: code, data, model, project or other.

Two readers: `metadata_links` (the abstract and the comments field: `get_paper` lists the
code, data, model and project links among them) and `document_links` (every URL of a read
document, `read_paper(section="links")`). Both are pure functions of text already at hand: no
request. Invariants:
- a DOI or an arXiv link is never "code" (a Zenodo or Figshare DOI is data); a link to the
  paper's own arXiv page is left out;
- a URL a PDF broke over two lines ("https://www. nhtsa.gov/...", "github. io",
  "5-8- 18.pdf") is mended when the piece after the break can only continue it;
- the kind comes from the host first (GitHub is code, Hugging Face datasets are data), then,
  for hosts that say nothing, from the words just before the URL ("code is available at");
  a bibliography entry's words never make a link code or data;
- each URL is listed once per place (text, footnote, bibliography), where it first stands;
  the forms of one URL (`…/b`, `…/b/`, `…/b.git`, `…/b#readme`, http or https) are one URL.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urlsplit

from ..words import counted
from .bibids import arxiv_id_in
from .document import Document, Kind

KINDS = ("code", "data", "model", "project", "other")
_URL_CHARS = r"(?:(?!\d{0,3}(?:https?|ftp)://)(?:[^\s<>\"'`{}|\\^\[\]]|\{[~_%#&]\}))+"
"""A URL's characters; `{~}`, `{_}`: a BibTeX escape a PDF prints as it is, read as the character.
A scheme inside ends it: a PDF glues footnote marks and URLs ("https://aider.chat2https://...")."""
_URL_RE = re.compile(r"(?:https?://|ftp://|www\.)" + _URL_CHARS, re.IGNORECASE)
_BARE_HOSTS = (
    "github.com",
    "gitlab.com",
    "bitbucket.org",
    "codeberg.org",
    "huggingface.co",
    "zenodo.org",
    "figshare.com",
    "osf.io",
    "kaggle.com",
)
_BARE_RE = re.compile(r"(?<![\w./@-])(?:" + "|".join(re.escape(h) for h in _BARE_HOSTS) + r")/" + _URL_CHARS)
_TRAILING = ".,;:!?'\"”’*"
_CONTINUATION_RE = re.compile(r"[A-Za-z0-9/.-](?:[A-Za-z0-9._~%/#?=&+:-]|\{[~_%#&]\})*")
_HOST_PIECE_RE = re.compile(r"(?:[a-z0-9-]+\.)*[a-z]{2,}(?:[/:?#]|$)")
_CONTEXT_CHARS = 300

_CODE_HOSTS: tuple[str, ...] = (
    "github.com",
    "gitlab.com",
    "bitbucket.org",
    "codeberg.org",
    "sourceforge.net",
    "gitee.com",
)
_CODE_HOSTS += ("gist.github.com", "raw.githubusercontent.com", "pypi.org", "colab.research.google.com")
_DATA_HOSTS: tuple[str, ...] = (
    "zenodo.org",
    "figshare.com",
    "osf.io",
    "datadryad.org",
    "data.mendeley.com",
    "openml.org",
)
_DATA_HOSTS += ("physionet.org", "archive.ics.uci.edu", "dataverse.harvard.edu", "data.world")
_PROJECT_SUFFIXES = (".github.io", ".gitlab.io", ".pages.dev", ".netlify.app", ".vercel.app", ".readthedocs.io")
_DATA_DOI_RE = re.compile(r"10\.(?:5281/zenodo|6084/m9\.figshare|5061/dryad|17605/osf\.io|7910/dvn)", re.IGNORECASE)
_CUES = (
    ("project", re.compile(r"\b(?:project (?:page|website|site)|home ?page|web ?site|webpage|demo)\b", re.I)),
    ("code", re.compile(r"\b(?:code|implementations?|repositor(?:y|ies)|source files)\b", re.I)),
    ("model", re.compile(r"\b(?:checkpoints?|model weights|pre-?trained models?|weights)\b", re.I)),
    ("data", re.compile(r"\b(?:data ?sets?|data|corpus|corpora|benchmark|supplementa(?:ry|l) tables?)\b", re.I)),
)
_FOOTNOTE_RE = re.compile(r"\[\^(?:\d+:\s*)?")


@dataclass(frozen=True)
class Link:
    url: str
    kind: str
    where: str
    """abstract, comments, text, footnote or bibliography."""
    context: str


# --- finding URLs -----------------------------------------------------------------------------


def urls_in(text: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, url) of each URL in `text`, in order, its broken pieces mended."""
    found = sorted(set(_spans(text)))
    last_end = -1
    for start, end in found:
        if start < last_end:
            continue
        end, url = _mended(text, start, end)
        last_end = end
        yield start, end, url


def _spans(text: str) -> Iterator[tuple[int, int]]:
    """Where URLs may start, found with plain string searches (a scheme's `://`, `www.`, a
    known host), then matched there: scanning a long paper with the patterns themselves, tried
    at every character, cost about 15 ms per 100 K characters."""
    for marker, pattern in (("://", _URL_RE), ("www.", _URL_RE), ("WWW.", _URL_RE)):
        at = text.find(marker)
        while at >= 0:
            start = at
            if marker == "://":
                while start > 0 and at - start < 5 and text[start - 1].isalpha():
                    start -= 1
            match = pattern.match(text, start)
            if match and (marker == "://" or not text[max(0, start - 3) : start].endswith(("//", "/", "."))):
                yield match.start(), match.end()
            at = text.find(marker, at + len(marker))
    for host in _BARE_HOSTS:
        at = text.find(host + "/")
        while at >= 0:
            match = _BARE_RE.match(text, at)
            if match:
                yield match.start(), match.end()
            at = text.find(host + "/", at + 1)


def _mended(text: str, start: int, end: int) -> tuple[int, str]:
    """The URL at text[start:end], joined with what follows a line break (a space or newline)
    when that can only be its continuation, and without the sentence's punctuation after it."""
    raw = text[start:end]
    while end < len(text) and text[end] in " \n" and len(raw) < 400:
        nxt = _CONTINUATION_RE.match(text, end + 1)
        if nxt is None or not _continues(raw, nxt.group()):
            break
        raw += nxt.group()
        end = nxt.end()
    url = _trimmed(raw)
    return end - (len(raw) - len(url)), re.sub(r"\{([~_%#&])\}", r"\1", url)


def _continues(url: str, piece: str) -> bool:
    """Whether `piece`, after a line break, goes on with `url`: TeX's url package breaks a URL
    anywhere (after a letter too) and the PDF's text has a space there. A piece joins when only
    a URL could go on that way: a path or query in it, a leading `-` `/` `.`, a hyphenated or
    dotted tail after a letter; a plain word ("and", "The") never does."""
    tail = piece.rstrip(_TRAILING)
    if not tail or "://" in piece or piece.lower().startswith("www."):
        return False
    if url.endswith(".") and "/" not in url.split("://", 1)[-1] and _HOST_PIECE_RE.match(piece):
        return piece[0].islower()  # "https://www. nhtsa.gov/...": the host goes on
    if url[-1] in _TRAILING:
        return False
    lower_start = piece[0].islower() or piece[0].isdigit()
    if url.endswith(("/", "-", "_", "=", "?", "&", "#", "~")):
        return lower_start and any(c in tail for c in "/._-=?#")
    query_number = re.search(r"=(\d+)$", url)
    if query_number and len(query_number.group(1)) >= 4 and len(tail) >= 2 and tail.isdigit():
        return True  # a number in a query broken at the line's end ("m=152552 4921")
    if piece[0] in "-/." and len(tail) > 1:
        return True
    if tail.isdigit() and _ARXIV_CUT_RE.search(url) and len(_ARXIV_CUT_RE.search(url).group(1) + tail) <= 5:  # type: ignore[union-attr]
        return True  # an arXiv id broken inside its number ("arXiv.2406.11 931")
    if not lower_start or tail.split(".")[0] in _ABBREVIATIONS:
        return False
    return any(c in tail for c in "/=?") or "-" in tail[1:] or "." in tail[1:]


_ARXIV_CUT_RE = re.compile(r"arxiv(?:\.org/abs/|\.)\d{4}\.(\d{1,4})$", re.IGNORECASE)
_ABBREVIATIONS = frozenset(("e", "i", "cf", "etc", "vs", "al"))


def _trimmed(url: str) -> str:
    """The URL without the sentence's punctuation after it; a closing bracket stays only when
    the URL opened one (`wiki/Foo_(bar)`)."""
    while url:
        if url[-1] in _TRAILING:
            url = url[:-1]
        elif url[-1] == ")" and url.count("(") < url.count(")"):
            url = url[:-1]
        else:
            break
    return url


# --- what a URL points at ---------------------------------------------------------------------


def kind_of(url: str, cue: str = "") -> str:
    """code, data, model, project or other: by host, then (for a host that says nothing) by
    the words `cue` just before it. A repository host is code unless its path or the words
    before it say it holds a dataset or a model (and say nothing of code)."""
    host, path = _host_and_path(url)
    by_host = _kind_by_host(host, path)
    by_words = next((kind for kind, pattern in _CUES if pattern.search(cue)), None)
    if by_host == "code":
        return _repository(path, by_words)
    if by_host is not None:
        return by_host
    return by_words or "other"


def _repository(path: str, by_words: str | None) -> str:
    folded = path.casefold()
    if "model_card" in folded or "checkpoint" in folded:
        return "model"
    if re.search(r"(?:^|[/_-])datasets?(?:$|[/_-])", folded):
        return "data"
    return by_words if by_words in ("model", "data") else "code"


def _host_and_path(url: str) -> tuple[str, str]:
    full = url if "://" in url else "http://" + url
    try:
        parts = urlsplit(full)
    except ValueError:
        return "", ""
    host = (parts.hostname or "").lower()
    return host.removeprefix("www."), parts.path.strip("/")


def _kind_by_host(host: str, path: str) -> str | None:
    if host in ("doi.org", "dx.doi.org") or host.endswith(".doi.org"):
        return "data" if _DATA_DOI_RE.match(path) else "other"
    if host.endswith("arxiv.org") or host in ("ar5iv.org", "alphaxiv.org"):
        return "other"
    if host in ("huggingface.co", "hf.co"):
        return _hugging_face(path)
    if host == "kaggle.com":
        head = path.split("/", 1)[0]
        if "/discussion" in path:
            return "other"
        return {"code": "code", "models": "model", "datasets": "data", "competitions": "data", "c": "data"}.get(head)
    if host.endswith(_PROJECT_SUFFIXES) or host == "sites.google.com":
        return "other" if path.split("/", 1)[0] in ("blog", "posts") else "project"
    if _is(host, _CODE_HOSTS) or host.startswith(("gitlab.", "git.")):
        return "code"
    if _is(host, _DATA_HOSTS):
        return "data"
    return None


def _is(host: str, hosts: tuple[str, ...]) -> bool:
    return any(host == h or host.endswith("." + h) for h in hosts)


def _hugging_face(path: str) -> str:
    parts = [p for p in path.split("/") if p]
    if not parts:
        return "other"
    if parts[0] == "datasets":
        return "data"
    if parts[0] == "spaces":
        return "project"
    if parts[0] in ("papers", "docs", "blog", "learn", "join", "pricing", "models", "organizations"):
        return "other"
    return "model" if len(parts) >= 2 else "other"


def _own_page(url: str, own_id: str | None) -> bool:
    """A link to this paper's own arXiv page (abs, pdf or html, any version)."""
    if not own_id or not _host_and_path(url)[0].endswith("arxiv.org"):
        return False
    stated = arxiv_id_in(url)
    return stated is not None and re.sub(r"v\d+$", "", stated) == own_id


# --- metadata and documents -------------------------------------------------------------------


def metadata_links(abstract: str, comment: str | None, own_id: str | None = None) -> list[Link]:
    """The code, data, model and project links the abstract and the comments field state."""
    found: list[Link] = []
    seen: set[str] = set()  # a link the abstract states and the comments repeat is one link
    for where, text in (("abstract", abstract), ("comments", comment or "")):
        for start, end, url in urls_in(text):
            key = link_key(url)
            if key in seen or _own_page(url, own_id):
                continue
            kind = kind_of(url, _cue(text, start))
            if kind != "other":
                seen.add(key)
                found.append(Link(url, kind, where, _sentence(text, start, end)))
    return found


def document_links(doc: Document, own_id: str | None = None) -> list[Link]:
    """Every URL of a document's text with its kind, where it stands and its sentence or
    footnote, in document order (URLs the text shows, then link targets it hides behind words)."""
    text = doc.text
    bibliography = [(b.start, b.end) for b in doc.blocks if b.kind is Kind.REFERENCE]
    starts = [b.start for b in doc.blocks]
    spans = [*urls_in(text), *_anchor_spans(doc)]
    found = []
    for start, end, url in spans:
        if _own_page(url, own_id):
            continue
        index = bisect.bisect_right(starts, start) - 1
        block = doc.blocks[index] if index >= 0 and doc.blocks[index].end >= start else None
        paragraph = text[block.start : block.end] if block else text
        offset = block.start if block else 0
        link = _link(paragraph, start - offset, end - offset, url, _inside(bibliography, start))
        found.append((start, link))
    return _once([link for _, link in sorted(found, key=lambda pair: pair[0])])


def _anchor_spans(doc: Document) -> Iterator[tuple[int, int, str]]:
    """Where each hidden link's words stand in the text (searched forward from the last one
    found, so links on the same words map in order; else their first words anywhere, unless
    they are shorter than four characters, like `ApJ`, which are looked for only after the
    last one found); words not found stand at the end."""
    cursor = 0
    for anchor in doc.anchors:
        at, length = -1, 0
        for words in (anchor.text, " ".join(anchor.text.split()[:3])):
            if words.strip():
                at = doc.text.find(words, cursor)
                at = doc.text.find(words) if at < 0 and len(words) >= 4 else at
                length = len(words)
            if at >= 0:
                break
        if at < 0:
            yield len(doc.text), len(doc.text), anchor.url
            continue
        cursor = at + length
        yield at, cursor, anchor.url


def _link(text: str, start: int, end: int, url: str, in_bibliography: bool) -> Link:
    if in_bibliography:
        return Link(url, kind_of(url), "bibliography", _sentence(text, start, end))
    footnote = _footnote(text, start)
    if footnote is None:
        return Link(url, kind_of(url, _cue(text, start)), "text", _sentence(text, start, end))
    note = " ".join(text[footnote[0] : footnote[1]].split())
    # A footnote that is the URL alone: the sentence it hangs on says what the URL is.
    cue = _cue(text, footnote[0]) + " " + note if len(note.replace(url, "").strip(" .")) < 12 else _cue(text, start)
    return Link(url, kind_of(url, cue), "footnote", note[:_CONTEXT_CHARS])


def _inside(spans: list[tuple[int, int]], offset: int) -> bool:
    return any(a <= offset < b for a, b in spans)


def _footnote(text: str, offset: int) -> tuple[int, int] | None:
    """The span of the inline footnote (` [^...]`, the shape every extractor writes) holding `offset`."""
    opened = text.rfind("[^", max(0, offset - 2000), offset)
    if opened < 0 or text.find("]", opened, offset) >= 0:
        return None
    closed = text.find("]", offset)
    if closed < 0:
        return None
    head = _FOOTNOTE_RE.match(text, opened)
    return (head.end() if head else opened + 2), closed


_CLAUSE_RE = re.compile(r"[.!?;]\s+|\n\n")


def _cue(text: str, start: int) -> str:
    """The words just before a URL in its sentence (what the authors say it is)."""
    window = text[max(0, start - 160) : start]
    pieces = _CLAUSE_RE.split(window)
    return pieces[-1] if pieces else window


def _sentence(text: str, start: int, end: int) -> str:
    """The sentence a URL stands in, at most _CONTEXT_CHARS characters around it."""
    before = text[max(0, start - _CONTEXT_CHARS) : start]
    cut = [m.end() for m in re.finditer(r"[.!?]\s+(?=[A-Z\[(])|\n\n|\n#", before)]
    lead = before[cut[-1] :] if cut else before
    after = text[end : end + _CONTEXT_CHARS]
    stop = re.search(r"[.!?](?=\s+[A-Z\[(]|\s*$)|\n\n", after)
    tail = after[: stop.end()] if stop else after
    sentence = " ".join((lead + text[start:end] + tail).split())
    return sentence[:_CONTEXT_CHARS]


def link_key(url: str) -> str:
    """What makes written URLs one link: the scheme, `www.`, case, a trailing `/`, a
    repository's `.git` and an anchor inside the page (`#readme`) aside; a fragment that is
    a one-page site's route (`#/data`, `#!/x`) stays."""
    rest = url.split("://", 1)[-1]
    rest, _, fragment = rest.partition("#")
    if fragment.startswith(("/", "!")):
        rest += "#" + fragment
    rest = rest.casefold().removeprefix("www.").rstrip("/")
    return rest.removesuffix(".git").rstrip("/")


def _once(links: list[Link]) -> list[Link]:
    seen: set[tuple[str, str]] = set()
    kept = []
    for link in links:
        key = (link_key(link.url), link.where)
        if key not in seen:
            seen.add(key)
            kept.append(link)
    return kept


def view(doc: Document, own_id: str | None = None) -> tuple[str, list[dict[str, str]]]:
    """`read_paper(section="links")`: one line per URL, and each as a record."""
    found = document_links(doc, own_id)
    if not found:
        return "This paper's text states no URL.", []
    lines = [f"{counted(len(found), 'link')} (kind, where: URL - the sentence or footnote it stands in):"]
    lines += [f"- {link.kind}, {link.where}: {link.url} - {link.context}" for link in found]
    return "\n".join(lines), [dict(vars(link)) for link in found]
