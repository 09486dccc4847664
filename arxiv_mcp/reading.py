"""What a read means: which version a bare id reads, and which source serves it, decided once.

A read goes one way: the version first, then the sources in order, then the cache. Each
upstream request costs three seconds of polite spacing, so both choices are made to make
the usual read cost one request:
- a bare id reads the latest version: from fresh metadata, else from the version a recent
  read found; for a recent paper with nothing known, arXiv's HTML page itself is fetched and
  tells the version it shows (one request instead of a metadata lookup plus the HTML).
- a versioned id needs no metadata when its version is 1 or known to exist; a higher
  version nothing vouches for is checked against the metadata first, so a version that
  does not exist costs one request and gets a precise answer.
- versions from December 2023 on: arXiv's own HTML (LaTeXML), then the LaTeX source, then
  the PDF. ar5iv is skipped: it runs the same converter later, so it fails where arXiv's
  HTML failed.
- older versions: ar5iv (only for the latest version: it renders one version per paper),
  then the LaTeX source, then arXiv's HTML (rare before 2024), then the PDF.
An e-print that turns out to be a PDF (PDF-only submissions) is read as the PDF, so the PDF
is never downloaded twice. What is known to be missing is remembered per version (and per
paper where it cannot change: arXiv never made HTML for versions before December 2023; ar5iv
has one rendering per paper), so the next read goes straight to the source that works.
PDFs and e-prints are fetched by `raw`, the one downloader `download_paper` uses too, so
the same bytes are checked, stored and labelled the same way whichever tool came first.
"""

from __future__ import annotations

import json
import logging
import math
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import budget, source_misses
from .cache.disk import CacheWriteFailed
from .cache.files import heading_title
from .cache.paper import PaperRecord
from .cache.store import Cache, CachedRaw, CacheFull
from .cache.warm import TextOrigin
from .catalog import Catalog, not_found
from .errors import ExtractionError, NoTextLayer, NotFound, UpstreamError
from .ids import PaperId, Urls
from .source_misses import SourceMiss
from .text import formats
from .text.document import DAMAGED, STAMP, Document
from .text.document import FORMAT as DOCUMENT_FORMAT
from .text.extract import EXTRACTOR_VERSION, TextSource, extract
from .upstream.atom import Paper
from .upstream.http import HttpClient
from .upstream.rate_limiter import SingleFlight

log = logging.getLogger(__name__)

Prefetched = dict[TextSource, tuple[bytes | None, str]]
"""Bodies already fetched for this read (the HTML probed beside the metadata), by source."""


class _Refused(UpstreamError):
    """arXiv answered, with a status that is not the file (403, 410, ...)."""


class _Unusable(UpstreamError):
    """arXiv answered 200 with a body that is not a whole file of the kind asked for; `damaged`:
    a PDF whose page tree cannot be read (cut short), never kept but read for this answer."""

    def __init__(self, message: str, damaged: bytes | None = None):
        super().__init__(message)
        self.damaged = damaged


class _Unstored(Exception):
    """A checked download the cache could not keep (disk full, a size limit): its bytes and why."""

    def __init__(self, cause: CacheWriteFailed, data: bytes):
        super().__init__(str(cause))
        self.cause, self.data = cause, data


HTML_ERA = "2023-12-01"
AR5IV_MISS_TTL_S = 30 * 86400
UNREADABLE_RECHECK_S = 7 * 86400
"""An HTML page that came back unreadable may have been a broken answer, not a stub."""
LATEST_SEEN = "latest_seen"
"""Note of the version a bare-id read found to be the latest, and when (expires like metadata)."""
_NOT_YET = "not usable yet"
"""Why a PDF or e-print is missing when arXiv sent something unusable (a "being generated"
page, a cut body): worth trying again later, so it is not remembered as missing."""


_NOTES_KEY = ',"notes":'
"""How Document.to_json writes the key of its last member (compact separators)."""


