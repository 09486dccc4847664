"""The bundled arXiv taxonomy, so category questions never cost an upstream request.

Names and ids follow arXiv's current taxonomy; the descriptions are our own one-line
summaries. Also knows the archive names that pre-2007 ids (``hep-th/9901001``,
``math.GT/0309136``) may carry, for validating old-style ids.
"""

import difflib
import re
from pathlib import Path

from .errors import InvalidInput
from .models import CategoryInfo
from .words import singular

COMPUTER_SCIENCE = "Computer Science"
ECONOMICS = "Economics"
EESS = "Electrical Engineering and Systems Science"
MATHEMATICS = "Mathematics"
PHYSICS = "Physics"
QUANTITATIVE_BIOLOGY = "Quantitative Biology"
QUANTITATIVE_FINANCE = "Quantitative Finance"
STATISTICS = "Statistics"

GROUPS: tuple[str, ...] = (
    COMPUTER_SCIENCE,
    ECONOMICS,
    EESS,
    MATHEMATICS,
    PHYSICS,
    QUANTITATIVE_BIOLOGY,
    QUANTITATIVE_FINANCE,
    STATISTICS,
)

# Current archive -> the group it belongs to. Standalone archives (gr-qc, hep-th, ...)
# are both an archive and the single category inside it.
ARCHIVE_GROUPS: dict[str, str] = {
    "cs": COMPUTER_SCIENCE,
    "econ": ECONOMICS,
    "eess": EESS,
    "math": MATHEMATICS,
    "astro-ph": PHYSICS,
    "cond-mat": PHYSICS,
    "gr-qc": PHYSICS,
    "hep-ex": PHYSICS,
    "hep-lat": PHYSICS,
    "hep-ph": PHYSICS,
    "hep-th": PHYSICS,
    "math-ph": PHYSICS,
    "nlin": PHYSICS,
    "nucl-ex": PHYSICS,
    "nucl-th": PHYSICS,
    "physics": PHYSICS,
    "quant-ph": PHYSICS,
    "q-bio": QUANTITATIVE_BIOLOGY,
    "q-fin": QUANTITATIVE_FINANCE,
    "stat": STATISTICS,
}


def _read_taxonomy() -> tuple[tuple[str, str, str, tuple[str, ...]], ...]:
    """(id, official name, our own short description, everyday abbreviations) rows from the
    bundled categories.tsv (the fourth column may be left out)."""
    text = (Path(__file__).parent / "categories.tsv").read_text(encoding="utf-8")
    rows = [line.split("\t") + [""] for line in text.splitlines() if line and not line.startswith("#")]
    return tuple(
        (cat_id, name, description, tuple(informal.split())) for cat_id, name, description, informal, *_ in rows
    )


_TAXONOMY = _read_taxonomy()


def archive_of(cat_id: str) -> str:
    """The archive part of a category id: "cs" for "cs.AI", "hep-th" for "hep-th"."""
    return cat_id.split(".", 1)[0]


CATEGORIES: dict[str, CategoryInfo] = {
    cat_id: CategoryInfo(cat_id, name, ARCHIVE_GROUPS[archive_of(cat_id)], description)
    for cat_id, name, description, _ in _TAXONOMY
}

