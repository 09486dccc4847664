import dataclasses
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arxiv_mcp.categories import (
    CATEGORIES,
    GROUPS,
    LEGACY_ARCHIVES,
    LEGACY_SUBJECT_CLASSES,
    cat_terms,
    get_category,
    is_category,
    is_legacy_archive,
    is_legacy_subject_class,
    list_categories,
    suggest,
)
from arxiv_mcp.errors import InvalidInput

ARCHIVE_SIZES = {
    "cs": 40,
    "math": 32,
    "physics": 22,
    "astro-ph": 6,
    "cond-mat": 9,
    "nlin": 5,
    "q-bio": 10,
    "q-fin": 9,
    "stat": 6,
    "eess": 4,
    "econ": 3,
}
STANDALONE = ["gr-qc", "hep-ex", "hep-lat", "hep-ph", "hep-th", "math-ph", "nucl-ex", "nucl-th", "quant-ph"]


def ids_in_archive(archive):
    return [cat_id for cat_id in CATEGORIES if cat_id.startswith(archive + ".")]


@pytest.mark.parametrize(("archive", "size"), ARCHIVE_SIZES.items())
def test_each_archive_has_its_full_set_of_categories(archive, size):
    assert len(ids_in_archive(archive)) == size


def test_standalone_archives_are_categories_and_nothing_else_exists():
    assert all(is_category(cat_id) for cat_id in STANDALONE)
    assert len(CATEGORIES) == sum(ARCHIVE_SIZES.values()) + len(STANDALONE) == 155


@pytest.mark.parametrize(
    ("cat_id", "name"),
    [
        ("cs.AI", "Artificial Intelligence"),
        ("math.GT", "Geometric Topology"),
        ("q-bio.NC", "Neurons and Cognition"),
        ("eess.SY", "Systems and Control"),
        ("econ.EM", "Econometrics"),
        ("astro-ph.CO", "Cosmology and Nongalactic Astrophysics"),
        ("cs.CE", "Computational Engineering, Finance, and Science"),
        ("hep-ph", "High Energy Physics - Phenomenology"),
        ("physics.data-an", "Data Analysis, Statistics and Probability"),
        ("cond-mat.mes-hall", "Mesoscale and Nanoscale Physics"),
        ("q-fin.TR", "Trading and Market Microstructure"),
        ("stat.ML", "Machine Learning"),
    ],
)
def test_official_names(cat_id, name):
    assert CATEGORIES[cat_id].name == name


def test_every_category_is_consistent_and_briefly_described():
    for cat_id, category in CATEGORIES.items():
        assert category.id == cat_id
        assert category.name.strip()
        assert category.group in GROUPS
        description = category.description
        assert description.strip(), cat_id
        assert len(description) <= 160, cat_id
        assert description.endswith("."), cat_id
        assert ". " not in description, f"{cat_id} has more than one sentence"


def test_groups_follow_arxiv():
    groups = {
        "cs.AI": "Computer Science",
        "econ.TH": "Economics",
        "eess.IV": "Electrical Engineering and Systems Science",
        "math.AG": "Mathematics",
        "math-ph": "Physics",
        "astro-ph.SR": "Physics",
        "q-bio.GN": "Quantitative Biology",
        "q-fin.RM": "Quantitative Finance",
        "stat.AP": "Statistics",
    }
    assert {cat_id: CATEGORIES[cat_id].group for cat_id in groups} == groups
    assert {c.group for c in CATEGORIES.values()} == set(GROUPS)


def test_category_is_immutable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        CATEGORIES["cs.AI"].name = "changed"


def test_get_category_ignores_case_of_the_id():
    assert get_category("cs.ai") is CATEGORIES["cs.AI"]
    assert get_category(" HEP-TH ") is CATEGORIES["hep-th"]
    assert get_category("cond-mat.STR-EL").id == "cond-mat.str-el"


def test_unknown_category_quotes_input_and_suggests_real_ids():
    with pytest.raises(InvalidInput) as caught:
        get_category("cs.ML")
    message = str(caught.value)
    assert "'cs.ML'" in message
    assert "cs.LG" in message and "stat.ML" in message
    assert "list_categories" in message


def test_unknown_category_given_as_a_topic_suggests_matching_ids():
    with pytest.raises(InvalidInput) as caught:
        get_category("machine learning")
    assert "cs.LG" in str(caught.value) and "stat.ML" in str(caught.value)


def test_archive_given_as_a_category_explains_what_it_is():
    with pytest.raises(InvalidInput, match=r"list_categories\('cs'\)"):
        get_category("cs")
    with pytest.raises(InvalidInput, match="nlin.SI"):
        get_category("solv-int")


def test_list_categories_without_group_returns_everything():
    assert [c.id for c in list_categories()] == list(CATEGORIES)


@pytest.mark.parametrize("prefix", ["cs", "CS", "cs.", "cs.*", "Computer Science", "computer science"])
def test_list_categories_for_computer_science(prefix):
    found = list_categories(prefix)
    assert len(found) == 40
    assert all(c.id.startswith("cs.") for c in found)


