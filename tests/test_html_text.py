"""arXiv / ar5iv LaTeXML HTML -> clean Markdown-ish text (`arxiv_mcp.text.html`)."""

from __future__ import annotations

import re
import time
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arxiv_mcp.errors import ExtractionError
from arxiv_mcp.text.html import html_to_text

FIXTURES = Path(__file__).parent / "fixtures" / "html"
DASCH = FIXTURES / "arxiv_html_2501.12977v1_TRANSCRIBED_nbsp-lost.html"
AR5IV_FATAL = FIXTURES / "ar5iv_1001.5455_conversion_fatal_error.html"

FILLER = "The quick survey of the field continues with more words. " * 12
FILLER_TEXT = FILLER.strip()
TAG_RESIDUE = re.compile(
    r"</?(?:div|span|p|a|math|mi|mo|mn|mrow|semantics|annotation|table|tr|td|li|ul|script|style|img|br|section|h[1-6])\b[^>]*>"
)


def page(body: str = "", *, head: str = "", front: str = "", title: str = "A Test Paper", chrome: str = "") -> str:
    """A page shaped like arXiv's LaTeXML output: one section of filler, then `body`."""
    title_html = f'<h1 class="ltx_title ltx_title_document">{title}</h1>' if title else ""
    return (
        f"<!DOCTYPE html><html><head><title>{title or 'Page'}</title>{head}</head><body>{chrome}"
        f'<div class="ltx_page_main"><div class="ltx_page_content"><article class="ltx_document">'
        f"{title_html}{front}"
        f'<section class="ltx_section" id="S1"><h2 class="ltx_title ltx_title_section">'
        f'<span class="ltx_tag ltx_tag_section">1 </span>Introduction</h2>'
        f'<div class="ltx_para"><p class="ltx_p">{FILLER}</p></div>{body}</section>'
        f"</article></div></div></body></html>"
    )


def section_text(text: str) -> str:
    """What follows the filler paragraph: the part a snippet test is about."""
    return text.split(FILLER_TEXT, 1)[1].strip()


def headings(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.startswith("#")]


def assert_clean(text: str) -> None:
    assert not TAG_RESIDUE.search(text)
    assert "\n\n\n" not in text
    assert not re.search(r"[ \t]+$", text, re.MULTILINE)
    assert not re.search("[\u00a0\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff]", text)
    for line in text.split("\n"):
        if line.startswith("#"):
            assert re.match(r"#{1,6} \S", line), line


# --- the real arXiv page ---------------------------------------------------------------


@pytest.fixture(scope="module")
def dasch() -> str:
    return html_to_text(DASCH.read_text(encoding="utf-8"))


def test_real_page_front_matter(dasch):
    lines = dasch.split("\n")
    assert lines[0] == "# DASCH: Bringing 100+ Years of Photographic Data into the 21st Century and Beyond"
    assert lines[2] == "Peter K. G. Williams$^{1}$"  # his affiliation is a paragraph after the abstract
    assert lines[4] == "## Abstract"
    assert lines[6].startswith("The Harvard College Observatory was the preeminent astronomical data center")
    assert "include $\\sim$200 TB of plate images" in dasch
    assert "most stars brighter than $B\\sim 15$ have hundreds" in dasch


def test_real_page_headings_in_document_order(dasch):
    assert headings(dasch) == [
        "# DASCH: Bringing 100+ Years of Photographic Data into the 21st Century and Beyond",
        "## Abstract",
        "## 1 Introduction",
        "## 2 Completion of the DASCH Project",
        "## 3 DASCH Data Release 7",
        "## 4 Remarks",
        "##### Acknowledgments",
        "## References",
    ]


def test_real_page_body_footnotes_and_references(dasch):
    assert "issued on December 29, 2024 [^1: https://dasch.cfa.harvard.edu/dr7/]. DR7 represents" in dasch
    references = dasch.split("## References\n\n", 1)[1].split("\n\n")
    assert len(references) == 15
    assert references[0].startswith("[Grindlay (2017)] Grindlay, J. 2017, in The Science of Time 2016")
    assert references[-1] == "[Williams (2024)] Williams, P. K. G. 2024. URL http://dx.doi.org/10.5281/zenodo.14563521"
    assert "Harvard & Smithsonian" in dasch  # &amp; decoded


