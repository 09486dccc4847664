"""server.json (MCP registry) and .mcp.json.example stay true to the code they describe."""

from __future__ import annotations

import ast
import dataclasses
import json
import re
import tomllib
from pathlib import Path

import pytest

import arxiv_mcp
from arxiv_mcp.config import Config

ROOT = Path(__file__).resolve().parents[1]
ENV_NAME = re.compile(r"ARXIV_MCP_[A-Z0-9_]+|SEMANTIC_SCHOLAR_API_KEY")


def _json(name: str) -> dict:
    return json.loads((ROOT / name).read_text(encoding="utf-8"))


def _env_names_read_by_code() -> set[str]:
    """Every string constant in the package that is exactly a setting's name."""
    names = set()
    for source in (ROOT / "arxiv_mcp").glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and ENV_NAME.fullmatch(node.value):
                names.add(node.value)
    return names


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _console_script() -> str:
    """The command every example runs; the distribution's own name is a second entry to the
    same function, for the registry's `uvx <distribution>`."""
    scripts = _project()["scripts"]
    assert scripts == {"arxiv-mcp": "arxiv_mcp.cli:main", _project()["name"]: "arxiv_mcp.cli:main"}
    return "arxiv-mcp"


@pytest.fixture(scope="module")
def server_json():
    return _json("server.json")


@pytest.fixture(scope="module")
def package(server_json):
    (only,) = server_json["packages"]
    return only


def test_identity_names_nothing_that_does_not_exist(server_json):
    """No repository URL or website: none is published. The one index entry named is this
    distribution, marked as needing a release."""
    assert server_json["version"] == arxiv_mcp.__version__
    assert "repository" not in server_json and "websiteUrl" not in server_json
    assert re.fullmatch(r"[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+", server_json["name"])
    assert 1 <= len(server_json["description"]) <= 100
    assert server_json["$schema"].startswith("https://static.modelcontextprotocol.io/schemas/")
    note = server_json["_meta"]["io.modelcontextprotocol.registry/publisher-provided"]["note"]
    assert "Needs the first PyPI release" in note


def test_package_is_the_distribution_run_by_uvx(package):
    assert _project()["name"] == "arxiv-mcp-reader"  # free on PyPI when chosen; arxiv-mcp is not ours
    assert package["registryType"] == "pypi" and package["identifier"] == _project()["name"]
    assert package["version"] == arxiv_mcp.__version__ == _project()["version"]
    assert package["transport"] == {"type": "stdio"}
    assert package["runtimeHint"] == "uvx"
    assert _project()["name"] in _project()["scripts"]  # what `uvx arxiv-mcp-reader` runs
    _console_script()


def test_environment_variables_are_exactly_the_settings_the_code_reads(package):
    declared = [v["name"] for v in package["environmentVariables"]]
    assert len(declared) == len(set(declared))
    assert set(declared) == _env_names_read_by_code()
    for variable in package["environmentVariables"]:
        assert variable["description"].strip(), variable["name"]
        assert variable.get("isRequired", False) is False, variable["name"]


def test_defaults_match_config(package):
    fields = {f.name: f.default for f in dataclasses.fields(Config) if f.default is not dataclasses.MISSING}
    defaults = {v["name"]: v.get("default") for v in package["environmentVariables"]}
    checked = 0
    for name, declared in defaults.items():
        field = name.removeprefix("ARXIV_MCP_").lower()
        if field not in fields or fields[field] is None:
            continue
        actual = fields[field]
        if isinstance(actual, tuple):  # a list setting: comma-separated
            assert (tuple(declared.split(",")) if declared else ()) == actual, name
        elif isinstance(actual, str):
            assert declared == actual, name
        else:
            assert float(declared) == actual, name
        checked += 1
    assert checked >= 12
    assert defaults["ARXIV_MCP_HOME"] == "~/.arxiv-mcp"
    assert defaults["SEMANTIC_SCHOLAR_API_KEY"] is None


def test_only_the_api_key_and_the_http_token_are_secret(package):
    secret = {v["name"] for v in package["environmentVariables"] if v.get("isSecret")}
    assert secret == {"SEMANTIC_SCHOLAR_API_KEY", "ARXIV_MCP_HTTP_TOKEN"}


def test_client_example_runs_the_same_command():
    example = _json(".mcp.json.example")
    (entry,) = example["mcpServers"].values()
    assert entry["command"] == "uvx"
    assert entry["args"] == ["--from", _project()["name"], _console_script()]
    assert set(entry.get("env", {})) <= _env_names_read_by_code()


def test_registry_note_and_readme_show_the_example_command(server_json):
    entry = next(iter(_json(".mcp.json.example")["mcpServers"].values()))
    install = server_json["_meta"]["io.modelcontextprotocol.registry/publisher-provided"]["install"]
    assert install == [entry["command"], *entry["args"]]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", readme, re.S) if "mcpServers" in b]
    assert _json(".mcp.json.example") in blocks


def test_readme_names_no_repository_or_other_index_entry():
    text = "\n".join(
        (ROOT / name).read_text(encoding="utf-8") for name in ("README.md", "server.json", ".mcp.json.example")
    )
    assert "git+" not in text and "github.com/arxiv-mcp" not in text
    for named in re.findall(r"--from (\S+)", text):
        assert named in ("arxiv-mcp-reader", "/path/to/arxiv-mcp", "/path/to/checkout"), named


def test_every_readme_shell_line_is_run_by_ci_or_a_test():
    """Each line of the README's sh blocks appears in .ci/run (with the checkout's path), runs in
    tests/test_claude_code.py (`claude mcp`) or tests/test_mirror_processes.py (the mirror's
    commands, against a fake OAI-PMH service), or says it needs a release."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    claude_test = (ROOT / "tests" / "test_claude_code.py").read_text(encoding="utf-8")
    mirror_test = (ROOT / "tests" / "test_mirror_processes.py").read_text(encoding="utf-8")
    for block in re.findall(r"```sh\n(.*?)```", readme, re.S):
        for line in block.strip().splitlines():
            command = line.split("  #")[0].strip()
            if "(needs a release)" in line:
                continue
            if command.startswith("claude mcp"):
                assert "/absolute/path/to/.venv" in command or command == "claude mcp list", line
                assert "VENV_PLACEHOLDER" in claude_test and '"mcp", "list"' in claude_test
                continue
            if "ARXIV_MCP_MIRROR=" in command or command.startswith("arxiv-mcp mirror"):
                # these would ask arXiv's OAI-PMH service: they run against a fake one there
                word = command.split()[2] if command.startswith("arxiv-mcp mirror") else "ARXIV_MCP_MIRROR"
                assert f'"{word}"' in mirror_test, f"tests/test_mirror_processes.py does not run: {command}"
                continue
            assert command.replace("/path/to/arxiv-mcp", '"$PWD"') in ci, f".ci/run does not run: {command}"
