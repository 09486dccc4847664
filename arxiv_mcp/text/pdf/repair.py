"""A damaged PDF (cut short, its cross-reference table or trailer lost) written anew from
the objects its bytes still hold, so both engines can read the pages that survive.

Neither engine opens a file cut mid-way: the cross-reference table and trailer sit at its
end. The objects before the cut are intact, though. `rebuilt` collects every `N G obj ...
endobj` of the file (a later definition wins, as an incremental update would), the objects
packed in object streams it can still decode, and a stream cut by the end of the file
(its data as far as it goes: salvage cuts a form's last operator for pypdf, and pdfium
reads the form's start itself); it writes them into a fresh file with an exact table, the
catalog as its root (or, with no catalog left, a new one over every page found, in file
order; a page whose contents were lost keeps its place by number). Contents no object names
become pages of their own (text, an empty page, or a page of an included PDF that draws one
form: the form no object names that follows them, as pdfTeX writes it), and a page whose
resources were lost gets its form the same way. Invariants: the result is a new byte string,
never the input patched in place; an encrypted file is never rebuilt (its trailer holds the
key's parameters); the work is linear in the file's size but for sorts of its objects
(n log n), with at most MAX_OBJECTS objects, and its loops over objects check the
deadline (watch.every) every few thousand.
"""

from __future__ import annotations

import bisect
import itertools
import re
import zlib
from collections.abc import Callable
from typing import Any, NamedTuple

from .pagetree import LOST
from .watch import every
from .work import FLATE_ONLY, RESOURCES_REF

MAX_OBJECTS = 500_000
MAX_UNPACKED = 32 * 2**20  # bytes all object streams of one file may inflate to (a paper's: a few MB)
_SNIFF = 65_536  # bytes of a stream looked at to tell contents from other data
_OBJECT = re.compile(rb"(?<![\d])(\d{1,7})\s+(\d{1,5})\s+obj\b")
_ENDOBJ = re.compile(rb"\bendobj\b")
STREAM_KEYWORD = re.compile(rb"\bstream(?:\r\n|\n|\r)")  # and the line end after it
_ENDSTREAM = re.compile(rb"(?:\r\n|\n|\r)?endstream\b")
_LENGTH = re.compile(rb"/Length\s+\d+(?:\s+\d+\s+R)?")
_CATALOG = re.compile(rb"/Type\s*/Catalog\b")
_PAGE = re.compile(rb"/Type\s*/Page(?![a-zA-Z])")
_PAGES_REF = re.compile(rb"/Pages\s+(\d+)\s+(\d+)\s+R")
_OBJECT_STREAM = re.compile(rb"/Type\s*/ObjStm\b")
_XREF_STREAM = re.compile(rb"/Type\s*/XRef\b")
_PAGE_TREE = re.compile(rb"/Type\s*/Pages\b")
_COUNT = re.compile(rb"/Count\s+(\d{1,7})\b")
_REF = re.compile(rb"(\d+)\s+(\d+)\s+R\b")
_KIDS = re.compile(rb"/Kids\s*\[([^\]]*)\]")
_CONTENTS = re.compile(rb"/Contents\s*(?:\[\s*)?(\d+)\s+(\d+)\s+R")
_PARENT = re.compile(rb"/Parent\s+(\d+)\s+(\d+)\s+R")
# a stream with a type or a subtype (image, form, font, ICC profile, metadata) is not a page's contents
_NOT_CONTENT = re.compile(rb"/(?:Type|Subtype|Length1|Length2|N|First|BitsPerComponent)\b")
_FORM = re.compile(rb"/Subtype\s*/Form\b")
_DRAWS = re.compile(rb"/([^\s/\[\]<>(){}%]+)\s+Do\b")
_BLANK_PAGE = re.compile(rb"(?:\s*(?:[-+]?[\d.]+|[gGqQkK]|rg|RG|cm)(?![^\s/\[<(]))+\s*")
_SETS_FONT = re.compile(rb"/[^\s/\[\]<>(){}%]+\s+[-\d.]+\s+Tf\b")
_SHOWS_TEXT = re.compile(rb"[)>\]]\s*(?:Tj|TJ|'|\")")


class Rebuilt(NamedTuple):
    data: bytes
    declared_pages: int | None
    """The page count of the largest page tree node left (the root's, if it survived)."""


