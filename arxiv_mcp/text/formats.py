"""What a body from arXiv is, and whether it arrived whole: the only place bytes are sniffed.

arXiv's e-print address answers with whatever the authors submitted: a gzipped or plain
tar, a single gzipped or plain TeX file, a PDF (gzipped or not), an HTML page, or, while it
is still being packed, a short "file is not ready" page. Every reader and the cache name
and label a body by what these functions say, so the same bytes get the same content type
whichever tool fetched them first. Formats are told from content, never from a name or a
header the server sent.
"""

from __future__ import annotations

import io
import logging
import zlib
from collections.abc import Iterator

from ..errors import ExtractionError, UnsafeArchive

PDF = "application/pdf"
GZIP = "application/gzip"
TAR = "application/x-tar"
TEX = "text/x-tex"
HTML = "text/html"
UNKNOWN = "application/octet-stream"

GUNZIP_CHECK_LIMIT = 512 * 2**20
"""Past this much output a gzip stream is taken as whole: checking a bomb to its end would
take minutes, and the check only reads, it keeps nothing."""

_GZIP_MAGIC = b"\x1f\x8b"
_CHUNK = 64 * 1024
_NOT_READY = b"file is not ready"
_HTML_TAGS = (b"<!doctype html", b"<html", b"<head", b"<body", b"<title", b"<h1", b"<h2", b"<p>", b"<div", b"<a href")


class NotReady(ExtractionError):
    """arXiv's placeholder while it packs an e-print: worth asking again in a few minutes."""


def is_pdf(data: bytes) -> bool:
    return data[:1024].lstrip().startswith(b"%PDF-")


def is_gzip(data: bytes) -> bool:
    return data[:2] == _GZIP_MAGIC


def is_tar(header: bytes) -> bool:
    """A tar header block: the POSIX magic, or (old V7 tars) a matching header checksum."""
    if len(header) < 512:
        return False
    if header[257:262] == b"ustar":
        return True
    stored = header[148:156].replace(b"\0", b" ").strip()
    if not stored or any(c not in b"01234567" for c in stored):
        return False
    computed = sum(header[:148]) + 8 * 32 + sum(header[156:512])
    return int(stored, 8) == computed


def is_not_ready(data: bytes) -> bool:
    return len(data) < 4096 and _NOT_READY in data.lower()


def is_html(data: bytes) -> bool:
    head = data[:4096].lstrip().lower()
    return head.startswith(b"<") and any(tag in head for tag in _HTML_TAGS)


def is_text(sample: bytes) -> bool:
    """Mostly printable with no NUL: what TeX (in any 8-bit or UTF-8 encoding) looks like."""
    sample = sample[:8192]
    if b"\0" in sample:
        return False
    control = sum(1 for byte in sample if byte < 32 and byte not in (9, 10, 12, 13))
    return control <= len(sample) // 50


def content_type(head: bytes) -> str:
    """The type of a body from its first bytes (at least 512 for a tar); no wholeness check."""
    if is_pdf(head):
        return PDF
    if is_gzip(head):
        return GZIP
    if is_tar(head[:512]):
        return TAR
    if is_html(head):
        return HTML
    return UNKNOWN


def gunzip_chunks(data: bytes, limit: int) -> Iterator[bytes]:
    """Decompress (possibly concatenated) gzip members piece by piece, never beyond `limit`.

    Raises ExtractionError for a corrupt or cut stream, UnsafeArchive past `limit`."""
    view = memoryview(data)
    pending: bytes | memoryview
    pos = 0
    total = 0
    while True:
        inflater = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
        while not inflater.eof:
            if inflater.unconsumed_tail:
                pending = inflater.unconsumed_tail
            else:
                pending = view[pos : pos + _CHUNK]
                pos += len(pending)
            try:
                out = inflater.decompress(pending, _CHUNK)
            except zlib.error as exc:
                raise ExtractionError(f"The e-print source is a corrupt gzip file ({exc}).") from None
            if not out and not pending and not inflater.eof:
                raise ExtractionError("The e-print source is a truncated gzip file.")
            if out:
                total += len(out)
                if total > limit:
                    raise UnsafeArchive(
                        f"The e-print source decompresses to more than {limit} bytes (a decompression "
                        "bomb or an oversized source)."
                    )
                yield out
        pos -= len(inflater.unused_data)
        if bytes(view[pos : pos + 2]) != _GZIP_MAGIC:
            return  # the end, or tar padding after the last member


def check_pdf(data: bytes) -> None:
    """Raise ExtractionError unless `data` is a whole PDF (its page tree can be read), so a
    cut or garbled download is never kept."""
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    if not is_pdf(data):
        raise ExtractionError("the answer is not a PDF")
    pypdf_log = logging.getLogger("pypdf")
    level = pypdf_log.level
    pypdf_log.setLevel(logging.ERROR)  # broken-xref warnings are normal for arXiv's PDF-only papers
    try:
        if len(PdfReader(io.BytesIO(data)).pages) < 1:
            raise ExtractionError("the PDF has no pages")
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError) as exc:
        raise ExtractionError(f"the PDF is damaged or incomplete ({type(exc).__name__})") from None
    finally:
        pypdf_log.setLevel(level)


def _gunzip_head(data: bytes) -> bytes:
    """Decompress `data` to its end (or GUNZIP_CHECK_LIMIT), keeping only its first 4 KB."""
    head = bytearray()
    try:
        for chunk in gunzip_chunks(data, GUNZIP_CHECK_LIMIT):
            if len(head) < 4096:
                head += chunk[: 4096 - len(head)]
    except UnsafeArchive:
        pass  # longer than worth checking: taken as whole
    return bytes(head)


def _check_tar(data: bytes) -> None:
    """Every member's data lies inside the file: a cut tar fails here, not when it is read."""
    import tarfile  # the cache imports this module to name bodies; only an e-print check reads a tar

    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as archive:
            for member in archive:
                if member.isreg() and member.offset_data + member.size > len(data):
                    raise ExtractionError(f"the tar archive is cut short inside {member.name!r}")
    except tarfile.TarError as exc:
        raise ExtractionError(f"the tar archive is damaged ({exc})") from None


def eprint_type(data: bytes) -> str:
    """The content type of a whole e-print. Raises NotReady for arXiv's placeholder page and
    ExtractionError when the body is cut, corrupted or of no kind an e-print can be."""
    if not data.strip():
        raise ExtractionError("the e-print is empty")
    if is_gzip(data):
        if is_not_ready(_gunzip_head(data)):
            raise NotReady("arXiv is still preparing the e-print ('file is not ready')")
        return GZIP
    if is_pdf(data):
        check_pdf(data)
        return PDF
    if is_tar(data[:512]):
        _check_tar(data)
        return TAR
    if is_not_ready(data):
        raise NotReady("arXiv is still preparing the e-print ('file is not ready')")
    if is_html(data):
        return HTML
    if is_text(data):
        return TEX
    raise ExtractionError("the e-print is neither gzip, tar, TeX, HTML nor PDF (an error page?)")
