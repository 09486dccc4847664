"""arXiv identifiers: every form a user or a model may paste, reduced to one.

Accepted forms (all case-insensitive): new ids `2401.12345`, `0704.0001` (+ `vN`); old ids
`hep-th/9901001`, `solv-int/9901001v1`, and with a subject class, `math.GT/0309136`, which
names the paper `math/0309136` (the class is not part of the id: arXiv's API answers with
the archive alone); an `arXiv:` prefix; arxiv.org / export.arxiv.org abs, pdf (with or
without `.pdf`) and html URLs; ar5iv URLs; the DOI `10.48550/arXiv.ID` bare, with `doi:`,
or as a doi.org URL; the paper pages of other sites that carry the id in their URL
(huggingface.co/papers/ID, alphaxiv.org/abs/ID and /overview/ID, semanticscholar.org/arxiv/ID,
paperswithcode.com and scholar.archive.org pages or links naming an arXiv id or URL). See
https://info.arxiv.org/help/arxiv_identifier.html for the schemes.

Ids arrive as pasted from papers and chats, so the wrapping around them is peeled off:
surrounding whitespace, brackets and quotes, trailing citation punctuation, arXiv's own
citation form `arXiv:2401.12345 [cs.LG]`, its stamp with a date (`arXiv:2301.11163v1 [cs.LG]
26 Jan 2023`), `arXiv preprint arXiv:...`, `arXiv 2401.12345`, and a Markdown link
`[arXiv:2503.04338](https://arxiv.org/abs/2503.04338)` (its target, else its text).
Text is NFKC-folded (full-width digits become ASCII); any other non-ASCII character is
refused, so nothing but ASCII is ever sent upstream. Ids that cannot exist (month 00 or 13,
an old-style id dated after March 2007 or before August 1991, a new-style id before April
2007, `v0`) are refused here, without a request; digit counts are left to arXiv, which
answers a well-formed unknown id (0808.05394) with no entry.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from .bounds import MAX_VERSION
from .errors import InvalidInput

NEW_STYLE = r"[0-9]{4}\.[0-9]{4,5}"
"""A new-style id without its version, as a pattern: `2401.12345`."""
OLD_STYLE = r"[a-z]+(?:-[a-z]+)?(?:\.[A-Za-z][A-Za-z-]*)?/[0-9]{7}"
"""An old-style id without its version: archive, optional subject class, slash, YYMMNNN
(`hep-th/9901001`, `math.GT/0309136`). Match text with re.IGNORECASE where case may vary."""
VERSION = r"(?:v[0-9]+)?"
"""An id's optional version suffix, as a pattern."""
# The parser's forms of the same grammar, with the parts named (matched on folded text).
_NEW = re.compile(r"(?P<yymm>[0-9]{4})\.(?P<num>[0-9]{4,5})(?:v(?P<v>[0-9]+))?")
_OLD = re.compile(r"(?P<archive>[a-z]+(?:-[a-z]+)?)(?:\.(?P<subj>[a-z][a-z-]+))?/(?P<num>[0-9]{7})(?:v(?P<v>[0-9]+))?")
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
_MIRROR_HOSTS = (
    "huggingface.co",
    "alphaxiv.org",
    "semanticscholar.org",
    "paperswithcode.com",
    "scholar.archive.org",
    "web.archive.org",
)
"""Sites whose paper pages carry the arXiv id somewhere in the URL (any subdomain, www.)."""
_EMBEDDED = re.compile(
    rf"(?<![0-9a-z.])(?P<id>{NEW_STYLE}{VERSION}|{OLD_STYLE}{VERSION})(?![0-9])",
    re.I,
)
_MARKDOWN_LINK = re.compile(r"\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]*)\)")
_STAMP_DATE = re.compile(r"\s+[0-9]{1,2}\s+[a-z]{3,9}\.?\s+[0-9]{4}$", re.I)
"""The date arXiv's margin stamp ends with: `arXiv:2301.11163v1 [cs.LG] 26 Jan 2023`."""
_URL_PATH = re.compile(r"/(?:abs|pdf|html|format|e-print|src)/(?P<rest>.+?)(?:\.pdf)?/?$", re.I)
_OPENERS = "([{<\"'`\u201c\u2018\u00ab"
_CLOSERS = ")]}>\"'`\u201d\u2019\u00bb"
_STOPS = ".,;:!?"
_CITATION_CLASS = re.compile(r"\s*\[[a-z-]+(?:\.[a-z-]+)?\]$", re.I)
"""arXiv's own citation form ends with the primary category: `arXiv:2401.12345 [cs.LG]`."""
_PREFIX = re.compile(r"^(?:arxiv\s+preprint\s+)?(?:arxiv\s*:\s*|arxiv\s+(?=[0-9a-z]))", re.I)
FIRST_NEW_YYMM = 704
"""New-style ids began in April 2007 (0704.0001); old-style ids ran from 9108 to 0703."""

