"""arXiv identifiers: every form a user or a model may paste, reduced to one.

Accepted forms (all case-insensitive, surrounding whitespace ignored):
new ids `2401.12345`, `0704.0001` (+ `vN`); old ids `hep-th/9901001`, `math.GT/0309136`,
`solv-int/9901001v1`; an `arXiv:` prefix; arxiv.org / export.arxiv.org abs, pdf (with or
without `.pdf`) and html URLs; ar5iv URLs; the DOI `10.48550/arXiv.ID` bare, with `doi:`, or
as a doi.org URL. See https://info.arxiv.org/help/arxiv_identifier.html for the schemes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from .errors import InvalidInput

_NEW = re.compile(r"(?P<yymm>\d{4})\.(?P<num>\d{4,5})(?:v(?P<v>\d+))?")
_OLD = re.compile(r"(?P<archive>[a-z]+(?:-[a-z]+)?)(?:\.(?P<subj>[a-z][a-z-]+))?/(?P<num>\d{7})(?:v(?P<v>\d+))?")
_DOI = re.compile(r"(?:doi:\s*)?10\.48550/arxiv\.(?P<rest>.+)")
_URL_HOSTS = (
    "arxiv.org",
    "www.arxiv.org",
    "export.arxiv.org",
    "ar5iv.labs.arxiv.org",
    "ar5iv.org",
    "www.ar5iv.org",
    "doi.org",
    "dx.doi.org",
    "browse.arxiv.org",
)
_URL_PATH = re.compile(r"/(?:abs|pdf|html|format|e-print|src)/(?P<rest>.+?)(?:\.pdf)?/?$")

ACCEPTED_FORMS = (
    "2401.12345, 2401.12345v2, arXiv:2401.12345, hep-th/9901001, math.GT/0309136v1, "
    "https://arxiv.org/abs/2401.12345, https://arxiv.org/pdf/2401.12345v2(.pdf), "
    "https://arxiv.org/html/2401.12345, https://ar5iv.labs.arxiv.org/html/2401.12345, "
    "10.48550/arXiv.2401.12345"
)


@dataclass(frozen=True)
class PaperId:
    """A normalised arXiv id: `id` never carries the version; `version` is None for "latest"."""

    id: str
    version: int | None = None

    @property
    def old_style(self) -> bool:
        return "/" in self.id

    @property
    def versioned(self) -> str:
        """`2401.12345v2`, or the bare id when no version was asked for."""
        return f"{self.id}v{self.version}" if self.version else self.id

    @property
    def wire_id(self) -> str:
        """The form for the API's `id_list`: it rejects versioned old-style ids."""
        return self.id if self.old_style else self.versioned

    def with_version(self, version: int | None) -> PaperId:
        return PaperId(self.id, version)

    def __str__(self) -> str:
        return self.versioned


def _invalid(raw: str, why: str) -> InvalidInput:
    shown = raw if len(raw) <= 120 else raw[:117] + "..."
    return InvalidInput(f"{shown!r} is not an arXiv id: {why}. Accepted forms: {ACCEPTED_FORMS}.")


def _strip_wrapping(text: str) -> str:
    s = text.strip()
    low = s.lower()
    if low.startswith(("http://", "https://")) or low.startswith(_URL_HOSTS):
        if not low.startswith(("http://", "https://")):
            s = "https://" + s
        parts = urlsplit(s)
        host = (parts.hostname or "").lower()
        if host not in _URL_HOSTS:
            raise _invalid(text, f"{host or 'that host'} is not an arXiv address")
        path = unquote(parts.path)
        if host.endswith("doi.org"):
            return path.lstrip("/")
        m = _URL_PATH.search(path)
        if not m:
            raise _invalid(text, "the URL does not point at an abs, pdf or html page")
        return m.group("rest")
    if low.startswith("arxiv:"):
        return s[6:].strip()
    return s


def parse(text: str) -> PaperId:
    """Normalise any accepted form, or raise InvalidInput quoting the input."""
    if not isinstance(text, str) or not text.strip():
        raise _invalid(str(text), "it is empty")
    if any(ord(c) < 32 for c in text) or len(text) > 300:
        raise _invalid(text, "it contains control characters or is far too long")
    s = _strip_wrapping(text)
    doi = _DOI.fullmatch(s.lower())
    if doi:
        s = s[len(s) - len(doi.group("rest")) :]
    low = s.lower()
    m = _NEW.fullmatch(low)
    if m:
        # Digit counts and months are left to arXiv: it answers a well-formed unknown id
        # (0808.05394, 0000.0000) with no entry, which becomes "not found", not "malformed".
        return PaperId(f"{m.group('yymm')}.{m.group('num')}", _version(m.group("v"), text))
    m = _OLD.fullmatch(low)
    if m:
        archive, subj = m.group("archive"), m.group("subj")
        from .categories import is_legacy_archive, is_legacy_subject_class

        if not is_legacy_archive(archive):
            raise _invalid(text, f"{archive!r} is not an arXiv archive")
        if subj:
            subj = next((c for c in (subj.upper(), subj) if is_legacy_subject_class(archive, c)), None)
            if subj is None:
                raise _invalid(text, f"{m.group('subj')!r} is not a subject class of {archive}")
        name = f"{archive}.{subj}" if subj else archive
        return PaperId(f"{name}/{m.group('num')}", _version(m.group("v"), text))
    raise _invalid(text, "it matches neither YYMM.NNNNN(vN) nor archive/YYMMNNN(vN)")


def _version(raw: str | None, text: str) -> int | None:
    if raw is None:
        return None
    v = int(raw)
    if not 1 <= v <= 999:
        raise _invalid(text, "versions start at v1")
    return v


class Urls:
    """Builds upstream URLs from the configured bases (a mirror or the test fake)."""

    def __init__(self, site_url: str, ar5iv_url: str):
        self.site = site_url.rstrip("/")
        self.ar5iv_base = ar5iv_url.rstrip("/")

    def abs(self, pid: PaperId) -> str:
        return f"{self.site}/abs/{pid.versioned}"

    def pdf(self, pid: PaperId) -> str:
        return f"{self.site}/pdf/{pid.versioned}"

    def html(self, pid: PaperId) -> str:
        return f"{self.site}/html/{pid.versioned}"

    def source(self, pid: PaperId) -> str:
        return f"{self.site}/e-print/{pid.versioned}"

    def ar5iv(self, pid: PaperId) -> str:
        return f"{self.ar5iv_base}/html/{pid.versioned}"