def rebuilt(data: bytes) -> Rebuilt | None:
    """A readable file of the objects `data` still holds, or None (nothing to rebuild, encrypted)."""
    if b"/Encrypt" in data:
        return None
    objects, places = _objects(data)
    if not objects:
        return None
    counts = [_COUNT.search(body) for body in every(objects.values()) if _PAGE_TREE.search(body[:4096])]
    declared = max((int(count[1]) for count in counts if count), default=None)
    orphans = _orphan_contents(objects, places)
    root = next((key for key, body in every(objects.items()) if _CATALOG.search(body[:2048])), None)
    if orphans or root is None or not _whole_tree(objects, root):
        root = _new_catalog(objects, places, orphans, _tree_leaves(objects, root) if root else None)
        if root is None:
            return None
    return Rebuilt(_written(objects, root), declared)


def _objects(data: bytes) -> tuple[dict[tuple[int, int], bytes], dict[tuple[int, int], float]]:
    """Every object found (a later definition wins), and where in the file each one is."""
    objects: dict[tuple[int, int], bytes] = {}
    places: dict[tuple[int, int], float] = {}
    packed: list[tuple[int, bytes]] = []
    matches = list(every(itertools.islice(_OBJECT.finditer(data), MAX_OBJECTS)))
    for number, match in every(enumerate(matches)):
        limit = matches[number + 1].start() if number + 1 < len(matches) else len(data)
        body = _body(data, match.end(), limit)
        if body is None or _XREF_STREAM.search(body[:1024]):
            continue
        key = (int(match[1]), int(match[2]))
        objects[key], places[key] = body, match.start()
        if _OBJECT_STREAM.search(body[:1024]):
            packed.append((match.start(), body))
    budget = [MAX_UNPACKED]
    for place, body in packed:
        for index, (key, inner) in enumerate(_unpacked(body, budget)):
            if key not in objects and len(objects) < MAX_OBJECTS:
                objects[key], places[key] = inner, place + index / (MAX_OBJECTS + 1)
    return objects, places


def _body(data: bytes, start: int, limit: int) -> bytes | None:
    """An object's body (between `obj` and `endobj`), a stream's /Length made exact."""
    stream = STREAM_KEYWORD.search(data, start, limit)
    end = _ENDOBJ.search(data, start, limit)
    if stream is None or (end is not None and end.start() < stream.start()):
        body = data[start : end.start() if end else limit].strip()
        return body or None
    head = data[start : stream.start()].strip()
    stop = _ENDSTREAM.search(data, stream.end(), limit)
    payload = data[stream.end() : stop.start() if stop else limit]
    head = _LENGTH.sub(b"/Length %d" % len(payload), head) if _LENGTH.search(head) else head
    return head + b"\nstream\n" + payload + b"\nendstream"


def _unpacked(body: bytes, budget: list[int]) -> list[tuple[tuple[int, int], bytes]]:
    """The objects of an object stream, as far as its (maybe cut) data decodes; `budget[0]`
    is what all object streams may still decode to together."""
    head, _, rest = body.partition(b"\nstream\n")
    first = re.search(rb"/First\s+(\d+)", head)
    if first is None or budget[0] <= 0:
        return []
    data = decoded(head, rest[: -len(b"\nendstream")], budget[0])
    budget[0] -= len(data)
    header = data[: int(first[1])].split()
    pairs = [
        (int(header[i]), int(header[i + 1]))
        for i in range(0, len(header) - 1, 2)
        if header[i].isdigit() and header[i + 1].isdigit()
    ]
    out = []
    for index, (number, offset) in enumerate(pairs):
        start = int(first[1]) + offset
        end = int(first[1]) + pairs[index + 1][1] if index + 1 < len(pairs) else len(data)
        inner = data[start:end].strip()
        if inner:
            out.append(((number, 0), inner))
    return out


def decoded(head: bytes, payload: bytes, limit: int) -> bytes:
    """A stream's data, inflated as far as it goes (a cut or damaged deflate stream keeps its
    start), at most `limit` bytes; b"" for a filter other than Flate."""
    if b"/Filter" not in head:
        return payload[:limit]
    return _inflated(payload, limit) if FLATE_ONLY.search(head) else b""


def _inflated(payload: bytes, limit: int) -> bytes:
    """Deflate data inflated as far as it goes (damaged or cut, it keeps its start), at most `limit` bytes."""
    inflater = zlib.decompressobj()
    try:
        return inflater.decompress(payload, limit)
    except zlib.error:
        return _inflated_start(payload, limit)


