"""Token kinds, tokens and the fixed word lists of canonical Octoscript.

Offsets are code-point offsets into the source string; the LSP edge converts
them to the negotiated position encoding and the CLI to UTF-8 bytes.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from enum import Enum


class Kind(Enum):
    IDENT = "identifier"
    NUMBER = "number"
    STRING = "string"
    NEWLINE = "newline"
    SEMICOLON = ";"
    COMMA = ","
    LBRACE = "{"
    RBRACE = "}"
    LPAREN = "("
    RPAREN = ")"
    LBRACKET = "["
    RBRACKET = "]"
    OPERATOR = "operator"
    END = "end"


# The kinds as module constants, for code that runs once per token (the
# lexer and the parser): on CPython 3.11 reading a member through its class
# (`Kind.IDENT`) takes EnumType.__getattr__'s unspecialised path, about
# 100 ns a read against ~5 ns for a module global, and the parser reads a
# few kinds for every token (~5 ms of a 4,090-line document's first parse).
IDENT = Kind.IDENT
NUMBER = Kind.NUMBER
STRING = Kind.STRING
NEWLINE = Kind.NEWLINE
SEMICOLON = Kind.SEMICOLON
COMMA = Kind.COMMA
LBRACE = Kind.LBRACE
RBRACE = Kind.RBRACE
LPAREN = Kind.LPAREN
RPAREN = Kind.RPAREN
LBRACKET = Kind.LBRACKET
RBRACKET = Kind.RBRACKET
OPERATOR = Kind.OPERATOR
END = Kind.END

# Which closing bracket ends which opening one: the one table of bracket
# pairs, which every bracket matcher reads through these views (tuples for
# `in` per token, as a dict look-up hashes the member in Python).
CLOSER_OF: dict[Kind, Kind] = {LPAREN: RPAREN, LBRACKET: RBRACKET, LBRACE: RBRACE}
OPENER_OF: dict[Kind, Kind] = {closer: opener for opener, closer in CLOSER_OF.items()}
OPENERS = tuple(CLOSER_OF)
CLOSERS = tuple(OPENER_OF)
# The pairs as characters, for code that reads raw text.
CLOSING_CHAR = {opener.value: closer.value for opener, closer in CLOSER_OF.items()}


class Token:
    """One lexical token; `text` holds the spelling of identifiers and operators."""

    __slots__ = ("kind", "text", "start", "end")

    def __init__(self, kind: Kind, text: str, start: int, end: int) -> None:
        self.kind = kind
        self.text = text
        self.start = start
        self.end = end

    def is_ident(self, name: str) -> bool:
        return self.kind is Kind.IDENT and self.text == name

    def is_op(self, op: str) -> bool:
        return self.kind is Kind.OPERATOR and self.text == op

    def __repr__(self) -> str:
        return f"Token({self.kind.name}, {self.text!r}, {self.start}, {self.end})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Token):
            return NotImplemented
        return (self.kind, self.text, self.start, self.end) == (
            other.kind,
            other.text,
            other.start,
            other.end,
        )

    def __hash__(self) -> int:
        return hash((self.kind, self.text, self.start, self.end))


KEYWORDS = frozenset(
    {
        "if",
        "elif",
        "else",
        "try",
        "for",
        "in",
        "loop",
        "while",
        "fn",
        "let",
        "return",
        "break",
        "continue",
        "use",
        "true",
        "false",
        "nil",
    }
)

# Rejected compatibility spellings the inherited VM would give other meanings.
COMPATIBILITY_WORDS = frozenset(
    {"var", "match", "ok", "do", "and", "or", "is", "mut", "me", "scope"}
)

# Words that can never name a binding or appear as a plain expression name.
RESERVED_WORDS = KEYWORDS | COMPATIBILITY_WORDS

OPERATOR_CHARS = frozenset("!^&*+-|?:=@><./~%")

CANONICAL_OPERATORS = frozenset(
    {
        "!",
        "-",
        "+",
        "~",
        "=",
        "+=",
        "-=",
        "*=",
        "/=",
        "%=",
        "||",
        "&&",
        "==",
        "!=",
        "<",
        "<=",
        ">",
        ">=",
        "*",
        "/",
        "%",
        ".",
        ":",
        "|",
    }
)

ASSIGNMENT_OPERATORS = ("=", "+=", "-=", "*=", "/=", "%=")


def first_token_from(tokens: Sequence[Token], offset: int) -> int:
    """Index of the first token starting at or after `offset` (len(tokens) if none)."""
    return bisect_left(tokens, offset, key=_token_start)


def _token_start(token: Token) -> int:
    return token.start
