"""Hostile data from upstream and from callers: refused or read in bounded time and memory,
and nothing ever written outside ARXIV_MCP_HOME.

XML with entity declarations and external entities (in any encoding), oversized and deeply
nested Atom, deeply nested HTML, PDFs built to make a reader loop or allocate without bound,
e-print archives with traversal, links, devices and bombs, and ids built to escape the cache.
"""

from __future__ import annotations

import gzip
import io
import itertools
import os
import socket
import sys
import tarfile
import threading
import time
import zlib
from contextlib import contextmanager
from pathlib import Path

import anyio
import pytest

from arxiv_mcp.errors import ExtractionError, UpstreamError
from arxiv_mcp.service import ArxivService
from arxiv_mcp.text.pdf import FAILED_PAGE_NOTE, pdf_to_text
from arxiv_mcp.upstream.atom import parse_feed
from tests import platforms
from tests.conftest import html_paper, paper
from tests.fake_arxiv import atom_entry, atom_feed, eprint
from tests.pdfgen import assemble
from tests.test_faults import LATEX
from tests.test_fuzz import layout_problems

if not platforms.WINDOWS:
    import resource

pytestmark = pytest.mark.anyio

PID = "2403.00001"
# The protections bound the work, so the bounds are on CPU seconds of this process (server,
# client and fake arXiv all run in it), which other processes loading the machine do not
# inflate; a wall clock would measure the machine's load. Unprotected, the hostile inputs
# below cost the server's whole DEADLINE_S of CPU (or memory far over MAX_GROWTH_KB). The
# deadline (wall time, the server's last resort) is far above BOUND_S: the operator bomb, ~2 s
# of CPU per call, took 20-40 s of wall time on a machine loaded ten deep.
BOUND_S = 5.0
DEADLINE_S = 60
MAX_GROWTH_KB = 600 * 1024


def settings(make_config, **extra):
    return make_config(
        **{"ARXIV_MCP_TIMEOUT_S": 1, "ARXIV_MCP_DEADLINE_S": DEADLINE_S, "ARXIV_MCP_MAX_DOWNLOAD_MB": 2, **extra}
    )


def cpu_s() -> float:
    return time.process_time()


def peak_rss_kb() -> int:
    """This process's peak resident memory in KiB; 0 on Windows, which has no getrusage (only
    the time bound is checked there)."""
    if platforms.WINDOWS:
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak  # macOS counts bytes, Linux KiB


def files_outside(tmp_path: Path, home: Path) -> set[str]:
    return {str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if home not in (p, *p.parents)}


async def call_bounded(client, name: str, args: dict):
    """Call a tool and check a protection answered it: within BOUND_S of CPU, without a big jump
    in peak memory, and not by running into the server's deadline (the last resort, whose
    answer names what "took too long"). A hang fails at the deadline plus a margin."""
    rss, started = peak_rss_kb(), cpu_s()
    with anyio.fail_after(DEADLINE_S + 30):
        result = await client.call_tool(name, args)
    took = cpu_s() - started
    assert took < BOUND_S, f"{name} took {took:.1f} s of CPU"
    assert peak_rss_kb() - rss < MAX_GROWTH_KB
    assert result.content[0].text.strip()
    assert "took too long" not in result.content[0].text
    return result


# --- XML ----------------------------------------------------------------------------------------

FEED_HEAD = '<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/abs/2403.00001v1</id>'


def billion_laughs(encoding: str = "utf-8") -> bytes:
    entities = "".join(f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, 10))
    text = (
        f'<?xml version="1.0" encoding="{encoding.upper()}"?><!DOCTYPE feed [<!ENTITY lol0 "lol">{entities}]>'
        f"{FEED_HEAD}<title>&lol9;</title></entry></feed>"
    )
    return text.encode(encoding)


def external_entity(target: str, encoding: str = "utf-8") -> bytes:
    text = (
        f'<?xml version="1.0" encoding="{encoding.upper()}"?>'
        f'<!DOCTYPE feed [<!ENTITY stolen SYSTEM "{target}">]>{FEED_HEAD}<title>&stolen;</title></entry></feed>'
    )
    return text.encode(encoding)


