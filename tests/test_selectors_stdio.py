"""Every selector form of issue 21, black-box: the SDK client over stdio talks to a fresh
`python -m arxiv_mcp` reading small LaTeXML and latexml-oxide pages from the fake arXiv.

One page is read per paper (one request); every view after it comes from the cached document
with no request; a figure's image costs one request, once. The pages are written here in the
markup each converter prints (LaTeXML 0.8: arabic section tags; latexml-oxide on a REVTeX
paper: roman section tags, `IV.A` subsections, its own generator line)."""

from __future__ import annotations

import pytest
from mcp.client import Client

from tests.conftest import html_paper
from tests.selecting import said, stdio_server

LATEXML, OXIDE = "2403.00031", "2403.00032"
_FILLER = "The method is described in enough words that the page is read as a paper and not a stub. " * 4


def _section(tag: str, title: str, body: str, level: int = 2, kind: str = "section") -> str:
    return (
        f'<section class="ltx_{kind}"><h{level} class="ltx_title ltx_title_{kind}">'
        f'<span class="ltx_tag ltx_tag_{kind}">{tag} </span>{title}</h{level}>{body}</section>'
    )


def _para(text: str) -> str:
    return f'<div class="ltx_para"><p class="ltx_p">{text}</p></div>'


def _cite(n: int) -> str:
    return f'<cite class="ltx_cite ltx_citemacro_cite">[<a class="ltx_ref" href="#bib.bib{n}">{n}</a>]</cite>'


def _equation(n: int, alttext: str) -> str:
    return (
        f'<table class="ltx_equation ltx_eqn_table" id="S4.E{n}"><tbody><tr class="ltx_equation ltx_eqn_row">'
        f'<td class="ltx_eqn_cell ltx_align_center"><math alttext="{alttext}" class="ltx_Math" display="block">'
        f'<mi>x</mi></math></td><td class="ltx_eqn_cell ltx_eqn_eqno"><span class="ltx_tag ltx_tag_equation">'
        f"({n})</span></td></tr></tbody></table>"
    )


def _figure(n: int, caption: str, panels: bool = False) -> str:
    inner = f'<img class="ltx_graphics" src="x{n}.png" alt=""/>'
    if panels:
        inner = "".join(
            f'<figure class="ltx_figure ltx_figure_panel" id="S4.F{n}.sf{i}">'
            f'<img class="ltx_graphics" src="x{n}{letter}.png" alt=""/><figcaption class="ltx_caption">'
            f'<span class="ltx_tag ltx_tag_figure">({letter}) </span>Panel {letter} of figure {n}</figcaption></figure>'
            for i, letter in enumerate("ab", 1)
        )
    return (
        f'<figure class="ltx_figure" id="S4.F{n}">{inner}<figcaption class="ltx_caption">'
        f'<span class="ltx_tag ltx_tag_figure">Figure {n}: </span>{caption}</figcaption></figure>'
    )


def _table(n: int, label: str, caption: str) -> str:
    return (
        f'<figure class="ltx_table" id="S4.T{n}"><figcaption class="ltx_caption"><span class="ltx_tag '
        f'ltx_tag_table">{label}: </span>{caption}</figcaption><table class="ltx_tabular">'
        '<thead><tr class="ltx_tr"><th class="ltx_td ltx_th">Model</th><th class="ltx_td ltx_th">Score</th></tr>'
        f'</thead><tbody><tr class="ltx_tr"><td class="ltx_td">GCN</td><td class="ltx_td">8{n}.5</td></tr>'
        "</tbody></table></figure>"
    )


def _bibliography() -> str:
    items = []
    for n in range(1, 13):
        extra = " arXiv:2401.12345. doi:10.1000/xyz12" if n == 12 else ""
        items.append(
            f'<li class="ltx_bibitem" id="bib.bib{n}"><span class="ltx_tag ltx_tag_bibitem">[{n}]</span>'
            f'<span class="ltx_bibblock">A. Author{n}. Work number {n}, 2020.{extra}</span></li>'
        )
    return (
        '<section class="ltx_bibliography" id="bib"><h2 class="ltx_title ltx_title_bibliography">References</h2>'
        f'<ul class="ltx_biblist">{"".join(items)}</ul></section>'
    )