class Text:
    """A read paper version: its text at once, its document (blocks and records) when a view
    asks for it. A cached document's records are built only then, so a page read costs what
    reading the text costs."""

    def __init__(
        self, doc: Document | str, method: str, source: TextSource, note: str | None = None, text: str | None = None
    ):
        self._doc = doc if isinstance(doc, Document) else None
        self._doc_lock = threading.Lock()
        self._payload = doc if isinstance(doc, str) else None
        self._parsed: dict[str, Any] | None = None
        """The payload as `cached` parsed it, so the records are built without parsing it again."""
        self.text = doc.text if isinstance(doc, Document) else (text or "")
        self.method = method
        """What produced the text this time: a source name, or "cache"."""
        self.source = source
        """The source the document was extracted from."""
        self.note = note
        """Set when the text could not be cached (the disk refused it): the next read fetches again."""
        self.origin: TextOrigin | None = None
        self.until: float | None = None
        """For a text read from the cache as it is (no request, nothing written): the file it
        was decoded from, and until when the same read would choose this version and file
        (the metadata of a bare id's latest version expires); else None (cache/warm.py)."""

    @classmethod
    def cached(cls, payload: str, source: TextSource, origin: TextOrigin | None = None) -> Text:
        """A cached document's JSON form; ValueError when it is not one (re-make it then)."""
        text, raw = _text_of(payload)
        cached = cls(payload, "cache", source, text=text)
        cached._parsed = raw
        cached.origin, cached.until = origin, math.inf
        return cached

    def expiring(self, until: float | None) -> Text:
        """This text, its read's choices holding only until `until` (None: not at all)."""
        self.until = None if until is None or self.until is None else min(self.until, until)
        return self

    @property
    def damage(self) -> str | None:
        """The document's note that its PDF was damaged."""
        return self._note(DAMAGED)

    @property
    def stamp(self) -> str | None:
        """arXiv's side stamp of the PDF the text was read from, which the text leaves out."""
        return self._note(STAMP)

    def _note(self, key: str) -> str | None:
        """One of the document's notes, read without building the document: a cached
        document's JSON ends with its notes (Document.to_json writes them last), so the last
        `,"notes":` is theirs. The text cannot fake it: in JSON every quote inside a string is
        escaped, so `"notes":` occurs only as a key. rfind scans from the end: it costs the
        length of the notes, not of the text."""
        if self._doc is not None or self._parsed is not None:
            notes = self._doc.notes if self._doc is not None else (self._parsed or {}).get("notes")
        else:
            payload = self._payload or ""
            at = payload.rfind(_NOTES_KEY)
            try:
                notes = json.loads(payload[at + len(_NOTES_KEY) : -1]) if at >= 0 else None
            except json.JSONDecodeError:
                notes = None
        note = notes.get(key) if isinstance(notes, dict) else None
        return note if isinstance(note, str) and note else None

    def document_or_json(self) -> Document | dict[str, Any]:
        """The document if it is built (by this text, or from the same payload by another),
        else the cached document's JSON as parsed: a reader of a few kinds of blocks reads
        them there, and builds none of the others."""
        with self._doc_lock:
            if self._doc is not None:
                return self._doc
            built = _PARSED.get(self._payload or "")
            if isinstance(built, Document):
                return built
            return self._parsed if self._parsed is not None else self._built()

    @property
    def doc(self) -> Document:
        with self._doc_lock:  # a text read from memory is shared by calls in several threads
            return self._built()

    def _built(self) -> Document:
        """The document, built now if need be (the caller holds the lock)."""
        if self._doc is None:
            self._doc = _parsed(self._payload or "", self._parsed, self.text)
            self._payload = self._parsed = None
        return self._doc


