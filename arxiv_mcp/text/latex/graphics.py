"""Which e-print member an `\\includegraphics{name}` shows, as LaTeX's graphics package finds it.

LaTeX looks for the name as written, then under each `\\graphicspath` folder, relative to the
main file's folder, trying the known extensions when the name has none. The answer is a member
name of the e-print (data, never a path on this machine); a name with no member keeps its
spelling, so a figure still says what it showed.
"""

from __future__ import annotations

import posixpath
import re

_EXTENSIONS = (".pdf", ".png", ".jpg", ".jpeg", ".eps", ".ps", ".gif", ".svg", ".tif", ".tiff", ".eps.gz")
_GRAPHICSPATH_RE = re.compile(r"\\graphicspath[ \t]*\{((?:[ \t]*\{[^{}\n]{0,300}\}[ \t]*){1,20})\}")
_FOLDER_RE = re.compile(r"\{([^{}\n]{0,300})\}")


class Graphics:
    def __init__(self, members: list[str], folder: str, paths: list[str]):
        self.by_lower = {name.lower(): name for name in members}
        self.folder = folder
        self.paths = paths

    def resolve(self, written: str) -> str:
        name = " ".join(written.split()).strip('"')
        if not name:
            return ""
        for base in [self.folder] + [posixpath.join(self.folder, path) for path in self.paths] + self.paths:
            path = posixpath.normpath(posixpath.join(base, name))
            if path.startswith(("/", "../")) or path == "..":
                continue
            stem = posixpath.splitext(path)[0]  # `plot.eps` when the e-print ships plot.pdf
            for candidate in (path, *(path + ext for ext in _EXTENSIONS), *(stem + ext for ext in _EXTENSIONS)):
                found = self.by_lower.get(candidate.lower())
                if found is not None:
                    return found
        return name


def files_by_folder(members: list[str], main: str, preamble: str) -> Graphics:
    """The resolver for a source: its members, the main file's folder and its \\graphicspath."""
    found = _GRAPHICSPATH_RE.search(preamble)
    paths = [folder.strip() for folder in _FOLDER_RE.findall(found.group(1))] if found else []
    return Graphics(members, posixpath.dirname(main), [path for path in paths if path])
