"""PDF objects of the plain shapes parsed from bytes at once, as pypdf would parse them.

Measuring a paper's pages (work) reads its page tree, and pypdf's parser reads an object a
byte at a time through its stream: a page and its resources cost it a quarter of a
millisecond, a tenth of what pdfium then spends on the page. An object here is parsed by one
pattern, a token per match, into the very objects pypdf makes (NameObject, NumberObject,
FloatObject, IndirectObject, ArrayObject, DictionaryObject, BooleanObject, NullObject).

Invariant: `plain_object` gives what pypdf's read_object gives at the same place, or None.
Only the shapes whose reading is plain are taken: names without `#` escapes (ASCII, at most
4,000 bytes), integers and decimals, references of pypdf's size, arrays and dictionaries
(no key twice), true, false and null, each token followed by white space or a delimiter.
Anything else (a string, a comment, a stream, a byte pypdf and this pattern might split
differently: NUL, vertical tab) gives None, and pypdf parses the object itself.
"""

from __future__ import annotations

import re
from typing import Any

from pypdf.generic import (
    ArrayObject,
    BooleanObject,
    DictionaryObject,
    FloatObject,
    IndirectObject,
    NameObject,
    NullObject,
    NumberObject,
)

# White space as both pypdf and this pattern see it; a token must end before one of these
_SPACE = rb"[ \t\n\r\x0c]"
_END = rb"(?=[ \t\n\r\x0c/\[\]<>])"
_TOKEN = re.compile(
    _SPACE
    + rb"*+(?:"
    + rb"(\d+)"
    + _SPACE
    + rb"++(\d+)"
    + _SPACE
    + rb"++R"
    + _END
    + rb"|([+\-.0-9]+)"
    + _END
    + rb"|(/[^\x00-\x20\x7f-\xff()<>\[\]{}/%#]*)"
    + _END
    + rb"|(<<|>>|\[|\]|true|false|null)(?:"
    + _END
    + rb"|(?<=[<>\[\]]))"
    + rb")"
)
# an array of references only (a page's annotations, a node's kids), taken in one match
_REFERENCES = re.compile(
    rb"\[((?:" + _SPACE + rb"*+\d+" + _SPACE + rb"++\d+" + _SPACE + rb"++R(?=[ \t\n\r\x0c\]]))*+)" + _SPACE + rb"*+\]"
)
_REFERENCE = re.compile(rb"(\d+)" + _SPACE + rb"++(\d+)" + _SPACE + rb"++R")
_INTEGER = re.compile(rb"[+-]?\d+")
_DECIMAL = re.compile(rb"[+-]?(?:\d+\.\d*|\.\d+)")
_PEEK = 20  # pypdf tells a reference from a number in a peek this long
_MAX_NAME = 4000  # pypdf refuses a name over 4,096 bytes
_MAX_TOKENS = 50_000  # of an object, or references of an array: well under pypdf's limits on entries
_OBJECT_HEAD = re.compile(rb"[ \t\n\r\x0c]*(\d+)[ \t\n\r\x0c]+(\d+)[ \t\n\r\x0c]+obj[ \t\n\r\x0c]*(?=<<)")
_ENDOBJ = re.compile(rb"[ \t\n\r\x0c]*endobj")
_STREAM = re.compile(rb"[ \t\n\r\x0c\x00]*stream")


def plain_object(data: bytes, at: int, pdf: Any) -> tuple[Any, int] | None:
    """The dictionary or array starting at `at` (no white space first) and where it ends."""
    if data[at : at + 1] not in (b"<", b"["):
        return None
    stack: list[list[Any]] = []  # containers being filled, each with the key waiting for its value
    position = at
    for _ in range(_MAX_TOKENS):
        token = _TOKEN.match(data, position)
        if token is None:
            return None
        position = token.end()
        mark = token[5]
        if mark == b"[" and stack:
            refs = _REFERENCES.match(data, position - 1)
            if refs is not None and refs[1]:
                value = _references(refs[1], pdf)
                if value is None:
                    return None
                position = refs.end()
                if not _put(stack[-1], value):
                    return None
                continue
        if mark == b"<<" or mark == b"[":
            stack.append([DictionaryObject() if mark == b"<<" else ArrayObject(), None])
            continue
        if mark == b">>" or mark == b"]":
            if not stack or stack[-1][1] is not None or isinstance(stack[-1][0], dict) != (mark == b">>"):
                return None
            value = stack.pop()[0]
        else:
            value = _leaf(token, pdf)
            if value is None:
                return None
        if not stack:
            return value, position
        if not _put(stack[-1], value):
            return None
    return None


def _references(text: bytes, pdf: Any) -> ArrayObject | None:
    """The references of an array of references only, each one read as in _leaf."""
    refs = list(_REFERENCE.finditer(text))
    if len(refs) > _MAX_TOKENS or any(ref.end() - ref.start() >= _PEEK for ref in refs):
        return None  # pypdf refuses an array of over 100,000 entries
    return ArrayObject(IndirectObject(int(ref[1]), int(ref[2]), pdf) for ref in refs)


def _leaf(token: re.Match[bytes], pdf: Any) -> Any:
    """The token's value (None: not of the plain shapes)."""
    if token[1] is not None:
        # pypdf reads a reference only when it and the byte after its R fit in its peek
        return IndirectObject(int(token[1]), int(token[2]), pdf) if token.end() - token.start(1) < _PEEK else None
    number = token[3]
    if number is not None:
        if len(number) >= _PEEK:
            return None
        if _INTEGER.fullmatch(number):
            return NumberObject(number)
        return FloatObject(number) if _DECIMAL.fullmatch(number) else None
    name = token[4]
    if name is not None:
        return NameObject(name.decode("ascii")) if len(name) <= _MAX_NAME else None
    return (
        BooleanObject(True) if token[5] == b"true" else BooleanObject(False) if token[5] == b"false" else NullObject()
    )


def _put(top: list[Any], value: Any) -> bool:
    """`value` put in the container being filled; False where pypdf would read it otherwise."""
    container, key = top
    if isinstance(container, list):
        container.append(value)
    elif key is not None:
        container[key] = value
        top[1] = None
    elif type(value) is NameObject and value not in container:
        top[1] = value
    else:
        return False  # a key that is not a name, or a key given twice
    return True


def plain_indirect_dictionary(data: bytes, offset: int, idnum: int, generation: int, pdf: Any) -> Any:
    """The dictionary object `idnum generation obj << ... >> endobj` at `offset`, or None."""
    head = _OBJECT_HEAD.match(data, offset)
    if head is None or int(head[1]) != idnum or int(head[2]) != generation:
        return None
    found = plain_object(data, head.end(), pdf)
    if found is None or not isinstance(found[0], dict) or not _ENDOBJ.match(data, found[1]):
        return None
    return found[0]


def plain_packed_object(data: bytes, at: int, pdf: Any) -> Any:
    """The dictionary or array at `at` of an object stream's data, or None."""
    found = plain_object(data, at, pdf)
    if found is None or _STREAM.match(data, found[1]):
        return None  # a dictionary before `stream` is a stream's to pypdf
    return found[0]
