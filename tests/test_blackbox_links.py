"""Found black-box: get_paper's code and data links, each stated once."""

from __future__ import annotations

from arxiv_mcp.text.links import metadata_links


def test_a_link_the_abstract_and_the_comments_both_state_is_listed_once():
    """Found black-box: get_paper's "Code and data" line listed https://github.com/acme/widget
    twice (abstract, then comments) and a project page with and without its trailing slash."""
    found = metadata_links(
        "Code at https://github.com/acme/widget and our page https://acme.github.io/widget/.",
        "12 pages. Code: https://github.com/acme/widget; project page: https://acme.github.io/widget",
        "2401.00001",
    )
    assert [(link.kind, link.where, link.url) for link in found] == [
        ("code", "abstract", "https://github.com/acme/widget"),
        ("project", "abstract", "https://acme.github.io/widget/"),
    ]


FILLER = "Filler words make the body long enough to count as a paper. " * 8
_HTML = f"""<!DOCTYPE html><html><body><article class="ltx_document"><h1 class="ltx_title ltx_title_document">T</h1>
<section class="ltx_section" id="S1"><h2 class="ltx_title ltx_title_section"><span class="ltx_tag">1 </span>Intro</h2>
<div class="ltx_para"><p class="ltx_p">Haloes spin (<a class="ltx_ref" href="#bib.bib1">Bullock et al., 2001</a>). {FILLER}</p></div>
<div class="ltx_para"><p class="ltx_p">The last sentence of the text says nothing of any link.</p></div></section>
<section class="ltx_bibliography" id="bib"><h2 class="ltx_title ltx_title_bibliography">References</h2>
<ul class="ltx_biblist">
<li class="ltx_bibitem" id="bib.bib1"><span class="ltx_tag ltx_tag_bibitem">Bullock et al. (2001)</span>
<span class="ltx_bibblock">Bullock J. S., Dekel A., 2001, <a class="ltx_ref ltx_href" href="http://dx.doi.org/10/drr2b7">ApJ</a>, 555, 240</span></li>
</ul></section></article></body></html>"""


def test_a_link_behind_a_short_word_stands_where_that_word_is():
    """Found black-box on a real LaTeXML page (Cadiou et al. 2021): a bibliography entry's DOI
    behind the journal's name `ApJ` (under four characters) was listed as a link of the text,
    quoting the paper's last sentence as the one it stands in."""
    from arxiv_mcp.text.extract import extract
    from arxiv_mcp.text.links import document_links

    found = {link.url: link for link in document_links(extract("html", _HTML.encode()))}
    link = found["http://dx.doi.org/10/drr2b7"]
    assert link.where == "bibliography"
    assert "Dekel A., 2001, ApJ" in link.context and "last sentence" not in link.context


def test_a_url_ending_a_sentence_is_not_joined_to_the_next_line():
    """Found black-box on the real PDF 2304.02623: "Notion-AI, https://www.notion.so/." at a
    line's end, then "collecting ...", was read as https://www.notion.so/.collecting."""
    from arxiv_mcp.text.links import urls_in

    text = "apps like mem, https://get.mem.ai and Notion-AI, https://www.notion.so/. collecting and reading papers"
    assert [url for _, _, url in urls_in(text)] == ["https://get.mem.ai", "https://www.notion.so/"]
    assert [url for _, _, url in urls_in("see https://www. nhtsa.gov/crash for data")] == [
        "https://www.nhtsa.gov/crash"
    ]