ACCEPTED_FORMS = (
    "2401.12345, 2401.12345v2, arXiv:2401.12345, hep-th/9901001, math.GT/0309136v1, "
    "https://arxiv.org/abs/2401.12345, https://arxiv.org/pdf/2401.12345v2(.pdf), "
    "https://arxiv.org/html/2401.12345, https://ar5iv.labs.arxiv.org/html/2401.12345, "
    "10.48550/arXiv.2401.12345, https://huggingface.co/papers/2401.12345"
)


NORMAL_ID = re.compile(f"{NEW_STYLE}|{OLD_STYLE}")
"""An id as `parse` writes it (lower case, no version): the only form a PaperId holds."""
KEY_MAX_VERSION = 9999
"""The highest version a PaperId may carry (four digits, as the cache's file names allow);
`parse` refuses anything past bounds.MAX_VERSION, far below."""


@dataclass(frozen=True)
class PaperId:
    """A normalised arXiv id: `id` never carries the version; `version` is None for "latest".

    It is the validated key every lower layer takes (the cache names its files after it): a
    PaperId is checked once, when made, so whoever holds one holds a valid id and version.
    `parse` and `with_version` make theirs without the check, from parts already checked."""

    id: str
    version: int | None = None

    def __post_init__(self) -> None:
        check_key(self.id, self.version)

    @classmethod
    def _checked(cls, paper_id: str, version: int | None) -> PaperId:
        """A PaperId of parts its maker has checked already (no second check)."""
        made = object.__new__(cls)
        made.__dict__.update(id=paper_id, version=version)
        return made

    @property
    def old_style(self) -> bool:
        return "/" in self.id

    @property
    def versioned(self) -> str:
        """`2401.12345v2`, or the bare id when no version was asked for."""
        return f"{self.id}v{self.version}" if self.version else self.id

    @property
    def wire_id(self) -> str:
        """The form for the API's `id_list`: the current API answers a versioned id, old-style
        included (`hep-ex/0406020v1`), with that version's entry."""
        return self.versioned

    def with_version(self, version: int | None) -> PaperId:
        """The same paper at `version` (None: its latest); only the version is checked."""
        return PaperId._checked(self.id, None if version is None else check_version(version))

    def __str__(self) -> str:
        return self.versioned


def check_key(paper_id: object, version: object) -> None:
    """Raise ValueError unless `paper_id` is a normalised versionless id and `version` None or
    a version number: what a PaperId made from outside `parse` must hold."""
    if type(paper_id) is not str or NORMAL_ID.fullmatch(paper_id) is None:
        raise ValueError(f"not a normalised versionless arXiv id: {paper_id!r}")
    if version is not None:
        check_version(version)


def check_version(version: object) -> int:
    """`version` if it is a version number a PaperId may carry; ValueError otherwise."""
    if type(version) is not int or not 1 <= version <= KEY_MAX_VERSION:
        raise ValueError(f"not an arXiv version number (1..{KEY_MAX_VERSION}): {version!r}")
    return version


class BadId(InvalidInput):
    """A malformed id; `short` is the one line a batch lists it with (input and reason)."""

    def __init__(self, raw: str, why: str):
        shown = raw if len(raw) <= 120 else raw[:117] + "..."
        self.short = f"{shown!r}: {why}"
        super().__init__(f"{shown!r} is not an arXiv id: {why}. Accepted forms: {ACCEPTED_FORMS}.")


