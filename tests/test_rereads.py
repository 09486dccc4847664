"""A page read again is served from memory (rereads.py) only while the cache proves it current.

The proof (cache/warm.py) is two stats: the index journal and the text file. Every way the
answer could have changed must fail it: another process evicting, clearing, re-extracting
(also with a newer extractor) or rewriting the paper; a damaged file; a bare id's metadata
expiring. Sessions and least-recently-used order work on a hit as on any read. The other
processes here are real ones (`python -c`), each with its own index mirror.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import pytest

from arxiv_mcp.cache import access as access_module
from arxiv_mcp.cache import osfiles
from arxiv_mcp.cache.store import Cache
from arxiv_mcp.errors import NotFound
from arxiv_mcp.forms import AnswerForms
from arxiv_mcp.ids import PaperId
from arxiv_mcp.service import ArxivService
from tests.conftest import html_paper, in_threads

REPO = Path(__file__).resolve().parent.parent
PID = "2403.00042"
NEW_TEXT = "Rewritten by another process: the aardvark theorem."


@pytest.fixture
def clock(service):
    """The cache's clock, moved by hand (the metadata TTL and access batching follow it)."""
    now = [service.cache.ledger.clock()]
    service.cache.ledger.clock = lambda: now[0]
    return now


def locks_taken(service: ArxivService) -> list[int]:
    """Counts every acquisition of the cache lock from now on."""
    taken: list[int] = []
    acquire = service.cache.ledger.lock.acquire

    def counted() -> bool:
        taken.append(1)
        return acquire()

    service.cache.ledger.lock.acquire = counted
    return taken


def upstream(fake) -> list[str]:
    return [r.path for r in fake.requests if not r.path.startswith("/s2/")]


def warm(service: ArxivService, paper_id: str = PID, **kw):
    """Read until the answer is kept: the first read fetches, the second reads the cache."""
    service.read_paper(paper_id, **kw)
    return service.read_paper(paper_id, **kw)


def other_process(home: Path, body: str, *env_pairs: tuple[str, str], max_papers: int = 200) -> None:
    """Run `body` in a new Python process with `cache` open on `home`."""
    script = "from pathlib import Path\nfrom arxiv_mcp.cache.store import Cache\nfrom arxiv_mcp.ids import PaperId\n"
    script += f"cache = Cache(Path({str(home)!r}), max_papers={max_papers})\n"
    script += textwrap.dedent(body) + "\ncache.close()\n"
    env = {**os.environ, "PYTHONPATH": str(REPO), **dict(env_pairs)}
    subprocess.run([sys.executable, "-c", script], env=env, check=True, timeout=120)


def test_a_page_read_again_takes_no_lock_and_writes_nothing(fake, service):
    fake.add(html_paper(PID, "Aardvarks"))
    first = warm(service)
    journal = service.cache.home / "journal.jsonl"
    size, taken = journal.stat().st_size, locks_taken(service)
    fake.clear_log()
    again = service.read_paper(PID)
    assert again == first and again.cached
    assert taken == [] and upstream(fake) == []
    assert journal.stat().st_size == size, "the access waits in memory (access.py)"


def test_another_page_or_a_search_in_a_paper_read_before_takes_no_lock(fake, service):
    fake.add(html_paper(PID, "Aardvarks"))
    first = warm(service, page_size=1000)
    taken = locks_taken(service)
    second = service.read_paper(PID, page=2, page_size=1000)
    found = service.find_in_paper(PID, "unicorn")
    outline = service.read_paper(PID, section="outline")
    assert taken == [] and second.page == 2 and second.text not in first.text
    assert found.total_matches > 0 and "Results" in outline.text


def test_a_page_read_again_after_another_process_rewrote_the_text_is_the_new_text(fake, service):
    fake.add(html_paper(PID, "Aardvarks"))
    version = warm(service).version
    other_process(
        service.cache.home,
        f"""
        from arxiv_mcp.text.document import Document
        from arxiv_mcp.text.extract import EXTRACTOR_VERSION
        doc = Document.from_text({NEW_TEXT!r}).to_json()
        cache.put_text(PaperId({PID!r}, {version}), doc, method="html", extractor_version=EXTRACTOR_VERSION)
        """,
    )
    assert NEW_TEXT in service.read_paper(PID).text


def test_a_bare_id_read_again_after_another_process_marked_a_newer_version_reads_that(fake, service):
    fake.add(html_paper(PID, "Aardvarks"))
    service.get_paper(PID)
    assert warm(service).version == 1
    other_process(
        service.cache.home,
        f"""
        from arxiv_mcp.text.document import Document
        from arxiv_mcp.text.extract import EXTRACTOR_VERSION
        record = dict(cache.get_meta(PaperId({PID!r}, 1)).record, version=2)
        cache.put_meta(PaperId({PID!r}, 2), record, latest=True)
        doc = Document.from_text({NEW_TEXT!r}).to_json()
        cache.put_text(PaperId({PID!r}, 2), doc, method="html", extractor_version=EXTRACTOR_VERSION)
        """,
    )
    again = service.read_paper(PID)
    assert again.version == 2 and NEW_TEXT in again.text
    assert service.read_paper(f"{PID}v1").version == 1