def test_real_page_has_no_chrome_or_markup(dasch):
    assert_clean(dasch)
    for chrome in ("Generated on", "LaTeXML", "Mascot", "bootstrap", "similar-to", "italic_B", "In DASCH:"):
        assert chrome not in dasch
    assert dasch.count("DASCH: Bringing 100+ Years") == 1  # the TOC and <title> are not repeated


def test_ar5iv_fatal_error_page_is_rejected():
    with pytest.raises(ExtractionError, match="Fatal error"):
        html_to_text(AR5IV_FATAL.read_text(encoding="utf-8"))


# --- stubs and pages that are not a paper ----------------------------------------------


def test_arxiv_no_html_stub_is_rejected():
    stub = (
        "<html><head><title>No HTML for '2401.00001'</title></head><body>"
        "<header><a href='https://arxiv.org'>arXiv</a></header><h1>No HTML for '2401.00001'</h1>"
        "<p>HTML is not available for the source.</p><p>This could be due to the source files not being HTML, "
        "LaTeX, or a conversion failure.</p></body></html>"
    )
    with pytest.raises(ExtractionError, match="no HTML rendition"):
        html_to_text(stub)


def test_abs_page_served_instead_of_paper_is_rejected():
    abs_page = (
        "<html><head><title>[1907.07829] Technosignatures in the Thermal Infrared</title>"
        '<meta name="citation_title" content="Technosignatures in the Thermal Infrared" />'
        '<meta name="citation_arxiv_id" content="1907.07829" /></head><body>'
        '<div id="abs"><h1 class="title mathjax">Technosignatures in the Thermal Infrared</h1>'
        f'<blockquote class="abstract mathjax">{FILLER * 3}</blockquote></div></body></html>'
    )
    with pytest.raises(ExtractionError, match="abstract page"):
        html_to_text(abs_page)


@pytest.mark.parametrize(
    "junk", ["", "plain text, no markup", "<html><body><p>A page about cats.</p></body></html>", "%PDF-1.5 \x00\x01"]
)
def test_pages_without_a_latexml_document_are_rejected(junk):
    with pytest.raises(ExtractionError, match="ltx_document"):
        html_to_text(junk)


def test_short_body_is_rejected_even_with_title_and_abstract():
    short = (
        '<article class="ltx_document"><h1 class="ltx_title ltx_title_document">Title</h1>'
        f'<div class="ltx_abstract"><p class="ltx_p">{FILLER * 3}</p></div>'
        '<section class="ltx_section"><h2 class="ltx_title ltx_title_section">1 Intro</h2>'
        '<p class="ltx_p">Too short.</p></section></article>'
    )
    with pytest.raises(ExtractionError, match="characters of body text"):
        html_to_text(short)


def test_page_without_sections_or_bibliography_is_rejected():
    bare = f'<article class="ltx_document"><div class="ltx_para"><p class="ltx_p">{FILLER * 2}</p></div></article>'
    with pytest.raises(ExtractionError, match="neither section headings nor a bibliography"):
        html_to_text(bare)


def test_sectionless_letter_with_references_is_accepted():
    letter = (
        '<article class="ltx_document"><h1 class="ltx_title ltx_title_document">A Letter</h1>'
        f'<div class="ltx_para"><p class="ltx_p">{FILLER * 2}</p></div>'
        '<section class="ltx_bibliography"><h2 class="ltx_title ltx_title_bibliography">Bibliography</h2>'
        '<ul class="ltx_biblist"><li class="ltx_bibitem"><span class="ltx_tag ltx_tag_bibitem">[1]</span>'
        '<span class="ltx_bibblock">A. Author.</span><span class="ltx_bibblock">A title, 2020.</span></li></ul>'
        "</section></article>"
    )
    text = html_to_text(letter)
    assert text.endswith("## References\n\n[1] A. Author. A title, 2020.")


def test_error_messages_say_what_failed_and_leave_the_advice_to_the_reader():
    with pytest.raises(ExtractionError, match="no ltx_document element") as caught:
        html_to_text("<p>nothing</p>")
    assert "instead" not in str(caught.value) and "PDF" not in str(caught.value)


