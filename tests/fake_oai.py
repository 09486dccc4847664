"""arXiv's OAI-PMH for the fake arXiv: ListRecords in arXivRaw over the fake's papers.

Shapes follow the recordings in tests/fixtures/oai/ (copied from the shared fixtures, which
follow arXiv's own templates): `<resumptionToken expirationDate='...'>` whose text is the
quoted query plus `skip`, `from` moving to the page's last day; `<resumptionToken/>` on the
last page of a resumed list; no token element when one page holds everything; errors as
HTTP 200 with `<error code='...'>` (noRecordsMatch, badResumptionToken, badArgument).
A paper's sets are its categories' (`cs.LG` -> `cs:cs:LG`); asking an archive's set
(`cs:cs`) lists every paper in one of its categories. Dates: header datestamp is the
latest version's day; version k is dated `FakePaper.version_date(k)`.
"""

from __future__ import annotations

import html
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, quote, unquote, urlencode

if TYPE_CHECKING:
    from tests.fake_arxiv import FakeArxiv, FakePaper

XML_TYPE = "text/xml; charset=utf-8"
_GROUPS = {"cs", "econ", "eess", "math", "q-bio", "q-fin", "stat"}
_HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/ http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd">
    <responseDate>{now}</responseDate>
                {request}
"""


def paper_sets(paper: FakePaper) -> list[str]:
    out = []
    for cat in paper.categories:
        archive, _, subject = cat.partition(".")
        group = archive if archive in _GROUPS else "physics"
        out.append(f"{group}:{archive}" + (f":{subject}" if subject else ""))
    return out


def datestamp(paper: FakePaper) -> str:
    return paper.latest_date.astimezone(UTC).strftime("%Y-%m-%d")


def record(paper: FakePaper, deleted: bool = False) -> str:
    sets = "".join(f"\n            <setSpec>{s}</setSpec>" for s in paper_sets(paper))
    header_status = ' status="deleted"' if deleted else ""
    head = f"""                    <record>
                <header{header_status}>
        <identifier>oai:arXiv.org:{paper.id}</identifier>
        <datestamp>{datestamp(paper)}</datestamp>{sets}
    </header>
"""
    if deleted:
        return head + "        </record>\n"
    versions = "".join(
        f"""
            <version version="v{k}">
                <date>{paper.version_date(k).astimezone(UTC).strftime("%a, %d %b %Y %H:%M:%S GMT")}</date>
                <size>{100 + k}kb</size>
            </version>"""
        for k in range(1, paper.versions + 1)
    )
    names = ", ".join(name if isinstance(name, str) else name[0] for name in paper.authors)
    optional = "".join(
        f"\n            <{tag}>{html.escape(value)}</{tag}>"
        for tag, value in (("comments", paper.comment), ("journal-ref", paper.journal_ref), ("doi", paper.doi))
        if value
    )
    e = html.escape
    return (
        head
        + f"""
            <metadata>
                        <arXivRaw xmlns="http://arxiv.org/OAI/arXivRaw/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
        <id>{paper.id}</id>
        <submitter>{e(names.split(",")[0])}</submitter>{versions}
        <title>{e(paper.title)}</title>
        <authors>{e(names)}</authors>
        <categories>{" ".join(paper.categories)}</categories>{optional}
            <license>http://creativecommons.org/licenses/by/4.0/</license>
            <abstract>{e(paper.abstract)}</abstract>
    </arXivRaw>

            </metadata>
        </record>
"""
    )


def _in_set(paper: FakePaper, spec: str) -> bool:
    return any(s == spec or s.startswith(spec + ":") for s in paper_sets(paper))


def _listing(fake: FakeArxiv, spec: str, since: str | None) -> list[FakePaper]:
    papers = [p for p in fake.papers.values() if _in_set(p, spec) and (since is None or datestamp(p) >= since)]
    return sorted(papers, key=lambda p: (datestamp(p), p.id))


def _error(code: str, text: str, request: str) -> bytes:
    return (
        _HEAD.format(now=_now(), request=request) + f"\n\n    <error code='{code}'>{text}</error>\n</OAI-PMH>"
    ).encode()


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def answer(fake: FakeArxiv, query: dict[str, str]) -> tuple[int, bytes, str]:
    """(status, body, content type) of one OAI-PMH request."""
    token = query.get("resumptionToken")
    if token is not None:
        request = f"<request verb='ListRecords' resumptionToken='{html.escape(token)}'>{fake.oai_url}</request>"
        if fake.oai_bad_tokens > 0:
            fake.oai_bad_tokens -= 1
            return (
                200,
                _error(
                    "badResumptionToken",
                    "The value of the resumptionToken argument is invalid or expired. Reason: expired.",
                    "<request>" + fake.oai_url + "</request>",
                ),
                XML_TYPE,
            )
        inner = dict(parse_qsl(unquote(token)))
        if "set" not in inner or "skip" not in inner:
            return (
                200,
                _error(
                    "badResumptionToken",
                    "The value of the resumptionToken argument is invalid or expired. Reason: Token decoding failed or format is invalid.",
                    "<request>" + fake.oai_url + "</request>",
                ),
                XML_TYPE,
            )
        spec, since, skip = inner["set"], inner.get("from"), int(inner["skip"])
    else:
        attrs = " ".join(f'{k}="{html.escape(v)}"' for k, v in query.items())
        request = f"<request {attrs}>{fake.oai_url}</request>"
        if query.get("verb") != "ListRecords" or query.get("metadataPrefix") != "arXivRaw" or not query.get("set"):
            return (
                200,
                _error("badArgument", "Illegal or missing argument.", "<request>" + fake.oai_url + "</request>"),
                XML_TYPE,
            )
        spec, since, skip = query["set"], query.get("from"), 0
    listing = _listing(fake, spec, since)
    page = listing[skip : skip + fake.oai_page_size]
    if not page:
        return (
            200,
            _error(
                "noRecordsMatch",
                "The combination of the values of the from, until, set and metadataPrefix arguments results in an empty list.",
                request,
            ),
            XML_TYPE,
        )
    more = skip + len(page) < len(listing)
    token_xml = ""
    if more:
        last_day = datestamp(page[-1])
        served_that_day = sum(1 for p in listing[: skip + len(page)] if datestamp(p) == last_day)
        nxt = urlencode(
            {
                "verb": "ListRecords",
                "metadataPrefix": "arXivRaw",
                "set": spec,
                "from": last_day,
                "skip": served_that_day,
            }
        )
        expires = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%dT00:00:00Z")
        token_xml = f"                    <resumptionToken expirationDate='{expires}'>{quote(nxt)}</resumptionToken>\n"
    elif token is not None:
        token_xml = "                    <resumptionToken/>\n"
    records = "\n".join(record(p, p.id in fake.oai_deleted) for p in page)
    body = (
        _HEAD.format(now=_now(), request=request)
        + "\n\n    <ListRecords>\n"
        + records
        + "\n"
        + token_xml
        + "\n    </ListRecords>\n</OAI-PMH>"
    )
    return 200, body.encode(), XML_TYPE
