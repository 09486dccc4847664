"""Links: URLs found, mended and sorted by kind, in the metadata and in every form of full text."""

from __future__ import annotations

import gzip

import pytest

from arxiv_mcp.text.anchors import html_anchors, tex_anchors
from arxiv_mcp.text.extract import extract
from arxiv_mcp.text.links import document_links, kind_of, link_key, metadata_links, urls_in
from tests.conftest import paper
from tests.pdfgen import make_pdf

PID = "2403.05555"


@pytest.mark.parametrize(
    ("printed", "url"),
    [
        (
            "URL https://www. nhtsa.gov/risky-driving/distracted-driving.",
            "https://www.nhtsa.gov/risky-driving/distracted-driving",
        ),
        ("website, https://multilexsum. github.io, and", "https://multilexsum.github.io"),
        ("see http://arxiv. org/abs/2104.02112.", "http://arxiv.org/abs/2104.02112"),
        ("https://x.org/final_5-8-\n18.pdf today", "https://x.org/final_5-8-18.pdf"),
        ("at https://github.com/org/some-\nrepo/tree/main.", "https://github.com/org/some-repo/tree/main"),
        ("http://users.eecs.northwestern. edu/{~}xsh835/a.pdf", "http://users.eecs.northwestern.edu/~xsh835/a.pdf"),
        ("(see http://a.org/wiki/b_(c)), and", "http://a.org/wiki/b_(c)"),
        ("Code: github.com/foo/bar).", "github.com/foo/bar"),
    ],
)
def test_urls_a_pdf_broke_over_lines_are_mended(printed, url):
    assert [u for *_, u in urls_in(printed)][-1] == url


def test_a_url_at_a_sentence_end_is_not_joined_to_the_next_word():
    assert [u for *_, u in urls_in("at https://www.notion.so/ and at https://github.com/x. We")] == [
        "https://www.notion.so/",
        "https://github.com/x",
    ]


@pytest.mark.parametrize(
    ("url", "cue", "kind"),
    [
        ("https://github.com/a/b", "", "code"),
        ("https://gitlab.inria.fr/a/b", "", "code"),
        ("https://bitbucket.org/a/b", "", "code"),
        ("https://codeberg.org/a/b", "", "code"),
        ("https://huggingface.co/meta/llama", "", "model"),
        ("https://huggingface.co/datasets/a/b", "", "data"),
        ("https://huggingface.co/spaces/a/b", "", "project"),
        ("https://zenodo.org/records/123", "", "data"),
        ("https://figshare.com/articles/x/1", "", "data"),
        ("https://osf.io/abcde", "", "data"),
        ("https://www.kaggle.com/datasets/a/b", "", "data"),
        ("https://a.github.io/proj", "", "project"),
        ("https://doi.org/10.5281/zenodo.4509596", "code is at", "data"),
        ("https://doi.org/10.1145/3534678", "our code is at", "other"),
        ("https://arxiv.org/abs/2101.03961", "the code", "other"),
        ("http://www.cs.example.edu/~me/tool.html", "the code is available at", "code"),
        ("http://www.example.org/page", "the project page is", "project"),
        ("http://www.example.org/page", "", "other"),
        ("https://github.com/org/legal-dataset", "", "data"),
        ("https://github.com/org/llm", "The model checkpoints are available at", "model"),
        ("https://github.com/org/llm", "Our code and model checkpoints are at", "code"),
        ("https://team.github.io/blog/post", "", "other"),
        ("https://www.kaggle.com/c/comp/discussion/1", "", "other"),
        ("https://icst2021.example.org/", "Quality of Software Systems -", "other"),
        ("http://www-sn.example.gov/", "Individual color figures, supplementary tables, and preprint at", "data"),
        ("https://youtu.be/abc", "Please see our supplementary video at", "other"),
    ],
)
def test_kinds_come_from_the_host_then_the_words_before(url, cue, kind):
    assert kind_of(url, cue) == kind


def test_get_papers_links_are_the_code_data_model_and_project_ones_of_abstract_and_comments():
    found = metadata_links(
        "We release code at https://github.com/a/b and data at https://huggingface.co/datasets/x/y. "
        f"See https://arxiv.org/abs/{PID} and https://doi.org/10.1145/1.",
        "12 pages. Project page: https://foo.github.io/bar",
        PID,
    )
    assert [(link.kind, link.where, link.url) for link in found] == [
        ("code", "abstract", "https://github.com/a/b"),
        ("data", "abstract", "https://huggingface.co/datasets/x/y"),
        ("project", "comments", "https://foo.github.io/bar"),
    ]


def test_the_forms_of_one_url_are_one_link():
    found = metadata_links(
        "Code: https://github.com/a/b.git, also https://github.com/a/b#readme and http://www.github.com/a/b/.",
        "The code of https://github.com/a/c, not https://github.com/a/b/tree/dev.",
    )
    assert [link.url for link in found] == [
        "https://github.com/a/b.git",
        "https://github.com/a/c",
        "https://github.com/a/b/tree/dev",
    ]
    assert link_key("https://a.org/#/data") != link_key("https://a.org/#/models")  # a one-page site's routes
    assert link_key("https://a.org/x#usage") == link_key("HTTPS://WWW.A.ORG/x/")
    doc = extract("html", _HTML.replace("online</a>,", "online</a> (https://A.github.io/demo/#top),").encode())
    demo = [link for link in document_links(doc, PID) if "github.io" in link.url]
    assert [(link.url, link.where) for link in demo] == [("https://a.github.io/demo", "text")]