# --- front matter -----------------------------------------------------------------------


def test_author_names_on_one_line_then_affiliations_and_contacts():
    front = (
        '<div class="ltx_authors"><span class="ltx_creator ltx_role_author"><span class="ltx_personname">'
        'Ada Lovelace<sup class="ltx_sup">1</sup> , Alan Turing<math alttext="{}^{2}"><mi>2</mi></math>'
        '<br class="ltx_break"/>University of Manchester</span>'
        '<span class="ltx_author_notes"><span class="ltx_contact ltx_role_email">ada@example.org</span></span></span>'
        '<span class="ltx_author_before">and</span><span class="ltx_creator ltx_role_author">'
        '<span class="ltx_personname">Grace Hopper<span class="ltx_note ltx_role_footnotemark"><sup class="ltx_note_mark">1</sup>'
        '<span class="ltx_note_outer"><span class="ltx_note_content"><sup class="ltx_note_mark">1</sup>'
        '<span class="ltx_note_type">footnotemark: </span></span></span></span></span></span></div>'
    )
    text = html_to_text(page(front=front))
    assert text.split("\n\n")[1:4] == [
        "Ada Lovelace$^{1}$, Alan Turing$^{2}$, Grace Hopper",
        "University of Manchester",
        "ada@example.org",
    ]
    assert "footnotemark" not in text and "and" not in text.split("\n\n")[1]


def test_title_footnotes_leave_the_title_and_breaks_become_spaces():
    title = (
        'Deep<br class="ltx_break"/>Learning<span class="ltx_note ltx_role_footnote"><sup class="ltx_note_mark">*</sup>'
        '<span class="ltx_note_outer"><span class="ltx_note_content">Funded by X.</span></span></span>'
    )
    text = html_to_text(page(title=title))
    assert text.split("\n")[0] == "# Deep Learning"
    assert text.split("\n\n")[1] == "[^*: Funded by X.]"  # with the front matter's notes


def test_title_falls_back_to_head_title_without_ar5iv_id_prefix():
    html = page(title="").replace("<title>Page</title>", "<title>[1706.03762] Attention Is All You Need</title>")
    assert html_to_text(html).split("\n")[0] == "# Attention Is All You Need"


def test_title_page_paragraph_repeating_the_title_is_not_duplicated():
    html = page(
        title="", front='<div class="ltx_titlepage"><p class="ltx_p"><b>Page</b></p><p class="ltx_p">Someone</p></div>'
    )
    text = html_to_text(html)
    assert text.startswith("# Page\n\nSomeone\n\n## 1 Introduction")


def test_abstract_gets_a_fixed_heading_and_keywords_run_in():
    front = (
        '<div class="ltx_abstract"><h6 class="ltx_title ltx_title_abstract">Summary</h6>'
        '<p class="ltx_p">We show things.</p></div>'
        '<div class="ltx_classification"><h6 class="ltx_title ltx_title_classification">keywords: </h6>'
        "alpha, beta</div>"
    )
    text = html_to_text(page(front=front))
    assert "## Abstract\n\nWe show things.\n\nkeywords: alpha, beta\n\n## 1 Introduction" in text
    assert "Summary" not in text


# --- headings and body ------------------------------------------------------------------


def test_heading_levels_and_numbers():
    body = (
        '<section class="ltx_subsection"><h3 class="ltx_title ltx_title_subsection"><span class="ltx_tag">1.1 </span>Sub</h3>'
        '<section class="ltx_subsubsection"><h4 class="ltx_title ltx_title_subsubsection"><span class="ltx_tag">1.1.1 </span>'
        'Subsub with <math alttext="\\alpha"><mi>α</mi></math></h4>'
        '<section class="ltx_paragraph"><h5 class="ltx_title ltx_title_paragraph">Para title</h5><p>x</p></section>'
        "</section></section>"
    )
    appendix = (
        '<section class="ltx_appendix"><h2 class="ltx_title ltx_title_appendix"><span class="ltx_tag">Appendix A </span>'
        "Proofs</h2><p>y</p></section>"
    )
    text = html_to_text(page(body).replace("</section></article>", f"</section>{appendix}</article>"))
    assert headings(text)[1:] == [
        "## 1 Introduction",
        "### 1.1 Sub",
        "#### 1.1.1 Subsub with $\\alpha$",
        "##### Para title",
        "## Appendix A Proofs",
    ]