def _inflated_start(payload: bytes, limit: int) -> bytes:
    """What a damaged deflate stream gives before the damage, fed in slices of a few KB."""
    inflater, out = zlib.decompressobj(), bytearray()
    for start in range(0, len(payload), 4096):
        try:
            out += inflater.decompress(payload[start : start + 4096], limit - len(out))
        except zlib.error:
            break
        if len(out) >= limit or inflater.unconsumed_tail:
            break
    return bytes(out)


def _whole_tree(objects: dict[tuple[int, int], bytes], root: tuple[int, int]) -> bool:
    """Whether the catalog's page tree is there down to every page found in the file."""
    found = {key for key, body in every(objects.items()) if _PAGE.search(body[:4096])}
    reached: set[tuple[int, int]] = set()
    pages = _PAGES_REF.search(objects[root])
    todo = [(int(pages[1]), int(pages[2]))] if pages else []
    while todo and len(reached) <= len(objects):
        key = todo.pop()
        body = objects.get(key)
        if body is None:
            return False
        if key in reached:
            continue
        reached.add(key)
        kids = _KIDS.search(body)
        todo += [(int(ref[1]), int(ref[2])) for ref in _REF.finditer(kids[1])] if kids else []
    return bool(reached) and found <= reached


def _orphan_contents(
    objects: dict[tuple[int, int], bytes], places: dict[tuple[int, int], float]
) -> list[tuple[tuple[int, int], bytes]]:
    """Streams that draw text, or one form, or only set colours (an empty page: kept, so the
    pages after it keep their numbers), and that no object found names: the contents of
    pages whose dictionaries were lost (a producer that writes them after all the pages, or
    packs them into an object stream beyond the cut), in file order, each with the resources
    its new page gets: the form it draws, if any (see _with_forms), and no fonts (the reader
    stands in for them). A page found whose resources were lost gets its form so too
    (`objects` changes)."""
    named = {(int(ref[1]), int(ref[2])) for body in every(objects.values()) for ref in _REF.finditer(_head(body))}
    texts: set[tuple[int, int]] = set()
    drawers: list[tuple[tuple[int, int], bytes]] = []  # contents that draw one form, and its name
    forms: list[tuple[int, int]] = []
    for key, body in every(objects.items()):
        if key in named or not body.startswith(b"<<") or b"\nstream\n" not in body:
            continue
        head = _head(body)
        if _FORM.search(head):
            forms.append(key)
        if _NOT_CONTENT.search(head):
            continue
        start = _start(body)
        if (b"BT" in start and _SETS_FONT.search(start) and _SHOWS_TEXT.search(start)) or _BLANK_PAGE.fullmatch(start):
            texts.add(key)
        if (name := _drawn_form(start)) is not None:
            drawers.append((key, name))
    lost = _lost_resources(objects)
    drawers += [(content, name) for content in lost if (name := _drawn_form(_start(objects[content]))) is not None]
    paired = dict(_with_forms(drawers, forms, places)) if forms else {}
    for content, page in lost.items():
        if content in paired:
            old = RESOURCES_REF.search(objects[page])
            objects[page] = objects[page][: old.start()] + paired.pop(content) + objects[page][old.end() :]  # type: ignore[union-attr]
    found = [(key, paired.get(key, b"")) for key in texts | set(paired)]
    return sorted(found, key=lambda orphan: places[orphan[0]])


def _lost_resources(objects: dict[tuple[int, int], bytes]) -> dict[tuple[int, int], tuple[int, int]]:
    """The contents (found) of each page found whose resources object was lost, and the page."""
    out = {}
    for key, body in every(objects.items()):
        resources = RESOURCES_REF.search(body) if _PAGE.search(body[:4096]) else None
        contents = _CONTENTS.search(body) if resources else None
        if resources and contents and (int(resources[1]), int(resources[2])) not in objects:
            content = (int(contents[1]), int(contents[2]))
            if b"\nstream\n" in objects.get(content, b""):
                out[content] = key
    return out


def _start(body: bytes) -> bytes:
    """The start of a stream's data, decoded (_SNIFF bytes at most)."""
    head, _, rest = body.partition(b"\nstream\n")
    payload = rest[:_SNIFF] if len(rest) > _SNIFF + len(b"\nendstream") else rest.removesuffix(b"\nendstream")
    return decoded(head, payload, _SNIFF)


def _drawn_form(content: bytes) -> bytes | None:
    """The one XObject that contents draw (None: none, or several)."""
    drawn = set(_DRAWS.findall(content))
    return drawn.pop() if len(drawn) == 1 else None


