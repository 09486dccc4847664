"""archive.read_source: sniffing real e-prints, and refusing hostile archives without writing."""

from __future__ import annotations

import gzip
import io
import os
import tarfile
import tracemalloc
import zlib
from pathlib import Path

import pytest

from arxiv_mcp.errors import ExtractionError, UnsafeArchive
from arxiv_mcp.text.archive import SourceBundle, read_source

FIXTURES = Path(__file__).parent / "fixtures" / "src"


def tar_bytes(members: list[tuple[tarfile.TarInfo, bytes | None]], compress: bool = False) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz" if compress else "w", format=tarfile.GNU_FORMAT) as archive:
        for info, payload in members:
            archive.addfile(info, io.BytesIO(payload) if payload is not None else None)
    return buffer.getvalue()


def regular(name: str, payload: bytes) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.size = len(payload)
    return info, payload


def special(name: str, kind: bytes, linkname: str = "") -> tuple[tarfile.TarInfo, None]:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = linkname
    return info, None


def gzip_of_zeros(total: int, chunk: int = 1 << 20) -> bytes:
    """One gzip stream of `total` zero bytes, made chunk by chunk so the test stays small."""
    packer = zlib.compressobj(6, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    zeros = bytes(chunk)
    parts = [packer.compress(zeros) for _ in range(total // chunk)]
    parts.append(packer.flush())
    return b"".join(parts)


@pytest.fixture(scope="module")
def bomb() -> bytes:
    """128 MB of zeros in ~130 KB: past the default 100 MB bound."""
    return gzip_of_zeros(128 * 2**20)


@pytest.fixture
def no_disk_writes(tmp_path, monkeypatch):
    """Run in an empty cwd and make any tar extraction blow up; check nothing appeared."""
    monkeypatch.chdir(tmp_path)

    def forbidden(*args, **kwargs):
        raise AssertionError("read_source must never extract to disk")

    monkeypatch.setattr(tarfile.TarFile, "extract", forbidden)
    monkeypatch.setattr(tarfile.TarFile, "extractall", forbidden)
    before = sorted(os.listdir(tmp_path))
    yield tmp_path
    assert sorted(os.listdir(tmp_path)) == before == []
    assert not (tmp_path.parent / "evil").exists()


# -- real e-prints ---------------------------------------------------------------------------


def test_gzipped_tar_keeps_tex_and_bbl():
    bundle = read_source((FIXTURES / "1605.03959.tar.gz").read_bytes())
    assert bundle.kind == "tex"
    assert set(bundle.files) == {"arxiv_v1.tex", "arxiv_v1.bbl"}
    assert bundle.files["arxiv_v1.tex"].startswith(b"\\documentclass")


def test_single_gzipped_tex_is_named_from_gzip_header():
    bundle = read_source((FIXTURES / "single_gzipped_tex_hepth_desitterv3_2009.gz").read_bytes())
    assert bundle.kind == "tex"
    assert list(bundle.files) == ["hepth_desitterv3.tex"]
    assert len(bundle.files["hepth_desitterv3.tex"]) == 35674


def test_file_not_ready_page_says_try_later():
    with pytest.raises(ExtractionError) as caught:
        read_source((FIXTURES / "edgecase_file_not_ready.gz").read_bytes())
    assert not isinstance(caught.value, UnsafeArchive)
    assert "not ready" in str(caught.value) and "minutes" in str(caught.value)


def test_not_ready_page_uncompressed_too():
    with pytest.raises(ExtractionError, match="usually ready within minutes"):
        read_source(b"<html><head><title>File is not ready</title></head><body>File is not ready</body></html>")


# -- sniffing ---------------------------------------------------------------------------------


def test_plain_tar_skips_images_and_directories_and_normalises_names():
    data = tar_bytes(
        [
            special("./figs", tarfile.DIRTYPE),
            regular("./figs/plot.png", b"\x89PNG" + bytes(1000)),
            regular("./paper.tex", b"\\documentclass{article}"),
            regular("sub/ref.bbl", b"\\begin{thebibliography}{1}"),
            regular("notes.sty", b"\\def\\x{}"),
        ]
    )
    bundle = read_source(data)
    assert bundle == SourceBundle(
        "tex",
        {
            "paper.tex": b"\\documentclass{article}",
            "sub/ref.bbl": b"\\begin{thebibliography}{1}",
            "notes.sty": b"\\def\\x{}",  # a package's macros are the paper's text too
        },
        members=("figs/plot.png", "paper.tex", "sub/ref.bbl", "notes.sty"),  # figures named, not read
    )


def test_raw_tex_and_gzip_name_from_content_not_file_name():
    tex = b"\\documentclass{article}\\begin{document}Hi\\end{document}"
    assert read_source(tex).kind == "tex"
    named_html = gzip.compress(tex)  # no name in the header: content decides
    assert read_source(named_html).files == {"main.tex": tex}


def test_pdf_plain_and_gzipped():
    pdf = b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n"
    assert read_source(pdf).kind == "pdf"
    bundle = read_source(gzip.compress(pdf))
    assert bundle.kind == "pdf" and list(bundle.files.values()) == [pdf]


def test_html_single_file_and_html_only_tar():
    page = b"<!-- x -->\n<h1>Contributions</h1><p>Body</p>"
    assert read_source(gzip.compress(page)).kind == "html"
    data = tar_bytes(
        [
            regular("paper.htm", b"<html><body>" + b"x" * 500 + b"</body></html>"),
            regular("small.html", b"<html></html>"),
            regular("timeline.gif", b"GIF89a" + bytes(100)),
        ],
        compress=True,
    )
    bundle = read_source(data)
    assert bundle.kind == "html" and list(bundle.files) == ["paper.htm"]


def test_concatenated_gzip_members_are_joined():
    data = gzip.compress(b"\\documentclass{article}\n") + gzip.compress(b"\\begin{document}x\\end{document}\n")
    (content,) = read_source(data).files.values()
    assert content.endswith(b"\\end{document}\n") and content.startswith(b"\\documentclass")


@pytest.mark.parametrize("data", [b"", b"   \n", bytes(range(256)) * 8, b"\x1f\x8b\x08\x00garbage!"])
def test_empty_or_garbage_is_an_extraction_error(data):
    with pytest.raises(ExtractionError) as caught:
        read_source(data)
    assert not isinstance(caught.value, UnsafeArchive)


def test_truncated_gzip_is_an_extraction_error():
    data = gzip.compress(b"\\documentclass{article} " * 1000)
    with pytest.raises(ExtractionError, match="truncated"):
        read_source(data[: len(data) // 2])


def test_tar_with_only_figures_is_an_extraction_error():
    with pytest.raises(ExtractionError, match="no TeX"):
        read_source(tar_bytes([regular("fig.pdf", b"%PDF-1.4 ...")]))


# -- hostile archives -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["../evil", "/etc/passwd", "a/../../evil", "sub/../../evil.tex", "C:/evil.tex"])
@pytest.mark.parametrize("compress", [False, True])
def test_traversal_and_absolute_names_are_refused(no_disk_writes, name, compress):
    data = tar_bytes([regular("ok.tex", b"x"), regular(name, b"owned")], compress=compress)
    with pytest.raises(UnsafeArchive) as caught:
        read_source(data)
    assert repr(name) in str(caught.value)


@pytest.mark.parametrize(
    "member",
    [
        special("link.tex", tarfile.SYMTYPE, "/etc/passwd"),
        special("hard.tex", tarfile.LNKTYPE, "ok.tex"),
        special("dev", tarfile.CHRTYPE),
        special("disk", tarfile.BLKTYPE),
        special("pipe", tarfile.FIFOTYPE),
    ],
)
def test_links_and_devices_are_refused(no_disk_writes, member):
    data = tar_bytes([regular("ok.tex", b"x"), member], compress=True)
    with pytest.raises(UnsafeArchive) as caught:
        read_source(data)
    assert member[0].name in str(caught.value)


def test_gzip_bomb_is_refused_without_allocating_it(no_disk_writes, bomb):
    bound = 8 * 2**20
    assert len(bomb) < 2**20
    tracemalloc.start()
    try:
        with pytest.raises(UnsafeArchive, match="decompresses to more than"):
            read_source(bomb, max_total_bytes=bound)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < bound + 4 * 2**20


def test_gzip_bomb_against_the_default_bound(bomb):
    with pytest.raises(UnsafeArchive):
        read_source(bomb)


def test_tar_declaring_a_huge_member_is_refused_before_reading(no_disk_writes):
    info = tarfile.TarInfo("huge.tex")
    info.size = 10 * 2**30
    header = info.tobuf(format=tarfile.GNU_FORMAT)
    data = gzip.compress(header + bytes(4096))
    with pytest.raises(UnsafeArchive) as caught:
        read_source(data)
    assert "'huge.tex'" in str(caught.value)


def test_images_count_toward_the_bound(no_disk_writes):
    data = tar_bytes([regular("main.tex", b"x"), regular("big.png", bytes(3 * 2**20))], compress=True)
    with pytest.raises(UnsafeArchive, match="big.png"):
        read_source(data, max_total_bytes=2 * 2**20)
    assert read_source(data, max_total_bytes=4 * 2**20).files == {"main.tex": b"x"}


def test_tar_with_too_many_members_is_refused(no_disk_writes):
    data = tar_bytes([regular(f"f{k}.tex", b"") for k in range(5001)])
    with pytest.raises(UnsafeArchive, match="more than 5000 members"):
        read_source(data)
    small = tar_bytes([regular(f"f{k}.tex", b"") for k in range(11)])
    with pytest.raises(UnsafeArchive):
        read_source(small, max_members=10)


def test_gzipped_tar_larger_than_bound_is_refused_while_streaming(no_disk_writes):
    """Headers count too: 3000 empty members are 1.5 MB of tar although they declare 0 bytes."""
    data = tar_bytes([regular(f"part{k}.tex", b"") for k in range(3000)], compress=True)
    with pytest.raises(UnsafeArchive, match="decompresses to more than"):
        read_source(data, max_total_bytes=2**20)
    members = [regular(f"part{k}.tex", bytes(2**20)) for k in range(6)]
    with pytest.raises(UnsafeArchive, match="part4.tex"):
        read_source(tar_bytes(members, compress=True), max_total_bytes=4 * 2**20 + 2**19)


def test_decompression_is_incremental(monkeypatch, bomb):
    """The reader never asks zlib for more than one chunk at a time."""
    calls: list[int] = []
    real = zlib.decompressobj

    class Spy:
        def __init__(self, *args, **kwargs):
            self.inner = real(*args, **kwargs)

        def decompress(self, data, max_length=0):
            calls.append(max_length)
            return self.inner.decompress(data, max_length)

        def __getattr__(self, name):
            return getattr(self.inner, name)

    monkeypatch.setattr(zlib, "decompressobj", Spy)
    with pytest.raises(UnsafeArchive):
        read_source(bomb, max_total_bytes=2**20)
    assert calls and all(0 < n <= 64 * 1024 for n in calls)
