"""End-to-end: diagnostics, formatting and document symbols over stdio."""

from __future__ import annotations

import functools

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp import session

URI = "file:///workspace/example.octoscript"


open_document = functools.partial(session.open_document, uri=URI)


async def test_publishes_syntax_diagnostics_with_version(client: LanguageClient):
    open_document(client, "let v = true and false\n", version=3)
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    published = client.diagnostics[URI]
    assert [(d.range.start.line, d.range.start.character) for d in published] == [(0, 13)]
    assert published[0].source == "octoscript"
    assert published[0].severity == types.DiagnosticSeverity.Error


async def test_valid_change_clears_diagnostics(client: LanguageClient):
    open_document(client, "let = 1\n")
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert client.diagnostics[URI]
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text="let a = 1\n")],
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(client.diagnostics[URI]) == []


async def test_formatting_returns_canonical_text(client: LanguageClient):
    open_document(client, "fn f(a,b){\nreturn a+b\n}\n")
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            options=types.FormattingOptions(tab_size=4, insert_spaces=True),
        )
    )
    assert [edit.new_text for edit in edits] == ["fn f(a, b) {\n    return a + b\n}\n"]


async def test_formatting_invalid_source_is_request_failed(client: LanguageClient):
    open_document(client, "let = 1\n")
    with pytest.raises(Exception) as failure:
        await client.text_document_formatting_async(
            types.DocumentFormattingParams(
                text_document=types.TextDocumentIdentifier(uri=URI),
                options=types.FormattingOptions(tab_size=4, insert_spaces=True),
            )
        )
    assert "-32803" in str(failure.value) or "syntax" in str(failure.value)


async def test_document_symbols_are_top_level_only(client: LanguageClient):
    open_document(client, "let a = 1\nfn f(x) {\n    let inner = x\n    return inner\n}\n")
    found = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=URI))
    )
    assert [(s.name, s.kind) for s in found] == [
        ("a", types.SymbolKind.Variable),
        ("f", types.SymbolKind.Function),
    ]
    assert found[1].range.end == types.Position(line=4, character=1)
