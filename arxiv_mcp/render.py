"""Compact text renderings of tool results, for clients that show the model only text.

Structured content carries every field; this text carries what a model needs to act,
in as few tokens as possible.
"""

from __future__ import annotations

import json
from dataclasses import asdict, is_dataclass

from .models import FindResult, PaperDetail, PaperText, SearchResult


def _authors(names: list[str], limit: int = 6) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" et al. ({len(names)} authors)" if len(names) > limit else "")


def search(r: SearchResult) -> str:
    head = f"{r.total_results} result(s)"
    if r.missing_ids is None:
        head += f"; showing {r.start + 1}-{r.start + len(r.papers)}" if r.papers else ""
    lines = [head + (f"; query: {r.query}" if r.query else "")]
    if r.note:
        lines.append(r.note)
    if r.missing_ids:
        lines.append("Not on arXiv: " + ", ".join(r.missing_ids))
    for p in r.papers:
        lines.append(f"\n[{p.id}v{p.version}] {p.title}\n  {_authors(p.authors)} | {p.primary_category} | "
                     f"{p.published[:10]}" + (f"\n  {p.abstract}" if p.abstract else ""))
    return "\n".join(lines)


def paper(d: PaperDetail) -> str:
    authors = _authors([a.name for a in d.authors], 20)
    parts = [f"[{d.id}v{d.version}] {d.title}", f"Authors: {authors}",
             f"Categories: {', '.join(d.categories)} (primary {d.primary_category})",
             f"Submitted {d.published[:10]}; this version {d.updated[:10]}"]
    for label, value in (("DOI", d.doi), ("Journal", d.journal_ref), ("Comment", d.comment)):
        if value:
            parts.append(f"{label}: {value}")
    parts += [f"Abstract: {d.abstract}", f"Links: {d.abs_url} | {d.pdf_url} | {d.html_url}"]
    if d.stale:
        parts.append("(stale: arXiv was unreachable, this is the last cached copy)")
    return "\n".join(parts)


def paper_text(t: PaperText) -> str:
    view = f", {t.section}" if t.section else ""
    more = f"; next: page={t.page + 1}" if t.has_more else ""
    return (f"[{t.paper_id}v{t.version}{view}] page {t.page}/{t.total_pages}, {t.total_chars} chars, "
            f"from {t.source_method}{more}\n{t.notice}\n\n{t.text}")


def find(r: FindResult) -> str:
    lines = [f"{r.total_matches} passage(s) match {r.query!r} in {r.paper_id}v{r.version} "
             f"(pages of {r.page_size} chars); {r.notice}"]
    for h in r.hits:
        lines.append(f"- page {h.page}" + (f", {h.section}" if h.section else "") + f": {h.snippet}")
    return "\n".join(lines)


def compact_json(result) -> str:
    data = asdict(result) if is_dataclass(result) else result
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
