"""End-to-end: catalog-driven completion, hover and signature help over stdio."""

from __future__ import annotations

import copy

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.conftest import SERVER_COMMAND, strip_markers
from tests.features.test_catalog_assist import CONTEXT, MODULES, WORKFLOW
from tests.lsp.conftest import CAPABILITIES

URI = "file:///workspace/catalogs.octoscript"
TOOLS = [
    {"name": "text.echo", "format": "text", "description": "Returns text unchanged."},
    {"name": "text.summarize", "format": "text", "description": "Summarizes."},
    {"name": "files.read", "format": "json", "description": "Reads a file."},
]
SETTINGS = {
    "octoscript": {
        "toolCatalog": TOOLS,
        "moduleCatalog": MODULES,
        "workflowDataCatalog": WORKFLOW,
        "workflowDataStepContext": CONTEXT,
    }
}


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_COMMAND))
async def catalogs_client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=CAPABILITIES, initialization_options=copy.deepcopy(SETTINGS)
        )
    )
    yield
    await lsp_client.shutdown_session()


_versions: dict[str, int] = {}


def open_marked(client: LanguageClient, marked: str) -> dict[str, types.Position]:
    """Open (or reopen under a fresh URI) a document; return marker positions."""
    text, marks = strip_markers(marked)
    uri = f"{URI}#{len(_versions)}"
    _versions[uri] = 1
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="octoscript", version=1, text=text
            )
        )
    )
    positions = {}
    for name, offset in marks.items():
        before = text[:offset]
        line = before.count("\n")
        positions[name] = types.Position(line=line, character=len(before) - before.rfind("\n") - 1)
    positions["uri"] = uri  # type: ignore[assignment]
    return positions


async def complete(client: LanguageClient, marked: str, mark: str = "c") -> types.CompletionList:
    at = open_marked(client, marked)
    return await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=at["uri"]), position=at[mark]
        )
    )


async def hover_at(client: LanguageClient, marked: str, mark: str = "c") -> types.Hover | None:
    at = open_marked(client, marked)
    return await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=at["uri"]), position=at[mark]
        )
    )


async def signature_at(client: LanguageClient, marked: str) -> types.SignatureHelp | None:
    at = open_marked(client, marked)
    return await client.text_document_signature_help_async(
        types.SignatureHelpParams(
            text_document=types.TextDocumentIdentifier(uri=at["uri"]), position=at["c"]
        )
    )


def labels(answer: types.CompletionList) -> list[str]:
    return sorted(item.label for item in answer.items)


def kinds(answer: types.CompletionList) -> set[int]:
    return {int(item.kind) for item in answer.items}


# ---------------------------------------------------------------- tool names


async def test_tool_names_by_format(catalogs_client: LanguageClient):
    text = await complete(catalogs_client, 'use mod.tool\ntool.start("te@@c@@", "x")\n')
    assert labels(text) == ["text.echo", "text.summarize"] and kinds(text) == {12}
    edit = text.items[0].text_edit
    assert (edit.range.start.character, edit.range.end.character) == (12, 14)
    json_names = await complete(catalogs_client, 'use mod.tool\ntool.call_json("@@c@@", {})\n')
    assert labels(json_names) == ["files.read"]
    assert json_names.items[0].documentation.kind == "plaintext"


async def test_discarded_tool_catalog_is_empty_and_incomplete(catalogs_client: LanguageClient):
    catalogs_client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(
            settings={"octoscript": {"toolCatalog": [TOOLS[0], TOOLS[0]]}}
        )
    )
    answer = await complete(catalogs_client, 'use mod.tool\ntool.call("@@c@@")\n')
    assert (list(answer.items), answer.is_incomplete) == ([], True)


# ---------------------------------------------------------------- modules


async def test_module_path_completion(catalogs_client: LanguageClient):
    answer = await complete(catalogs_client, "use mod.@@c@@\n")
    assert labels(answer) == ["app", "arithmetic", "std"] and kinds(answer) == {9}


async def test_module_member_completion(catalogs_client: LanguageClient):
    answer = await complete(catalogs_client, "use mod.app.weather\nweather.@@c@@\n")
    assert labels(answer) == ["current", "history", "ping"] and kinds(answer) == {5}


async def test_leaf_hover(catalogs_client: LanguageClient):
    found = await hover_at(catalogs_client, "use mod.app.weather\nweather.cur@@c@@rent\n")
    assert found.contents.kind == "plaintext" and "mod.app.weather.current" in found.contents.value


async def test_leaf_signature_help(catalogs_client: LanguageClient):
    found = await signature_at(catalogs_client, "use mod.app.weather\nweather.current(@@c@@)\n")
    assert found.signatures[0].label == "weather.current(input) -> promise<JSON value>"
    assert found.active_parameter == 0
    assert await signature_at(catalogs_client, "use mod.app.weather\nweather.ping(@@c@@)\n") is None


async def test_input_key_completion_and_hover(catalogs_client: LanguageClient):
    answer = await complete(
        catalogs_client, 'use mod.app.weather\nweather.current({location: "x", @@c@@})\n'
    )
    assert labels(answer) == ["filters", "units"] and kinds(answer) == {5}
    found = await hover_at(
        catalogs_client, 'use mod.app.weather\nweather.current({loca@@c@@tion: "x"})\n'
    )
    assert (found.range.start.character, found.range.end.character) == (17, 25)


async def test_output_field_completion(catalogs_client: LanguageClient):
    source = 'use mod.app.weather\nlet r = weather.current({location: "x"}).await()\nr.@@c@@\n'
    answer = await complete(catalogs_client, source)
    assert labels(answer) == ["station", "summary"] and kinds(answer) == {5}


# ---------------------------------------------------------------- workflow data


async def test_workflow_completion_and_hover(catalogs_client: LanguageClient):
    outputs = await complete(catalogs_client, "workflow.outputs.@@c@@\n")
    assert labels(outputs) == ["prepare"] and kinds(outputs) == {5}
    found = await hover_at(catalogs_client, "workflow.input.le@@c@@ft\n")
    assert "Left operand." in found.contents.value


# ---------------------------------------------------------------- configuration


async def test_did_change_configuration_replaces_catalogs(catalogs_client: LanguageClient):
    catalogs_client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(
            settings={
                "octoscript": {
                    "moduleCatalog": [{"path": "mod.other"}],
                    "workflowDataCatalog": None,
                    "workflowDataStepContext": None,
                }
            }
        )
    )
    paths = await complete(catalogs_client, "use mod.@@c@@\n")
    assert labels(paths) == ["other", "std"] and paths.is_incomplete is False
    cleared = await complete(catalogs_client, "workflow.i@@c@@\n")
    assert (list(cleared.items), cleared.is_incomplete) == ([], True)
    tools = await complete(catalogs_client, 'use mod.tool\ntool.call("@@c@@")\n')
    assert labels(tools) == ["text.echo", "text.summarize"]


async def test_built_in_member_past_an_error_with_a_discarded_catalog(
    catalogs_client: LanguageClient,
):
    """`use mod.tool\ntool.|.` answers an empty, complete list (as the reference)."""
    catalogs_client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(
            settings={"octoscript": {"moduleCatalog": [{"path": "mod.a"}, {"path": "mod.a"}]}}
        )
    )
    answer = await complete(catalogs_client, "use mod.tool\ntool.@@c@@.")
    assert (list(answer.items), answer.is_incomplete) == ([], False)
    aliased = await complete(catalogs_client, "use mod.tool\nlet t = tool\nt.@@c@@.")
    assert (list(aliased.items), aliased.is_incomplete) == ([], True)
