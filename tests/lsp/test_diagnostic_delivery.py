"""End-to-end: each diagnostic reaches a client once, pushed or pulled.

A client that declares `textDocument.diagnostic` keeps pulled reports apart
from pushed ones (VS Code, Neovim 0.10+), so the server must not push to it;
catalog advice and catalog changes reach it through
`workspace/diagnostic/refresh` when it supports that, else in the pull itself.
"""

from __future__ import annotations

import asyncio
import functools

import attrs
import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

from octoscript_lsp.server import ADVISORY_DELAY_SECONDS
from tests.conftest import SERVER_COMMAND
from tests.lsp import session
from tests.lsp.conftest import CAPABILITIES

URI = "file:///workspace/delivery.octoscript"
TOOLS = [{"name": "text.echo", "format": "text", "description": "Echo."}]
UNLISTED = 'use mod.tool\ntool.call("nothing.here", "x")\n'
# Longer than the advice delay, with room for a slow machine.
SETTLE_SECONDS = ADVISORY_DELAY_SECONDS + 0.7


def pulling_capabilities(refresh: bool) -> types.ClientCapabilities:
    text_document = attrs.evolve(
        CAPABILITIES.text_document,
        diagnostic=types.DiagnosticClientCapabilities(related_document_support=False),
    )
    workspace = attrs.evolve(
        CAPABILITIES.workspace,
        diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=refresh),
    )
    return attrs.evolve(CAPABILITIES, text_document=text_document, workspace=workspace)


async def start(client: LanguageClient, capabilities: types.ClientCapabilities) -> None:
    """Initialize with a tool catalog (pytest-lsp counts refresh requests)."""
    await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities, initialization_options={"octoscript": {"toolCatalog": TOOLS}}
        )
    )


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_COMMAND))
async def refreshing_client(lsp_client: LanguageClient):
    await start(lsp_client, pulling_capabilities(refresh=True))
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_COMMAND))
async def plain_pulling_client(lsp_client: LanguageClient):
    await start(lsp_client, pulling_capabilities(refresh=False))
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_COMMAND))
async def pushed_client(lsp_client: LanguageClient):
    await start(lsp_client, CAPABILITIES)
    yield
    await lsp_client.shutdown_session()


open_document = functools.partial(session.open_document, uri=URI)


def change_document(client: LanguageClient, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def pull(client: LanguageClient) -> list[tuple[int, int, str | None]]:
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=URI))
    )
    return [(d.range.start.line, d.range.start.character, d.code) for d in report.items]


def configure(client: LanguageClient, tools: list | None) -> None:
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"octoscript": {"toolCatalog": tools}})
    )


async def test_pulling_client_gets_no_pushed_diagnostics(refreshing_client: LanguageClient):
    open_document(refreshing_client, "let v = true and false\n")
    assert await pull(refreshing_client) == [(0, 13, "missing-statement-end")]
    change_document(refreshing_client, "let fine = 1\nlet v = true and false\n", version=2)
    await asyncio.sleep(SETTLE_SECONDS)
    assert await pull(refreshing_client) == [(1, 13, "missing-statement-end")]
    refreshing_client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=URI))
    )
    await asyncio.sleep(0.2)
    assert refreshing_client.diagnostics == {}
    assert (
        refreshing_client.diagnostic_refresh_count == 0
    )  # no advice, no catalog change: nothing to refresh


async def test_advice_arrives_through_a_refresh(refreshing_client: LanguageClient):
    open_document(refreshing_client, UNLISTED)
    await asyncio.sleep(SETTLE_SECONDS)
    assert refreshing_client.diagnostic_refresh_count == 1
    assert await pull(refreshing_client) == [(1, 10, "unlisted-tool")]
    # The catalog now lists the tool: the advice goes, announced by a refresh.
    configure(refreshing_client, [{"name": "nothing.here", "format": "text"}])
    await asyncio.sleep(SETTLE_SECONDS)
    assert refreshing_client.diagnostic_refresh_count == 2
    assert await pull(refreshing_client) == []
    # Clearing a catalog that advised nothing changes no result: no refresh.
    configure(refreshing_client, None)
    await asyncio.sleep(SETTLE_SECONDS)
    assert refreshing_client.diagnostic_refresh_count == 2
    assert refreshing_client.diagnostics == {}


