"""Failures a model can act on.

Every module raises these (never a bare Exception) for anything caused by input or
by upstream; `server.py` turns them into tool errors whose text is shown to the model.
Anything else is a bug: logged to stderr, never shown as a traceback.
"""


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
