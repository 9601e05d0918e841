"""End-to-end: `mod.tool`, `mod.std.*` and `use mod.` paths over stdio."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .test_navigation_e2e import DOC, URI, open_marked, span

# The shared client declares no completion capabilities; plain-text docs are fine here.
pytestmark = pytest.mark.filterwarnings("ignore::pytest_lsp.LspSpecificationWarning")

TOOL_METHODS = ["call", "call_json", "start", "start_json"]
STD_CHILDREN = ["array", "assert", "json", "math", "object", "text"]


async def complete(client: LanguageClient, position: types.Position) -> types.CompletionList:
    return await client.text_document_completion_async(
        types.CompletionParams(text_document=DOC, position=position)
    )


def edit_items(found: types.CompletionList) -> list[tuple]:
    return [(i.label, int(i.kind), span(i.text_edit.range)) for i in found.items]


async def test_tool_completion_signature_and_no_hover(client: LanguageClient):
    at = open_marked(
        client,
        'use mod.tool\nlet t = tool\nlet r = tool.@@m@@st@@h@@art("x", @@s@@)\nt.@@alias@@\n',
    )
    found = await complete(client, at["m"])
    assert found.is_incomplete is False
    assert edit_items(found) == [(name, 2, (2, 13, 2, 18)) for name in TOOL_METHODS]

    found = await client.text_document_signature_help_async(
        types.SignatureHelpParams(text_document=DOC, position=at["s"])
    )
    (info,) = found.signatures
    assert info.label == "tool.start(name, input) -> promise<string>"
    assert [p.label for p in info.parameters] == ["name", "input"]
    assert found.active_parameter == 1

    hovered = await client.text_document_hover_async(
        types.HoverParams(text_document=DOC, position=at["h"])
    )
    assert hovered is None

    found = await complete(client, at["alias"])
    assert list(found.items) == []


async def test_std_members_hover_and_signature(client: LanguageClient):
    at = open_marked(
        client,
        "use mod.std.math\nlet v = math.@@c@@s\n"
        "let w = math.p@@pi@@i + math.clamp(1, @@sig@@2, 3)\nlet x = math.no@@nope@@pe\n",
    )
    found = await complete(client, at["c"])
    assert len(found.items) == 18
    kinds = {i.label: int(i.kind) for i in found.items}
    assert kinds["pi"] == kinds["e"] == 21 and kinds["sqrt"] == 3
    assert {span(i.text_edit.range) for i in found.items} == {(1, 13, 1, 14)}

    hovered = await client.text_document_hover_async(
        types.HoverParams(text_document=DOC, position=at["pi"])
    )
    assert hovered.contents.kind == types.MarkupKind.PlainText
    assert span(hovered.range) == (2, 13, 2, 15)
    assert (
        await client.text_document_hover_async(
            types.HoverParams(text_document=DOC, position=at["nope"])
        )
        is None
    )

    found = await client.text_document_signature_help_async(
        types.SignatureHelpParams(text_document=DOC, position=at["sig"])
    )
    assert found.signatures[0].label == "math.clamp(value, minimum, maximum) -> number"
    assert found.active_parameter == 1


async def test_assert_forms(client: LanguageClient):
    at = open_marked(
        client,
        "use mod.std\nuse mod.std.assert\nstd.assert(@@a@@true)\nass@@h@@ert(1 == 1, @@b@@2)\n",
    )
    found = await client.text_document_signature_help_async(
        types.SignatureHelpParams(text_document=DOC, position=at["a"])
    )
    assert found.signatures[0].label == "std.assert(condition)"
    assert found.active_parameter == 0
    found = await client.text_document_signature_help_async(
        types.SignatureHelpParams(text_document=DOC, position=at["b"])
    )
    assert found.signatures[0].label == "assert(condition)"
    assert found.active_parameter is None
    hovered = await client.text_document_hover_async(
        types.HoverParams(text_document=DOC, position=at["h"])
    )
    assert hovered.contents.value.startswith("assert(condition)")
    assert span(hovered.range) == (3, 0, 3, 6)


async def test_import_path_completion(client: LanguageClient):
    # the first line is a complete import; the second ends in an end-of-file diagnostic
    at = open_marked(client, "use mod.std.ma@@std@@\nuse mod.@@root@@")
    found = await complete(client, at["root"])
    assert edit_items(found) == [("std", 9, (1, 8, 1, 8))]
    found = await complete(client, at["std"])
    assert edit_items(found) == [(name, 9, (0, 12, 0, 14)) for name in STD_CHILDREN]
    assert found.is_incomplete is False


async def test_typing_tool_dot_at_end_of_file(client: LanguageClient):
    at = open_marked(client, "use mod.tool\ntool.@@c@@")
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert client.diagnostics[URI]  # the source is incomplete
    found = await complete(client, at["c"])
    assert edit_items(found) == [(name, 2, (1, 5, 1, 5)) for name in TOOL_METHODS]
    assert found.is_incomplete is False
