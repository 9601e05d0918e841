"""The parser's state and token cursor: position, diagnostics, nesting,
statement ends and scope events; `parser._Parser` adds the grammar."""

from __future__ import annotations

from .codes import SyntaxCode
from .diagnostics import Diagnostic, DiagnosticSink
from .tokens import (
    COMMA,
    END,
    IDENT,
    NEWLINE,
    OPERATOR,
    RBRACE,
    RBRACKET,
    RESERVED_WORDS,
    RPAREN,
    SEMICOLON,
    Kind,
    Token,
)
from .tree import DEFINE, POP, PUSH, Node, SymbolKind

# Words that start a control expression (`if`, `try`, ... used as values).
CONTROL_WORDS = frozenset({"if", "try", "for", "loop", "while"})
# Tokens that end a statement (a tuple: `in` compares enum members by identity).
STATEMENT_ENDS = (NEWLINE, SEMICOLON)
_EXPRESSION_ENDS = (NEWLINE, SEMICOLON, RBRACE, END, COMMA, RPAREN, RBRACKET)


class ParserCursor:
    """Where the parser stands in the token list and what it has recorded."""

    def __init__(self, tokens: list[Token], max_nesting: int) -> None:
        self.tokens = tokens
        self.index = 0
        self.nesting = 0
        self.max_nesting = max_nesting
        self.sink = DiagnosticSink()
        self.events: list[tuple] = []
        self.all_diagnostics: list[Diagnostic] = []
        self.units: list[tuple[int, int, int, int, int]] = []
        # Per step: whether it holds a construct the runtime-parser rules
        # (vm_compat) look at; `runtime_suspect` collects it for the step
        # being parsed.
        self.unit_runtime_checks: list[bool] = []
        self.runtime_suspect = False

    # ---------------------------------------------------------------- cursor

    def at_end(self) -> bool:
        return self.tokens[self.index].kind is END

    def advance(self) -> None:
        if self.tokens[self.index].kind is not END:
            self.index += 1

    def at_kind(self, kind: Kind) -> bool:
        return self.tokens[self.index].kind is kind

    def take_kind(self, kind: Kind) -> bool:
        if self.tokens[self.index].kind is kind:
            if kind is not END:
                self.index += 1
            return True
        return False

    def at_ident(self, name: str) -> bool:
        token = self.tokens[self.index]
        return token.kind is IDENT and token.text == name

    # The `take_*` below step past an identifier or operator: never END.

    def take_ident(self, name: str) -> bool:
        token = self.tokens[self.index]
        if token.kind is IDENT and token.text == name:
            self.index += 1
            return True
        return False

    def take_op(self, op: str) -> bool:
        token = self.tokens[self.index]
        if token.kind is OPERATOR and token.text == op:
            self.index += 1
            return True
        return False

    def take_plain_ident(self, message: str) -> int | None:
        index = self.index
        token = self.tokens[index]
        if token.kind is IDENT and token.text not in RESERVED_WORDS:
            self.index = index + 1
            return index
        self.report_current(message, SyntaxCode.EXPECTED_IDENTIFIER)
        return None

    def at_statement_boundary(self) -> bool:
        return self.tokens[self.index].kind in (NEWLINE, SEMICOLON, RBRACE, END)

    def at_import_statement_end(self) -> bool:
        return self.tokens[self.index].kind in (NEWLINE, SEMICOLON, END)

    def at_expression_boundary(self) -> bool:
        return self.tokens[self.index].kind in _EXPRESSION_ENDS

    def starts_lambda(self) -> bool:
        token = self.tokens[self.index]
        return token.kind is OPERATOR and token.text in ("|", "||")

    def starts_control_expression(self) -> bool:
        token = self.tokens[self.index]
        return token.kind is IDENT and token.text in CONTROL_WORDS

    def node(
        self, kind: str, start: int, children: list[Node] | None = None, token: int = -1
    ) -> Node:
        index = self.index
        end = self.tokens[index - 1].end if index > 0 else start
        if end < start:
            end = start
        return Node(kind, start, end, children if children is not None else [], token)

    def _name(self, index: int, kind: str = "name") -> Node:
        """The node of the one token at `index`."""
        token = self.tokens[index]
        return Node(kind, token.start, token.end, [], index)

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

    # ---------------------------------------------------------------- statement ends

    def end_statement(self, before: int) -> None:
        """After a statement that started at token `before`: step over its
        end, or report the missing end and resynchronise; never stay put."""
        self.require_statement_end()
        if self.index == before:
            self.advance()

    def require_statement_end(self) -> None:
        kind = self.tokens[self.index].kind
        if kind is NEWLINE or kind is SEMICOLON:
            self.consume_statement_ends()
        elif not self.at_end():
            self.report_current(
                "expected a newline or `;` after a statement", SyntaxCode.MISSING_STATEMENT_END
            )
            self.synchronize_statement()

    def synchronize_statement(self) -> None:
        while not self.at_statement_boundary():
            self.advance()
        self.consume_statement_ends()

    def consume_statement_ends(self) -> None:
        while self.tokens[self.index].kind in STATEMENT_ENDS:
            self.index += 1

    def consume_newlines(self) -> None:
        while self.tokens[self.index].kind is NEWLINE:
            self.index += 1