# Every archive that appears before the slash of an old-style id (1991 to March 2007),
# its name, and where its papers are classified now. stat, q-fin, econ and eess only
# began after the switch to YYMM.NNNNN ids, so they never occur in old-style ids.
_LEGACY: tuple[tuple[str, str, str], ...] = (
    ("acc-phys", "Accelerator Physics", "now physics.acc-ph"),
    ("adap-org", "Adaptation, Noise, and Self-Organizing Systems", "now nlin.AO"),
    ("alg-geom", "Algebraic Geometry", "now math.AG"),
    ("ao-sci", "Atmospheric-Oceanic Sciences", "now physics.ao-ph"),
    ("astro-ph", "Astrophysics", "still current, split into astro-ph.* categories"),
    ("atom-ph", "Atomic, Molecular and Optical Physics", "now physics.atom-ph"),
    ("bayes-an", "Bayesian Analysis", "now physics.data-an"),
    ("chao-dyn", "Chaotic Dynamics", "now nlin.CD"),
    ("chem-ph", "Chemical Physics", "now physics.chem-ph"),
    ("cmp-lg", "Computation and Language", "now cs.CL"),
    ("comp-gas", "Cellular Automata and Lattice Gases", "now nlin.CG"),
    ("cond-mat", "Condensed Matter", "still current, split into cond-mat.* categories"),
    ("cs", "Computer Science", "still current, split into cs.* categories"),
    ("dg-ga", "Differential Geometry", "now math.DG"),
    ("funct-an", "Functional Analysis", "now math.FA"),
    ("gr-qc", "General Relativity and Quantum Cosmology", "still current as gr-qc"),
    ("hep-ex", "High Energy Physics - Experiment", "still current as hep-ex"),
    ("hep-lat", "High Energy Physics - Lattice", "still current as hep-lat"),
    ("hep-ph", "High Energy Physics - Phenomenology", "still current as hep-ph"),
    ("hep-th", "High Energy Physics - Theory", "still current as hep-th"),
    ("math", "Mathematics", "still current, split into math.* categories"),
    ("math-ph", "Mathematical Physics", "still current as math-ph"),
    ("mtrl-th", "Materials Theory", "now cond-mat.mtrl-sci"),
    ("nlin", "Nonlinear Sciences", "still current, split into nlin.* categories"),
    ("nucl-ex", "Nuclear Experiment", "still current as nucl-ex"),
    ("nucl-th", "Nuclear Theory", "still current as nucl-th"),
    ("patt-sol", "Pattern Formation and Solitons", "now nlin.PS"),
    ("physics", "Physics", "still current, split into physics.* categories"),
    ("plasm-ph", "Plasma Physics", "now physics.plasm-ph"),
    ("q-alg", "Quantum Algebra and Topology", "now math.QA"),
    ("q-bio", "Quantitative Biology", "still current, split into q-bio.* categories"),
    ("quant-ph", "Quantum Physics", "still current as quant-ph"),
    ("solv-int", "Exactly Solvable and Integrable Systems", "now nlin.SI"),
    ("supr-con", "Superconductivity", "now cond-mat.supr-con"),
)

LEGACY_ARCHIVES: dict[str, str] = {archive: f"{name} ({fate})" for archive, name, fate in _LEGACY}

# Subject classes an old-style id may carry after its archive, as in math.GT/0309136:
# the modern categories of that archive ("GT" for math, "optics" for physics).
LEGACY_SUBJECT_CLASSES: dict[str, frozenset[str]] = {
    archive: frozenset(cat_id.split(".", 1)[1] for cat_id in CATEGORIES if cat_id.startswith(archive + "."))
    for archive in LEGACY_ARCHIVES
    if any(cat_id.startswith(archive + ".") for cat_id in CATEGORIES)
}

_IDS_BY_LOWER: dict[str, str] = {cat_id.lower(): cat_id for cat_id in CATEGORIES}
_ARCHIVES_BY_LOWER: dict[str, str] = {archive.lower(): archive for archive in ARCHIVE_GROUPS}
_GROUPS_BY_LOWER: dict[str, str] = {group.lower(): group for group in GROUPS}
_IDS_BY_LOWER_NAME: dict[str, list[str]] = {}
for _category in CATEGORIES.values():  # one pass: this runs at every start-up
    _IDS_BY_LOWER_NAME.setdefault(_category.name.lower(), []).append(_category.id)
del _category

_INFORMAL_NAMES: dict[str, list[str]] = {}
"""Everyday abbreviations (ml, nlp, qcd) -> the categories that list them in categories.tsv."""
for _cat_id, _, _, _informal in _TAXONOMY:
    for _word in _informal:
        _INFORMAL_NAMES.setdefault(_word, []).append(_cat_id)
del _cat_id, _informal, _word

_MINOR_WORDS = frozenset({"and", "of", "the", "for", "in", "to", "on", "with", "a", "an", "-"})
_WORD = re.compile(r"[a-z0-9]+")


def is_category(cat_id: str) -> bool:
    """Exact, case-sensitive test against the current taxonomy ("cs.AI" yes, "cs.ai" no)."""
    return cat_id in CATEGORIES


def is_legacy_archive(archive: str) -> bool:
    """Whether `archive` may stand before the slash of an old-style id (exact, lower case)."""
    return archive in LEGACY_ARCHIVES


