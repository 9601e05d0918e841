"""End-to-end: pull diagnostics, incremental sync, catalog status and search,
workspace symbols."""

from __future__ import annotations

import functools

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.conftest import SERVER_COMMAND
from tests.lsp import session
from tests.lsp.conftest import CAPABILITIES

URI = "file:///workspace/beyond.octoscript"
SERVICES = [
    {"name": f"service.n{index:02d}", "format": "text", "description": f"Service number {index}."}
    for index in range(40)
]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_COMMAND))
async def catalog_client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=CAPABILITIES,
            initialization_options={"octoscript": {"toolCatalog": SERVICES}},
        )
    )
    yield
    await lsp_client.shutdown_session()


open_document = functools.partial(session.open_document, uri=URI)


async def test_pull_diagnostics_report_syntax_errors(client: LanguageClient):
    open_document(client, "let v = true and false\n")
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=URI))
    )
    assert [(d.range.start.line, d.range.start.character) for d in report.items] == [(0, 13)]


async def test_incremental_change_is_applied_in_utf16(client: LanguageClient):
    open_document(client, 'let s = "😀"\nlet a = 1\n')
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    # Replace `1` on line 1 with `and`: the server must see the edit exactly there.
    change = types.TextDocumentContentChangePartial(
        range=types.Range(
            start=types.Position(line=1, character=8), end=types.Position(line=1, character=9)
        ),
        text="and",
    )
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=2),
            content_changes=[change],
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    published = client.diagnostics[URI]
    assert [(d.range.start.line, d.range.start.character) for d in published] == [(1, 8)]


async def test_catalog_status_reports_each_projection(catalog_client: LanguageClient):
    status = await catalog_client.protocol.send_request_async("octoscript/catalogStatus", {})
    tool = status.toolCatalog if hasattr(status, "toolCatalog") else status["toolCatalog"]
    get = (lambda obj, key: getattr(obj, key)) if hasattr(tool, "state") else dict.get
    assert get(tool, "state") == "valid"
    assert get(tool, "entries") == 40
    assert get(tool, "fingerprint").startswith("blake3:")
    modules = status.moduleCatalog if hasattr(status, "moduleCatalog") else status["moduleCatalog"]
    assert get(modules, "state") == "absent"


async def test_search_tools_is_bounded(catalog_client: LanguageClient):
    found = await catalog_client.protocol.send_request_async(
        "octoscript/searchTools", {"query": "service"}
    )
    tools = found.tools if hasattr(found, "tools") else found["tools"]
    truncated = found.truncated if hasattr(found, "truncated") else found["truncated"]
    assert len(tools) == 16
    assert truncated is True


async def test_search_tools_rejects_blank_query(catalog_client: LanguageClient):
    with pytest.raises(Exception) as failure:
        await catalog_client.protocol.send_request_async("octoscript/searchTools", {"query": " "})
    assert "-32602" in str(failure.value) or "query" in str(failure.value)


async def test_workspace_symbols_list_top_level_declarations(client: LanguageClient):
    open_document(client, "let alpha = 1\nfn beta() {\n    let inner = 2\n    inner\n}\n")
    open_document(client, "let alphabet = 2\n", uri="file:///workspace/other.octoscript")
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="ALPHA"))
    assert sorted(symbol.name for symbol in found) == ["alpha", "alphabet"]


async def test_advisory_diagnostic_follows_the_catalog(catalog_client: LanguageClient):
    open_document(catalog_client, 'use mod.tool\ntool.call("nothing.here", "x")\n')
    # Syntax diagnostics come first; the catalog advice follows in a second publish.
    for _ in range(2):
        await catalog_client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    published = catalog_client.diagnostics[URI]
    assert [(d.code, d.severity) for d in published] == [
        ("unlisted-tool", types.DiagnosticSeverity.Warning)
    ]
    catalog_client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"octoscript": {"toolCatalog": None}})
    )
    await catalog_client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(catalog_client.diagnostics[URI]) == []