def page(numbers: list[str], generator: str) -> str:
    """A paper with sections numbered `numbers` (the 4th has subsections .1 and .2), figures
    1-3 (3 with panels a, b), tables 1-2, equations (1)-(7), references [1]-[12], appendix B."""
    one, two, three, four = numbers
    body = [
        _section(one, "Introduction", _para(f"Graphs matter {_cite(12)}. {_FILLER}")),
        _section(two, "Related Work", _para(f"Message passing came first {_cite(3)}. {_FILLER}")),
        _section(three, "Background", _para(f"We recall the basics. {_FILLER}")),
        _section(
            four,
            "Method",
            _para("We define the energy.")
            + "".join(_equation(n, f"E_{{{n}}}=mc^{{2}}") for n in range(1, 8))
            + _section(
                f"{four}.1" if four.isdigit() else f"{four}.A",
                "Setup",
                _para(f"As Figure 3 shows. {_FILLER}"),
                3,
                "subsection",
            )
            + _section(
                f"{four}.2" if four.isdigit() else f"{four}.B",
                "Training",
                _para(f"Figure 3(b) shows the loss and Table 2 the scores {_cite(12)}.")
                + _figure(1, "The pipeline.")
                + _figure(2, "The data.")
                + _figure(3, "Results by panel.", panels=True)
                + _table(1, "Table 1" if four.isdigit() else "TABLE I", "Accuracy.")
                + _table(2, "Table 2" if four.isdigit() else "TABLE II", "Scores."),
                3,
                "subsection",
            ),
        ),
        _section(
            "Appendix B",
            "Proofs",
            _section("B.1", "Lemma", _para(f"The lemma holds. {_FILLER}"), 3, "subsection"),
            kind="appendix",
        ),
        _bibliography(),
    ]
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"/><title>Structured</title>'
        f'<!--Generated by {generator}--></head><body><div class="ltx_page_main"><div class="ltx_page_content">'
        '<article class="ltx_document"><h1 class="ltx_title ltx_title_document">Structured</h1>'
        '<div class="ltx_abstract"><h6 class="ltx_title ltx_title_abstract">Abstract</h6>'
        f'<p class="ltx_p">We test every selector.</p></div>{"".join(body)}</article></div></div></body></html>'
    )


def _png(tag: bytes) -> bytes:
    return b"\x89PNG\r\n\x1a\n" + tag


@pytest.fixture
def served(fake, tmp_path):
    for pid, numbers, generator in (
        (LATEXML, ["1", "2", "3", "4"], "LaTeXML (version 0.8.7) http://dlmf.nist.gov/LaTeXML/."),
        (OXIDE, ["I", "II", "III", "IV"], "latexml-oxide (version 0.7.6)"),
    ):
        paper = html_paper(pid, "Structured")
        paper.html = page(numbers, generator)
        paper.images = {"x3a.png": _png(b"three-a"), "x3b.png": _png(b"three-b")}
        fake.add(paper)
    return stdio_server(fake, tmp_path / "home")


COMMON = {
    "Appendix B": "Appendix B Proofs",
    "B.1": "Lemma",
    "section:2": "Abstract",
    "figures": "3 figures",
    "tables": "2 tables",
    "equations": "7 equations",
    "references": "12 references",
    "Figure 3": "Results by panel.",
    "Fig. 3": "Results by panel.",
    "fig3": "Results by panel.",
    "Figure 3b": "Panel b of figure 3",
    "Fig. 3(b)": "Panel b of figure 3",
    "Equation 7": "E_{7}=mc^{2}",
    "Eq. (7)": "E_{7}=mc^{2}",
    "eq 7": "E_{7}=mc^{2}",
    "(7)": "E_{7}=mc^{2}",
    "[12]": "Work number 12",
    "ref 12": "Work number 12",
    "reference 12": "Work number 12",
    "bib.bib12": "Work number 12",
}
NUMBERED = {
    LATEXML: {
        "4": "4 Method",
        "4.2": "4.2 Training",
        "Section 4": "4 Method",
        "Sec. 4.2": "4.2 Training",
        "§4.2": "4.2 Training",
        "Table 2": "Scores.",
    },
    OXIDE: {
        "IV": "IV Method",
        "IV.A": "IV.A Setup",
        "4": "IV Method",
        "Section IV": "IV Method",
        "Sec. IV.B": "IV.B Training",
        "§IV.B": "IV.B Training",
        "Table 2": "Scores.",
        "TABLE II": "Scores.",
    },
}


