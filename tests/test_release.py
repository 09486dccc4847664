"""What a release needs from the files a packager and the registries read: pyproject.toml's
metadata, the sdist's contents, the README's marker and acknowledgements, the workflows.

The build itself (sdist and wheel, twine check, the wheel serving a tool call, the sdist's
tests) runs in .ci/run: it takes a minute, too slow for a test."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from arxiv_mcp import __version__
from arxiv_mcp.config import load
from arxiv_mcp.server import build_server

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
README = (ROOT / "README.md").read_text(encoding="utf-8")
SERVER_JSON = json.loads((ROOT / "server.json").read_text(encoding="utf-8"))


def test_metadata_has_classifiers_keywords_and_no_invented_address():
    project = PYPROJECT["project"]
    assert project["version"] == __version__ == SERVER_JSON["version"]
    assert "Programming Language :: Python :: 3.11" in project["classifiers"] and len(project["keywords"]) >= 4
    assert "urls" not in project  # no public address exists yet (see the comment in pyproject.toml)
    assert set(project["optional-dependencies"]) == {"fast"}  # a user-facing feature only
    assert {"test", "lint", "release"} <= set(PYPROJECT["dependency-groups"])


def test_uv_rebuilds_a_checkout_when_its_code_changes():
    keys = PYPROJECT["tool"]["uv"]["cache-keys"]
    assert {"file": "arxiv_mcp/**/*.py"} in keys and {"file": "pyproject.toml"} in keys


def test_the_sdist_carries_what_its_tests_and_the_registry_need():
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8")
    for line in ("graft tests", "graft skill", "graft benchmarks"):
        assert line in manifest
    included = " ".join(ln for ln in manifest.splitlines() if ln.startswith("include "))
    for name in ("server.json", ".mcp.json.example", "README.md", "LICENSE"):
        assert name in included.split()
    assert ".venv/" in (ROOT / ".gitignore").read_text(encoding="utf-8").split()


def test_slow_tests_are_a_registered_marker():
    markers = PYPROJECT["tool"]["pytest"]["ini_options"]["markers"]
    assert any(m.startswith("slow:") for m in markers)


def test_readme_carries_the_registry_marker_and_arxivs_terms():
    assert f"mcp-name: {SERVER_JSON['name']}" in README
    assert "Thank you to arXiv for use of its open access interoperability." in README
    assert "not affiliated with or endorsed by arXiv" in " ".join(README.split())
    assert "https://info.arxiv.org/help/api/tou.html" in README
    assert "operator's responsibility" in README


def test_the_server_title_is_more_than_arxiv(tmp_path):
    server = build_server(load({"ARXIV_MCP_HOME": str(tmp_path)}))
    assert server.title == SERVER_JSON["title"] != "arXiv"


def test_ci_runs_the_readme_test_command_on_three_systems_and_two_pythons():
    ci = (ROOT / ".github" / "workflows" / "ci.yml").read_text(encoding="utf-8")
    command = re.search(r"^pip install \. --group test && python -m pytest -q", README, re.M)
    assert command and f"run: {command.group(0)}\n" in ci
    assert "os: [ubuntu-latest, macos-latest, windows-latest]" in ci and 'python: ["3.11", "3.13"]' in ci
    assert "ARXIV_MCP_LIVE" not in ci.replace("Never runs tests/live (they need ARXIV_MCP_LIVE=1", "")


def test_release_builds_checks_publishes_to_pypi_then_the_registry():
    release = (ROOT / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8")
    order = ["python -m build", "twine check", "pypa/gh-action-pypi-publish", "mcp-publisher publish"]
    places = [release.index(step) for step in order]
    assert places == sorted(places)
    assert "id-token: write" in release and "password:" not in release  # trusted publishing, no token


def test_every_listed_slow_test_exists():
    from tests.slow_tests import SLOW_MODULES, SLOW_TESTS

    for module in SLOW_MODULES | set(SLOW_TESTS):
        assert (ROOT / "tests" / f"{module}.py").is_file(), module
    for module, names in SLOW_TESTS.items():
        source = (ROOT / "tests" / f"{module}.py").read_text(encoding="utf-8")
        for name in names:
            assert re.search(rf"^(async )?def {name}\(", source, re.M), f"{module}.{name} is no test"
