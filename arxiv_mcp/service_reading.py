"""Reading: a paper's text page by page (or one section, figure, table...), words found in
it, a figure's image, the text as a resource, two versions compared, and the paper's own
references.

A part of `service.ArxivService`, on its `Parts`. A text is read by the reader (the cache
first, then arXiv) and kept in memory with the cache's proof that it is current (rereads.py):
a warm read served again needs neither the lock nor a file. What a call reads is pinned to
its session.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING
from urllib.parse import quote

from . import bounds
from .cache.warm import Proof
from .errors import InvalidInput, NotFound, UpstreamError
from .ids import PaperId, parse
from .models import UNTRUSTED, FindResult, Neighbour, Neighbours, PaperText, VersionComparison
from .rereads import PAGES_KEPT, TEXTS_KEPT, Rereads
from .service_parts import Parts, version_of

if TYPE_CHECKING:
    from .cache.records import TierRecord
    from .reading import Text
    from .text.document import Reference
    from .upstream.atom import Paper


class ReadingTools:
    """read_paper, find_in_paper, compare_versions, neighbours, and the text and figure resources."""

    def __init__(self, parts: Parts) -> None:
        self.parts = parts
        self.texts: Rereads[tuple[PaperId, Text]] = Rereads(parts.cache, TEXTS_KEPT)
        self.pages: Rereads[PaperText] = Rereads(parts.cache, PAGES_KEPT)

    def _text(self, paper_id: str, session_id: str | None) -> tuple[PaperId, Text]:
        pid, full, _ = self._read(paper_id, session_id)
        return pid, full

    def _read(self, paper_id: str, session_id: str | None) -> tuple[PaperId, Text, Proof | None]:
        """The text `paper_id` reads, and the cache's proof when it was read from the cache
        alone: from memory while that proof holds (rereads.py)."""
        kept = self.texts.get(paper_id)
        proof: Proof | None
        if kept is not None:
            (pid, full), proof = kept
            self.parts.check_session(session_id)
        else:
            pid = parse(paper_id)
            self.parts.check_session(session_id)
            since = self.parts.cache.index_stamp()
            pid, full = self.parts.reader.read(pid)
            proof = self.parts.cache.proof(full.origin, since, full.until)
            self.texts.keep(paper_id, (pid, full), proof)
        self.parts.pin(session_id, pid)
        return pid, full, proof

    def read_paper(
        self,
        paper_id: str,
        page: int = 1,
        page_size: int = 15000,
        section: str | None = None,
        session_id: str | None = None,
    ) -> PaperText:
        bounds.PAGE_SIZE.check(page_size)
        bounds.PAGE.check(page)
        asked = (paper_id, page, page_size, section)
        kept = self.pages.get(asked)
        if kept is not None:  # this very page, and the cache proves nothing changed (rereads.py)
            self.parts.check_session(session_id)
            self.parts.pin(session_id, PaperId(kept[0].paper_id, kept[0].version))
            return kept[0]
        from .text import selectors
        from .text.view import Pages

        pid, full, proof = self._read(paper_id, session_id)
        chosen = None
        if section and section.strip():
            chosen = selectors.select(full.doc, section, lambda number: figure_uri(pid, number), pid.id)
        view = chosen.text if chosen else full.text
        pages = Pages(view, page_size)
        answer = PaperText(
            paper_id=pid.id,
            version=version_of(pid),
            text=pages.page(page),
            page=page,
            total_pages=pages.count,
            total_chars=len(view),
            has_more=page < pages.count,
            method=str(full.source),
            source_method=str(full.source),
            cached=full.method == "cache",
            section=chosen.label if chosen else None,
            notice=_sentences(UNTRUSTED, full.damage, full.note),
            stamp=full.stamp,
            items=chosen.items() if chosen else [],
        )
        self.pages.keep(asked, answer, proof)
        return answer

    def find_in_paper(
        self, paper_id: str, query: str, max_hits: int = 10, page_size: int = 15000, session_id: str | None = None
    ) -> FindResult:
        from .text import view as textview

        bounds.PAGE_SIZE.check(page_size)
        bounds.MAX_HITS.check(max_hits)
        if not query or not query.strip():
            raise InvalidInput('query is empty: give words or a "quoted phrase" to look for')
        bounds.FIND_QUERY.check(query)
        pid, full = self._text(paper_id, session_id)
        hits, total = textview.find(full.doc, query, max_hits=max_hits, page_size=page_size)
        return FindResult(
            paper_id=pid.id,
            version=version_of(pid),
            query=query,
            total_matches=total,
            hits=hits,
            page_size=page_size,
        )

    def figure_image(self, paper_id: str, number: str) -> bytes:
        """The image of a figure, for the `arxiv://paper/{id}/figure/{n}` resource."""
        from .figures import FigureImages

        pid, full = self._text(paper_id, None)
        return FigureImages(self.parts.cache, self.parts.http, self.parts.urls).image(pid, full.doc, number)

    def text_for_resource(self, paper_id: str) -> tuple[PaperId, str]:
        pid, full = self._text(paper_id, None)
        return pid, full.text

    def compare_versions(
        self,
        paper_id: str,
        from_version: int | None = None,
        to_version: int | None = None,
        session_id: str | None = None,
    ) -> VersionComparison:
        """Two versions compared (default: the first and the latest). Each is read as
        read_paper reads it (a cached one costs no request); the metadata of both comes from
        the cache or one id_list request; the comparison itself costs nothing more."""
        from .research import versions

        asked = parse(paper_id)
        pid = asked.with_version(None)
        self.parts.check_session(session_id)
        # A versioned id names the version read before ("what changed since v1?"), so from_version.
        if asked.version is not None and from_version not in (None, asked.version):
            raise InvalidInput(
                f"{asked} names v{asked.version} and from_version v{from_version}: give the bare id {pid.id} "
                "with from_version and to_version"
            )
        first, last, papers = self._version_pair(
            pid, asked.version if from_version is None else from_version, to_version
        )
        texts = {}
        for number in (first, last):
            versioned = pid.with_version(number)
            try:
                texts[number] = self._read(versioned.versioned, session_id)[1]
            except NotFound as exc:
                if versions.is_withdrawn(papers.get(versioned)):
                    raise NotFound(f"{versioned} was withdrawn, so it has no text to compare: {exc}") from exc
                raise
        raw = self.parts.cache.raw_records([pid.with_version(first), pid.with_version(last)])
        before, after = (
            versions.Side(
                n, papers.get(pid.with_version(n)), full, str(full.source), _raw_bytes(raw[n], str(full.source))
            )
            for n, full in texts.items()
        )
        return versions.compare(pid.id, before, after)

    def _version_pair(
        self, pid: PaperId, from_version: int | None, to_version: int | None
    ) -> tuple[int, int, dict[PaperId, Paper]]:
        """The two versions to compare and the metadata of each (one request at most: the
        latest and the versions asked for go in one id_list)."""
        from .catalog import not_found

        for bound, value in ((bounds.FROM_VERSION, from_version), (bounds.TO_VERSION, to_version)):
            if value is not None:
                bound.check(value)
        asked = [v for v in (from_version, to_version) if v is not None]
        wanted = [pid] + [pid.with_version(v) for v in dict.fromkeys([from_version or 1, *asked])]
        try:
            papers = self.parts.catalog.papers(wanted)
        except UpstreamError:
            papers = {}  # the texts still compare; only the metadata goes unsaid
            latest = self.parts.catalog.paper(pid)[0]  # an expired copy, or the error
        else:
            if pid not in papers:  # arXiv answered without it: no such paper
                raise NotFound(not_found(pid, self.parts.cache.versions(pid)))
            latest = papers[pid]
        count = latest.version
        papers.setdefault(pid.with_version(count), latest)
        if count == 1:
            raise InvalidInput(f"{pid.id} has one version (v1): there is nothing to compare; read_paper reads it")
        missing = [v for v in asked if v > count]
        if missing:
            raise NotFound(f"{pid.id} has no v{missing[0]}: its versions are v1 to v{count}")
        first, last = from_version or 1, to_version or count
        if first == last and to_version is None:
            raise InvalidInput(f"v{first} is the latest version of {pid.id}: there is no later one to compare it with")
        if first == last:
            raise InvalidInput(f"from_version and to_version are both v{first}: name two different versions")
        return first, last, papers

    def neighbours(
        self, paper_id: str, direction: str, limit: int = 10, resolve: bool = False, max_lookups: int = 20
    ) -> Neighbours:
        """References or citations. A paper whose text is cached answers for its references
        itself, from its own bibliography (no request, the paper's order, the arXiv ids its
        entries state), with direction "bibliography"; Semantic Scholar answers the rest.
        With `resolve`, the paper is read if it is not cached, and its entries are checked
        through resolve_references' resolver: one batch for the stated ids, at most
        `max_lookups` title searches for the others."""
        from .upstream import s2

        pid = parse(paper_id)
        if direction == "references":
            bounds.LIMIT.check(limit)
            bounds.MAX_LOOKUPS.check(max_lookups)
            if resolve:
                self._read(paper_id, None)
            own = self._bibliography(pid, limit)
            if own is not None:
                return self._resolved(own, max_lookups) if resolve else own
        # One call of any process on the home asks (neighbours looks in the cache first and
        # stores its answer): the others find it kept.
        return self.parts.flights.do(
            ("s2", direction, pid.id, limit),
            lambda: s2.neighbours(
                self.parts.http, self.parts.config.s2_url, pid, direction, limit, cache=self.parts.cache
            ),
        )

    def _bibliography(self, pid: PaperId, limit: int) -> Neighbours | None:
        from .text.document import Reference

        versions = [pid.version] if pid.version is not None else sorted(self.parts.cache.versions(pid), reverse=True)
        for version in versions[:1]:
            full = self.parts.reader.cached(pid.with_version(version))
            entries = full.doc.records(Reference) if full is not None else []
            if entries:
                found = [Neighbour(" ".join(r.text.split()), r.arxiv_id, _year(r), []) for r in entries]
                return Neighbours(pid.id, "bibliography", found[:limit], len(found) > limit)
        return None

    def _resolved(self, own: Neighbours, max_lookups: int) -> Neighbours:
        """`own` with each entry's verdict, and the arXiv id found for those that state none."""
        from .research.resolve import resolve

        texts = [n.title or "" for n in own.neighbours]
        result = resolve(texts, self.parts.catalog, self.parts.bibtex_entry, max_searches=max_lookups)
        out = []
        for n, item in zip(own.neighbours, result.items, strict=True):
            found = item.arxiv_id if item.verdict in ("exact", "likely") else None
            out.append(replace(n, arxiv_id=n.arxiv_id or found, verdict=item.verdict))
        return replace(own, neighbours=out)


