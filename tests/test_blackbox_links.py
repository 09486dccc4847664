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