_TEX = rb"""\documentclass{article}
\begin{document}
\section{Introduction}
Our code is at \url{https://github.com/a/tool}.\footnote{Data: \url{https://zenodo.org/records/77}}
The demo is \href{https://a.github.io/demo}{online}. % \href{https://github.com/commented/out}{no}
The paper itself is \url{https://arxiv.org/abs/2403.05555}.
\begin{thebibliography}{9}
\bibitem{k} K. Author. A paper. \url{https://doi.org/10.1145/1}.
\end{thebibliography}
\end{document}
"""

FILLER = "Filler words make the body long enough to count as a paper. " * 8
_HTML = f"""<!DOCTYPE html><html><body><header><a href="https://arxiv.org/">arXiv</a></header>
<article class="ltx_document"><h1 class="ltx_title ltx_title_document">T</h1>
<section class="ltx_section" id="S1"><h2 class="ltx_title ltx_title_section"><span class="ltx_tag">1 </span>Intro</h2>
<div class="ltx_para"><p class="ltx_p">Our code is at <a class="ltx_ref ltx_url" href="https://github.com/a/tool">https://github.com/a/tool</a>.
The demo is <a class="ltx_ref ltx_href" href="https://a.github.io/demo">online</a>, as
<a class="ltx_ref" href="#bib.bib1" title="">[1]</a> shows; some filler words follow here to make a paragraph.
The paper itself is <a href="https://arxiv.org/abs/2403.05555">https://arxiv.org/abs/2403.05555</a>.</p></div>
<div class="ltx_para"><p class="ltx_p">{FILLER}</p></div>
</section></article><footer><a href="https://info.arxiv.org/help/license">License</a></footer></body></html>"""


def test_href_targets_and_html_anchors_are_read():
    assert [(a.url, a.text) for a in tex_anchors({"main.tex": _TEX})] == [("https://a.github.io/demo", "online")]
    bbl = b"in\\ \\href {https://doi.org/10.1/x}\n  {\\emph {\\bibinfo {booktitle} {{7th Conference}}}}\\ (2016)"
    assert [(a.url, a.text) for a in tex_anchors({"main.bbl": bbl})] == [("https://doi.org/10.1/x", "7th Conference")]
    assert [(a.url, a.text) for a in html_anchors(_HTML.encode())] == [("https://a.github.io/demo", "online")]


@pytest.mark.parametrize("form", ["html", "source"])
def test_document_links_by_kind_and_place(form):
    raw = _HTML.encode() if form == "html" else gzip.compress(_TEX, mtime=0)
    found = {(link.url, link.kind, link.where) for link in document_links(extract(form, raw), PID)}
    assert ("https://github.com/a/tool", "code", "text") in found
    assert ("https://a.github.io/demo", "project", "text") in found
    assert not any("2403.05555" in url for url, _, _ in found)  # the paper's own page is left out
    if form == "source":
        assert ("https://zenodo.org/records/77", "data", "footnote") in found
        assert ("https://doi.org/10.1145/1", "other", "bibliography") in found


def test_a_link_stands_with_its_sentence():
    doc = extract(
        "pdf",
        make_pdf(
            [
                "1 Intro\n\nOther words come first. The models were trained with our code, which is available at\nhttps://github.com/a/b. Then we stop."
            ]
        ),
    )
    (link,) = document_links(doc)
    assert link.url == "https://github.com/a/b" and link.kind == "code"
    assert link.context.startswith("The models were trained") and link.context.endswith("https://github.com/a/b.")


@pytest.mark.anyio
async def test_links_through_the_mcp_client_cost_no_request_once_read(fake, connect):
    fake.add(
        paper(
            PID,
            "Tools",
            html=None,
            source=gzip.compress(_TEX, mtime=0),
            abstract="We study tools. Code: https://github.com/a/tool.",
            comment="10 pages; data at https://zenodo.org/records/77",
        )
    )
    async with connect() as client:
        detail = await client.call_tool("get_paper", {"paper_id": PID})
        await client.call_tool("read_paper", {"paper_id": PID})
        fake.clear_log()
        listed = await client.call_tool("read_paper", {"paper_id": PID, "section": "links"})
        card = await client.read_resource(f"arxiv://paper/{PID}")
    assert [r.path for r in fake.requests] == []
    assert [(link["kind"], link["url"]) for link in detail.structured_content["links"]] == [
        ("code", "https://github.com/a/tool"),
        ("data", "https://zenodo.org/records/77"),
    ]
    assert "Code and data: code https://github.com/a/tool; data https://zenodo.org/records/77" in detail.content[0].text
    assert "code https://github.com/a/tool" in card.contents[0].text
    items = listed.structured_content["items"]
    assert {(i["url"], i["kind"], i["where"]) for i in items} >= {
        ("https://github.com/a/tool", "code", "text"),
        ("https://a.github.io/demo", "project", "text"),
        ("https://zenodo.org/records/77", "data", "footnote"),
    }
    assert listed.structured_content["section"] == "links"
