"""A local fake of arXiv (API, site, ar5iv) and Semantic Scholar for tests and benchmarks.

One stdlib HTTP/1.1 server on 127.0.0.1 answers everything the MCP server fetches, shaped like
the real 2026 responses, logs every request, and can inject the failures real upstreams show
(throttling, resets, truncation, stalls, junk bodies). Run standalone with
`python -m tests.fake_arxiv --port 0 --corpus 50`; the first stdout line is the base URL.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import html as html_lib
import io
import json
import random
import re
import signal
import socket
import struct
import sys
import tarfile
import textwrap
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, quote, unquote, urlsplit
from xml.sax.saxutils import escape as xml_escape

from tests import fake_arxiv_query as query_lang
from tests.pdfgen import make_pdf

UTC = UTC


class _Sentinel:
    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


STUB = _Sentinel("STUB")
"""FakePaper.html value: /html/ID answers 200 with arXiv's "HTML is not available" stub."""
NO_PDF = _Sentinel("NO_PDF")
"""FakePaper.pdf value: /pdf/ID answers 404 (None does the same)."""
_AUTO_PDF = _Sentinel("AUTO_PDF")

FAULT_KINDS = frozenset(
    {
        "status",
        "rate_exceeded",
        "reset",
        "truncate",
        "stall",
        "malformed",
        "empty",
        "huge",
        "drip",
        "drip_chunked",
        "huge_page",
    }
)
HUGE_BODY_BYTES = 64 * 1024 * 1024 + 4096
HUGE_PAGE_BYTES = 45 * 1024 * 1024
MAX_RESULTS_LIMIT = 2000
RESULT_WINDOW = 30000
ATOM_TYPE = "application/atom+xml; charset=utf-8"
HTML_TYPE = "text/html; charset=utf-8"
JSON_TYPE = "application/json"
TEXT_TYPE = "text/plain; charset=utf-8"

NEW_ID = r"\d{4}\.\d{4,5}"
OLD_ID = r"[a-z]+(?:-[a-z]+)*/\d{7}"
_VERSIONED = re.compile(
    rf"(?:(?P<new>{NEW_ID})|(?P<archive>[a-z]+(?:-[a-z]+)*)(?:\.[A-Za-z][A-Za-z-]*)?/(?P<num>\d{{7}}))(?:v(?P<v>\d+))?",
    re.ASCII,
)


# ---- the papers ----------------------------------------------------------------------------


@dataclass
class FakePaper:
    """One arXiv paper and everything the fake serves for it."""

    id: str
    title: str
    abstract: str
    authors: list[str | tuple[str, str]]
    categories: list[str]
    published: datetime
    versions: int = 1
    updated: datetime | None = None
    doi: str | None = None
    journal_ref: str | None = None
    comment: str | None = None
    html: str | dict[int, str] | _Sentinel | None = None
    ar5iv: str | None = None
    source: bytes | None = None
    pdf: bytes | _Sentinel | None = _AUTO_PDF
    references: list[dict] | None = None
    citations: list[dict] | None = None
    report_no: str | None = None
    images: dict[str, bytes] | None = None
    """Files beside the HTML page (`/html/IDvN/x1.png`), as arXiv serves a page's figures."""
    revisions: dict[int, dict[str, object]] | None = None
    """What differs in a later version: version -> fields of this record (title, abstract,
    comment, authors, html, source, pdf, ...) as that version has them; the rest as v1."""

    def __post_init__(self) -> None:
        if self.versions < 1:
            raise ValueError(f"{self.id}: versions must be >= 1")
        if not self.categories:
            raise ValueError(f"{self.id}: at least one category (the primary) is needed")
        if self.pdf is _AUTO_PDF:
            self.pdf = default_pdf(self)
        elif self.pdf is NO_PDF:
            self.pdf = None

    def version_date(self, version: int) -> datetime:
        """Date of version k: published + (k-1) days, or spread evenly up to `updated`."""
        if self.updated is None:
            return self.published + timedelta(days=version - 1)
        if self.versions == 1:
            return self.updated
        fraction = (version - 1) / (self.versions - 1)
        return self.published + (self.updated - self.published) * fraction

    @property
    def latest_date(self) -> datetime:
        return self.version_date(self.versions)

    def author_list(self) -> list[tuple[str, str | None]]:
        return [(a, None) if isinstance(a, str) else (a[0], a[1]) for a in self.authors]

    def at(self, version: int) -> FakePaper:
        """The paper as version `version` of it is: its revision's fields over this record's."""
        changes = dict((self.revisions or {}).get(version) or {})
        return replace(self, revisions=None, **changes) if changes else self  # type: ignore[arg-type]

    def html_for(self, version: int) -> object:
        if isinstance(self.html, dict):
            return self.html.get(version)
        return self.html


def default_pdf(paper: FakePaper) -> bytes:
    """Three pages: title and abstract, an introduction, a conclusion with references."""
    names = ", ".join(name for name, _ in paper.author_list())

    def wrap(text: str) -> str:
        return "\n".join(textwrap.wrap(text, 90))

    intro = (
        f"This paper is about {paper.title}. We introduce the problem, review prior work and "
        f"state our contributions. The main categories are {', '.join(paper.categories)}. "
        "Section 2 describes the method and Section 3 reports experiments and results."
    )
    conclusion = (
        "We presented our approach and showed that it works well on the problems studied. "
        "Future work will extend the analysis to larger settings."
    )
    pages = [
        f"{paper.title}\n{names}\n\nAbstract\n{wrap(paper.abstract)}",
        f"1 Introduction\n{wrap(intro)}",
        f"2 Conclusion\n{wrap(conclusion)}\n\nReferences\n[1] A. Author. An earlier paper. 2020.",
    ]
    return make_pdf(pages)


def _split_id(text: str) -> tuple[str, int | None] | None:
    """(id, version) as arXiv reads it: a subject class in an old-style id (`math.GT/0309136`)
    is not part of the id, so it names `math/0309136`, the form the API answers with."""
    match = _VERSIONED.fullmatch(text)
    if not match:
        return None
    version = match.group("v")
    paper_id = match.group("new") or f"{match.group('archive')}/{match.group('num')}"
    return paper_id, (int(version) if version is not None else None)


def _is_old_style(paper_id: str) -> bool:
    return "/" in paper_id


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _s2_hash(text: str, digits: int = 40) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:digits]


# ---- Atom ----------------------------------------------------------------------------------

_FEED_OPEN = (
    "<?xml version='1.0' encoding='UTF-8'?>\n"
    '<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" '
    'xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns="http://www.w3.org/2005/Atom">\n'
)


def _attr(text: str) -> str:
    return xml_escape(text, {'"': "&quot;"})


