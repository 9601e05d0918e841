"""The real server: random ranged edits answer like a fresh open of the spec text (issue 15)."""

from __future__ import annotations

import itertools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp import session
from tests.sync.differential import BASES, Edit, random_sequence

_uris = itertools.count()


def _open(client: LanguageClient, uri: str, text: str) -> None:
    session.open_document(client, text, uri=uri)


def _change(client: LanguageClient, uri: str, version: int, edit: Edit) -> None:
    if edit.start is None or edit.end is None:
        change: types.TextDocumentContentChangeEvent = types.TextDocumentContentChangeWholeDocument(
            text=edit.text
        )
    else:
        change = types.TextDocumentContentChangePartial(
            range=types.Range(
                start=types.Position(line=edit.start[0], character=edit.start[1]),
                end=types.Position(line=edit.end[0], character=edit.end[1]),
            ),
            text=edit.text,
        )
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[change],
        )
    )


async def _answers(client: LanguageClient, uri: str) -> dict:
    document = types.TextDocumentIdentifier(uri=uri)
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=document)
    )
    found = {
        "diagnostics": report.items,
        "symbols": await client.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=document)
        ),
        "semantic_tokens": (
            await client.text_document_semantic_tokens_full_async(
                types.SemanticTokensParams(text_document=document)
            )
        ).data,
        "folding": await client.text_document_folding_range_async(
            types.FoldingRangeParams(text_document=document)
        ),
    }
    try:
        found["formatting"] = await client.text_document_formatting_async(
            types.DocumentFormattingParams(
                text_document=document,
                options=types.FormattingOptions(tab_size=4, insert_spaces=True),
            )
        )
    except Exception as refusal:  # noqa: BLE001 - the refusal itself is compared
        found["formatting"] = str(refusal)
    return found


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.sampled_from(BASES), st.randoms(use_true_random=False), st.integers(1, 8))
async def test_edited_document_answers_like_a_fresh_open(
    client: LanguageClient, base: str, rng: random.Random, count: int
):
    number = next(_uris)
    edited, fresh = f"file:///edited{number}.octoscript", f"file:///fresh{number}.octoscript"
    _open(client, edited, base)
    text = base
    for version, edit in enumerate(random_sequence(rng, base, count), 2):
        _change(client, edited, version, edit)
        text = edit.apply(text)
    _open(client, fresh, text)
    assert await _answers(client, edited) == await _answers(client, fresh)
