"""arXiv's OAI-PMH wire format (`arXivRaw` records, sets, tokens, errors), read with the stdlib.

The shapes follow arXiv's own service (arXiv/oaipmh templates, as recorded in the shared
fixtures): a ListRecords page holds `<record>`s and a `<resumptionToken>` whose text is the
next request (empty, or absent, on the last page); an error is HTTP 200 with `<error code>`.
`noRecordsMatch` is not a failure to a harvester (nothing changed), so it is answered as an
empty last page; `badResumptionToken` is its own exception, for the harvester to restart
from the last datestamp. An `arXivRaw` record carries every version with its date and size.

Category to set: `cs.LG` -> `cs:cs:LG`, `hep-th` -> `physics:hep-th`, `astro-ph.CO` ->
`physics:astro-ph:CO`, `math` -> `math:math` (ListSets: group, then archive, then subject class).
"""

from __future__ import annotations

import email.utils
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import UTC

from ..errors import UpstreamError
from . import fields

OAI_NS = "{http://www.openarchives.org/OAI/2.0/}"
RAW_NS = "{http://arxiv.org/OAI/arXivRaw/}"
_GROUP_SETS = frozenset({"cs", "econ", "eess", "math", "q-bio", "q-fin", "stat"})
"""Archives that are their own group in ListSets; every other archive is under `physics`."""


class BadResumptionToken(UpstreamError):
    """The token expired (tokens last until the next UTC midnight) or was not understood."""


@dataclass(frozen=True)
class Version:
    version: int
    date: str
    """ISO 8601 UTC, as the Atom feed writes dates."""
    size: str
    """As arXiv states it (`1102kb`)."""


@dataclass
class Record:
    id: str
    datestamp: str
    sets: list[str]
    title: str
    authors: list[str]
    categories: list[str]
    abstract: str
    versions: list[Version]
    comments: str | None = None
    journal_ref: str | None = None
    doi: str | None = None
    classes: list[str] = field(default_factory=list)
    deleted: bool = False

    @property
    def published(self) -> str:
        return self.versions[0].date if self.versions else ""

    @property
    def updated(self) -> str:
        return self.versions[-1].date if self.versions else ""


@dataclass
class Page:
    response_date: str
    records: list[Record]
    token: str | None
    """The next request's token; None when this was the last page."""


def set_spec(category: str) -> str:
    """The OAI set that holds a category (`cs.LG`) or an archive (`cs`, `hep-th`)."""
    archive, _, subject = category.partition(".")
    group = archive if archive in _GROUP_SETS else "physics"
    return f"{group}:{archive}" + (f":{subject}" if subject else "")


def parse_page(data: bytes) -> Page:
    """One ListRecords answer: its records, its next token, or the error it carries."""
    import xml.etree.ElementTree as ET

    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise UpstreamError(f"arXiv's OAI-PMH answer could not be read as XML ({exc}); try again later") from None
    response_date = (root.findtext(f"{OAI_NS}responseDate") or "").strip()
    error = root.find(f"{OAI_NS}error")
    if error is not None:
        code = error.get("code", "")
        if code == "noRecordsMatch":
            return Page(response_date, [], None)
        if code == "badResumptionToken":
            raise BadResumptionToken(f"arXiv's OAI-PMH refused the resumption token: {_text(error)}")
        raise UpstreamError(f"arXiv's OAI-PMH answered the error {code}: {_text(error)}")
    listing = root.find(f"{OAI_NS}ListRecords")
    if listing is None:
        raise UpstreamError("arXiv's OAI-PMH answer holds neither records nor an error; try again later")
    records = [r for el in listing.findall(f"{OAI_NS}record") if (r := _record(el)) is not None]
    token_el = listing.find(f"{OAI_NS}resumptionToken")
    token = (token_el.text or "").strip() if token_el is not None else ""
    return Page(response_date, records, token or None)


def _text(el: object) -> str:
    import xml.etree.ElementTree as ET

    if not isinstance(el, ET.Element):
        return ""
    return " ".join("".join(el.itertext()).split())


def _record(el: object) -> Record | None:
    import xml.etree.ElementTree as ET

    assert isinstance(el, ET.Element)
    header = el.find(f"{OAI_NS}header")
    if header is None:
        return None
    identifier = (header.findtext(f"{OAI_NS}identifier") or "").strip()
    paper_id = identifier.removeprefix("oai:arXiv.org:")
    datestamp = (header.findtext(f"{OAI_NS}datestamp") or "").strip()
    sets = [(s.text or "").strip() for s in header.findall(f"{OAI_NS}setSpec")]
    raw = el.find(f"{OAI_NS}metadata/{RAW_NS}arXivRaw")
    if header.get("status") == "deleted" or raw is None:
        return Record(paper_id, datestamp, sets, "", [], [], "", [], deleted=True)

    def opt(tag: str) -> str | None:
        value = _text(raw.find(f"{RAW_NS}{tag}"))
        return value or None

    versions = []
    for v in raw.findall(f"{RAW_NS}version"):
        number = (v.get("version") or "").lstrip("v")
        if number.isdigit():
            versions.append(Version(int(number), _iso(_text(v.find(f"{RAW_NS}date"))), _text(v.find(f"{RAW_NS}size"))))
    versions.sort(key=lambda v: v.version)
    msc = opt("msc-class") or opt("acm-class")
    return Record(
        id=opt("id") or paper_id,
        datestamp=datestamp,
        sets=sets,
        title=fields.cut_text(opt("title") or "", fields.MAX_TITLE),
        authors=fields.cut_list(split_authors(opt("authors") or ""), fields.MAX_AUTHORS),
        categories=(opt("categories") or "").split(),
        abstract=fields.cut_text(" ".join((raw.findtext(f"{RAW_NS}abstract") or "").split()), fields.MAX_ABSTRACT),
        versions=versions,
        comments=opt("comments"),
        journal_ref=opt("journal-ref"),
        doi=opt("doi"),
        classes=[c.strip() for c in re.split(r"[;,]", msc or "") if c.strip()],
    )


def _iso(rfc822: str) -> str:
    """`Mon, 12 Jun 2017 17:57:34 GMT` as `2017-06-12T17:57:34Z` (the Atom feed's form)."""
    try:
        moment = email.utils.parsedate_to_datetime(rfc822)
    except (TypeError, ValueError, IndexError):
        return ""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


_TEX_ACCENTS = {"'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303", "c": "\u0327", "v": "\u030c"}
_TEX_ACCENT = re.compile(r"\\([`'^\"~]|[cv](?=[{\s]))\s*\{?\\?([A-Za-z])\}?")


def untex(text: str) -> str:
    """TeX accents of names (`\\c{C}elik`, `G\\"odel`) as the letters they make."""
    text = _TEX_ACCENT.sub(lambda m: unicodedata.normalize("NFC", m.group(2) + _TEX_ACCENTS[m.group(1)]), text)
    return text.replace("{", "").replace("}", "")


def split_authors(text: str) -> list[str]:
    """arXivRaw's one line of authors as names: comma- or `and`-separated, affiliations in
    parentheses dropped."""
    depth, flat = 0, []
    for ch in text:
        depth += ch == "("
        if depth == 0:
            flat.append(ch)
        depth -= ch == ")" and depth > 0
    names = re.split(r",|\band\b", "".join(flat))
    return [n for n in (" ".join(untex(part).split()) for part in names) if n]
