"""End-to-end, differential: one session replayed in utf-8, utf-16 and utf-32.

The script says where to edit and ask in code points; each replay sends
those positions in its own encoding (converted by the editor's model,
`differential.spec_column`) and every answer is converted back to
code-point offsets the same way. The three replays must then agree on every
answer: diagnostics pushed and pulled, semantic tokens (full, range and the
text a delta leaves), navigation, rename, completion, edits, hints, lenses,
ranges and symbols.
"""

from __future__ import annotations

import attrs
from lsprotocol import types
from lsprotocol.converters import get_converter
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.conftest import SERVER_COMMAND
from tests.lsp import session
from tests.lsp.conftest import CAPABILITIES
from tests.lsp.encoding_fuzz import NON_ASCII_SCRIPT
from tests.sync.differential import _spec_lines, spec_column, spec_offset

URI = "file:///workspace/replayed.octoscript"
TEXT = NON_ASCII_SCRIPT
_converter = get_converter()


class Replay:
    """One session: positions out in `encoding`, answers back in code points."""

    def __init__(self, client: LanguageClient, encoding: str) -> None:
        self.client = client
        self.encoding = encoding
        self.text = TEXT
        self.version = 1
        self.tokens: list[int] = []  # the last semantic tokens, in the encoding
        self.result_id = ""  # and their result id
        self.answers: list[tuple[str, object]] = []

    def position(self, line: int, code_point: int) -> types.Position:
        content = _spec_lines(self.text)[line][1]
        return types.Position(line=line, character=spec_column(content, code_point, self.encoding))

    def at(self, needle: str, shift: int = 0, occurrence: int = 0) -> types.Position:
        """The position of the `occurrence`-th `needle` (plus `shift` code points)."""
        offset = -1
        for _ in range(occurrence + 1):
            offset = self.text.index(needle, offset + 1)
        offset += shift
        for number, (start, content) in enumerate(_spec_lines(self.text)):
            if offset <= start + len(content):
                return self.position(number, offset - start)
        raise AssertionError(needle)

    def span(self, start: types.Position, end: types.Position) -> types.Range:
        return types.Range(start=start, end=end)

    def whole(self) -> types.Range:
        lines = _spec_lines(self.text)
        return self.span(self.position(0, 0), self.position(len(lines) - 1, len(lines[-1][1])))

    def record(self, name: str, answer: object) -> None:
        self.answers.append((name, self.in_code_points(_converter.unstructure(answer))))

    def in_code_points(self, value: object) -> object:
        """Every {line, character} as its code-point offset in the current text."""
        if isinstance(value, dict):
            if set(value) == {"line", "character"}:
                return spec_offset(self.text, value["line"], value["character"], self.encoding)
            return {key: self.in_code_points(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self.in_code_points(item) for item in value]
        return value

    def token_spans(self, data: list[int]) -> list[tuple[int, int, int, int]]:
        """Semantic tokens as (start, end, type, modifiers) code-point offsets."""
        found = []
        for line, character, length, token_type, modifiers in session.decode_tokens(data):
            start = spec_offset(self.text, line, character, self.encoding)
            end = spec_offset(self.text, line, character + length, self.encoding)
            found.append((start, end, token_type, modifiers))
        return found

    @property
    def document(self) -> types.TextDocumentIdentifier:
        return types.TextDocumentIdentifier(uri=URI)

    async def edit(self, start: types.Position, end: types.Position, new_text: str) -> None:
        first = spec_offset(self.text, start.line, start.character, self.encoding)
        last = spec_offset(self.text, end.line, end.character, self.encoding)
        self.text = self.text[:first] + new_text + self.text[last:]
        self.version += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=self.version),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=self.span(start, end), text=new_text
                    )
                ],
            )
        )
        await self.pushed()

    async def pushed(self) -> None:
        params = await self.client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        self.record("pushed", params.diagnostics)

    async def snapshot(self) -> None:
        """The answers that depend on the whole document."""
        client, document = self.client, self.document
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=document)
        )
        self.record("pulled", report.items)
        self.record(
            "symbols",
            await client.text_document_document_symbol_async(
                types.DocumentSymbolParams(text_document=document)
            ),
        )
        if self.tokens:
            answer = await client.text_document_semantic_tokens_full_delta_async(
                types.SemanticTokensDeltaParams(
                    text_document=document, previous_result_id=self.result_id
                )
            )
            assert isinstance(answer, types.SemanticTokensDelta)
            self.tokens = _applied(self.tokens, answer)
        else:
            answer = await client.text_document_semantic_tokens_full_async(
                types.SemanticTokensParams(text_document=document)
            )
            self.tokens = list(answer.data)
        self.result_id = answer.result_id
        self.answers.append(("tokens", self.token_spans(self.tokens)))
        full = await client.text_document_semantic_tokens_full_async(
            types.SemanticTokensParams(text_document=document)
        )
        assert self.token_spans(full.data) == self.answers[-1][1]
        self.result_id = full.result_id
        self.record(
            "folding",
            await client.text_document_folding_range_async(
                types.FoldingRangeParams(text_document=document)
            ),
        )
        self.record(
            "lenses",
            await client.text_document_code_lens_async(
                types.CodeLensParams(text_document=document)
            ),
        )
        self.record(
            "hints",
            await client.text_document_inlay_hint_async(
                types.InlayHintParams(text_document=document, range=self.whole())
            ),
        )
        self.record(
            "actions",
            await client.text_document_code_action_async(
                types.CodeActionParams(
                    text_document=document,
                    range=self.whole(),
                    context=types.CodeActionContext(diagnostics=[]),
                )
            ),
        )
        self.record(
            "workspace symbols",
            await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="")),
        )
        self.record(
            "tool calls",
            await client.protocol.send_request_async(
                "octoscript/toolCalls", {"textDocument": {"uri": URI}}
            ),
        )

    async def at_position(self, position: types.Position) -> None:
        """Every request that takes one position."""
        client, document = self.client, self.document
        self.record(
            "hover",
            await client.text_document_hover_async(
                types.HoverParams(text_document=document, position=position)
            ),
        )
        self.record(
            "definition",
            await client.text_document_definition_async(
                types.DefinitionParams(text_document=document, position=position)
            ),
        )
        self.record(
            "references",
            await client.text_document_references_async(
                types.ReferenceParams(
                    text_document=document,
                    position=position,
                    context=types.ReferenceContext(include_declaration=True),
                )
            ),
        )
        self.record(
            "highlights",
            await client.text_document_document_highlight_async(
                types.DocumentHighlightParams(text_document=document, position=position)
            ),
        )
        self.record(
            "completion",
            await client.text_document_completion_async(
                types.CompletionParams(text_document=document, position=position)
            ),
        )
        self.record(
            "signature",
            await client.text_document_signature_help_async(
                types.SignatureHelpParams(text_document=document, position=position)
            ),
        )
        self.record(
            "selection",
            await client.text_document_selection_range_async(
                types.SelectionRangeParams(text_document=document, positions=[position])
            ),
        )
        try:
            prepared: object = await client.text_document_prepare_rename_async(
                types.PrepareRenameParams(text_document=document, position=position)
            )
        except Exception as refusal:  # noqa: BLE001 - the refusal itself is compared
            prepared = str(refusal)
        self.record("prepare rename", prepared)
        try:
            renamed: object = await client.text_document_rename_async(
                types.RenameParams(text_document=document, position=position, new_name="renamed")
            )
        except Exception as refusal:  # noqa: BLE001 - the refusal itself is compared
            renamed = str(refusal)
        self.record("rename", renamed)

    async def formatting(self, start: types.Position, end: types.Position) -> None:
        client, document = self.client, self.document
        options = types.FormattingOptions(tab_size=4, insert_spaces=True)
        for name, request in (
            (
                "range formatting",
                client.text_document_range_formatting_async(
                    types.DocumentRangeFormattingParams(
                        text_document=document, range=self.span(start, end), options=options
                    )
                ),
            ),
            (
                "formatting",
                client.text_document_formatting_async(
                    types.DocumentFormattingParams(text_document=document, options=options)
                ),
            ),
        ):
            try:
                answer: object = await request
            except Exception as refusal:  # noqa: BLE001 - the refusal itself is compared
                answer = str(refusal)
            self.record(name, answer)
        tokens = await client.text_document_semantic_tokens_range_async(
            types.SemanticTokensRangeParams(text_document=document, range=self.span(start, end))
        )
        self.answers.append(("range tokens", self.token_spans(tokens.data)))


