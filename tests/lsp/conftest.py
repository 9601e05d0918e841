"""pytest-lsp client fixture running the real server over stdio."""

from __future__ import annotations

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.conftest import SERVER_COMMAND

CAPABILITIES = types.ClientCapabilities(
    workspace=types.WorkspaceClientCapabilities(
        workspace_edit=types.WorkspaceEditClientCapabilities(document_changes=True),
        configuration=False,
    ),
    text_document=types.TextDocumentClientCapabilities(
        completion=types.CompletionClientCapabilities(
            completion_item=types.ClientCompletionItemOptions(
                documentation_format=[types.MarkupKind.PlainText, types.MarkupKind.Markdown]
            )
        ),
        signature_help=types.SignatureHelpClientCapabilities(
            signature_information=types.ClientSignatureInformationOptions(
                documentation_format=[types.MarkupKind.PlainText, types.MarkupKind.Markdown]
            )
        ),
        hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.PlainText]),
        rename=types.RenameClientCapabilities(prepare_support=True),
        publish_diagnostics=types.PublishDiagnosticsClientCapabilities(version_support=True),
    ),
)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_COMMAND))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=CAPABILITIES, initialization_options=None)
    )
    yield
    await lsp_client.shutdown_session()
