"""The author block of LaTeXML pages, in the shapes arXiv and ar5iv write it (`text/html/authors.py`)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arxiv_mcp.errors import ExtractionError
from arxiv_mcp.text.html import html_to_text

BODY = "Words of the paper body, enough of them to be a real page and not a stub. " * 10


def front(authors: str, *, before_title: str = "", title: str = "On Things") -> list[str]:
    """The paragraphs between the title and the first heading of a page with this author block."""
    html = (
        '<html><body><article class="ltx_document">'
        f'{before_title}<h1 class="ltx_title ltx_title_document">{title}</h1>{authors}'
        '<section class="ltx_section"><h2 class="ltx_title ltx_title_section">1 Intro</h2>'
        f'<div class="ltx_para"><p class="ltx_p">{BODY}</p></div></section></article></body></html>'
    )
    text = html_to_text(html)
    top = text.split("\n\n## ", 1)[0].split("\n\n")
    assert top[0].startswith("# ")
    return top[1:]


def creator(name: str, notes: str = "") -> str:
    notes_html = f'<span class="ltx_author_notes"><span class="ltx_author_notes_content">{notes}</span></span>'
    return (
        f'<span class="ltx_creator ltx_role_author"><span class="ltx_personname">{name}</span>'
        f"{notes_html if notes else ''}</span>"
    )


def contact(role: str, label: str, text: str) -> str:
    return f'<span class="ltx_contact ltx_role_{role}"><span class="ltx_contact_name">{label}: </span>{text}</span>'


BEFORE = '<span class="ltx_author_before">  </span>'
FOOTNOTEMARK = (
    '<span class="ltx_note ltx_role_footnotemark"><sup class="ltx_note_mark">1</sup><span class="ltx_note_outer">'
    '<span class="ltx_note_content"><sup class="ltx_note_mark">1</sup><span class="ltx_note_type">footnotemark: </span>'
    '<span class="ltx_tag ltx_tag_note">1</span></span></span></span>'
)


def test_per_author_contacts_are_numbered_once_with_emails_and_notes_once():
    """ar5iv / REVTeX shape: every creator repeats its affiliation as an ltx_contact."""
    thanks = contact("thanks", "Thanks", "Equal contribution.")
    block = (
        '<div class="ltx_authors">'
        + creator("Ada Lovelace", thanks + contact("affiliation", "Affiliation", "Analytical Engines Ltd"))
        + BEFORE
        + creator(
            "Alan Turing" + FOOTNOTEMARK,
            contact("affiliation", "Affiliation", "University of Manchester")
            + contact(
                "email", "Email", '<a href="mailto:"><span class="ltx_font_typewriter">alan@example.org</span></a>'
            ),
        )
        + BEFORE
        + creator(
            "Grace Hopper" + FOOTNOTEMARK, thanks + contact("affiliation", "Affiliation", "Analytical Engines Ltd")
        )
        + "</div>"
    )
    assert front(block) == [
        "Ada Lovelace$^{1}$, Alan Turing$^{2}$, Grace Hopper$^{1}$",
        "$^{1}$Analytical Engines Ltd; $^{2}$University of Manchester",
        "alan@example.org",
        "[^*: Equal contribution.]",
    ]


def test_one_shared_affiliation_gets_no_marks():
    """NeurIPS shape: each creator is "Name <br> Dept <br> University <br> e-mail"."""
    block = (
        '<div class="ltx_authors">'
        + creator(
            'Ada Lovelace<br class="ltx_break"/>Dept. of Engines<br class="ltx_break"/>Analytical University'
            '<br class="ltx_break"/><span class="ltx_font_typewriter">ada@example.org</span>'
        )
        + '<span class="ltx_author_before">and</span>'
        + creator('Alan Turing<br class="ltx_break"/>Dept. of Engines<br class="ltx_break"/>Analytical University')
        + "</div>"
    )
    assert front(block) == ["Ada Lovelace, Alan Turing", "Dept. of Engines, Analytical University", "ada@example.org"]


def test_marked_names_and_affiliation_lines_in_one_name_element():
    """MNRAS shape: names with math or sup marks, then marked affiliation lines after breaks."""
    name = (
        'Ada Lovelace<math alttext="{}^{1}" class="ltx_Math"><msup><mi></mi><mn>1</mn></msup></math> ,\n'
        'Alan Turing<sup class="ltx_sup">1,2</sup>\n<br class="ltx_break"/>'
        '<math alttext="{}^{1}" class="ltx_Math"><mn>1</mn></math> Analytical University, London\n<br class="ltx_break"/>'
        '<sup class="ltx_sup">2</sup> Bletchley Park, Milton Keynes'
    )
    block = f'<div class="ltx_authors">{creator(name)}<span class="ltx_author_notes">ada@example.org</span></div>'
    assert front(block) == [
        "Ada Lovelace$^{1}$, Alan Turing$^{1,2}$",
        "$^{1}$Analytical University, London; $^{2}$Bletchley Park, Milton Keynes",
        "ada@example.org",
    ]


def test_institute_note_before_the_title_lists_the_affiliations():
    """arxiv.org/html shape of \\institutetext: a note ahead of the title, names with sup marks."""
    note = (
        '<span class="ltx_note ltx_role_institutetext"><sup class="ltx_note_mark">1</sup><span class="ltx_note_outer">'
        '<span class="ltx_note_content"><sup class="ltx_note_mark">1</sup><span class="ltx_note_type">institutetext: </span>'
        '<sup class="ltx_sup">1</sup> Spectacular AI, <sup class="ltx_sup">2</sup> ETH Zurich<br class="ltx_break"/>'
        "Corresponding author: <span>otto@example.org</span></span></span></span>"
    )
    block = (
        '<div class="ltx_authors">'
        + creator('Otto Seiskari<sup class="ltx_sup">1</sup>')
        + BEFORE
        + creator('Arno Solin<sup class="ltx_sup"><span class="ltx_text ltx_font_italic">1,2</span></sup>')
        + "</div>"
    )
    assert front(block, before_title=note) == [
        "Otto Seiskari$^{1}$, Arno Solin$^{1,2}$",
        "$^{1}$Spectacular AI; $^{2}$ETH Zurich",
        "Corresponding author: otto@example.org",
    ]


def test_authors_before_a_shared_affiliation_share_its_number():
    """LaTeXML hangs a group's shared \\affiliation on the group's last author."""
    block = (
        '<div class="ltx_authors">'
        + creator("Ada Lovelace")
        + creator("Alan Turing", contact("affiliation", "Affiliation", "Analytical University"))
        + creator("Grace Hopper", contact("affiliation", "Affiliation", "Navy Lab"))
        + "</div>"
    )
    assert front(block)[:2] == [
        "Ada Lovelace$^{1}$, Alan Turing$^{1}$, Grace Hopper$^{2}$",
        "$^{1}$Analytical University; $^{2}$Navy Lab",
    ]


def test_thanks_in_a_name_is_a_note_with_its_mark_and_names_stay_clean():
    thanks = (
        '<span class="ltx_note ltx_role_thanks"><sup class="ltx_note_mark">∗</sup><span class="ltx_note_outer">'
        '<span class="ltx_note_content"><sup class="ltx_note_mark">∗</sup><span class="ltx_note_type">thanks: </span>'
        "Equal contribution.</span></span></span>"
    )
    block = (
        f'<div class="ltx_authors">{creator("Ada Lovelace" + thanks)}{BEFORE}{creator("Alan Turing" + thanks)}</div>'
    )
    assert front(block) == ["Ada Lovelace, Alan Turing", "[^∗: Equal contribution.]"]


def test_acmart_affiliation_parts_are_separated():
    parts = (
        '<span class="ltx_text ltx_affiliation_institution">Analytical University</span>'
        '<span class="ltx_text ltx_affiliation_city">London</span>'
        '<span class="ltx_text ltx_affiliation_country">UK</span>'
    )
    block = f'<div class="ltx_authors">{creator("Ada Lovelace", contact("affiliation", "Affiliation", parts))}</div>'
    assert front(block) == ["Ada Lovelace", "Analytical University, London, UK"]


def test_title_notes_join_the_front_notes():
    title = (
        'Deep<br class="ltx_break"/>Learning<span class="ltx_note ltx_role_footnote"><sup class="ltx_note_mark">*</sup>'
        '<span class="ltx_note_outer"><span class="ltx_note_content">Funded by X.</span></span></span>'
    )
    block = f'<div class="ltx_authors">{creator("Ada Lovelace")}</div>'
    assert front(block, title=title) == ["Ada Lovelace", "[^*: Funded by X.]"]


def test_hash_leading_author_text_is_escaped():
    block = f'<div class="ltx_authors">{creator("Ada Lovelace", contact("affiliation", "", "#1 Lab"))}</div>'
    assert front(block) == ["Ada Lovelace", "\\#1 Lab"]


def test_real_ar5iv_author_block_is_compact():
    """ar5iv's Attention page: eight creators, each repeating affiliation, e-mail and notes."""
    page = Path(__file__).parent / "fixtures" / "html" / "ar5iv_1706.03762_authors.html"
    text = html_to_text(page.read_text(encoding="utf-8"))
    top = text.split("\n\n## Abstract", 1)[0].split("\n\n")
    assert top[1].startswith("Ashish Vaswani$^{1}$, Noam Shazeer$^{1}$, Niki Parmar$^{2}$")
    assert top[2] == "$^{1}$Google Brain; $^{2}$Google Research; $^{3}$University of Toronto"
    assert top[3].startswith("avaswani@google.com, noam@google.com")
    assert top[4].count("[^*:") == 3 and "Work performed while at Google Brain." in top[4]
    assert "Affiliation" not in text and "footnotemark" not in text and "Thanks:" not in text


