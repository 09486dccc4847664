"""A figure's image, as the `arxiv://paper/{id}/figure/{n}` resource returns it.

Where the image comes from, cheapest first:
- the cached e-print, when the figure names one of its members (`figs/plot.pdf`, or `figs/plot`
  as `\\includegraphics` allows): no request;
- the images already fetched for this version (the cache's `figures` tier: a tar of them);
- arXiv's HTML image URL (relative to the version's HTML page, or absolute on the same
  site): one polite request per image, then kept in the `figures` tier, counted in the disk
  limit like any raw file. A URL on another host is never fetched.
The bytes are served as the source has them, their type read from the bytes (PNG, JPEG, GIF,
SVG, PDF, EPS); a PDF figure is rendered to PNG when pypdfium2 is installed, its longest side
at most MAX_RENDER_SIDE pixels, and only when its page asks pdfium for no more drawing work
than a page of text may (text.pdf.work): otherwise, or without pypdfium2, the PDF is served
as it is. Archive members are read with the same care as the e-print itself: decompressed
as a stream, at most MAX_SOURCE_BYTES, never written to disk, the call's deadline checked
every chunk; an e-print refused once (too large) is not decompressed again by this process.
Any failure reading an image is one line (ExtractionError), never a bare error.
"""

from __future__ import annotations

import io
import logging
import math
import posixpath
import struct
import tarfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

from . import budget
from .cache.disk import CacheWriteFailed
from .cache.store import Cache, CacheFull
from .errors import ArxivMcpError, ExtractionError, InvalidInput, NotFound, UpstreamError
from .ids import PaperId, Urls
from .text import formats
from .text.document import Document, Figure
from .upstream.http import HttpClient, TooLarge

log = logging.getLogger(__name__)

TIER = "figures"
MAX_IMAGE_BYTES = 20 * 2**20
_MAX_MEMBERS = 5000
MAX_SOURCE_BYTES = 100 * 2**20
"""What an e-print may decompress to, as the e-print reader (text.archive.read_source) allows."""
MAX_RENDER_SIDE = 4096
"""Pixels of a rendered PDF figure's longest side: 64 MB of RGBA at most."""
_RENDER_SCALE = 2.0
_REFUSED_MAX = 256
_refused: dict[tuple[str, int, int], str] = {}  # e-prints too large to read figures from, by path, size, mtime
_EXTENSIONS = ("", ".pdf", ".png", ".jpg", ".jpeg", ".eps", ".gif", ".svg")


def image_type(data: bytes) -> str:
    """The MIME type of an image, read from its bytes."""
    head = data[:512].lstrip()
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if data.startswith(b"%PDF"):
        return "application/pdf"
    if data.startswith((b"%!PS", b"\xc5\xd0\xd3\xc6")):
        return "application/postscript"
    if head.startswith((b"<svg", b"<?xml")) and b"<svg" in data[:4096]:
        return "image/svg+xml"
    return "application/octet-stream"


