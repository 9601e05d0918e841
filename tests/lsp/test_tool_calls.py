"""End-to-end: the `octoscript/toolCalls` request and tool-call code lenses."""

from __future__ import annotations

import functools
import json

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp import session

URI = "file:///workspace/review.octoscript"

SCRIPT = (
    "// café ☕ 😀\n"
    "use mod.tool\n"
    "use mod.app.weather\n"
    "let forecast = weather\n"
    'let echoed = tool.call("text.echo", "hi")\n'
    'tool.call_json("text.echo", "{}")\n'
    'tool.start("Hostile Name!", 1)\n'
    "tool.start_json(name, {})\n"
    'forecast.current({city: "Zürich"}).await()\n'
)

CATALOG = {
    "octoscript": {"toolCatalog": [{"name": "text.echo", "format": "text", "description": "Echo."}]}
}


open_document = functools.partial(session.open_document, uri=URI)


plain = session.plain


async def tool_calls(client: LanguageClient, uri: str = URI) -> dict:
    result = await client.protocol.send_request_async(
        "octoscript/toolCalls", {"textDocument": {"uri": uri}}
    )
    return plain(result)


async def lenses(client: LanguageClient, uri: str = URI) -> list[types.CodeLens]:
    return await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )


async def test_tool_calls_request_matches_the_cli_shape(client: LanguageClient):
    open_document(client, SCRIPT)
    result = await tool_calls(client)
    assert result["uri"] == URI and result["valid"] is True
    assert result["diagnostics"] == [] and result["diagnostics_truncated"] is False
    calls = result["tool_calls"]
    assert [call["kind"] for call in calls] == ["call", "call_json", "start", "start_json"]
    assert [call["catalog"] for call in calls] == ["unknown"] * 4
    first = calls[0]
    data = SCRIPT.encode("utf-8")
    callee = first["callee"]
    assert data[callee["start_byte"] : callee["end_byte"]] == b"tool.call"
    assert (callee["line"], callee["column"]) == (5, 14)
    assert first["name"]["value"] == "text.echo" and first["label"] == "text.echo"
    assert calls[2]["label"].startswith("blake3:")
    assert calls[3]["name"] == {"kind": "dynamic"} and calls[3]["label"] == "dynamic"
    methods = [(item["module_path"], item["method"]) for item in result["imported_module_calls"]]
    assert methods[-1] == (["mod", "app", "weather"], "current")
    assert result["tool_calls_truncated"] is False
    assert result["imported_module_calls_truncated"] is False
    json.dumps(result)


async def test_tool_calls_request_uses_the_tool_catalog(client: LanguageClient):
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=CATALOG))
    open_document(client, SCRIPT)
    result = await tool_calls(client)
    statuses = [call["catalog"] for call in result["tool_calls"]]
    assert statuses == ["listed", "format-mismatch", "unlisted", "unknown"]


async def test_tool_calls_request_on_invalid_source(client: LanguageClient):
    open_document(client, 'tool.call("a")\nvar x = 1\n')
    result = await tool_calls(client)
    assert result["valid"] is False and result["diagnostics"]
    assert result["tool_calls"] == [] and result["imported_module_calls"] == []


async def test_tool_calls_request_needs_an_open_document(client: LanguageClient):
    with pytest.raises(Exception) as failure:
        await tool_calls(client, "file:///workspace/closed.octoscript")
    assert "not open" in str(failure.value)


async def test_code_lenses_show_labels_and_catalog_status(client: LanguageClient):
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=CATALOG))
    open_document(client, SCRIPT)
    found = await lenses(client)
    titles = [lens.command.title for lens in found]
    assert titles == [
        "tool.call: text.echo (catalog: listed)",
        "module call: mod.tool.call",
        "tool.call_json: text.echo (catalog: format-mismatch)",
        "module call: mod.tool.call_json",
        titles[4],
        "module call: mod.tool.start",
        "tool.start_json: dynamic (catalog: unknown)",
        "module call: mod.tool.start_json",
        "module call: mod.app.weather.current",
    ]
    assert titles[4].startswith("tool.start: blake3:") and "Hostile" not in titles[4]
    assert {lens.command.command for lens in found} == {"octoscript.showToolCall"}
    # Ranges are UTF-16 and cover the callee (`tool.call` on line 4, after `let echoed = `).
    assert found[0].range == types.Range(
        start=types.Position(line=4, character=13), end=types.Position(line=4, character=22)
    )
    assert found[-1].range.start == types.Position(line=8, character=0)
    assert found[-1].range.end == types.Position(line=8, character=len("forecast.current"))


async def test_code_lenses_are_empty_for_invalid_source(client: LanguageClient):
    open_document(client, 'tool.call("a")\nvar x = 1\n')
    assert list(await lenses(client)) == []
