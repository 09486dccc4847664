"""Found black-box, through the MCP client: arguments an agent (or a hostile caller) types
into the newer tools get one clear line, never "Error executing tool"."""

from __future__ import annotations

import pytest


def _said(result) -> str:
    return result.content[0].text if result.content else ""


@pytest.mark.anyio
@pytest.mark.parametrize("argument", ["from_version", "to_version"])
@pytest.mark.parametrize("value", [10_000, 2**70])
async def test_compare_versions_refuses_a_huge_version_in_one_line(fake, connect, argument, value):
    async with connect() as client:
        result = await client.call_tool("compare_versions", {"paper_id": "2401.00001", argument: value})
    text = _said(result)
    assert result.is_error
    assert "Error executing tool" not in text
    assert text.startswith(f"{argument} must be a whole number from 1 to ")
    assert "\n" not in text.strip()
