"""compare_versions: known changes found in every form, nothing invented, cost, one-line errors."""

from __future__ import annotations

import itertools

import pytest

from arxiv_mcp.models import AuthorInfo
from arxiv_mcp.research import versions
from arxiv_mcp.research.textdiff import flat, number_changes, sentence_changes, sentences, word_diff
from arxiv_mcp.text.extract import extract
from arxiv_mcp.upstream.atom import Paper
from tests.conftest import paper
from tests.fake_arxiv import NO_PDF
from tests.revisions import V1, V2, Version, as_html, as_latex, as_pdf

PID = "2403.01234"
FORMS = {"html": lambda v: as_html(v).encode(), "source": as_latex, "pdf": as_pdf}
PAIRS = list(itertools.product(FORMS, FORMS))


def _side(version: int, content: Version, form: str) -> versions.Side:
    return versions.Side(version, None, extract(form, FORMS[form](content)), form)


def findings(sections: list[dict], items: list[dict]) -> set[tuple[str, ...]]:
    """What a comparison found, in words that do not depend on the source's wording."""
    found: set[tuple[str, ...]] = set()
    for s in sections:
        if s["status"] != "unchanged":
            found.add(("section", s["status"], s["title_after"] or s["title_before"]))
        found |= {("number", n) for n in s["numbers"]}
    return found | {(i["kind"], i["status"], i["label"]) for i in items}


EXPECTED = {
    ("section", "changed", "Abstract"),
    ("section", "removed", "Background"),
    ("section", "moved", "Method"),
    ("section", "moved", "Results"),
    ("section", "added", "Ablation"),
    ("number", "accuracy 91.2 -> 92.7"),
    ("figure", "added", "Figure 2"),
    ("table", "changed", "Table 1"),
    ("reference", "added", "[3]"),
    ("reference", "added", "[4]"),
}


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_identical_versions_invent_nothing_whatever_their_forms(first, second):
    got = versions.compare(PID, _side(1, V1, first), _side(2, V1, second))
    assert [s["status"] for s in got.sections] == ["unchanged"] * len(got.sections)
    assert got.items == [] and got.metadata == []
    assert "no change found" in got.summary
    assert (got.source_note is None) == (first == second)


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_every_known_change_is_found_whichever_forms_the_versions_come_in(first, second):
    got = versions.compare(PID, _side(1, V1, first), _side(2, V2, second))
    found = findings(got.sections, got.items)
    assert found - {("equation", "changed", "Eq. (1)")} == EXPECTED
    equation_marked = {first, second} <= {"html", "source"}
    if equation_marked:  # both texts mark equations: the item changed
        assert ("equation", "changed", "Eq. (1)") in found
    elif first == second:  # neither marks them: the line changed inside its section
        (method,) = [s for s in got.sections if s["title_after"] == "Method"]
        assert any("lambda b" in sentence for sentence in method["added"])
    else:  # one marks them: not compared, and said so
        assert got.source_note is not None and "marks no equations" in got.source_note
    cells = [i["details"] for i in got.items if i["kind"] == "table"][0]
    assert any("91.2 -> 92.7" in d for d in cells) and any("1.9 -> 2.3" in d for d in cells)


def test_a_table_whose_cells_changed_names_the_cells():
    got = versions.compare(PID, _side(1, V1, "html"), _side(2, V2, "html"))
    (table,) = [i for i in got.items if i["kind"] == "table"]
    assert table["details"] == ["row Ours, Accuracy: 91.2 -> 92.7", "row Ours, Speed: 1.9 -> 2.3"]


def test_text_helpers_report_only_what_differs():
    assert sentence_changes("One. Two.", "One.  Two.") == ([], [])
    assert sentence_changes("One. Two.", "One. Three.") == (["Two."], ["Three."])
    assert number_changes(["The accuracy is 91.2 today."], ["The accuracy is 92.7 today."]) == ["accuracy 91.2 -> 92.7"]
    assert word_diff("a b c", "a b c") == ""
    assert word_diff("small models win", "tiny models win") == "[-small-] {+tiny+} models win"
    assert word_diff(
        "to two experts keeps quality while halving compute.", "to one expert keeps quality while cutting compute."
    ) == (
        "to [-two experts-] {+one expert+} keeps quality while [-halving-] {+cutting+} compute."
    )  # each word once, however close the changes


