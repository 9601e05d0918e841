"""End-to-end: lexical navigation, rename, identifier completion, named signatures."""

from __future__ import annotations

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

from octoscript_lsp.limits import MAX_LEXICAL_SYMBOL_OCCURRENCES
from tests.conftest import SERVER_COMMAND, strip_markers

URI = "file:///workspace/navigation.octoscript"
DOC = types.TextDocumentIdentifier(uri=URI)

PROGRAM = (
    "fn @@fdef@@bump(@@pdef@@value) {\n"
    "  return @@pref@@value + 1\n"
    "}\n"
    "let total = @@call@@bump(1)\n"
    "total = bump(@@arg@@total@@tend@@)\n"
)


def open_marked(client: LanguageClient, marked: str, version: int = 1) -> dict[str, types.Position]:
    text, marks = strip_markers(marked)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=URI, language_id="octoscript", version=version, text=text
            )
        )
    )
    positions = {}
    for name, offset in marks.items():
        line = text.count("\n", 0, offset)
        column = offset - (text.rfind("\n", 0, offset) + 1)
        positions[name] = types.Position(line=line, character=column)
    return positions


def span(value: types.Range) -> tuple[int, int, int, int]:
    return (value.start.line, value.start.character, value.end.line, value.end.character)


async def test_definition_references_and_highlights(client: LanguageClient):
    at = open_marked(client, PROGRAM)
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=DOC, position=at["call"])
    )
    assert isinstance(found, types.Location)
    assert (found.uri, span(found.range)) == (URI, (0, 3, 0, 7))

    for include, expected in (
        (True, [(0, 3, 0, 7), (3, 12, 3, 16), (4, 8, 4, 12)]),
        (False, [(3, 12, 3, 16), (4, 8, 4, 12)]),
    ):
        found = await client.text_document_references_async(
            types.ReferenceParams(
                text_document=DOC,
                position=at["call"],
                context=types.ReferenceContext(include_declaration=include),
            )
        )
        assert [span(location.range) for location in found] == expected

    found = await client.text_document_document_highlight_async(
        types.DocumentHighlightParams(text_document=DOC, position=at["pref"])
    )
    assert [(span(h.range), h.kind) for h in found] == [
        ((0, 8, 0, 13), types.DocumentHighlightKind.Text),
        ((1, 9, 1, 14), types.DocumentHighlightKind.Text),
    ]

    missing = await client.text_document_definition_async(
        types.DefinitionParams(text_document=DOC, position=at["tend"])
    )
    assert missing is None


async def test_binding_hover(client: LanguageClient):
    at = open_marked(client, PROGRAM)
    found = await client.text_document_hover_async(
        types.HoverParams(text_document=DOC, position=at["arg"])
    )
    assert found.contents.kind == types.MarkupKind.PlainText
    assert "binding" in found.contents.value and "total" in found.contents.value
    assert span(found.range) == (4, 13, 4, 18)
    found = await client.text_document_hover_async(
        types.HoverParams(text_document=DOC, position=at["call"])
    )
    assert found.contents.value.startswith("bump(value)")


async def test_prepare_rename_and_rename_with_the_document_version(client: LanguageClient):
    at = open_marked(client, PROGRAM, version=9)
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=DOC, position=at["pref"])
    )
    assert (span(prepared.range), prepared.placeholder) == ((1, 9, 1, 14), "value")
    edit = await client.text_document_rename_async(
        types.RenameParams(text_document=DOC, position=at["pref"], new_name="amount")
    )
    assert edit.changes is None
    (change,) = edit.document_changes
    assert change.text_document.uri == URI and change.text_document.version == 9
    assert [(span(e.range), e.new_text) for e in change.edits] == [
        ((0, 8, 0, 13), "amount"),
        ((1, 9, 1, 14), "amount"),
    ]


async def test_rename_refusals_are_request_failed(client: LanguageClient):
    at = open_marked(client, "use mod.std.@@imp@@math\nlet @@a@@a = 1\nlet b = 2\na + b\n")
    for position, new_name in (
        (at["a"], "9x"),
        (at["a"], "match"),
        (at["a"], "b"),
        (at["imp"], "m"),
    ):
        with pytest.raises(JsonRpcException) as failure:
            await client.text_document_rename_async(
                types.RenameParams(text_document=DOC, position=position, new_name=new_name)
            )
        assert failure.value.code == -32803
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=DOC, position=at["imp"])
    )
    assert prepared is None


