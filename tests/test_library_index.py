"""The library's search index on disk (library.idx): used by a new process instead of reading
every paper, kept in step with the cache across processes, rebuilt when missing or damaged,
and never ranking differently from an index built afresh from the cached papers."""

from __future__ import annotations

import logging
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from arxiv_mcp.cache.overview import CacheOverview
from arxiv_mcp.cache.store import Cache
from arxiv_mcp.ids import PaperId
from arxiv_mcp.research import library as library_module
from arxiv_mcp.research.library import INDEX_FILE, Library
from tests import platforms

REPO = Path(__file__).resolve().parent.parent
WORDS = "sparse attention kernel graph spectral bound proof energy signal layer matrix operator".split()
QUERIES = ["sparse attention", "graph kernel bound", "energy", "operator matrix signal", "paper"]


def put(cache: Cache, number: int, *, text_words: int = 0, salt: int = 0) -> str:
    paper_id = f"2401.{number:05d}"
    words = [WORDS[(number * 7 + i * (salt + 3)) % len(WORDS)] for i in range(40)]
    record = {
        "title": f"Paper {number} on {WORDS[number % len(WORDS)]}",
        "abstract": " ".join(words[:25]),
        "authors": [{"name": f"Author {number % 5}"}],
    }
    cache.put_meta(PaperId(paper_id, 1), record, latest=True)
    if text_words:
        cache.put_text(PaperId(paper_id, 1), " ".join(words * (text_words // 40)), method="html", extractor_version=1)
    return paper_id


def fill(cache: Cache, count: int) -> None:
    for number in range(1, count + 1):
        put(cache, number, text_words=400 if number % 3 == 0 else 0)


def results(library: Library) -> list[list[tuple[str, int, float]]]:
    return [[(h.paper_id, h.version, h.score) for h in library.search(q, 100)] for q in QUERIES]


def afresh(cache: Cache, tmp_path: Path) -> list[list[tuple[str, int, float]]]:
    """What an index built from the cached files alone ranks (no library file used or kept)."""
    scratch = Library(cache)
    scratch.path = tmp_path / "scratch" / INDEX_FILE
    return results(scratch)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The papers whose files the library reads."""
    seen: list[str] = []
    original = CacheOverview.iter_documents

    def counting(self, only=None):
        for document in original(self, only):
            seen.append(document[0])
            yield document

    monkeypatch.setattr(CacheOverview, "iter_documents", counting)
    return seen


def test_a_new_process_searches_from_the_file_without_reading_papers(home, tmp_path, reads):
    with Cache(home, max_papers=500) as cache:
        fill(cache, 60)
        first = results(Library(cache))
    assert (home / INDEX_FILE).exists() and len(reads) == 60
    reads.clear()
    with Cache(home, max_papers=500) as cache:
        assert results(Library(cache)) == first
        assert reads == [], "the second process read no paper for its search"
        assert first == afresh(cache, tmp_path)


def test_changes_by_another_process_are_followed(home, tmp_path, monkeypatch):
    monkeypatch.setattr(library_module, "SAVE_AFTER", 1000)  # keep the file stale: the sync must do it all
    with Cache(home, max_papers=40) as one, Cache(home, max_papers=40) as two:
        fill(one, 30)
        reader = Library(one)
        results(reader)
        put(two, 31, text_words=400)  # added
        put(two, 6, text_words=400, salt=5)  # re-extracted with other words
        two.put_text(PaperId("2401.00009", 1), "quantum chromodynamics " * 50, method="pdf", extractor_version=2)
        two.clear()  # everything goes...
        fill(two, 12)  # ...and a smaller library comes back
        put(two, 40, text_words=800)
        assert results(reader) == afresh(one, tmp_path)
        assert {h.paper_id for h in reader.search("paper", 100)} == {f"2401.{n:05d}" for n in [*range(1, 13), 40]}


def test_a_file_replaced_by_another_process_after_a_load_leaves_the_loaded_index_whole(home, tmp_path, caplog):
    """A loaded index reads its snippet sources from the file it loaded (held open where a
    replaced file stays readable): another process's new file, laid out otherwise (papers
    re-extracted: their old slots emptied, new ones at the end), is not read in its place."""
    with Cache(home, max_papers=500) as one, Cache(home, max_papers=500) as two:
        fill(one, 30)
        results(Library(one))  # the file, written
        reader = Library(one)
        reader.search("operator", 1)  # loaded from it
        writer = Library(two)
        writer.search("operator", 1)
        for number in range(1, 1 + library_module.SAVE_AFTER):
            put(two, number, text_words=400, salt=5)
        results(writer)  # the file replaced by one laid out otherwise
        expected = afresh(one, tmp_path)
        with caplog.at_level(logging.WARNING):
            assert results(reader) == expected
            snippets = [[(h.paper_id, h.title, h.snippet) for h in reader.search(q, 100)] for q in QUERIES]
        assert snippets == [[(h.paper_id, h.title, h.snippet) for h in writer.search(q, 100)] for q in QUERIES]
        assert "rebuilding" not in caplog.text, "nothing found unsound, nothing rebuilt"


def test_a_deleted_or_damaged_file_is_rebuilt(home, tmp_path, caplog):
    with Cache(home, max_papers=500) as cache:
        fill(cache, 40)
        expected = results(Library(cache))
        path = home / INDEX_FILE
        path.unlink()
        assert results(Library(cache)) == expected and path.exists()
        # A byte of the head (checked whole at load), then of a snippet source (checked when shown).
        for at, said in ((40, "unreadable"), (-5, "unsound")):
            data = bytearray(path.read_bytes())
            data[at] ^= 0xFF
            path.write_bytes(bytes(data))
            caplog.clear()
            with caplog.at_level(logging.WARNING):
                assert results(Library(cache)) == expected
            assert said in caplog.text
        path.write_bytes(b"AXLIBIX1" + b"\0" * 3)
        assert results(Library(cache)) == expected


def test_evictions_and_replacements_leave_scores_as_if_built_afresh(home, tmp_path, monkeypatch):
    monkeypatch.setattr(library_module, "SAVE_AFTER", 5)
    with Cache(home, max_papers=25) as cache:
        library = Library(cache)
        for number in range(1, 120):
            put(cache, number, text_words=200 * (number % 4), salt=number % 3)
            if number % 10 == 0:
                assert results(library) == afresh(cache, tmp_path)
                put(cache, number - 3, text_words=400, salt=7)  # a re-extraction of an indexed paper
                assert results(library) == afresh(cache, tmp_path)
        with Cache(home, max_papers=25) as later:
            assert results(Library(later)) == afresh(later, tmp_path)


WORKER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from arxiv_mcp.cache.store import Cache
    from arxiv_mcp.research import library as library_module
    from arxiv_mcp.research.library import Library
    sys.path.insert(0, sys.argv[3])
    from tests.test_library_index import put

    library_module.SAVE_AFTER = int(sys.argv[4])
    base = int(sys.argv[2])
    with Cache(Path(sys.argv[1]), max_papers=500) as cache:
        library = Library(cache)
        for number in range(base, base + 40):
            put(cache, number, text_words=200 * (number % 3))
            library.search("sparse attention", 10)
            print(number, flush=True)
    """
)


def test_several_processes_share_the_file(home, tmp_path):
    script = tmp_path / "worker.py"
    script.write_text(WORKER)
    workers = [
        subprocess.Popen(
            [sys.executable, str(script), str(home), str(base), str(REPO), "3"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for base in (100, 200, 300)
    ]
    for worker in workers:
        out, err = worker.communicate(timeout=120)
        assert worker.returncode == 0, err
    with Cache(home, max_papers=500) as cache:
        assert len(cache.library_listing()) == 120
        assert results(Library(cache)) == afresh(cache, tmp_path)


@platforms.posix_signals
def test_a_writer_killed_mid_save_loses_nothing(home, tmp_path):
    script = tmp_path / "worker.py"
    script.write_text(WORKER)
    for round_, delay in enumerate((0.4, 0.7, 1.0)):
        worker = subprocess.Popen(
            [sys.executable, str(script), str(home), str(1000 + 100 * round_), str(REPO), "1"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert worker.stdout.readline(), "the worker started"
        time.sleep(delay)
        worker.send_signal(signal.SIGKILL)
        worker.wait()
        worker.stdout.close()
        with Cache(home, max_papers=500) as cache:
            assert results(Library(cache)) == afresh(cache, tmp_path)
