"""End-to-end: semantic tokens, folding, selection ranges and quick fixes."""

from __future__ import annotations

import functools

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp import session

URI = "file:///workspace/extras.octoscript"


open_document = functools.partial(session.open_document, uri=URI)


def identifier() -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=URI)


async def test_semantic_tokens_start_with_the_let_keyword(client: LanguageClient):
    open_document(client, "let total = 1\n")
    tokens = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=identifier())
    )
    from octoscript_lsp.features.semantic_tokens import LEGEND

    assert list(tokens.data[:5]) == [0, 0, 3, LEGEND.token_types.index("keyword"), 0]


async def test_semantic_tokens_range_covers_one_line(client: LanguageClient):
    open_document(client, "let a = 1\nlet b = 2\n")
    tokens = await client.text_document_semantic_tokens_range_async(
        types.SemanticTokensRangeParams(
            text_document=identifier(),
            range=types.Range(
                start=types.Position(line=1, character=0), end=types.Position(line=1, character=9)
            ),
        )
    )
    assert tokens.data[0] == 1  # first token is on line 1
    assert len(tokens.data) % 5 == 0 and tokens.data


async def test_folding_range_for_a_function_body(client: LanguageClient):
    open_document(client, "fn f(a) {\n    let b = a\n    return b\n}\n")
    ranges = await client.text_document_folding_range_async(
        types.FoldingRangeParams(text_document=identifier())
    )
    assert [(item.start_line, item.end_line) for item in ranges] == [(0, 2)]


async def test_selection_ranges_grow_outwards(client: LanguageClient):
    open_document(client, "let total = add(1, 2)\n")
    found = await client.text_document_selection_range_async(
        types.SelectionRangeParams(
            text_document=identifier(), positions=[types.Position(line=0, character=17)]
        )
    )
    chain = []
    node = found[0]
    while node is not None:
        start, end = node.range.start, node.range.end
        chain.append(((start.line, start.character), (end.line, end.character)))
        node = node.parent
    assert chain[0] == ((0, 16), (0, 17))
    assert len(chain) >= 3
    assert all(
        outer[0] <= inner[0] and inner[1] <= outer[1]
        for inner, outer in zip(chain, chain[1:], strict=False)
    )


async def test_quick_fix_adds_the_missing_std_import(client: LanguageClient):
    open_document(client, 'json.parse("1")\n')
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=identifier(),
            range=types.Range(
                start=types.Position(line=0, character=1), end=types.Position(line=0, character=1)
            ),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    assert len(actions) == 1
    assert actions[0].kind == types.CodeActionKind.QuickFix
    edits = actions[0].edit.changes[URI]
    assert [
        (edit.range.start.line, edit.range.start.character, edit.new_text) for edit in edits
    ] == [(0, 0, "use mod.std.json\n")]


