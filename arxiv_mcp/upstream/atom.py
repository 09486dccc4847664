"""arXiv's Atom feed to paper records, with the standard library's ElementTree.

Field meanings follow the arXiv API user manual, section "Details of Atom Results
Returned": https://info.arxiv.org/help/api/user-manual.html#_details_of_atom_results_returned
Both the current feed and the pre-2020 layout parse (namespaces are the same).

One odd entry (an id that is not an arXiv id, a `v0` or absurd version) is skipped and
named in `Feed.skipped`: it never fails the whole page. A feed holding more entries than were
asked for is cut to those (`Feed.cut` counts the rest), and every field to a sane length
(`fields.py`), so a lying answer costs neither the model's context nor the cache.
"""

from __future__ import annotations

import logging
import re
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import InvalidInput, UpstreamError
from ..ids import PaperId, parse
from ..models import AuthorInfo
from . import fields
from .fields import cut_list, cut_text

if TYPE_CHECKING:
    import xml.etree.ElementTree as ET

log = logging.getLogger(__name__)

NS = {
    "atom": "http://www.w3.org/2005/Atom",
    "opensearch": "http://a9.com/-/spec/opensearch/1.1/",
    "arxiv": "http://arxiv.org/schemas/atom",
}
_ABS_ID = re.compile(r"/abs/(?P<id>.+?)v(?P<v>\d+)$")
_WS = re.compile(r"\s+")


@dataclass
class Paper:
    """One <entry>: https://info.arxiv.org/help/api/user-manual.html#_entry_metadata"""

    id: str
    """Versionless id (`2401.12345`, `hep-th/9901001`), from the entry's <id> URL."""
    version: int
    """The version this entry describes; the API gives it only inside the <id> URL."""
    title: str
    """<title>, whitespace collapsed; LaTeX kept as the authors wrote it."""
    abstract: str
    """<summary>: wrapped lines joined, paragraphs kept (separated by a blank line); LaTeX kept."""
    authors: list[AuthorInfo]
    """<author> elements in the order the paper lists them."""
    categories: list[str]
    """The arXiv categories among the <category term>s (cs.LG, hep-th, astro-ph)."""
    primary_category: str
    """<arxiv:primary_category term>: the category the paper was submitted to."""
    published: str
    """<published>: when version 1 was submitted (ISO 8601, UTC)."""
    updated: str
    """<updated>: when this version was submitted (ISO 8601, UTC)."""
    doi: str | None = None
    """<arxiv:doi>: the journal DOI the authors added, not arXiv's own 10.48550 DOI."""
    journal_ref: str | None = None
    """<arxiv:journal_ref>: free-text bibliographic reference, unparsed."""
    comment: str | None = None
    """<arxiv:comment>: authors' comment (pages, figures, venue)."""
    classes: list[str] = field(default_factory=list)
    """The other <category term>s: ACM (I.2.7) and MSC (68T50) classes, one per item,
    whitespace collapsed. They are not arXiv categories and cat: does not search them."""

    @property
    def pid(self) -> PaperId:
        return PaperId(self.id, self.version)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Paper:
        d = dict(d)
        d["authors"] = [AuthorInfo(**a) for a in d.get("authors", [])]
        if "classes" not in d:  # cached before classes were kept apart from categories
            d["categories"], d["classes"] = split_terms(d.get("categories", []))
        return cls(**{k: v for k, v in d.items() if k in cls.__dataclass_fields__})


@dataclass
class Feed:
    """A page of results: https://info.arxiv.org/help/api/user-manual.html#_opensearch_extension_elements"""

    total_results: int
    """<opensearch:totalResults>: matches in all, not just this page."""
    start: int
    """<opensearch:startIndex>: 0-based offset of this page."""
    papers: list[Paper]
    skipped: list[str] = field(default_factory=list)
    """Entries left out because they could not be read, each with why."""
    cut: int = 0
    """Entries beyond the number asked for, left out unread."""


def _text(el: ET.Element | None) -> str:
    return _WS.sub(" ", "".join(el.itertext())).strip() if el is not None else ""


_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*|\n[ \t]{2,}(?=\S)")
"""Abstracts come line-wrapped; a blank line or an indented line starts a paragraph."""


