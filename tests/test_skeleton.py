"""What a comparison reads of a version: the same from the cached JSON as from the document."""

from __future__ import annotations

import json
import re

import pytest

from arxiv_mcp import reading
from arxiv_mcp.reading import Text
from arxiv_mcp.research import skeleton, versions
from arxiv_mcp.research.skeleton import ITEM_KINDS, Skeleton
from arxiv_mcp.text.document import Document
from arxiv_mcp.text.extract import TextSource, extract
from tests.test_versions import FORMS, PAIRS, PID, V1, V2


def _doc(form: str, content: object) -> Document:
    return extract(form, FORMS[form](content))


def _cached(doc: Document, form: str) -> Text:
    reading._PARSED.clear()  # built documents are shared by payload: read this one as JSON
    return Text.cached(doc.to_json(), TextSource(form))


def _seen(read: Skeleton, unmarked: bool) -> list[tuple[object, ...]]:
    return [(s.number, s.title, s.key, s.raw, s.body) for s in read.sections(unmarked)]


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("content", [V1, V2], ids=["v1", "v2"])
def test_the_json_reads_as_the_document(form: str, content: object) -> None:
    doc = _doc(form, content)
    from_json, from_doc = skeleton.of(_cached(doc, form)), skeleton.of(doc)
    assert from_json.equations == from_doc.equations
    for unmarked in (False, True):
        assert _seen(from_json, unmarked) == _seen(from_doc, unmarked)
    for kind in ITEM_KINDS:
        assert from_json.records(kind) == from_doc.records(kind) == [b.record for b in doc.blocks_of(kind)]


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_a_comparison_of_read_texts_says_what_one_of_documents_says(first: str, second: str) -> None:
    old, new = _doc(first, V1), _doc(second, V2)
    of_docs = versions.compare(PID, versions.Side(1, None, old, first), versions.Side(2, None, new, second))
    texts = versions.Side(1, None, _cached(old, first), first), versions.Side(2, None, _cached(new, second), second)
    assert versions.compare(PID, *texts) == of_docs


def test_a_skeleton_is_kept_with_its_text_and_only_with_it() -> None:
    doc = _doc("html", V1)
    text = _cached(doc, "html")
    assert skeleton.of(text) is skeleton.of(text)
    assert skeleton.of(_cached(doc, "html")) is not skeleton.of(text)  # a new read: made again


def test_two_reads_of_one_payload_share_a_skeleton_and_compare_as_two() -> None:
    doc = _doc("html", V1)
    payload = doc.to_json()
    reading._PARSED.clear()
    reading._TEXTS.clear()
    first, second = Text.cached(payload, TextSource.HTML), Text.cached(payload, TextSource.HTML)
    old, new = skeleton.of_pair(first, second)
    assert old is new  # the same parse, made once
    other = _cached(_doc("html", V2), "html")
    assert skeleton.of_pair(first, other)[1] is not old
    shared = versions.compare(PID, versions.Side(1, None, first, "html"), versions.Side(2, None, second, "html"))
    apart = versions.compare(PID, versions.Side(1, None, doc, "html"), versions.Side(2, None, _doc("html", V1), "html"))
    assert shared == apart
    assert {s["status"] for s in shared.sections} == {"unchanged"} and not shared.items


def test_unreadable_records_are_left_out_not_a_crash() -> None:
    doc = _doc("html", V1)
    raw = json.loads(doc.to_json())
    for block in raw["blocks"]:
        if block[0] == "figure" and len(block) > 3:
            del block[3]["caption"]
    broken = skeleton.of_json(doc.text, raw)
    assert broken.stored(ITEM_KINDS[0]) and broken.records(ITEM_KINDS[0]) == []
    assert _seen(broken, False) == _seen(skeleton.of(doc), False)


@pytest.mark.parametrize("title", [f"2.{chr(code)}A b{chr(code)}" for code in range(128)] + ["Über–Straße: ΣΑΣ"])
def test_a_title_folds_as_the_substitution_folds_it(title: str) -> None:
    punctuation = re.compile(r"[^\w\s]")
    assert skeleton.fold(title) == " ".join(punctuation.sub(" ", title.casefold()).split())