async def test_client_without_refresh_gets_advice_in_the_pull(
    plain_pulling_client: LanguageClient,
):
    open_document(plain_pulling_client, UNLISTED)
    assert await pull(plain_pulling_client) == [(1, 10, "unlisted-tool")]
    configure(plain_pulling_client, None)
    await asyncio.sleep(SETTLE_SECONDS)
    assert await pull(plain_pulling_client) == []
    assert plain_pulling_client.diagnostic_refresh_count == 0
    assert plain_pulling_client.diagnostics == {}


async def test_pushing_client_gets_syntax_then_advice_and_no_refresh(
    pushed_client: LanguageClient,
):
    open_document(pushed_client, UNLISTED)
    await pushed_client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(pushed_client.diagnostics[URI]) == []
    await pushed_client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert [d.code for d in pushed_client.diagnostics[URI]] == ["unlisted-tool"]
    configure(pushed_client, None)
    await pushed_client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(pushed_client.diagnostics[URI]) == []
    assert pushed_client.diagnostic_refresh_count == 0


async def test_one_refresh_for_a_catalog_change_across_documents(
    refreshing_client: LanguageClient,
):
    uris = [f"file:///workspace/many{index}.octoscript" for index in range(3)]
    for uri in uris:
        open_document(refreshing_client, UNLISTED, uri=uri)
    await asyncio.sleep(SETTLE_SECONDS)
    opened = refreshing_client.diagnostic_refresh_count
    assert opened >= 1
    configure(refreshing_client, [{"name": "nothing.here", "format": "text"}])
    await asyncio.sleep(SETTLE_SECONDS)
    assert refreshing_client.diagnostic_refresh_count == opened + 1


BUSY_URI = "file:///workspace/busy.octoscript"
# Long enough that computing its symbols outlasts reading the next messages.
BUSY_TEXT = "fn f(a, b) {\n    let c = [a, b, {x: a}]\n    return c\n}\n" * 1500


def keep_busy(client: LanguageClient) -> asyncio.Future:
    """A slow request on another document: what follows it is read ahead meanwhile."""
    session.open_document(client, BUSY_TEXT, uri=BUSY_URI)
    return asyncio.wrap_future(
        client.text_document_semantic_tokens_full(
            types.SemanticTokensParams(text_document=types.TextDocumentIdentifier(uri=BUSY_URI))
        )
    )


async def test_a_superseded_pull_is_server_cancelled_with_retrigger(
    plain_pulling_client: LanguageClient,
):
    """A pull that a waiting didChange makes stale: ServerCancelled, retrigger.

    ContentModified would make vscode-languageclient show an empty report
    for that pull, and the Problems entries would flicker while typing.
    """
    client = plain_pulling_client
    broken = "let a = (\n"
    open_document(client, broken)
    busy = keep_busy(client)
    # Sent now (the `_async` methods would send only when awaited).
    pending = asyncio.wrap_future(
        client.text_document_diagnostic(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=URI))
        )
    )
    change_document(client, broken + "let b = (\n", version=2)
    with pytest.raises(JsonRpcException) as refused:
        await pending
    assert refused.value.code == types.LSPErrorCodes.ServerCancelled == -32802
    assert refused.value.data == {"retriggerRequest": True}
    assert (await busy).data
    # The pull the client sends again sees the new text.
    assert {line for line, _, _ in await pull(client)} == {0, 1}


async def test_other_superseded_requests_stay_content_modified(
    plain_pulling_client: LanguageClient,
):
    client = plain_pulling_client
    open_document(client, "let v = 1\n")
    busy = keep_busy(client)
    pending = asyncio.wrap_future(
        client.text_document_document_symbol(
            types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=URI))
        )
    )
    change_document(client, "let w = 2\n", version=2)
    with pytest.raises(JsonRpcException) as refused:
        await pending
    assert refused.value.code == -32801
    assert (await busy).data
