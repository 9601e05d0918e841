"""Parameter lists of named functions, read from the declaration header."""

from __future__ import annotations

from ..limits import MAX_SIGNATURE_HEADER_BYTES, MAX_SIGNATURE_PARAMETERS
from .sites import identifier_end_after, is_canonical_identifier

_SPACE = frozenset(" \t\n\r\f\v")


def _skip_trivia(source: str, index: int, limit: int) -> int | None:
    """Skip whitespace and comments; None when a comment runs past `limit`."""
    while index < limit:
        char = source[index]
        if char in _SPACE:
            index += 1
        elif source.startswith("//", index):
            while index < limit and source[index] not in "\n\r":
                index += 1
        elif source.startswith("/*", index):
            close = source.find("*/", index + 2, limit)
            if close == -1:
                return None
            index = close + 2
        else:
            return index
    return index


def function_parameters(source: str, name_end: int, prefix_end: int) -> list[str] | None:
    """`(a, b) {` after a function name -> ["a", "b"]; None for anything else.

    The scan is bounded to MAX_SIGNATURE_HEADER_BYTES and
    MAX_SIGNATURE_PARAMETERS so a pathological header costs little.
    """
    limit = min(name_end + MAX_SIGNATURE_HEADER_BYTES, prefix_end, len(source))
    index = _skip_trivia(source, name_end, limit)
    if index is None or index >= limit or source[index] != "(":
        return None
    parameters: list[str] = []
    index += 1
    expect_name = True
    while True:
        index = _skip_trivia(source, index, limit)
        if index is None or index >= limit:
            return None
        char = source[index]
        if char == ")" and (not expect_name or not parameters):
            index += 1
            break
        if expect_name:
            end = identifier_end_after(source, index)
            name = source[index:end]
            if not is_canonical_identifier(name):
                return None
            if len(parameters) == MAX_SIGNATURE_PARAMETERS:
                return None
            parameters.append(name)
            index = end
            expect_name = False
        elif char == ",":
            index += 1
            expect_name = True
        else:
            return None
    index = _skip_trivia(source, index, limit)
    # Like the reference, the `{` itself may sit right at the window's end.
    if index is None or index >= len(source) or source[index] != "{":
        return None
    return parameters