def _year(entry: Reference) -> int | None:
    """The year an entry states, or failing that its label (`Robbins(1952)`): author-year
    styles often print the year in the label only."""
    from .text.bibids import publication_year

    return publication_year(entry.text) or publication_year(entry.label)


def _sentences(*notes: str | None) -> str:
    """Notes written by different parts as one text of sentences: each begins with a capital
    and ends with a stop, so "...inside it. the PDF is damaged ... text arXiv sent ..." does
    not read as one run-on line. A first word spelt with a capital inside (arXiv) stays as it is."""
    out = []
    for note in notes:
        note = (note or "").strip()
        if note:
            first = note.split(maxsplit=1)[0]
            if first.islower():
                note = note[0].upper() + note[1:]
            out.append(note + ("" if note.endswith((".", "!", "?")) else "."))
    return " ".join(out)


def figure_uri(pid: PaperId, number: str) -> str:
    """The resource a figure's image is read from (`pid` carries its version)."""
    return f"arxiv://paper/{quote(pid.versioned, safe='')}/figure/{quote(number, safe='')}"


def _raw_bytes(records: dict[str, TierRecord], source: str) -> int | None:
    """The size of the cached file a text was read from, as the cache's index records it:
    reading and checking a PDF or an e-print to say its size would cost more than the
    comparison (a PDF may have come as the e-print of a PDF-only paper)."""
    from .text import formats
    from .text.extract import TextSource

    record = records.get(source)
    if record is None and source == TextSource.PDF:
        record = records.get(TextSource.SOURCE)
        record = record if record is not None and record.content_type == formats.PDF else None
    return record.size if record else None
