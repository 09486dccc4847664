"""Every tool's arguments driven by hypothesis through the MCP client.

Strings with control characters and any Unicode, huge and negative numbers, wrong types,
missing and unknown arguments, very long queries. The server must answer every call within
a bound (it never hangs), every failure must be a tool error with a message (an argument
the schema rejects, or one of the server's own errors: never an internal exception), the
server must keep answering, and the cache home must afterwards hold nothing outside its
layout (and nothing be written beside it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import anyio
import pytest
from anyio.from_thread import start_blocking_portal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp.client import Client

from arxiv_mcp.cache.files import parse_file_name
from arxiv_mcp.server import build_server
from arxiv_mcp.service import ArxivService
from arxiv_mcp.tool_groups import TOOL_GROUPS
from tests.conftest import html_paper, paper
from tests.fake_arxiv import eprint
from tests.test_faults import LATEX

TOOLS = [name for names in TOOL_GROUPS.values() for name in names if name != "mirror_status"]
"""Every tool a server without a mirror lists (mirror_status needs ARXIV_MCP_MIRROR)."""
CALL_TIMEOUT_S = 30
EXAMPLES_PER_TOOL = 40

HTML_ID, SOURCE_ID, OLD_ID = "2403.00001", "2403.00002", "hep-th/9901001"
GOOD_IDS = [
    HTML_ID,
    HTML_ID + "v1",
    SOURCE_ID,
    f"arXiv:{SOURCE_ID}v1",
    OLD_ID,
    "2403.09999",
    f"https://arxiv.org/abs/{HTML_ID}",
    f"10.48550/arXiv.{HTML_ID}",
]
# Values each argument takes when used as meant, so that most calls get past the schema and
# into the service; the rest of the strategy mixes in anything at all.
GOOD_STRINGS = {
    "session_id": ["fuzz-1", "fuzz.session_2"],
    "fmt": ["pdf", "source"],
    "sort_by": ["relevance", "submittedDate", "lastUpdatedDate"],
    "sort_order": ["ascending", "descending"],
    "date_from": ["2024-01-01", "2023-12-31", "2024-02-30"],
    "date_to": ["2024-12-31", "1999-01-01"],
    "category": ["cs.LG", "cs.AI,stat.ML", "math.GT", "hep-th"],
    "group": ["cs", "Physics", "cs.AI", "math"],
    "section": ["outline", "section:1", "section:99", "Introduction", "Results"],
    "query": ["attention graphs", '"unicorn dataset"', "ti:attention AND au:Lovelace", "knots", "zebra lemma"],
    "title": ["attention", "knots"],
    "author": ["Ada Lovelace", "Turing"],
    "abstract": ["graphs"],
}
GOOD_NUMBERS = {
    "page": (1, 5),
    "page_size": (1000, 100_000),
    "max_results": (1, 50),
    "start": (0, 100),
    "limit": (1, 100),
    "max_hits": (1, 100),
    "window_days": (1, 365),
    "abstract_max_chars": (0, 500),
}

# --- the cache home's layout ---------------------------------------------------------------------

HOME_FILES = {".lock", "index.json", "journal.jsonl", "sessions.json", "library.idx", "ratelimit-arxiv", "ratelimit-s2"}
HOME_DIRS = {"papers", "searches", "tmp", "locks"}
LOCK_FILE = re.compile(r"(\.lock|ratelimit-(arxiv|s2)\.lock)(\.gen|\.dirty|\.[1-9]\d*)?")
"""The leased locks' files: generation number, later generations, the superseded holder's mark."""
SEARCH_FILE = re.compile(r"[0-9a-f]{40}\.json")


def layout_problems(home: Path) -> list[str]:
    """Anything in the cache home that its layout does not allow, as readable lines."""
    problems = []
    for entry in home.iterdir():
        if entry.is_symlink() or (entry.name not in HOME_FILES | HOME_DIRS and not LOCK_FILE.fullmatch(entry.name)):
            problems.append(f"unexpected {entry.name}")
        elif (entry.name in HOME_DIRS) != entry.is_dir():
            problems.append(f"{entry.name} has the wrong type")
    for entry in (home / "papers").iterdir():
        if entry.is_symlink() or not entry.is_file() or parse_file_name(entry.name) is None:
            problems.append(f"unexpected papers/{entry.name}")
    for entry in (home / "searches").iterdir():
        if entry.is_symlink() or not entry.is_file() or not SEARCH_FILE.fullmatch(entry.name):
            problems.append(f"unexpected searches/{entry.name}")
    problems += [f"left in tmp: {entry.name}" for entry in (home / "tmp").iterdir()]
    return problems


def assert_well_formed(result, name: str, args: dict) -> None:
    assert result.content and result.content[0].text.strip(), (name, args)
    if not result.is_error:
        return
    text = result.content[0].text
    ours = result.structured_content is None and "kind" in (result.meta or {})
    assert ours and "validation error" not in text, f"{name}({args!r}) leaked an internal error: {text[:500]}"


# --- strategies ------------------------------------------------------------------------------------

any_text = st.text(st.characters(codec="utf-8"), max_size=60)
nasty_text = st.sampled_from(
    [
        "",
        " ",
        "\x00",
        "\x00" * 50,
        "\u202e\u0000\ufeff",
        "../../../../etc/passwd",
        "%s%n%x",
        "'; DROP TABLE papers; --",
        "\\" * 300,
        "(" * 500,
        '"' * 301,
        "ti:" * 400,
        "a" * 100_000,
        "word " * 20_000,
        "\U0001f600" * 1000,
        "AND OR ANDNOT " * 300,
        "cat:" + "x" * 5000,
    ]
)
wrong_type = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.lists(any_text, max_size=3),
    st.dictionaries(any_text, st.integers(), max_size=2),
)
numbers = st.one_of(
    st.integers(-(10**30), 10**30),
    st.sampled_from([0, 1, -1, 2, 10, 100, 999, 1000, 2000, 2001, 29999, 30000, 100_000, 2**31, 2**63]),
)


def strings_for(name: str, meant: bool) -> st.SearchStrategy:
    good = st.sampled_from(GOOD_STRINGS.get(name) or GOOD_IDS)
    return good if meant else st.one_of(good, any_text, nasty_text)


def numbers_for(name: str, meant: bool) -> st.SearchStrategy:
    low, high = GOOD_NUMBERS.get(name, (0, 10))
    return st.integers(low, high) if meant else st.one_of(st.integers(low, high), numbers)


def value_for(name: str, schema: dict, meant: bool) -> st.SearchStrategy:
    types = schema.get("type", "string")
    types = types if isinstance(types, list) else [types]
    typed = []
    for kind in types:
        if kind == "string":
            typed.append(strings_for(name, meant))
        elif kind == "integer":
            typed.append(numbers_for(name, meant))
        elif kind == "boolean":
            typed.append(st.booleans())
        elif kind == "array":
            typed.append(st.lists(strings_for(name, meant), min_size=1 if meant else 0, max_size=5 if meant else 60))
        elif kind == "null" and not meant:
            typed.append(st.none())
    return st.one_of(*typed)


@st.composite
def arguments(draw, schema: dict) -> dict:
    """Arguments for one call, in one of three moods: as meant (values a model would send),
    typed (any string or number of the right type), or wild (wrong types, missing required
    arguments, unknown extras)."""
    mood = draw(st.sampled_from(["meant", "meant", "typed", "wild"]))
    required = set(schema.get("required", []))
    args = {}
    for name, prop in schema.get("properties", {}).items():
        if name not in required and draw(st.integers(0, 2)) > (0 if mood == "meant" else 1):
            continue
        if name in required and mood == "wild" and draw(st.integers(0, 9)) == 0:
            continue
        wrong = mood == "wild" and draw(st.integers(0, 2)) == 0
        args[name] = draw(wrong_type if wrong else value_for(name, prop, mood == "meant"))
    if mood == "wild" and draw(st.integers(0, 3)) == 0:
        args[draw(any_text)] = draw(wrong_type)
    return args


# --- one server for all examples of a tool ------------------------------------------------------


@dataclass
class Served:
    portal: object
    client: Client
    schemas: dict[str, dict]
    home: Path

    def call(self, name: str, args: dict):
        async def bounded():
            with anyio.fail_after(CALL_TIMEOUT_S):  # a hang fails the test instead of stalling it
                return await self.client.call_tool(name, args)

        return self.portal.call(bounded)


@pytest.fixture
def served(fake, make_config, tmp_path):
    p = html_paper(HTML_ID, "Attention for graphs")
    p.references, p.citations = [{"title": "A survey", "year": 2019, "authors": ["A. Author"]}], []
    fake.add(p)
    fake.add(paper(SOURCE_ID, "Knots from the source", source=eprint({"main.tex": LATEX})))
    fake.add(paper(OLD_ID, "Strings", year=1999, month=1, versions=2))
    config = make_config(ARXIV_MCP_TIMEOUT_S=1, ARXIV_MCP_DEADLINE_S=20, ARXIV_MCP_MAX_DOWNLOAD_MB=2)
    svc = ArxivService(config)
    svc.http.backoff_s = 0.01
    svc.http.s2.limiter.interval = 0.0
    with start_blocking_portal() as portal:
        with portal.wrap_async_context_manager(Client(build_server(config, svc))) as client:
            schemas = {t.name: t.input_schema for t in portal.call(client.list_tools).tools}
            yield Served(portal, client, schemas, config.home)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home"]  # nothing written beside the home
    assert layout_problems(config.home) == []


def test_the_fuzzed_tools_are_all_the_tools(served):
    assert sorted(served.schemas) == sorted(TOOLS)


@pytest.mark.parametrize("tool", TOOLS)
@settings(
    max_examples=EXAMPLES_PER_TOOL,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_any_arguments_get_an_answer(served, tool, data):
    args = data.draw(arguments(served.schemas[tool]), label="arguments")
    result = served.call(tool, args)
    assert_well_formed(result, tool, args)
    alive = served.call("list_categories", {"group": "cs"})
    assert not alive.is_error
    assert layout_problems(served.home) == []


@pytest.mark.parametrize(
    "tool, args",
    [
        ("search_papers", {"query": "a" * 100_000}),
        ("search_papers", {"title": "word " * 20_000}),
        ("find_in_paper", {"paper_id": HTML_ID, "query": "unicorn " * 20_000}),
        ("search_cached", {"query": "x" * 100_000}),
        ("read_paper", {"paper_id": HTML_ID, "section": "s" * 100_000}),
        ("get_paper", {"paper_id": "2" * 100_000}),
        ("export_bibtex", {"paper_ids": [HTML_ID] * 10_000}),
        ("search_papers", {"id_list": ["2403.00001"] * 10_000}),
        ("read_paper", {"paper_id": HTML_ID, "page": 10**30, "page_size": -(10**30)}),
        ("category_trends", {"category": "cs.LG", "window_days": 10**30}),
    ],
)
def test_huge_arguments_are_answered_quickly(served, tool, args):
    result = served.call(tool, args)
    assert_well_formed(result, tool, {k: str(v)[:40] for k, v in args.items()})


def test_a_query_too_long_for_arxiv_is_refused_before_any_request(served, fake):
    fake.clear_log()
    result = served.call("search_papers", {"query": "graphs " * 15_000})
    assert result.is_error and result.meta["kind"] == "InvalidInput"
    assert fake.requests_to("/api/") == []