def is_legacy_subject_class(archive: str, subject_class: str) -> bool:
    """Whether `archive.subject_class/YYMMNNN` names a real subject class (exact case)."""
    return subject_class in LEGACY_SUBJECT_CLASSES.get(archive, frozenset())


def get_category(cat_id: str) -> CategoryInfo:
    """The category with this id, matched case-insensitively ("cs.ai" finds cs.AI)."""
    found = _IDS_BY_LOWER.get(cat_id.strip().lower()) if isinstance(cat_id, str) else None
    if found is not None:
        return CATEGORIES[found]
    raise InvalidInput(_unknown_category_message(cat_id))


def category_or_archive(value: str) -> str:
    """A category id or an archive name as arXiv spells it (`cs.AI`, `astro-ph`), given in any
    case; anything else is InvalidInput naming the closest categories."""
    lowered = value.strip().lower() if isinstance(value, str) else ""
    found = _IDS_BY_LOWER.get(lowered) or _ARCHIVES_BY_LOWER.get(lowered)
    return found if found is not None else get_category(value).id


def cat_terms(value: str) -> list[str]:
    """The `cat:` terms that search a category id (cs.AI, any case) or a whole archive.

    An archive (astro-ph, cs, cond-mat) means its own name, which papers from before the
    archive was split carry (astro-ph until 2009), and every category in it. arXiv's `cat:`
    takes a trailing `*` (`cat:astro-ph*`, as clients of the API use it), which covers both
    in one term; where another archive shares the prefix (math* would also match math-ph)
    the categories are listed instead. A legacy archive (solv-int) is its own name."""
    text = value.strip() if isinstance(value, str) else ""
    lowered = text.lower().removesuffix("*").removesuffix(".")
    if lowered in _IDS_BY_LOWER and lowered == text.lower():
        return [_IDS_BY_LOWER[lowered]]
    archive = _ARCHIVES_BY_LOWER.get(lowered)
    if archive is None:
        if lowered in LEGACY_ARCHIVES:
            return [lowered]
        return [get_category(text).id]  # unknown: the error names the closest ones
    inside = [c for c in CATEGORIES if archive_of(c) == archive and c != archive]
    if not inside:
        return [archive]
    others = [c for c in list(CATEGORIES) + list(LEGACY_ARCHIVES) if c.startswith(archive) and archive_of(c) != archive]
    return [f"{archive}*"] if not others else [archive, *inside]


def list_categories(group: str | None = None) -> list[CategoryInfo]:
    """Categories selected by a category id, an archive prefix or a group name.

    "physics" is the physics.* archive while "Physics" (exactly so) is the whole group,
    which also holds astro-ph, cond-mat, hep-*, nlin and the rest; otherwise case is
    ignored. A trailing ".*" or "." on a prefix is accepted.
    """
    if group is None:
        return list(CATEGORIES.values())
    text = group.strip() if isinstance(group, str) else ""
    lowered = text.lower()
    if lowered in _IDS_BY_LOWER:
        return [CATEGORIES[_IDS_BY_LOWER[lowered]]]
    if text in GROUPS:
        return _in_group(text)
    prefix = lowered.removesuffix("*").removesuffix(".")
    if prefix in _ARCHIVES_BY_LOWER:
        archive = _ARCHIVES_BY_LOWER[prefix]
        return [c for c in CATEGORIES.values() if archive_of(c.id) == archive]
    if lowered in _GROUPS_BY_LOWER:
        return _in_group(_GROUPS_BY_LOWER[lowered])
    raise InvalidInput(_unknown_group_message(group))


def suggest(text: str, n: int = 3) -> list[str]:
    """Up to `n` real category ids that `text` (a mistyped id, an abbreviation or a topic) likely means."""
    query = text.strip().lower() if isinstance(text, str) else ""
    if not query or n <= 0:
        return []
    ranked: list[str] = []
    topical = _keyword_matches(query)
    for bucket in (
        _exact_matches(query),
        _INFORMAL_NAMES.get(singular(query), []),
        _acronym_matches(query),
        _close_ids(query, n),
        [cat_id for cat_id, covers_all in topical if covers_all],
        _close_names(query, n),
        [cat_id for cat_id, _ in topical],
    ):
        ranked.extend(cat_id for cat_id in bucket if cat_id not in ranked)
        if len(ranked) >= n:
            break
    return ranked[:n]


