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
    # The tool catalog discarded, no module catalog: nothing valid to answer from.
    settings = settings_file(
        tmp_path, tools=[{"name": "text.echo", "format": "yaml"}], modules=None
    )
    async with connected(workspace(settings)) as client:
        message = await refused(client, "search_tools", query="echo")
        assert message == (
            "Error executing tool search_tools: the toolCatalog was discarded "
            "(toolCatalog[0].format is not a supported value), so no tool or module is known; "
            "fix the catalog (catalog_status says where it came from)"
        )
        assert "toolCatalog was discarded" in await refused(
            client, "describe_tools", ids=["text.echo"]
        )


async def test_both_catalogs_discarded_are_both_named(tmp_path):
    settings = settings_file(tmp_path, tools=[{"name": "A"}], modules=[{"path": "x"}])
    async with connected(workspace(settings)) as client:
        message = await refused(client, "search_tools", query="echo")
    assert "the toolCatalog was discarded (" in message
    assert "; the moduleCatalog was discarded (" in message


DISCARDED = {"name": "toolCatalog", "state": "discarded"}
TOOL_REASON = "toolCatalog[0].format is not a supported value"


async def test_the_valid_catalog_answers_and_names_the_discarded_one(tmp_path):
    settings = settings_file(tmp_path, tools=[{"name": "text.echo", "format": "yaml"}])
    async with connected(workspace(settings)) as client:
        found = await call(client, "search_tools", query="weather")
        assert [hit["id"] for hit in found["hits"]] == ["mod.app.weather.current"]
        assert found["unavailable"] == [{**DISCARDED, "reason": TOOL_REASON}]
        assert found["fingerprints"]["toolCatalog"] is None
        # No hit is never "0 hits" alone: the refused catalog is named with it.
        none = await call(client, "search_tools", query="echo")
        assert none["hits"] == [] and none["unavailable"] == found["unavailable"]
        described = await call(
            client,
            "describe_tools",
            ids=["mod.app.weather.current", "text.echo", "mod.app.weather.curent", "NOT A NAME"],
        )
    assert [entry["id"] for entry in described["found"]] == ["mod.app.weather.current"]
    # A name the refused tool catalog might list is unresolved, not "not found";
    # one no tool or module may be called is not found.
    assert described["unresolved"] == [
        {"id": "text.echo", "did_you_mean": []},
        {"id": "mod.app.weather.curent", "did_you_mean": ["mod.app.weather.current"]},
    ]
    assert described["not_found"] == [{"id": "NOT A NAME", "did_you_mean": []}]
    assert described["unavailable"] == [{**DISCARDED, "reason": TOOL_REASON}]


async def test_a_discarded_module_catalog_leaves_tool_ids_resolved(tmp_path):
    settings = settings_file(tmp_path, modules=[{"path": "mod.tool.x"}])
    async with connected(workspace(settings)) as client:
        found = await call(client, "search_tools", query="echo")
        assert [hit["id"] for hit in found["hits"]] == ["text.echo"]
        assert [item["name"] for item in found["unavailable"]] == ["moduleCatalog"]
        described = await call(client, "describe_tools", ids=["text.ecko", "mod.app.weather"])
    # `text.ecko` is no module path, so the valid tool catalog settles it.
    assert described["not_found"] == [{"id": "text.ecko", "did_you_mean": ["text.echo"]}]
    assert described["unresolved"] == [{"id": "mod.app.weather", "did_you_mean": []}]


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


async def test_an_unread_catalog_file_is_named_and_leaves_ids_unresolved(tmp_path):
    settings_file(tmp_path)
    (tmp_path / "more.json").mkdir()
    settings = write_json(tmp_path / "both.json", {"catalogFiles": ["catalog.json", "more.json"]})
    async with connected(workspace(settings)) as client:
        found = await call(client, "search_tools", query="echo")
        described = await call(client, "describe_tools", ids=["text.echo", "text.ecko"])
    unread = [{"path": str(tmp_path / "more.json"), "reason": "not a regular file (a directory)"}]
    assert [hit["id"] for hit in found["hits"]] == ["text.echo"]
    assert found["unavailable"] == [] and found["unread_files"] == unread
    # What the unread file holds is unknown, so no id is "not found".
    assert [entry["id"] for entry in described["found"]] == ["text.echo"]
    assert described["not_found"] == []
    assert described["unresolved"] == [{"id": "text.ecko", "did_you_mean": ["text.echo"]}]
    assert described["unread_files"] == unread
