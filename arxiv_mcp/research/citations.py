"""One citation as people and models paste it, read into what can be checked against arXiv.

A citation may be an id alone (any form `ids.parse` accepts), a BibTeX entry, a natbib
`\\bibitem`, or free text in APA, IEEE, ACM, Chicago, Markdown or an LLM's one-liner. What is
read: the arXiv id it states (or why what looks like one cannot be one), its title, its first
author's surname and its year. Reading never fails: what cannot be read is left empty, and the
resolver says what that means. Ids go through `ids` (the one owner of the grammar); the year
through `bibids.publication_year`, the reading every bibliography entry shares.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import ids
from ..errors import InvalidInput
from ..text.bibids import publication_year
from .plaintext import detex, fold

MAX_CHARS = 4000
"""A longer "citation" is a pasted document, not an entry: only its beginning is read."""


@dataclass(frozen=True)
class Citation:
    """What a citation states; every field may be missing."""

    raw: str
    pid: ids.PaperId | None = None
    """The arXiv id it states (versionless for lookups: `pid.with_version(None)`)."""
    id_problem: str | None = None
    """Why the id it states cannot be an arXiv id (then `pid` is None)."""
    title: str | None = None
    first_author: str | None = None
    """The first author's surname, folded to plain lower-case letters."""
    year: int | None = None


