"""Safe, in-memory reading of an arXiv e-print (what arxiv.org/e-print/ID returns).

The bytes are untrusted: the format is sniffed from content by `formats` (never from a
name), nothing is written to disk, and decompression is incremental and bounded so a bomb is refused long
before it could be allocated.
"""

from __future__ import annotations

import io
import logging
import posixpath
import tarfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..errors import ExtractionError, UnsafeArchive
from . import formats

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

log = logging.getLogger(__name__)

TEXT_EXTENSIONS = (".tex", ".ltx", ".latex", ".bbl", ".txt", ".sty", ".cls")  # .sty/.cls: the paper's own macros
HTML_EXTENSIONS = (".html", ".htm")
KEPT_EXTENSIONS = TEXT_EXTENSIONS + HTML_EXTENSIONS
TEX_EXTENSIONS = (".tex", ".ltx", ".latex")


@dataclass
class SourceBundle:
    """What an e-print holds: kind "tex" (files: .tex/.bbl/... members), "pdf" or "html"."""

    kind: str
    files: dict[str, bytes] = field(default_factory=dict)
    members: tuple[str, ...] = ()
    """The names of every regular member (figures too, whose bytes are not kept), in order."""


def read_source(data: bytes, *, max_total_bytes: int = 100 * 2**20, max_members: int = 5000) -> SourceBundle:
    """Sniff an e-print's bytes and return its usable files, refusing anything unsafe."""
    if not data or not data.strip():
        raise ExtractionError("The e-print source is empty.")
    if formats.is_gzip(data):
        return _read_gzip(data, max_total_bytes, max_members)
    if len(data) > max_total_bytes:
        raise UnsafeArchive(f"The e-print source is {len(data)} bytes, over the {max_total_bytes}-byte limit.")
    if formats.is_tar(data[:512]):
        return _read_tar(io.BytesIO(data), max_total_bytes, max_members)
    return _single_file(data, "")


def _read_gzip(data: bytes, limit: int, max_members: int) -> SourceBundle:
    chunks = formats.gunzip_chunks(data, limit)
    head = bytearray()
    for chunk in chunks:
        head += chunk
        if len(head) >= 512:
            break
    if formats.is_tar(bytes(head[:512])):
        return _read_tar(_ChunkReader(bytes(head), chunks), limit, max_members)
    for chunk in chunks:
        head += chunk
    return _single_file(bytes(head), _gzip_member_name(data))


def _gzip_member_name(data: bytes) -> str:
    """The original file name stored in the gzip header (FNAME), if any; only its base name."""
    flags = data[3] if len(data) > 3 else 0
    pos = 10
    if flags & 4 and len(data) >= 12:
        pos += 2 + int.from_bytes(data[10:12], "little")
    if not flags & 8:
        return ""
    end = data.find(b"\0", pos, pos + 1024)
    if end < 0:
        return ""
    name = data[pos:end].decode("latin-1").replace("\\", "/")
    return posixpath.basename(name)


class _ChunkReader(io.RawIOBase):
    """A read-only file over already-read bytes followed by the rest of a chunk iterator."""

    def __init__(self, first: bytes, rest: Iterator[bytes]):
        self._buffer = first
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, target: WriteableBuffer) -> int:
        view = memoryview(target).cast("B")
        while not self._buffer:
            chunk = next(self._rest, None)
            if chunk is None:
                return 0
            self._buffer = chunk
        size = min(len(view), len(self._buffer))
        view[:size] = self._buffer[:size]
        self._buffer = self._buffer[size:]
        return size