def atom_entry(paper: FakePaper, version: int) -> str:
    paper = paper.at(version)
    vid = f"{paper.id}v{version}"
    lines = [
        "  <entry>",
        f"    <id>http://arxiv.org/abs/{vid}</id>",
        f"    <title>{xml_escape(paper.title)}</title>",
        f"    <updated>{_iso(paper.version_date(version))}</updated>",
        f'    <link href="https://arxiv.org/abs/{vid}" rel="alternate" type="text/html"/>',
        f'    <link href="https://arxiv.org/pdf/{vid}" rel="related" type="application/pdf" title="pdf"/>',
        f"    <summary>{xml_escape(paper.abstract)}</summary>",
    ]
    lines += [f'    <category term="{_attr(c)}" scheme="http://arxiv.org/schemas/atom"/>' for c in paper.categories]
    lines.append(f"    <published>{_iso(paper.published)}</published>")
    if paper.comment:
        lines.append(f"    <arxiv:comment>{xml_escape(paper.comment)}</arxiv:comment>")
    lines.append(f'    <arxiv:primary_category term="{_attr(paper.categories[0])}"/>')
    if paper.journal_ref:
        lines.append(f"    <arxiv:journal_ref>{xml_escape(paper.journal_ref)}</arxiv:journal_ref>")
    for name, affiliation in paper.author_list():
        lines += ["    <author>", f"      <name>{xml_escape(name)}</name>"]
        if affiliation:
            lines.append(f"      <arxiv:affiliation>{xml_escape(affiliation)}</arxiv:affiliation>")
        lines.append("    </author>")
    if paper.doi:
        lines.append(f"    <arxiv:doi>{xml_escape(paper.doi)}</arxiv:doi>")
        lines.append(f'    <link rel="related" href="https://doi.org/{_attr(paper.doi)}" title="doi"/>')
    lines.append("  </entry>")
    return "\n".join(lines) + "\n"


def atom_feed(search_query: str, id_list: str, start: int, max_results: int, total: int, entries: list[str]) -> bytes:
    title = f"arXiv Query: search_query={search_query}&id_list={id_list}&start={start}&max_results={max_results}"
    feed_id = base64.b64encode(hashlib.sha1(title.encode("utf-8")).digest()).decode("ascii").rstrip("=")
    echoed_query = quote(search_query, safe=':()"*').replace("%20", "+")
    link = f"https://arxiv.org/api/query?search_query={echoed_query}&start={start}&max_results={max_results}&id_list={id_list}"
    head = (
        f"  <id>https://arxiv.org/api/{feed_id}</id>\n"
        f"  <title>{xml_escape(title)}</title>\n"
        f"  <updated>{_iso(datetime.now(UTC))}</updated>\n"
        f'  <link href="{_attr(link)}" type="application/atom+xml"/>\n'
        f"  <opensearch:itemsPerPage>{max_results}</opensearch:itemsPerPage>\n"
        f"  <opensearch:totalResults>{total}</opensearch:totalResults>\n"
        f"  <opensearch:startIndex>{start}</opensearch:startIndex>\n"
    )
    return (_FEED_OPEN + head + "".join(entries) + "</feed>\n").encode("utf-8")


def atom_error(message: str) -> bytes:
    """arXiv's error feed: one entry titled Error whose summary is the message."""
    anchor = "https://arxiv.org/api/errors#" + re.sub(r"\s+", "_", message)
    now = _iso(datetime.now(UTC))
    body = (
        "  <id>https://arxiv.org/</id>\n"
        "  <title>arXiv Search Results</title>\n"
        f"  <updated>{now}</updated>\n"
        "  <opensearch:itemsPerPage>1</opensearch:itemsPerPage>\n"
        "  <opensearch:totalResults>1</opensearch:totalResults>\n"
        "  <opensearch:startIndex>0</opensearch:startIndex>\n"
        "  <entry>\n"
        f"    <id>{xml_escape(anchor)}</id>\n"
        "    <title>Error</title>\n"
        f"    <updated>{now}</updated>\n"
        f'    <link href="{_attr(anchor)}" rel="alternate" type="text/html"/>\n'
        f"    <summary>{xml_escape(message)}</summary>\n"
        "    <author>\n      <name>arXiv api core</name>\n    </author>\n"
        "  </entry>\n"
    )
    return (_FEED_OPEN + body + "</feed>\n").encode("utf-8")


# ---- HTML pages ----------------------------------------------------------------------------

_STUB_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"/><title>HTML is not available</title></head>
<body><main><h1>HTML is not available for the source.</h1>
<p>This paper could not be converted to HTML, or its source is not LaTeX.
Please use the PDF or the source files instead.</p></main></body></html>
"""


def abs_page(paper: FakePaper, version: int) -> str:
    esc = html_lib.escape
    metas = [f'<meta name="citation_title" content="{esc(paper.title)}"/>']
    metas += [f'<meta name="citation_author" content="{esc(name)}"/>' for name, _ in paper.author_list()]
    metas.append(f'<meta name="citation_date" content="{paper.published:%Y/%m/%d}"/>')
    metas.append(f'<meta name="citation_arxiv_id" content="{esc(paper.id)}"/>')
    authors = ", ".join(f'<a href="/a/{quote(name)}">{esc(name)}</a>' for name, _ in paper.author_list())
    history = "".join(
        f"<strong>[v{k}]</strong> {paper.version_date(k):%a, %d %b %Y %H:%M:%S} UTC<br/>"
        for k in range(1, paper.versions + 1)
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"/>'
        f"<title>[{esc(paper.id)}v{version}] {esc(paper.title)}</title>\n" + "\n".join(metas) + "\n</head>\n"
        f'<body><div id="abs"><h1 class="title mathjax"><span class="descriptor">Title:</span>{esc(paper.title)}</h1>\n'
        f'<div class="authors"><span class="descriptor">Authors:</span>{authors}</div>\n'
        f'<blockquote class="abstract mathjax"><span class="descriptor">Abstract:</span>{esc(paper.abstract)}</blockquote>\n'
        f'<div class="metatable"><span class="primary-subject">{esc(paper.categories[0])}</span></div>\n'
        f'<div class="submission-history"><h2>Submission history</h2>{history}</div></div></body></html>\n'
    )


_MATH = re.compile(r"\$([^$]+)\$")


def _math_element(tex: str, ident: str) -> str:
    alt = html_lib.escape(tex, quote=True)
    return (
        f'<math alttext="{alt}" class="ltx_Math" display="inline" id="{ident}">'
        f'<semantics id="{ident}a"><mi>{html_lib.escape(tex)}</mi>'
        f'<annotation encoding="application/x-tex" id="{ident}c">{html_lib.escape(tex)}</annotation>'
        "</semantics></math>"
    )


def _with_math(text: str, prefix: str) -> str:
    """Escape text, turning each $...$ into a LaTeXML-style <math alttext=...> element."""
    out, last = [], 0
    for n, match in enumerate(_MATH.finditer(text), start=1):
        out.append(html_lib.escape(text[last : match.start()], quote=False))
        out.append(_math_element(match.group(1), f"{prefix}.m{n}"))
        last = match.end()
    out.append(html_lib.escape(text[last:], quote=False))
    return "".join(out)


_RECORDED_PAGE = Path(__file__).parent / "fixtures/html/arxiv_html_2501.12977v1_TRANSCRIBED_nbsp-lost.html"
_RECORDED_HEAD = _RECORDED_PAGE.read_text(encoding="utf-8").split("<base href=", 1)[0].rstrip()


def _recorded_head(title: str, generated: str) -> str:
    """The recorded page's head (arXiv's stylesheets and scripts) as this paper's: its title and
    date. Read from the fixture so the fake's chrome stays the real one."""
    head = re.sub(r"<title>.*?</title>", lambda _: f"<title>{html_lib.escape(title)}</title>", _RECORDED_HEAD)
    return re.sub(r"Generated on .*? by", lambda _: f"Generated on {generated} by", head, count=1)


