"""End-to-end: the `octoscript/toolCalls` request and tool-call code lenses."""

from __future__ import annotations

import asyncio
import functools
import json
import re
from pathlib import Path

import attrs
import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.conftest import SERVER_COMMAND
from tests.lsp import session
from tests.lsp.conftest import CAPABILITIES

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


# ------------------------------------------------------------- the lens command

REPO = Path(__file__).resolve().parents[2]
EXTENSION = REPO / "editors" / "vscode"
MODULES = [
    {"path": "mod.app"},
    {"path": "mod.app.weather"},
    {
        "path": "mod.app.weather.current",
        "callMode": "synchronous",
        "callShape": "single_json",
        "inputFields": [{"name": "city", "type": "string", "required": True}],
    },
]
BOTH = {"octoscript": {**CATALOG["octoscript"], "moduleCatalog": MODULES}}


async def run_lens(client: LanguageClient, lens: types.CodeLens) -> dict:
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=lens.command.command, arguments=lens.command.arguments)
    )
    return plain(result)


async def test_each_lens_command_is_registered_by_the_server_or_the_extension(
    refreshing_client: LanguageClient,
):
    """The server's executeCommandProvider and the extension's sources, read together:
    a lens command is the server's (vscode-languageclient then registers it in
    VS Code, so the extension must not) or the extension's, never neither."""
    client = refreshing_client
    open_document(client, SCRIPT)
    commands = {lens.command.command for lens in await lenses(client)}
    assert commands
    served = set(client.initialized.capabilities.execute_command_provider.commands)
    sources = "\n".join(path.read_text() for path in sorted((EXTENSION / "src").glob("*.ts")))
    registered = set(re.findall(r'registerCommand\(\s*"([^"]+)"', sources))
    manifest = json.loads((EXTENSION / "package.json").read_text())
    contributed = {entry["command"] for entry in manifest["contributes"]["commands"]}
    for command in commands:
        assert (command in served) != (command in registered), command
        if command in served:
            # Declared by the extension, it would be run from the palette without a lens.
            assert command not in contributed, command


async def test_lens_command_reveals_the_catalog_entry(client: LanguageClient):
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=BOTH))
    open_document(client, SCRIPT)
    found = await lenses(client)
    assert plain(found[0].command.arguments) == [
        {"kind": "tool", "method": "call", "label": "text.echo"}
    ]
    listed = await run_lens(client, found[0])
    assert listed == {
        "label": "text.echo",
        "catalog": "listed",
        "method": "call",
        "entry": {"name": "text.echo", "format": "text", "description": "Echo."},
        "message": "tool.call: text.echo (text tool): Echo.",
    }
    for _ in range(50):  # the message is sent before the answer; it may be read after
        if client.messages:
            break
        await asyncio.sleep(0.02)
    assert client.messages[-1].message == "tool.call: text.echo (text tool): Echo."
    assert client.messages[-1].type == types.MessageType.Info
    mismatch = await run_lens(client, found[2])
    assert (mismatch["catalog"], mismatch["method"]) == ("format-mismatch", "call_json")
    hostile = await run_lens(client, found[4])
    assert hostile["label"] == "this tool" and hostile["entry"] is None
    assert "Hostile" not in json.dumps(hostile) and "Hostile" not in str(found[4].command)
    assert (await run_lens(client, found[6]))["catalog"] == "unknown"  # dynamic
    fixed = await run_lens(client, found[1])
    assert (fixed["label"], fixed["catalog"]) == ("mod.tool.call", "built-in")
    weather = await run_lens(client, found[-1])
    assert weather["catalog"] == "listed"
    assert weather["entry"]["path"] == "mod.app.weather.current"
    assert weather["message"] == "host module mod.app.weather.current, synchronous; input: city"


async def test_lens_command_refuses_other_arguments(client: LanguageClient):
    for arguments in [[], ["file:///workspace/review.octoscript"], [{"kind": "tool"}]]:
        with pytest.raises(JsonRpcException, match="showToolCall"):
            await client.workspace_execute_command_async(
                types.ExecuteCommandParams(command="octoscript.showToolCall", arguments=arguments)
            )


def count_lens_refreshes(client: LanguageClient) -> list[None]:
    """Answer `workspace/codeLens/refresh` on the client, noting each one."""
    seen: list[None] = []

    @client.feature(types.WORKSPACE_CODE_LENS_REFRESH)
    def refreshed(params: None) -> None:
        seen.append(None)

    return seen


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_COMMAND))
async def refreshing_client(lsp_client: LanguageClient):
    workspace = attrs.evolve(
        CAPABILITIES.workspace, code_lens=types.CodeLensWorkspaceClientCapabilities(True)
    )
    capabilities = attrs.evolve(CAPABILITIES, workspace=workspace)
    lsp_client.refreshes = count_lens_refreshes(lsp_client)
    lsp_client.initialized = await lsp_client.initialize_session(
        types.InitializeParams(capabilities=capabilities)
    )
    yield
    await lsp_client.shutdown_session()


async def test_code_lenses_are_refreshed_when_catalogs_change(refreshing_client: LanguageClient):
    client = refreshing_client
    open_document(client, SCRIPT)
    titles = [lens.command.title for lens in await lenses(client)]
    assert titles[0] == "tool.call: text.echo (catalog: unknown)"
    before = len(client.refreshes)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=CATALOG))
    for _ in range(50):
        if len(client.refreshes) > before:
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.2)
    assert len(client.refreshes) == before + 1
    titles = [lens.command.title for lens in await lenses(client)]
    assert titles[0] == "tool.call: text.echo (catalog: listed)"


async def test_no_lens_refresh_for_a_client_without_support(client: LanguageClient):
    refreshes = count_lens_refreshes(client)
    open_document(client, SCRIPT)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=CATALOG))
    await lenses(client)
    await asyncio.sleep(0.3)
    assert refreshes == []
