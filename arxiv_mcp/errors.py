"""Failures a model can act on.

Every module raises these (never a bare Exception) for anything caused by input or
by upstream; `server.py` turns them into tool errors whose text is shown to the model.
Anything else is a bug: logged to stderr, never shown as a traceback.
"""

import re

MAX_MESSAGE_BYTES = 1000
"""An error a model reads is one line of at most this many bytes (UTF-8)."""
_QUOTED_LONG = re.compile(r"""(?<![^\s(\[{=:,])(['"])(?=\S)(?:(?!\1)[^\n]){121,}(?<=\S)\1(?![^\s)\]}.,;:!?])""")
"""A quoted value (an echoed argument, a URL) longer than anyone reads: a quote that opens
after a space or bracket and closes before one, so an apostrophe (`paper's`) or a quote that
closes one value and the next that opens another never pair up across the sentence between."""
_KEEP_HEAD, _KEEP_TAIL = 560, 400
"""What is kept of a message still too long: its start (what failed) and its end (the advice)."""


def concise(message: str) -> str:
    """`message` as the model should read it: every quoted value over 120 characters shortened
    to its first 80 with its length, then, if still over MAX_MESSAGE_BYTES, its middle left
    out. Every error passes through here (server.py), so no argument a caller sent, however
    long, is echoed whole, whichever module quoted it."""
    text = _QUOTED_LONG.sub(_shortened, message)
    data = text.encode("utf-8")
    if len(data) <= MAX_MESSAGE_BYTES:
        return text
    head = data[:_KEEP_HEAD].decode("utf-8", "ignore")
    tail = data[-_KEEP_TAIL:].decode("utf-8", "ignore")
    return f"{head} … [{len(data) - _KEEP_HEAD - _KEEP_TAIL:,} bytes left out] … {tail}"


def _shortened(match: re.Match[str]) -> str:
    quoted = match.group()
    return f"{quoted[:81]}…{quoted[0]} ({len(quoted) - 2:,} characters)"


class ArxivMcpError(Exception):
    """Base: the message says what went wrong and what to do next."""


class InvalidInput(ArxivMcpError):
    """An argument the model can correct (malformed id, bad date, page out of range)."""


class NotFound(ArxivMcpError):
    """The thing asked for does not exist upstream (unknown paper, missing version)."""


class UpstreamError(ArxivMcpError):
    """arXiv or Semantic Scholar failed after retries, or answered with garbage."""

    def __init__(self, message: str, status: int | None = None, retry_after_seconds: float | None = None):
        super().__init__(message)
        self.status = status
        self.retry_after_seconds = retry_after_seconds


class Throttled(UpstreamError):
    """Upstream keeps throttling us (429/503/406/'Rate exceeded.'); wait and retry."""


class Unreachable(UpstreamError):
    """Upstream cannot be reached at all (offline, DNS, refused connections)."""


class OutOfTime(UpstreamError):
    """The call used up its time budget (ARXIV_MCP_DEADLINE_S) before its work was done.

    Not an ExtractionError: running out of time says nothing about the source, so no
    fallback source is tried and nothing is remembered as missing."""


class Cancelled(ArxivMcpError):
    """The client cancelled the call or went away: the work stops; nobody reads the answer."""


class ExtractionError(ArxivMcpError):
    """A full-text source is unusable for this paper (stub page, corrupt file); try the next."""


class NoTextLayer(ExtractionError):
    """A PDF whose pages carry no extractable text (scanned images)."""


class UnsafeArchive(ExtractionError):
    """A source archive with traversal, links, devices or a decompression bomb."""
