"""Full text of one paper version: which source to try, in what order, and what to remember.

Each upstream request costs three seconds of polite spacing, so the order is chosen per
paper to make the usual read cost one request:
- versions from December 2023 on: arXiv's own HTML (LaTeXML), then the LaTeX source, then
  the PDF. ar5iv is skipped: it runs the same converter later, so it fails where arXiv's
  HTML failed.
- older versions: ar5iv (only for the latest version: it renders one version per paper),
  then the LaTeX source, then arXiv's HTML (rare before 2024), then the PDF.
An e-print that turns out to be a PDF (PDF-only submissions) is read as the PDF, so the PDF
is never downloaded twice. What is known to be missing is remembered per version (and per
paper where it cannot change: arXiv never made HTML for versions before December 2023; ar5iv
has one rendering per paper), so the next read goes straight to the source that works.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass

from .. import budget
from ..cache.store import Cache
from ..errors import ExtractionError, NoTextLayer, NotFound
from ..ids import PaperId, Urls
from ..upstream.atom import Paper
from ..upstream.http import HttpClient
from ..upstream.rate_limiter import SingleFlight
from .extract import EXTRACTOR_VERSION, extract, looks_like_pdf

log = logging.getLogger(__name__)

HTML_ERA = "2023-12-01"
AR5IV_MISS_TTL_S = 30 * 86400
UNREADABLE_RECHECK_S = 7 * 86400
"""An HTML page that came back unreadable may have been a broken answer, not a stub."""
_FAILED = "failed_sources"
_NOT_A_PDF = "the answer was not a PDF"
"""Why a PDF is missing when arXiv sent something else (a "being generated" or error page):
worth trying again later, so it is not remembered as missing."""


@dataclass
class Text:
    text: str
    method: str
    """What produced the text this time: a source name, or "cache"."""
    source_method: str
    """The source the text was extracted from."""


@dataclass
class _Versions:
    """What the metadata says about a paper's versions, for source ordering."""

    latest: int | None
    published: str
    latest_updated: str

    def before_html_era(self, version: int) -> bool:
        if self.latest_updated and self.latest_updated < HTML_ERA:
            return True
        return version == 1 and bool(self.published) and self.published < HTML_ERA


