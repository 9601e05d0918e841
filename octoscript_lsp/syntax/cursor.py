"""The parser's state and token cursor: position, diagnostics, nesting and
scope events. `parser._Parser` adds the grammar on top of it."""

from __future__ import annotations

from .codes import SyntaxCode
from .diagnostics import Diagnostic, DiagnosticSink
from .moved import Piece
from .tokens import RESERVED_WORDS, Kind, Token
from .tree import DEFINE, POP, PUSH, Node, SymbolKind

# Words that start a control expression (`if`, `try`, ... used as values).
CONTROL_WORDS = ("if", "try", "for", "loop", "while")


class ParserCursor:
    """Where the parser stands in the token list and what it has recorded."""

    def __init__(self, tokens: list[Token], max_nesting: int) -> None:
        self.tokens = tokens
        self.index = 0
        self.nesting = 0
        self.max_nesting = max_nesting
        self.sink = DiagnosticSink()
        # Scope events recorded by this parse; those reused before and after
        # them are pieces of the previous parse's (see syntax/moved.py).
        self.events: list[tuple] = []
        self.events_head: list[Piece] = []
        self.events_base = 0  # how many events the head holds
        self.events_tail: list[Piece] = []
        # The same for the top-level tree nodes.
        self.children_head: list[Piece] = []
        self.children_base = 0
        self.children_tail: list[Piece] = []
        self.all_diagnostics: list[Diagnostic] = []
        self.units: list[tuple[int, int, int, int, int]] = []
        self.unit_offsets: list[int] = []
        # (first old step, first new step, how many, offset delta) carried over.
        self.kept_runs: list[tuple[int, int, int, int]] = []

    def events_fresh(self) -> list[Piece]:
        return [(self.events, 0, len(self.events), None)]

    # ---------------------------------------------------------------- cursor

    @property
    def current(self) -> Token:
        return self.tokens[self.index]

    def at_end(self) -> bool:
        return self.tokens[self.index].kind is Kind.END

    def advance(self) -> None:
        if self.tokens[self.index].kind is not Kind.END:
            self.index += 1

    def at_kind(self, kind: Kind) -> bool:
        return self.tokens[self.index].kind is kind

    def take_kind(self, kind: Kind) -> bool:
        if self.tokens[self.index].kind is kind:
            self.advance()
            return True
        return False

    def at_ident(self, name: str) -> bool:
        token = self.tokens[self.index]
        return token.kind is Kind.IDENT and token.text == name

    def take_ident(self, name: str) -> bool:
        if self.at_ident(name):
            self.advance()
            return True
        return False

    def take_op(self, op: str) -> bool:
        token = self.tokens[self.index]
        if token.kind is Kind.OPERATOR and token.text == op:
            self.advance()
            return True
        return False

    def take_any_op(self, ops: tuple[str, ...]) -> str | None:
        token = self.tokens[self.index]
        if token.kind is Kind.OPERATOR and token.text in ops:
            self.advance()
            return token.text
        return None

    def take_plain_ident(self, message: str) -> int | None:
        token = self.tokens[self.index]
        if token.kind is Kind.IDENT and token.text not in RESERVED_WORDS:
            index = self.index
            self.advance()
            return index
        self.report_current(message, SyntaxCode.EXPECTED_IDENTIFIER)
        return None

    def at_statement_boundary(self) -> bool:
        kind = self.tokens[self.index].kind
        return kind in (Kind.NEWLINE, Kind.SEMICOLON, Kind.RBRACE, Kind.END)

    def at_import_statement_end(self) -> bool:
        return self.tokens[self.index].kind in (Kind.NEWLINE, Kind.SEMICOLON, Kind.END)

    def at_expression_boundary(self) -> bool:
        return self.tokens[self.index].kind in (
            Kind.NEWLINE,
            Kind.SEMICOLON,
            Kind.RBRACE,
            Kind.END,
            Kind.COMMA,
            Kind.RPAREN,
            Kind.RBRACKET,
        )

    def starts_lambda(self) -> bool:
        token = self.tokens[self.index]
        return token.kind is Kind.OPERATOR and token.text in ("|", "||")

    def starts_control_expression(self) -> bool:
        token = self.tokens[self.index]
        return token.kind is Kind.IDENT and token.text in CONTROL_WORDS

    def previous_end(self, fallback: int) -> int:
        return self.tokens[self.index - 1].end if self.index > 0 else fallback

    def node(
        self, kind: str, start: int, children: list[Node] | None = None, token: int = -1
    ) -> Node:
        end = max(start, self.previous_end(start))
        return Node(kind, start, end, children if children is not None else [], token)

    # ---------------------------------------------------------------- reports

    def report(self, offset: int, message: str, code: SyntaxCode) -> None:
        self.all_diagnostics.append(Diagnostic(offset, message, code))
        self.sink.report(offset, message, code)

    def report_current(self, message: str, code: SyntaxCode) -> None:
        self.report(self.tokens[self.index].start, message, code)

    def report_previous(self, message: str, code: SyntaxCode) -> None:
        token = self.tokens[self.index - 1] if self.index > 0 else self.tokens[self.index]
        self.report(token.start, message, code)

    def enter_nesting(self) -> bool:
        if self.nesting >= self.max_nesting:
            self.report_current(
                f"canonical Octoscript nesting exceeds the maximum of {self.max_nesting}",
                SyntaxCode.NESTING_LIMIT,
            )
            return False
        self.nesting += 1
        return True

    def leave_nesting(self) -> None:
        if self.nesting > 0:
            self.nesting -= 1

    # ---------------------------------------------------------------- scope events

    def push_scope(self) -> None:
        self.events.append((PUSH,))

    def pop_scope(self) -> None:
        self.events.append((POP, self.tokens[self.index].start))

    def define(self, token_index: int, kind: SymbolKind) -> None:
        self.events.append((DEFINE, token_index, kind, self.tokens[self.index].start))
