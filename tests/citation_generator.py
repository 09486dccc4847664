"""References built from any fake arXiv corpus, in every common style and with the mistakes
people and models make, each labelled with what a checker must say of it.

Generic: it perturbs whatever papers it is given (titles, authors, ids, years), so a test can
run it on other corpora and seeds. Classes (`Reference.kind`):
- `clean`: a real paper cited correctly in one style, with or without its id -> exact/likely;
- `perturbed`: a real paper with a typo, a cut title, no authors, a year off, TeX accents,
  changed case or braces -> exact/likely with the right id (or, for doubts, never another id);
- `mismatch`: a real id with another paper's title and authors -> mismatch;
- `unknown_id`: a well-formed id arXiv does not have -> not_found (mismatch when titled);
- `malformed_id`: an id that cannot exist -> invalid;
- `fabricated`: a plausible paper that does not exist -> never exact/likely.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tests.fake_arxiv import FakePaper

_VOCAB = (
    "adaptive sparse neural graph contrastive latent diffusion spectral robust federated causal "
    "hierarchical recurrent variational bayesian stochastic convex quantum topological equivariant "
    "attention retrieval routing compression distillation alignment calibration tokenization "
    "inference estimation optimization representation segmentation generation planning reasoning"
).split()
_NOUNS = (
    "transformers networks embeddings kernels operators manifolds policies agents retrievers "
    "autoencoders samplers solvers benchmarks priors codes lattices"
).split()
_TAILS = (
    "for long-context language modeling",
    "via implicit regularization",
    "in non-stationary environments",
    "with provable guarantees",
    "for molecular property prediction",
    "under distribution shift",
    "at scale",
    "for low-resource translation",
    "beyond the worst case",
    "on the sphere",
)
_SURNAMES = (
    "Okafor Lindqvist Haddad Moreau Tanaka Kowalski Novak Brennan Castillo Ivanova Achterberg "
    "Sørensen Müller Çelik Nguyen Fernández Kaiser Oyelaran Petrov Rasmussen"
).split()
_GIVEN = "Amara Lars Nadia Hugo Keiko Marek Lucia Pavel Sven Ingrid José Łukasz Zoë Chidi Mei".split()


@dataclass(frozen=True)
class Reference:
    text: str
    kind: str
    """clean, perturbed, mismatch, unknown_id, malformed_id or fabricated."""
    arxiv_id: str | None
    """The paper it names (the cited id for a mismatch), None when none."""


def synthetic_corpus(n: int, seed: int = 7) -> list[FakePaper]:
    """`n` papers with plausible titles and names (accents included), ids in 2015-2024."""
    from datetime import UTC, datetime

    rng = random.Random(seed)
    out: list[FakePaper] = []
    seen: set[str] = set()
    while len(out) < n:
        title = f"{rng.choice(_VOCAB).title()} {rng.choice(_VOCAB)} {rng.choice(_NOUNS)} {rng.choice(_TAILS)}"
        if title in seen:
            continue
        seen.add(title)
        year, month = rng.randint(2015, 2024), rng.randint(1, 12)
        pid = f"{year % 100:02d}{month:02d}.{rng.randint(10000, 99999)}"
        authors = [f"{rng.choice(_GIVEN)} {rng.choice(_SURNAMES)}" for _ in range(rng.randint(1, 5))]
        out.append(
            FakePaper(
                id=pid,
                title=title,
                abstract=f"We study {title.lower()}.",
                authors=authors,
                categories=["cs.LG"],
                published=datetime(year, month, rng.randint(1, 28), 12, tzinfo=UTC),
                pdf=None,
            )
        )
    return out


def _initials(given: str) -> str:
    return " ".join(p[0] + "." for p in given.replace("-", " ").split())


def _split(name: str) -> tuple[str, str]:
    parts = name.split()
    return " ".join(parts[:-1]), parts[-1]


def _apa_names(names: list[str]) -> str:
    shown = [f"{_split(n)[1]}, {_initials(_split(n)[0])}" for n in names[:3]]
    return ", ".join(shown) + (", et al." if len(names) > 3 else "")


def _ieee_names(names: list[str]) -> str:
    shown = [f"{_initials(_split(n)[0])} {_split(n)[1]}" for n in names[:3]]
    return (
        ", ".join(shown[:-1]) + (", and " if len(shown) > 1 else "") + shown[-1] + (" et al." if len(names) > 3 else "")
    )


def _plain_names(names: list[str]) -> str:
    return ", ".join(names[:-1]) + (", and " if len(names) > 1 else "") + names[-1]


def _tex(name: str) -> str:
    table = {
        "ü": '{\\"u}',
        "ö": '{\\"o}',
        "é": "{\\'e}",
        "ł": "{\\l}",
        "Ł": "{\\L}",
        "ç": "{\\c c}",
        "Ç": "{\\c C}",
        "ø": "{\\o}",
        "ë": '{\\"e}',
    }
    return "".join(table.get(c, c) for c in name)


def _id_form(rng: random.Random, pid: str) -> str:
    forms = (f"arXiv:{pid}", f"arXiv preprint arXiv:{pid}", f"CoRR, abs/{pid}", f"https://arxiv.org/abs/{pid}")
    return rng.choice(forms if "/" not in pid else forms[:2] + forms[3:])


def cite(
    rng: random.Random,
    p: FakePaper,
    style: str,
    *,
    title: str | None = None,
    names: list[str] | None = None,
    year: int | None = None,
    with_id: str | None = None,
) -> str:
    """`p` cited in `style`, with the title, names, year and id given (defaults: its own)."""
    title = p.title if title is None else title
    names = [n if isinstance(n, str) else n[0] for n in p.authors] if names is None else names
    year = p.published.year if year is None else year
    idtext = _id_form(rng, with_id) if with_id else ""
    tail = f" {idtext}." if idtext else ""
    if style == "apa":
        who = f"{_apa_names(names)} " if names else ""
        return f"{who}({year}). {title}.{tail or ' In Proceedings of a Conference.'}"
    if style == "ieee":
        who = f"{_ieee_names(names)}, " if names else ""
        return f'[{rng.randint(1, 60)}] {who}"{title}," {idtext + ", " if idtext else "in Proc. Conf., "}{year}.'
    if style == "acm":
        who = f"{_plain_names(names)}. " if names else ""
        return f"{who}{year}. {title}.{tail or ' In Advances in Learning.'}"
    if style == "chicago":
        first = f"{_split(names[0])[1]}, {_split(names[0])[0]}" if names else ""
        rest = (", and " + ", ".join(names[1:3])) if len(names) > 1 else ""
        return f'{first}{rest}. {year}. "{title}."{tail or " Journal of Results 12 (3): 1957-1978."}'
    if style == "natbib":
        who = " and ".join(f"{_initials(_split(n)[0])}~{_tex(_split(n)[1])}" for n in names[:3]) if names else ""
        venue = f"{{\\em {idtext}}}" if idtext else "{\\em Journal of Results}"
        return f"\\bibitem{{k{rng.randint(1, 999)}}}\n{who}.\n\\newblock {title}.\n\\newblock {venue}, {year}."
    if style == "bibtex":
        fields = [f"  title = {{{title}}}", f"  year = {{{year}}}"]
        if names:
            fields.insert(
                0, "  author = {" + " and ".join(f"{_tex(_split(n)[1])}, {_tex(_split(n)[0])}" for n in names) + "}"
            )
        if with_id:
            fields += [f"  eprint = {{{with_id}}}", "  archivePrefix = {arXiv}"]
        return "@article{key" + str(rng.randint(1, 999)) + ",\n" + ",\n".join(fields) + "\n}"
    if style == "markdown":
        url = f"https://arxiv.org/abs/{with_id}" if with_id else "https://example.org/paper"
        who = f"{_split(names[0])[1]} et al. ({year}). " if names else ""
        return f"- {who}[{title}]({url})"
    who = f"{_split(names[0])[1]} et al. {year}" if names else str(year)
    return f"{who} \u2014 \u201c{title}\u201d" + (f" ({idtext})" if idtext else " (arXiv)")


STYLES = ("apa", "ieee", "acm", "chicago", "natbib", "bibtex", "markdown", "llm")


def _typo(rng: random.Random, title: str) -> str:
    words = title.split()
    long = [i for i, w in enumerate(words) if len(w) >= 7 and w.isalpha()]
    if not long:
        return title
    i = rng.choice(long)
    w = words[i]
    j = rng.randint(1, len(w) - 2)
    words[i] = rng.choice([w[:j] + w[j + 1 :], w[:j] + w[j + 1] + w[j] + w[j + 2 :]])
    return " ".join(words)


def _perturb(rng: random.Random, p: FakePaper) -> Reference:
    names = [n if isinstance(n, str) else n[0] for n in p.authors]
    how = rng.choice(("typo", "truncate", "no_authors", "year", "case", "braces", "tex"))
    style = rng.choice(STYLES)
    if how == "typo":
        text = cite(rng, p, style, title=_typo(rng, p.title))
    elif how == "truncate":
        words = p.title.split()
        cut = max(4, int(len(words) * 0.6))
        text = (
            cite(rng, p, rng.choice(("llm", "apa")), title=" ".join(words[:cut]) + "\u2026")
            if cut < len(words)
            else cite(rng, p, style)
        )
    elif how == "no_authors":
        text = cite(rng, p, rng.choice(("apa", "ieee", "bibtex", "llm")), names=[])
    elif how == "year":
        text = cite(rng, p, style, year=p.published.year + rng.choice((-1, 1, 2)))
    elif how == "case":
        text = cite(rng, p, style, title=rng.choice((p.title.lower(), p.title.upper(), p.title.title())))
    elif how == "braces":
        text = cite(rng, p, "bibtex", title=" ".join("{" + w + "}" if w[:1].isupper() else w for w in p.title.split()))
    else:
        text = cite(rng, p, rng.choice(("bibtex", "natbib")), names=names)
    return Reference(text, "perturbed", p.id)


def _fabricated(rng: random.Random, corpus: list[FakePaper]) -> Reference:
    p = rng.choice(corpus)
    names = [n if isinstance(n, str) else n[0] for n in p.authors]
    if rng.random() < 0.5:  # a real author, a real title with two of its words replaced
        words = p.title.split()
        content = [i for i, w in enumerate(words) if len(w) > 4 and w.isalpha()]
        for i in rng.sample(content, min(2, len(content))):
            words[i] = rng.choice(_VOCAB + _NOUNS)
        title = " ".join(words)
        if title.lower() == p.title.lower():
            title = f"{rng.choice(_VOCAB).title()} {p.title}"
    else:
        title = f"{rng.choice(_VOCAB).title()} {rng.choice(_VOCAB)} {rng.choice(_NOUNS)} {rng.choice(_TAILS)}"
        names = [f"{rng.choice(_GIVEN)} {rng.choice(_SURNAMES)}"]
    return Reference(
        cite(rng, p, rng.choice(STYLES), title=title, names=names, year=rng.randint(2016, 2024)), "fabricated", None
    )


def _mismatch(rng: random.Random, corpus: list[FakePaper]) -> Reference:
    a, b = rng.sample(corpus, 2)
    style = rng.choice(("apa", "ieee", "acm", "chicago", "natbib", "bibtex", "markdown"))
    return Reference(cite(rng, b, style, with_id=a.id), "mismatch", a.id)


def _unknown_id(rng: random.Random, corpus: list[FakePaper]) -> Reference:
    known = {p.id for p in corpus}
    while True:
        pid = f"{rng.randint(15, 24):02d}{rng.randint(1, 12):02d}.{rng.randint(90000, 99999)}"
        if pid not in known:
            break
    text = rng.choice((f"arXiv:{pid}", pid, f"https://arxiv.org/abs/{pid}", f"arXiv:{pid}v2 [cs.LG] 3 Mar 2021"))
    return Reference(text, "unknown_id", None)


def _malformed_id(rng: random.Random) -> Reference:
    yy = rng.randint(15, 24)
    text = rng.choice(
        (
            f"arXiv:{yy:02d}13.{rng.randint(10000, 99999)}",
            f"{yy:02d}{rng.randint(1, 12):02d}.{rng.randint(1000, 9999)}",
            f"arXiv:{rng.randint(8, 14):02d}{rng.randint(1, 12):02d}.{rng.randint(10000, 99999)}",
            f"{yy:02d}00.{rng.randint(10000, 99999)}",
            f"hep-th/{rng.randint(10, 12):02d}01{rng.randint(100, 999)}",
        )
    )
    return Reference(text, "malformed_id", None)


def references(corpus: list[FakePaper], n: int, seed: int = 1) -> list[Reference]:
    """`n` references over `corpus`, of every kind, in a shuffled order."""
    rng = random.Random(seed)
    makers = (
        (0.22, lambda: Reference(cite(rng, (p := rng.choice(corpus)), rng.choice(STYLES)), "clean", p.id)),
        (
            0.13,
            lambda: Reference(cite(rng, (p := rng.choice(corpus)), rng.choice(STYLES), with_id=p.id), "clean", p.id),
        ),
        (0.25, lambda: _perturb(rng, rng.choice(corpus))),
        (0.13, lambda: _mismatch(rng, corpus)),
        (0.06, lambda: _unknown_id(rng, corpus)),
        (0.06, lambda: _malformed_id(rng)),
        (0.15, lambda: _fabricated(rng, corpus)),
    )
    out: list[Reference] = []
    for share, make in makers:
        out += [make() for _ in range(max(1, round(share * n)))]
    rng.shuffle(out)
    return out
