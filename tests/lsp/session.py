"""Helpers shared by the end-to-end tests that drive the server through pytest-lsp."""

from __future__ import annotations

from lsprotocol import types
from pytest_lsp import LanguageClient


def open_document(client: LanguageClient, text: str, *, uri: str, version: int = 1) -> None:
    """Send didOpen for an Octoscript document (each test module binds its own `uri`)."""
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="octoscript", version=version, text=text
            )
        )
    )


def plain(value: object) -> object:
    """A custom request's result as plain JSON, however the client structured it."""
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        return {key: plain(item) for key, item in value._asdict().items()}
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    return value


def decode_tokens(data: list[int]) -> list[tuple[int, int, int, int, int]]:
    """Semantic tokens' relative numbers as absolute (line, column, length, type, modifiers)."""
    found = []
    line = character = 0
    for index in range(0, len(data), 5):
        delta_line, delta_character, length, token_type, modifiers = data[index : index + 5]
        line += delta_line
        character = character + delta_character if delta_line == 0 else delta_character
        found.append((line, character, length, token_type, modifiers))
    return found