def test_paragraphs_are_collapsed_and_separated_by_one_blank_line():
    body = '<div class="ltx_para"><p class="ltx_p">  one\n\n  two\t three  </p><p class="ltx_p">four</p></div><p></p><p>five</p>'
    text = html_to_text(page(body))
    assert section_text(text) == "one two three\n\nfour\n\nfive"
    assert_clean(text)


def test_leading_hash_in_body_is_escaped():
    body = (
        '<p class="ltx_p">#hashtag at the start</p><p class="ltx_p">   ## spaced</p>'
        '<ul class="ltx_itemize"><li class="ltx_item"><span class="ltx_tag ltx_tag_item">#1</span> item</li></ul>'
    )
    text = html_to_text(page(body))
    assert section_text(text) == "\\#hashtag at the start\n\n\\## spaced\n\n- #1 item"
    assert all(not line.startswith("#") for line in section_text(text).split("\n"))


# html -> the text after the filler paragraph: each case one rule of the conversion
SNIPPETS = [
    pytest.param(
        '<p class="ltx_p">A &amp; B &lt;x&gt; C&nbsp;D f&#8289;(x) a&#8290;b zero&#8203;width &#xFEFF;bom &eacute;</p>',
        "A & B <x> C D f(x) ab zerowidth bom é",
        id="entities_nbsp_and_invisible_characters",
    ),
    pytest.param(
        (
            '<div class="ltx_theorem"><h6 class="ltx_title ltx_runin ltx_title_theorem"><span class="ltx_tag">'
            '<b>Theorem 1</b></span>.</h6><div class="ltx_para"><p class="ltx_p">All is well.</p></div></div>'
        ),
        "Theorem 1. All is well.",
        id="theorem_title_runs_into_its_paragraph",
    ),
    pytest.param(
        (
            '<p class="ltx_p">Let <math alttext="x_{i}\\in\\mathbb{R}" class="ltx_Math" display="inline"><semantics>'
            "<mrow><msub><mi>x</mi><mi>i</mi></msub><mo>∈</mo><mi>ℝ</mi></mrow><annotation-xml><apply><in/><ci>𝑥</ci></apply>"
            '</annotation-xml><annotation encoding="application/x-tex">x_{i}\\in\\mathbb{R}</annotation>'
            '<annotation encoding="application/x-llamapun">italic_x</annotation></semantics></math> hold.</p>'
        ),
        "Let $x_{i}\\in\\mathbb{R}$ hold.",
        id="inline_math_uses_alttext_never_mathml_text",
    ),
    pytest.param(
        '<p class="ltx_p">Pairs <math alttext="a" display="inline"></math><math alttext="b" display="inline"></math> meet.</p>',
        "Pairs $a$ $b$ meet.",
        id="adjacent_inline_math_is_kept_apart",
    ),
    pytest.param(
        '<p class="ltx_p"><math alttext="a+b%\n+c=50\\%"><mi>a</mi></math></p>',
        "$a+b+c=50\\%$",
        id="alttext_line_wraps_are_joined_but_escaped_percent_kept",
    ),
    pytest.param(
        (
            '<p class="ltx_p">See <math><semantics><mi>q</mi><annotation encoding="application/x-tex">q^{2}</annotation>'
            "</semantics></math> and <math><mi>z</mi></math>.</p>"
        ),
        "See $q^{2}$ and .",
        id="math_without_alttext_falls_back_to_tex_annotation",
    ),
    pytest.param(
        '<p class="ltx_p">Before <math alttext="E=mc^{2}" display="block"><mi>E</mi></math> after.</p>',
        "Before\n\n$$E=mc^{2}$$\n\nafter.",
        id="display_math_is_its_own_paragraph",
    ),
    pytest.param(
        (
            '<table class="ltx_equation ltx_eqn_table" id="S1.E3"><tbody><tr class="ltx_equation ltx_eqn_row">'
            '<td class="ltx_eqn_cell ltx_eqn_center_padleft"></td><td class="ltx_eqn_cell ltx_align_center">'
            '<math alttext="\\mathrm{Attention}(Q,K,V)=QK^{T}" class="ltx_Math" display="inline"><mi>A</mi></math></td>'
            '<td class="ltx_eqn_cell ltx_eqn_center_padright"></td><td class="ltx_eqn_cell ltx_eqn_eqno">'
            '<span class="ltx_tag ltx_tag_equation">(3)</span></td></tr></tbody></table>'
            '<table class="ltx_equation ltx_eqn_table"><tbody><tr class="ltx_equation ltx_eqn_row">'
            '<td class="ltx_eqn_cell ltx_eqn_eqno"><span class="ltx_tag ltx_tag_equation">(4)</span></td></tr></tbody></table>'
        ),
        "$$\\mathrm{Attention}(Q,K,V)=QK^{T}$$ (3)",
        id="equation_table_with_number",
    ),
    pytest.param(
        (
            '<ul class="ltx_itemize"><li class="ltx_item"><span class="ltx_tag ltx_tag_item">•</span>'
            '<div class="ltx_para"><p class="ltx_p">Minimise</p><table class="ltx_equation ltx_eqn_table"><tr>'
            '<td class="ltx_eqn_cell"><math alttext="f(x)"><mi>f</mi></math></td></tr></table></div></li></ul>'
        ),
        "- Minimise $$f(x)$$",
        id="equation_inside_list_item_stays_in_the_item",
    ),
    pytest.param(
        (
            '<figure class="ltx_table"><figcaption class="ltx_caption"><span class="ltx_tag ltx_tag_table">Table 1: </span>'
            "Results.</figcaption>"
            '<table class="ltx_tabular"><thead class="ltx_thead"><tr class="ltx_tr"><th class="ltx_td">Model</th>'
            '<th class="ltx_td">BLEU</th></tr></thead><tbody class="ltx_tbody">'
            '<tr class="ltx_tr"><td class="ltx_td">a|b</td><td class="ltx_td"><math alttext="27.3"><mn>27.3</mn></math></td></tr>'
            '<tr class="ltx_tr"><td class="ltx_td"></td><td class="ltx_td"><span class="ltx_rule"></span></td></tr>'
            '<tr class="ltx_tr"><td class="ltx_td">nested</td><td class="ltx_td"><table><tr><td>x</td><td>y</td></tr></table></td></tr>'
            "</tbody></table></figure>"
        ),
        "Table 1: Results.\n\n| Model | BLEU |\n| a\\|b | $27.3$ |\n| nested | x y |",
        id="table_rows_caption_and_cell_escaping",
    ),
    pytest.param(
        (
            '<p class="ltx_p">Values <span class="ltx_tabular"><span class="ltx_tr"><span class="ltx_td">a</span>'
            '<span class="ltx_td">b</span></span></span> end.</p>'
        ),
        "Values a b end.",
        id="inline_tabular_stays_in_its_sentence",
    ),
    pytest.param(
        (
            '<figure class="ltx_figure"><img src="x.png" alt="Refer to caption" class="ltx_graphics"/>'
            "<svg><text>axis label</text></svg>"
            '<figcaption class="ltx_caption"><span class="ltx_tag ltx_tag_figure">Figure 1: </span>The model.</figcaption></figure>'
        ),
        "Figure 1: The model.",
        id="figure_caption_kept_image_dropped",
    ),
    pytest.param(
        (
            '<div class="ltx_listing"><div class="ltx_listing_data"><a href="data:text/plain;base64,eA==">⬇</a></div>'
            '<div class="ltx_listingline"># comment</div><div class="ltx_listingline">x  =  1</div></div>'
            "<pre>def f():\n    return 1\n\n</pre>"
        ),
        "\\# comment\nx = 1\n\ndef f():\n    return 1",
        id="listing_lines_and_pre_blocks",
    ),
    pytest.param(
        '<div class="ltx_para"><p class="ltx_p">one <em>two <span>three</p></div><p>four</b></i></p><li>five',
        "one two three\n\nfour\n\nfive",
        id="unclosed_and_misnested_tags_still_give_text",
    ),
]


