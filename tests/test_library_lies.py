"""A library.idx whose checksum holds but whose contents lie (issue 34.6) is rebuilt from the
papers, through the real MCP client: postings naming papers the file lacks, snippet sources
that are not UTF-8 or cut inside a character, runs that end before they start (negative ends
once gave a silent "0 matches") or past the postings, ids or terms repeated. Each lie is written with a valid checksum, as
a bug or a hand could; `search_cached` answers as an index built afresh would, every call, and
the file is rewritten whole."""

from __future__ import annotations

import json
import struct
import sys
import zlib
from array import array
from collections.abc import Callable

import pytest

from arxiv_mcp.research.library import INDEX_FILE
from arxiv_mcp.research.local_search import FIELDS, FILE_FORMAT, FILE_MAGIC, LocalIndex
from tests.test_library_index import fill

pytestmark = pytest.mark.anyio

Parts = dict  # header, the packed arrays by name, the texts (ids, terms, checksums) as lists, sources
ARRAYS = ("lengths", "source_ends", "source_sums", "versions", "ends", "postings")
TEXTS = ("ids", "terms", "checksums")


def unpack(data: bytes) -> Parts:
    body = data[len(FILE_MAGIC) + 4 :]
    (size,) = struct.unpack_from("<Q", body)
    header = json.loads(body[8 : 8 + size])
    slots, terms, pairs = header["slots"], header["terms"], header["pairs"]
    parts: Parts = {"header": header}
    at = 8 + size
    for name, count in zip(ARRAYS, (slots * len(FIELDS), slots, slots, slots, terms, 2 * pairs)):
        parts[name] = array("I")
        parts[name].frombytes(body[at : at + 4 * count])
        at += 4 * count
    for name, length in zip(TEXTS, header["texts"]):
        parts[name] = body[at : at + length].decode().split("\0")
        at += length
    parts["sources"] = body[at:]
    return parts


def sealed(parts: Parts) -> bytes:
    """The parts as a file whose checksum holds, whatever they say."""
    texts = ["\0".join(parts[name]).encode() for name in TEXTS]
    header = {**parts["header"], "texts": [len(text) for text in texts]}
    head = json.dumps(header, separators=(",", ":")).encode()
    arrays = b"".join(parts[name].tobytes() for name in ARRAYS)
    body = struct.pack("<Q", len(head)) + head + arrays + b"".join(texts)
    return FILE_MAGIC + struct.pack("<I", zlib.crc32(body)) + body + parts["sources"]


