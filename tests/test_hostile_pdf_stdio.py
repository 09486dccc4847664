"""Hostile PDFs and figures (issue 34 points 2, 3, 5), black-box: the SDK client over stdio
talks to a fresh `python -m arxiv_mcp` under an address-space cap, reading from the fake arXiv.

Each fixture is made here, small on disk: a one-page PDF figure whose page box is 8,000 pt
(or 20,000 pt, past PDF's own limit), an e-print whose gzip holds a 2 GB member, and a PDF
of 2 x 10^6 objects (70 MB) without a cross-reference table. Every answer comes within the deadline plus
5 s, in one line, and the server is idle (its CPU time still) within 5 s of it."""

from __future__ import annotations

import base64
import gzip
import io
import struct
import sys
import tarfile
from pathlib import Path

import pytest
from mcp.client import Client

from tests.conftest import html_paper, paper
from tests.hostile import CappedServer, capped_server, cpu_seconds, idle_within, peak_rss_mb, timed
from tests.pdfgen import assemble, many_objects_pdf

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

DEADLINE_S = 10
SHORT_DEADLINE_S = 2
"""For the PDF of 2 x 10^6 objects: reading it took 12 s before its deadline was kept."""
MEMORY_CAP = 3 * 2**30
"""The server's address space: room for Python, the SDK and pdfium, far below a 3 GB render."""
PID = "2403.00041"


def _server(fake, tmp_path: Path, deadline_s: float = DEADLINE_S) -> CappedServer:
    return capped_server(fake, tmp_path / "home", deadline_s=deadline_s, memory_cap=MEMORY_CAP)


def _figure_pdf(side_pt: int) -> bytes:
    """A one-page PDF figure, a few hundred bytes, whose page box is `side_pt` points square."""
    drawing = b"0 0 1 rg 0 0 %d %d re f" % (side_pt // 2, side_pt // 2)
    return assemble(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Contents 4 0 R >>" % (side_pt, side_pt),
            b"<< /Length %d >>\nstream\n%s\nendstream" % (len(drawing), drawing),
        ]
    )


def _png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    return struct.unpack(">II", data[16:24])


@pytest.mark.skipif(sys.platform != "linux", reason="reads the server's /proc entry")
@pytest.mark.parametrize("side_pt", [8000, 20000])
async def test_a_pdf_figure_with_a_huge_page_box_renders_within_the_pixel_budget(fake, tmp_path, side_pt):
    pytest.importorskip("pypdfium2")
    figure = html_paper(PID, "Huge figure")
    figure.html = figure.html.replace(
        "</article>",
        '<figure class="ltx_figure" id="S1.F1"><img class="ltx_graphics" src="x1.pdf" alt=""/>'
        '<figcaption class="ltx_caption"><span class="ltx_tag ltx_tag_figure">Figure 1: </span>'
        "A huge page box.</figcaption></figure></article>",
    )
    figure.images = {"x1.pdf": _figure_pdf(side_pt)}
    fake.add(figure)
    server = _server(fake, tmp_path)
    async with Client(server.params) as client:
        read = await client.call_tool("read_paper", {"paper_id": f"{PID}v1"})
        assert not read.is_error
        pid = server.pid()
        result, error, took = await timed(client.read_resource(f"arxiv://paper/{PID}v1/figure/1"))
        assert took < DEADLINE_S + 5
        assert await idle_within(pid)
        peak = peak_rss_mb(pid)
    assert error is None, error
    (content,) = result.contents
    assert content.mime_type == "image/png"
    width, height = _png_size(base64.b64decode(content.blob))
    assert max(width, height) <= 4096 and min(width, height) > 0
    assert peak < 500, f"peak RSS {peak:.0f} MB"