def hostile_feeds(secret: Path, fake_base: str) -> dict[str, bytes]:
    late = b'<?xml version="1.0"?><!--' + b"x" * 70_000 + b'--><!DOCTYPE feed SYSTEM "' + fake_base.encode()
    return {
        "billion laughs": billion_laughs(),
        "billion laughs, UTF-16": billion_laughs("utf-16"),
        "external entity": external_entity(secret.as_uri()),
        "external entity, UTF-16": external_entity(secret.as_uri(), "utf-16"),
        "external DTD after a long comment": late + b'/dtd/evil.dtd">' + FEED_HEAD.encode() + b"</entry></feed>",
        "parameter entity": (
            b'<!DOCTYPE feed [<!ENTITY % p SYSTEM "'
            + fake_base.encode()
            + b'/dtd/p.dtd"> %p;]>'
            + FEED_HEAD.encode()
            + b"</entry></feed>"
        ),
    }


@pytest.fixture
def secret(tmp_path):
    path = tmp_path / "secret.txt"
    path.write_text("TOPSECRET-XXE-CONTENT")
    return path


def test_declarations_are_refused_in_any_encoding(secret, fake):
    for name, data in hostile_feeds(secret, fake.base_url).items():
        started = cpu_s()
        with pytest.raises(UpstreamError, match="DOCTYPE or entity") as caught:
            parse_feed(data)
        assert cpu_s() - started < 1, name
        assert "TOPSECRET" not in str(caught.value)
    assert fake.requests_to("/dtd/") == []


async def test_hostile_feeds_from_the_api_are_refused(secret, fake, make_config, connect):
    fake.add(paper(PID, "Entities"))
    feeds = hostile_feeds(secret, fake.base_url)
    async with connect(config=settings(make_config)) as client:
        for name, data in feeds.items():
            fake.fault("/api/", "malformed", body=data)
            result = await call_bounded(client, "get_paper", {"paper_id": PID})
            assert result.is_error and "DOCTYPE" in result.content[0].text, name
            assert "TOPSECRET" not in result.content[0].text
        good = await client.call_tool("get_paper", {"paper_id": PID})
    assert good.structured_content["title"] == "Entities"
    assert fake.requests_to("/dtd/") == []


async def test_an_oversized_feed_is_cut_off(fake, make_config, connect):
    p = paper(PID, "Big")
    fake.add(p)
    entry = atom_entry(p, 1)
    big = atom_feed("all:big", "", 0, 2000, 3000, [entry] * (3 * 2**20 // len(entry)))
    fake.fault("/api/", "malformed", body=big)
    async with connect(config=settings(make_config)) as client:
        result = await call_bounded(client, "search_papers", {"query": "big"})
    assert result.is_error and "ARXIV_MCP_MAX_DOWNLOAD_MB" in result.content[0].text


@contextmanager
def endless_answer():
    """A server that answers 200 without a length and never stops sending."""
    listener = socket.create_server(("127.0.0.1", 0))

    def serve():
        conn, _ = listener.accept()
        with conn:
            conn.recv(65536)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/atom+xml\r\nConnection: close\r\n\r\n")
            try:
                while True:
                    conn.sendall(b"<entry></entry>" * 4096)
            except OSError:
                return

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        listener.close()
        thread.join(5)


async def test_an_endless_answer_without_a_length_is_cut_off(make_config, connect):
    with endless_answer() as base:
        config = settings(make_config, ARXIV_MCP_API_URL=base + "/api/query")
        async with connect(config=config) as client:
            result = await call_bounded(client, "get_paper", {"paper_id": PID})
    assert result.is_error and "2 MB cap" in result.content[0].text


def test_deeply_nested_atom_is_parsed_without_recursion():
    depth = 200_000
    data = (FEED_HEAD + "<title>" + "<b>" * depth + "deep" + "</b>" * depth + "</title></entry></feed>").encode()
    started = cpu_s()
    feed = parse_feed(data)
    assert feed.papers[0].title == "deep" and cpu_s() - started < 2


# --- HTML ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hostile",
    [
        "<div>" * 100_000 + "deep text" + "</div>" * 100_000,
        "<div>" * 200_000,
        "<span class='ltx_note ltx_role_footnote'>" * 50_000,
        "<" * 500_000,
        "<!--" + "-" * 500_000,
        '<math alttext="' + "x" * 500_000 + '">',
        "<table><tr><td>" * 30_000,
        "<ul><li>" * 50_000,
    ],
    ids=["nested", "unclosed", "notes", "angles", "open-comment", "huge-attribute", "tables", "lists"],
)
async def test_hostile_html_is_read_in_bounded_time(fake, make_config, connect, hostile):
    p = html_paper(
        PID,
        "Hostile markup",
        sections=[
            ("Introduction", "Transformers changed sequence modelling. " * 40),
            ("Hostile", "HOSTILE-MARKUP-HERE"),
            ("Results", "The unicorn dataset shows a large improvement. " * 40),
        ],
    )
    p.html = p.html.replace("HOSTILE-MARKUP-HERE", hostile)
    fake.add(p)
    async with connect(config=settings(make_config)) as client:
        result = await call_bounded(client, "read_paper", {"paper_id": PID + "v1"})
    assert not result.is_error, result.content[0].text
    assert "Transformers changed" in result.structured_content["text"]


# --- PDF ----------------------------------------------------------------------------------------

FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"


def stream(data: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d %s >>\nstream\n%s\nendstream" % (len(data), extra, data)


def pdf(
    page_contents: list[bytes], *, kids: bytes | None = None, xobjects: bytes = b"", extra: list[bytes] = ()
) -> bytes:
    """Objects: 1 catalog, 2 page tree, 3 font, then page/content pairs, then `extra`."""
    pages = [4 + 2 * i for i in range(len(page_contents))]
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids or b" ".join(b"%d 0 R" % n for n in pages), len(pages)),
        FONT,
    ]
    for number, content in zip(pages, page_contents):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> "
            b"%s >> /Contents %d 0 R >>" % (xobjects, number + 1)
        )
        objects.append(content)
    return assemble(objects + list(extra))