@pytest.mark.parametrize(("body", "expected"), SNIPPETS)
def test_a_snippet_reads_as(body, expected):
    assert section_text(html_to_text(page(body))) == expected


# --- math -------------------------------------------------------------------------------


def test_equation_group_rows_merge_aligned_cells_and_keep_text_cells():
    row = (
        '<tbody><tr class="ltx_equation ltx_eqn_row"><td class="ltx_eqn_cell"></td>'
        '<td class="ltx_td ltx_eqn_cell"><math alttext="\\displaystyle {lhs}"><mi>l</mi></math></td>'
        '<td class="ltx_td ltx_eqn_cell">{rhs}</td>{eqno}</tr></tbody>'
    )
    first = row.format(
        lhs="a",
        rhs='<math alttext="\\displaystyle=b+c"><mi>b</mi></math>',
        eqno='<td class="ltx_eqn_cell ltx_eqn_eqno"><span class="ltx_tag">(5)</span></td>',
    )
    second = row.format(
        lhs="N",
        rhs='<span class="ltx_text">Number of customers, indexed by <math alttext="n"><mi>n</mi></math></span>',
        eqno="",
    )
    body = f'<table class="ltx_equationgroup ltx_eqn_align ltx_eqn_table">{first}{second}</table>'
    assert section_text(html_to_text(page(body))) == (
        "$$\\displaystyle a \\displaystyle=b+c$$ (5)\n\n$$\\displaystyle N$$ Number of customers, indexed by $n$"
    )


