"""The house rules issue 35 measures, kept as a ratchet: each is read from the package's
syntax trees, so a change that breaks one fails here instead of in the next review.

- No class in the package over 400 lines, counting the package's classes it is composed of
  (its bases: a mixin moves lines, it does not split a class).
- No attribute found by a built name (`getattr(self, "cmd_" + role)`): a handler sits in a
  table row.
- A dependency's private internals (a private module, a private attribute named by string)
  are reached only from that dependency's compat module.
- Every runtime dependency the issue names has an upper bound at its next major.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "arxiv_mcp"
CLASS_LINES = 400
DEPENDENCIES = ("pypdf", "pypdfium2", "mcp", "requests", "urllib3")
# The one module per dependency allowed to reach into its internals (issue 35, point 3).
COMPAT_MODULES = {"text/pdf/pypdf_compat.py", "text/pdf/pdfium_compat.py"}


def _trees() -> dict[str, ast.Module]:
    return {str(p.relative_to(PACKAGE)): ast.parse(p.read_text(encoding="utf-8")) for p in PACKAGE.rglob("*.py")}


TREES = _trees()


def _composed_sizes(trees: dict[str, ast.Module]) -> dict[str, int]:
    """Each class's lines plus those of the package's classes it derives from, by name."""
    classes = {node.name: node for tree in trees.values() for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}

    def size(name: str, seen: frozenset[str]) -> int:
        node = classes.get(name)
        if node is None or name in seen:
            return 0
        bases = [ast.unparse(base).rsplit(".", 1)[-1] for base in node.bases]
        own = (node.end_lineno or node.lineno) - node.lineno + 1
        return own + sum(size(base, seen | {name}) for base in bases)

    return {name: size(name, frozenset()) for name in classes}


def test_no_class_over_400_lines_counting_what_it_is_composed_of() -> None:
    sizes = _composed_sizes(TREES)
    over = {name: size for name, size in sizes.items() if size > CLASS_LINES}
    assert over == {}


def _built_name_lookups(tree: ast.Module) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr"):
            if len(node.args) >= 2 and isinstance(node.args[1], (ast.BinOp, ast.JoinedStr, ast.Call)):
                found.append(ast.unparse(node))
    return found


def test_no_attribute_is_found_by_a_built_name() -> None:
    found = {path: calls for path, tree in TREES.items() if (calls := _built_name_lookups(tree))}
    assert found == {}


def _private_reaches(tree: ast.Module) -> list[str]:
    """Imports of a dependency's private modules or names, and private attributes named by
    string (`getattr(x, "_connection")`): the forms a reach into internals takes here."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in DEPENDENCIES:
            parts = node.module.split(".")[1:] + [alias.name for alias in node.names]
            if any(part.startswith("_") for part in parts):
                found.append(ast.unparse(node))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                head, *rest = alias.name.split(".")
                if head in DEPENDENCIES and any(part.startswith("_") for part in rest):
                    found.append(ast.unparse(node))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr":
            name = node.args[1] if len(node.args) >= 2 else None
            if isinstance(name, ast.Constant) and isinstance(name.value, str):
                if name.value.startswith("_") and not name.value.startswith("__"):
                    found.append(ast.unparse(node))
    return found


def test_private_internals_of_dependencies_only_in_their_compat_module() -> None:
    found = {
        path: reaches
        for path, tree in TREES.items()
        if path not in COMPAT_MODULES and (reaches := _private_reaches(tree))
    }
    assert found == {}


def test_the_checks_see_what_they_forbid() -> None:
    bad = ast.parse(
        "import pypdf._page\n"
        "from pypdf.generic._font import Font\n"
        "getattr(raw, '_connection')\n"
        "getattr(self, 'cmd_' + role)\n"
        "getattr(self, f'env_{name}')\n"
    )
    assert len(_private_reaches(bad)) == 3
    assert len(_built_name_lookups(bad)) == 2
    composed = ast.parse("class A:\n" + "    x = 1\n" * 300 + "class B(A):\n" + "    y = 1\n" * 150)
    assert _composed_sizes({"text/x.py": composed})["B"] > CLASS_LINES


@pytest.mark.parametrize("name", ["pypdf", "mcp"])
def test_runtime_dependencies_have_an_upper_bound(name: str) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    specs = [spec for spec in project["dependencies"] if spec.split(">")[0].split("<")[0].strip() == name]
    assert specs and "<" in specs[0]


def test_the_fast_extra_has_an_upper_bound() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert all("<" in spec for spec in project["optional-dependencies"]["fast"])