class FigureImages:
    def __init__(self, cache: Cache, http: HttpClient, urls: Urls):
        self.cache, self.http, self.urls = cache, http, urls

    def image(self, pid: PaperId, doc: Document, number: str) -> bytes:
        """The image of figure `number` of `pid` (versioned), from the cheapest place that has it."""
        figure, refs, key = _figure(doc, number)
        if not refs:
            raise NotFound(f"{figure.label} of {pid} names no image in this paper's text.")
        try:
            data = self._from_eprint(pid, refs) or self._kept(pid, key) or self._download(pid, figure, key, refs)
            return as_png(data) if data.startswith(b"%PDF") else data
        except ArxivMcpError:
            raise
        except MemoryError:
            raise ExtractionError(
                f"the image of {figure.label} of {pid} is too large to read in this server's memory; "
                "read the figure's caption in the text, or download the paper's source"
            ) from None
        except Exception as exc:  # one line, never a bare error: the resource has no other channel
            raise ExtractionError(
                f"the image of {figure.label} of {pid} could not be read ({type(exc).__name__}: {str(exc)[:200]})"
            ) from None

    def _from_eprint(self, pid: PaperId, refs: list[str]) -> bytes | None:
        assert pid.version is not None
        raw = self.cache.get_raw(pid, "source")
        members = [ref for ref in refs if not urlsplit(ref).scheme and not ref.startswith("/")]
        if raw is None or not members:
            return None
        try:
            known = _known(raw.path)
            if known in _refused:
                return None
            return _member(raw.path.read_bytes(), members)
        except ExtractionError as exc:  # too large, or corrupt: so it stays (the deadline goes through)
            _remember_refused(known, str(exc))
            log.info("figure of %s not read from its e-print: %s", pid, exc)
            return None
        except (OSError, tarfile.TarError, EOFError, zlib.error) as exc:
            log.info("figure of %s not read from its e-print: %s", pid, exc)
            return None

    def _kept(self, pid: PaperId, number: str) -> bytes | None:
        assert pid.version is not None
        raw = self.cache.get_raw(pid, TIER)
        if raw is None:
            return None
        try:
            return _member(raw.path.read_bytes(), [number])
        except (OSError, tarfile.TarError, EOFError) as exc:
            log.info("kept figures of %s unreadable: %s", pid, exc)
            return None

    def _download(self, pid: PaperId, figure: Figure, key: str, refs: list[str]) -> bytes:
        page = self.urls.html(pid)
        # LaTeXML's pages carry <base href="/html/IDvN/"> and name images beside the page
        # (`x1.png`); latexml-oxide's (every page since August 2026) have no <base> and name
        # them from /html/ (`IDvN/latex/fig1.png`), as a browser at /html/IDvN resolves them.
        from_html_root = refs[0].startswith(f"{pid.id.split('/')[-1]}v")
        base = page if from_html_root else page + "/"
        url = urljoin(base, refs[0])
        if urlsplit(url).netloc != urlsplit(base).netloc:
            raise NotFound(f"{figure.label} of {pid} is {_elsewhere(url)}; it is not fetched.")
        try:
            resp = self.http.get(url, max_bytes=MAX_IMAGE_BYTES)
        except TooLarge:
            raise UpstreamError(
                f"The image of {figure.label} of {pid} is larger than the {MAX_IMAGE_BYTES // 2**20} MB an image "
                f'may be; read its caption and mentions with read_paper(section="{figure.label}"), or '
                'download_paper(fmt="source") for the paper\'s own files.'
            ) from None
        if resp.status != 200:
            raise UpstreamError(f"arXiv answered HTTP {resp.status} for the image of {figure.label} of {pid}")
        if image_type(resp.content) == "application/octet-stream":
            raise UpstreamError(f"arXiv did not send an image for {figure.label} of {pid}; try again later")
        self._keep(pid, key, resp.content)
        return resp.content

    def _keep(self, pid: PaperId, number: str, data: bytes) -> None:
        """Add the image to this version's `figures` tar (rewritten whole: a paper has tens of
        images at most, and a tar is read back member by member)."""
        assert pid.version is not None
        kept = self.cache.get_raw(pid, TIER)
        members: dict[str, bytes] = {}
        if kept is not None:
            try:
                members = _all_members(kept.path.read_bytes())
            except (OSError, tarfile.TarError, EOFError):
                members = {}
        members[number] = data
        try:
            self.cache.put_raw(pid, TIER, _tar(members), "application/x-tar")
        except (CacheFull, CacheWriteFailed) as exc:
            log.warning("the image of figure %s of %s was not cached: %s", number, pid, exc)


def _elsewhere(url: str) -> str:
    """Where an image the page names lies, said in a few words (a data: URL can be megabytes)."""
    scheme = urlsplit(url).scheme.lower()
    if scheme not in ("http", "https"):
        return f"embedded in the page as a {scheme or 'relative'}: URL, not an image file on arXiv"
    return f"an image on another site ({urlsplit(url).netloc[:100]})"


def _figure(doc: Document, number: str) -> tuple[Figure, list[str], str]:
    """The figure `number` names, the images to try and the name it is kept under: a figure's
    own images then its panels'; `3b` names panel (b) of figure 3 when that panel has images."""
    figures = doc.records(Figure)
    for figure in figures:
        if figure.number.casefold() == number.casefold():
            return figure, list(figure.images) + [ref for sub in figure.subfigures for ref in sub.images], figure.number
    for figure in figures:
        if figure.number.casefold() == number[:-1].casefold():
            for sub in figure.subfigures:
                if sub.letter.casefold() == number[-1:].casefold() and sub.images:
                    return figure, list(sub.images), figure.number + sub.letter
    have = ", ".join(f.number for f in doc.records(Figure)) or "none marked"
    raise InvalidInput(f'this paper has no figure "{number}" (its figures: {have}).')


def _known(path: Path) -> tuple[str, int, int]:
    stat = path.stat()
    return str(path), stat.st_size, stat.st_mtime_ns


def _remember_refused(known: tuple[str, int, int], why: str) -> None:
    if len(_refused) >= _REFUSED_MAX:
        _refused.pop(next(iter(_refused)))
    _refused[known] = why


class _Chunks(io.RawIOBase):
    """A read-only stream over decompressed chunks (after `first`), the call's deadline
    checked at each chunk."""

    def __init__(self, chunks: Iterator[bytes], first: bytes = b"") -> None:
        self._chunks, self._buffer = chunks, first

    def readable(self) -> bool:
        return True

    def readinto(self, target: Any) -> int:
        while not self._buffer:
            chunk = next(self._chunks, None)
            if chunk is None:
                return 0
            budget.check("Reading a figure from the e-print", "try again, or read the figure's caption in the text")
            self._buffer = chunk
        size = min(len(target), len(self._buffer))
        target[:size] = self._buffer[:size]
        self._buffer = self._buffer[size:]
        return size


