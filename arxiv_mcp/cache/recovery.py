"""Bringing the index back in line with the papers folder, whose files are the ground truth,
and checking that they agree (`problems`).

Runs under the cache lock when the previous holder died mid-update, the machine rebooted or
the index was damaged (store.py). A file the index names but the folder lacks is forgotten; a
whole file the index does not know is adopted, with its size and checksum, at the old end of
the eviction order; one that a newer file of the same tier superseded, or that does not
decode, or (a raw file) is not whole by its format (`check_whole`), is removed.
"""

from __future__ import annotations

import logging
from pathlib import Path

from ..errors import ExtractionError
from ..text.formats import TAR, check_pdf, content_type, eprint_type, is_html, is_tar
from .atomic import discard
from .files import (
    RAW_KINDS,
    FoundFile,
    decode_meta,
    decode_text,
    digest,
    scan_papers,
    title_of,
)
from .index import IndexState, JournaledIndex
from .records import Drop, Put, TierRecord

logger = logging.getLogger(__name__)


def reconcile(index: JournaledIndex, papers: Path) -> int:
    """Make the index agree with the files in `papers`; the number of files adopted."""
    index.needs_reconcile = False
    found = scan_papers(papers)
    known = set()
    for key, entry in list(index.state.entries.items()):
        for tier, info in list(entry.tiers.items()):
            name = info.file_name(key, tier)
            on_disk = found.get(name)
            if on_disk is None:
                logger.warning("cache index names %s but the file is gone; forgetting it", name)
                index.append(Drop(key, (tier,)))
            elif on_disk.size == info.size:
                known.add(name)
    # Newest first, each adopted at the old end of the eviction order: the oldest file ends first.
    unknown = sorted((f for n, f in found.items() if n not in known), key=lambda f: -f.mtime)
    return sum(_adopt(index, papers, found_file) for found_file in unknown)


def _adopt(index: JournaledIndex, papers: Path, found: FoundFile) -> bool:
    """Record a whole file the index does not know; False when it was superseded or unreadable."""
    key = (found.paper_id, found.version)
    path = papers / found.name
    entry = index.state.entries.get(key)
    current = entry.tiers.get(found.tier) if entry else None
    if current is not None and current.file_name(key, found.tier) != found.name:
        logger.info("removing %s: superseded by %s", found.name, current.file_name(key, found.tier))
        discard(path)
        return False
    try:
        data = path.read_bytes()
        op = _adoption(index.state, found, data)
    except FileNotFoundError:
        return False
    except ValueError as exc:
        logger.warning("removing unreadable cache file %s (%s)", path, exc)
        discard(path)
        if current is not None:
            index.append(Drop(key, (found.tier,)))
        return False
    logger.info("adopting %s into the cache index", found.name)
    index.append(op)
    return True


def _adoption(state: IndexState, found: FoundFile, data: bytes) -> Put:
    """The operation recording a found file at the old end of the eviction order; ValueError
    when it does not decode or (a raw file) is not whole."""
    key = (found.paper_id, found.version)
    size, checksum = len(data), digest(data)
    if found.tier in RAW_KINDS:
        check_whole(found.tier, data)
        record = TierRecord(size, checksum, name=found.name, content_type=content_type(data[:512]))
        return Put(key, found.tier, record, found.mtime, front=True)
    if found.tier == "meta":
        body = decode_meta(data, *key)
        mark = state.latest.get(key[0])
        latest_at = body["latest_at"]
        newer = latest_at is not None and (mark is None or mark[1] < latest_at)
        record = TierRecord(size, checksum, fetched_at=float(body["fetched_at"]))
        title = title_of(body["record"])
        return Put(key, "meta", record, found.mtime, title, float(latest_at) if newer else None, front=True)
    body = decode_text(data, *key)
    record = TierRecord(size, checksum, method=body["method"], extractor_version=body["extractor_version"])
    return Put(key, "text", record, found.mtime, title_of(body), front=True)


def check_whole(tier: str, data: bytes) -> None:
    """Raise ValueError unless a raw file is whole by its format: no checksum is known for a
    file the index lost, so a PDF cut short by a crash must not be adopted and served as good.
    A PDF must parse to its page tree; an e-print must be a whole gzip stream or tar archive
    (or a whole PDF, or non-empty TeX or HTML); the figures a whole tar; an HTML page must
    reach its closing tag."""
    try:
        if tier == "pdf":
            check_pdf(data)
        elif tier == "source":
            eprint_type(data)
        elif tier == "figures":
            if not is_tar(data[:512]) or eprint_type(data) != TAR:
                raise ExtractionError("not a whole tar archive of figures")
        elif not (is_html(data) and b"</html>" in data[-4096:].lower()):
            raise ExtractionError("not a whole HTML page (no closing </html>)")
    except ExtractionError as exc:
        raise ValueError(str(exc)) from None


def problems(state: IndexState, papers: Path) -> list[str]:
    """What is wrong between the index and the files: a file missing, of the wrong size or
    checksum, or not parsing (empty when they agree). It reads every file: a health check."""
    found = []
    for key, entry in state.entries.items():
        for tier, info in entry.tiers.items():
            path = papers / info.file_name(key, tier)
            try:
                data = path.read_bytes()
            except FileNotFoundError:
                found.append(f"{path.name}: indexed but missing")
                continue
            try:
                info.check(data)
            except ValueError as exc:
                found.append(f"{path.name}: {exc}")
            decoder = {"meta": decode_meta, "text": decode_text}.get(tier)
            try:
                if decoder is not None:
                    decoder(data, *key)
            except ValueError as exc:
                found.append(f"{path.name}: does not parse ({exc})")
    return found