def _gzip_bomb_eprint(zeros_gb: int) -> bytes:
    """An e-print whose tar holds main.tex, a member of `zeros_gb` GB of zeros named as the
    figure is (x1.png), then a small x1.png: concatenated gzip members, one of a MB of zeros
    repeated, so the file is a few MB."""
    tex = b"\\documentclass{article}\\begin{document}Hello.\\end{document}\n"
    big = zeros_gb * 2**30
    head = io.BytesIO()
    with tarfile.open(fileobj=head, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        info = tarfile.TarInfo("main.tex")
        info.size = len(tex)
        tar.addfile(info, io.BytesIO(tex))
    header = head.getvalue()[: -2 * 512]  # without its end blocks: more members follow
    header = header[: 512 + (len(tex) + 511) // 512 * 512]
    member = tarfile.TarInfo("x1.png")
    member.size = big
    header += member.tobuf(format=tarfile.USTAR_FORMAT)
    zeros = gzip.compress(b"\0" * 2**20, 9)
    tail = io.BytesIO()
    with tarfile.open(fileobj=tail, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        image = b"\x89PNG\r\n\x1a\nsmall"
        info = tarfile.TarInfo("x1.png")
        info.size = len(image)
        tar.addfile(info, io.BytesIO(image))
    return gzip.compress(header) + zeros * (big // 2**20) + gzip.compress(tail.getvalue())


@pytest.mark.skipif(sys.platform != "linux", reason="reads the server's /proc entry")
async def test_a_gzip_bomb_eprint_costs_a_figure_read_once_and_within_the_deadline(fake, tmp_path):
    bombed = html_paper(PID, "Bombed source", source=_gzip_bomb_eprint(2))
    bombed.html = bombed.html.replace(
        "</article>",
        '<figure class="ltx_figure" id="S1.F1"><img class="ltx_graphics" src="x1.png" alt=""/>'
        '<figcaption class="ltx_caption"><span class="ltx_tag ltx_tag_figure">Figure 1: </span>'
        "From the page.</figcaption></figure></article>",
    )
    served = b"\x89PNG\r\n\x1a\nfrom the HTML page"
    bombed.images = {"x1.png": served}
    fake.add(bombed)
    server = _server(fake, tmp_path)
    async with Client(server.params) as client:
        read = await client.call_tool("read_paper", {"paper_id": f"{PID}v1"})
        assert not read.is_error
        downloaded = await client.call_tool("download_paper", {"paper_id": f"{PID}v1", "fmt": "source"})
        assert not downloaded.is_error
        pid = server.pid()
        timings, cpu = [], []
        for _ in range(2):
            before = cpu_seconds(pid)
            result, error, took = await timed(client.read_resource(f"arxiv://paper/{PID}v1/figure/1"))
            assert error is None, error
            timings.append(took)
            assert await idle_within(pid)
            cpu.append(cpu_seconds(pid) - before)
    assert base64.b64decode(result.contents[0].blob) == served  # the e-print refused: the page's image
    assert max(timings) < DEADLINE_S + 5
    assert cpu[1] < cpu[0] / 2, cpu  # the refused e-print is not decompressed again
    assert len(fake.requests_to("/html/")) == 2  # the page, and its image once (then kept)


@pytest.mark.skipif(sys.platform != "linux", reason="reads the server's /proc entry")
async def test_a_pdf_of_two_million_objects_without_an_xref_keeps_the_deadline(fake, tmp_path):
    fake.add(paper(PID, "Many objects", pdf=many_objects_pdf(2 * 10**6)))
    server = _server(fake, tmp_path, SHORT_DEADLINE_S)
    async with Client(server.params) as client:
        pid = server.pid()
        result, error, took = await timed(client.call_tool("read_paper", {"paper_id": f"{PID}v1"}))
        assert await idle_within(pid)
    assert took < SHORT_DEADLINE_S + 2  # the lease's premise: no work outlives its call by over 2 s (6-10 s before)
    assert error is None and result is not None
    said = result.content[0].text if result.content else ""
    if result.is_error:  # too slow here: one line that says why
        assert "took longer" in said or "took too long" in said, said
        assert "\n" not in said.strip()
    else:
        assert "A page of text among many objects." in said