def _invalid(raw: str, why: str) -> BadId:
    return BadId(raw, why)


def parse_many(texts: list[str]) -> tuple[list[PaperId], list[str]]:
    """The distinct ids among `texts`, in order, and a one-line reason for each malformed one:
    one bad id in a batch is listed, never the reason the rest go unanswered. When none is
    valid, the first one's full error is raised (there is nothing to answer)."""
    good: list[PaperId] = []
    bad: list[BadId] = []
    for text in texts:
        try:
            good.append(parse(text))
        except BadId as exc:
            bad.append(exc)
    if bad and not good:
        raise bad[0]
    return list(dict.fromkeys(good)), list(dict.fromkeys(b.short for b in bad))


def _markdown_link(s: str) -> str:
    """The target of a Markdown link when it names a paper, else its text (a link to a page
    without an id, with `arXiv:ID` as its text)."""
    m = _MARKDOWN_LINK.fullmatch(s.rstrip(_STOPS))
    if not m:
        return s
    for part in (m.group("target"), m.group("text")):
        try:
            return str(parse(part))
        except InvalidInput:
            continue
    return m.group("target")


def _unwrap(text: str) -> str:
    """Peel what pasting leaves around an id: brackets, quotes, trailing punctuation, the
    `arXiv:`/`arXiv preprint`/`arXiv ` prefixes and the `[cs.LG]` class suffix, repeatedly,
    since they nest (`("arXiv:2401.12345 [cs.LG]").`)."""
    s = text.strip()
    while True:
        before = s
        s = s.rstrip(_STOPS).rstrip()
        s = _CITATION_CLASS.sub("", _STAMP_DATE.sub("", s)).strip()
        if s[-1:] in _CLOSERS:  # one at a time: a `[cs.LG]` inside must be seen whole first
            s = s[:-1].rstrip()
        if len(s) > 1 and s[0] in _OPENERS:
            s = s[1:].lstrip()
        s = _PREFIX.sub("", s).strip()
        if s == before or not s:
            return s


def _strip_url(text: str, s: str) -> str:
    low = s.lower()
    bare_hosts = _URL_HOSTS + _MIRROR_HOSTS + tuple("www." + m for m in _MIRROR_HOSTS)
    if not (low.startswith(("http://", "https://")) or low.startswith(bare_hosts)):
        return s
    if not low.startswith(("http://", "https://")):
        s = "https://" + s
    parts = urlsplit(s)
    host = (parts.hostname or "").lower().rstrip(".")
    mirror = next((m for m in _MIRROR_HOSTS if host == m or host.endswith("." + m)), None)
    if mirror:
        return _embedded(text, unquote(s[len(parts.scheme) + 3 + len(parts.netloc) :]), mirror)
    if host not in _URL_HOSTS:
        raise _invalid(text, f"{host or 'that host'} is not an arXiv address")
    path = unquote(parts.path)
    if host.endswith("doi.org"):
        return path.lstrip("/")
    m = _URL_PATH.search(path)
    if not m:
        raise _invalid(text, "the URL does not point at an abs, pdf or html page")
    return m.group("rest")


def _embedded(text: str, rest: str, host: str) -> str:
    """The arXiv id in the path or query of another site's paper page (its last one: a
    web.archive.org link carries a timestamp, then the arXiv URL)."""
    found = [m.group("id") for m in _EMBEDDED.finditer(rest)]
    if not found:
        raise _invalid(text, f"this {host} address carries no arXiv id; paste the paper's arxiv.org link or id")
    return found[-1]


def _ascii(text: str, s: str) -> str:
    """`s` (already NFKC-folded, so full-width forms are ASCII) if it is all ASCII: what is
    still not (Arabic-Indic digits, letters of other scripts) cannot be part of an arXiv id."""
    odd = next((c for c in s if not c.isascii()), None)
    if odd is not None:
        raise _invalid(text, f"it contains {odd!r} (U+{ord(odd):04X}); arXiv ids use ASCII digits and letters only")
    return s


