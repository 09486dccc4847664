"""arXiv's announcement feeds (rss.arxiv.org, RSS 2.0) to announced-paper records.

The layout is arXiv's generator's (arXiv/arxiv-feed, `feed/serializers/serializer.py`), as a
real feed of 18 Sep 2025 shows it (tests/fixtures/rss/PROVENANCE.md): a channel whose
`pubDate` is the US Eastern midnight of the day it serves, then one `<item>` per paper in the
order new, cross, replace, replace-cross, each with its `arxiv:announce_type`, a description
`arXiv:IDvN Announce Type: TYPE \\nAbstract: ...`, a guid `oai:arXiv.org:IDvN`, one
`<category>` per category and the authors comma-separated in `dc:creator`. A day without an
announcement (weekends, holidays) is a channel without items. An unknown category gets an
error feed (HTTP 400) titled "Feed error for query: ...", whose description says why.

One odd item (no arXiv id) is skipped, never the whole feed; every field is cut to a sane
length (`fields.py`), as for Atom.
"""

from __future__ import annotations

import email.utils
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..errors import InvalidInput, UpstreamError
from ..ids import parse
from . import fields
from .atom import _declares_dtd, _parse_xml
from .fields import cut_text

if TYPE_CHECKING:
    import xml.etree.ElementTree as ET

NS = {"arxiv": "http://arxiv.org/schemas/atom", "dc": "http://purl.org/dc/elements/1.1/"}
ANNOUNCE_TYPES = ("new", "cross", "replace", "replace-cross")
"""arXiv's listing types, in the order its feeds list them."""
MAX_ITEMS = 5_000
"""arXiv's generator stops at 2,000 items; a feed holding more is cut here."""
_WS = re.compile(r"\s+")
_GUID = re.compile(r"^oai:arXiv\.org:(?P<id>.+?)v(?P<v>\d+)$")
_DESCRIPTION = re.compile(r"^arXiv:\S+\s+Announce Type:\s*\S+\s*(?:Abstract:\s*)?", re.DOTALL)


@dataclass
class Announced:
    """One `<item>`: a paper version as the day's announcement lists it."""

    id: str
    version: int
    title: str
    authors: list[str]
    announce_type: str
    """new, cross (a new paper listed here from another primary category), replace (a new
    version), replace-cross (a new version of a paper listed here from another category)."""
    categories: list[str]
    abstract: str
    doi: str | None = None
    journal_ref: str | None = None


@dataclass
class RssFeed:
    """The channel: which day it serves, and what was announced for it."""

    day: str | None
    """The US Eastern date of the channel's `pubDate` (YYYY-MM-DD): the day the feed serves."""
    items: list[Announced] = field(default_factory=list)
    skipped: int = 0
    """Items left out because they named no arXiv paper."""


def parse_rss(data: bytes, status: int = 200) -> RssFeed:
    """Read an answer of rss.arxiv.org: a feed, or arXiv's error feed (InvalidInput)."""
    if status not in (200, 400):
        raise UpstreamError(f"arXiv's feed server answered HTTP {status}; try again later.", status=status)
    if _declares_dtd(data):
        raise UpstreamError("arXiv's feed contained a DOCTYPE or entity declaration, which a real feed never has.")
    import xml.etree.ElementTree as ET

    try:
        root = _parse_xml(data)
    except ET.ParseError as exc:
        raise UpstreamError(
            f"arXiv's feed server answered with something that is not RSS ({exc}); try later."
        ) from None
    channel = root.find("channel")
    if root.tag != "rss" or channel is None:
        raise UpstreamError("arXiv's feed server answered with XML that is not an RSS feed; try again later.")
    title = _text(channel.find("title"))
    if title.startswith("Feed error") or status == 400:
        detail = cut_text(_text(channel.find("description")), 300) or "no reason given"
        raise InvalidInput(f"arXiv's feed refused the category list: {detail}")
    items: list[Announced] = []
    skipped = 0
    for item in channel.findall("item")[:MAX_ITEMS]:
        read = _item(item)
        if read is None:
            skipped += 1
        else:
            items.append(read)
    return RssFeed(_day(_text(channel.find("pubDate"))), items, skipped)


def _text(el: ET.Element | None) -> str:
    return _WS.sub(" ", "".join(el.itertext())).strip() if el is not None else ""


def _day(pub_date: str) -> str | None:
    """The calendar date the channel's pubDate names, in its own offset (US Eastern)."""
    try:
        when = email.utils.parsedate_to_datetime(pub_date)
    except (TypeError, ValueError, IndexError):
        return None
    return when.date().isoformat() if when is not None else None


def _item(item: ET.Element) -> Announced | None:
    match = _GUID.match(_text(item.find("guid")))
    try:
        pid = parse(match["id"] if match else _text(item.find("link")))
    except InvalidInput:
        return None
    version = int(match["v"]) if match else (pid.version or 1)
    kind = _text(item.find("arxiv:announce_type", NS)).lower()
    authors = [a.strip() for a in _text(item.find("dc:creator", NS)).split(",") if a.strip()]
    return Announced(
        id=pid.id,
        version=version,
        title=cut_text(_text(item.find("title")), fields.MAX_TITLE),
        authors=[cut_text(a, fields.MAX_SHORT) for a in authors[: fields.MAX_AUTHORS]],
        announce_type=kind if kind in ANNOUNCE_TYPES else "new",
        categories=[_text(c) for c in item.findall("category")][: fields.MAX_LIST],
        abstract=cut_text(_DESCRIPTION.sub("", _text(item.find("description")), count=1), fields.MAX_ABSTRACT),
        doi=cut_text(_text(item.find("arxiv:DOI", NS)), fields.MAX_SHORT) or None,
        journal_ref=cut_text(_text(item.find("arxiv:journal_reference", NS)), fields.MAX_SHORT) or None,
    )