async def test_truncated_index_refuses_exhaustive_answers(client: LanguageClient):
    marked = "let @@a@@a = 1\n" + "a\n" * MAX_LEXICAL_SYMBOL_OCCURRENCES
    at = open_marked(client, marked)
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=DOC, position=at["a"])
    )
    assert span(found.range) == (0, 4, 0, 5)
    requests = (
        client.text_document_references_async(
            types.ReferenceParams(
                text_document=DOC,
                position=at["a"],
                context=types.ReferenceContext(include_declaration=True),
            )
        ),
        client.text_document_document_highlight_async(
            types.DocumentHighlightParams(text_document=DOC, position=at["a"])
        ),
        client.text_document_prepare_rename_async(
            types.PrepareRenameParams(text_document=DOC, position=at["a"])
        ),
        client.text_document_rename_async(
            types.RenameParams(text_document=DOC, position=at["a"], new_name="b")
        ),
    )
    for request in requests:
        with pytest.raises(JsonRpcException) as failure:
            await request
        assert failure.value.code == -32803


async def test_identifier_completion(client: LanguageClient):
    at = open_marked(client, "let alpha = 1\nfn beta(gamma) {\n  return al@@c@@pha\n}\n")
    found = await client.text_document_completion_async(
        types.CompletionParams(text_document=DOC, position=at["c"])
    )
    assert isinstance(found, types.CompletionList) and found.is_incomplete is False
    assert [(i.label, i.kind, span(i.text_edit.range)) for i in found.items] == [
        ("alpha", types.CompletionItemKind.Variable, (2, 9, 2, 14)),
        ("beta", types.CompletionItemKind.Function, (2, 9, 2, 14)),
        ("gamma", types.CompletionItemKind.Variable, (2, 9, 2, 14)),
    ]


async def test_named_function_signature_help(client: LanguageClient):
    at = open_marked(client, "fn add(left, right) {\n  return left + right\n}\nadd([1, 2], @@c@@")
    found = await client.text_document_signature_help_async(
        types.SignatureHelpParams(text_document=DOC, position=at["c"])
    )
    (info,) = found.signatures
    assert info.label == "add(left, right)"
    assert [p.label for p in info.parameters] == ["left", "right"]
    assert (found.active_signature, found.active_parameter) == (0, 1)
    assert info.active_parameter is None


# ---------------------------------------------------------------- no documentChanges

PLAIN_CAPABILITIES = types.ClientCapabilities(
    workspace=types.WorkspaceClientCapabilities(configuration=False),
    text_document=types.TextDocumentClientCapabilities(
        rename=types.RenameClientCapabilities(prepare_support=True),
    ),
)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_COMMAND))
async def plain_client(lsp_client: LanguageClient):
    result = await lsp_client.initialize_session(
        types.InitializeParams(capabilities=PLAIN_CAPABILITIES)
    )
    lsp_client.octoscript_capabilities = result.capabilities
    yield
    await lsp_client.shutdown_session()


async def test_rename_needs_versioned_document_changes(plain_client: LanguageClient):
    assert plain_client.octoscript_capabilities.rename_provider is None
    at = open_marked(plain_client, "let @@a@@a = 1\na\n")
    with pytest.raises(JsonRpcException) as failure:
        await plain_client.text_document_rename_async(
            types.RenameParams(text_document=DOC, position=at["a"], new_name="b")
        )
    assert failure.value.code == -32601
    with pytest.raises(JsonRpcException) as failure:
        await plain_client.text_document_prepare_rename_async(
            types.PrepareRenameParams(text_document=DOC, position=at["a"])
        )
    assert failure.value.code == -32601
    # everything else still works
    found = await plain_client.text_document_definition_async(
        types.DefinitionParams(text_document=DOC, position=at["a"])
    )
    assert span(found.range) == (0, 4, 0, 5)