def test_physics_prefix_means_physics_archive_and_group_name_means_whole_group():
    archive = {c.id for c in list_categories("physics")}
    assert len(archive) == 22 and all(cat_id.startswith("physics.") for cat_id in archive)
    group = {c.id for c in list_categories("Physics")}
    assert archive < group
    assert {"astro-ph.CO", "cond-mat.soft", "gr-qc", "hep-th", "math-ph", "nlin.SI", "quant-ph"} <= group
    assert len(group) == 22 + 6 + 9 + 5 + len(STANDALONE)
    assert not any(cat_id.startswith(("math.", "cs.")) for cat_id in group)


def test_list_categories_accepts_ids_and_other_groups():
    assert list_categories("cs.ai") == [CATEGORIES["cs.AI"]]
    assert list_categories("hep-th") == [CATEGORIES["hep-th"]]
    assert len(list_categories("statistics")) == 6
    assert len(list_categories("Mathematics")) == 32
    assert len(list_categories("astro-ph")) == 6


def test_list_categories_unknown_group_suggests_and_points_to_full_list():
    with pytest.raises(InvalidInput) as caught:
        list_categories("quant")
    message = str(caught.value)
    assert "'quant'" in message
    assert "quant-ph" in message
    assert "list_categories" in message


def test_is_category_is_exact_and_case_sensitive():
    assert is_category("cs.AI")
    assert not is_category("cs.ai")
    assert not is_category("cs")
    assert not is_category("solv-int")


def test_legacy_archives_cover_every_old_style_archive():
    expected = {
        "acc-phys",
        "adap-org",
        "alg-geom",
        "ao-sci",
        "astro-ph",
        "atom-ph",
        "bayes-an",
        "chao-dyn",
        "chem-ph",
        "cmp-lg",
        "comp-gas",
        "cond-mat",
        "cs",
        "dg-ga",
        "funct-an",
        "gr-qc",
        "hep-ex",
        "hep-lat",
        "hep-ph",
        "hep-th",
        "math",
        "math-ph",
        "mtrl-th",
        "nlin",
        "nucl-ex",
        "nucl-th",
        "patt-sol",
        "physics",
        "plasm-ph",
        "q-alg",
        "q-bio",
        "quant-ph",
        "solv-int",
        "supr-con",
    }
    assert set(LEGACY_ARCHIVES) == expected
    assert all(is_legacy_archive(archive) for archive in expected)
    assert LEGACY_ARCHIVES["solv-int"] == "Exactly Solvable and Integrable Systems (now nlin.SI)"
    assert "cs.CL" in LEGACY_ARCHIVES["cmp-lg"]
    assert "math.AG" in LEGACY_ARCHIVES["alg-geom"]


def test_archives_born_after_2007_and_categories_are_not_legacy_archives():
    for name in ["stat", "q-fin", "econ", "eess", "cs.AI", "HEP-TH", "test", ""]:
        assert not is_legacy_archive(name)


def test_every_retired_archive_points_to_a_real_category():
    for archive, text in LEGACY_ARCHIVES.items():
        successor = re.search(r"\(now ([\w.-]+)\)$", text)
        if successor:
            assert is_category(successor.group(1)), archive


def test_legacy_subject_classes_are_the_modern_ones():
    assert is_legacy_subject_class("math", "GT")
    assert is_legacy_subject_class("cs", "AI")
    assert is_legacy_subject_class("physics", "optics")
    assert not is_legacy_subject_class("math", "XX")
    assert not is_legacy_subject_class("hep-th", "GT")
    assert len(LEGACY_SUBJECT_CLASSES["math"]) == 32
    assert len(LEGACY_SUBJECT_CLASSES["cs"]) == 40


def test_suggest_reads_abbreviations_typos_and_topics():
    assert suggest("cs.ML")[:2] == ["cs.LG", "stat.ML"]
    assert suggest("hep-thh")[0] == "hep-th"
    assert suggest("nlp")[0] == "cs.CL"
    assert suggest("llms")[:2] == suggest("llm")[:2] == ["cs.CL", "cs.LG"]  # plurals read as singular
    assert suggest("PDEs")[0] == "math.AP" and set(suggest("qcd")[:2]) == {"hep-ph", "hep-lat"}
    assert suggest("string theory")[0] == "hep-th"
    assert suggest("galaxies") == ["astro-ph.GA"]
    assert suggest("machine learning", n=2) == ["cs.LG", "stat.ML"]
    assert suggest("   ") == []
    assert suggest("cs.AI", n=0) == []


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=30), n=st.integers(min_value=0, max_value=6))
def test_suggest_only_returns_real_distinct_ids(text, n):
    found = suggest(text, n)
    assert len(found) <= n
    assert len(set(found)) == len(found)
    assert all(is_category(cat_id) for cat_id in found)


@pytest.mark.parametrize(
    "value, terms",
    [
        ("cs.ai", ["cs.AI"]),
        ("hep-th", ["hep-th"]),
        ("astro-ph", ["astro-ph*"]),
        ("CS", ["cs*"]),
        ("cond-mat.*", ["cond-mat*"]),
        ("solv-int", ["solv-int"]),
    ],
)
def test_cat_terms_cover_archives(value, terms):
    assert cat_terms(value) == terms


def test_an_archive_whose_name_prefixes_another_lists_its_categories():
    terms = cat_terms("math")
    assert terms[0] == "math" and "math.GT" in terms and "math-ph" not in terms
    assert all(t == "math" or t.startswith("math.") for t in terms)


def test_cat_terms_of_an_unknown_value_suggest():
    with pytest.raises(InvalidInput, match="list_categories"):
        cat_terms("csx")