def test_footnotetext_before_the_first_section_joins_the_front_notes():
    notes = "".join(
        f'<span class="ltx_note ltx_role_footnotetext"><sup class="ltx_note_mark">{mark}</sup>'
        f'<span class="ltx_note_outer"><span class="ltx_note_content"><sup class="ltx_note_mark">{mark}</sup>'
        f'<span class="ltx_note_type">footnotetext: </span>{text}</span></span></span>'
        for mark, text in (("1", "Google Research."), ("2", "Carnegie Mellon University."))
    )
    block = f'<div class="ltx_authors">{creator("Honghao Lin")}{creator("David P. Woodruff")}</div>{notes}'
    assert front(block) == [
        "Honghao Lin, David P. Woodruff",
        "[^1: Google Research.] [^2: Carnegie Mellon University.]",
    ]


def test_a_collaboration_names_every_author_once_and_each_affiliation_once():
    labs = ["CERN", "DESY", "Fermilab"]
    block = (
        '<div class="ltx_authors">'
        + "".join(
            creator(f"Author{n:04d} Physicist", contact("affiliation", "Affiliation", labs[n % 3])) for n in range(3000)
        )
        + "</div>"
    )
    names, affiliations = front(block)
    assert names.count("Physicist") == 3000 and names.startswith(
        "Author0000 Physicist$^{1}$, Author0001 Physicist$^{2}$"
    )
    assert affiliations == "$^{1}$CERN; $^{2}$DESY; $^{3}$Fermilab"