@pytest.mark.parametrize("blank", [" ", "\n\n"])
def test_sentences_split_the_same_with_or_without_blank_lines(blank):
    text = f"We train  it.\nThe loss (in eq. x) falls!  [4] agrees?{blank}2 runs. e.g. this\tstays. “Quoted” ends"
    assert sentences(text) == [
        "We train it.",
        "The loss (in eq. x) falls!",
        "[4] agrees?",
        "2 runs. e.g. this stays.",
        "“Quoted” ends",
    ]


@pytest.mark.parametrize(
    "text",
    ["", "a b\nc", "\na b", "a b\n", "a\n\nb", "a \nb", "a\tb", "a\rb", "a\x1cb", "a\x0bb", "a\xa0b", "é b\nc"],
)
def test_flat_collapses_every_blank_as_split_does(text):
    assert flat(text) == " ".join(text.split())


# --- through the real MCP client ---------------------------------------------------------------


def _two_versions(form_v1: str, form_v2: str, **kw) -> object:
    """The paper with v1 and v2 served in one form each (html, source, pdf, or ar5iv for the
    latest of a paper from before arXiv's HTML: the others absent)."""

    def served(content: Version, form: str) -> dict[str, object]:
        return {
            "title": content.title,
            "abstract": content.abstract,
            "html": as_html(content) if form == "html" else None,
            "ar5iv": as_html(content) if form == "ar5iv" else None,
            "source": as_latex(content) if form == "source" else None,
            "pdf": as_pdf(content) if form == "pdf" else NO_PDF,
        }

    first = served(V1, form_v1)
    if form_v2 == "ar5iv":  # ar5iv renders the latest version only, and papers before Dec 2023
        kw = {"year": 2019, **kw}
    return paper(PID, str(first.pop("title")), versions=2, revisions={1: first, 2: served(V2, form_v2)}, **kw)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("form_v1", "form_v2"),
    [("html", "html"), ("source", "source"), ("pdf", "pdf"), ("pdf", "html"), ("source", "ar5iv")],
)
async def test_compare_versions_through_the_mcp_client(fake, connect, form_v1, form_v2):
    fake.add(_two_versions(form_v1, form_v2))
    async with connect() as client:
        cold = await client.call_tool("compare_versions", {"paper_id": PID})
        asked_cold = [r.path for r in fake.requests]
        fake.clear_log()
        # a versioned id names the version compared from: "what changed since v1?"
        warm = await client.call_tool("compare_versions", {"paper_id": f"{PID}v1"})
        assert [r.path for r in fake.requests] == []  # warm: no request at all
    result = cold.structured_content
    assert not cold.is_error and result == warm.structured_content
    found = findings(result["sections"], result["items"])
    assert found - {("equation", "changed", "Eq. (1)")} == EXPECTED
    changed = {m["field"]: m for m in result["metadata"]}
    assert set(changed) == {"title", "abstract"}
    assert changed["title"]["diff"] == "Sparse Routing for [-Small-] {+Tiny+} Language Models"
    assert "to [-two experts-] {+one expert+} keeps" in changed["abstract"]["diff"]
    assert cold.content[0].text.startswith(f"{PID} v1 (")
    assert all(v["file_bytes"] > 0 for v in result["versions"])  # each file's size, as the cache's index has it
    reads = [p for p in asked_cold if not p.startswith("/api/")]
    assert len([p for p in asked_cold if p.startswith("/api/")]) == 1  # both versions' metadata in one request
    if form_v1 == form_v2 == "html":
        assert reads == [f"/html/{PID}v1", f"/html/{PID}v2"]  # two reads, one request each
    if form_v2 == "ar5iv":  # before arXiv's HTML: v1 from its e-print, the latest from ar5iv
        assert reads == [f"/e-print/{PID}v1", f"/ar5iv/html/{PID}v2"]


