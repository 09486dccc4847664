"""The map is the territory: README's "Where things are" against the code's own imports.

The table lists the layers top to bottom; each row names top-level modules (`server.py`) or
subpackages (`cache/`). These tests read the table and every `import` in the package (also
the ones inside functions and under TYPE_CHECKING: a type is a dependency too) with `ast`,
and fail on a module no row names, a subpackage row that does not name one of its modules,
an import that runs upward, an import circle, a module other than server.py importing `mcp`,
or a subpackage whose `__init__` does not state its contract.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "arxiv_mcp"
NAME = "arxiv_mcp"


@cache
def modules() -> dict[str, Path]:
    """Dotted name -> file, for every module of the package (a package is its `__init__`)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


@cache
def import_nodes(module: str) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of `module`, wherever it stands (parsed once for all the tests)."""
    tree = ast.parse(modules()[module].read_text(encoding="utf-8"))
    return [node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)]


@cache
def rows() -> list[tuple[list[str], str]]:
    """The table's rows, top to bottom: (the names in the first cell, the second cell)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Where things are", 1)[1].split("\n## ", 1)[0]
    table = [line for line in section.splitlines() if line.startswith("|")][2:]  # after the header and its rule
    out = []
    for line in table:
        where, what = line.strip().strip("|").split("|", 1)
        out.append((re.findall(r"`([^`]+)`", where), what))
    return out


def row_key(module: str) -> str:
    """The name a row gives `module` by: `x.py` for a top-level module, `pkg/` for anything in a subpackage."""
    parts = module.split(".")[1:]
    if not parts:
        return "__init__.py"
    if len(parts) == 1 and not modules()[module].name == "__init__.py":
        return parts[0] + ".py"
    return parts[0] + "/"


@cache
def layer_of() -> dict[str, int]:
    keys = {name: depth for depth, (names, _) in enumerate(rows()) for name in names}
    return {module: keys[row_key(module)] for module in modules() if row_key(module) in keys}


def imported(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The package's modules an import statement names (a name imported from a module is that module)."""
    known = modules()
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if alias.name in known]
    if node.level:
        package = module.split(".")
        if modules()[module].name != "__init__.py":
            package.pop()
        base = package[: len(package) - (node.level - 1)] + (node.module.split(".") if node.module else [])
    else:
        base = node.module.split(".") if node.module else []
    if not base or base[0] != NAME:
        return []
    targets = []
    for alias in node.names:
        submodule = ".".join([*base, alias.name])
        targets.append(submodule if submodule in known else ".".join(base))
    return [t for t in targets if t in known]


@cache
def imports() -> dict[str, set[str]]:
    """Module -> the package's modules it imports (anywhere in it, a package's own parents left out)."""
    graph: dict[str, set[str]] = {}
    for module in modules():
        targets = set()
        for node in import_nodes(module):
            targets.update(imported(module, node))
        graph[module] = {t for t in targets if t != module and not module.startswith(t + ".")}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_every_module_has_a_row_and_every_row_names_real_modules():
    missing = sorted(m for m in modules() if m not in layer_of())
    assert not missing, f"modules README's 'Where things are' leaves out: {missing}"
    keys = {row_key(m) for m in modules()}
    stale = [name for names, _ in rows() for name in names if name not in keys]
    assert not stale, f"names in README's table that are no module of the package: {stale}"


def test_a_subpackage_row_names_each_of_its_modules():
    for names, what in rows():
        named = {token.split(".")[0].removesuffix("/") for token in re.findall(r"`([^`]+)`", what)}
        for package in (n for n in names if n.endswith("/")):
            folder = PACKAGE / package
            members = {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
            members |= {p.parent.name for p in folder.glob("*/__init__.py")}
            assert members <= named, f"README's row for {package} does not name {sorted(members - named)}"


def test_no_import_runs_upward():
    layer = layer_of()
    upward = sorted(
        f"{m} -> {t}" for m, targets in imports().items() for t in targets if m in layer and layer[t] < layer[m]
    )
    assert not upward, "imports from a layer above (README's 'Where things are'):\n" + "\n".join(upward)


def test_no_import_circles():
    assert circles(imports()) == []


def test_the_layer_check_sees_upward_imports_and_circles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []
    assert "arxiv_mcp.server" in imports()["arxiv_mcp.cli"]  # the graph is read, not empty
    assert layer_of()["arxiv_mcp.server"] < layer_of()["arxiv_mcp.ids"]


def test_only_server_imports_mcp():
    importers = set()
    for module in modules():
        for node in import_nodes(module):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else []
                if node.level
                else [node.module or ""]
            )
            if any(name == "mcp" or name.startswith("mcp.") for name in names):
                importers.add(module)
    assert importers == {"arxiv_mcp.server"}


def test_each_subpackage_states_its_contract():
    for module, path in modules().items():
        if path.name == "__init__.py" and module != NAME:
            docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
            assert "Contract:" in docstring, f"{module}'s __init__ states no contract"