def far_postings(p: Parts) -> None:
    postings = p["postings"]
    postings[0::2] = array("I", [10**6]) * (len(postings) // 2)


def not_utf8(p: Parts) -> None:
    p["sources"] = b"\xff\xfe" + p["sources"][2:]


def cut_in_a_character(p: Parts) -> None:
    p["sources"] = "é".encode() + p["sources"][2:]
    p["source_ends"][0] = 1


def negative_ends(p: Parts) -> None:
    """-2 as a writer would store it unsigned; the last end (the postings' length) still holds."""
    ends = p["ends"]
    ends[:-1] = array("I", [2**32 - 2]) * (len(ends) - 1)


def run_past_the_postings(p: Parts) -> None:
    p["ends"][-1] += 1


def repeated_ids(p: Parts) -> None:
    p["ids"][1] = p["ids"][0]


def repeated_terms(p: Parts) -> None:
    p["terms"][1] = p["terms"][0]


def sources_too_short(p: Parts) -> None:
    p["sources"] = p["sources"][:-10]


LIES: list[Callable[[Parts], None]] = [
    far_postings,
    not_utf8,
    cut_in_a_character,
    negative_ends,
    run_past_the_postings,
    repeated_ids,
    repeated_terms,
    sources_too_short,
]


@pytest.mark.skipif(sys.byteorder != "little", reason="the fixture writes native arrays as little-endian")
@pytest.mark.parametrize("lie", LIES, ids=lambda f: f.__name__)
async def test_a_lying_index_is_rebuilt_and_every_search_answers(connect, make_config, lie):
    config = make_config()
    queries = ["sparse attention", "graph kernel bound", "operator"]
    async with connect(config=config) as client:
        svc_home = config.home
        from arxiv_mcp.cache.store import Cache

        with Cache(svc_home, max_papers=500) as cache:
            fill(cache, 30)
        truth = [
            (await client.call_tool("search_cached", {"query": q, "limit": 20})).structured_content for q in queries
        ]
    path = svc_home / INDEX_FILE
    parts = unpack(path.read_bytes())
    lie(parts)
    path.write_bytes(sealed(parts))
    assert not sound(path.read_bytes(), queries)  # the checksum holds; the contents do not
    async with connect(config=config) as client:
        for _ in range(2):
            got = [
                (await client.call_tool("search_cached", {"query": q, "limit": 20})).structured_content for q in queries
            ]
            assert got == truth
    assert sound(path.read_bytes(), queries)  # rewritten whole, at once


def sound(data: bytes, queries: list[str]) -> bool:
    """Whether an index file loads, answers `queries` and gives every paper's title (postings
    and snippet sources are checked as read)."""
    try:
        index, _ = LocalIndex.from_bytes(data)
        for query in queries:
            index.search(query, 20)
        for doc_id in list(index.ids()):
            index.title(doc_id)
    except ValueError:
        return False
    return True


def test_the_fixture_seals_an_honest_file_as_it_was(tmp_path):
    from arxiv_mcp.cache.store import Cache
    from arxiv_mcp.research.library import Library

    with Cache(tmp_path / "home", max_papers=500) as cache:
        fill(cache, 30)
        Library(cache).search("sparse", 5)
    data = (tmp_path / "home" / INDEX_FILE).read_bytes()
    assert sealed(unpack(data)) == data


def test_a_file_of_the_older_format_is_rebuilt_and_rewritten(tmp_path):
    """An upgrade finds a format before this one (2: its lists in a JSON header): it is derived
    data, so the papers are read once and the file is written anew in this format."""
    from arxiv_mcp.cache.store import Cache
    from arxiv_mcp.research.library import Library

    home = tmp_path / "home"
    with Cache(home, max_papers=500) as cache:
        fill(cache, 30)
        expected = [(h.paper_id, h.score) for h in Library(cache).search("sparse attention", 20)]
        parts = unpack((home / INDEX_FILE).read_bytes())
        parts["header"]["format"] = 2
        (home / INDEX_FILE).write_bytes(sealed(parts))
        assert [(h.paper_id, h.score) for h in Library(cache).search("sparse attention", 20)] == expected
    assert unpack((home / INDEX_FILE).read_bytes())["header"]["format"] == FILE_FORMAT


def test_a_file_cut_short_in_place_after_its_load_is_rebuilt(tmp_path):
    """Where snippet sources stay on disk after a load (os.pread), the file may change under a
    process that holds it open (another process replaces it: the held one stays readable; a hand
    cuts it in place): what is read is checked against its checksum, so the cut is IndexLies and
    the index is rebuilt from the papers, never a crash or a garbled snippet."""
    from arxiv_mcp.cache.store import Cache
    from arxiv_mcp.research.library import Library

    home = tmp_path / "home"
    with Cache(home, max_papers=500) as cache:
        fill(cache, 30)
        expected = [(h.paper_id, h.score, h.snippet) for h in Library(cache).search("sparse attention", 20)]
        library = Library(cache)
        library.search("operator", 1)  # loaded
        path = home / INDEX_FILE
        with path.open("r+b") as file:
            file.truncate(path.stat().st_size - 2000)
        assert [(h.paper_id, h.score, h.snippet) for h in library.search("sparse attention", 20)] == expected
    assert sound(path.read_bytes(), ["sparse attention"])