# --- lists, tables, figures, footnotes, listings ----------------------------------------


def test_lists_bullets_numbers_nesting_and_labels():
    item = '<li class="ltx_item"><span class="ltx_tag ltx_tag_item">{tag}</span><div class="ltx_para"><p class="ltx_p">{text}</p></div>{extra}</li>'
    inner = (
        '<ol class="ltx_enumerate">'
        + item.format(tag="1.", text="first", extra="")
        + item.format(tag="(b)", text="second", extra="")
        + "</ol>"
    )
    body = (
        '<ul class="ltx_itemize">'
        + item.format(tag="•", text="outer", extra=inner + '<p class="ltx_p">tail</p>')
        + item.format(tag="[Step 2]", text="custom label", extra="")
        + "</ul><ol><li>plain one</li><li>plain two</li></ol>"
        + '<dl class="ltx_description"><dt class="ltx_item"><span class="ltx_tag ltx_tag_item"><b>Term</b></span></dt>'
        '<dd class="ltx_item"><p class="ltx_p">Its meaning.</p></dd></dl>'
    )
    assert section_text(html_to_text(page(body))) == (
        "- outer\n  1. first\n  (b) second\n  tail\n- [Step 2] custom label\n\n1. plain one\n2. plain two\n\n- Term Its meaning."
    )


def test_footnotes_inline_and_heading_footnote_after_heading():
    note = (
        '<span class="ltx_note ltx_role_footnote"><sup class="ltx_note_mark">{n}</sup><span class="ltx_note_outer">'
        '<span class="ltx_note_content"><sup class="ltx_note_mark">{n}</sup><span class="ltx_tag ltx_tag_note">{n}</span>'
        "{text}</span></span></span>"
    )
    link_note = note.format(n=2, text='See <a href="https://x.org">x.org</a>.')
    heading_note = note.format(n=3, text="Heading note.")
    body = (
        f'<p class="ltx_p">Data{link_note} are public.</p>'
        f'<section class="ltx_subsection"><h3 class="ltx_title ltx_title_subsection">1.1 Setup{heading_note}</h3>'
        '<p class="ltx_p">Body.</p></section>'
    )
    assert section_text(html_to_text(page(body))) == (
        "Data [^2: See x.org.] are public.\n\n### 1.1 Setup\n\n[^3: Heading note.]\n\nBody."
    )