_LOOSE_ID = (
    r"([0-9]{4}\.[0-9]{3,6}(?:v[0-9]+)?"
    r"|[a-z]+(?:-[a-z]+)?(?:\.[A-Za-z-]{2,})?/[0-9]{5,8}(?:v[0-9]+)?)"
)
_STATED_ID = re.compile(
    r"(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html)/" + _LOOSE_ID + r"(?:\.pdf)?"
    r"|(?:arxiv\s+preprint\s+)?arxiv\s*(?:e-?prints?\s*,?\s*)?[:.]?\s*(?:abs/)?" + _LOOSE_ID + r"(?:\s*\[[a-z.-]+\])?"
    r"|corr\s*,?\s*abs/" + _LOOSE_ID + r"|10\.48550/arxiv\." + _LOOSE_ID,
    re.IGNORECASE,
)
_BARE_OLD_ID = re.compile(rf"(?<![\w/.])(?:{ids.OLD_STYLE}){ids.VERSION}(?![\w/])", re.IGNORECASE)
"""`hep-th/9711200` with no `arXiv:`, as physics bibliographies print it (the bibliography
reader, `text.bibids`, takes it too): an archive, a slash and seven digits are no page number."""
_EPRINT_FIELD = ("eprint", "arxivid", "arxiv")
_BIBTEX_FIELD = re.compile(r"(?P<name>[A-Za-z]+)\s*=\s*", re.ASCII)
_BIBITEM = re.compile(r"\\bibitem\s*(?:\[[^\]]*\])?\s*\{[^}]*\}")
_MARKDOWN = re.compile(r"\[(?P<text>[^\]]+)\]\((?P<target>[^)\s]+)\)")
_QUOTED = re.compile(
    r"[\u201c\u201e\"\u00ab](?P<q>[^\u201c\u201d\"\u00bb]{8,}?)[\u201d\"\u00bb]|\u2018(?P<s>[^\u2019]{8,}?)\u2019"
    r"|(?<![\w'])'(?P<a>[^']{8,}?)'(?!\w)"
)
_VANCOUVER_NAME = r"(?:[a-z]{1,3}\s)*[A-Z][^\s,.]+(?:[\s-][A-Z][^\s,.]+)?\s[A-Z]{1,3}"
_VANCOUVER = re.compile(
    rf"^(?P<authors>(?:{_VANCOUVER_NAME},\s)*{_VANCOUVER_NAME}(?:,\set\sal)?)\.\s+(?P<rest>.+)$",
    re.S,
)
"""`Vaswani A, Shazeer N, Parmar N. Title. Journal. 2017;30.`: initials without stops."""
_TRAILING_AUTHORS = re.compile(
    r"^(?P<title>[^()]{8,}?)\s+(?:by\s+(?P<by>[^()]{2,80}?),?\s*\(?(?:19|20)\d\d[a-z]?\)?"
    r"|\((?P<paren>[^()]{2,80}?),?\s*(?:19|20)\d\d[a-z]?\))\.?$"
)
"""`Attention Is All You Need (Vaswani et al., 2017)`, `... by Vaswani et al. (2017)`: a title
named first, its authors and year after it, as answers in chats write them."""
_APA = re.compile(r"^(?P<authors>.*?)\s*\(\s*(?:(?:19|20)\d\d[a-z]?|n\.\s?d\.)\s*\)[.,:]?\s*(?P<rest>.+)$", re.S)
_ACM = re.compile(r"^(?P<authors>.+?)\.\s+(?:19|20)\d\d[a-z]?\.\s+(?P<rest>.+)$", re.S)
_INITIALS = r"[A-Z]\.(?:\s?-?[A-Z]\.)*"
_SURNAME = r"(?:(?:[a-z]{1,3}|[A-Z]'|'t)\s?)?[A-Z][^\s,.;:()]+"
_NAME_SEP = r"(?:,\s(?:and\s|&\s)?|\s(?:and|&)\s)"
_NOT_A_TITLE = rf"(?!and\s|&|et\sal\b|\(|(?:19|20)\d\d\b|{_INITIALS})"
_ETAL_TAIL = r"(?:,?\set\sal\.?)?"
_GIVEN_FIRST = re.compile(
    rf"^(?P<authors>{_INITIALS}\s?{_SURNAME}(?:{_NAME_SEP}{_INITIALS}\s?{_SURNAME})*{_ETAL_TAIL}),\s+{_NOT_A_TITLE}(?P<rest>.+)$",
    re.S,
)
"""`J. Maldacena, Title, Journal`: initials before each surname, a comma after the last."""
_SURNAME_FIRST = re.compile(
    rf"^(?P<authors>{_SURNAME},\s{_INITIALS}(?:{_NAME_SEP}{_SURNAME},\s{_INITIALS})*{_ETAL_TAIL})[,:]?\s+{_NOT_A_TITLE}(?P<rest>.+)$",
    re.S,
)
"""`Perelman, G. Title. Journal`: initials after each surname and its comma, the last one's
stop (or a colon after it, as Springer sets `Kingma, D.P., Ba, J.: Title`) ending the names."""
_JOURNAL = re.compile(
    r"(?:^|,\s+)(?=[A-Z][a-z]{0,7}\.\s)"
    r"|,\s+(?=(?:[A-Z][A-Za-z]*\.?\s){1,5}\(?\d|(?:in|In|arXiv|preprint)\b|\(?(?:19|20)\d\d\b|\d)"
)
"""Where a journal starts after a title: an abbreviation (`Adv.`), words and a volume or year
(`Nature 550`, `CVPR (2016)`), `In`, a year; physics and mathematics bibliographies set no stop before it."""
_URL = re.compile(r"(?:https?://|www\.)\S+")
_LABEL = re.compile(r"^\s*(?:\[\s*\d{1,3}\s*\]|\(\s*\d{1,3}\s*\)|\d{1,3}\.(?=\s))\s*")
_NOT_ENDING = frozenset("al vs jr sr st eds ed proc conf int vol no pp dr inc ltd co univ dept".split())
_ETAL = re.compile(r"\bet\s*al\b\.?|\band others\b", re.I)
_PARTICLES = frozenset("van von der den de del della di da du le la dos das ter ten".split())
_NOT_NAMES = frozenset("the a an in on of paper see arxiv preprint proceedings journal and".split())
_TRAILERS = re.compile(r"\s*(?:\(?arxiv\)?|arxiv preprint|preprint|in:?|corr)\s*[.,]?\s*$", re.I)


