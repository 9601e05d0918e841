"""Characters and skips over raw source text, one definition for the lexer and
the analysis.

The analysis reads some things straight from the text (a `let` initializer's
record shape, the path before a cursor, a declaration header) where the
token stream is not at hand or would cost more; it must read identifiers,
whitespace and comments exactly as the lexer does, so both take them from
here.
"""

from __future__ import annotations

import re

from .tokens import RESERVED_WORDS

IDENT_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
IDENT_CONTINUE = IDENT_START | frozenset("0123456789")
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Whitespace between tokens: the lexer's horizontal space plus line breaks.
TRIVIA_SPACE = frozenset(" \t\f\n\r")
# Every ASCII whitespace character (vertical tab included): the edges of a
# cursor's word, where the text around it need not lex.
ASCII_SPACE = frozenset(" \t\n\r\f\v")


def is_canonical_identifier(name: str) -> bool:
    """One identifier token, not a reserved word."""
    return IDENTIFIER.fullmatch(name) is not None and name not in RESERVED_WORDS


def identifier_end(source: str, start: int, limit: int | None = None) -> int:
    """Where the run of identifier characters from `start` ends (at most `limit`)."""
    limit = len(source) if limit is None else limit
    while start < limit and source[start] in IDENT_CONTINUE:
        start += 1
    return start


def identifier_start_before(source: str, end: int) -> int:
    """Where the run of identifier characters ending at `end` starts."""
    while end > 0 and source[end - 1] in IDENT_CONTINUE:
        end -= 1
    return end


def skip_space_forward(source: str, start: int) -> int:
    length = len(source)
    while start < length and source[start] in ASCII_SPACE:
        start += 1
    return start


def skip_space_backward(source: str, end: int) -> int:
    while end > 0 and source[end - 1] in ASCII_SPACE:
        end -= 1
    return end


def skip_trivia(source: str, index: int, limit: int | None = None) -> int | None:
    """Skip whitespace and comments from `index`; None when a block comment
    does not close before `limit` (the end of the text by default)."""
    limit = len(source) if limit is None else limit
    while True:
        while index < limit and source[index] in TRIVIA_SPACE:
            index += 1
        if index + 1 >= limit or source[index] != "/":
            return index
        following = source[index + 1]
        if following == "/":
            index += 2
            while index < limit and source[index] not in "\n\r":
                index += 1
        elif following == "*":
            close = source.find("*/", index + 2, limit)
            if close == -1:
                return None
            index = close + 2
        else:
            return index


def skip_string(source: str, index: int, limit: int) -> tuple[int | None, bool]:
    """Skip a string literal's body from `index` (just after its opening quote).

    (after the closing quote, True) when it closes before `limit`; (None,
    False) at a line break, which ends an unterminated string as the lexer
    sees it; (where the scan stopped, False) when `limit` comes first.
    Escapes are skipped whole, not checked (the lexer reports bad ones).
    """
    while index < limit:
        char = source[index]
        if char == '"':
            return index + 1, True
        if char == "\\":
            index += 2
        elif char in "\n\r":
            return None, False
        else:
            index += 1
    return index, False


def has_bare_carriage_return(text: str) -> bool:
    """Whether a CR in `text` is not the start of a CRLF (a line break of its
    own for the protocol, an error for the lexer)."""
    return "\r" in text and text.count("\r") != text.count("\r\n")
