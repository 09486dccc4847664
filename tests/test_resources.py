"""Resources, the literature-review prompt, completions and the local library, via the MCP client."""

from __future__ import annotations

import time

import pytest
from mcp.types import PromptReference, ResourceTemplateReference

from arxiv_mcp.errors import InvalidInput
from arxiv_mcp.ids import PaperId
from tests.conftest import html_paper, paper

pytestmark = pytest.mark.anyio


async def test_resources_list_templates_and_read(fake, connect):
    fake.add(html_paper("2403.00003", "Attention for graphs"))
    fake.add(paper("hep-th/9901001", "Strings", year=1999, month=1))
    async with connect() as client:
        listed = await client.list_resources()
        templates = await client.list_resource_templates()
        cats = await client.read_resource("arxiv://categories")
        card = await client.read_resource("arxiv://paper/2403.00003")
        text = await client.read_resource("arxiv://paper/2403.00003/text")
        old = await client.read_resource("arxiv://paper/hep-th%2F9901001")
    assert "arxiv://categories" in [str(r.uri) for r in listed.resources]
    assert {t.uri_template for t in templates.resource_templates} == {
        "arxiv://paper/{paper_id}",
        "arxiv://paper/{paper_id}/text",
        "arxiv://paper/{paper_id}/figure/{number}",
        "arxiv://trends/{category}/{window_days}/chart",
    }
    assert "`cs.AI` Artificial Intelligence" in cats.contents[0].text
    assert card.contents[0].text.startswith("# Attention for graphs")
    assert "## Abstract" in card.contents[0].text
    assert "Transformers changed" in text.contents[0].text
    assert "# Strings" in old.contents[0].text


async def test_prompt(connect):
    async with connect() as client:
        prompts = await client.list_prompts()
        got = await client.get_prompt("literature_review", {"topic": "graph transformers", "max_papers": "5"})
    assert [p.name for p in prompts.prompts] == ["literature_review"]
    body = got.messages[0].content.text
    for step in ("category_trends", "search_papers", "read_paper", "arXiv:", "graph transformers", "5"):
        assert step in body


async def test_completions(fake, connect):
    fake.add(html_paper("2403.00003", "Attention for graphs"))
    async with connect() as client:
        await client.call_tool("get_paper", {"paper_id": "2403.00003"})
        ids = await client.complete(
            ResourceTemplateReference(type="ref/resource", uri="arxiv://paper/{paper_id}"),
            {"name": "paper_id", "value": "2403"},
        )
        cats = await client.complete(
            PromptReference(type="ref/prompt", name="literature_review"), {"name": "category", "value": "cs.A"}
        )
    assert ids.completion.values == ["2403.00003"]
    assert "cs.AI" in cats.completion.values and "cs.AR" in cats.completion.values


async def test_search_cached_ranks_offline(fake, connect, make_config):
    from arxiv_mcp.service import ArxivService

    strong = html_paper(
        "2403.00020",
        "Graph neural networks for molecules",
        sections=[
            ("Introduction", "Graph neural networks on molecules. " * 30),
            ("Method", "Message passing graph neural networks over molecular graphs. " * 30),
        ],
    )
    weak = html_paper(
        "2403.00021",
        "Protein folding",
        sections=[
            ("Introduction", "Protein structure prediction. " * 30),
            ("Related", "One line mentions graph neural networks once. " + "Folding energy. " * 40),
        ],
    )
    fake.add(strong)
    fake.add(weak)
    svc = ArxivService(make_config())
    for pid in ("2403.00020", "2403.00021"):
        svc.read_paper(pid)
    fake.clear_log()
    async with connect(service=svc) as client:
        r = await client.call_tool("search_cached", {"query": "graph neural networks"})
    hits = r.structured_content["hits"]
    assert [h["paper_id"] for h in hits][:2] == ["2403.00020", "2403.00021"]
    assert hits[0]["score"] > hits[1]["score"]
    assert fake.requests == []


def test_search_cached_names_each_id_of_a_query_once(service):
    """A query of arXiv ids matches no words; the answer says once per paper whether it is
    cached, however often (and in whatever form) the query repeats an id."""
    with pytest.raises(InvalidInput) as caught:
        service.search_cached("2403.00009, arXiv:2403.00009 2403.00009")
    assert str(caught.value).count("2403.00009 is not cached") == 1, caught.value


def test_search_cached_is_fast_at_1000_papers(make_config, monkeypatch):
    from arxiv_mcp.service import ArxivService

    svc = ArxivService(make_config(ARXIV_MCP_MAX_PAPERS=2000))
    words = "graph neural network transformer attention protein galaxy quantum knot lattice".split()
    for i in range(1000):
        title = f"{words[i % 10]} {words[(i * 3) % 10]} study {i}"
        svc.cache.put_meta(
            PaperId(f"2401.{i:05d}", 1),
            {
                "id": f"2401.{i:05d}",
                "version": 1,
                "title": title,
                "abstract": " ".join(words) * 3,
                "authors": [{"name": "A B"}],
            },
            latest=True,
        )
    svc.search_cached("warm up the index")
    reads = []
    read_papers = svc.cache.iter_documents

    def counted(*args, **kwargs):
        for document in read_papers(*args, **kwargs):
            reads.append(document[0])
            yield document

    monkeypatch.setattr(svc.cache, "iter_documents", counted)
    start = time.process_time()  # CPU time: other jobs on the machine do not count
    result = svc.search_cached("quantum knot lattice")
    elapsed = time.process_time() - start
    assert result.papers_in_library == 1000 and result.hits
    assert reads == []  # the index is kept: a later search reads no paper file again
    assert elapsed < 0.5  # the figure (a few ms) is printed by benchmarks; this only catches a blow-up
