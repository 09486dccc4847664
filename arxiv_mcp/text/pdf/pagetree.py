"""A damaged PDF's page tree mended so each page keeps its number, as pdfium reads it.

pypdf stops parsing a dictionary at a token it cannot read, where pdfium skips the token;
it skips a page tree node whose /Type a damaged byte changed, and a kid whose object was
lost (a page dictionary packed in an object stream whose deflate data broke), so every later
page moves up one place. `mend_page_tree` reads hidden keys again from the object's bytes,
types a mistyped node by its keys, and puts a lost page (see `is_lost_page`) in the place of
each kid that is not a dictionary, which the engine reports as a page that could not be read.
Invariants: only the reader's in-memory objects change, never the file's bytes; nothing is
done unless the tree holds fewer pages than its root declares (healthy files pay one
comparison, besides pages lacking /Contents or /Resources); at most MAX_TREE_NODES nodes are
walked, MAX_REREADS objects read again, MAX_LOST_PAGES lost pages put in.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from .pypdf_compat import object_offsets, read_pages_again
from .work import resolved

logger = logging.getLogger(__name__)
MAX_TREE_NODES = 100_000
MAX_REREADS = 2000  # page and page tree objects read again from the file's bytes
MAX_RAW_OBJECT = 16_384  # bytes of one such object (a page's dictionary is well under 1 KB)
MAX_LOST_PAGES = 10_000
LOST = "/ArxivMcpLostPage"  # the key marking a lost page's stand-in (no producer writes it)
_RAW_KEYS = {  # a key's value as a reference or an array of references
    key: re.compile(rb"/" + key[1:].encode() + rb"\s*(\d{1,7}\s+\d{1,5}\s+R\b|\[[^\]]*\])")
    for key in ("/Kids", "/Contents", "/Resources")
}
_RAW_REF = re.compile(rb"(\d{1,7})\s+(\d{1,5})\s+R(?![^\s/\[\]<>()])")


def mend_page_tree(data: bytes, reader: Any) -> None:
    """Read again, from the file's bytes, the keys a damaged byte hid from pypdf in a page tree
    node (/Kids) or a page (/Contents, /Resources): pypdf stops parsing a dictionary at a token
    it cannot read, where pdfium skips the token. When the tree holds fewer pages than its root
    declares, also give each node whose /Type a damaged byte changed (`/Pate`) the type its keys
    show, as pdfium does: pypdf skips such a node, and every later page moves up one place.
    At most MAX_TREE_NODES nodes are walked and MAX_REREADS objects read again."""
    rereads = [MAX_REREADS]
    try:
        if _mend_tree_nodes(data, reader, rereads):
            read_pages_again(reader)
        for page in reader.pages:
            if ("/Contents" not in page or "/Resources" not in page) and rereads[0] > 0:
                _reread_keys(data, reader, page, ("/Contents", "/Resources"), rereads)
    except Exception as exc:  # a tree too broken to walk: read what pypdf found
        logger.info("the PDF's page tree cannot be mended: %s: %s", type(exc).__name__, exc)
        read_pages_again(reader)


def _mend_tree_nodes(data: bytes, reader: Any, rereads: list[int]) -> bool:
    """Whether the tree holds fewer pages than it declares, and so was mended as above."""
    from pypdf.generic import NameObject

    root = resolved(resolved(reader.trailer["/Root"])["/Pages"])
    if len(reader.pages) >= int(root.get("/Count", 0)):
        return False
    todo, seen, lost = [root], 0, [MAX_LOST_PAGES]
    while todo and seen < MAX_TREE_NODES:
        node, seen = todo.pop(), seen + 1
        if "/Kids" not in node and node.get("/Type") != "/Page" and rereads[0] > 0:
            _reread_keys(data, reader, node, ("/Kids",), rereads)
        kind = "/Pages" if "/Kids" in node else "/Page"
        if node is not root and node.get("/Type") not in ("/Page", "/Pages"):
            node[NameObject("/Type")] = NameObject(kind)
        if kind == "/Pages":
            todo += _kids(resolved(node["/Kids"]), lost)
    return True


def _kids(kids: Any, lost: list[int]) -> list[Any]:
    """The kids of a page tree node, each one whose object was lost (not a dictionary) put
    back as a lost page (see `is_lost_page`), while `lost[0]` allows: pdfium keeps its place."""
    from pypdf.generic import BooleanObject, DictionaryObject, NameObject

    out = []
    for index, kid in enumerate(kids if isinstance(kids, list) else []):
        found = resolved(kid)
        if not isinstance(found, dict) and lost[0] > 0:
            lost[0] -= 1
            kids[index] = found = DictionaryObject(
                {NameObject("/Type"): NameObject("/Page"), NameObject(LOST): BooleanObject(True)}
            )
        if isinstance(found, dict):
            out.append(found)
    return out


def is_lost_page(page: Any) -> bool:
    """Whether `page` stands in for a page whose object was lost: it has no text to give."""
    return LOST in page


def _reread_keys(data: bytes, reader: Any, node: Any, keys: tuple[str, ...], rereads: list[int]) -> None:
    """Give `node` each of `keys` it lacks whose references its object's bytes hold."""
    from pypdf.generic import ArrayObject, IndirectObject, NameObject

    rereads[0] -= 1
    raw = raw_object(data, reader, node)
    for key in keys:
        found = _RAW_KEYS[key].search(raw) if key not in node else None
        refs = (
            [IndirectObject(int(ref[1]), int(ref[2]), reader) for ref in _RAW_REF.finditer(found[1])] if found else []
        )
        if refs:
            node[NameObject(key)] = ArrayObject(refs) if found[1].startswith(b"[") else refs[0]  # type: ignore[index]


def raw_object(data: bytes, reader: Any, node: Any, limit: int = MAX_RAW_OBJECT) -> bytes:
    """The bytes of `node`'s object in `data` (the file `reader` reads), up to its `endobj`
    (b"" when it is packed in an object stream, or the table points elsewhere)."""
    ref = getattr(node, "indirect_reference", None)
    offset = None if ref is None else object_offsets(reader, data).get(ref.generation, {}).get(ref.idnum)
    if ref is None or not offset:
        return b""
    raw = data[offset : offset + limit]
    head = re.match(rb"\s*(\d+)\s+(\d+)\s+obj\b", raw)
    if head is None or (int(head[1]), int(head[2])) != (ref.idnum, ref.generation):
        return b""
    return raw[head.end() :].partition(b"endobj")[0]