def test_siunitx_dollars_inside_alttext_do_not_end_the_formula():
    siunitx = '<math alttext="M/${10}^{12}\\,\\mathrm{M_{\\odot}}$" class="ltx_Math"><mi>M</mi></math>'
    text_mode = '<math alttext="a\\ \\text{for all $x$ and \\$5}" class="ltx_Math"><mi>a</mi></math>'
    paragraph = f'<div class="ltx_para"><p class="ltx_p">Mass {siunitx} here, {text_mode}.</p></div>'
    block = f'<div class="ltx_authors">{creator("Ada Lovelace")}</div>{paragraph}'
    assert front(block)[1] == "Mass $M/{10}^{12}\\,\\mathrm{M_{\\odot}}$ here, $a\\ \\text{for all $x$ and \\$5}$."


def test_marks_written_one_after_another_become_one_mark():
    name = (
        'Ada Lovelace<sup class="ltx_sup">1</sup><sup class="ltx_sup">,</sup> <sup class="ltx_sup">2</sup>'
        '<math alttext="{}^{\\dagger}" class="ltx_Math"><mo>†</mo></math>'
    )
    assert front(f'<div class="ltx_authors">{creator(name)}</div>') == ["Ada Lovelace$^{1,2,\\dagger}$"]


def test_ieee_author_block_lines_split_the_email_from_the_affiliation():
    """IEEEtran's \\IEEEauthorblockA is one ltx_contact holding lines: department, school, e-mail."""
    lines = 'Dept. of Engines<br class="ltx_break"/>Analytical University<br class="ltx_break"/>ada@example.org'
    block = f'<div class="ltx_authors">{creator("Ada Lovelace, Alan Turing", contact("affiliation", "", lines))}</div>'
    assert front(block) == ["Ada Lovelace, Alan Turing", "Dept. of Engines, Analytical University", "ada@example.org"]


AUTHOR_TOKENS = [
    '<div class="ltx_authors">',
    "</div>",
    '<span class="ltx_creator ltx_role_author">',
    '<span class="ltx_personname">',
    '<span class="ltx_author_notes">',
    '<span class="ltx_contact ltx_role_affiliation">',
    '<span class="ltx_contact ltx_role_email">',
    '<span class="ltx_contact ltx_role_thanks">',
    '<span class="ltx_contact_name">',
    '<span class="ltx_note ltx_role_thanks">',
    '<span class="ltx_note ltx_role_footnotemark">',
    '<span class="ltx_note ltx_role_institutetext">',
    '<sup class="ltx_note_mark">',
    '<sup class="ltx_sup">',
    "</sup>",
    "</span>",
    '<span class="ltx_text ltx_affiliation_city">',
    "<math alttext='{}^{1}'>",
    "<math alttext='$'>",
    "</math>",
    '<br class="ltx_break"/>',
    "<p>",
    "#",
    "$^{",
    "@",
    "\x00",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.sampled_from(AUTHOR_TOKENS), st.text(max_size=12)), max_size=60))
def test_arbitrary_author_markup_keeps_the_text_shape(tokens):
    """Any author-block markup: the page still reads, no front paragraph looks like a heading."""
    try:
        paragraphs = front("".join(tokens))
    except ExtractionError:
        return
    assert all(not paragraph.lstrip().startswith("#") for paragraph in paragraphs)
