"""Parameter lists of named functions, read from the declaration header."""

from __future__ import annotations

from ..limits import MAX_SIGNATURE_HEADER_BYTES, MAX_SIGNATURE_PARAMETERS
from ..syntax.text import identifier_end, is_canonical_identifier
from ..syntax.trivia import skip_trivia

#: What hover and signature help say of a function declared in the document.
NAMED_FUNCTION_NOTE = "Named function declared in this document."


def function_parameters(source: str, name_end: int, prefix_end: int) -> list[str] | None:
    """`(a, b) {` after a function name -> ["a", "b"]; None for anything else.

    The scan is bounded to MAX_SIGNATURE_HEADER_BYTES and
    MAX_SIGNATURE_PARAMETERS so a pathological header costs little.
    """
    limit = min(name_end + MAX_SIGNATURE_HEADER_BYTES, prefix_end, len(source))
    index = skip_trivia(source, name_end, limit)
    if index is None or index >= limit or source[index] != "(":
        return None
    parameters: list[str] = []
    index += 1
    expect_name = True
    while True:
        index = skip_trivia(source, index, limit)
        if index is None or index >= limit:
            return None
        char = source[index]
        if char == ")" and (not expect_name or not parameters):
            index += 1
            break
        if expect_name:
            end = identifier_end(source, index)
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
    index = skip_trivia(source, index, limit)
    # Like the reference, the `{` itself may sit right at the window's end.
    if index is None or index >= len(source) or source[index] != "{":
        return None
    return parameters
