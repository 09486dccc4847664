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


def _console_script() -> tuple[str, str]:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert len(scripts) == 1
    return next(iter(scripts.items()))


@pytest.fixture(scope="module")
def server_json():
    return _json("server.json")


@pytest.fixture(scope="module")
def package(server_json):
    (only,) = server_json["packages"]
    return only


def test_identity_matches_the_package(server_json):
    owner, repo = arxiv_mcp.PROJECT_URL.removeprefix("https://github.com/").split("/")
    assert server_json["name"] == f"io.github.{owner}/{repo}"
    assert server_json["version"] == arxiv_mcp.__version__
    assert server_json["repository"] == {"url": arxiv_mcp.PROJECT_URL, "source": "github"}
    assert re.fullmatch(r"[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+", server_json["name"])
    assert 1 <= len(server_json["description"]) <= 100
    assert server_json["$schema"].startswith("https://static.modelcontextprotocol.io/schemas/")


def test_package_runs_the_console_script_from_git(package):
    script, target = _console_script()
    assert target == "arxiv_mcp.cli:main"
    assert {"registryType", "identifier", "transport"} <= package.keys()
    assert package["identifier"] == script and package["version"] == arxiv_mcp.__version__
    assert package["transport"] == {"type": "stdio"}
    assert package["runtimeHint"] == "uvx"
    assert package["runtimeArguments"][0]["name"] == "--from"
    assert package["runtimeArguments"][0]["value"] == f"git+{arxiv_mcp.PROJECT_URL}"


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
        if isinstance(actual, str):
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
    script, _ = _console_script()
    assert entry["command"] == "uvx"
    assert entry["args"] == ["--from", f"git+{arxiv_mcp.PROJECT_URL}", script]
    assert set(entry.get("env", {})) <= _env_names_read_by_code()


def test_registry_note_and_readme_show_the_example_command(server_json):
    entry = next(iter(_json(".mcp.json.example")["mcpServers"].values()))
    install = server_json["_meta"]["io.modelcontextprotocol.registry/publisher-provided"]["install"]
    assert install == [entry["command"], *entry["args"]]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", readme, re.S) if "mcpServers" in b]
    assert _json(".mcp.json.example") in blocks
