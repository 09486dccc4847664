"""Where the cache keeps each tier of a paper on disk, and how those files are read back.

Every file name is built from a strictly validated paper id and version, so nothing a caller
passes can name a path outside the cache folder. Files are self-describing (metadata and text
carry their id and provenance; raw files are recognised by their bytes), which lets the index
be rebuilt from the folder alone.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import ids
from ..text.formats import GZIP, HTML, PDF, TAR, TEX, content_type

TIERS = ("meta", "text", "pdf", "source", "html", "ar5iv", "figures")
RAW_KINDS = ("pdf", "source", "html", "ar5iv", "figures")
"""Raw files: the PDF, the e-print, and the HTML pages text was extracted from (kept so a
better extractor can re-make the text without a new request); `figures` is a tar of the
figure images fetched for a version (`figures.py`)."""
MAX_VERSION = ids.KEY_MAX_VERSION
MAX_TITLE_CHARS = 300
"""A title as the index keeps it (for list_cached), whitespace collapsed."""

_IDS = re.compile(f"(?:(?:{ids.NEW_STYLE}|{ids.OLD_STYLE})\n)*")  # one per line, for a batch
_FILE_NAME = re.compile(
    rf"(?P<stem>{ids.NEW_STYLE}|{ids.OLD_STYLE.replace('/', '_')})"  # an old id's slash is `_` in a name
    r"v(?P<version>[1-9]\d{0,3})\.(?P<tier>meta\.json|text\.json|pdf|html|ar5iv\.html|source(?:\.[a-z]+){0,2}|figures\.tar)"
)

_SOURCE_SUFFIXES = {GZIP: ".gz", TAR: ".tar", PDF: ".pdf", TEX: ".tex", HTML: ".html"}


def check_paper_id(paper_id: object) -> str:
    """Return `paper_id` if it is a normalised versionless arXiv id; raise ValueError otherwise.
    For what the cache reads from disk (names, index lines): callers pass ids.PaperId keys."""
    if not isinstance(paper_id, str) or not ids.NORMAL_ID.fullmatch(paper_id):
        raise ValueError(f"not a normalised versionless arXiv id: {paper_id!r}")
    return paper_id


def check_paper_ids(paper_ids: list[str]) -> None:
    """`check_paper_id` of many ids in one pass of the pattern (a snapshot's 10,000 at once)."""
    try:
        joined = "\n".join(paper_ids)
    except TypeError:
        raise ValueError("a paper id that is not a string") from None
    if paper_ids and (_IDS.fullmatch(joined + "\n") is None or joined.count("\n") != len(paper_ids) - 1):
        raise ValueError("not normalised versionless arXiv ids")


check_version = ids.check_version


def versioned_id(paper_id: str, version: int) -> str:
    return f"{paper_id}v{version}"


def _stem(paper_id: str, version: int) -> str:
    return f"{paper_id.replace('/', '_')}v{version}"


def file_name(paper_id: str, version: int, tier: str, head: bytes = b"") -> str:
    """The file holding `tier` of one paper version; a source file's suffix follows its bytes."""
    stem = _stem(paper_id, version)
    if tier in ("meta", "text"):
        return f"{stem}.{tier}.json"
    if tier in ("pdf", "html"):
        return f"{stem}.{tier}"
    if tier == "ar5iv":
        return f"{stem}.ar5iv.html"
    if tier == "figures":
        return f"{stem}.figures.tar"
    if tier == "source":
        return f"{stem}.source{_SOURCE_SUFFIXES.get(content_type(head), '')}"
    raise ValueError(f"unknown cache tier {tier!r}")


def digest(data: bytes) -> str:
    """The checksum the index keeps of every file, so a file that changed is not served."""
    return hashlib.sha256(data).hexdigest()


def title_of(record: dict[str, Any]) -> str | None:
    """The title a metadata record or a text file's body states, as the index keeps it."""
    return kept_title(record.get("title"))


def kept_title(title: object) -> str | None:
    return " ".join(title.split())[:MAX_TITLE_CHARS] if isinstance(title, str) else None


def heading_title(text: str) -> str | None:
    """The title a document's text opens with (`# Title`: HTML and LaTeX documents do; a
    PDF's does not), so a read that fetched no metadata still knows the paper's title."""
    first = text[: text.find("\n")] if "\n" in text else text
    return (first[2:].strip() or None) if first.startswith("# ") else None


@dataclass(frozen=True)
class FoundFile:
    """A file in the papers folder whose name the cache could have written."""

    name: str
    paper_id: str
    version: int
    tier: str
    size: int
    mtime: float


def parse_file_name(name: str) -> tuple[str, int, str] | None:
    match = _FILE_NAME.fullmatch(name)
    if not match:
        return None
    stem, tier = match["stem"], match["tier"]
    paper_id = stem.replace("_", "/", 1) if "_" in stem else stem
    tier = tier.split(".", 1)[0]
    try:
        return check_paper_id(paper_id), check_version(int(match["version"])), tier
    except ValueError:
        return None


def scan_papers(folder: Path) -> dict[str, FoundFile]:
    """Every regular file in `folder` named like a cache file, by name; anything else is left alone."""
    found: dict[str, FoundFile] = {}
    with os.scandir(folder) as entries:
        for entry in entries:
            parsed = parse_file_name(entry.name)
            if parsed is None or not entry.is_file(follow_symlinks=False):
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except FileNotFoundError:
                continue
            found[entry.name] = FoundFile(entry.name, *parsed, st.st_size, st.st_mtime)
    return found


def encode_meta(
    paper_id: str, version: int, record: dict[str, Any], fetched_at: float, latest_at: float | None
) -> bytes:
    body = {
        "paper_id": paper_id,
        "version": version,
        "fetched_at": fetched_at,
        "latest_at": latest_at,
        "record": record,
    }
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def encode_text(
    paper_id: str, version: int, text: str, method: str, extractor_version: int, title: str | None = None
) -> bytes:
    """A text file's bytes; `title` (when the text states one) kept too, so an index rebuilt
    from the files lists the paper by its title."""
    body: dict[str, Any] = {
        "paper_id": paper_id,
        "version": version,
        "method": method,
        "extractor_version": extractor_version,
        "text": text,
    }
    if title is not None:
        body["title"] = title
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def decode_meta(data: bytes, paper_id: str, version: int) -> dict[str, Any]:
    """Parse a metadata file; raise ValueError unless it is whole and belongs to this paper version."""
    body = _decode(data, paper_id, version)
    fetched_at, latest_at = body.get("fetched_at"), body.get("latest_at")
    if not isinstance(body.get("record"), dict) or not isinstance(fetched_at, (int, float)):
        raise ValueError("metadata file without a record or fetch time")
    if latest_at is not None and not isinstance(latest_at, (int, float)):
        raise ValueError("metadata file with a malformed latest time")
    return body


def decode_text(data: bytes, paper_id: str, version: int) -> dict[str, Any]:
    """Parse a text file; raise ValueError unless it is whole and belongs to this paper version."""
    body = _decode(data, paper_id, version)
    if not (
        isinstance(body.get("text"), str)
        and isinstance(body.get("method"), str)
        and type(body.get("extractor_version")) is int
    ):
        raise ValueError("text file without text, method or extractor version")
    return body


def _decode(data: bytes, paper_id: str, version: int) -> dict[str, Any]:
    body = json.loads(data)
    if not isinstance(body, dict) or body.get("paper_id") != paper_id or body.get("version") != version:
        raise ValueError("file does not belong to this paper version")
    return body