def parse(raw: str) -> Citation:
    """What `raw` states. Never raises: a citation that says nothing checkable reads empty."""
    text = _LABEL.sub("", raw.strip()[:MAX_CHARS]) if raw else ""
    whole = _whole_id(text)
    if whole is not None:
        return whole
    if text.lstrip().startswith("@"):
        return _bibtex(raw, text)
    return _free_text(raw, text)


def _whole_id(text: str) -> Citation | None:
    """The citation when it is an id and nothing more (any form `ids` accepts), or when it is
    a lone id-like token that cannot be one; None for anything longer."""
    link = _MARKDOWN.search(text)
    if link and not _is_id(link.group("text")):
        return None  # a link whose text is a title: the title is checked too
    try:
        pid = ids.parse(text)
    except InvalidInput as exc:
        if len(text.split()) <= 2 and re.search(r"\d{3,}", text) and not _MARKDOWN.search(text):
            return Citation(text, id_problem=_reason(exc))
        return None
    problem = ids.digit_count_problem(pid)
    return Citation(text, id_problem=problem) if problem else Citation(text, pid=pid)


def _reason(exc: InvalidInput) -> str:
    short = getattr(exc, "short", str(exc))
    return short.split(": ", 1)[1] if ": " in short else short


def _stated_id(text: str) -> tuple[ids.PaperId | None, str | None, str]:
    """The first valid arXiv id `text` states, or the reason the id it states is invalid, and
    the text without its ids and URLs."""
    problem = None
    for m in _STATED_ID.finditer(text):
        candidate = next(g for g in m.groups() if g)
        try:
            pid = ids.parse(candidate)
        except InvalidInput as exc:
            problem = problem or _reason(exc)
            continue
        digits = ids.digit_count_problem(pid)
        if digits:
            problem = problem or digits
            continue
        return pid, None, _URL.sub(" ", _STATED_ID.sub(" ", text))
    for m in _BARE_OLD_ID.finditer(text):
        try:
            pid = ids.parse(m.group(0))
        except InvalidInput:
            continue  # a word, a slash and seven digits that name no archive: not an id
        return pid, None, _URL.sub(" ", _BARE_OLD_ID.sub(" ", _STATED_ID.sub(" ", text)))
    return None, problem, _URL.sub(" ", _STATED_ID.sub(" ", text))


# --- BibTeX ---------------------------------------------------------------------------------


def bibtex_fields(entry: str) -> dict[str, str]:
    """The fields of one BibTeX entry, lower-case names, values without their delimiters."""
    out: dict[str, str] = {}
    pos = entry.find(",")
    while pos >= 0:
        m = _BIBTEX_FIELD.search(entry, pos)
        if not m:
            break
        value, pos = _bibtex_value(entry, m.end())
        out.setdefault(m.group("name").lower(), " ".join(value.split()))
    return out


def _bibtex_value(entry: str, i: int) -> tuple[str, int]:
    """The value starting at `i` (`{...}` nested, `"..."`, or a bare word) and where it ends."""
    if i < len(entry) and entry[i] in '{"':
        closer, depth, j = ("}" if entry[i] == "{" else '"'), 0, i
        while j < len(entry):
            c = entry[j]
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
            if (closer == "}" and depth == 0) or (closer == '"' and c == '"' and j > i and depth == 0):
                return entry[i + 1 : j], entry.find(",", j)
            j += 1
        return entry[i + 1 :], -1
    end = entry.find(",", i)
    return entry[i : end if end >= 0 else len(entry)].strip(" }\n"), end


def _bibtex(raw: str, text: str) -> Citation:
    fields = bibtex_fields(text)
    pid, problem = None, None
    prefix = fields.get("archiveprefix", "arxiv").lower()
    stated = next((fields[f] for f in _EPRINT_FIELD if f in fields), None)
    if stated and prefix == "arxiv":
        whole = _whole_id(stated) or Citation(stated, id_problem="the eprint field is not an arXiv id")
        pid, problem = whole.pid, whole.id_problem
    if pid is None and problem is None:
        pid, problem, _ = _stated_id(
            " ".join(fields.get(f, "") for f in ("journal", "url", "doi", "note", "howpublished"))
        )
    authors = fields.get("author", "")
    first = authors.split(" and ")[0] if authors else ""
    year = fields.get("year", "")
    return Citation(
        raw,
        pid=pid,
        id_problem=problem,
        title=detex(fields["title"]) if fields.get("title") else None,
        first_author=surname(first),
        year=int(year) if re.fullmatch(r"(?:19|20)\d\d", year.strip()) else publication_year(year),
    )


