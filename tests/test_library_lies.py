"""A library.idx whose checksum holds but whose contents lie (issue 34.6) is rebuilt from the
papers, through the real MCP client: postings naming papers the file lacks, snippet sources
that are not UTF-8 or cut inside a character, runs that end before they start (negative ends
once gave a silent "0 matches"), ids repeated. Each lie is written with a valid checksum, as
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
from arxiv_mcp.research.local_search import FIELDS, FILE_MAGIC, LocalIndex
from tests.test_library_index import fill

pytestmark = pytest.mark.anyio

Parts = dict  # header, lengths, source_ends, postings, sources


def unpack(data: bytes) -> Parts:
    body = data[len(FILE_MAGIC) + 4 :]
    (size,) = struct.unpack_from("<Q", body)
    header = json.loads(body[8 : 8 + size])
    slots, pairs = len(header["ids"]), header["ends"][-1]
    at, arrays = 8 + size, []
    for count in (slots * len(FIELDS), slots, pairs):
        numbers = array("I")
        numbers.frombytes(body[at : at + 4 * count])
        arrays.append(numbers)
        at += 4 * count
    return {
        "header": header,
        "lengths": arrays[0],
        "source_ends": arrays[1],
        "postings": arrays[2],
        "sources": body[at:],
    }


def sealed(parts: Parts) -> bytes:
    """The parts as a file whose checksum holds, whatever they say."""
    head = json.dumps(parts["header"], separators=(",", ":")).encode()
    arrays = parts["lengths"].tobytes() + parts["source_ends"].tobytes() + parts["postings"].tobytes()
    body = struct.pack("<Q", len(head)) + head + arrays + parts["sources"]
    return FILE_MAGIC + struct.pack("<I", zlib.crc32(body)) + body


def far_postings(p: Parts) -> None:
    postings = p["postings"]
    postings[0::2] = array("I", [10**6]) * (len(postings) // 2)


def not_utf8(p: Parts) -> None:
    p["sources"] = b"\xff\xfe" + p["sources"][2:]


def cut_in_a_character(p: Parts) -> None:
    p["sources"] = "é".encode() + p["sources"][2:]
    p["source_ends"][0] = 1


def negative_ends(p: Parts) -> None:
    ends = p["header"]["ends"]
    ends[:-1] = [-2] * (len(ends) - 1)  # the last end (the postings' length) still holds


def odd_run(p: Parts) -> None:
    p["header"]["ends"][0] += 1


def repeated_ids(p: Parts) -> None:
    p["header"]["ids"][1] = p["header"]["ids"][0]


def sources_too_short(p: Parts) -> None:
    p["sources"] = p["sources"][:-10]


LIES: list[Callable[[Parts], None]] = [
    far_postings,
    not_utf8,
    cut_in_a_character,
    negative_ends,
    odd_run,
    repeated_ids,
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
    """Whether an index file loads and answers `queries` (postings are checked as read)."""
    try:
        index, _ = LocalIndex.from_bytes(data)
        for query in queries:
            index.search(query, 20)
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