@pytest.mark.anyio
async def test_versions_that_do_not_exist_or_cannot_compare_get_one_line(fake, connect):
    fake.add(paper("2403.00001", "Only once", html=None))
    fake.add(_two_versions("html", "html"))
    async with connect() as client:
        single = await client.call_tool("compare_versions", {"paper_id": "2403.00001"})
        missing = await client.call_tool("compare_versions", {"paper_id": PID, "to_version": 5})
        same = await client.call_tool("compare_versions", {"paper_id": PID, "from_version": 2, "to_version": 2})
        latest = await client.call_tool("compare_versions", {"paper_id": f"{PID}v2"})
        both = await client.call_tool("compare_versions", {"paper_id": f"{PID}v2", "from_version": 1})
        fake.clear_log()
        unknown = await client.call_tool("compare_versions", {"paper_id": "2403.09999"})
        assert len(fake.requests) == 1  # one id_list request says the paper is not there
    assert single.is_error and "has one version (v1)" in single.content[0].text
    assert missing.is_error and f"{PID} has no v5: its versions are v1 to v2" in missing.content[0].text
    assert same.is_error and "both v2" in same.content[0].text
    assert latest.is_error and f"v2 is the latest version of {PID}" in latest.content[0].text
    assert both.is_error and f"{PID}v2 names v2 and from_version v1: give the bare id" in both.content[0].text
    assert unknown.is_error and "arXiv has no paper 2403.09999" in unknown.content[0].text
    for result in (single, missing, same, latest, both, unknown):
        assert "\n" not in result.content[0].text.strip()


@pytest.mark.anyio
async def test_a_withdrawn_version_is_named_as_withdrawn(fake, connect):
    withdrawn = _two_versions("html", "html")
    withdrawn.revisions[2] = {  # type: ignore[attr-defined]
        "comment": "This paper has been withdrawn by the authors",
        "html": None,
        "source": None,
        "pdf": NO_PDF,
    }
    fake.add(withdrawn)
    async with connect() as client:
        result = await client.call_tool("compare_versions", {"paper_id": PID})
    assert result.is_error and f"{PID}v2 was withdrawn" in result.content[0].text


def _meta(version: int, **changed: object) -> Paper:
    fields: dict[str, object] = {
        "id": PID,
        "version": version,
        "title": "Sparse Routing",
        "abstract": "We route tokens.",
        "authors": [AuthorInfo("Ada Lovelace"), AuthorInfo("Alan Turing")],
        "categories": ["cs.LG"],
        "primary_category": "cs.LG",
        "published": "2024-03-05T12:00:00Z",
        "updated": f"2024-03-0{4 + version}T12:00:00Z",
    }
    return Paper(**{**fields, **changed})  # type: ignore[arg-type]


def test_metadata_changes_name_each_field():
    before = _meta(1, comment="10 pages")
    after = _meta(
        3,
        authors=[AuthorInfo("Alan Turing"), AuthorInfo("Ada Lovelace"), AuthorInfo("Grace Hopper")],
        categories=["cs.LG", "cs.CL"],
        comment="12 pages, ICML 2024",
        journal_ref="ICML 2024",
        doi="10.1000/xyz",
    )
    changed = {c.field: c for c in versions.metadata_changes(before, after)}
    assert set(changed) == {"authors", "categories", "comment", "journal_ref", "doi"}
    assert changed["authors"].diff == "added: Grace Hopper; reordered"
    assert changed["categories"].diff == "{+cs.CL+}"
    assert versions.metadata_changes(before, _meta(2, comment="10 pages")) == []  # dates apart, the same
    got = versions.compare(
        PID,
        versions.Side(1, before, extract("html", FORMS["html"](V1)), "html"),
        versions.Side(3, after, extract("html", FORMS["html"](V1)), "html"),
    )
    assert [v["date"] for v in got.versions] == ["2024-03-05T12:00:00Z", "2024-03-07T12:00:00Z"]
    assert got.summary.startswith(f"{PID} v1 (2024-03-05, html) -> v3 (2024-03-07, html): authors changed")
