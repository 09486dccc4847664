"""Downloads and sources: a paper's PDF or LaTeX e-print kept on disk for the client, and the
local mirror of arXiv's metadata (its status, and a harvest within the call's time).

A part of `service.ArxivService`, on its `Parts`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, get_args

from . import budget
from .errors import InvalidInput
from .ids import parse
from .models import Download, DownloadFormat, MirrorStatus
from .service_parts import Parts, version_of

if TYPE_CHECKING:
    from .mirror.harvest import PageReport


class DownloadTools:
    """download_paper, and the mirror's status and harvest."""

    def __init__(self, parts: Parts) -> None:
        self.parts = parts

    def download_paper(self, paper_id: str, fmt: str = "pdf", session_id: str | None = None) -> Download:
        if fmt not in get_args(DownloadFormat):
            raise InvalidInput(f"fmt={fmt!r} is not supported: use 'pdf' or 'source' (the LaTeX e-print)")
        pid = parse(paper_id)
        self.parts.check_session(session_id)
        cached = pid.version is not None and self.parts.reader.cached_raw(pid, fmt) is not None
        if not cached:
            pid, _ = self.parts.reader.resolve(pid)
            budget.report(f"downloading {pid} ({fmt})", 0, 1)
        raw = self.parts.reader.raw(pid, fmt)
        self.parts.pin(session_id, pid)
        return Download(
            paper_id=pid.id,
            version=version_of(pid),
            fmt=fmt,
            path=str(raw.path),  # absolute, for open(); only text renderings may shorten it
            bytes=raw.bytes,
            content_type=raw.content_type,
            cached=cached,
        )

    def mirror_status(self, sync: bool = False) -> MirrorStatus:
        """The mirror's sets and size; with `sync`, harvest what is due first, within this call
        (progress per page), keeping every page stored if the call ends before the list does."""
        from .mirror import status

        if self.parts.mirror is None:
            return status.off()
        note = self.mirror_sync(self.parts.config.mirror, due_only=False) if sync else None
        answer = status.status(self.parts.mirror)
        return replace(answer, note=" ".join(n for n in (note, answer.note) if n))

    def mirror_sync(self, names: tuple[str, ...], *, due_only: bool, report: PageReport | None = None) -> str:
        """Harvest `names` (all, or those due), stopping while this call still has time for a
        page; a sentence saying what was done."""
        from .mirror.harvest import HarvestBusy, Harvester
        from .mirror.source import MirrorSource

        mirror = self.parts.mirror or MirrorSource(self.parts.config.home, names)
        harvester = Harvester(self.parts.http, mirror.store, self.parts.config.oai_url, self.parts.config.home)

        def page_done(name: str, pages: int, records: int, reached: str | None) -> None:
            budget.report(f"mirror {name}: page {pages}, {records} records, reached {reached or '-'}", pages, None)
            if report is not None:
                report(name, pages, records, reached)

        def out_of_time() -> bool:
            left = budget.remaining()
            return left is not None and left < self.parts.config.min_interval_s + self.parts.config.timeout_s / 2

        try:
            done = harvester.sync(list(names), on_page=page_done, stop=out_of_time, due_only=due_only)
        except HarvestBusy as exc:
            return str(exc) + "."
        pages = sum(s.pages for s in done.sets)
        records = sum(s.records for s in done.sets)
        ended = "; it stopped before the end and resumes from its token at the next sync" if done.stopped else ""
        return f"Harvested {pages} pages ({records} records){ended}."