class FullText:
    def __init__(self, http: HttpClient, cache: Cache, urls: Urls, flights: SingleFlight, pdf_engine: str = "auto"):
        self.http = http
        self.pdf_engine = pdf_engine
        self.cache = cache
        self.urls = urls
        self.flights = flights

    def get(self, pid: PaperId, latest: Paper | None, prefetched: dict | None = None) -> Text:
        """Text of `pid` (which carries a version). `latest` is the paper's latest metadata
        when known (it refines the source order); `prefetched` maps a source to the
        (body, why-missing) a probe already fetched, so it is not fetched again."""
        assert pid.version is not None
        hit = self.cached(pid)
        if hit:
            return hit
        return self.flights.do(("text", pid.id, pid.version), lambda: self._fetch(pid, latest, prefetched or {}))

    def probe_latest_html(self, pid: PaperId) -> tuple[int | None, tuple[bytes | None, str]]:
        """Fetch arXiv's HTML for a bare id and learn the version it shows, so a cold read
        of a recent paper costs one request instead of a metadata lookup plus the HTML."""
        raw, missing = self._download(pid, "html")
        if raw is None:
            return None, (raw, missing)
        pattern = re.compile(rb"/(?:html|abs|pdf)/" + re.escape(pid.id.encode()) + rb"v(\d{1,3})\b")
        versions = {int(m.group(1)) for m in pattern.finditer(raw[:200_000])}
        return (max(versions) if versions else None), (raw, missing)

    def html_era(self, pid: PaperId, latest: Paper | None) -> bool:
        return not self._versions(pid, latest).before_html_era(pid.version or 1)

    def cached(self, pid: PaperId) -> Text | None:
        cached = self.cache.get_text(pid.id, pid.version)
        if cached is None:
            return None
        if cached.extractor_version == EXTRACTOR_VERSION:
            return Text(cached.text, "cache", cached.method)
        raw = self.cache.get_raw(pid.id, pid.version, cached.method)
        if raw is None:
            return None
        try:
            text = extract(cached.method, raw.path.read_bytes(), budget.deadline(), self.pdf_engine)
        except (ExtractionError, OSError) as exc:
            log.info("re-extracting %s from its cached file failed: %s", pid, exc)
            return None
        self.cache.put_text(pid.id, pid.version, text, method=cached.method, extractor_version=EXTRACTOR_VERSION)
        return Text(text, "cache", cached.method)

    @staticmethod
    def _versions(pid: PaperId, latest: Paper | None) -> _Versions:
        if latest is not None:
            return _Versions(latest.version, latest.published, latest.updated)
        return _Versions(None, _id_date(pid), "")

    def order(self, pid: PaperId, latest: Paper | None) -> list[str]:
        info = self._versions(pid, latest)
        if info.before_html_era(pid.version):
            order = ["source", "html", "pdf"]
            if info.latest == pid.version:
                order.insert(0, "ar5iv")
        else:
            order = ["html", "source", "pdf"]
        failed = self.cache.get_note(pid.id, _FAILED) or {}
        return [m for m in order if not self._known_missing(m, pid.version, failed, info)]

    def _known_missing(self, method: str, version: int, failed: dict, info: _Versions) -> bool:
        entry = failed.get(f"{method}:v{version}")
        if entry is not None and entry.get("until", float("inf")) > time.time():
            return True
        if method == "ar5iv":
            entry = failed.get("ar5iv:paper", {})
            now = time.time()
            return now - entry.get("at", 0) < AR5IV_MISS_TTL_S and entry.get("until", now + 1) > now
        if method == "html" and info.before_html_era(version):
            return any(
                k.startswith("html:v") and "until" not in v and info.before_html_era(int(k[6:]))
                for k, v in failed.items()
            )
        return False

    def _remember_missing(self, pid: PaperId, method: str, reason: str, for_s: float | None = None) -> None:
        """Note that `method` has nothing for this version (for `for_s` seconds, or for good)."""
        failed = dict(self.cache.get_note(pid.id, _FAILED) or {})
        entry = {"reason": reason[:200], "at": time.time()}
        if for_s is not None:
            entry["until"] = entry["at"] + for_s
        failed["ar5iv:paper" if method == "ar5iv" else f"{method}:v{pid.version}"] = entry
        self.cache.put_note(pid.id, _FAILED, failed)

    def _fetch(self, pid: PaperId, latest: Paper | None, prefetched: dict) -> Text:
        hit = self.cached(pid)  # another caller may have finished it meanwhile
        if hit:
            return hit
        order = self.order(pid, latest)
        tried: list[str] = []
        no_text: NoTextLayer | None = None
        for i, method in enumerate(order):
            budget.report(f"fetching {pid} ({method})", i, len(order))
            raw, missing = prefetched.pop(method) if method in prefetched else self._download(pid, method)
            if raw is None:
                if missing != _NOT_A_PDF:
                    self._remember_missing(pid, method, missing)
                tried.append(f"{method}: {missing}")
                continue
            used = "pdf" if method == "source" and looks_like_pdf(raw) else method
            budget.report(f"extracting {pid} ({used})", i + 0.5, len(order))
            try:
                text = extract(used, raw, budget.deadline(), self.pdf_engine)
            except NoTextLayer as exc:
                no_text = exc
                self._remember_missing(pid, method, str(exc))
                tried.append(f"{method}: {exc}")
                continue
            except ExtractionError as exc:
                if method in ("html", "ar5iv"):  # a stub page, or a broken one: look again next week
                    self._remember_missing(pid, method, str(exc), UNREADABLE_RECHECK_S)
                tried.append(f"{method}: {exc}")
                continue
            self.cache.put_raw(
                pid.id, pid.version, used, raw, "application/pdf" if used == "pdf" else _content_type(method)
            )
            self.cache.put_text(pid.id, pid.version, text, method=used, extractor_version=EXTRACTOR_VERSION)
            budget.report(f"read {pid}", len(order), len(order))
            return Text(text, used, used)
        if no_text is not None:
            raise NoTextLayer(
                f"{pid}: {no_text} Other sources: {'; '.join(tried) or 'none left'}. "
                "Use download_paper to get the PDF file itself."
            )
        versions = self.cache.versions(pid.id)
        raise NotFound(
            f"No full text could be obtained for {pid}: "
            f"{'; '.join(tried) or 'every source is known to be missing'}. "
            f"Try another version (cached: {', '.join(f'v{v}' for v in versions) or 'none'}) "
            "or use get_paper for the abstract."
        )

    def _download(self, pid: PaperId, method: str) -> tuple[bytes | None, str]:
        """The raw body of `method` for `pid`, or None and why it is missing."""
        url = {"html": self.urls.html, "ar5iv": self.urls.ar5iv, "source": self.urls.source, "pdf": self.urls.pdf}[
            method
        ](pid)
        resp = self.http.get(url, follow_redirects=method != "ar5iv")
        if 300 <= resp.status < 400:
            return None, "no rendering (redirected)"
        if resp.status != 200:
            return None, f"HTTP {resp.status}"
        if method == "pdf" and not looks_like_pdf(resp.content):
            return None, _NOT_A_PDF
        return resp.content, ""


def _id_date(pid: PaperId) -> str:
    """The month an id was assigned, as an ISO date prefix: a lower bound of any version's date."""
    number = pid.id.split("/")[-1]
    yy, mm = int(number[:2]), number[2:4]
    century = "19" if pid.old_style and yy >= 91 else "20"
    return f"{century}{yy:02d}-{mm}-01"


def _content_type(method: str) -> str:
    return {"html": "text/html", "ar5iv": "text/html", "source": "application/gzip"}.get(
        method, "application/octet-stream"
    )