# --- free text ------------------------------------------------------------------------------


def _free_text(raw: str, text: str) -> Citation:
    year = publication_year(text)
    blocks = _BIBITEM.sub("", text)
    natbib = "\\newblock" in blocks
    link = _MARKDOWN.search(blocks)
    pid, problem, rest = _stated_id(blocks)
    if natbib:
        parts = [detex(p).strip(" .,") for p in re.split(r"\\newblock", rest)]
        parts = [p for p in parts if p]
        authors, title = (parts[0], parts[1]) if len(parts) > 1 else ("", parts[0] if parts else "")
    elif link and not _is_id(link.group("text")):
        authors, title = detex(blocks[: link.start()]), detex(link.group("text"))
    else:
        authors, title = _authors_and_title(detex(rest))
    return Citation(
        raw, pid=pid, id_problem=problem, title=_clean_title(title), first_author=_first_surname(authors), year=year
    )


def _is_id(text: str) -> bool:
    try:
        ids.parse(text)
    except InvalidInput:
        return False
    return True


def _authors_and_title(text: str) -> tuple[str, str]:
    """(the author part, the title) of a free-text citation."""
    quoted = _QUOTED.search(text)
    if quoted:
        return text[: quoted.start()], quoted.group("q") or quoted.group("s") or quoted.group("a") or ""
    trailing = _TRAILING_AUTHORS.match(text)
    named = trailing and (trailing.group("by") or trailing.group("paren"))
    if trailing and named and _looks_like_authors(named):
        return named, trailing.group("title")
    given_first = _initialed(_GIVEN_FIRST, text)
    if given_first:  # before APA: `E. Witten, Title Cased, Adv. Phys. 2 (1998)` reads as names
        return given_first
    for style in (_VANCOUVER, _APA, _ACM):
        m = style.match(text)
        if not m or (m.group("authors").strip(" .,") and not _looks_like_authors(m.group("authors"))):
            continue
        title = _sentences(m.group("rest"))[0]
        if style is _VANCOUVER and _looks_like_authors(title):  # `Tom B. Brown, ...`: initials, not the end
            continue
        return m.group("authors"), title
    parts = _sentences(text)
    if len(parts) > 1 and _looks_like_authors(parts[0]):
        return parts[0], parts[1]
    return _initialed(_SURNAME_FIRST, text) or ("", parts[0] if parts else "")


def _initialed(form: re.Pattern[str], text: str) -> tuple[str, str] | None:
    """(authors, title) when `text` opens with names in `form`; the title ends at its first
    stop or where a journal starts, whichever comes first, and is empty when a journal follows
    the names (physics bibliographies often state none)."""
    m = form.match(text)
    if not m:
        return None
    rest = m.group("rest")
    journal = _JOURNAL.search(rest)
    if journal and journal.start() == 0:  # `J. Maldacena, Adv. Theor. Math. Phys. 2`: no title
        return m.group("authors"), ""
    parts = _sentences(rest[: journal.start()] if journal else rest)
    if not parts or _looks_like_authors(parts[0]):  # `A. B, and C. D. Title`: more names
        return None
    return m.group("authors"), parts[0]