@pytest.mark.anyio
@pytest.mark.parametrize("pid", [LATEXML, OXIDE])
async def test_every_selector_form_over_stdio(fake, served, pid):
    async with Client(served) as client:
        first = await client.call_tool("read_paper", {"paper_id": f"{pid}v1"})
        assert not first.is_error, said(first)
        read = len(fake.requests)
        failed = {}
        for selector, expected in {**COMMON, **NUMBERED[pid]}.items():
            got = await client.call_tool("read_paper", {"paper_id": f"{pid}v1", "section": selector})
            if got.is_error or expected not in said(got):
                failed[selector] = said(got)[:300]
        missing = await client.call_tool("read_paper", {"paper_id": f"{pid}v1", "section": "9"})
        assert len(fake.requests) == read  # every view came from the cached document
    assert failed == {}
    assert missing.is_error and "section numbers" in said(missing)


@pytest.mark.anyio
async def test_typed_records_references_find_and_figure_bytes_over_stdio(fake, served):
    pid = LATEXML
    async with Client(served) as client:
        await client.call_tool("read_paper", {"paper_id": f"{pid}v1"})
        read = len(fake.requests)
        equation = await client.call_tool("read_paper", {"paper_id": f"{pid}v1", "section": "Eq. (2)"})
        table = await client.call_tool("read_paper", {"paper_id": f"{pid}v1", "section": "Table 2"})
        figure = await client.call_tool("read_paper", {"paper_id": f"{pid}v1", "section": "Figure 3"})
        reference = await client.call_tool("read_paper", {"paper_id": f"{pid}v1", "section": "[12]"})
        cited = await client.call_tool("get_references", {"paper_id": f"{pid}v1", "limit": 20})
        hits = await client.call_tool("find_in_paper", {"paper_id": f"{pid}v1", "query": "Results by panel"})
        assert len(fake.requests) == read
        image = await client.read_resource(f"arxiv://paper/{pid}v1/figure/3")
        again = await client.read_resource(f"arxiv://paper/{pid}v1/figure/3")
        panel = await client.read_resource(f"arxiv://paper/{pid}v1/figure/3b")
    (eq,) = equation.structured_content["items"]
    assert (eq["kind"], eq["number"], eq["latex"]) == ("equation", "2", "E_{2}=mc^{2}")  # the alttext as is
    (tab,) = table.structured_content["items"]
    assert (tab["header"], tab["rows"], tab["caption"]) == ([["Model", "Score"]], [["GCN", "82.5"]], "Scores.")
    (fig,) = figure.structured_content["items"]
    assert fig["image_uri"] == f"arxiv://paper/{pid}v1/figure/3" and fig["mentions"]
    (ref,) = reference.structured_content["items"]
    assert (ref["arxiv_id"], ref["doi"]) == ("2401.12345", "10.1000/xyz12")
    assert len(ref["mentions"]) == 2
    assert cited.structured_content["direction"] == "bibliography"
    assert [n["arxiv_id"] for n in cited.structured_content["neighbours"]] == [None] * 11 + ["2401.12345"]
    assert hits.structured_content["hits"][0]["place"] == "caption of Figure 3"
    assert image.contents[0].mime_type == "image/png" and again.contents[0].blob == image.contents[0].blob
    assert panel.contents[0].mime_type == "image/png" and panel.contents[0].blob != image.contents[0].blob
    images = [r.path for r in fake.requests if r.path.endswith(".png")]
    assert images == [f"/html/{pid}v1/x3a.png", f"/html/{pid}v1/x3b.png"]  # one request per image, once