def _paragraphs(el: ET.Element | None) -> str:
    """Line-wrapped text with its paragraphs kept: lines joined, paragraphs separated by a
    blank line."""
    if el is None:
        return ""
    raw = "".join(el.itertext()).strip()
    paragraphs = (_WS.sub(" ", p).strip() for p in _PARAGRAPH_BREAK.split(raw))
    return "\n\n".join(p for p in paragraphs if p)


_CLASS_SEPARATORS = re.compile(r"[;,]")
_CATEGORY_TERM = re.compile(r"[a-z]+(?:-[a-z]+)?(?:\.[A-Za-z]+(?:-[a-z]+)?)?")


def split_terms(terms: list[str]) -> tuple[list[str], list[str]]:
    """<category term>s split into arXiv categories and other classes (ACM, MSC).

    arXiv categories are lower-case archive names with an optional subject class (cs.LG,
    hep-th, cond-mat.str-el, q-bio.NC); ACM and MSC classes always hold digits (I.2.7,
    68T50, 53C), so the shape alone tells them apart, including categories newer than our
    taxonomy. Class terms often hold several classes (`I.2.9; I.2.10`, `34C29, 60J60`) and
    line breaks: one class per item."""
    cats: list[str] = []
    classes: list[str] = []
    for term in terms:
        term = _WS.sub(" ", term).strip()
        if _CATEGORY_TERM.fullmatch(term):
            cats.append(term)
        else:
            classes += [c for c in (_WS.sub(" ", x).strip() for x in _CLASS_SEPARATORS.split(term)) if c]
    return list(dict.fromkeys(cats)), list(dict.fromkeys(classes))


def _opt(entry: ET.Element, tag: str) -> str | None:
    return cut_text(_text(entry.find(tag, NS)), fields.MAX_SHORT) or None


def parse_feed(data: bytes, limit: int | None = None) -> Feed:
    """Parse an API answer, keeping at most `limit` entries. arXiv's error feed becomes
    InvalidInput (it always means a malformed request); anything unparseable becomes
    UpstreamError."""
    if _declares_dtd(data):
        raise UpstreamError(
            "arXiv's answer contained a DOCTYPE or entity declaration, which a real "
            "feed never has; it was refused. Try again later."
        )
    import xml.etree.ElementTree as ET  # on first use: start-up and cached answers never parse XML

    try:
        root = _parse_xml(data)
    except ET.ParseError as exc:
        head = data[:60].decode("utf-8", "replace").strip()
        raise UpstreamError(
            f"arXiv answered with something that is not an Atom feed ({exc}; it began {head!r}); try again in a minute."
        ) from None
    if root.tag != f"{{{NS['atom']}}}feed":
        raise UpstreamError("arXiv answered with XML that is not an Atom feed; try again in a minute.")
    entries = root.findall("atom:entry", NS)
    cut = max(0, len(entries) - limit) if limit is not None else 0
    if cut:
        log.warning("arXiv's answer held %d entries for %d asked; the rest were left out", len(entries), limit)
        entries = entries[:limit]
    for entry in entries:
        eid = _text(entry.find("atom:id", NS))
        if "/api/errors" in eid or _text(entry.find("atom:title", NS)) == "Error" and not _ABS_ID.search(eid):
            detail = _text(entry.find("atom:summary", NS)) or "unspecified error"
            raise InvalidInput(
                f"arXiv rejected the request: {detail}. Check the ids and the query "
                "syntax (fields ti: au: abs: cat: all:, operators AND OR ANDNOT)."
            )
    papers: list[Paper] = []
    skipped: list[str] = []
    for entry in entries:
        try:
            papers.append(_entry(entry))
        except _OddEntry as odd:
            log.warning("skipping an entry of arXiv's answer: %s", odd)
            skipped.append(str(odd))
    return Feed(
        total_results=_int(root.find("opensearch:totalResults", NS), len(papers)),
        start=_int(root.find("opensearch:startIndex", NS), 0),
        papers=papers,
        skipped=skipped,
        cut=cut,
    )


_SURROGATE_REF = re.compile(
    rb"&#(?:[xX]0*[dD][89a-fA-F][0-9a-fA-F]{2}|0*(?:5529[6-9]|55[3-9]\d\d|56\d{3}|57[0-2]\d\d|573[0-3]\d|5734[0-3]));"
)
"""A character reference to a UTF-16 surrogate (U+D800-U+DFFF), which XML does not allow."""


