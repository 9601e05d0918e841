"""End-to-end: static record field completion, hover and definition."""

from __future__ import annotations

from lsprotocol import types
from pytest_lsp import LanguageClient

from octoscript_lsp.features.positions import PositionMap
from octoscript_lsp.limits import MAX_LEXICAL_SYMBOL_OCCURRENCES, MAX_STATIC_RECORD_ALIASES
from tests.conftest import strip_markers

URI = "file:///workspace/records.octoscript"

PROFILE = 'let profile = {name: "a", user: {address: {city: "Paris", zip: "1"}, age: 3}}\n'


def open_marked(client: LanguageClient, text: str) -> dict[str, types.Position]:
    source, marks = strip_markers(text)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=URI, language_id="octoscript", version=1, text=source
            )
        )
    )
    positions = PositionMap(source)
    return {name: positions.position(offset) for name, offset in marks.items()}


def at(position: types.Position) -> dict:
    return {"text_document": types.TextDocumentIdentifier(uri=URI), "position": position}


def span(found: types.Range) -> tuple[int, int, int, int]:
    return (found.start.line, found.start.character, found.end.line, found.end.character)


async def complete(client: LanguageClient, position: types.Position) -> types.CompletionList:
    answer = await client.text_document_completion_async(types.CompletionParams(**at(position)))
    assert isinstance(answer, types.CompletionList)
    return answer


async def test_root_field_completion_items(client: LanguageClient):
    marks = open_marked(client, PROFILE + "profile.n@@a@@\n")
    answer = await complete(client, marks["a"])
    assert answer.is_incomplete is False
    assert [item.label for item in answer.items] == ["name", "user"]
    for item in answer.items:
        assert item.kind == types.CompletionItemKind.Field
        assert item.detail == "static record field; direct literal, child literal, or alias"
        assert span(item.text_edit.range) == (1, 8, 1, 9)
        assert item.text_edit.new_text == item.label


async def test_nested_completion_through_an_alias_with_zero_width_edit(client: LanguageClient):
    marks = open_marked(client, PROFILE + "let u = profile.user\nlet ad = u.address\nad.@@a@@\n")
    answer = await complete(client, marks["a"])
    assert [item.label for item in answer.items] == ["city", "zip"]
    assert span(answer.items[0].text_edit.range) == (3, 3, 3, 3)


async def test_mutated_record_gets_no_fields(client: LanguageClient):
    marks = open_marked(client, "let r = {a: 1}\nr.b = 2\nr.@@a@@\n")
    answer = await complete(client, marks["a"])
    assert list(answer.items) == []
    assert answer.is_incomplete is False


async def test_truncated_aliases_answer_empty_and_incomplete(client: LanguageClient):
    aliases = "".join(f"let s{index} = r\n" for index in range(MAX_STATIC_RECORD_ALIASES + 1))
    marks = open_marked(client, "let r = {a: 1}\n" + aliases + "r.@@a@@\n")
    answer = await complete(client, marks["a"])
    assert list(answer.items) == []
    assert answer.is_incomplete is True


async def test_truncated_shapes_keep_retained_items_but_mark_incomplete(client: LanguageClient):
    shapes = "".join(f"let r{index} = {{a: 1}}\n" for index in range(1025))
    marks = open_marked(client, shapes + "r0.@@a@@\n")
    answer = await complete(client, marks["a"])
    assert [item.label for item in answer.items] == ["a"]
    assert answer.is_incomplete is True


async def test_hover_on_a_field_member(client: LanguageClient):
    marks = open_marked(client, PROFILE + "profile.na@@a@@me\n")
    found = await client.text_document_hover_async(types.HoverParams(**at(marks["a"])))
    assert found is not None
    assert found.contents.kind == types.MarkupKind.PlainText
    assert "name" in found.contents.value
    assert span(found.range) == (1, 8, 1, 12)


async def test_hover_on_an_unknown_member_is_null(client: LanguageClient):
    marks = open_marked(client, PROFILE + "profile.nop@@a@@e\n")
    found = await client.text_document_hover_async(types.HoverParams(**at(marks["a"])))
    assert found is None


async def test_definition_at_the_literal_key(client: LanguageClient):
    marks = open_marked(client, PROFILE + "let u = profile.user\nu.address.ci@@a@@ty\n")
    found = await client.text_document_definition_async(types.DefinitionParams(**at(marks["a"])))
    assert isinstance(found, types.Location)
    assert found.uri == URI
    assert span(found.range) == (0, 43, 0, 47)


async def test_definition_of_a_root_field(client: LanguageClient):
    marks = open_marked(client, PROFILE + "profile.na@@a@@me\n")
    found = await client.text_document_definition_async(types.DefinitionParams(**at(marks["a"])))
    assert isinstance(found, types.Location)
    assert span(found.range) == (0, 15, 0, 19)


async def test_hover_and_definition_refuse_a_truncated_lexical_index(client: LanguageClient):
    reads = "r.a\n" * MAX_LEXICAL_SYMBOL_OCCURRENCES
    marks = open_marked(client, "let r = {a: 1}\n" + reads + "r.@@a@@a\n")
    hover = await client.text_document_hover_async(types.HoverParams(**at(marks["a"])))
    assert hover is None
    found = await client.text_document_definition_async(types.DefinitionParams(**at(marks["a"])))
    assert found is None


async def test_hover_refuses_truncated_aliases(client: LanguageClient):
    aliases = "".join(f"let s{index} = r\n" for index in range(MAX_STATIC_RECORD_ALIASES + 1))
    marks = open_marked(client, "let r = {a: 1}\n" + aliases + "r.@@a@@a\n")
    hover = await client.text_document_hover_async(types.HoverParams(**at(marks["a"])))
    assert hover is None