def _read_tar(stream: io.RawIOBase | io.BytesIO, limit: int, max_members: int) -> SourceBundle:
    kept: dict[str, bytes] = {}
    names: list[str] = []
    declared = 0
    count = 0
    try:
        with tarfile.open(fileobj=stream, mode="r|") as archive:
            for member in archive:
                count += 1
                if count > max_members:
                    raise UnsafeArchive(f"The e-print archive has more than {max_members} members (a tar bomb?).")
                name = _safe_member_name(member)
                if member.isdir():
                    continue
                if not member.isreg():
                    log.debug("skipping non-regular tar member %r (type %r)", name, member.type)
                    continue
                declared += member.size
                if declared > limit:
                    raise UnsafeArchive(
                        f"The e-print archive member {name!r} takes the total size past the {limit}-byte limit."
                    )
                if name:
                    names.append(name)
                if not name or not name.lower().endswith(KEPT_EXTENSIONS):
                    continue
                handle = archive.extractfile(member)
                if handle is not None:
                    kept[name] = handle.read()
    except tarfile.TarError as exc:
        raise ExtractionError(f"The e-print archive is corrupt ({exc}).") from None
    bundle = _bundle_from_members(kept)
    bundle.members = tuple(names)
    return bundle


def _safe_member_name(member: tarfile.TarInfo) -> str:
    """The member's normalised name; refuse traversal, absolute paths, links and devices."""
    raw = member.name
    unified = raw.replace("\\", "/")
    if unified.startswith("/") or (len(unified) > 1 and unified[1] == ":"):
        raise UnsafeArchive(f"The e-print archive member {raw!r} has an absolute path; refusing the archive.")
    parts = [p for p in unified.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise UnsafeArchive(f"The e-print archive member {raw!r} points outside the archive ('..'); refusing it.")
    if member.issym() or member.islnk():
        raise UnsafeArchive(
            f"The e-print archive member {raw!r} is a link (to {member.linkname!r}); refusing the archive."
        )
    if member.ischr() or member.isblk() or member.isfifo():
        raise UnsafeArchive(f"The e-print archive member {raw!r} is a device or FIFO; refusing the archive.")
    return "/".join(parts)


def _bundle_from_members(kept: dict[str, bytes]) -> SourceBundle:
    if any(name.lower().endswith(TEX_EXTENSIONS) for name in kept):
        return SourceBundle("tex", kept)
    pages = {n: b for n, b in kept.items() if n.lower().endswith(HTML_EXTENSIONS)}
    if pages:
        main = max(pages, key=lambda n: len(pages[n]))
        return SourceBundle("html", {main: pages[main]})
    if any(name.lower().endswith(".txt") for name in kept):
        return SourceBundle("tex", kept)
    raise ExtractionError("The e-print archive holds no TeX or HTML source (only figures or other files).")


def _single_file(data: bytes, name: str) -> SourceBundle:
    """Classify one (decompressed) file: PDF, HTML, the 'not ready' page, or TeX."""
    if formats.is_pdf(data):
        return SourceBundle("pdf", {name or "source.pdf": data})
    if formats.is_not_ready(data):
        raise ExtractionError(
            "arXiv is still preparing this paper's source ('file is not ready'); it is usually ready within minutes."
        )
    if formats.is_html(data):
        return SourceBundle("html", {name or "source.html": data})
    if not formats.is_text(data):
        raise ExtractionError("The e-print source is not a recognisable TeX, HTML, PDF or tar file.")
    if not name.lower().endswith(KEPT_EXTENSIONS):
        name = (name or "main") + ".tex"
    return SourceBundle("tex", {name: data})


def read_member(data: bytes, wanted: str, *, max_total_bytes: int = 100 * 2**20) -> bytes | None:
    """One member's bytes (a figure or an included PDF, which `read_source` does not keep),
    read again from the e-print under the same size limit; None when it holds no such member."""
    if formats.is_gzip(data):
        data = b"".join(formats.gunzip_chunks(data, max_total_bytes))
    if not formats.is_tar(data[:512]):
        return None
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r|") as archive:
            for member in archive:
                if member.isreg() and _safe_member_name(member) == wanted:
                    handle = archive.extractfile(member)
                    return handle.read() if handle is not None else None
    except (tarfile.TarError, UnsafeArchive):
        return None
    return None
