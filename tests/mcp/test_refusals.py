"""Refusals a model can act on: each says why, and the server answers the next call."""

from __future__ import annotations

import pytest
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

from .helpers import TOOLS, call, connected, refused, settings_file, workspace, write_json


async def test_no_catalog_configured_is_refused_not_zero_hits():
    async with connected(workspace()) as client:
        for tool, arguments in (
            ("search_tools", {"query": "echo"}),
            ("describe_tools", {"ids": ["x"]}),
        ):
            message = await refused(client, tool, **arguments)
            assert "no catalog is configured" in message and "--settings FILE" in message
        # The checker still answers, without catalog advice.
        answer = await call(client, "check_script", source='let r = tool.call("nope", "x")\n')
        assert answer["catalogs"] == [] and answer["diagnostics"] == []


async def test_a_discarded_catalog_is_refused_with_its_reason(tmp_path):
    settings = settings_file(tmp_path, tools=[{"name": "text.echo", "format": "yaml"}])
    async with connected(workspace(settings)) as client:
        message = await refused(client, "search_tools", query="echo")
        assert message.startswith(
            "Error executing tool search_tools: the toolCatalog was discarded"
        )
        assert "toolCatalog[0]" in message
        assert "toolCatalog was discarded" in await refused(
            client, "describe_tools", ids=["text.echo"]
        )


async def test_a_null_catalog_counts_as_discarded(tmp_path):
    settings = write_json(tmp_path / "settings.json", {"toolCatalog": None})
    async with connected(workspace(settings)) as client:
        assert "toolCatalog was discarded" in await refused(client, "search_tools", query="x")


async def test_a_catalog_file_that_cannot_be_read_is_refused(tmp_path):
    settings = write_json(tmp_path / "settings.json", {"catalogFiles": ["missing.json"]})
    async with connected(workspace(settings)) as client:
        message = await refused(client, "search_tools", query="echo")
    assert "gives no tool or module catalog" in message and "missing.json" not in message
    assert "No such file" in message or "not" in message


async def test_unknown_section_suggests_one():
    async with connected(workspace()) as client:
        listed = await call(client, "language_reference")
        name = listed["sections"][0]
        message = await refused(client, "language_reference", section=name[:-1] + "q")
    assert f"did you mean `{name}`?" in message and ", ".join(listed["sections"]) in message


async def test_invalid_source_is_not_formatted_and_the_first_error_is_named():
    async with connected(workspace()) as client:
        message = await refused(client, "format_script", source="let a = 1\nlet = 2\nlet = 3\n")
    assert "line 2, column 5: expected an identifier after `let` [expected-identifier]" in message


async def test_the_server_stays_up_after_bad_input(tmp_path):
    async with connected(workspace(settings_file(tmp_path, tools=TOOLS))) as client:
        await refused(client, "search_tools", query="")
        await refused(client, "describe_tools", ids="not a list")
        await refused(client, "check_script")
        await refused(client, "check_script", source=123)
        await refused(client, "no_such_tool")
        assert (await call(client, "search_tools", query="echo"))["hits"][0]["id"] == "text.echo"


async def test_an_unknown_reference_resource_is_an_invalid_params_error():
    async with connected(workspace()) as client:
        with pytest.raises(MCPError) as raised:
            await client.read_resource("octoscript://reference/no-such-section")
        assert raised.value.error.code == INVALID_PARAMS
        # and the server answers the next request
        assert (await call(client, "language_reference"))["sections"]
