"""A damaged PDF (cut short, its cross-reference table or trailer lost) written anew from
the objects its bytes still hold, so both engines can read the pages that survive.

Neither engine opens a file cut mid-way: the cross-reference table and trailer sit at its
end. The objects before the cut are intact, though. `rebuilt` collects every `N G obj ...
endobj` of the file (a later definition wins, as an incremental update would), the objects
packed in object streams it can still decode, and a stream cut by the end of the file
(its data as far as it goes); it writes them into a fresh file with an exact table, the
catalog as its root (or, with no catalog left, a new one over every page found, in file
order). Invariants: the result is a new byte string, never the input patched in place; an
encrypted file is never rebuilt (its trailer holds the key's parameters); the work is linear
in the file's size, with at most MAX_OBJECTS objects.
"""

from __future__ import annotations

import re
import zlib

MAX_OBJECTS = 500_000
_OBJECT = re.compile(rb"(?<![\d])(\d{1,7})\s+(\d{1,5})\s+obj\b")
_ENDOBJ = re.compile(rb"\bendobj\b")
_STREAM = re.compile(rb"\bstream(?:\r\n|\n|\r)")
_ENDSTREAM = re.compile(rb"(?:\r\n|\n|\r)?endstream\b")
_LENGTH = re.compile(rb"/Length\s+\d+(?:\s+\d+\s+R)?")
_CATALOG = re.compile(rb"/Type\s*/Catalog\b")
_PAGE = re.compile(rb"/Type\s*/Page(?![a-zA-Z])")
_PAGES_REF = re.compile(rb"/Pages\s+(\d+)\s+(\d+)\s+R")
_OBJECT_STREAM = re.compile(rb"/Type\s*/ObjStm\b")
_XREF_STREAM = re.compile(rb"/Type\s*/XRef\b")


def rebuilt(data: bytes) -> bytes | None:
    """A readable file of the objects `data` still holds, or None (nothing to rebuild, encrypted)."""
    if b"/Encrypt" in data:
        return None
    objects = _objects(data)
    if not objects:
        return None
    root = next((key for key, body in objects.items() if _CATALOG.search(body[:2048])), None)
    pages = _PAGES_REF.search(objects[root]) if root else None
    if root is None or pages is None or (int(pages[1]), int(pages[2])) not in objects:
        root = _new_catalog(objects)
        if root is None:
            return None
    return _written(objects, root)


def _objects(data: bytes) -> dict[tuple[int, int], bytes]:
    objects: dict[tuple[int, int], bytes] = {}
    packed: list[bytes] = []
    matches = list(_OBJECT.finditer(data))[:MAX_OBJECTS]
    for number, match in enumerate(matches):
        limit = matches[number + 1].start() if number + 1 < len(matches) else len(data)
        body = _body(data, match.end(), limit)
        if body is None or _XREF_STREAM.search(body[:1024]):
            continue
        objects[(int(match[1]), int(match[2]))] = body
        if _OBJECT_STREAM.search(body[:1024]):
            packed.append(body)
    for body in packed:
        for key, inner in _unpacked(body):
            objects.setdefault(key, inner)
    return objects


def _body(data: bytes, start: int, limit: int) -> bytes | None:
    """An object's body (between `obj` and `endobj`), a stream's /Length made exact."""
    stream = _STREAM.search(data, start, limit)
    end = _ENDOBJ.search(data, start, limit)
    if stream is None or (end is not None and end.start() < stream.start()):
        body = data[start : end.start() if end else limit].strip()
        return body or None
    head = data[start : stream.start()].strip()
    stop = _ENDSTREAM.search(data, stream.end(), limit)
    payload = data[stream.end() : stop.start() if stop else limit]
    head = _LENGTH.sub(b"/Length %d" % len(payload), head) if _LENGTH.search(head) else head
    return head + b"\nstream\n" + payload + b"\nendstream"


def _unpacked(body: bytes) -> list[tuple[tuple[int, int], bytes]]:
    """The objects of an object stream, as far as its (maybe cut) data decodes."""
    head, _, rest = body.partition(b"\nstream\n")
    payload = rest[: -len(b"\nendstream")]
    first = re.search(rb"/First\s+(\d+)", head)
    if first is None:
        return []
    data = payload
    if b"/FlateDecode" in head:
        try:
            data = zlib.decompressobj().decompress(payload, 64 * 2**20)
        except zlib.error:
            return []
    header = data[: int(first[1])].split()
    pairs = [(int(header[i]), int(header[i + 1])) for i in range(0, len(header) - 1, 2) if header[i].isdigit()]
    out = []
    for index, (number, offset) in enumerate(pairs):
        start = int(first[1]) + offset
        end = int(first[1]) + pairs[index + 1][1] if index + 1 < len(pairs) else len(data)
        inner = data[start:end].strip()
        if inner:
            out.append(((number, 0), inner))
    return out


def _new_catalog(objects: dict[tuple[int, int], bytes]) -> tuple[int, int] | None:
    """A catalog and page tree over every page object found, in file order."""
    pages = [key for key, body in objects.items() if _PAGE.search(body[:4096]) and b"/Contents" in body]
    if not pages:
        return None
    top = max(number for number, _ in objects) + 1
    tree, catalog = (top, 0), (top + 1, 0)
    kids = b" ".join(b"%d %d R" % key for key in pages)
    objects[tree] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, len(pages))
    objects[catalog] = b"<< /Type /Catalog /Pages %d 0 R >>" % tree[0]
    for key in pages:
        objects[key] = re.sub(rb"/Parent\s+\d+\s+\d+\s+R", b"/Parent %d 0 R" % tree[0], objects[key])
    return catalog


def _written(objects: dict[tuple[int, int], bytes], root: tuple[int, int]) -> bytes:
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets: dict[int, tuple[int, int]] = {}
    for (number, generation), body in sorted(objects.items()):
        offsets[number] = (len(out), generation)
        out += b"%d %d obj\n%s\nendobj\n" % (number, generation, body)
    size = max(offsets) + 1
    table = bytearray(b"xref\n0 %d\n0000000000 65535 f \n" % size)
    for number in range(1, size):
        offset, generation = offsets.get(number, (0, 65535))
        table += b"%010d %05d %s \n" % (offset, generation, b"n" if number in offsets else b"f")
    start = len(out)
    out += table
    out += b"trailer\n<< /Size %d /Root %d %d R >>\nstartxref\n%d\n%%%%EOF\n" % (size, *root, start)
    return bytes(out)
