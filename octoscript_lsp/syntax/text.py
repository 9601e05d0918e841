"""Characters of raw source text, one definition for the lexer and the analysis.

The analysis reads some things straight from the text (the path before a
cursor, a declaration header) where the token stream is not at hand or
would cost more; it must read identifiers and whitespace exactly as the
lexer does, so both take them from here. Comments and strings are read by
`trivia.py`.
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


def skip_space_backward(source: str, end: int) -> int:
    while end > 0 and source[end - 1] in ASCII_SPACE:
        end -= 1
    return end


def has_bare_carriage_return(text: str) -> bool:
    """Whether a CR in `text` is not the start of a CRLF (a line break of its
    own for the protocol, an error for the lexer)."""
    return "\r" in text and text.count("\r") != text.count("\r\n")