class _ByPayload:
    """What was built from the cached payloads read last, the most recent few. A payload is
    looked up by its hash (a str keeps it: the same string costs nothing the second time) and
    must be equal to the one kept, so a document re-made on disk (by this or another process)
    is never served from here."""

    def __init__(self, kept: int = 8) -> None:
        self._kept = kept
        self._items: OrderedDict[int, tuple[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, payload: str) -> Any | None:
        with self._lock:
            kept = self._items.get(hash(payload))
            if kept is None or kept[0] != payload:
                return None
            self._items.move_to_end(hash(payload))
            return kept[1]

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def put(self, payload: str, value: Any) -> None:
        with self._lock:
            self._items[hash(payload)] = (payload, value)
            while len(self._items) > self._kept:
                self._items.popitem(last=False)


_PARSED = _ByPayload()
"""Documents built from cached payloads: a paper being read is asked for view after view, and
building its records costs several times reading its text."""
_TEXTS = _ByPayload()
"""The parse of cached payloads (their text, and their blocks for the records): a warm page
read gets the very string the cache read last (cache/readmemo.py), so it finds its text here
instead of parsing the whole document again; two versions with the same document (a comparison
of a version re-uploaded unchanged) parse it once."""


def _text_of(payload: str) -> tuple[str, dict[str, Any]]:
    """The payload's text, and its parse (for the records, see `doc`)."""
    raw = _TEXTS.get(payload)
    if isinstance(raw, dict):
        return str(raw["text"]), raw
    try:
        raw = json.loads(payload)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not a cached document: {exc}") from exc
    if not isinstance(raw, dict) or raw.get("format") != DOCUMENT_FORMAT or not isinstance(raw.get("text"), str):
        raise ValueError("not a cached document of this format")
    _TEXTS.put(payload, raw)
    return str(raw["text"]), raw


def _parsed(payload: str, parsed: dict[str, Any] | None, text: str) -> Document:
    doc = _PARSED.get(payload)
    if isinstance(doc, Document):
        return doc
    try:
        doc = Document.from_json(payload) if parsed is None else Document.from_parsed(parsed)
    except ValueError as exc:  # the text was whole, its blocks are not: headings still work
        log.warning("the cached blocks of a document are unreadable (%s): read as plain text", exc)
        return Document.from_text(text)
    _PARSED.put(payload, doc)
    return doc


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


@dataclass
class Reader:
    """Reads paper text: the version, the source order, the downloads and what to remember."""

    http: HttpClient
    cache: Cache
    catalog: Catalog
    urls: Urls
    flights: SingleFlight
    meta_ttl_s: float
    pdf_engine: str = "auto"

    # --- which version ----------------------------------------------------------------------

    def read(self, pid: PaperId) -> tuple[PaperId, Text]:
        """The text of `pid` and the version it is (the latest for a bare id)."""
        if pid.version is not None:
            return pid, self.cached(pid) or self._read_version(pid)
        known = self.cache.paper(pid)
        if known.fresh_latest is not None:  # the metadata named the latest version lately
            full = self.cached(pid.with_version(known.fresh_latest))
            if full is not None:
                assert known.latest is not None
                return pid.with_version(known.fresh_latest), full.expiring(known.latest[1])
            latest = self.catalog.cached(pid)
            if latest is not None:
                return pid.with_version(latest.version), self._text(pid.with_version(latest.version), latest)
        seen = self._seen(pid, known)
        if seen is not None:
            return seen
        try:
            return self.flights.do(
                ("latest", pid.id), lambda: self._seen(pid, self.cache.paper(pid)) or self._fetch_latest(pid)
            )
        except UpstreamError:
            version = (self.cache.get_note(pid, LATEST_SEEN) or {}).get("version")
            full = self.cached(pid.with_version(version)) if version else None
            if full is None:
                raise
            return pid.with_version(version), full.expiring(None)  # arXiv unreachable: the last version read

    def resolve(self, pid: PaperId) -> tuple[PaperId, Paper | None]:
        """`pid` with its version filled in, and the paper's latest metadata when known;
        NotFound for a version past the latest."""
        latest = None
        try:
            latest, _ = self.catalog.paper(pid.with_version(None))
        except (UpstreamError, NotFound):
            if pid.version is None:
                raise
        if pid.version is None:
            assert latest is not None
            return pid.with_version(latest.version), latest
        if latest is not None and pid.version > latest.version:
            raise NotFound(not_found(pid, self.cache.versions(pid), latest.version))
        return pid, latest

    def _seen(self, pid: PaperId, known: PaperRecord) -> tuple[PaperId, Text] | None:
        """The cached text of the version a recent bare-id read found to be the latest."""
        seen = known.note(LATEST_SEEN)
        if not seen or time.time() - seen["at"] >= self.meta_ttl_s:
            return None
        full = self.cached(pid.with_version(seen["version"]))
        if full is None:
            return None
        return pid.with_version(seen["version"]), full.expiring(seen["at"] + self.meta_ttl_s)

    def _read_version(self, pid: PaperId) -> Text:
        assert pid.version is not None
        latest = self.catalog.latest_known(pid)
        if pid.version > 1 and (latest is None or latest.version < pid.version):
            latest = self._check_exists(pid)  # only the metadata can say this version exists
        return self._text(pid, latest)

    def _check_exists(self, pid: PaperId) -> Paper | None:
        """The latest metadata (one request at most), or None when arXiv is unreachable;
        NotFound when the paper or this version does not exist."""
        assert pid.version is not None
        try:
            latest, _ = self.catalog.paper(pid.with_version(None))
        except UpstreamError:
            return None
        if pid.version > latest.version:
            raise NotFound(not_found(pid, self.cache.versions(pid), latest.version))
        return latest

    def _fetch_latest(self, pid: PaperId) -> tuple[PaperId, Text]:
        """The latest version asked of arXiv: its text, even when already cached, is not a read
        made from the cache alone (what named the version may not have been kept)."""
        prefetched: Prefetched = {}
        if self.catalog.latest_known(pid) is None and self.html_era(pid, None):
            # Nothing known about the paper: its HTML can tell the version too. (When expired
            # metadata exists, the API is asked instead, and the old answer serves offline.)
            version, probe = self._probe_latest_html(pid)
            if version is not None:
                pid = pid.with_version(version)
                full = self._text(pid, None, {TextSource.HTML: probe})
                self.cache.put_note(pid, LATEST_SEEN, {"version": version, "at": time.time()})
                return pid, full.expiring(None)
            prefetched[TextSource.HTML] = probe
        pid, latest = self.resolve(pid)
        return pid, self._text(pid, latest, prefetched).expiring(None)

    def _probe_latest_html(self, pid: PaperId) -> tuple[int | None, tuple[bytes | None, str]]:
        """Fetch arXiv's HTML for a bare id and the latest version it links to."""
        raw, missing = self._download(pid, TextSource.HTML)
        if raw is None:
            return None, (raw, missing)
        pattern = re.compile(rb"/(?:html|abs|pdf)/" + re.escape(pid.id.encode()) + rb"v(\d{1,3})\b")
        versions = {int(m.group(1)) for m in pattern.finditer(raw[:200_000])}
        return (max(versions) if versions else None), (raw, missing)

    # --- which source -------------------------------------------------------------------------

    def html_era(self, pid: PaperId, latest: Paper | None) -> bool:
        return not self._versions(pid, latest).before_html_era(pid.version or 1)

    def cached(self, pid: PaperId) -> Text | None:
        assert pid.version is not None
        cached = self.cache.get_text(pid)
        if cached is None:
            return None
        try:
            source = TextSource(cached.method)
        except ValueError:
            return None  # written by something else: read the paper again
        if cached.extractor_version == EXTRACTOR_VERSION:
            try:
                return Text.cached(cached.text, source, cached.origin)
            except ValueError as exc:  # a payload of another form: re-made like an old version
                log.info("the cached document of %s is unreadable (%s): re-made from its raw file", pid, exc)
        raw = self.cached_raw(pid, source)
        if raw is None:
            return None
        try:
            doc = extract(source, raw.path.read_bytes(), budget.deadline(), self.pdf_engine)
        except (ExtractionError, OSError) as exc:
            log.info("re-extracting %s from its cached file failed: %s", pid, exc)
            return None
        self._put_text(pid, doc, source)
        return Text(doc, "cache", source)

    def cached_raw(self, pid: PaperId, source: str) -> CachedRaw | None:
        """The raw file `source` reads; a PDF may have come as the e-print of a PDF-only paper."""
        assert pid.version is not None
        raw = self.cache.get_raw(pid, source)
        if raw is None and source == TextSource.PDF:
            raw = self.cache.get_raw(pid, TextSource.SOURCE)
            if raw is not None and raw.content_type != formats.PDF:
                return None
        return raw

    @staticmethod
    def _versions(pid: PaperId, latest: Paper | None) -> _Versions:
        if latest is not None:
            return _Versions(latest.version, latest.published, latest.updated)
        return _Versions(None, _id_date(pid), "")

    def order(self, pid: PaperId, latest: Paper | None, known: PaperRecord | None = None) -> list[TextSource]:
        """The sources to try for `pid` (versioned), in turn, less those known to be missing
        (`known`: the paper as the cache knows it, read now when not given)."""
        assert pid.version is not None
        info = self._versions(pid, latest)
        if info.before_html_era(pid.version):
            order = [TextSource.SOURCE, TextSource.HTML, TextSource.PDF]
            if info.latest == pid.version:
                order.insert(0, TextSource.AR5IV)
        else:
            order = [TextSource.HTML, TextSource.SOURCE, TextSource.PDF]
        failed = source_misses.load((known or self.cache.paper(pid)).note(source_misses.NOTE))
        return [m for m in order if not self._known_missing(m, pid.version, failed, info)]

    @staticmethod
    def _known_missing(method: TextSource, version: int, failed: dict[str, SourceMiss], info: _Versions) -> bool:
        now = time.time()
        if method.per_paper:
            miss = failed.get(SourceMiss(method, None, "", 0.0).key)
            return miss is not None and now - miss.at < AR5IV_MISS_TTL_S and miss.counts(now)
        miss = failed.get(SourceMiss(method, version, "", 0.0).key)
        if miss is not None and miss.counts(now):
            return True
        if method.html_era_only and info.before_html_era(version):
            # arXiv never made HTML before its HTML era: a miss for good of one such version
            # stands for all of them.
            return any(
                m.source == method and m.until is None and m.version is not None and info.before_html_era(m.version)
                for m in failed.values()
            )
        return False

    def _remember_missing(self, pid: PaperId, method: TextSource, reason: str, for_s: float | None = None) -> None:
        """Note that `method` has nothing for this version (for `for_s` seconds, or for good)."""
        failed = source_misses.load(self.cache.get_note(pid, source_misses.NOTE))  # as it is now
        now = time.time()
        version = None if method.per_paper else pid.version
        miss = SourceMiss(method, version, reason[:200], now, None if for_s is None else now + for_s)
        failed[miss.key] = miss
        self.cache.put_note(pid, source_misses.NOTE, source_misses.dump(failed))

    def _text(self, pid: PaperId, latest: Paper | None, prefetched: Prefetched | None = None) -> Text:
        """Text of `pid` (which carries a version) from the first source that has it."""
        return self.flights.do(("text", pid.id, pid.version), lambda: self._fetch(pid, latest, prefetched or {}))

    def _fetch(self, pid: PaperId, latest: Paper | None, prefetched: Prefetched) -> Text:
        assert pid.version is not None
        hit = self.cached(pid)  # another caller may have finished it meanwhile
        if hit:
            return hit
        known = self.cache.paper(pid)
        order = self.order(pid, latest, known)
        tried: list[str] = []
        no_text: NoTextLayer | None = None
        for i, method in enumerate(order):
            budget.report(f"fetching {pid} ({method})", i, len(order))
            raw, missing, stored = self._body(pid, method, prefetched)
            if raw is None:
                if missing != _NOT_YET:
                    self._remember_missing(pid, method, missing)
                tried.append(f"{method}: {missing}")
                continue
            used = TextSource.PDF if method is TextSource.SOURCE and formats.is_pdf(raw) else method
            budget.report(f"extracting {pid} ({used})", i + 0.5, len(order))
            try:
                doc = extract(used, raw, budget.deadline(), self.pdf_engine)
            except NoTextLayer as exc:
                no_text = exc
                if not missing:  # a damaged copy says nothing of the whole file
                    self._remember_missing(pid, method, str(exc))
                tried.append(f"{method}: {what_failed(exc)}")
                continue
            except ExtractionError as exc:
                if method.rendered_page:  # a stub page, or a broken one: look again next week
                    self._remember_missing(pid, method, str(exc), UNREADABLE_RECHECK_S)
                tried.append(f"{method}: {what_failed(exc)}")
                continue
            note = missing or self._keep(pid, used, doc, None if stored else (method, raw))
            budget.report(f"read {pid}", len(order), len(order))
            return Text(doc, used, used, note)
        if latest is None:  # every source failed: does the paper exist at all, and in what versions?
            latest = self._check_exists(pid)  # NotFound when not; the advice then names versions it has
        raise _nothing_read(pid, tried, no_text, list(known.versions), latest)

    def _body(self, pid: PaperId, method: TextSource, prefetched: Prefetched) -> tuple[bytes | None, str, bool]:
        """(body, why it is missing, whether it is already stored) of one source; a body with a
        reason is a damaged file, to be read but not kept (the reason says so)."""
        if method in prefetched:
            raw, missing = prefetched.pop(method)
            return raw, missing, False
        if method.rendered_page:
            raw, missing = self._download(pid, method)
            return raw, missing, False
        try:
            return self._raw_bytes(pid, method), "", True
        except NotFound:
            return None, "HTTP 404", False
        except _Refused as exc:
            return None, f"HTTP {exc.status}", False
        except _Unusable as exc:
            if exc.damaged is not None:  # read, not kept: a whole copy may come next time
                return (
                    exc.damaged,
                    f"arXiv sent a damaged {method}: it was not saved, so the next read fetches it again.",
                    False,
                )
            return None, _NOT_YET, False

    # --- the downloads ------------------------------------------------------------------------

    def raw(self, pid: PaperId, kind: str) -> CachedRaw:
        """The PDF or e-print of `pid` (versioned), from the cache or one checked download."""
        try:
            return self._stored_raw(pid, kind)
        except _Unstored as exc:
            raise exc.cause from None

    def _raw_bytes(self, pid: PaperId, kind: str) -> bytes:
        """The bytes of `raw`, also when the disk refused them: a read still gets its text
        (and a note that it could not be cached) from the one download it made."""
        try:
            return self._stored_raw(pid, kind).path.read_bytes()
        except _Unstored as exc:
            return exc.data

    def _stored_raw(self, pid: PaperId, kind: str) -> CachedRaw:
        hit = self.cached_raw(pid, kind)
        if hit:
            return hit
        return self.flights.do(("raw", kind, pid.id, pid.version), lambda: self._fetch_raw(pid, kind))

    def _fetch_raw(self, pid: PaperId, kind: str) -> CachedRaw:
        assert pid.version is not None
        hit = self.cached_raw(pid, kind)
        if hit:
            return hit
        resp = self.http.get(_URL_OF[kind](self.urls, pid))
        if resp.status == 404:
            raise NotFound(f"arXiv has no {kind} for {pid} (HTTP 404); check the id and version with get_paper")
        if resp.status != 200:
            raise _Refused(
                f"arXiv answered HTTP {resp.status} for the {kind} of {pid}; try again later", status=resp.status
            )
        try:
            content_type = _TYPE_OF[kind](resp.content)
        except formats.NotReady as exc:
            raise _Unusable(f"The {kind} of {pid} is not ready: {exc}; try again in a few minutes") from exc
        except ExtractionError as exc:
            raise _Unusable(
                f"arXiv did not return a usable {kind} for {pid} ({exc}; it may still be generating it); "
                "nothing was saved, try again in a minute",
                resp.content if formats.is_pdf(resp.content) else None,
            ) from exc
        try:
            return self.cache.put_raw(pid, kind, resp.content, content_type)
        except CacheWriteFailed as exc:
            raise _Unstored(exc, resp.content) from exc

    def _keep(self, pid: PaperId, used: TextSource, doc: Document, page: tuple[str, bytes] | None) -> str | None:
        """Cache the document, then the HTML page it came from (`page`: method and body, when not
        stored yet); None, or a note when the text could not be kept. The text is what a read
        needs: a page the cache cannot hold is only logged."""
        assert pid.version is not None, "text is kept per exact version"
        try:
            self._put_text(pid, doc, used)
        except CacheWriteFailed as exc:
            log.warning("the text of %s was not cached: %s", pid, exc)
            return f"This text could not be cached, so the next read fetches it again. {exc}"
        if page is not None:
            try:
                self.cache.put_raw(pid, page[0], page[1], formats.HTML)
            except (CacheFull, CacheWriteFailed) as exc:
                log.warning("the %s page of %s was not cached: %s", page[0], pid, exc)
        return None

    def _put_text(self, pid: PaperId, doc: Document, source: TextSource) -> None:
        """Cache a version's document with the title it opens with: a read that fetched no
        metadata (its HTML named the version, or a versioned id) still lists the paper by name."""
        self.cache.put_text(
            pid, doc.to_json(), method=source, extractor_version=EXTRACTOR_VERSION, title=heading_title(doc.text)
        )

    def _download(self, pid: PaperId, method: TextSource) -> tuple[bytes | None, str]:
        """The raw body of an HTML rendering (`method` html or ar5iv), or None and why it is missing."""
        resp = self.http.get(_URL_OF[method](self.urls, pid), follow_redirects=method.follows_redirects)
        if 300 <= resp.status < 400:
            return None, "no rendering (redirected)"
        if resp.status != 200:
            return None, f"HTTP {resp.status}"
        return resp.content, ""


def _checked_pdf(body: bytes) -> str:
    formats.check_pdf(body)
    return formats.PDF


_URL_OF: dict[str, Callable[[Urls, PaperId], str]] = {
    TextSource.HTML: Urls.html,
    TextSource.AR5IV: Urls.ar5iv,
    TextSource.PDF: Urls.pdf,
    TextSource.SOURCE: Urls.source,
}
"""Where each source is fetched from."""
_TYPE_OF: dict[str, Callable[[bytes], str]] = {TextSource.PDF: _checked_pdf, TextSource.SOURCE: formats.eprint_type}
"""A downloaded file's content type, once its bytes are checked to be a whole file of that
kind (formats.NotReady or ExtractionError otherwise)."""


def what_failed(exc: Exception) -> str:
    """An extractor's message as one item of the list of sources tried. Extractors name the
    fault only; the reader, which tried every source in turn, alone says what is left to do."""
    message = str(exc).strip()
    return message.rstrip(" .;") or message


def _nothing_read(
    pid: PaperId, tried: list[str], no_text: NoTextLayer | None, versions: list[int], latest: Paper | None
) -> Exception:
    if no_text is not None:
        return NoTextLayer(
            f"{pid}: {what_failed(no_text)}. Other sources: {'; '.join(tried) or 'none left'}. "
            "Use download_paper to get the PDF file itself."
        )
    said = f"No full text could be obtained for {pid}: {'; '.join(tried) or 'every source is known to be missing'}. "
    if any(attempt.endswith(_NOT_YET) for attempt in tried):  # arXiv is still making a file: time, not another version
        return NotFound(
            said + "arXiv may still be preparing it: read again in a few minutes, or use get_paper for the abstract."
        )
    if latest is not None and latest.version == 1:  # no other version to try: advice that cannot work is not given
        return NotFound(said + "It has no other version; use get_paper for the abstract.")
    return NotFound(
        said + f"Try another version (cached: {', '.join(f'v{v}' for v in versions) or 'none'}) "
        "or use get_paper for the abstract."
    )


def _id_date(pid: PaperId) -> str:
    """The month an id was assigned, as an ISO date prefix: a lower bound of any version's date."""
    number = pid.id.split("/")[-1]
    yy, mm = int(number[:2]), number[2:4]
    century = "19" if pid.old_style and yy >= 91 else "20"
    return f"{century}{yy:02d}-{mm}-01"