def _tar_stream(archive: bytes) -> io.RawIOBase | io.BytesIO | None:
    """The e-print's tar as a stream, decompressed as it is read and never past
    MAX_SOURCE_BYTES (UnsafeArchive then); None when it holds no tar."""
    if not formats.is_gzip(archive):
        return io.BytesIO(archive) if formats.is_tar(archive[:512]) else None
    chunks = formats.gunzip_chunks(archive, MAX_SOURCE_BYTES)
    head = b""
    while len(head) < 512 and (chunk := next(chunks, None)) is not None:
        head += chunk
    return _Chunks(chunks, head) if formats.is_tar(head[:512]) else None


def _member(archive: bytes, names: list[str]) -> bytes | None:
    """The first of `names` (with any usual image suffix) that is a file member of `archive`;
    one pass over the archive as a stream (linear in its decompressed size, bounded)."""
    wanted: dict[str, int] = {}
    for order, name in enumerate(names):
        clean = posixpath.normpath(name.strip().lstrip("./"))
        for suffix in _EXTENSIONS:
            wanted.setdefault((clean + suffix).casefold(), order)
    best: tuple[int, bytes] | None = None
    stream = _tar_stream(archive)
    if stream is None:
        return None
    with tarfile.open(fileobj=stream, mode="r|") as tar:
        for count, member in enumerate(tar):
            if count >= _MAX_MEMBERS:
                break
            rank = wanted.get(posixpath.normpath(member.name.lstrip("./")).casefold())
            if rank is None or not member.isfile() or member.size > MAX_IMAGE_BYTES:
                continue
            if best is None or rank < best[0]:
                handle = tar.extractfile(member)
                if handle is not None:
                    best = (rank, handle.read(MAX_IMAGE_BYTES + 1))
    return best[1] if best else None


def _all_members(archive: bytes) -> dict[str, bytes]:
    found = {}
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:") as tar:
        for member in tar:
            handle = tar.extractfile(member) if member.isfile() else None
            if handle is not None:
                found[member.name] = handle.read(MAX_IMAGE_BYTES + 1)
    return found


def _tar(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:", format=tarfile.USTAR_FORMAT) as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def as_png(pdf: bytes) -> bytes:
    """A PDF figure's first page as PNG, its longest side at most MAX_RENDER_SIDE pixels, when
    pypdfium2 is installed and the page asks for no more drawing work than pdfium may do at
    once (rendering cannot be interrupted); else the PDF as it is."""
    try:
        import pypdfium2 as pdfium
    except ImportError:
        return pdf
    from .text.pdf.pdfium_compat import PDFIUM_LOCK
    from .text.pdf.watch import watching
    from .text.pdf.work import UnmeasurableFile, heavy_pages

    try:
        with watching(lambda: budget.check(_RENDERING, _RENDER_ADVICE)):
            if 0 in heavy_pages(pdf, _MAX_FIGURE_PAGES):
                return pdf
    except UnmeasurableFile:
        return pdf
    budget.check(_RENDERING, _RENDER_ADVICE)
    with PDFIUM_LOCK:
        try:
            document = pdfium.PdfDocument(pdf)
        except pdfium.PdfiumError as exc:
            raise ExtractionError(f"the PDF figure could not be rendered: {exc}") from None
        try:
            return _rendered(document[0])
        except (pdfium.PdfiumError, IndexError, ValueError) as exc:
            raise ExtractionError(f"the PDF figure could not be rendered: {exc}") from None
        finally:
            document.close()


_RENDERING = "Rendering a PDF figure"
_RENDER_ADVICE = "try again, or read the figure's caption in the text"
_MAX_FIGURE_PAGES = 100  # a figure's PDF has one; more pages are not measured, nor rendered


def _rendered(page: Any) -> bytes:
    """The page as PNG within the pixel budget; the PDF's page box decides the scale."""
    width, height = page.get_size()
    longest = max(width, height)
    if not (math.isfinite(longest) and longest > 0):
        raise ValueError(f"its page box is {width} x {height} pt")
    bitmap = page.render(scale=min(_RENDER_SCALE, MAX_RENDER_SIDE / longest), rev_byteorder=True)
    try:
        return _png(memoryview(bitmap.buffer), bitmap.width, bitmap.height, bitmap.stride, bitmap.n_channels)
    finally:
        bitmap.close()


def _png(buffer: memoryview, width: int, height: int, stride: int, channels: int) -> bytes:
    """RGB(A) rows as a PNG (no filter; zlib does the work, a row at a time: no copy of the image)."""
    row_bytes = width * channels
    color = {3: 2, 4: 6}.get(channels)
    if color is None:
        raise ExtractionError(f"a rendered figure with {channels} channels")
    packer = zlib.compressobj(6)
    parts = [packer.compress(b"\x00" + buffer[y * stride : y * stride + row_bytes]) for y in range(height)]
    parts.append(packer.flush())

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, color, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", b"".join(parts)) + chunk(b"IEND", b"")