def test_bibliography_labels_and_entries():
    bib = (
        '<section class="ltx_bibliography"><h2 class="ltx_title ltx_title_bibliography">Literature</h2>'
        '<ul class="ltx_biblist">'
        '<li class="ltx_bibitem"><span class="ltx_tag ltx_tag_bibitem">[12]<button class="back-to-reference-btn">↑</button></span>'
        '<span class="ltx_bibblock">A. Author.</span>\n<span class="ltx_bibblock"><em>A Title</em>, 2020.</span></li>'
        '<li class="ltx_bibitem"><span class="ltx_tag ltx_tag_bibitem">Smith et al. (2019)</span>'
        '<span class="ltx_bibblock">Smith, J. 2019.</span></li></ul></section>'
    )
    text = html_to_text(page().replace("</section></article>", f"</section>{bib}</article>"))
    assert (
        text.split("## References\n\n")[1] == "[12] A. Author. A Title, 2020.\n\n[Smith et al. (2019)] Smith, J. 2019."
    )
    assert "Literature" not in text and "↑" not in text


# --- chrome -----------------------------------------------------------------------------


def test_site_chrome_scripts_and_hidden_elements_are_dropped():
    head = "<style>.ltx_para { display:none }</style><script>function f(){ return 1; }</script>"
    chrome = (
        '<header class="desktop_header"><div class="html-header-message">This is experimental HTML</div></header>'
        '<div class="package-alerts ltx_document" role="status"><p>HTML conversions sometimes display errors</p></div>'
        '<nav class="ltx_page_navbar"><nav class="ltx_TOC"><ol><li>1 Introduction</li></ol></nav></nav>'
    )
    body = (
        '<div class="ltx_page_header">PAGE HEADER</div>'
        '<p class="ltx_p">Kept<button class="sr-only button">Report issue for preceding element</button> text.'
        '<span class="ltx_ERROR undefined">\\affiliation</span><noscript>enable JS</noscript></p>'
        '<div style="display: none">hidden by style</div><span hidden>hidden attribute</span>'
        '<div class="ltx_page_footer">Generated on a day by LaTeXML</div>'
        '<div class="ar5iv-footer"><a class="ar5iv-text-button">Report an issue</a></div>'
        "<script>var x = {display:1};</script>"
    )
    text = html_to_text(page(body, head=head, chrome=chrome))
    assert section_text(text) == "Kept text."
    for leak in (
        "function(",
        "{display:",
        "experimental",
        "sometimes display",
        "PAGE HEADER",
        "Report",
        "hidden",
        "Generated",
        "affiliation",
        "enable JS",
    ):
        assert leak not in text


def test_text_outside_the_document_is_ignored():
    html = page().replace(
        "<body>", "<body><div class='section' id='target-section'><div id='license-tr'>License: CC BY</div></div>"
    )
    assert "License" not in html_to_text(html)


# --- robustness -------------------------------------------------------------------------


def test_hundred_thousand_nested_elements_do_not_recurse_or_stall():
    deep = "<div>" * 100_000 + "deep text" + "</div>" * 100_000
    started = time.process_time()  # CPU time: other jobs on the machine do not count
    text = html_to_text(page(deep + '<p class="ltx_p">after the tower</p>'))
    assert time.process_time() - started < 5
    assert "deep text" in text and "after the tower" in text


def test_deep_nesting_memory_is_bounded():
    deep = "<span>" * 20_000 + "deep" + "</span>" * 20_000
    html = page(f'<p class="ltx_p">{deep}</p>')
    tracemalloc.start()
    try:
        html_to_text(html)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_500_000  # ~0.3 MB with the depth cap; an uncapped stack needs ~2.5 MB here


@pytest.mark.parametrize(
    "hostile",
    [
        "<a" * 50_000,
        "</" * 50_000,
        "<?" * 50_000,
        "<!--x>" * 30_000,
        "<![CDATA[x>" * 30_000,
        "<!x" * 50_000,
        "&#" * 50_000,
    ],
)
def test_hostile_markup_is_linear(hostile):
    started = time.process_time()  # CPU time: other jobs on the machine do not count
    with pytest.raises(ExtractionError):
        html_to_text(hostile)
    text = html_to_text(page(hostile))  # the same junk after a real section
    assert time.process_time() - started < 3
    assert text.startswith("# A Test Paper")


