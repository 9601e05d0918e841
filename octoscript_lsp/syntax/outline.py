"""Top-level `fn` and `let` declarations (the outline) of checked source."""

from __future__ import annotations

from dataclasses import dataclass

from .lexer import LexResult
from .statements import AFTER_TOKEN, FIRST_TOKEN, StatementMemo, per_statement
from .tokens import Kind, Token


@dataclass(frozen=True, slots=True)
class Declaration:
    kind: str  # "function" or "let"
    name: str
    start: int
    end: int
    selection_start: int
    selection_end: int


def matching_braces(tokens: list[Token]) -> dict[int, int]:
    """Map each `{` token index to the index of its closing `}` in one pass."""
    pairs: dict[int, int] = {}
    open_stack: list[int] = []
    for index, token in enumerate(tokens):
        if token.kind is Kind.LBRACE:
            open_stack.append(index)
        elif token.kind is Kind.RBRACE and open_stack:
            pairs[open_stack.pop()] = index
    return pairs


def top_level_declarations(tokens: list[Token]) -> list[Declaration]:
    declarations: list[Declaration] = []
    braces = matching_braces(tokens)
    depth = 0
    count = len(tokens)
    for index, token in enumerate(tokens):
        kind = token.kind
        if kind is Kind.LBRACE:
            depth += 1
        elif kind is Kind.RBRACE:
            depth = max(0, depth - 1)
        elif kind is Kind.IDENT and depth == 0 and token.text in ("fn", "let"):
            if index + 1 >= count or tokens[index + 1].kind is not Kind.IDENT:
                continue
            name = tokens[index + 1]
            if token.text == "fn":
                end = _function_end(tokens, index + 2, braces, name.end)
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
    tokens: list[Token], after_name: int, braces: dict[int, int], fallback: int
) -> int:
    for index in range(after_name, len(tokens)):
        if tokens[index].kind is Kind.LBRACE:
            closing = braces.get(index)
            return tokens[closing].end if closing is not None else fallback
    return fallback


_OPENERS = (Kind.LBRACE, Kind.LPAREN, Kind.LBRACKET)
_CLOSERS = (Kind.RBRACE, Kind.RPAREN, Kind.RBRACKET)


def _let_end(tokens: list[Token], after_name: int, end: int) -> int:
    nesting = 0
    for index in range(after_name, len(tokens)):
        token = tokens[index]
        kind = token.kind
        if kind is Kind.END or (nesting == 0 and kind in (Kind.NEWLINE, Kind.SEMICOLON)):
            return end
        if kind in _OPENERS:
            nesting += 1
        elif kind in _CLOSERS:
            nesting = max(0, nesting - 1)
        end = token.end
    return end


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
        return tokens[first].start, tuple(top_level_declarations(tokens[first:after]))

    pieces, memo = per_statement(source, lex, units, previous, found_at, None)
    return [
        (offset, origin, declarations, position)
        for position, (offset, (origin, declarations)) in enumerate(pieces)
        if declarations
    ], memo


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
