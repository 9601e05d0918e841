"""End-to-end: diagnostic codes, catalog quick fixes, prefilled completion,
range formatting and inlay hints through the real server (pytest-lsp)."""

from __future__ import annotations

import functools

import attrs
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.conftest import SERVER_COMMAND
from tests.lsp import session
from tests.lsp.catalog_data import MODULES, TOOLS
from tests.lsp.conftest import CAPABILITIES

URI = "file:///workspace/authoring.octoscript"
CATALOGS = {"toolCatalog": TOOLS, "moduleCatalog": MODULES}
SNIPPETS_AND_HINTS = attrs.evolve(
    CAPABILITIES,
    text_document=attrs.evolve(
        CAPABILITIES.text_document,
        completion=types.CompletionClientCapabilities(
            completion_item=types.ClientCompletionItemOptions(
                snippet_support=True,
                documentation_format=[types.MarkupKind.PlainText, types.MarkupKind.Markdown],
            )
        ),
        inlay_hint=types.InlayHintClientCapabilities(),
    ),
)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_COMMAND))
async def authoring(lsp_client: LanguageClient):
    options = {"octoscript": {**CATALOGS, "completion": {"prefillRequiredFields": True}}}
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=SNIPPETS_AND_HINTS, initialization_options=options)
    )
    yield
    await lsp_client.shutdown_session()


open_document = functools.partial(session.open_document, uri=URI)


def position(text: str, offset: int) -> types.Position:
    line = text.count("\n", 0, offset)
    return types.Position(line=line, character=offset - (text.rfind("\n", 0, offset) + 1))


async def advice(client: LanguageClient) -> list[types.Diagnostic]:
    """Wait for the syntax publish and the catalog-advice publish after it."""
    for _ in range(2):
        await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return list(client.diagnostics[URI])


async def actions_at(client: LanguageClient, text: str, offset: int) -> list[types.CodeAction]:
    here = position(text, offset)
    found = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            range=types.Range(start=here, end=here),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    return [action for action in found or [] if isinstance(action, types.CodeAction)]


def edited(text: str, action: types.CodeAction) -> str:
    assert action.edit is not None and action.edit.changes is not None
    (edit,) = action.edit.changes[URI]
    return applied(text, edit)


def applied(text: str, edit: types.TextEdit) -> str:
    lines = text.split("\n")
    start = sum(len(line) + 1 for line in lines[: edit.range.start.line])
    end = sum(len(line) + 1 for line in lines[: edit.range.end.line])
    start += edit.range.start.character
    end += edit.range.end.character
    return text[:start] + edit.new_text + text[end:]


async def test_unlisted_tool_offers_the_listed_name(authoring: LanguageClient):
    text = 'use mod.tool\ntool.call("text.ecko", "x")\n'
    open_document(authoring, text)
    published = await advice(authoring)
    assert [(d.code, d.range.start.line) for d in published] == [("unlisted-tool", 1)]
    action, ignore = await actions_at(authoring, text, text.index("ecko"))
    assert ignore.title == "Ignore `unlisted-tool` on this line"
    assert edited(text, ignore) == text.replace(
        '"x")\n', '"x")  // octoscript: ignore[unlisted-tool]\n'
    )
    assert action.title == "Did you mean `text.echo`?"
    assert action.is_preferred is True
    assert [d.code for d in action.diagnostics or []] == ["unlisted-tool"]
    assert edited(text, action) == 'use mod.tool\ntool.call("text.echo", "x")\n'


async def test_empty_record_offers_the_required_location(authoring: LanguageClient):
    text = "use mod.app.weather\nweather.current({}).await()\n"
    open_document(authoring, text)
    published = await advice(authoring)
    assert [d.code for d in published] == ["missing-input-field"]
    action, ignore = await actions_at(authoring, text, text.index("current"))
    assert ignore.title == "Ignore `missing-input-field` on this line"
    assert action.title == "Add required input field"
    assert edited(text, action) == 'use mod.app.weather\nweather.current({location: ""}).await()\n'


async def test_every_published_diagnostic_has_a_code(authoring: LanguageClient):
    open_document(authoring, "let s = 'x'\nlet n = 5.\n")
    await authoring.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    published = list(authoring.diagnostics[URI])
    assert [d.code for d in published] == ["single-quoted-string", "invalid-number"]
    report = await authoring.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=URI))
    )
    assert [d.code for d in report.items] == ["single-quoted-string", "invalid-number"]


async def test_prefilled_method_completion(authoring: LanguageClient):
    text = "use mod.app.weather\nlet w = weather.\n"
    open_document(authoring, text)
    answer = await authoring.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            position=position(text, text.index(".\n") + 1),
        )
    )
    (item,) = answer.items
    assert item.insert_text_format == types.InsertTextFormat.Snippet
    assert item.text_edit.new_text == 'current({location: ${1:""}})$0'
    # Switched off by a settings change: the plain name again.
    authoring.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(
            settings={"octoscript": {"completion": {"prefillRequiredFields": False}}}
        )
    )
    answer = await authoring.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            position=position(text, text.index(".\n") + 1),
        )
    )
    assert [(i.text_edit.new_text, i.insert_text_format) for i in answer.items] == [
        ("current", None)
    ]


async def test_range_formatting_edits_only_the_touched_function(authoring: LanguageClient):
    text = "let a=1\nfn f(x,y){\nlet z=x+y\nz\n}\nlet b=2\n"
    open_document(authoring, text)
    edits = await authoring.text_document_range_formatting_async(
        types.DocumentRangeFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            range=types.Range(start=position(text, 12), end=position(text, 12)),
            options=types.FormattingOptions(tab_size=4, insert_spaces=True),
        )
    )
    assert edits
    for edit in edits:
        assert 1 <= edit.range.start.line and edit.range.end.line <= 4
    assert len(edits) == 1
    assert applied(text, edits[0]) == (
        "let a=1\nfn f(x, y) {\n    let z = x + y\n    z\n}\nlet b=2\n"
    )


async def test_inlay_hints_for_a_two_parameter_function(authoring: LanguageClient):
    text = "fn f(a, b) {\n    a\n}\nf(1, 2)\n"
    open_document(authoring, text)
    found = await authoring.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            range=types.Range(start=position(text, 0), end=position(text, len(text))),
        )
    )
    assert [(h.label, h.position.line, h.position.character) for h in found] == [
        ("a:", 3, 2),
        ("b:", 3, 5),
    ]


async def test_no_inlay_hints_for_a_client_that_does_not_ask(client: LanguageClient):
    text = "fn f(a, b) {\n    a\n}\nf(1, 2)\n"
    open_document(client, text)
    found = await client.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            range=types.Range(start=position(text, 0), end=position(text, len(text))),
        )
    )
    assert not found
