"""The README's Claude Code set-up, run with the official Claude Code CLI: `claude mcp add`
with the README's command line, then `claude mcp list` must report the server connected.

`claude mcp add/list` need no account and no network: the CLI (pinned, installed by
`.ci/inspector-setup`) runs in a throw-away HOME and config dir, so it never sees a real one.
Without the CLI the test skips on a developer machine but fails in CI (CI=true).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CLAUDE = ROOT / ".ci" / "node" / "node_modules" / ".bin" / "claude"
NODE_BIN = ROOT / ".ci" / "node" / "bin"
VENV_PLACEHOLDER = "/absolute/path/to/.venv"


def _readme_claude_add() -> list[str]:
    """The README's `claude mcp add` line for a pip-installed server, as argv."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = [ln for ln in re.findall(r"^claude mcp add .*$", readme, re.M) if VENV_PLACEHOLDER in ln]
    assert len(lines) == 1, lines
    return shlex.split(lines[0].split("  #")[0])


@pytest.fixture
def claude(fake, tmp_path):
    if not CLAUDE.exists():
        reason = "Claude Code CLI not installed: run .ci/inspector-setup"
        if os.environ.get("CI") == "true":
            pytest.fail(reason + " (CI must run this test)")
        pytest.skip(reason)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ARXIV_MCP_", "ANTHROPIC_", "CLAUDE_"))}
    env.update(
        fake.env(),
        HOME=str(tmp_path),
        CLAUDE_CONFIG_DIR=str(tmp_path / ".claude"),
        ARXIV_MCP_HOME=str(tmp_path / "arxiv"),
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        DISABLE_AUTOUPDATER="1",
        PATH=f"{NODE_BIN}{os.pathsep}{env.get('PATH', '')}",
    )

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(CLAUDE), *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)

    return run


def test_claude_mcp_list_reports_the_readme_server_connected(claude):
    argv = _readme_claude_add()
    venv = Path(sys.executable).parent.parent  # this test's own environment has arxiv-mcp installed
    argv = [a.replace(VENV_PLACEHOLDER, str(venv)) for a in argv]
    assert Path(argv[-1]).is_file(), f"{argv[-1]} missing: the README's path is not where pip puts the script"
    added = claude(*argv[1:])
    assert added.returncode == 0, added.stderr + added.stdout
    # A server that cannot start, as a control: the check must be able to fail.
    broken = claude("mcp", "add", "broken", "--", str(venv / "bin" / "no-such-command"))
    assert broken.returncode == 0, broken.stderr

    listed = claude("mcp", "list")

    assert listed.returncode == 0, listed.stderr + listed.stdout
    lines = {line.split(":", 1)[0]: line for line in listed.stdout.splitlines() if ":" in line}
    assert "Connected" in lines["arxiv"] and "Failed" not in lines["arxiv"], listed.stdout
    assert "Connected" not in lines["broken"], listed.stdout
