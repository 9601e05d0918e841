"""End-to-end: every position counts in the encoding the client negotiated.

One session per `general.positionEncodings` a client may offer, on a line
whose characters take 1, 2, 3 and 4 UTF-8 bytes and 1 or 2 UTF-16 units.
Expected columns come from the test's own model of the editor's line
(`differential.spec_column`), never from the server's conversion.
"""

from __future__ import annotations

import attrs
import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.conftest import SERVER_COMMAND
from tests.lsp import session
from tests.lsp.conftest import CAPABILITIES
from tests.sync.differential import spec_column as column

URI = "file:///workspace/encodings.octoscript"
BROKEN_URI = "file:///workspace/encodings-broken.octoscript"
TEXT = 'let s = "é😀—中"; let x = 1\nlet y = x + 1\n'
FIRST_LINE, SECOND_LINE = TEXT.splitlines()
BROKEN = 'let t = "😀" +'
X = FIRST_LINE.index("x =")  # code points

# (what the client offers, what the server must choose)
OFFERS = [
    (["utf-8", "utf-16"], "utf-8"),
    (["utf-32", "utf-16"], "utf-32"),
    (["utf-16"], "utf-16"),
    (["utf-8"], "utf-8"),
    (None, "utf-16"),
]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_COMMAND))
async def fresh(lsp_client: LanguageClient):
    """A client not yet initialized: each test offers its own encodings."""
    yield lsp_client
    await lsp_client.shutdown_session()


async def start(client: LanguageClient, offered: list[str] | None) -> types.InitializeResult:
    general = types.GeneralClientCapabilities(position_encodings=offered)
    capabilities = attrs.evolve(CAPABILITIES, general=general)
    return await client.initialize_session(
        types.InitializeParams(capabilities=capabilities, initialization_options=None)
    )


def document() -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=URI)


def at(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


def span(line: int, start: int, end: int) -> types.Range:
    return types.Range(start=at(line, start), end=at(line, end))


def test_the_expected_columns_are_those_of_the_issue():
    assert [column(FIRST_LINE, X, name) for name in ("utf-16", "utf-8", "utf-32")] == [21, 28, 20]
    assert [column(BROKEN, len(BROKEN), name) for name in ("utf-16", "utf-8", "utf-32")] == [
        14,
        16,
        13,
    ]


@pytest.mark.parametrize(("offered", "chosen"), OFFERS, ids=[str(offer) for offer, _ in OFFERS])
async def test_a_session_in_each_negotiated_encoding(
    fresh: LanguageClient, offered: list[str] | None, chosen: str
):
    result = await start(fresh, offered)
    assert result.capabilities.position_encoding == chosen
    x_column = column(FIRST_LINE, X, chosen)
    x_range = span(0, x_column, x_column + 1)

    session.open_document(fresh, TEXT, uri=URI)
    await fresh.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(fresh.diagnostics[URI]) == []

    # Definition of `x` from its use, and from the declaration itself.
    found = await fresh.text_document_definition_async(
        types.DefinitionParams(text_document=document(), position=at(1, SECOND_LINE.index("x")))
    )
    assert found == types.Location(uri=URI, range=x_range)
    found = await fresh.text_document_definition_async(
        types.DefinitionParams(text_document=document(), position=at(0, x_column))
    )
    assert found == types.Location(uri=URI, range=x_range)

    # References from the declaration.
    references = await fresh.text_document_references_async(
        types.ReferenceParams(
            text_document=document(),
            position=at(0, x_column),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    use = SECOND_LINE.index("x")
    assert sorted((ref.range.start.line, ref.range.start.character) for ref in references) == [
        (0, x_column),
        (1, use),
    ]

    # Semantic tokens, full and ranged: columns and lengths in the encoding.
    tokens = await fresh.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=document())
    )
    absolute = session.decode_tokens(tokens.data)
    string_start = FIRST_LINE.index('"')
    string_end = FIRST_LINE.index('"', string_start + 1) + 1
    expected_string = (
        0,
        column(FIRST_LINE, string_start, chosen),
        column(FIRST_LINE, string_end, chosen) - column(FIRST_LINE, string_start, chosen),
    )
    assert expected_string in [token[:3] for token in absolute]
    assert (0, x_column, 1) in [token[:3] for token in absolute]
    ranged = await fresh.text_document_semantic_tokens_range_async(
        types.SemanticTokensRangeParams(text_document=document(), range=x_range)
    )
    assert [token[:3] for token in session.decode_tokens(ranged.data)] == [(0, x_column, 1)]

    # The error at the end of a line holding an astral character.
    session.open_document(fresh, BROKEN, uri=BROKEN_URI)
    await fresh.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    [error] = fresh.diagnostics[BROKEN_URI]
    line_end = column(BROKEN, len(BROKEN), chosen)
    assert error.range == span(0, line_end, line_end)
    pulled = await fresh.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=BROKEN_URI))
    )
    assert [item.range for item in pulled.items] == [error.range]

    # A ranged change typing `y` right after that `x`.
    fresh.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=span(0, x_column + 1, x_column + 1), text="y"
                )
            ],
        )
    )
    await fresh.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    symbols = await fresh.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=document())
    )
    assert [symbol.name for symbol in symbols] == ["s", "xy", "y"]
    assert symbols[1].selection_range == span(0, x_column, x_column + 2)