def test_large_page_is_fast():
    paragraph = (
        '<div class="ltx_para"><p class="ltx_p">Text with <math alttext="x^{2}" display="inline"><semantics><msup>'
        "<mi>x</mi><mn>2</mn></msup><annotation-xml><apply><power/><ci>x</ci><cn>2</cn></apply></annotation-xml>"
        '<annotation encoding="application/x-tex">x^{2}</annotation></semantics></math> and more words here.</p></div>'
    )
    html = page(paragraph * 3000)
    assert len(html) > 900_000
    started = time.process_time()  # CPU time: other jobs on the machine do not count
    text = html_to_text(html)
    assert time.process_time() - started < 3  # about 0.2 s on one core; generous for slow CI
    assert text.count("$x^{2}$") == 3000


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.one_of(
            st.sampled_from(
                [
                    "<div>",
                    "</div>",
                    "<p>",
                    "</p>",
                    "<math alttext='x'>",
                    "</math>",
                    "<table>",
                    "<tr>",
                    "<td>",
                    "</td>",
                    "</tr>",
                    "</table>",
                    "<ul>",
                    "<li>",
                    "</ul>",
                    '<span class="ltx_note ltx_role_footnote">',
                    "</span>",
                    '<h2 class="ltx_title ltx_title_section">',
                    "</h2>",
                    "<script>",
                    "</script>",
                    "<!--",
                    "-->",
                    "<![CDATA[",
                    "&amp;",
                    "&#0;",
                    "&#xD800;",
                    "&bogus;",
                    "<",
                    ">",
                    "\x00",
                    "#",
                    "\n",
                    '<section class="ltx_bibliography">',
                    '<li class="ltx_bibitem">',
                    '<tr class="ltx_eqn_row">',
                    '<td class="ltx_eqn_eqno">',
                    "<pre>",
                    "<br/>",
                ]
            ),
            st.text(max_size=20),
        ),
        max_size=60,
    )
)
def test_arbitrary_markup_raises_only_extraction_error(tokens):
    junk = "".join(tokens)
    for html in (junk, page(junk)):
        try:
            text = html_to_text(html)
        except ExtractionError:
            continue
        assert_clean(text)


def test_a_literal_dollar_stays_escaped_beside_math_but_not_in_code():
    """A price in the text is written `\\$2`, so `$...$` pairs are the formulas alone; a
    listing's dollars (a shell prompt) are code and stay as they are."""
    text = section_text(
        html_to_text(
            page(
                '<div class="ltx_para"><p class="ltx_p">It costs $2 per hour, $5.576M in all, and '
                '<math alttext="x^{2}" class="ltx_Math" display="inline"><mi>x</mi></math> more.</p></div>'
                '<pre class="ltx_verbatim">$ echo $HOME</pre>'
            )
        )
    )
    assert r"It costs \$2 per hour, \$5.576M in all, and $x^{2}$ more." in text
    assert "\n$ echo $HOME" in text


def test_an_authored_page_keeps_its_dollars():
    """An HTML-only e-print's dollars may open its own TeX math (MathJax's `$x$`): left as written."""
    body = "<p>Let $x^2$ cost $5 at most.</p>" + "<p>These notes hold more than a stub's text.</p>" * 20
    page = f"<html><body><h1>Notes</h1><h2>Prices</h2>{body}</body></html>"
    assert "Let $x^2$ cost $5 at most." in html_to_text(page, authored=True)


def test_writing_a_page_of_many_blocks_checks_the_deadline_as_it_goes(monkeypatch):
    from arxiv_mcp.text.html import page as html_page

    seen: list[str] = []
    monkeypatch.setattr(html_page.budget, "check", lambda doing, *advice: seen.append(doing))
    paragraphs = "".join(
        f'<div class="ltx_para"><p class="ltx_p">Paragraph {n} of the method.</p></div>' for n in range(9000)
    )
    page = (
        '<html><body><article class="ltx_document"><h1 class="ltx_title ltx_title_document">T</h1>'
        f'<section class="ltx_section"><h2 class="ltx_title ltx_title_section">1 Method</h2>{paragraphs}</section>'
        "</article></body></html>"
    )
    assert "Paragraph 8999 of the method." in html_to_text(page)
    assert seen.count("Writing the HTML page's document") == 2  # at 8,192 and 4,096 blocks left