def _sentences(text: str) -> list[str]:
    """`text` cut at sentence ends: a stop after an initial (`J.`, `J.-P.`), `et al.` or a common
    abbreviation is not one; `?` and `!` stay with their sentence (titles end with them)."""
    out: list[str] = []
    start = 0
    for m in re.finditer(r"[.?!](?=\s+|$)", text):
        before = text[start : m.start()].split()
        last = before[-1].lower().strip("(") if before else ""
        after = text[m.end() :].lstrip()[:1]
        ends_list = last == "al" and after.isupper()  # `..., et al. Title ...`
        initial = len(last) == 1 or re.fullmatch(r"(?:[a-z]\.?-)+[a-z]", last)  # `J.`, `J.-P.`
        if m.group() == "." and (initial or last in _NOT_ENDING) and not ends_list:
            continue
        piece = text[start : m.end() if m.group() != "." else m.start()].strip()
        if piece:
            out.append(piece)
        start = m.end()
    tail = text[start:].strip()
    if tail:
        out.append(tail)
    return out


def _looks_like_authors(text: str) -> bool:
    """Whether a part reads as a list of names: capitalised words, initials, commas, `and`,
    `et al.`, and few other words."""
    bare = re.sub(r"\(?\b(?:19|20)\d\d[a-z]?\b\)?", " ", _ETAL.sub(" ", text))
    words = [w.strip(".,;&()") for w in bare.split()]
    words = [w for w in words if w and w.lower() not in ("and", "&")]
    if not words or len(words) > 60:
        return False
    named = sum(1 for w in words if _is_name_word(w))
    return named >= 0.7 * len(words) and (len(words) <= 4 or "," in text or " and " in text or "&" in text)


def _is_name_word(word: str) -> bool:
    """A capitalised name, an initial (`J.`, `M.-W.`) or a particle (`van`, `de`)."""
    bare = word.replace("-", "").replace("'", "").replace(".", "")
    return (bare.isalpha() and word[0].isupper()) or word.lower() in _PARTICLES


def _clean_title(title: str) -> str | None:
    t = _TRAILERS.sub("", " ".join(title.split())).strip(" .,;:\u2026").removesuffix("...").strip()
    t = re.sub(r"\s*\((?:19|20)\d\d[a-z]?\)$", "", t.strip("'\"\u201c\u201d\u2018\u2019 ,."))
    return t if len(t) >= 3 else None


def _first_surname(authors: str) -> str | None:
    """The first author's surname in an author list of any style."""
    text = _ETAL.split(authors.strip())[0]
    text = re.sub(r"\b(?:19|20)\d\d\b.*", "", text).strip(" ,.;:-\u2014\u2013(")
    first = re.split(r"\s+(?:and|&)\s+|;", text)[0]
    parts = [p.strip() for p in first.split(",") if p.strip()]
    if not parts:
        return None
    head = [w for w in parts[0].split() if w.lower() not in _PARTICLES]
    inverted = len(parts) > 1 and len(head) == 1 and _is_given(parts[1])
    return surname(parts[0] + ", " + parts[1] if inverted else parts[0])


def _is_given(text: str) -> bool:
    """Initials (`J.`, `M.-W.`, `D. P.`) or one given name: what follows a surname and a comma."""
    words = text.split()
    return (
        bool(words) and len(words) <= 3 and all(re.fullmatch(r"[A-Z][a-z]*\.?(?:-[A-Z][a-z]*\.?)?", w) for w in words)
    )


def surname(name: str) -> str | None:
    """The surname of one name written `Last, First`, `First Last` or `F. Last`, folded."""
    name = detex(name).strip(" .,")
    if not name:
        return None
    if "," in name:
        last = name.split(",")[0]
    else:
        words = name.split()
        tail = [w for w in words if not re.fullmatch(r"(?:[A-Z]\.?-?){1,3}", w)]
        last = tail[-1] if tail else words[-1]
        for i, w in enumerate(words[:-1]):
            if w.lower() in _PARTICLES:
                last = " ".join(words[i:])
                break
    if not last.strip() or last.strip()[0].islower() and last.split()[0].lower() not in _PARTICLES:
        return None
    key = [w for w in fold(last).replace("-", " ").split() if w not in _PARTICLES]
    found = next((w for w in reversed(key) if len(w) >= 2), None)
    return found if found and len(found) >= 2 and found not in _NOT_NAMES and found.isalpha() else None