def _with_forms(
    drawers: list[tuple[tuple[int, int], bytes]], forms: list[tuple[int, int]], places: dict[tuple[int, int], float]
) -> list[tuple[tuple[int, int], bytes]]:
    """Each contents that draws one form, with resources naming the first form after it in the
    file and before the next such contents (those with no form there are left out)."""
    drawers.sort(key=lambda drawer: places[drawer[0]])
    after = sorted(places[form] for form in forms)
    by_place = {places[form]: form for form in forms}
    out = []
    for index, (key, name) in enumerate(drawers):
        limit = places[drawers[index + 1][0]] if index + 1 < len(drawers) else float("inf")
        first = bisect.bisect_right(after, places[key])
        if first < len(after) and after[first] < limit:
            form = by_place[after[first]]
            out.append((key, b"/Resources << /XObject << /%s %d %d R >> >>" % (name, *form)))
    return out


def _head(body: bytes) -> bytes:
    """An object's body without its stream data (where references are)."""
    return body.partition(b"\nstream\n")[0]


def _new_catalog(
    objects: dict[tuple[int, int], bytes],
    places: dict[tuple[int, int], float],
    orphans: list[tuple[tuple[int, int], bytes]],
    leaves: list[tuple[int, int]] | None = None,
) -> tuple[int, int] | None:
    """A catalog and page tree over every page found, in the order of the old tree's `leaves`
    when it is left (see _in_tree_order), else in the order of their contents in the file; an
    orphaned content stream becomes a page of its own (US Letter, no resources: the reader
    stands in for its fonts)."""
    pages = [key for key, body in every(objects.items()) if _PAGE.search(body[:4096]) and b"/Contents" in body]
    if not pages and not orphans:
        return None
    top = max(number for number, _ in objects) + 1
    tree, catalog = (top, 0), (top + 1, 0)
    order = {key: place for key in pages if (place := _content_place(objects, places, key)) is not None}
    numbers = {key: key[0] for key in order}
    for number, (content, resources) in enumerate(orphans, top + 2):
        objects[(number, 0)] = b"<< /Type /Page /MediaBox [0 0 612 792] /Contents %d %d R %s>>" % (
            *content,
            resources + b" " if resources else b"",
        )
        order[(number, 0)], numbers[(number, 0)] = places[content], content[0]
    by_place = sorted(order, key=order.__getitem__)
    if leaves and set(leaves) & set(order):
        by_place = _in_tree_order(leaves, order, numbers, objects, top + 2 + len(orphans))
    # each page whose contents were lost, in number order, before the first kid numbered
    # above it: producers number pages in order
    kids = _merged(by_place, sorted(set(pages) - set(order)), lambda page: page)
    for key in kids:
        objects[key] = _with_parent(objects, key, tree[0])
    objects[tree] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d %d R" % key for key in kids),
        len(kids),
    )
    objects[catalog] = b"<< /Type /Catalog /Pages %d 0 R >>" % tree[0]
    return catalog


def _tree_leaves(objects: dict[tuple[int, int], bytes], root: tuple[int, int]) -> list[tuple[int, int]] | None:
    """The leaves of the catalog's page tree in order: each kid without kids of its own, its
    object found or lost (at most MAX_OBJECTS); None when the tree's top node was lost."""
    pages = _PAGES_REF.search(objects[root])
    top = (int(pages[1]), int(pages[2])) if pages else None
    if top is None or top not in objects:
        return None
    leaves: list[tuple[int, int]] = []
    seen: set[tuple[int, int]] = set()
    todo = [top]
    while todo and len(seen) < MAX_OBJECTS:
        key = todo.pop()
        if key in seen:
            continue
        seen.add(key)
        kids = _KIDS.search(objects[key]) if key in objects else None
        if kids:
            todo += reversed([(int(ref[1]), int(ref[2])) for ref in _REF.finditer(kids[1])])
        else:
            leaves.append(key)
    return leaves


