"""A citation in any common style read into id, title, first author and year; titles and
authors compared through TeX accents, Unicode, case and punctuation; bibliographies split."""

from __future__ import annotations

import pytest

from arxiv_mcp.research import bibsplit, likeness
from arxiv_mcp.research.citations import parse
from arxiv_mcp.research.plaintext import fold, words

TITLE = "Attention is all you need"


@pytest.mark.parametrize(
    "text",
    [
        "Vaswani, A., Shazeer, N., & Parmar, N. (2017). Attention is all you need. In Advances in NeurIPS.",
        '[3] A. Vaswani, N. Shazeer, and N. Parmar, "Attention is all you need," in Proc. NeurIPS, 2017.',
        "Ashish Vaswani, Noam Shazeer, and Niki Parmar. 2017. Attention is all you need. In NeurIPS.",
        'Vaswani, Ashish, Noam Shazeer, and Niki Parmar. 2017. "Attention is all you need." NeurIPS 30.',
        "\\bibitem[Vaswani et~al.(2017)]{v}\nA.~Vaswani and N.~Shazeer.\n\\newblock Attention is all you need.\n\\newblock In {\\em NeurIPS}, 2017.",
        "@inproceedings{v17,\n  author = {Vaswani, Ashish and Shazeer, Noam},\n  title = {{Attention} is all you need},\n  year = 2017\n}",
        "- Vaswani et al. (2017). [Attention is all you need](https://papers.example.org/7181)",
        "Vaswani et al. 2017 \u2014 \u201cAttention is all you need\u201d (NeurIPS)",
        "Vaswani A, Shazeer N, Parmar N. Attention is all you need. Adv Neural Inf Process Syst. 2017;30.",
        "Vaswani, A. et al. (2017) 'Attention is all you need', in Advances in Neural Information Processing Systems.",
        "Vaswani, A. et al. Attention is all you need. Adv. Neural Inf. Process. Syst. 30, 5998\u20136008 (2017).",
        "Attention is all you need (Vaswani et al., 2017)",
        "Attention is all you need by Vaswani et al. (2017)",
        "Vaswani et al., 2017. Attention is all you need.",
    ],
)
def test_every_style_gives_title_first_author_and_year(text):
    c = parse(text)
    assert (c.title, c.first_author, c.year, c.pid) == (TITLE, "vaswani", 2017, None)


@pytest.mark.parametrize(
    ("text", "pid"),
    [
        ("Bahdanau et al. Neural machine translation. CoRR, abs/1409.0473, 2014.", "1409.0473"),
        ("Bahdanau et al. Neural machine translation. CoRR abs/1409.0473", "1409.0473"),
        ("J. Ba. Layer normalization. arXiv preprint arXiv:1607.06450, 2016.", "1607.06450"),
        ("J. Maldacena. The large N limit. arXiv:hep-th/9711200.", "hep-th/9711200"),
        ("@misc{k, title={Adam}, eprint={1412.6980}, archivePrefix={arXiv}}", "1412.6980"),
        ("[PPO](https://arxiv.org/abs/1707.06347)", "1707.06347"),
        ("arXiv:1409.3215v3 [cs.CL] 14 Dec 2014", "1409.3215v3"),
        ("https://arxiv.org/pdf/2005.14165v4", "2005.14165v4"),
    ],
)
def test_every_stated_id_form_is_read(text, pid):
    assert str(parse(text).pid) == pid


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("arXiv:1713.04501", "month 13 does not exist"),
        ("2106.0968", "5 digits after the dot"),
        ("0801.12345", "4 digits after the dot"),
        ("A. B. A title. arXiv preprint arXiv:2113.01234, 2021.", "month 13"),
    ],
)
def test_an_id_that_cannot_exist_is_refused_with_its_reason(text, why):
    c = parse(text)
    assert c.pid is None and why in (c.id_problem or "")


