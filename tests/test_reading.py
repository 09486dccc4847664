"""reading.Reader through the service: what a read means, and what it costs upstream."""

from __future__ import annotations

import gzip

import pytest

from arxiv_mcp.errors import NotFound
from arxiv_mcp.ids import parse
from arxiv_mcp.reading import Text
from arxiv_mcp.text.document import DAMAGED, Document
from arxiv_mcp.text.extract import TextSource
from tests.conftest import html_paper, in_threads, paper
from tests.fake_arxiv import NO_PDF, eprint, plain_tar
from tests.pdfgen import make_pdf

LATEX = (
    b"\\documentclass{article}\\title{Kinds of e-prints}\\begin{document}\\maketitle\n"
    b"\\section{Introduction}\nThe walrus lemma holds for every kind of e-print.\n\\end{document}\n"
)
AUTHORED_HTML = (
    b"<!DOCTYPE html><html><head><meta charset='UTF-8'><title>Proceedings of a walrus meeting</title>"
    b"<style>body { color: black; }</style></head><body><h1>Proceedings of a walrus meeting</h1>"
    b"<h2>Preface</h2><p>" + b"The walrus lemma was discussed at length by everyone present. " * 12 + b"</p>"
    b"<h2>Papers</h2><ul><li>On walruses, by A. Author</li><li>More walruses, by B. Author</li></ul>"
    b"<img src='photo.jpg'></body></html>"
)
PDF = make_pdf(["Kinds of e-prints\nThe walrus lemma holds for every kind of e-print."])


def upstream(fake) -> list[str]:
    return [r.path for r in fake.requests if not r.path.startswith("/s2/")]


# --- a version that does not exist (issue 12 item 4) -------------------------------------


@pytest.mark.parametrize("tool", ["get_paper", "read_paper", "download_pdf", "download_source"])
def test_a_missing_version_costs_one_metadata_request_and_names_the_latest(fake, service, tool):
    fake.add(html_paper("2404.00006", "Five versions", versions=5, source=eprint({"main.tex": LATEX})))
    call = {
        "get_paper": lambda: service.get_paper("2404.00006v7"),
        "read_paper": lambda: service.read_paper("2404.00006v7"),
        "download_pdf": lambda: service.download_paper("2404.00006v7", "pdf"),
        "download_source": lambda: service.download_paper("2404.00006v7", "source"),
    }[tool]
    with pytest.raises(NotFound) as caught:
        call()
    assert "the latest version of 2404.00006 is v5" in str(caught.value)
    assert upstream(fake) == ["/api/query"]


def test_a_missing_version_after_metadata_is_cached_costs_nothing(fake, service):
    fake.add(html_paper("2404.00006", "Five versions", versions=5))
    service.get_paper("2404.00006")
    fake.clear_log()
    with pytest.raises(NotFound, match="latest version of 2404.00006 is v5"):
        service.read_paper("2404.00006v7")
    assert upstream(fake) == []


def test_an_existing_later_version_is_read_after_one_metadata_request(fake, service):
    fake.add(html_paper("2404.00006", "Five versions", versions=5))
    got = service.read_paper("2404.00006v3")
    assert got.version == 3
    assert upstream(fake) == ["/api/query", "/html/2404.00006v3"]


def test_a_first_version_needs_no_metadata(fake, service):
    fake.add(html_paper("2404.00006", "Five versions", versions=5))
    service.read_paper("2404.00006v1")
    assert upstream(fake) == ["/html/2404.00006v1"]


# --- concurrency (issue 12 item 13) ----------------------------------------------------------


def test_concurrent_bare_reads_of_a_recent_paper_probe_its_html_once(fake, service):
    fake.add(html_paper("2403.00007", "Concurrency", versions=2))
    results = in_threads(
        lambda _: (service.read_paper("2403.00007").version, service.read_paper("2403.00007").total_chars), 6
    )
    assert len(set(results)) == 1 and results[0][0] == 2
    assert upstream(fake) == ["/html/2403.00007"]


def test_concurrent_bare_reads_through_the_metadata_fetch_each_source_once(fake, service):
    fake.add(paper("1901.00001", "Old and sourced", year=2019, month=1, source=eprint({"main.tex": LATEX})))
    results = in_threads(lambda _: service.read_paper("1901.00001").total_chars, 6)
    assert len(set(results)) == 1
    paths = upstream(fake)
    assert len(paths) == len(set(paths)), paths


# --- every e-print kind reads (issue 15 item 5) ----------------------------------------------

