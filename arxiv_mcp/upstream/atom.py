"""arXiv's Atom feed to paper records, with the standard library's ElementTree.

Field meanings follow the arXiv API user manual, section "Details of Atom Results
Returned": https://info.arxiv.org/help/api/user-manual.html#_details_of_atom_results_returned
Both the current feed and the pre-2020 layout parse (namespaces are the same).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

from ..errors import InvalidInput, UpstreamError
from ..ids import PaperId, parse

if TYPE_CHECKING:
    import xml.etree.ElementTree as ET

NS = {
    "atom": "http://www.w3.org/2005/Atom",
    "opensearch": "http://a9.com/-/spec/opensearch/1.1/",
    "arxiv": "http://arxiv.org/schemas/atom",
}
_ABS_ID = re.compile(r"/abs/(?P<id>.+?)v(?P<v>\d+)$")
_WS = re.compile(r"\s+")


@dataclass
class Author:
    name: str
    """<author><name>: as the submitter typed it."""
    affiliations: list[str] = field(default_factory=list)
    """<arxiv:affiliation> elements, when the submitter gave any (rare)."""


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
    """<summary>, whitespace collapsed; LaTeX kept as is."""
    authors: list[Author]
    """<author> elements in the order the paper lists them."""
    categories: list[str]
    """Every <category term>: arXiv categories, and sometimes ACM/MSC classes."""
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

    @property
    def pid(self) -> PaperId:
        return PaperId(self.id, self.version)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> Paper:
        d = dict(d)
        d["authors"] = [Author(**a) for a in d.get("authors", [])]
        return cls(**{k: v for k, v in d.items() if k in cls.__dataclass_fields__})


@dataclass
class Feed:
    """A page of results: https://info.arxiv.org/help/api/user-manual.html#_opensearch_extension_elements"""

    total_results: int
    """<opensearch:totalResults>: matches in all, not just this page."""
    start: int
    """<opensearch:startIndex>: 0-based offset of this page."""
    papers: list[Paper]


def _text(el: ET.Element | None) -> str:
    return _WS.sub(" ", "".join(el.itertext())).strip() if el is not None else ""


def _opt(entry: ET.Element, tag: str) -> str | None:
    return _text(entry.find(tag, NS)) or None


def parse_feed(data: bytes) -> Feed:
    """Parse an API answer. arXiv's error feed becomes InvalidInput (it always means a
    malformed request); anything unparseable becomes UpstreamError."""
    if _declares_dtd(data):
        raise UpstreamError(
            "arXiv's answer contained a DOCTYPE or entity declaration, which a real "
            "feed never has; it was refused. Try again later."
        )
    import xml.etree.ElementTree as ET  # on first use: start-up and cached answers never parse XML

    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        head = data[:60].decode("utf-8", "replace").strip()
        raise UpstreamError(
            f"arXiv answered with something that is not an Atom feed ({exc}; it began {head!r}); try again in a minute."
        ) from None
    if root.tag != f"{{{NS['atom']}}}feed":
        raise UpstreamError("arXiv answered with XML that is not an Atom feed; try again in a minute.")
    entries = root.findall("atom:entry", NS)
    for entry in entries:
        eid = _text(entry.find("atom:id", NS))
        if "/api/errors" in eid or _text(entry.find("atom:title", NS)) == "Error" and not _ABS_ID.search(eid):
            detail = _text(entry.find("atom:summary", NS)) or "unspecified error"
            raise InvalidInput(
                f"arXiv rejected the request: {detail}. Check the ids and the query "
                "syntax (fields ti: au: abs: cat: all:, operators AND OR ANDNOT)."
            )
    papers = [p for p in (_entry(e) for e in entries) if p is not None]
    return Feed(
        total_results=_int(root.find("opensearch:totalResults", NS), len(papers)),
        start=_int(root.find("opensearch:startIndex", NS), 0),
        papers=papers,
    )


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


def _entry(entry: ET.Element) -> Paper | None:
    m = _ABS_ID.search(_text(entry.find("atom:id", NS)))
    if not m:
        return None
    try:
        pid = parse(m.group("id"))
    except InvalidInput:
        return None
    cats = [c.get("term", "") for c in entry.findall("atom:category", NS) if c.get("term")]
    primary_el = entry.find("arxiv:primary_category", NS)
    primary = primary_el.get("term", "") if primary_el is not None else (cats[0] if cats else "")
    authors = [
        Author(_text(a.find("atom:name", NS)), [t for t in (_text(x) for x in a.findall("arxiv:affiliation", NS)) if t])
        for a in entry.findall("atom:author", NS)
    ]
    return Paper(
        id=pid.id,
        version=int(m.group("v")),
        title=_text(entry.find("atom:title", NS)),
        abstract=_text(entry.find("atom:summary", NS)),
        authors=authors,
        categories=cats,
        primary_category=primary,
        published=_text(entry.find("atom:published", NS)),
        updated=_text(entry.find("atom:updated", NS)),
        doi=_opt(entry, "arxiv:doi"),
        journal_ref=_opt(entry, "arxiv:journal_ref"),
        comment=_opt(entry, "arxiv:comment"),
    )
