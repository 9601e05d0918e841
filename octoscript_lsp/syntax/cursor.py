"""The parser's state and token cursor: position, diagnostics, nesting, statement ends,
scope events, and the top-level steps taken over from an earlier parse.
`parser._Parser` adds the grammar on top of it."""

from __future__ import annotations

from bisect import bisect_left
from operator import itemgetter

from .codes import SyntaxCode
from .diagnostics import Diagnostic, DiagnosticSink
from .moved import Piece, moved_pieces, pieces_of
from .parse_result import ParseResult, TailReuse
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
# A step entry's index of the token after the step (`ParseResult.units`).
_AFTER_TOKEN = itemgetter(1)


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
        # Per step: whether it holds a construct the runtime-parser rules
        # (vm_compat) look at; `runtime_suspect` collects it for the step
        # being parsed.
        self.unit_runtime_checks: list[bool] = []
        self.runtime_suspect = False
        # (first old step, first new step, how many, offset delta) carried over.
        self.kept_runs: list[tuple[int, int, int, int]] = []

    def events_fresh(self) -> list[Piece]:
        return [(self.events, 0, len(self.events), None)]

    # ---------------------------------------------------------------- cursor

    @property
    def current(self) -> Token:
        return self.tokens[self.index]

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
        kind = self.tokens[self.index].kind
        return kind in (NEWLINE, SEMICOLON, RBRACE, END)

    def at_import_statement_end(self) -> bool:
        return self.tokens[self.index].kind in (NEWLINE, SEMICOLON, END)

    def at_expression_boundary(self) -> bool:
        return self.tokens[self.index].kind in (
            NEWLINE,
            SEMICOLON,
            RBRACE,
            END,
            COMMA,
            RPAREN,
            RBRACKET,
        )

    def starts_lambda(self) -> bool:
        token = self.tokens[self.index]
        return token.kind is OPERATOR and token.text in ("|", "||")

    def starts_control_expression(self) -> bool:
        token = self.tokens[self.index]
        return token.kind is IDENT and token.text in CONTROL_WORDS

    def previous_end(self, fallback: int) -> int:
        return self.tokens[self.index - 1].end if self.index > 0 else fallback

    def node(
        self, kind: str, start: int, children: list[Node] | None = None, token: int = -1
    ) -> Node:
        index = self.index
        end = self.tokens[index - 1].end if index > 0 else start
        if end < start:
            end = start
        return Node(kind, start, end, children if children is not None else [], token)

    def _name(self, index: int) -> Node:
        token = self.tokens[index]
        return Node("name", token.start, token.end, [], index)

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

    # ---------------------------------------------------------------- steps reused

    def reuse_units(self, previous: ParseResult, shared_tokens: int) -> bool:
        """Adopt the leading steps of `previous` whose tokens are all shared."""
        units = previous.units
        # A step examined the token after it (index `next_index`) too; those
        # indices grow from step to step.
        count = bisect_left(units, shared_tokens, key=_AFTER_TOKEN)
        if count == 0:
            return False
        _, next_index, events_end, diagnostics_end, children_end = units[count - 1]
        self.index = next_index
        self.events_head = pieces_of(previous.events, 0, events_end)
        self.events_base = events_end
        for diagnostic in previous.all_diagnostics[:diagnostics_end]:
            self.report(diagnostic.offset, diagnostic.message, diagnostic.code)
        self.children_head = pieces_of(previous.tree.children, 0, children_end)
        self.children_base = children_end
        self.units = units[:count]
        self.unit_offsets = previous.unit_offsets[:count]
        self.unit_runtime_checks = previous.unit_runtime_checks[:count]
        self.kept_runs.append((0, 0, count, 0))
        return True

    def adopt_tail(self, tail: TailReuse, statements: list[Node]) -> bool:
        """At a step start inside the unchanged tail, take every remaining old step.

        Costs a binary search where it fails; where it succeeds, the old
        steps' events and nodes are taken as references (moved when read) and
        only their step entries are copied, shifted in C.
        """
        start = self.tokens[self.index].start
        if start < tail.from_offset:
            return False
        previous = tail.previous
        old_offsets = previous.unit_offsets
        old_offset = start - tail.delta
        position = bisect_left(old_offsets, old_offset)
        if position == len(old_offsets) or old_offsets[position] != old_offset:
            return False
        old_units = previous.units
        old_start = old_units[position][0]
        if not tail.same_tokens_from(self.index, old_start):
            return False
        shift, delta = self.index - old_start, tail.delta
        events_base, diagnostics_base, children_base = (
            old_units[position - 1][2:] if position > 0 else (0, 0, 0)
        )
        # How far each running count moves: new count before the tail minus old.
        events_move = self.events_base + len(self.events) - events_base
        diagnostics_move = len(self.all_diagnostics) - diagnostics_base
        children_move = self.children_base + len(statements) - children_base
        # References to the old steps' events and nodes, moved when read.
        old_events = pieces_of(previous.events, events_base, len(previous.events))
        self.events_tail = moved_pieces(old_events, shift, delta)
        old_children = previous.tree.children
        old_nodes = pieces_of(old_children, children_base, len(old_children))
        self.children_tail = moved_pieces(old_nodes, shift, delta)
        for diagnostic in previous.all_diagnostics[diagnostics_base:]:
            self.report(diagnostic.offset + delta, diagnostic.message, diagnostic.code)
        kept_offsets = old_offsets[position:]
        self.unit_offsets += map(delta.__add__, kept_offsets) if delta else kept_offsets
        self.unit_runtime_checks += previous.unit_runtime_checks[position:]
        self.kept_runs.append((position, len(self.units), len(old_units) - position, delta))
        kept_units = old_units[position:]
        if shift or events_move or diagnostics_move or children_move:
            # Each field moved by its own amount: columns, added and zipped in C.
            firsts, afters, events, diagnostics, children = zip(*kept_units, strict=True)
            self.units += zip(
                map(shift.__add__, firsts),
                map(shift.__add__, afters),
                map(events_move.__add__, events),
                map(diagnostics_move.__add__, diagnostics),
                map(children_move.__add__, children),
                strict=True,
            )
        else:
            self.units += kept_units  # an edit that moved nothing: the very entries
        self.index = len(self.tokens) - 1
        return True

    # ---------------------------------------------------------------- statement ends

    def end_statement(self, before: int) -> None:
        """After a statement that started at token `before`: step over its
        end, or report the missing end and resynchronise; never stay put."""
        tokens, index = self.tokens, self.index
        kind = tokens[index].kind
        if kind is NEWLINE or kind is SEMICOLON:
            # `require_statement_end` inlined for the usual case, which moves.
            index += 1
            while tokens[index].kind in STATEMENT_ENDS:
                index += 1
            self.index = index
            return
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
        while self.tokens[self.index].kind not in (
            END,
            NEWLINE,
            SEMICOLON,
            RBRACE,
        ):
            self.advance()
        self.consume_statement_ends()

    def consume_statement_ends(self) -> None:
        tokens, index = self.tokens, self.index
        while tokens[index].kind in STATEMENT_ENDS:
            index += 1
        self.index = index

    def consume_newlines(self) -> None:
        tokens, index = self.tokens, self.index
        while tokens[index].kind is NEWLINE:
            index += 1
        self.index = index