def latexml_html(paper: FakePaper, sections: list[tuple[str, str]]) -> str:
    """A small page shaped like arXiv's LaTeXML output, with page chrome a reader must strip."""
    esc = html_lib.escape
    vid = f"{paper.id}v{paper.versions}"
    toc = "\n".join(
        f'<li class="ltx_tocentry ltx_tocentry_section"><a class="ltx_ref" href="https://arxiv.org/html/{vid}#S{i}" '
        f'title="In {esc(paper.title)}"><span class="ltx_text ltx_ref_title"><span class="ltx_tag ltx_tag_ref">{i} </span>'
        f"{esc(title)}</span></a></li>"
        for i, (title, _) in enumerate(sections, start=1)
    )
    authors = "\n".join(
        '<span class="ltx_creator ltx_role_author">\n'
        f'<span class="ltx_personname">{esc(name)}</span>'
        + (
            f'<span class="ltx_author_notes"><span class="ltx_contact ltx_role_affiliation">{esc(aff)}</span></span>'
            if aff
            else ""
        )
        + "</span>"
        for name, aff in paper.author_list()
    )
    body_parts = []
    math_seen = False
    for i, (title, text) in enumerate(sections, start=1):
        paragraphs = [p.strip() for p in text.split("\n\n") if p.strip()] or [""]
        paras = []
        for j, para in enumerate(paragraphs, start=1):
            rendered = _with_math(para, f"S{i}.p{j}")
            math_seen = math_seen or "<math" in rendered
            paras.append(
                f'<div class="ltx_para" id="S{i}.p{j}">\n<p class="ltx_p" id="S{i}.p{j}.1">{rendered}</p>\n</div>'
            )
        body_parts.append(
            f'<section class="ltx_section" id="S{i}">\n<h2 class="ltx_title ltx_title_section">\n'
            f'<span class="ltx_tag ltx_tag_section">{i} </span>{esc(title)}</h2>\n' + "\n".join(paras) + "\n</section>"
        )
    abstract = _with_math(paper.abstract.strip(), "id1")
    math_seen = math_seen or "<math" in abstract
    if not math_seen:
        abstract += " The main quantity is " + _math_element(r"E=mc^{2}", "id1.m9") + "."
    refs = paper.references or [
        {"title": "A survey of the field", "year": 2019, "authors": ["A. Author"]},
        {"title": "Foundations revisited", "year": 2021, "authors": ["B. Writer", "C. Scholar"]},
    ]
    bib = "\n".join(
        f'<li class="ltx_bibitem" id="bib.bib{k}">\n<span class="ltx_tag ltx_role_refnum ltx_tag_bibitem">[{k}]</span>\n'
        f'<span class="ltx_bibblock">{esc(", ".join(ref.get("authors") or []))}. {esc(ref.get("title") or "")}. '
        f"{esc(str(ref.get('year') or ''))}.</span>\n</li>"
        for k, ref in enumerate(refs, start=1)
    )
    generated = paper.latest_date.strftime("%a %b %d %H:%M:%S %Y")
    return f"""{_recorded_head(paper.title, generated)}
<script>
window.MathJax = {{ tex: {{ inlineMath: [['$', '$']] }}, options: {{ skipHtmlTags: ['script', 'noscript'] }} }};
document.addEventListener("DOMContentLoaded", function () {{ var toc = document.querySelector(".ltx_TOC"); if (toc) {{ toc.dataset.ready = "SCRIPT_TEXT_SHOULD_BE_STRIPPED"; }} }});
</script>
<base href="/html/{vid}/"/></head>
<body>
<nav class="ltx_page_navbar">
<nav class="ltx_TOC">
<ol class="ltx_toclist">
{toc}
</ol></nav>
</nav>
<header class="desktop_header"><a class="arxiv-logo" href="https://arxiv.org/">arXiv</a>
<span class="html-header-message">This is experimental HTML to improve accessibility. NAV_TEXT_SHOULD_BE_STRIPPED</span>
<a class="ar5iv-footer-button" href="https://arxiv.org/abs/{vid}">Back to abstract page</a></header>
<div class="ltx_page_main">
<div class="ltx_page_content">
<article class="ltx_document ltx_authors_1line">
<h1 class="ltx_title ltx_title_document">{esc(paper.title)}</h1>
<div class="ltx_authors">
{authors}
</div>
<div class="ltx_abstract">
<h6 class="ltx_title ltx_title_abstract">Abstract</h6>
<p class="ltx_p" id="id1.1">{abstract}</p>
</div>
{chr(10).join(body_parts)}
<section class="ltx_bibliography" id="bib">
<h2 class="ltx_title ltx_title_bibliography">References</h2>
<ul class="ltx_biblist">
{bib}
</ul>
</section>
</article>
</div>
<footer class="ltx_page_footer">
<div class="ltx_page_logo">Generated on {generated} by <a class="ltx_LaTeXML_logo" href="http://dlmf.nist.gov/LaTeXML/">LaTeXML</a></div>
<div class="ltx_page_footer_links"><a href="https://info.arxiv.org/help/license/index.html">License</a>
<a href="https://arxiv.org/abs/{vid}">Abstract page</a> <a href="https://info.arxiv.org/about/accessibility">Accessibility</a></div>
</footer>
</div>
<script>
(function () {{ var buttons = document.querySelectorAll(".ltx_ref"); for (var i = 0; i &lt; buttons.length; i++) {{ buttons[i].dataset.seen = "1"; }} }})();
</script>
</body>
</html>
"""


# ---- request log and faults ----------------------------------------------------------------


@dataclass(frozen=True)
class Req:
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    t: float
    client_port: int


@dataclass
class _Fault:
    prefix: str
    kind: str
    remaining: int
    status: int
    retry_after: str | None
    delay: float
    body: bytes | None
    interval: float = 1.0
    size: int | None = None


@dataclass
class _Response:
    status: int
    body: bytes = b""
    content_type: str = TEXT_TYPE
    headers: dict[str, str] = field(default_factory=dict)


def _text(status: int, message: str) -> _Response:
    return _Response(status, (message + "\n").encode("utf-8"), TEXT_TYPE)


def _kind_of_path(path: str) -> str:
    if path.startswith("/api/"):
        return "atom"
    if path.startswith("/pdf/"):
        return "pdf"
    if path.startswith("/s2/"):
        return "json"
    if path.startswith("/e-print/"):
        return "gzip"
    return "html"


_CONTENT_TYPES = {
    "atom": ATOM_TYPE,
    "pdf": "application/pdf",
    "json": JSON_TYPE,
    "gzip": "application/gzip",
    "html": HTML_TYPE,
}
_BROKEN_BODIES = {
    "atom": b"<?xml version='1.0' encoding='UTF-8'?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n  <entry>\n    <id>http://arxiv.org/abs/2401.0",
    "pdf": b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R\nthis is not a pdf any more",
    "json": b'{"offset": 0, "data": [{"citedPaper": {"paperId": ',
    "gzip": b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03garbage-not-deflate",
    "html": b'<!DOCTYPE html><html><body><div class="ltx_page_main"><article class="ltx_document"><h1 class="ltx_title',
}


