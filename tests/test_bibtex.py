"""to_bibtex output read back by a real BibTeX parser (bibtexparser v2)."""

from __future__ import annotations

import re

import bibtexparser
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from arxiv_mcp.models import AuthorInfo
from arxiv_mcp.research.bibtex import escape_title, to_bibtex
from arxiv_mcp.upstream.atom import Paper


def make(
    pid: str,
    title: str,
    *,
    version: int = 1,
    authors=("Ada Lovelace", "Alan Turing"),
    primary: str = "cs.LG",
    published: str = "2024-03-05T12:00:00Z",
    **kw,
) -> Paper:
    return Paper(
        id=pid,
        version=version,
        title=title,
        abstract="",
        authors=[AuthorInfo(a) for a in authors],
        categories=[primary],
        primary_category=primary,
        published=published,
        updated=published,
        **kw,
    )


_UNESCAPES = {
    r"\textbackslash{}": "\\",
    r"\textbraceleft{}": "{",
    r"\textbraceright{}": "}",
    r"\textasciitilde{}": "~",
    r"\textasciicircum{}": "^",
    r"\&": "&",
    r"\%": "%",
    r"\$": "$",
    r"\#": "#",
    r"\_": "_",
}
_UNESCAPE = re.compile("|".join(re.escape(k) for k in sorted(_UNESCAPES, key=len, reverse=True)))


def decode(value: str) -> str:
    """The text a reader sees: escapes undone (the tests' titles keep escapes out of math)."""
    return _UNESCAPE.sub(lambda m: _UNESCAPES[m.group()], value)


def assert_balanced(text: str) -> None:
    depth = 0
    for char in text:
        depth += {"{": 1, "}": -1}.get(char, 0)
        assert depth >= 0, text
    assert depth == 0, text


def parse(text: str):
    library = bibtexparser.parse_string(text)
    assert library.failed_blocks == []
    return {e.key: e for e in library.entries}


PAPERS = [
    make(
        "2401.12345",
        "Cats & dogs: 100% of $x^2$ {robust} #1 under_scores",
        version=3,
        authors=("Erwin Schrödinger", "Marie Skłodowska-Curie", "Alan Turing"),
        doi="10.1103/PhysRevD.1.2_3",
        journal_ref="Phys. Rev. D 1, 2 (2024) & more",
    ),
    make(
        "hep-th/9901001",
        "Strings on curved backgrounds",
        authors=("Edward Witten",),
        primary="hep-th",
        published="1999-01-04T10:00:00Z",
    ),
    make(
        "math.GT/0309136",
        "Knots ~ and ^ three-manifolds \\ back",
        version=2,
        authors=("William Thurston",),
        primary="math.GT",
        published="2003-09-15T00:00:00Z",
    ),
    make(
        "0704.0001",
        "Calculation of prompt diphoton production $\\sigma_{\\gamma\\gamma}$ at $$E=mc^2$$",
        primary="hep-ph",
        published="2007-04-02T19:18:42Z",
    ),
]


def test_every_entry_parses_with_the_expected_keys():
    entries = parse(to_bibtex(PAPERS))
    assert list(entries) == ["arxiv:2401.12345", "arxiv:hep-th/9901001", "arxiv:math.GT/0309136", "arxiv:0704.0001"]
    assert all(e.entry_type == "misc" for e in entries.values())


def values(fields: dict, expected: dict[str, str]) -> dict[str, str]:
    """The values, as written, of the fields `expected` names (KeyError for a missing one)."""
    return {name: fields[name].value for name in expected}


def test_fields_round_trip():
    entries = parse(to_bibtex(PAPERS))
    first = entries["arxiv:2401.12345"].fields_dict
    assert (
        first["title"].value == "{Cats \\& dogs: 100\\% of $x^2$ \\textbraceleft{}robust\\textbraceright{} "
        "\\#1 under\\_scores}"
    )
    assert decode(first["title"].value[1:-1]) == PAPERS[0].title
    expected = {
        "author": "Erwin Schrödinger and Marie Skłodowska-Curie and Alan Turing",
        "year": "2024",
        "eprint": "2401.12345",
        "archivePrefix": "arXiv",
        "primaryClass": "cs.LG",
        "doi": "10.1103/PhysRevD.1.2_3",
        "url": "https://arxiv.org/abs/2401.12345",
    }
    assert values(first, expected) == expected
    assert decode(first["note"].value) == "Phys. Rev. D 1, 2 (2024) & more"

    old = entries["arxiv:hep-th/9901001"].fields_dict
    expected = {
        "eprint": "hep-th/9901001",
        "year": "1999",
        "primaryClass": "hep-th",
        "url": "https://arxiv.org/abs/hep-th/9901001",
    }
    assert values(old, expected) == expected

    special = entries["arxiv:math.GT/0309136"].fields_dict
    assert decode(special["title"].value[1:-1]) == PAPERS[2].title

    math = entries["arxiv:0704.0001"].fields_dict
    assert math["title"].value[1:-1] == PAPERS[3].title  # math kept exactly as written


