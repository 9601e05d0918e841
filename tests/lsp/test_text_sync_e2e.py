"""End-to-end: the server applies ranged changes by the protocol (issue 15)."""

from __future__ import annotations

import functools

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp import session
from tests.lsp.raw_client import RawClient

URI = "file:///workspace/sync.octoscript"


open_document = functools.partial(session.open_document, uri=URI)


def change(client: LanguageClient, version: int, start, end, text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=version),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=start[0], character=start[1]),
                        end=types.Position(line=end[0], character=end[1]),
                    ),
                    text=text,
                )
            ],
        )
    )


async def symbols(client: LanguageClient) -> list[str]:
    found = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=URI))
    )
    return [symbol.name for symbol in found]


async def test_a_line_separator_inside_a_string_does_not_shift_edits(client: LanguageClient):
    open_document(client, 'let s = "a\u2028b"\nlet t = s\n')
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    change(client, 2, (1, 8), (1, 9), "u")
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    # `let t = u` is valid (an unknown name is no syntax error): no diagnostics.
    assert list(client.diagnostics[URI]) == []
    assert await symbols(client) == ["s", "t"]


async def test_an_insert_past_the_line_end_stays_on_its_line(client: LanguageClient):
    open_document(client, "let a = 1\r\nlet b = 2\r\n")
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    change(client, 2, (0, 40), (0, 40), "2")
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(client.diagnostics[URI]) == []  # no bare CR was created
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            options=types.FormattingOptions(tab_size=4, insert_spaces=True),
        )
    )
    assert [edit.new_text for edit in edits] == ["let a = 12\nlet b = 2\n"]


def test_a_negative_position_is_refused_and_a_full_text_resyncs():
    client = RawClient()
    try:
        client.initialize()
        item = {"uri": URI, "languageId": "octoscript", "version": 1, "text": "let a = 1\n"}
        client.send(_notification("textDocument/didOpen", {"textDocument": item}))
        bad = {"start": {"line": 0, "character": -1}, "end": {"line": 0, "character": 0}}
        client.send(_did_change(2, [{"range": bad, "text": "x"}]))
        # Computed by the editor against text the server does not hold: refused too.
        at_start = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}
        client.send(_did_change(3, [{"range": at_start, "text": "let b = 2\n"}]))
        assert _symbol_names(client, 1) == ["a"]
        client.send(_did_change(4, [{"text": "let c = 3\n"}]))
        assert _symbol_names(client, 2) == ["c"]
    finally:
        client.close()


def _notification(method: str, params: dict) -> dict:
    return {"jsonrpc": "2.0", "method": method, "params": params}


def _did_change(version: int, changes: list[dict]) -> dict:
    return _notification(
        "textDocument/didChange",
        {"textDocument": {"uri": URI, "version": version}, "contentChanges": changes},
    )


def _symbol_names(client: RawClient, message_id: int) -> list[str]:
    client.send(
        {
            "jsonrpc": "2.0",
            "id": message_id,
            "method": "textDocument/documentSymbol",
            "params": {"textDocument": {"uri": URI}},
        }
    )
    return [symbol["name"] for symbol in client.response(message_id)["result"]]


def _diagnostic_starts(client: LanguageClient) -> list[tuple[int, int]]:
    return [(item.range.start.line, item.range.start.character) for item in client.diagnostics[URI]]


async def test_typing_on_the_first_line_moves_every_later_diagnostic(client: LanguageClient):
    """Inserts and deletes on the first line move the whole tail (issue 14):
    the later diagnostics and symbols must come out where a fresh open puts them."""
    functions = "".join(f"fn f{index}(x) {{\n    return x\n}}\n" for index in range(60))
    # The runtime parser rejects `== 2` after a block-bodied lambda (line 183).
    text = "use mod.tool\n" + functions + "let g = || {\n    1\n} == 2\n"
    open_document(client, text)
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert _diagnostic_starts(client) == [(183, 2)]
    change(client, 2, (0, 10), (0, 10), "q")  # use mod.toqol
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert _diagnostic_starts(client) == [(183, 2)]
    change(client, 3, (0, 0), (0, 0), "\n\n")
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert _diagnostic_starts(client) == [(185, 2)]
    change(client, 4, (185, 2), (185, 4), "+")  # `} + 2` is accepted
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert _diagnostic_starts(client) == []
    change(client, 5, (0, 0), (2, 0), "")
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    change(client, 6, (0, 10), (0, 11), "")  # backspace: use mod.tool
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert _diagnostic_starts(client) == []
    found = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=URI))
    )
    names = [symbol.name for symbol in found]
    assert names[-2:] == ["f59", "g"]
    last = found[-2]
    assert (last.range.start.line, last.range.end.line) == (178, 180)