async def test_semantic_token_deltas_edit_the_last_answer_into_a_fresh_one(client: LanguageClient):
    """The client applies each delta to what it holds, as VS Code does, and
    asks the next delta from that answer; after every keystroke it must hold
    what a fresh open of the same text answers in full."""
    from octoscript_lsp.features.semantic_tokens import LEGEND

    text = "use mod.std.math\nfn area(r) {\n  return math.pi * r * r\n}\nlet a = area(2)\n"
    open_document(client, text)
    first = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=identifier())
    )
    held, result_id = list(first.data), first.result_id
    assert result_id and held[:5] == [0, 0, 3, LEGEND.token_types.index("keyword"), 0]
    edits = [
        (4, 13, 4, 14, "22"),  # area(22): a longer number
        (2, 9, 2, 9, "1 + "),  # return 1 + math.pi ...
        (0, 0, 0, 0, "// head\n"),  # every later line moves
        (5, 0, 5, 0, "let b = a\n"),
        (1, 3, 1, 7, "size"),  # the function renamed: its call is a variable now
    ]
    for version, (line, character, end_line, end_character, new_text) in enumerate(edits, 2):
        lines = text.split("\n")
        start = sum(len(item) + 1 for item in lines[:line]) + character
        end = sum(len(item) + 1 for item in lines[:end_line]) + end_character
        text = text[:start] + new_text + text[end:]
        change = types.TextDocumentContentChangePartial(
            range=types.Range(
                start=types.Position(line=line, character=character),
                end=types.Position(line=end_line, character=end_character),
            ),
            text=new_text,
        )
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=version),
                content_changes=[change],
            )
        )
        answer = await client.text_document_semantic_tokens_full_delta_async(
            types.SemanticTokensDeltaParams(
                text_document=identifier(), previous_result_id=result_id
            )
        )
        assert isinstance(answer, types.SemanticTokensDelta)
        assert answer.result_id != result_id and answer.edits
        for edit in sorted(answer.edits, key=lambda item: -item.start):
            held[edit.start : edit.start + edit.delete_count] = list(edit.data or [])
        result_id = answer.result_id
        fresh_uri = f"file:///workspace/fresh{version}.octoscript"
        session.open_document(client, text, uri=fresh_uri)
        fresh = await client.text_document_semantic_tokens_full_async(
            types.SemanticTokensParams(text_document=types.TextDocumentIdentifier(uri=fresh_uri))
        )
        assert held == list(fresh.data)
    # A delta from an id the server no longer holds gets a full answer.
    stale = await client.text_document_semantic_tokens_full_delta_async(
        types.SemanticTokensDeltaParams(text_document=identifier(), previous_result_id="stale")
    )
    assert isinstance(stale, types.SemanticTokens) and list(stale.data) == held


async def test_deltas_and_outline_after_lone_crs_and_block_comments(client: LanguageClient):
    """Lone CRs added, a statement commented out and back in, CRLFs: after
    each edit the held tokens and the outline equal a fresh open's."""
    from octoscript_lsp.features.positions import PositionMap

    text = "let a = 1\nfn f(p) {\n    return p + a\n}\n/* note */\nlet b = f(a)\nlet c = [b, 2]\n"
    open_document(client, text)
    first = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=identifier())
    )
    held, result_id = list(first.data), first.result_id
    edits = [  # (offset, removed, inserted), offsets into the text before the edit
        (text.index("fn f"), 0, "\r\r"),
        (text.index("let b") + 2, 0, "/*"),
        (text.index("let c") + 2, 0, "*/\r"),
        (text.index("let a = 1") + 9, 1, "\r\n"),
        (text.index("/* note */") + 2, 0, "\r"),
    ]
    for version, (offset, removed, inserted) in enumerate(edits, 2):
        positions = PositionMap(text)
        change = types.TextDocumentContentChangePartial(
            range=types.Range(
                start=positions.position(offset), end=positions.position(offset + removed)
            ),
            text=inserted,
        )
        text = text[:offset] + inserted + text[offset + removed :]
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=version),
                content_changes=[change],
            )
        )
        answer = await client.text_document_semantic_tokens_full_delta_async(
            types.SemanticTokensDeltaParams(
                text_document=identifier(), previous_result_id=result_id
            )
        )
        assert isinstance(answer, types.SemanticTokensDelta)
        for edit in sorted(answer.edits, key=lambda item: -item.start):
            held[edit.start : edit.start + edit.delete_count] = list(edit.data or [])
        result_id = answer.result_id
        outline = await client.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=identifier())
        )
        fresh_uri = f"file:///workspace/fresh-cr{version}.octoscript"
        session.open_document(client, text, uri=fresh_uri)
        fresh = types.TextDocumentIdentifier(uri=fresh_uri)
        tokens = await client.text_document_semantic_tokens_full_async(
            types.SemanticTokensParams(text_document=fresh)
        )
        assert held == list(tokens.data)
        assert outline == await client.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=fresh)
        )
