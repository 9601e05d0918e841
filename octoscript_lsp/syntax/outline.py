"""Top-level `fn` and `let` declarations (the outline) of checked source."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import count as counting
from operator import itemgetter
from typing import NamedTuple

from .lexer import LexResult
from .statements import AFTER_TOKEN, EMPTY_MEMO, FIRST_TOKEN, StatementMemo, per_statement
from .tokens import (
    CLOSERS,
    END,
    IDENT,
    LBRACE,
    NEWLINE,
    OPENERS,
    RBRACE,
    SEMICOLON,
    Token,
)


class Declaration(NamedTuple):
    """One top-level declaration. A named tuple: an outline makes one per
    top-level `fn` and `let` (a frozen dataclass's `__init__` sets each
    field through `object.__setattr__`, several times the cost)."""

    kind: str  # "function" or "let"
    name: str
    start: int
    end: int
    selection_start: int
    selection_end: int


def top_level_declarations(tokens: Sequence[Token]) -> list[Declaration]:
    """The `fn` and `let` declarations outside every brace, in order.

    It runs once per top-level statement a version has not seen (the
    outline's per-statement memo), so kinds are read as module constants
    (`tokens.py`), a function's closing brace is found by counting from
    its opening one, not from a map of every brace pair, and the body it
    closes is not walked a second time.
    """
    declarations: list[Declaration] = []
    closings: dict[int, int | None] = {}
    depth = 0
    count = len(tokens)
    index = -1
    while index + 1 < count:
        index += 1
        token = tokens[index]
        kind = token.kind
        if kind is LBRACE:
            closing = closings.get(index)
            if closing is not None:
                # A function body whose closing brace `_function_end` found:
                # everything inside lies deeper, and the brace brings the
                # depth back to this one.
                index = closing
                continue
            depth += 1
        elif kind is RBRACE:
            if depth:
                depth -= 1
        elif kind is IDENT and depth == 0:
            word = token.text
            if word != "fn" and word != "let":
                continue
            if index + 1 >= count or tokens[index + 1].kind is not IDENT:
                continue
            name = tokens[index + 1]
            if word == "fn":
                end = _function_end(tokens, index + 2, closings, name.end)
                declarations.append(
                    Declaration("function", name.text, token.start, end, name.start, name.end)
                )
            else:
                end = _let_end(tokens, index + 2, name.end)
                declarations.append(
                    Declaration("let", name.text, token.start, end, name.start, name.end)
                )
    return declarations


def _function_end(
    tokens: Sequence[Token], after_name: int, closings: dict[int, int | None], fallback: int
) -> int:
    """Where the body after a function's name ends (the end of the `}` that
    closes its first `{`), or `fallback` where nothing closes it."""
    for index in range(after_name, len(tokens)):
        if tokens[index].kind is LBRACE:
            closing = closings.get(index, _UNSEEN)
            if closing is _UNSEEN:
                closing = closings[index] = _closing_brace(tokens, index)
            return tokens[closing].end if closing is not None else fallback
    return fallback


_UNSEEN = -1


def _closing_brace(tokens: Sequence[Token], opening: int) -> int | None:
    """The index of the `}` that closes the `{` at `opening`: the first one
    after it that every `{` in between is closed before."""
    depth = 0
    for index in range(opening + 1, len(tokens)):
        kind = tokens[index].kind
        if kind is LBRACE:
            depth += 1
        elif kind is RBRACE:
            if not depth:
                return index
            depth -= 1
    return None


def _let_end(tokens: Sequence[Token], after_name: int, end: int) -> int:
    nesting = 0
    for index in range(after_name, len(tokens)):
        token = tokens[index]
        kind = token.kind
        if kind is END or (nesting == 0 and (kind is NEWLINE or kind is SEMICOLON)):
            return end
        if kind in OPENERS:
            nesting += 1
        elif kind in CLOSERS:
            if nesting:
                nesting -= 1
        end = token.end
    return end


def statement_declarations(
    tokens: Sequence[Token], first: int, after: int
) -> tuple[Declaration, ...]:
    """`top_level_declarations(tokens[first:after])` for a top-level statement
    of valid source (tokens `first` to `after`, its line breaks and `;`
    after it included), reading only its first two tokens and its last.

    The grammar takes `fn` and `let` only where a statement starts (in an
    expression they are reserved words: an error). A top-level statement
    starts outside every brace and each statement inside it starts in a
    block, inside braces; so only its first token can start a declaration
    outside every brace. And a declaration is the whole statement: a
    function's parameters are names (its first `{` opens its body, whose
    `}` ends the statement), a `let` ends at the first line break or `;`
    outside brackets, where its statement ends. (A test compares the two
    over every valid text it has.)
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


# A top-level statement's declarations by its text: (its offset, declarations).
OutlineMemo = StatementMemo[tuple[int, tuple[Declaration, ...]]]


# A statement's declarations as found: (its offset now, its offset when they
# were found, the declarations with the offsets of then, its position among
# the top-level statements or -1 when there is no statement memo).
AnchoredDeclarations = tuple[int, int, tuple[Declaration, ...], int]


def declarations_by_statement(
    source: str,
    lex: LexResult,
    units: list[tuple[int, int, int, int, int]],
    previous: OutlineMemo,
) -> tuple[list[AnchoredDeclarations], OutlineMemo]:
    """`top_level_declarations` of valid source, statement by statement: the
    declarations of each statement that has any, in order.

    In valid source every top-level statement starts outside any brace and
    closes what it opens, so its declarations come from its own tokens; a
    statement the parser kept keeps its tuple, with the offsets of the place
    it was found at (`placed_declarations` moves them when asked), so an edit
    that moves every later statement makes no new declarations.
    """
    tokens = lex.tokens

    def found_at(position: int) -> tuple[int, tuple[Declaration, ...]]:
        first, after = units[position][FIRST_TOKEN], units[position][AFTER_TOKEN]
        return tokens[first].start, statement_declarations(tokens, first, after)

    pieces, memo = per_statement(source, lex, units, previous, found_at, None)
    # (offset, origin, declarations, position) of the statements with any,
    # put together column by column in C: it is made again every version.
    found = list(map(_VALUE, pieces))
    anchored = zip(
        map(_FIRST, pieces), map(_FIRST, found), map(_VALUE, found), counting(), strict=False
    )
    return list(filter(_DECLARATIONS, anchored)), memo


_FIRST, _VALUE, _DECLARATIONS = itemgetter(0), itemgetter(1), itemgetter(2)


def placed_declarations(piece: AnchoredDeclarations) -> tuple[Declaration, ...]:
    """A statement's declarations at its offset in this version."""
    offset, origin, declarations = piece[0], piece[1], piece[2]
    if offset == origin:
        return declarations
    return tuple(_moved(item, offset - origin) for item in declarations)


def _moved(item: Declaration, delta: int) -> Declaration:
    return Declaration(
        item.kind,
        item.name,
        item.start + delta,
        item.end + delta,
        item.selection_start + delta,
        item.selection_end + delta,
    )


def valid_source_declarations(
    source: str, lex: LexResult, units: list[tuple[int, int, int, int, int]]
) -> list[Declaration]:
    """The outline of valid source with no earlier version: the editor's
    per-statement walk (`declarations_by_statement`), flattened."""
    found, _ = declarations_by_statement(source, lex, units, EMPTY_MEMO)
    return [item for piece in found for item in placed_declarations(piece)]