def _in_group(group: str) -> list[CategoryInfo]:
    return [c for c in CATEGORIES.values() if c.group == group]


def _exact_matches(query: str) -> list[str]:
    by_id = [_IDS_BY_LOWER[query]] if query in _IDS_BY_LOWER else []
    return by_id + _IDS_BY_LOWER_NAME.get(query, [])


def _acronym(name: str) -> str:
    return "".join(word[0] for word in name.lower().replace("-", " ").split() if word not in _MINOR_WORDS)


def _acronym_matches(query: str) -> list[str]:
    """Read "cs.ML" or "ml" as the initials of a name: Machine Learning -> cs.LG, stat.ML."""
    archive, _, subject = query.rpartition(".")
    hits = [c.id for c in CATEGORIES.values() if len(subject) >= 2 and _acronym(c.name) == subject]
    return sorted(hits, key=lambda cat_id: archive_of(cat_id).lower() != archive)


def _close_ids(query: str, n: int) -> list[str]:
    close = difflib.get_close_matches(query, list(_IDS_BY_LOWER), n=n, cutoff=0.6)
    return [_IDS_BY_LOWER[lowered] for lowered in close]


def _close_names(query: str, n: int) -> list[str]:
    close = difflib.get_close_matches(query, list(_IDS_BY_LOWER_NAME), n=n, cutoff=0.6)
    return [cat_id for name in close for cat_id in _IDS_BY_LOWER_NAME[name]]


def _keyword_matches(query: str) -> list[tuple[str, bool]]:
    """Categories whose name or description shares words with a free-text topic, best first,
    each flagged with whether it contains every word of the topic."""
    terms = {word for word in _WORD.findall(query) if len(word) >= 3 and word not in _MINOR_WORDS}
    if not terms:
        return []
    scores: dict[str, tuple[int, int]] = {}
    for category in CATEGORIES.values():
        name_words = set(_WORD.findall(category.name.lower()))
        words = name_words | set(_WORD.findall(category.description.lower()))
        hits = sum(1 for term in terms if any(word.startswith(term) for word in words))
        in_name = sum(1 for term in terms if any(word.startswith(term) for word in name_words))
        if hits:
            scores[category.id] = (hits, in_name)
    ranked = sorted(scores, key=lambda cat_id: scores[cat_id], reverse=True)
    return [(cat_id, scores[cat_id][0] == len(terms)) for cat_id in ranked]


def _did_you_mean(text: str) -> str:
    close = suggest(text)
    return f" Did you mean: {', '.join(close)}?" if close else ""


def _unknown_category_message(cat_id: object) -> str:
    text = cat_id.strip() if isinstance(cat_id, str) else ""
    if text in LEGACY_ARCHIVES and text not in CATEGORIES:
        return (
            f"'{text}' is an archive, not a category: {LEGACY_ARCHIVES[text]}. "
            f"Pass a category id, or call list_categories('{text}') for its categories."
            if text in ARCHIVE_GROUPS
            else f"'{text}' is a retired arXiv archive: {LEGACY_ARCHIVES[text]}. "
            "Call list_categories to see all current categories."
        )
    return (
        f"Unknown arXiv category {cat_id!r}.{_did_you_mean(text)} "
        "Category ids look like 'cs.AI' or 'hep-th'; call list_categories to see all."
    )


def _unknown_group_message(group: object) -> str:
    text = group.strip() if isinstance(group, str) else ""
    close_prefixes = difflib.get_close_matches(text.lower(), list(_ARCHIVES_BY_LOWER), n=2, cutoff=0.6)
    close_groups = difflib.get_close_matches(text.lower(), list(_GROUPS_BY_LOWER), n=1, cutoff=0.6)
    close = close_prefixes + [_GROUPS_BY_LOWER[g] for g in close_groups] + suggest(text)
    hint = f" Did you mean: {', '.join(dict.fromkeys(close))}?" if close else ""
    return (
        f"Unknown category group {group!r}.{hint} Pass an archive prefix such as 'cs', "
        "'math' or 'physics', a group name such as 'Physics', or a category id such as "
        "'cs.AI'; call list_categories with no group to see all."
    )