def _in_tree_order(
    leaves: list[tuple[int, int]],
    order: dict[tuple[int, int], float],
    numbers: dict[tuple[int, int], int],
    objects: dict[tuple[int, int], bytes],
    free: int,
) -> list[tuple[int, int]]:
    """The pages with contents (`order`: where their contents are), in the order of the old
    tree's leaves. A leaf whose page was lost (packed in an object stream that broke) takes
    the next page the tree does not hold (an orphaned content stream, by its place in the file)
    whose contents follow those of the page found before it and precede those of the page
    found after it (when these two are in file order), unless the next
    lost leaf there is numbered at or below it (producers number pages in order); a lost leaf
    that takes none becomes a lost page (see pagetree), so the pages after it keep their
    numbers. Pages the tree does not hold and no leaf took go before the first page found
    whose contents follow theirs. Objects from number `free` on are new."""
    in_tree = set(leaves)
    extras = sorted((key for key in order if key not in in_tree), key=order.__getitem__)
    known = [index for index, leaf in enumerate(leaves) if leaf in order]
    out: list[tuple[int, int]] = []
    taken, after = 0, 0  # extras taken or passed over; the next known leaf's index in `known`
    left: list[tuple[int, int]] = []
    for index, leaf in enumerate(leaves):
        if leaf in order:
            after += 1
            out.append(leaf)
            continue
        low = order[leaves[known[after - 1]]] if after else float("-inf")
        high = order[leaves[known[after]]] if after < len(known) else float("inf")
        while taken < len(extras) and order[extras[taken]] < low:
            left.append(extras[taken])
            taken += 1
        following = leaves[index + 1] if index + 1 < len(leaves) and leaves[index + 1] not in order else None
        if taken < len(extras) and (order[extras[taken]] < high or high <= low):
            if following is None or following[0] > numbers[extras[taken]]:
                out.append(extras[taken])
                taken += 1
                continue
        out.append((free, 0))
        objects[(free, 0)] = b"<< /Type /Page /MediaBox [0 0 612 792] %s true >>" % LOST.encode()
        order[(free, 0)], free = order[out[-2]] if len(out) > 1 else float("-inf"), free + 1
    return _merged(out, sorted(left + extras[taken:], key=order.__getitem__), order.__getitem__)


def _merged(
    kids: list[tuple[int, int]], extras: list[tuple[int, int]], place: Callable[[tuple[int, int]], Any]
) -> list[tuple[int, int]]:
    """`kids` with each of `extras` (sorted by `place`) before the first kid that `place` puts after it."""
    out: list[tuple[int, int]] = []
    waiting = iter(extras)
    extra = next(waiting, None)
    for kid in kids:
        while extra is not None and place(extra) < place(kid):
            out.append(extra)
            extra = next(waiting, None)
        out.append(kid)
    return out + ([extra, *waiting] if extra is not None else [])


def _content_place(
    objects: dict[tuple[int, int], bytes], places: dict[tuple[int, int], float], page: tuple[int, int]
) -> float | None:
    """Where a page's first content stream is in the file (None: lost; the page's own place if
    the page names none)."""
    contents = _CONTENTS.search(objects[page])
    key = (int(contents[1]), int(contents[2])) if contents else page
    if key in objects and objects[key].lstrip().startswith(b"["):  # an array of streams
        first = _REF.search(objects[key])
        key = (int(first[1]), int(first[2])) if first else key
    return places.get(key)


def _with_parent(objects: dict[tuple[int, int], bytes], page: tuple[int, int], tree: int) -> bytes:
    """The page under the new tree; the resources it inherited from its old parent, its own."""
    body = objects[page]
    parent = _PARENT.search(body)
    old = objects.get((int(parent[1]), int(parent[2]))) if parent else None
    inherited = RESOURCES_REF.search(old) if old is not None and b"/Resources" not in body else None
    if parent:
        body = body[: parent.start()] + b"/Parent %d 0 R" % tree + body[parent.end() :]
    else:
        body = body.replace(b"<<", b"<< /Parent %d 0 R" % tree, 1)
    if inherited:
        body = body.replace(b"<<", b"<< " + inherited[0], 1)
    return body


def _written(objects: dict[tuple[int, int], bytes], root: tuple[int, int]) -> bytes:
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets: dict[int, tuple[int, int]] = {}
    for (number, generation), body in every(sorted(objects.items())):
        offsets[number] = (len(out), generation)
        out += b"%d %d obj\n%s\nendobj\n" % (number, generation, body)
    size = max(offsets) + 1
    table = bytearray(b"xref\n0 %d\n0000000000 65535 f \n" % size)
    for number in every(range(1, size)):
        offset, generation = offsets.get(number, (0, 65535))
        table += b"%010d %05d %s \n" % (offset, generation, b"n" if number in offsets else b"f")
    start = len(out)
    out += table
    out += b"trailer\n<< /Size %d /Root %d %d R >>\nstartxref\n%d\n%%%%EOF\n" % (size, *root, start)
    return bytes(out)