def _applied(data: list[int], delta: types.SemanticTokensDelta) -> list[int]:
    """A delta's edits applied to the numbers before it."""
    numbers = list(data)
    for edit in sorted(delta.edits, key=lambda item: item.start, reverse=True):
        numbers[edit.start : edit.start + edit.delete_count] = list(edit.data or [])
    return numbers


async def replay(client: LanguageClient, encoding: str) -> list[tuple[str, object]]:
    text_document = attrs.evolve(
        CAPABILITIES.text_document, inlay_hint=types.InlayHintClientCapabilities()
    )
    capabilities = attrs.evolve(
        CAPABILITIES,
        general=types.GeneralClientCapabilities(position_encodings=[encoding]),
        text_document=text_document,
    )
    result = await client.initialize_session(
        types.InitializeParams(capabilities=capabilities, initialization_options=None)
    )
    assert result.capabilities.position_encoding == encoding
    run = Replay(client, encoding)
    session.open_document(client, TEXT, uri=URI)
    await run.pushed()
    await run.snapshot()
    await run.at_position(run.at("who", occurrence=1))  # its use in `greet(who, 2)`
    await run.at_position(run.at("name", 1, occurrence=1))  # inside a name after "héllo 😀 "
    await run.at_position(run.at("greet(who", 6))  # inside the call's arguments
    # Type after an astral character in the comment, then behind the em dash.
    await run.edit(run.at("😀", 1), run.at("😀", 1), " ok")
    await run.edit(run.at("—中"), run.at("—中", 1), "—😀")
    # Replace a word spanning wide characters, then break and mend a line.
    await run.edit(run.at("wörld"), run.at("wörld", 5), "wé😀rld")
    await run.snapshot()
    end_of_said = run.at("said = greet(who, 2)", len("said = greet(who, 2)"))
    await run.edit(end_of_said, end_of_said, ' + "中😀" +')
    await run.snapshot()
    broken = run.at(' + "中😀" +')
    await run.edit(broken, run.at(' + "中😀" +', len(' + "中😀" +')), ' + "中😀"')
    await run.at_position(run.at("said", occurrence=1))
    # A badly spaced line with wide characters, for both kinds of formatting.
    line_start = run.at("json.parse")
    await run.edit(line_start, line_start, 'let  q  =   "😀é"  +  who\n')
    await run.snapshot()
    await run.formatting(run.at("let  q"), run.at("+  who", len("+  who")))
    await run.at_position(run.at("who", 1, occurrence=2))  # inside `who` on that line
    return run.answers


async def _replayed(encoding: str) -> list[tuple[str, object]]:
    client = await ClientServerConfig(server_command=SERVER_COMMAND).start()
    try:
        answers = await replay(client, encoding)
        await client.shutdown_session()
    finally:
        await client.stop()
    return answers


async def test_a_session_answers_alike_in_every_encoding():
    expected = await _replayed("utf-16")
    # The replay asked something worth comparing.
    found = dict(expected)
    for name in (
        "definition",
        "references",
        "rename",
        "hints",
        "lenses",
        "actions",
        "completion",
        "formatting",
        "range formatting",
        "range tokens",
    ):
        assert found[name], name
    for encoding in ("utf-8", "utf-32"):
        answers = await _replayed(encoding)
        assert [name for name, _ in answers] == [name for name, _ in expected]
        for step, ((name, answer), (_, wanted)) in enumerate(zip(answers, expected, strict=True)):
            assert answer == wanted, f"{encoding}: step {step} ({name})"