def parse(text: str) -> PaperId:
    """Normalise any accepted form, or raise InvalidInput quoting the input."""
    if not isinstance(text, str) or not text.strip():
        raise _invalid(str(text), "it is empty")
    if len(text) > 300:
        raise _invalid(text, "it is far too long")
    s = " ".join(text.split())  # newlines and tabs from pasting are whitespace, nothing more
    if any(ord(c) < 32 or ord(c) == 127 for c in s):
        raise _invalid(text, "it contains control characters")
    # Zero-width spaces, byte-order marks, word joiners and soft hyphens ride along with ids
    # copied from web pages and PDFs; invisible, the model could not see what to remove.
    s = "".join(c for c in s if unicodedata.category(c) != "Cf")
    s = _markdown_link(unicodedata.normalize("NFKC", s))
    s = _ascii(text, _unwrap(_strip_url(text, _unwrap(s))))
    doi = _DOI.fullmatch(s.lower())
    if doi:
        s = s[len(s) - len(doi.group("rest")) :]
    low = s.lower()
    m = _NEW.fullmatch(low)
    if m:
        _check_yymm(text, m.group("yymm"), new_style=True)
        return PaperId._checked(f"{m.group('yymm')}.{m.group('num')}", _version(m.group("v"), text))
    m = _OLD.fullmatch(low)
    if m:
        return _old_style(text, m)
    raise _invalid(text, "it matches neither YYMM.NNNNN(vN) nor archive/YYMMNNN(vN)")


def _old_style(text: str, m: re.Match[str]) -> PaperId:
    """`archive/YYMMNNN`; a subject class (`math.GT/...`) is checked, then dropped: it is not
    part of the id, and arXiv answers under the archive alone."""
    from .categories import is_legacy_archive, is_legacy_subject_class

    archive, subj = m.group("archive"), m.group("subj")
    if not is_legacy_archive(archive):
        raise _invalid(text, f"{archive!r} is not an arXiv archive")
    if subj and not any(is_legacy_subject_class(archive, c) for c in (subj.upper(), subj)):
        raise _invalid(text, f"{m.group('subj')!r} is not a subject class of {archive}")
    _check_yymm(text, m.group("num")[:4], new_style=False)
    return PaperId._checked(f"{archive}/{m.group('num')}", _version(m.group("v"), text))


def _check_yymm(text: str, yymm: str, *, new_style: bool) -> None:
    month, stamp = int(yymm[2:]), int(yymm)
    if not 1 <= month <= 12:
        raise _invalid(text, f"{yymm} is not a year and month (YYMM): month {yymm[2:]} does not exist")
    if new_style and stamp < FIRST_NEW_YYMM:
        raise _invalid(text, f"new-style ids began in April 2007 (0704); {yymm} is older, use archive/YYMMNNN")
    if not new_style and FIRST_NEW_YYMM <= stamp < 9108:
        raise _invalid(text, f"old-style ids ran from 9108 to 0703; {yymm} is outside, use YYMM.NNNNN")


FIVE_DIGITS_FROM = 1501
"""New-style ids have four digits after the dot until December 2014 and five from January 2015."""


def digit_count_problem(pid: PaperId) -> str | None:
    """Why a parsed new-style id cannot exist by its digit count, or None. Kept apart from
    `parse`, which leaves digit counts to arXiv (a lookup answers them): a citation checker
    says so without a request."""
    if pid.old_style:
        return None
    yymm, num = pid.id.split(".")
    want = 5 if int(yymm) >= FIVE_DIGITS_FROM else 4
    if len(num) == want:
        return None
    since = "from 2015 on" if want == 5 else "before 2015"
    return f"ids {since} have {want} digits after the dot; {pid.id} has {len(num)}"


def _version(raw: str | None, text: str) -> int | None:
    if raw is None:
        return None
    v = int(raw)
    if not 1 <= v <= MAX_VERSION:
        raise _invalid(text, "versions start at v1" if v == 0 else f"v{v} is not a plausible version")
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