SENTENCE = b"BT /F1 11 Tf 72 700 Td (The walrus theorem is proved on this page of the paper.) Tj ET"


def operator_bomb(megabytes: int) -> bytes:
    """A few kilobytes that inflate to megabytes of text-drawing operators."""
    ops = b"BT /F1 11 Tf 72 700 Td " + b"(a) Tj " * (megabytes * 2**20 // 7) + b"ET"
    return pdf([stream(zlib.compress(ops, 9), b"/Filter /FlateDecode")])


def form_fanout(levels: int, fan: int = 10, first_page: bytes | None = None) -> bytes:
    """Forms drawing forms `fan` times over, `levels` deep: fan**levels drawings from ~2 KB."""
    contents = [stream(first_page)] if first_page else []
    page_content = stream(b"BT /F1 11 Tf 72 700 Td (outer) Tj ET /X Do")
    first_form = 4 + 2 * (len(contents) + 1)
    forms = []
    for level in range(levels):
        last = level == levels - 1
        body = b"BT /F1 11 Tf 72 600 Td (leaf) Tj ET" if last else b" ".join([b"/X Do"] * fan)
        resources = b"/Font << /F1 3 0 R >>" if last else b"/XObject << /X %d 0 R >>" % (first_form + level + 1)
        forms.append(stream(body, b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << %s >>" % resources))
    return pdf(contents + [page_content], xobjects=b"/XObject << /X %d 0 R >>" % first_form, extra=forms)


def self_drawing_form() -> bytes:
    form = stream(
        b"BT /F1 11 Tf 72 600 Td (inner) Tj ET /X Do",
        b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /X 6 0 R >> >>",
    )
    return pdf([stream(b"/X Do")], xobjects=b"/XObject << /X 6 0 R >>", extra=[form])


HOSTILE_PDFS = {
    "operator bomb": lambda: operator_bomb(12),
    "form fan-out": lambda: form_fanout(7),
    "form drawing itself": self_drawing_form,
    "page tree loop": lambda: pdf([stream(SENTENCE)], kids=b"2 0 R 4 0 R"),
    "nested arrays": lambda: pdf([stream(b"BT /F1 11 Tf " + b"[" * 100_000 + b"(a)" + b"]" * 100_000 + b" TJ ET")]),
    "endless word": lambda: pdf([stream(b"BT /F1 11 Tf 72 700 Td (" + b"a" * 300_000 + b") Tj ET")]),
    "many pages": lambda: pdf([stream(SENTENCE)] * 2100),
}


@pytest.mark.parametrize("name", list(HOSTILE_PDFS))
async def test_hostile_pdfs_are_read_in_bounded_time_and_memory(fake, make_config, connect, name):
    fake.add(paper(PID, "Hostile PDF", pdf=HOSTILE_PDFS[name]()))
    async with connect(config=settings(make_config)) as client:
        result = await call_bounded(client, "read_paper", {"paper_id": PID + "v1"})
        if result.is_error:
            assert "pdf:" in result.content[0].text
        again = await call_bounded(client, "read_paper", {"paper_id": PID + "v1"})
    assert again.is_error == result.is_error


@pytest.mark.parametrize("engine", ["auto", "pypdf", "pdfium"])
def test_a_bomb_page_is_left_out_and_the_rest_kept(engine):
    if engine == "pdfium":
        pytest.importorskip("pypdfium2")
    data = form_fanout(8, first_page=SENTENCE)
    started = cpu_s()
    if engine == "pdfium":
        with pytest.raises(ExtractionError, match="drawing instructions"):
            pdf_to_text(data, engine=engine)
    else:
        text = pdf_to_text(data, engine=engine)
        assert "walrus theorem" in text and FAILED_PAGE_NOTE in text
    assert cpu_s() - started < BOUND_S


def test_pypdf_checks_the_deadline_inside_a_page():
    data = pdf([stream(b"BT /F1 11 Tf 72 700 Td " + b"(a) Tj " * 5000 + b"ET")])
    ticks = itertools.count()
    with pytest.raises(ExtractionError, match="stopped inside page 1 of 1"):
        pdf_to_text(data, engine="pypdf", deadline=1.5, clock=lambda: float(next(ticks)))


def test_one_endless_word_costs_linear_time():
    data = pdf([stream(b"BT /F1 11 Tf 72 700 Td (" + b"a" * 1_000_000 + b") Tj ET")])
    started = cpu_s()
    text = pdf_to_text(data, engine="pypdf")
    assert text.count("a") >= 1_000_000 and cpu_s() - started < BOUND_S


# --- e-print archives ---------------------------------------------------------------------------


def tar_of(*members: tuple[tarfile.TarInfo, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.GNU_FORMAT) as archive:
        for info, data in members:
            info.size = len(data) if info.isreg() else 0
            archive.addfile(info, io.BytesIO(data) if info.isreg() else None)
    return buffer.getvalue()


def member(name: str, kind: bytes = tarfile.REGTYPE, link: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, link
    return info


def gzip_bomb(megabytes: int) -> bytes:
    """Concatenated gzip members (a valid gzip file) inflating to `megabytes` of TeX."""
    return gzip.compress(b"\\relax " * (2**20 // 7), 9) * megabytes


def declared_bomb(megabytes: int) -> bytes:
    """A gzipped tar whose one member says it holds `megabytes`: refused on its header."""
    info = member("main.tex")
    info.size = megabytes * 2**20
    return gzip.compress(info.tobuf(format=tarfile.GNU_FORMAT) + b"\\relax " * 1000, 9)


def hostile_archives(tmp_path: Path) -> dict[str, bytes]:
    evil = b"\\documentclass{article}\\begin{document}EVIL-ARCHIVE-TEXT\\end{document}"
    return {
        "traversal": tar_of((member("../../../evil-traversal.tex"), evil)),
        "absolute": tar_of((member(str(tmp_path / "evil-absolute.tex")), evil)),
        "symlink": tar_of((member("main.tex", tarfile.SYMTYPE, "/etc/passwd"), b"")),
        "symlink then write": tar_of(
            (member("sub", tarfile.SYMTYPE, str(tmp_path)), b""), (member("sub/evil-through-link.tex"), evil)
        ),
        "hard link": tar_of((member("main.tex", tarfile.LNKTYPE, "/etc/passwd"), b"")),
        "device": tar_of((member("main.tex", tarfile.CHRTYPE), b"")),
        "fifo": tar_of((member("main.tex", tarfile.FIFOTYPE), b"")),
        "gzip bomb": gzip_bomb(110),
        "declared bomb": declared_bomb(110),
        "many members": tar_of(*[(member(f"f{i}.tex"), b"x") for i in range(5001)]),
    }


async def test_hostile_archives_are_refused_and_the_pdf_read(fake, make_config, connect, tmp_path):
    archives = hostile_archives(tmp_path)
    config = settings(make_config)
    async with connect(config=config) as client:
        for number, (name, data) in enumerate(archives.items(), start=1):
            pid = f"2403.{number:05d}"
            fake.add(paper(pid, f"Archive {name}", source=data))
            before = files_outside(tmp_path, config.home)
            result = await call_bounded(client, "read_paper", {"paper_id": pid + "v1"})
            assert not result.is_error, (name, result.content[0].text)
            assert result.structured_content["method"] == "pdf", name
            assert "EVIL" not in result.structured_content["text"]
            download = await call_bounded(client, "download_paper", {"paper_id": pid + "v1", "fmt": "source"})
            assert not download.is_error
            assert config.home in Path(os.path.expanduser(download.structured_content["path"])).parents
            assert files_outside(tmp_path, config.home) == before, name
    assert not list(tmp_path.rglob("evil*")) and not Path("/tmp/evil-traversal.tex").exists()
    assert layout_problems(config.home) == []


# --- ids and sessions built to escape the cache ---------------------------------------------------

ESCAPING_IDS = [
    "../../../../etc/passwd",
    "/etc/passwd",
    "2403.00001\x00",
    "2403.00001\x00/../../x",
    "2403.00001/../../../tmp/owned",
    "2403.00001v1/../../../../tmp/owned",
    "hep-th/../../etc/passwd",
    "hep-th/9901001/../../../x",
    "..%2F..%2Fetc%2Fpasswd",
    "2403.00001%2F..%2F..%2Fx",
    "https://arxiv.org/abs/../../../etc/passwd",
    "https://arxiv.org/abs/2403.00001/../../x",
    "file:///etc/passwd",
    "C:\\Windows\\system32",
    "2403.00001v1\\..\\..\\x",
    "~/.ssh/id_rsa",
    "arXiv:../../x",
    "10.48550/arXiv.../../x",
    "hep-th\x00/9901001",
    "math.GT/0309136/../../..",
    "2403.00001v1.pdf/../../x",
    "2403.00001;rm -rf ~",
    "2403.00001v1 ",
    "\u2024\u2024/\u2024\u2024/etc",
]
ID_TOOLS = [
    ("get_paper", lambda i: {"paper_id": i}),
    ("read_paper", lambda i: {"paper_id": i}),
    ("find_in_paper", lambda i: {"paper_id": i, "query": "walrus"}),
    ("download_paper", lambda i: {"paper_id": i, "fmt": "pdf"}),
    ("download_paper", lambda i: {"paper_id": i, "fmt": "source"}),
    ("search_papers", lambda i: {"id_list": [i]}),
    ("export_bibtex", lambda i: {"paper_ids": [i]}),
    ("get_references", lambda i: {"paper_id": i}),
]
ESCAPING_SESSIONS = ["../x", "/etc", "a/b", "x\x00", "..\\..\\x", "s" * 65, "~", "sess ion", "\u0000"]


async def test_ids_built_to_escape_the_cache_are_refused(fake, make_config, connect, tmp_path):
    fake.add(html_paper(PID, "The only paper", source=eprint({"main.tex": LATEX})))
    config = settings(make_config)
    svc = ArxivService(config)
    async with connect(config=config, service=svc) as client:
        before = files_outside(tmp_path, config.home)
        for raw in ESCAPING_IDS:
            for name, args in ID_TOOLS:
                result = await client.call_tool(name, args(raw))
                if raw == "2403.00001v1 ":  # surrounding space is forgiven: it names the real paper
                    continue
                assert result.is_error, (name, raw)
                assert result.meta["kind"] == "InvalidInput", (name, raw, result.content[0].text)
        for raw in ESCAPING_SESSIONS:
            for name in ("start_session", "session_status", "end_session"):
                result = await client.call_tool(name, {"session_id": raw})
                assert result.is_error and result.meta["kind"] == "InvalidInput", (name, raw)
            result = await client.call_tool("read_paper", {"paper_id": PID, "session_id": raw})
            assert result.is_error and result.meta["kind"] == "InvalidInput"
    assert files_outside(tmp_path, config.home) == before
    assert layout_problems(config.home) == []
    assert not any(".." in r.path or "\x00" in r.path for r in fake.requests)