def _parse_xml(data: bytes) -> ET.Element:
    """The document's root; a document that fails only for surrogates (encoded in UTF-8 or as
    character references) is read again with each one as U+FFFD, rather than lost whole."""
    import xml.etree.ElementTree as ET

    try:
        return ET.fromstring(data)
    except ET.ParseError:
        repaired = _SURROGATE_REF.sub(b"&#xFFFD;", data).decode("utf-8", "replace").encode("utf-8")
        if repaired == data:
            raise
        return ET.fromstring(repaired)


class _OddEntry(Exception):
    """An entry that cannot be read as a paper; the rest of the feed still is."""


class _PrologRead(Exception):
    """Raised from expat handlers to stop reading once the prolog has been seen."""


def _declares_dtd(data: bytes) -> bool:
    """Whether the document has a DOCTYPE (the only place entities can be declared).

    Expat reads the prolog itself, in whatever encoding the document declares (a UTF-16
    DOCTYPE shows none of the bytes a search for "<!DOCTYPE" looks for), and stops at
    the root element, after which a DOCTYPE cannot come.
    """
    from xml.parsers import expat

    found = []

    def doctype(*_: object) -> None:
        found.append(True)
        raise _PrologRead

    def root(*_: object) -> None:
        raise _PrologRead

    parser = expat.ParserCreate()
    parser.StartDoctypeDeclHandler = doctype
    parser.StartElementHandler = root
    try:
        parser.Parse(data, True)
    except _PrologRead:
        pass
    except expat.ExpatError:
        pass  # malformed: the real parse reports it
    return bool(found)


def _int(el: ET.Element | None, default: int) -> int:
    try:
        return int(_text(el))
    except ValueError:
        return default


_ABS_PATH = re.compile(r"/abs/(?P<vid>.+)$")


def _entry_pid(entry: ET.Element) -> tuple[str, int]:
    """The entry's id and version, from its <id> URL, read as strictly as user input (so a
    `v0`, an absurd version or a malformed id is refused)."""
    eid = _text(entry.find("atom:id", NS))
    shown = eid if len(eid) <= 80 else eid[:77] + "..."
    m = _ABS_PATH.search(eid)
    try:
        pid = parse(m.group("vid")) if m else None
    except InvalidInput:
        pid = None
    if pid is None or pid.version is None:
        raise _OddEntry(f"entry {shown!r} does not name an arXiv id with a version (vN, N >= 1)")
    return pid.id, pid.version


def _entry(entry: ET.Element) -> Paper:
    paper_id, version = _entry_pid(entry)
    terms = [c.get("term", "") for c in entry.findall("atom:category", NS) if c.get("term")]
    cats, classes = split_terms(terms)
    primary_el = entry.find("arxiv:primary_category", NS)
    primary = primary_el.get("term", "") if primary_el is not None else (cats[0] if cats else "")
    found = entry.findall("atom:author", NS)
    authors = [_author(a) for a in found[: fields.MAX_AUTHORS]]
    if len(found) > len(authors):
        authors.append(AuthorInfo(fields.more_authors(len(found), len(authors)), []))
    return Paper(
        id=paper_id,
        version=version,
        title=cut_text(_text(entry.find("atom:title", NS)), fields.MAX_TITLE),
        abstract=cut_text(_paragraphs(entry.find("atom:summary", NS)), fields.MAX_ABSTRACT),
        authors=authors,
        categories=cut_list(cats, fields.MAX_LIST),
        primary_category=cut_text(primary, fields.MAX_SHORT),
        published=cut_text(_text(entry.find("atom:published", NS)), fields.MAX_SHORT),
        updated=cut_text(_text(entry.find("atom:updated", NS)), fields.MAX_SHORT),
        doi=_opt(entry, "arxiv:doi"),
        journal_ref=_opt(entry, "arxiv:journal_ref"),
        comment=_opt(entry, "arxiv:comment"),
        classes=cut_list(classes, fields.MAX_LIST),
    )


def _author(el: ET.Element) -> AuthorInfo:
    affiliations = [t for t in (_text(x) for x in el.findall("arxiv:affiliation", NS)[: fields.MAX_LIST]) if t]
    return AuthorInfo(
        cut_text(_text(el.find("atom:name", NS)), fields.MAX_SHORT),
        [cut_text(t, fields.MAX_SHORT) for t in affiliations],
    )
