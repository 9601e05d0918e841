"""The outline's definition, read from a whole token list: every `fn` and
`let` + name outside every brace. `outline.statement_declarations` reads a
statement's first tokens only; the tests compare the two."""

from __future__ import annotations

from collections.abc import Sequence

from octoscript_lsp.syntax.outline import Declaration
from octoscript_lsp.syntax.tokens import (
    END,
    IDENT,
    LBRACE,
    LBRACKET,
    LPAREN,
    NEWLINE,
    RBRACE,
    RBRACKET,
    RPAREN,
    SEMICOLON,
    Token,
)


def top_level_declarations(tokens: Sequence[Token]) -> list[Declaration]:
    """The `fn` and `let` declarations outside every brace, in order; a
    function ends with the `}` that closes its first `{`, a `let` at the
    first line break or `;` outside brackets."""
    declarations: list[Declaration] = []
    depth = 0
    for index, token in enumerate(tokens):
        if token.kind is LBRACE:
            depth += 1
        elif token.kind is RBRACE:
            depth = max(depth - 1, 0)
        elif token.kind is IDENT and depth == 0 and token.text in ("fn", "let"):
            if index + 1 >= len(tokens) or tokens[index + 1].kind is not IDENT:
                continue
            name = tokens[index + 1]
            if token.text == "fn":
                kind, end = "function", _function_end(tokens, index + 2, name.end)
            else:
                kind, end = "let", _let_end(tokens, index + 2, name.end)
            declarations.append(
                Declaration(kind, name.text, token.start, end, name.start, name.end)
            )
    return declarations


def _function_end(tokens: Sequence[Token], after_name: int, fallback: int) -> int:
    opening = next(
        (index for index in range(after_name, len(tokens)) if tokens[index].kind is LBRACE), None
    )
    if opening is None:
        return fallback
    depth = 0
    for index in range(opening + 1, len(tokens)):
        if tokens[index].kind is LBRACE:
            depth += 1
        elif tokens[index].kind is RBRACE:
            if not depth:
                return tokens[index].end
            depth -= 1
    return fallback


def _let_end(tokens: Sequence[Token], after_name: int, end: int) -> int:
    nesting = 0
    for token in tokens[after_name:]:
        kind = token.kind
        if kind is END or (nesting == 0 and kind in (NEWLINE, SEMICOLON)):
            return end
        if kind in (LBRACE, LPAREN, LBRACKET):
            nesting += 1
        elif kind in (RBRACE, RPAREN, RBRACKET) and nesting:
            nesting -= 1
        end = token.end
    return end