def test_a_page_read_again_after_another_process_cleared_the_cache_is_fetched_again(fake, service):
    fake.add(html_paper(PID, "Aardvarks"))
    warm(service)
    other_process(service.cache.home, "cache.clear(drop_pinned=True)")
    fake.clear_log()
    again = service.read_paper(PID)
    assert not again.cached and upstream(fake) == [f"/html/{PID}"]


def test_a_page_read_again_after_another_process_evicted_the_paper_is_fetched_again(fake, service):
    fake.add(html_paper(PID, "Aardvarks"))
    warm(service)
    other_process(
        service.cache.home, 'cache.put_meta(PaperId("2401.00009", 1), {"title": "newest"}, latest=True)', max_papers=1
    )
    fake.clear_log()
    again = service.read_paper(PID)
    assert not again.cached and upstream(fake) == [f"/html/{PID}"]


def test_a_newer_extractor_in_another_process_makes_the_page_read_again(fake, service):
    fake.add(html_paper(PID, "Aardvarks"))
    first = warm(service)
    text_file = next((service.cache.home / "papers").glob("*.text.json"))
    other_process(
        service.cache.home,
        f"""
        from arxiv_mcp import reading
        from arxiv_mcp.config import load
        from arxiv_mcp.service import ArxivService
        reading.EXTRACTOR_VERSION += 1  # as a newer release of the server would run
        newer = ArxivService(load())
        newer.read_paper({PID!r})
        newer.cache.close()
        """,
        *fake.env().items(),
        ("ARXIV_MCP_HOME", str(service.cache.home)),
    )
    newer = json.loads(text_file.read_bytes())["extractor_version"]
    taken = locks_taken(service)
    again = service.read_paper(PID)
    assert again.text == first.text and taken, "read again from the cache, not from memory"
    assert json.loads(text_file.read_bytes())["extractor_version"] == newer - 1, "re-made by this extractor"


def test_a_damaged_text_file_is_not_served_from_memory(fake, service):
    fake.add(html_paper(PID, "Aardvarks"))
    first = warm(service)
    text_file = next((service.cache.home / "papers").glob("*.text.json"))
    data = text_file.read_bytes()
    text_file.write_bytes(data[:-40] + b" " * 40)  # same size, other bytes, changed in place
    fake.clear_log()
    again = service.read_paper(PID)
    assert again.text == first.text and not again.cached, "dropped as damaged and fetched again"


def test_a_bare_id_read_again_asks_arxiv_once_its_metadata_expires(fake, service, clock):
    fake.add(html_paper(PID, "Aardvarks", versions=2))
    service.get_paper(PID)
    assert warm(service).version == 2
    fake.clear_log()
    service.read_paper(PID)
    assert upstream(fake) == []
    clock[0] += service.config.meta_ttl_s + 1
    service.read_paper(PID)
    assert "/api/query" in upstream(fake), "the latest version is asked again"


def test_a_page_read_again_with_a_session_pins_the_paper(fake, service):
    fake.add(html_paper(PID, "Aardvarks"))
    warm(service)
    session = service.start_session("reading").session_id
    taken = locks_taken(service)
    assert service.read_paper(PID, session_id=session).cached
    assert taken, "the session is checked and the pin recorded as on any read"
    assert service.session_status(session).pinned == [f"{PID}v1"]
    service.end_session(session)
    with pytest.raises(NotFound, match="No open session"):
        service.read_paper(PID, session_id=session)
    with pytest.raises(NotFound, match="No open session"):
        service.read_paper(PID, session_id="never-started")


def test_pages_read_again_count_as_accesses_for_eviction(fake, make_config):
    others = ["2403.00043", "2403.00044"]
    for pid in [PID, *others]:
        fake.add(html_paper(pid, f"Paper {pid}"))
    service = ArxivService(make_config(ARXIV_MCP_MAX_PAPERS="2"))
    try:
        warm(service)
        service.read_paper(others[0])
        service.read_paper(PID)  # from memory: the most recent access now
        service.read_paper(others[1])  # one of the two others goes: not the one just read
        assert service.cache.versions(PaperId(PID)) == [1] and service.cache.versions(PaperId(others[0])) == []
    finally:
        service.cache.close()