def _inflate_page(page: bytes, size: int) -> bytes:
    """`page` (a LaTeXML document) with filler sections before its end, `size` bytes in all.

    The filler is dense in elements, as math-heavy pages are, and stays within the HTML
    reader's bounds on a page (text, elements, paragraphs): only the deadline can stop it."""
    section = (
        b'<section class="ltx_section"><h2 class="ltx_title ltx_title_section">'
        b'<span class="ltx_tag ltx_tag_section">9 </span>Filler</h2>'
        + b'<div class="ltx_para"><p class="ltx_p">A paragraph that makes the page long. '
        + b'<span class="ltx_text">word</span> ' * 1000
        + b"</p></div></section>\n"
    )
    cut = page.rfind(b"</article>")
    cut = len(page) if cut < 0 else cut
    count = max(0, (size - len(page)) // len(section))
    return page[:cut] + section * count + page[cut:]


# ---- HTTP ----------------------------------------------------------------------------------


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], fake: FakeArxiv):
        self.fake = fake
        self.stopping = threading.Event()
        self.open_connections: set[socket.socket] = set()
        self.connections_lock = threading.Lock()
        super().__init__(address, _Handler)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib signature
        """Silence the default stderr access log; FakeArxiv.requests is the log."""

    def setup(self) -> None:
        super().setup()
        # Headers and body go out as separate writes; without this, Nagle plus delayed ACK
        # costs ~40 ms per keep-alive request.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with self.server.connections_lock:
            self.server.open_connections.add(self.connection)

    def finish(self) -> None:
        with self.server.connections_lock:
            self.server.open_connections.discard(self.connection)
        try:
            super().finish()
        except OSError:
            pass

    def do_GET(self) -> None:
        self._dispatch(send_body=True)

    def do_HEAD(self) -> None:
        self._dispatch(send_body=False)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        self._dispatch(send_body=True, forced=_text(405, "method not allowed"))

    def _dispatch(self, send_body: bool, forced: _Response | None = None) -> None:
        fake = self.server.fake
        parts = urlsplit(self.path)
        path = unquote(parts.path)
        query = {k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
        req = Req(
            self.command,
            path,
            query,
            {k.lower(): v for k, v in self.headers.items()},
            time.monotonic(),
            self.client_address[1],
        )
        fake._log(req)
        fault = fake._take_fault(path)
        self._last_write = time.monotonic()
        try:
            if fault is not None:
                self._fault(fault, path, query, send_body)
                return
            response = forced or fake._route(path, query)
            self._send(response, send_body)
        except OSError:  # the client hung up (a deadline, a cancel): nothing more to send
            self._drop(reset=False)
        finally:
            fake._log_finished(req, self._last_write)

    def _send(self, response: _Response, send_body: bool = True, body_limit: int | None = None) -> None:
        self.send_response(response.status)
        self.send_header("Content-Type", response.content_type)
        self.send_header("Content-Length", str(len(response.body)))
        for name, value in response.headers.items():
            self.send_header(name, value)
        self.end_headers()
        if send_body:
            self._write(response.body if body_limit is None else response.body[:body_limit])

    def _write(self, data: bytes) -> None:
        """Write, noting the time first: a transfer is over only after its last write began."""
        self._last_write = time.monotonic()
        self.wfile.write(data)

    def _fault(self, fault: _Fault, path: str, query: dict[str, str], send_body: bool) -> None:
        kind = _kind_of_path(path)
        if fault.kind == "stall":
            self.server.stopping.wait(fault.delay)
            self._drop(reset=False)
            return
        if fault.delay:
            self.server.stopping.wait(fault.delay)
        if fault.kind == "reset":
            self._drop(reset=True)
        elif fault.kind == "status":
            headers = {"Retry-After": fault.retry_after} if fault.retry_after is not None else {}
            body = fault.body if fault.body is not None else f"{fault.status} upstream trouble (injected)\n".encode()
            self._send(_Response(fault.status, body, TEXT_TYPE, headers), send_body)
        elif fault.kind == "rate_exceeded":
            self._send(_Response(200, b"Rate exceeded.", TEXT_TYPE), send_body)
        elif fault.kind == "malformed":
            body = fault.body if fault.body is not None else _BROKEN_BODIES[kind]
            self._send(_Response(200, body, _CONTENT_TYPES[kind]), send_body)
        elif fault.kind == "empty":
            self._send(_Response(200, b"", _CONTENT_TYPES[kind]), send_body)
        elif fault.kind == "truncate":
            real = self.server.fake._route(path, query)
            self._send(real, send_body, body_limit=len(real.body) // 2)
            self.wfile.flush()
            self._drop(reset=False)
        elif fault.kind == "huge":
            self._stream_huge(kind, send_body)
        elif fault.kind in ("drip", "drip_chunked"):
            body = fault.body if fault.body is not None else self.server.fake._route(path, query).body
            self._drip(body, fault, _CONTENT_TYPES[kind], send_body)
        elif fault.kind == "huge_page":
            real = self.server.fake._route(path, query)
            self._send(_Response(200, _inflate_page(real.body, fault.size or HUGE_PAGE_BYTES), HTML_TYPE), send_body)

    def _drip(self, body: bytes, fault: _Fault, content_type: str, send_body: bool) -> None:
        """The whole body, slowly: "drip" declares its full Content-Length and sends one byte
        per `interval`; "drip_chunked" sends `size`-byte chunks (default 1 KiB) per interval."""
        chunked = fault.kind == "drip_chunked"
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not send_body:
            return
        step = (fault.size or 1024) if chunked else 1
        try:
            for start in range(0, len(body), step):
                piece = body[start : start + step]
                self._write(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
                if self.server.stopping.wait(fault.interval):
                    self._drop(reset=False)
                    return
            if chunked:
                self._write(b"0\r\n\r\n")
        except OSError:
            self._drop(reset=False)

    def _stream_huge(self, kind: str, send_body: bool) -> None:
        self.send_response(200)
        self.send_header("Content-Type", _CONTENT_TYPES[kind])
        self.send_header("Content-Length", str(HUGE_BODY_BYTES))
        self.end_headers()
        if not send_body:
            return
        chunk = b"0" * (1024 * 1024)
        sent = 0
        try:
            while sent < HUGE_BODY_BYTES and not self.server.stopping.is_set():
                piece = chunk[: HUGE_BODY_BYTES - sent]
                self.wfile.write(piece)
                sent += len(piece)
        except OSError:
            self._drop(reset=False)

    def _drop(self, reset: bool) -> None:
        """End the connection without (more of) a response; reset sends RST instead of FIN."""
        self.close_connection = True
        if reset:
            try:
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.rfile.close()  # drops the makefile reference so close() really closes now
                self.connection.close()
            except OSError:
                pass


# ---- the fake ------------------------------------------------------------------------------


class FakeArxiv:
    """The fake upstreams, one local port. Use as a context manager or start()/stop()."""

    def __init__(self, papers: Iterable[FakePaper] = (), *, port: int = 0, reject_versioned_old_ids: bool = False):
        """`reject_versioned_old_ids` plays the legacy (pre-2020) API, which answered
        id_list=hep-th/9901001v1 with an error; the current API answers with the v1 entry."""
        self._papers: dict[str, FakePaper] = {}
        self._docs: dict[str, query_lang.SearchDoc] = {}
        self._lock = threading.Lock()
        self._faults: list[_Fault] = []
        self._port = port
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self.reject_versioned_old_ids = reject_versioned_old_ids
        self.requests: list[Req] = []
        self.oai_page_size = 2
        """Records per OAI-PMH page (arXiv's is 2,500)."""
        self.oai_bad_tokens = 0
        """The next this many token requests are answered badResumptionToken (an expired token)."""
        self.oai_deleted: set[str] = set()
        """Ids sent with a deleted header."""
        self.feeds: dict[str, bytes] = {}
        """arXiv's announcement feeds by path (`cs.LG`, `cs.AI+cs.LG`): tests/fake_rss.py builds them."""
        self.finished: list[tuple[Req, float]] = []
        """Answered requests, each with the time its last write began (so the next request of
        a client that waited for the whole answer arrives after it)."""
        for paper in papers:
            self.add(paper)

    # -- corpus and lifecycle

    def add(self, paper: FakePaper) -> None:
        if _split_id(paper.id) != (paper.id, None):
            raise ValueError(
                f"FakePaper id must be a versionless arXiv id without a subject class "
                f"(math/0309136, not math.GT/0309136), got {paper.id!r}"
            )
        with self._lock:
            self._papers[paper.id] = paper
            self._docs.pop(paper.id, None)

    @property
    def papers(self) -> dict[str, FakePaper]:
        return dict(self._papers)

    def start(self) -> FakeArxiv:
        if self._server is not None:
            return self
        self._server = _Server(("127.0.0.1", self._port), self)
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        server = self._server
        if server is None:
            return
        server.stopping.set()
        server.shutdown()
        with server.connections_lock:
            connections = list(server.open_connections)
        for conn in connections:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        server.server_close()
        self._server = None

    def __enter__(self) -> FakeArxiv:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- addresses

    @property
    def base_url(self) -> str:
        if self._server is None:
            raise RuntimeError("FakeArxiv is not running: call start() or use it as a context manager")
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    @property
    def api_url(self) -> str:
        return self.base_url + "/api/query"

    @property
    def site_url(self) -> str:
        return self.base_url

    @property
    def ar5iv_url(self) -> str:
        return self.base_url + "/ar5iv"

    @property
    def s2_url(self) -> str:
        return self.base_url + "/s2/graph/v1"

    @property
    def oai_url(self) -> str:
        return self.base_url + "/oai"

    @property
    def rss_url(self) -> str:
        return self.base_url + "/rss"

    def env(self) -> dict[str, str]:
        return {
            "ARXIV_MCP_RSS_URL": self.rss_url,
            "ARXIV_MCP_API_URL": self.api_url,
            "ARXIV_MCP_SITE_URL": self.site_url,
            "ARXIV_MCP_AR5IV_URL": self.ar5iv_url,
            "ARXIV_MCP_S2_URL": self.s2_url,
            "ARXIV_MCP_OAI_URL": self.oai_url,
            "ARXIV_MCP_MIN_INTERVAL_S": "0",
        }

    # -- log and faults

    def _log(self, req: Req) -> None:
        with self._lock:
            self.requests.append(req)

    def _log_finished(self, req: Req, last_write: float) -> None:
        with self._lock:
            self.finished.append((req, last_write))

    def requests_to(self, prefix: str) -> list[Req]:
        with self._lock:
            return [r for r in self.requests if r.path.startswith(prefix)]

    def clear_log(self) -> None:
        with self._lock:
            self.requests.clear()

    def fault(
        self,
        path_prefix: str,
        kind: str,
        *,
        times: int = 1,
        status: int = 503,
        retry_after: str | None = None,
        delay: float = 0.0,
        body: bytes | None = None,
        interval: float = 1.0,
        size: int | None = None,
    ) -> None:
        """The next `times` requests under path_prefix get this failure instead of the answer.

        `delay` is waited before any kind of fault (for "stall" it is the whole stall).
        "drip" and "drip_chunked" send the genuine body (or `body`) one byte, or one `size`-byte
        chunk, per `interval` seconds; "huge_page" answers a genuine page grown to `size` bytes
        with real sections (default HUGE_PAGE_BYTES).
        """
        if kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault kind {kind!r}; use one of {sorted(FAULT_KINDS)}")
        with self._lock:
            self._faults.append(_Fault(path_prefix, kind, times, status, retry_after, delay, body, interval, size))

    def clear_faults(self) -> None:
        with self._lock:
            self._faults.clear()

    def _take_fault(self, path: str) -> _Fault | None:
        with self._lock:
            for fault in self._faults:
                if fault.remaining > 0 and path.startswith(fault.prefix):
                    fault.remaining -= 1
                    return fault
            self._faults = [f for f in self._faults if f.remaining > 0]
        return None

    # -- routing

    def _route(self, path: str, query: dict[str, str]) -> _Response:
        if path == "/api/query":
            return self._api(query)
        if path == "/oai":
            from tests import fake_oai

            status, body, content_type = fake_oai.answer(self, query)
            return _Response(status, body, content_type)
        if path.startswith("/s2/graph/v1/paper/"):
            return self._s2(path[len("/s2/graph/v1/paper/") :], query)
        for prefix, handler in (
            ("/abs/", self._abs),
            ("/pdf/", self._pdf),
            ("/html/", self._html),
            ("/e-print/", self._eprint),
            ("/ar5iv/html/", self._ar5iv),
            ("/rss/", self._rss),
        ):
            if path.startswith(prefix):
                return handler(path[len(prefix) :].rstrip("/"))
        return _text(404, f"no such page: {path}")

    def _lookup(self, text: str) -> tuple[FakePaper, int] | None:
        parsed = _split_id(text)
        if parsed is None:
            return None
        paper = self._papers.get(parsed[0])
        if paper is None:
            return None
        version = parsed[1] if parsed[1] is not None else paper.versions
        if not 1 <= version <= paper.versions:
            return None
        return paper, version

    def _abs(self, text: str) -> _Response:
        found = self._lookup(text)
        if not found:
            return _text(404, f"Article identifier '{text}' not recognized")
        return _Response(200, abs_page(*found).encode("utf-8"), HTML_TYPE)

    def _pdf(self, text: str) -> _Response:
        found = self._lookup(text[:-4] if text.endswith(".pdf") else text)
        pdf = found[0].at(found[1]).pdf if found else None
        if not isinstance(pdf, bytes):
            return _text(404, f"PDF for '{text}' not found")
        return _Response(200, pdf, "application/pdf")

    def _html(self, text: str) -> _Response:
        page, _, name = text.rpartition("/")
        beside = self._lookup(page) if page else None
        if beside and name in (beside[0].images or {}):
            return _Response(200, (beside[0].images or {})[name], "image/png")
        found = self._lookup(text)
        body = found[0].at(found[1]).html_for(found[1]) if found else None
        if body is None:
            return _text(404, f"No HTML for '{text}'")
        if body is STUB:
            return _Response(200, _STUB_PAGE.encode("utf-8"), HTML_TYPE)
        return _Response(200, str(body).encode("utf-8"), HTML_TYPE)

    def _eprint(self, text: str) -> _Response:
        found = self._lookup(text)
        data = found[0].at(found[1]).source if found else None
        if data is None:
            return _text(404, f"Source for '{text}' not found")
        if data.startswith(b"\x1f\x8b"):
            ctype = "application/gzip"
        elif data.startswith(b"%PDF"):
            ctype = "application/pdf"
        else:
            ctype = "application/x-eprint-tar"
        return _Response(200, data, ctype)

    def _ar5iv(self, text: str) -> _Response:
        found = self._lookup(text)
        if not found:
            return _text(404, f"ar5iv has no '{text}'")
        page = found[0].at(found[1]).ar5iv
        if page is None:
            return _Response(302, b"", HTML_TYPE, {"Location": f"{self.site_url}/abs/{found[0].id}"})
        return _Response(200, page.encode("utf-8"), HTML_TYPE)

    def _rss(self, name: str) -> _Response:
        from tests.fake_rss import error_feed

        feed = self.feeds.get(name)
        if feed is None:
            return _Response(400, error_feed(name), "application/rss+xml")
        return _Response(200, feed, "application/rss+xml")

    # -- the API

    def _doc(self, paper: FakePaper) -> query_lang.SearchDoc:
        doc = self._docs.get(paper.id)
        if doc is None:
            doc = query_lang.make_doc(
                paper_id=paper.id,
                versions=paper.versions,
                title=paper.title,
                abstract=paper.abstract,
                authors=[name for name, _ in paper.author_list()],
                categories=paper.categories,
                comment=paper.comment,
                journal_ref=paper.journal_ref,
                report_no=paper.report_no,
                submitted=paper.published,
                updated=paper.latest_date,
            )
            self._docs[paper.id] = doc
        return doc

    def _api(self, query: dict[str, str]) -> _Response:
        try:
            return self._api_answer(query)
        except _ApiError as err:
            return _Response(400, atom_error(str(err)), ATOM_TYPE)

    def _api_answer(self, query: dict[str, str]) -> _Response:
        search_query = query.get("search_query", "")
        id_list = query.get("id_list", "")
        start = _int_param(query, "start", 0)
        max_results = _int_param(query, "max_results", 10)
        if max_results > MAX_RESULTS_LIMIT:
            raise _ApiError(f"max_results must be less than or equal to {MAX_RESULTS_LIMIT}")
        sort_by = query.get("sortBy", "relevance") or "relevance"
        sort_order = query.get("sortOrder", "descending") or "descending"
        if sort_by not in ("relevance", "lastUpdatedDate", "submittedDate"):
            raise _ApiError("sortBy must be in: relevance, lastUpdatedDate, submittedDate")
        if sort_order not in ("ascending", "descending"):
            raise _ApiError("sortOrder must be in: ascending, descending")
        tree = None
        if search_query.strip():
            try:
                tree = query_lang.parse(search_query)
            except query_lang.QuerySyntaxError as err:
                raise _ApiError(f"malformed search_query: {err}") from None

        papers = list(self._papers.values())
        if id_list.strip():
            hits = self._id_list_hits(id_list)
            if tree is not None:
                hits = [(p, v, s) for p, v, _ in hits if (s := query_lang.score(tree, self._doc(p))) is not None]
        elif tree is not None:
            hits = [(p, p.versions, s) for p in papers if (s := query_lang.score(tree, self._doc(p))) is not None]
            hits.sort(key=lambda h: (-h[2], -h[0].published.timestamp(), h[0].id))
            if sort_order == "ascending":
                hits.reverse()
        else:
            hits = []
        if sort_by != "relevance":
            date = (lambda h: h[0].published) if sort_by == "submittedDate" else (lambda h: h[0].version_date(h[1]))
            hits.sort(key=lambda h: (date(h), h[0].id), reverse=sort_order == "descending")

        total = len(hits)
        page = [] if start + max_results > RESULT_WINDOW else hits[start : start + max_results]
        entries = [atom_entry(p, v) for p, v, _ in page]
        return _Response(200, atom_feed(search_query, id_list, start, max_results, total, entries), ATOM_TYPE)

    def _id_list_hits(self, id_list: str) -> list[tuple[FakePaper, int, int]]:
        wanted: list[tuple[str, int | None]] = []
        for raw in id_list.split(","):
            text = raw.strip()
            if not text:
                continue
            parsed = _split_id(text)
            if parsed is None or (self.reject_versioned_old_ids and _is_old_style(parsed[0]) and parsed[1] is not None):
                raise _ApiError(f"incorrect id format for {text}")
            wanted.append(parsed)
        hits: dict[tuple[str, int], tuple[FakePaper, int, int]] = {}
        for paper_id, version in wanted:
            paper = self._papers.get(paper_id)
            if paper is None:
                continue
            version = paper.versions if version is None else version
            if 1 <= version <= paper.versions:
                hits.setdefault((paper_id, version), (paper, version, 0))
        requested = list(hits.values())
        scrambled = sorted(requested, key=lambda h: _s2_hash(f"{h[0].id}v{h[1]}"))
        if len(scrambled) > 1 and scrambled == requested:
            scrambled.reverse()
        return scrambled

    # -- Semantic Scholar

    def _s2(self, rest: str, query: dict[str, str]) -> _Response:
        if rest[:4].lower() == "doi:":  # a DOI holds slashes of its own: the rest is all DOI
            return self._s2_doi(rest[4:])
        match = _S2_PATH.fullmatch(rest)
        if match is None:
            return _json(404, {"error": f"Unrecognized path: {rest}"})
        ident, tail = match.group("ident"), match.group("tail") or ""
        not_found = _Response(
            404, json.dumps({"error": f"Paper with id {ident} not found"}, separators=(",", ":")).encode(), JSON_TYPE
        )
        if not ident.lower().startswith("arxiv:"):
            return not_found
        found = self._lookup(ident[len("arxiv:") :])
        if not found or found[0].citations is None:
            return not_found
        paper = found[0]
        if tail == "":
            return _json(200, _s2_paper(paper))
        if tail not in ("references", "citations"):
            return _json(404, {"error": f"Unrecognized path: {tail}"})
        try:
            offset = int(query.get("offset", "0") or 0)
            limit = int(query.get("limit", "100") or 100)
        except ValueError:
            return _json(400, {"error": "offset and limit must be integers"})
        if limit > 1000 or limit < 1 or offset < 0:
            return _json(400, {"error": "limit must be between 1 and 1000 and offset non-negative"})
        neighbours = (paper.references or []) if tail == "references" else paper.citations
        key = "citedPaper" if tail == "references" else "citingPaper"
        data = [{key: _s2_neighbour(n)} for n in neighbours[offset : offset + limit]]
        page: dict[str, object] = {"offset": offset}
        if offset + limit < len(neighbours):
            page["next"] = offset + limit
        page["data"] = data
        return _json(200, page)

    def _s2_doi(self, doi: str) -> _Response:
        """`/paper/DOI:10.x/y`: the paper whose journal DOI this is (DOIs compare case-blind)."""
        found = [p for p in self._papers.values() if p.doi and p.doi.lower() == doi.lower() and p.citations is not None]
        if not found:
            return _json(404, {"error": f"Paper with id DOI:{doi} not found"})
        return _json(200, _s2_paper(found[0]))


# arXiv:hep-th/9901001 carries a slash inside the id, so split the tail off with care.
_S2_PATH = re.compile(r"(?P<ident>[^/]+?(?:/\d{7}(?:v\d+)?)?)(?:/(?P<tail>[^/]*))?")


def _json(status: int, payload: object) -> _Response:
    return _Response(status, json.dumps(payload).encode("utf-8"), JSON_TYPE)


def _s2_paper(paper: FakePaper) -> dict:
    external: dict[str, object] = {"ArXiv": paper.id}
    if paper.doi:
        external["DOI"] = paper.doi
    external["CorpusId"] = int(_s2_hash("corpus:" + paper.id, 8), 16)
    return {
        "paperId": _s2_hash("arxiv:" + paper.id),
        "externalIds": external,
        "title": paper.title,
        "year": paper.published.year,
        "authors": [{"authorId": str(int(_s2_hash(name, 7), 16)), "name": name} for name, _ in paper.author_list()],
    }


def _s2_neighbour(ref: dict) -> dict:
    arxiv_id = ref.get("arxiv")
    title = ref.get("title") or ""
    paper_id = ref["paperId"] if "paperId" in ref else _s2_hash("arxiv:" + arxiv_id if arxiv_id else "title:" + title)
    return {
        "paperId": paper_id,
        "externalIds": {"ArXiv": arxiv_id} if arxiv_id else {},
        "title": title,
        "year": ref.get("year"),
        "authors": [{"authorId": str(int(_s2_hash(name, 7), 16)), "name": name} for name in ref.get("authors") or []],
    }


class _ApiError(Exception):
    """Turns into arXiv's HTTP 400 error feed."""


def _int_param(query: dict[str, str], name: str, default: int) -> int:
    raw = query.get(name, "")
    if raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise _ApiError(f"{name} must be an integer") from None
    if value < 0:
        raise _ApiError(f"{name} must be non-negative")
    return value


# ---- a generated corpus --------------------------------------------------------------------

_CATEGORIES = {
    "cs": ["cs.AI", "cs.LG", "cs.CL", "cs.CV", "cs.IR", "cs.DS", "cs.CR", "cs.SE"],
    "math": ["math.GT", "math.AG", "math.PR", "math.CO", "math.NT", "math.AP"],
    "physics": ["hep-th", "hep-ph", "quant-ph", "gr-qc", "cond-mat.str-el", "cond-mat.stat-mech"],
    "astro": ["astro-ph.CO", "astro-ph.GA", "astro-ph.SR", "astro-ph.HE"],
    "other": ["stat.ML", "q-bio.NC", "econ.EM", "eess.SP"],
}
_OLD_ARCHIVES = ["hep-th", "hep-ph", "quant-ph", "gr-qc", "astro-ph", "cond-mat", "math", "cs"]
_TOPICS = {
    "cs": (
        ["neural", "sparse", "robust", "scalable", "federated", "contrastive", "causal", "adaptive"],
        [
            "transformers",
            "retrieval",
            "language models",
            "graph networks",
            "reinforcement learning",
            "tokenization",
            "embeddings",
            "agents",
        ],
    ),
    "math": (
        ["hyperbolic", "compact", "algebraic", "random", "finite", "elliptic", "symplectic", "modular"],
        ["knot invariants", "manifolds", "moduli spaces", "walks", "graphs", "curves", "operators", "forms"],
    ),
    "physics": (
        ["quantum", "topological", "conformal", "holographic", "entangled", "critical", "supersymmetric", "disordered"],
        [
            "field theories",
            "spin chains",
            "black holes",
            "criticality",
            "anomalies",
            "qubits",
            "lattices",
            "scattering amplitudes",
        ],
    ),
    "astro": (
        ["galactic", "cosmological", "stellar", "transient", "dark", "relativistic", "magnetized", "primordial"],
        ["surveys", "clusters", "supernovae", "dark energy", "lensing", "outflows", "binaries", "reionization"],
    ),
    "other": (
        ["Bayesian", "stochastic", "nonparametric", "dynamic", "spectral", "hierarchical", "latent", "efficient"],
        ["estimators", "networks", "signals", "panels", "inference", "dynamics", "models", "filters"],
    ),
}
_TITLE_FORMS = [
    "{A} {N} for {B} {M}",
    "On the {B} structure of {A} {N}",
    "Towards {A} {N}: a study of {M}",
    "{A} {N} and the geometry of {M}",
    "Learning {B} {M} with {A} {N}",
    "A note on {A} {N}",
]
_SENTENCES = [
    "We study {A} {N} in the presence of {B} {M}.",
    "Our main result shows that {N} admit a {B} description with complexity $O(n \\log n)$.",
    "We introduce a new framework for {A} {M} and prove convergence under mild assumptions.",
    "Experiments on several benchmarks show that the method improves over strong baselines by $12\\%$.",
    "The analysis relies on a decomposition of {M} into {A} components.",
    "We derive bounds of order $\\epsilon^{{-2}}$ for the {B} regime.",
    "As an application we recover classical results on {N} and {M}.",
    "The construction extends to {A} settings with a parameter $\\alpha > 0$.",
    "Numerical simulations confirm the predicted scaling of {N}.",
]
_FIRST_NAMES = [
    "Anna",
    "José",
    "Zoë",
    "Łukasz",
    "Søren",
    "Wei",
    "Aisha",
    "Dmitri",
    "Chloé",
    "Kenji",
    "María",
    "Olúwadámilọ́lá",
    "Niamh",
    "Jürgen",
    "Priya",
    "Tomás",
]
_LAST_NAMES = [
    "Müller",
    "García",
    "Kowalski",
    "Nakamura",
    "Okafor",
    "Chen",
    "Del Maestro",
    "van der Berg",
    "Ivanova",
    "Østergaard",
    "Smith",
    "Dubois",
    "Rossi",
    "Ng",
    "Çelik",
    "O'Brien",
]
_AFFILIATIONS = [
    "MIT",
    "University of Vermont",
    "Universität Heidelberg",
    "Perimeter Institute",
    "ETH Zürich",
    "Tsinghua University",
    "CNRS",
]
_CORPUS_SPAN = timedelta(days=913)
_SECTION_TITLES = ["Introduction", "Related work", "Method", "Results", "Discussion", "Conclusion"]


def plain_tar(files: dict[str, str | bytes]) -> bytes:
    """An uncompressed tar of `files`, reproducible bytes (some e-prints come this way)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for name, content in files.items():
            data = content.encode() if isinstance(content, str) else content
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), 0
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def eprint(files: dict[str, str | bytes]) -> bytes:
    """An e-print as arXiv serves a multi-file submission: a gzipped tar, reproducible bytes."""
    return gzip.compress(plain_tar(files), mtime=0)


def _fill(template: str, rng: random.Random, group: str) -> str:
    adjectives, nouns = _TOPICS[group]
    return template.format(A=rng.choice(adjectives), B=rng.choice(adjectives), N=rng.choice(nouns), M=rng.choice(nouns))


def _corpus_source(paper: FakePaper, rng: random.Random) -> bytes | None:
    tex = (
        "\\documentclass{article}\n\\begin{document}\n"
        f"\\title{{{paper.title}}}\n\\maketitle\n\\begin{{abstract}}\n{paper.abstract}\n\\end{{abstract}}\n"
        "\\section{Introduction}\nWe begin.\n\\end{document}\n"
    ).encode()
    roll = rng.random()
    if roll < 0.6:
        return eprint({"main.tex": tex})
    if roll < 0.8:
        return gzip.compress(tex, mtime=0)
    return None


def make_corpus(n: int, seed: int = 0, start: datetime = datetime(2023, 6, 1, tzinfo=UTC)) -> list[FakePaper]:
    """n varied, deterministic papers spread over 30 months from `start`, plus a few old-style ids.

    With the default start most papers postdate December 2023 and so have arXiv HTML; the
    earlier ones may have an ar5iv rendering instead, as on the real site.
    """
    rng = random.Random(seed)
    papers: list[FakePaper] = []
    month_counters: dict[str, int] = {}
    used_old: set[str] = set()
    moment = start
    step = _CORPUS_SPAN / max(n, 1)
    for _ in range(n):
        group = rng.choice(list(_CATEGORIES))
        if rng.random() < 0.08:
            published = datetime(
                rng.randint(1995, 2006),
                rng.randint(1, 12),
                rng.randint(1, 28),
                rng.randint(0, 23),
                rng.randint(0, 59),
                tzinfo=UTC,
            )
            archive = rng.choice(_OLD_ARCHIVES)
            paper_id = f"{archive}/{published:%y%m}{rng.randint(1, 999):03d}"
            while paper_id in used_old:
                paper_id = f"{archive}/{published:%y%m}{rng.randint(1, 999):03d}"
            used_old.add(paper_id)
            subject = {"math": "math.GT", "cs": "cs.AI", "cond-mat": "cond-mat.str-el"}.get(archive, archive)
            categories = [subject] + ([rng.choice(_CATEGORIES["physics"])] if rng.random() < 0.3 else [])
            group = (
                "math"
                if archive == "math"
                else "cs"
                if archive == "cs"
                else "astro"
                if archive == "astro-ph"
                else "physics"
            )
        else:
            moment += step * rng.uniform(0.5, 1.5)
            published = moment.replace(microsecond=0)
            yymm = published.strftime("%y%m")
            month_counters[yymm] = month_counters.get(yymm, rng.randint(1, 400)) + rng.randint(1, 30)
            digits = 5 if published.year >= 2015 else 4
            paper_id = f"{yymm}.{month_counters[yymm]:0{digits}d}"
            categories = [rng.choice(_CATEGORIES[group])]
            for _extra in range(rng.choice([0, 0, 1, 2])):
                cross = rng.choice(_CATEGORIES[rng.choice(list(_CATEGORIES))])
                if cross not in categories:
                    categories.append(cross)
        title = _fill(rng.choice(_TITLE_FORMS), rng, group)
        title = title[0].upper() + title[1:]
        sentences = [_fill(s, rng, group) for s in rng.sample(_SENTENCES, rng.randint(3, 6))]
        abstract = " ".join(sentences)
        if _is_old_style(paper_id):
            abstract = "  " + abstract
        authors: list = []
        for _author in range(rng.randint(1, 6)):
            name = f"{rng.choice(_FIRST_NAMES)} {rng.choice(_LAST_NAMES)}"
            authors.append((name, rng.choice(_AFFILIATIONS)) if rng.random() < 0.25 else name)
        versions = rng.choices([1, 2, 3], weights=[6, 3, 1])[0]
        paper = FakePaper(
            id=paper_id,
            title=title,
            abstract=abstract,
            authors=authors,
            categories=categories,
            published=published,
            versions=versions,
            updated=published + timedelta(days=rng.randint(versions, 200))
            if versions > 1 and rng.random() < 0.5
            else None,
            doi=f"10.{rng.randint(1000, 9999)}/fake.{rng.randint(10000, 99999)}" if rng.random() < 0.25 else None,
            journal_ref=f"Phys. Rev. {rng.choice('ABDE')} {rng.randint(50, 110)}, {rng.randint(1, 9999)} ({published.year + 1})"
            if rng.random() < 0.2
            else None,
            comment=f"{rng.randint(4, 60)} pages, {rng.randint(0, 12)} figures" if rng.random() < 0.6 else None,
        )
        paper.source = _corpus_source(paper, rng)
        sections = [
            (
                title_,
                " ".join(_fill(s, rng, group) for s in rng.sample(_SENTENCES, 3))
                + "\n\n"
                + _fill(rng.choice(_SENTENCES), rng, group),
            )
            for title_ in rng.sample(_SECTION_TITLES, 3)
        ]
        if published >= datetime(2023, 12, 1, tzinfo=UTC):
            roll = rng.random()
            paper.html = latexml_html(paper, sections) if roll < 0.75 else STUB if roll < 0.85 else None
        elif rng.random() < 0.6:
            paper.ar5iv = latexml_html(paper, sections)
        papers.append(paper)
    _link_citations(papers, rng)
    return papers


def _link_citations(papers: list[FakePaper], rng: random.Random) -> None:
    """References point to earlier corpus papers and to outside works; citations mirror them."""
    in_s2 = {p.id for p in papers if rng.random() < 0.9}
    by_date = sorted(papers, key=lambda p: p.published)
    incoming: dict[str, list[dict]] = {p.id: [] for p in papers}
    for index, paper in enumerate(by_date):
        refs: list[dict] = []
        for earlier in rng.sample(by_date[:index], min(index, rng.randint(0, 5))):
            refs.append(
                {
                    "title": earlier.title,
                    "year": earlier.published.year,
                    "authors": [a for a, _ in earlier.author_list()],
                    "arxiv": earlier.id,
                }
            )
        for k in range(rng.randint(0, 3)):
            refs.append(
                {
                    "title": f"An outside work on {paper.title.split()[-1]} ({k + 1})",
                    "year": rng.randint(1990, 2022),
                    "authors": [f"{rng.choice(_FIRST_NAMES)} {rng.choice(_LAST_NAMES)}"],
                    "arxiv": None,
                }
            )
        if paper.id in in_s2:
            paper.references = refs
            for ref in refs:
                if ref["arxiv"]:
                    incoming[ref["arxiv"]].append(
                        {
                            "title": paper.title,
                            "year": paper.published.year,
                            "authors": [a for a, _ in paper.author_list()],
                            "arxiv": paper.id,
                        }
                    )
    for paper in papers:
        paper.citations = incoming[paper.id] if paper.id in in_s2 else None


# ---- standalone ----------------------------------------------------------------------------


def _iter_lines(fake: FakeArxiv) -> Iterator[str]:
    yield fake.base_url
    for name, value in fake.env().items():
        yield f"{name}={value}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the fake arXiv on 127.0.0.1 until SIGTERM.")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--corpus", type=int, default=50, help="number of generated papers")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    signal.signal(signal.SIGINT, lambda *_: done.set())
    fake = FakeArxiv(make_corpus(args.corpus, seed=args.seed), port=args.port).start()
    for line in _iter_lines(fake):
        print(line, flush=True)
    try:
        while not done.wait(0.2):
            pass
    finally:
        fake.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
