"""Top-level `fn` and `let` declarations (the outline) of checked source."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .statements import Statement, Statements
from .tokens import (
    END,
    IDENT,
    NEWLINE,
    RBRACE,
    SEMICOLON,
    Token,
)


class Declaration(NamedTuple):
    """One top-level declaration (a named tuple: cheaper to make than a frozen dataclass)."""

    kind: str  # "function" or "let"
    name: str
    start: int
    end: int
    selection_start: int
    selection_end: int


def statement_declarations(
    tokens: Sequence[Token], first: int, after: int
) -> tuple[Declaration, ...]:
    """The top-level `fn` or `let` a top-level statement of valid source
    declares (tokens `first` to `after`, its statement ends included).

    Only a statement's first token can start a declaration outside every
    brace, and a declaration is the whole statement; so its first two
    tokens and its last say it all (`tests/syntax/outline_reference.py`
    walks every token to check).
    """
    if after - first < 2:
        return ()
    token, name = tokens[first], tokens[first + 1]
    if token.kind is not IDENT or name.kind is not IDENT:
        return ()
    word = token.text
    if word != "fn" and word != "let":
        return ()
    last = after - 1
    while last > first + 1 and tokens[last].kind in _STATEMENT_ENDS:
        last -= 1
    if word == "fn":
        end = tokens[last].end if tokens[last].kind is RBRACE else name.end
        return (Declaration("function", name.text, token.start, end, name.start, name.end),)
    return (Declaration("let", name.text, token.start, tokens[last].end, name.start, name.end),)


_STATEMENT_ENDS = (NEWLINE, SEMICOLON, END)


# The per-statement view: a statement's declarations, relative to its start.
OUTLINE = "outline"
# A statement's place now and its declarations relative to it.
StatementOutline = tuple[int, tuple[Declaration, ...]]


def outline_of(statements: Statements) -> list[StatementOutline]:
    """The outline of valid source by top-level statement, those without
    declarations left out (`statement_declarations`: in valid source a
    statement's declarations come from its own tokens)."""
    return [piece for piece in statements.values(OUTLINE, _relative_declarations) if piece[1]]


def _relative_declarations(statement: Statement) -> tuple[Declaration, ...]:
    found = statement_declarations(statement.tokens, statement.first, statement.after)
    return tuple(_moved(item, -statement.origin) for item in found)


def placed_declarations(piece: StatementOutline) -> tuple[Declaration, ...]:
    """A statement's declarations at its place in this version."""
    start, declarations = piece
    return tuple(_moved(item, start) for item in declarations)


def _moved(item: Declaration, delta: int) -> Declaration:
    return Declaration(
        item.kind,
        item.name,
        item.start + delta,
        item.end + delta,
        item.selection_start + delta,
        item.selection_end + delta,
    )