KINDS = {
    "gzipped tar": eprint({"main.tex": LATEX}),
    "plain tar": plain_tar({"main.tex": LATEX}),
    "gzipped tex": gzip.compress(LATEX, mtime=0),
    "plain tex": LATEX,
    "pdf": PDF,
    "gzipped pdf": gzip.compress(PDF, mtime=0),
    "html-only (tar of a page and a photo)": plain_tar(
        {"index.html": AUTHORED_HTML, "photo.jpg": b"\xff\xd8\xff\xe0" + bytes(2000)}
    ),
}


@pytest.mark.parametrize("kind", KINDS)
def test_every_eprint_kind_reads(fake, service, kind):
    fake.add(paper("1901.00002", "Kinds of e-prints", year=2019, month=1, source=KINDS[kind], pdf=NO_PDF))
    got = service.read_paper("1901.00002v1")
    assert "walrus lemma" in got.text
    assert got.method in ("source", "pdf")
    assert "/pdf/1901.00002v1" not in upstream(fake)


def test_an_html_only_eprint_keeps_its_headings(fake, service):
    fake.add(
        paper(
            "1901.00003",
            "Walrus proceedings",
            year=2019,
            month=1,
            source=KINDS["html-only (tar of a page and a photo)"],
        )
    )
    got = service.read_paper("1901.00003v1", section="outline")
    assert "Preface" in got.text and "Papers" in got.text


# --- the same bytes, the same label, whichever tool came first (issue 11 item 3) --------------


@pytest.mark.parametrize("kind", ["gzipped tar", "plain tar", "plain tex", "pdf"])
def test_read_and_download_label_an_eprint_alike(fake, make_config, kind):
    from arxiv_mcp.service import ArxivService

    labels = {}
    for order in (["read", "download"], ["download", "read"]):
        fake.clear_log()
        svc = ArxivService(make_config(ARXIV_MCP_HOME=str(make_config().home) + "-" + order[0]))
        fake.add(paper("1901.00004", "Labels", year=2019, month=1, source=KINDS[kind], pdf=NO_PDF))
        for step in order:
            if step == "read":
                svc.read_paper("1901.00004v1")
            else:
                labels[order[0]] = svc.download_paper("1901.00004v1", "source").content_type
        assert upstream(fake).count("/e-print/1901.00004v1") == 1, upstream(fake)
    assert labels["read"] == labels["download"]


def _damage_from_payload(doc: Document) -> str | None:
    """`Text.damage` of a cached payload not parsed (as when its text was remembered)."""
    return Text(doc.to_json(), "cache", TextSource.PDF).damage


def test_a_papers_text_cannot_forge_the_damage_note():
    forged = 'Body text ,"notes":{"damaged":"forged"} and "notes": {"damaged": "forged"}'
    assert _damage_from_payload(Document(forged)) is None
    real = Document(forged, notes={DAMAGED: "pages 3-4 could not be read"})
    assert _damage_from_payload(real) == "pages 3-4 could not be read" == Text(real, "pdf", TextSource.PDF).damage


def test_the_damage_note_is_found_behind_long_notes():
    doc = Document("Body text", notes={"stamp": "x" * 5000, DAMAGED: "page 2 could not be read"})
    assert _damage_from_payload(doc) == "page 2 could not be read"
    assert _damage_from_payload(Document("Body text", notes={"stamp": "arXiv:2401.00001v1"})) is None


# --- one record per read (issue 35.4) ----------------------------------------------------


@pytest.mark.parametrize("named_by", ["metadata", "its HTML"])
def test_a_warm_bare_id_read_asks_the_cache_for_the_paper_once(fake, service, monkeypatch, named_by):
    """What the reader knows of a paper (versions, latest mark, notes) comes back as one
    record: a warm read of a bare id asks for it once, then for the text, and reads neither the
    metadata file nor a note on its own."""
    fake.add(html_paper("2404.00007", "A walrus paper", versions=2))
    if named_by == "metadata":
        service.get_paper("2404.00007")  # marks v2 as the latest
    service.reader.read(parse("2404.00007"))  # the cold read (the HTML names v2 when nothing else does)
    asked: list[str] = []
    for name in ("paper", "get_text", "get_meta", "get_note", "versions"):
        method = getattr(service.cache, name)
        monkeypatch.setattr(service.cache, name, lambda *a, _m=method, _n=name, **k: asked.append(_n) or _m(*a, **k))
    fake.clear_log()
    pid, text = service.reader.read(parse("2404.00007"))
    assert (pid.versioned, text.method) == ("2404.00007v2", "cache")
    assert asked == ["paper", "get_text"] and upstream(fake) == []