@pytest.mark.parametrize(
    ("text", "title", "author"),
    [
        (
            "J. Maldacena, The large N limit of superconformal field theories and supergravity, "
            "Adv. Theor. Math. Phys. 2 (1998) 231, hep-th/9711200 (1997)",
            "The large N limit of superconformal field theories and supergravity",
            "maldacena",
        ),
        (
            "Perelman, G. The entropy formula for the Ricci flow and its geometric applications. arXiv:math/0211159",
            "The entropy formula for the Ricci flow and its geometric applications",
            "perelman",
        ),
        ("J. Maldacena, Adv. Theor. Math. Phys. 2 (1998) 231 [hep-th/9711200]", None, "maldacena"),
        (
            "E. Witten, Anti De Sitter Space And Holography, Adv. Theor. Math. Phys. 2 (1998) 253",
            "Anti De Sitter Space And Holography",
            "witten",
        ),
        ("A. Vaswani, Attention is all you need, Adv. Neural Inf. Process. Syst. 30 (2017) 5998", TITLE, "vaswani"),
        ("A. Vaswani, N. Shazeer and N. Parmar, Attention is all you need, Nature 550 (2017) 354", TITLE, "vaswani"),
        ("J.-P. Vaswani, Attention is all you need, J. Phys. A 30 (2017) 1", TITLE, "vaswani"),
        ("A. Vaswani, N. Shazeer, and N. Parmar, Attention is all you need, NIPS (2017) 5998", TITLE, "vaswani"),
        ("Vaswani, A. Attention is all you need. NeurIPS 30, 2017.", TITLE, "vaswani"),
        ("Vaswani, A., Shazeer, N. Attention is all you need. NeurIPS 30, 2017.", TITLE, "vaswani"),
        ("Vaswani, A. and Shazeer, N. M. Attention is all you need. arXiv:1706.03762", TITLE, "vaswani"),
        ("Vaswani, A.P., Shazeer, N.: Attention is all you need. In: NeurIPS (2017)", TITLE, "vaswani"),
    ],
)
def test_initials_then_a_comma_or_a_stop_end_the_authors(text, title, author):
    """Initials before a surname and a comma (`J. Maldacena, Title, Journal`), or after a
    surname and its comma, then a stop (`Perelman, G. Title.`): the title starts after them
    and stops where a journal starts (none when the journal follows the names); the names
    were read into the title, or a title-cased title with them as one list of names."""
    c = parse(text)
    assert (c.title, c.first_author) == (title, author)


def test_tex_accents_unicode_braces_and_case_fold_alike():
    assert fold('{\\"o}') == fold('\\"{o}') == fold("ö") == "o"
    assert fold("{\\L}ukasz") == fold("Łukasz") == "lukasz"
    assert words("{BERT}: Pre-training of {D}eep") == words("bert pretraining of deep")
    assert (
        parse('@article{a, author={G{\\"o}del, Kurt}, title={On formally undecidable propositions}}').first_author
        == "godel"
    )


@pytest.mark.parametrize(
    ("cited", "fit"),
    [
        ("Efficient estimation of word represntations in vector space", "same"),
        ("Efficient Estimation of Word-Representations in Vector Space", "same"),
        ("Efficient estimation of word representations", "truncated"),
        ("Efficient estimation of word representations in a vector space model", "different"),
        ("Efficient estimation of sentence representations in vector space", "different"),
        ("Fast estimation of word representations in vector space", "different"),
        ("Efficient estimation of vector representations in word space", "different"),
    ],
)
def test_a_fabricated_word_never_passes_for_a_typo(cited, fit):
    assert likeness.title_fit(cited, "Efficient Estimation of Word Representations in Vector Space").fit == fit


def test_subtitle_dropped_by_a_journal_still_fits():
    assert likeness.title_fit("BERT", "BERT: Pre-training of Deep Bidirectional Transformers").fit == "different"
    pre = "Xception: Deep Learning with Depthwise Separable Convolutions"
    assert likeness.title_fit("Deep learning with depthwise separable convolutions", pre).fit in ("close", "part")
    assert likeness.title_fit("Deep learning with separable convolutions", pre).fit == "different"


def test_authors_match_through_initials_accents_and_order():
    names = ["Łukasz Kaiser", "Aidan N. Gomez"]
    assert likeness.author_fit("kaiser", names) == "first"
    assert likeness.author_fit("gomez", names) == "listed"
    assert likeness.author_fit("smith", names) == "no"


def test_bibliographies_split_into_entries_in_order():
    assert bibsplit.split('@misc{a, title={X {Y}}}\n@comment{x}\n@article(b, title="Q")\n') == [
        "@misc{a, title={X {Y}}}",
        '@article(b, title="Q")',
    ]
    assert bibsplit.split('[1] A. B,\n  "T," 2000.\n[2] C. D, "U," 2001.') == ['A. B, "T," 2000.', 'C. D, "U," 2001.']
    assert bibsplit.split("1. A. T. 2000.\n2. B. U. 2001.\n") == ["A. T. 2000.", "B. U. 2001."]
    assert bibsplit.split("Smith, J. (2000). T.\n\nDoe, J. (2001).\nU.\n") == [
        "Smith, J. (2000). T.",
        "Doe, J. (2001).\nU.",
    ]
    assert bibsplit.split("\\bibitem{a} A.\n\\bibitem{b} B.") == ["\\bibitem{a} A.", "\\bibitem{b} B."]