def test_nothing_invented():
    entries = parse(to_bibtex(PAPERS))
    plain = entries["arxiv:hep-th/9901001"].fields_dict
    assert "doi" not in plain and "note" not in plain
    bare = make("2402.00001", "Untitled", authors=(), primary="", published="")
    fields = parse(to_bibtex([bare]))["arxiv:2402.00001"].fields_dict
    assert set(fields) == {"title", "eprint", "archivePrefix", "url"}


def test_versions_never_reach_key_eprint_or_url():
    text = to_bibtex(PAPERS)
    assert "v3" not in text and "v2" not in text


def test_site_url_and_repeated_ids():
    text = to_bibtex([PAPERS[0], make("2401.12345", "Again", version=1)], site_url="http://127.0.0.1:9/")
    entries = parse(text)
    assert list(entries) == ["arxiv:2401.12345"]
    assert entries["arxiv:2401.12345"].fields_dict["url"].value == "http://127.0.0.1:9/abs/2401.12345"


def test_author_named_with_and_stays_one_author():
    fields = parse(to_bibtex([make("2401.00002", "T", authors=("Smith and Wesson Group", "B. Jones"))]))[
        "arxiv:2401.00002"
    ].fields_dict
    assert fields["author"].value == "{Smith and Wesson Group} and B. Jones"


@pytest.mark.parametrize("title", ["Sets $\\{x \\mid x>0$ and more", "Cost \\$5 and $y$", "Unclosed $x^2 math"])
def test_awkward_math_stays_balanced(title):
    assert_balanced(escape_title(title))
    parse(to_bibtex([make("2401.00003", title)]))


def test_unbalanced_math_spells_out_its_braces():
    assert escape_title("Sets $\\{x \\mid x>0$") == "Sets $\\lbrace x \\mid x>0$"


def test_math_balanced_only_when_escaped_braces_count():
    """`{\\}` balances when every brace counts, but bibtexparser skips the escaped one; and
    TeX itself reads it as an unclosed group, so it is escaped as text."""
    assert escape_title("${\\}$") == "\\$\\textbraceleft{}\\textbackslash{}\\textbraceright{}\\$"
    assert escape_title("${\\}}$") == "${\\rbrace }$"


def test_math_no_spelling_can_balance_is_escaped_as_text():
    """`\\\\{` is a line break then a brace: bibtexparser skips that brace, BibTeX does not."""
    assert escape_title("$\\\\{x}$") == "\\$\\textbackslash{}\\textbackslash{}\\textbraceleft{}x\\textbraceright{}\\$"


ESCAPED_BRACE_MATH = [
    "${\\}$",
    "$\\{}$",
    "${\\}}$",
    "${{\\}$",
    "$\\\\{$",
    "$\\\\}{$",
    "${\\\\}$",
    "$$a{\\}b$$",
    "${\\}$ and $\\{}$",
    "$\\{\\}$",
    "${\\{}\\}$",
    "x ${\\}$ y",
]


@pytest.mark.parametrize("title", ESCAPED_BRACE_MATH)
def test_escaped_braces_in_math_balance_for_both_readers(title):
    text = to_bibtex([make("2401.00005", title)])
    assert_balanced(text)
    title_value = parse(text)["arxiv:2401.00005"].fields_dict["title"].value
    assert title_value == "{" + escape_title(title) + "}"


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab &%$#_{}~^\\ö€x2")), min_size=1, max_size=40))
@example("${\\}$")
@example("$\\\\{$ and ${\\}}$")
def test_any_title_parses(title):
    title = title.strip() or "x"
    text = to_bibtex([make("2401.00004", title, authors=(title,))])
    assert_balanced(text)  # real BibTeX counts every brace, escaped or not
    fields = parse(text)["arxiv:2401.00004"].fields_dict
    if "$" not in title:
        assert decode(fields["title"].value[1:-1]) == title