def test_accesses_from_memory_reach_other_processes_in_a_batch(fake, service, clock):
    fake.add(html_paper(PID, "Aardvarks"))
    warm(service)
    journal = service.cache.home / "journal.jsonl"
    size = journal.stat().st_size
    service.read_paper(PID)
    clock[0] += access_module.ACCESS_FLUSH_S
    service.read_paper(PID)
    added = [json.loads(line) for line in journal.read_bytes()[size:].splitlines()]
    assert [op["o"] for op in added] == ["touch"], "journaled once the batch is due, by the read itself"


def test_sections_and_pages_are_kept_apart(fake, service):
    fake.add(html_paper(PID, "Aardvarks"))
    asks = [{"page": 1, "page_size": 1000}, {"page": 2, "page_size": 1000}, {"section": "Method"}, {}]
    firsts = [warm(service, **ask) for ask in asks]
    agains = in_threads(lambda n: service.read_paper(PID, **asks[n % len(asks)]), 8)
    assert agains == firsts + firsts
    assert len({a.text for a in firsts}) == len(asks)


def test_a_page_read_again_answers_while_another_holder_keeps_the_lock(fake, service, clock):
    fake.add(html_paper(PID, "Aardvarks"))
    first = warm(service)
    holder = Cache(service.cache.home)  # its own lock file descriptor: another holder, as another process is
    holder.ledger.lock.acquire()
    try:
        service.read_paper(PID)
        clock[0] += access_module.ACCESS_FLUSH_S  # the batch is due: journaled if the lock is free at once
        started = time.monotonic()
        assert service.read_paper(PID) == first
        assert time.monotonic() - started < 5, "the holder is not waited for (its lease runs 600 s)"
    finally:
        holder.ledger.lock.release()
        holder.close()
    journal = service.cache.home / "journal.jsonl"
    size = journal.stat().st_size
    service.read_paper(PID)
    assert journal.stat().st_size > size, "the next read journals the batch"


def test_a_read_during_which_the_index_changed_is_not_kept(fake, service):
    fake.add(html_paper(PID, "Aardvarks"))
    service.read_paper(PID)
    read = service.reader.read

    def read_while_another_writes(pid):
        got = read(pid)
        with Cache(service.cache.home) as other:  # what it changed may be what this read chose
            other.put_meta(PaperId("2401.00009", 1), {"title": "meanwhile"}, latest=True)
        return got

    service.reader.read = read_while_another_writes
    service.read_paper(PID)
    service.reader.read = read
    taken = locks_taken(service)
    service.read_paper(PID)
    assert taken, "the index moved after the read began: the page is read again, not served from memory"


def test_an_answer_shipped_again_is_rendered_once_and_its_forms_go_with_it(fake, service):
    fake.add(html_paper(PID, "Aardvarks"))
    answer = warm(service)
    forms, rendered = AnswerForms(), []

    def render(got):
        rendered.append(id(got))
        return got.text

    first = forms.of(answer, render)
    assert forms.of(answer, render)[1] is first[1]
    assert rendered == [id(answer)] and first[1]["text"] == answer.text
    copy = replace(answer)
    forms.of(copy, render)
    assert len(rendered) == 2 and len(forms) == 2
    del copy
    gc.collect()
    assert len(forms) == 1, "a freed answer's forms are not kept"


@pytest.mark.anyio
async def test_a_page_read_again_through_the_server_is_the_same_answer(fake, connect):
    fake.add(html_paper(PID, "Aardvarks"))
    async with connect() as client:
        answers = [await client.call_tool("read_paper", {"paper_id": PID, "page_size": 1000}) for _ in range(4)]
    assert not answers[0].is_error
    assert all(a.structured_content == answers[1].structured_content for a in answers[1:])
    assert all(a.content == answers[1].content for a in answers[1:])
    assert answers[0].structured_content == dict(answers[1].structured_content, cached=False)


def test_where_tier_files_are_read_under_the_lock_nothing_is_served_from_memory(fake, service, monkeypatch):
    class ReadUnderLock(osfiles.PosixFiles):  # as on Windows: no open file to stamp afterwards
        keeps_replaced_open = False

    monkeypatch.setattr(osfiles, "FILES", ReadUnderLock())
    fake.add(html_paper(PID, "Aardvarks"))
    first = warm(service)
    taken = locks_taken(service)
    assert service.read_paper(PID) == first and taken, "read from the cache as before"


def test_a_bare_id_whose_version_arxiv_named_but_the_cache_did_not_keep_is_asked_again(fake, service, monkeypatch):
    fake.add(html_paper(PID, "Aardvarks"))
    service.read_paper(f"{PID}v1")  # the text of v1 is cached; nothing says which version is the latest
    monkeypatch.setattr(service.cache, "put_note", lambda *args: None)  # the disk refuses the note
    assert service.read_paper(PID).version == 1  # the HTML named v1: read from the cache
    fake.add(html_paper(PID, "Aardvarks", versions=2))
    assert service.read_paper(PID).version == 2, "nothing kept said v1: arXiv is asked again"
