"""Recursive-descent parser for canonical Octoscript (grammar v0.2).

The parser recovers the way the reference checker does (statement-level
synchronisation, diagnostics at the offending token) so diagnostics, their
order and the first-error position match it. Recursion only deepens through
`_enter_nesting`, which caps it at MAX_SYNTAX_NESTING levels; `parse` raises
Python's recursion limit just enough for that bound.
"""

from __future__ import annotations

import sys

from ..limits import MAX_SYNTAX_NESTING, PARSER_FRAMES_PER_NESTING_LEVEL, PARSER_SPARE_FRAMES
from .codes import SyntaxCode
from .expressions import ExpressionRules
from .parse_result import ParseResult
from .tokens import (
    END,
    IDENT,
    LBRACE,
    LPAREN,
    RBRACE,
    RPAREN,
    Token,
)
from .tree import (
    IMPORT,
    LET_INIT,
    SYMBOL_FUNCTION,
    SYMBOL_IMPORT,
    SYMBOL_LET,
    SYMBOL_PARAMETER,
    Node,
)

# Words that start a statement other than an expression statement.
_STATEMENT_WORDS = frozenset({"use", "let", "fn", "return", "break", "continue"})


def parse(
    tokens: list[Token], max_nesting: int = MAX_SYNTAX_NESTING, text_start: bool = True
) -> ParseResult:
    """Parse a token list: a whole text, or from a top-level step's start
    (not `text_start`). Every top-level step starts in the same state and
    reads only its own tokens and the one after it (`statements.py` relies
    on that)."""
    needed = _stack_depth() + max_nesting * PARSER_FRAMES_PER_NESTING_LEVEL + PARSER_SPARE_FRAMES
    previous_limit = sys.getrecursionlimit()
    if previous_limit < needed:
        sys.setrecursionlimit(needed)
    try:
        parser = _Parser(tokens, max_nesting)
        tree = parser.parse_program(text_start)
    finally:
        if previous_limit < needed:
            sys.setrecursionlimit(previous_limit)
    sink = parser.sink
    return ParseResult(
        tree,
        sink.items,
        sink.truncated,
        sink.first_offset,
        parser.events,
        parser.all_diagnostics,
        parser.units,
        parser.unit_offsets,
        parser.unit_runtime_checks,
    )


def _stack_depth() -> int:
    depth = 0
    frame = sys._getframe()
    while frame is not None:
        depth += 1
        frame = frame.f_back
    return depth


class _Parser(ExpressionRules):
    """Recursive descent over canonical grammar v0.2, one method per rule."""

    # ---------------------------------------------------------------- statements

    def parse_program(self, text_start: bool) -> Node:
        statements: list[Node] = []
        if text_start:
            # Only the text's start skips line breaks: a step may start with
            # one (after a stray `}`).
            self.consume_statement_ends()
        tokens = self.tokens
        while (first := tokens[self.index]).kind is not END:
            unit_start = self.index
            self.unit_offsets.append(first.start)
            self.runtime_suspect = False
            if first.kind is RBRACE:
                self.report_current(
                    "unexpected `}` at top level", SyntaxCode.UNEXPECTED_CLOSING_BRACE
                )
                self.advance()
            else:
                statements.append(self.parse_statement())
                self.end_statement(unit_start)
            self.units.append(
                (
                    unit_start,
                    self.index,
                    len(self.events),
                    len(self.all_diagnostics),
                    len(statements),
                )
            )
            self.unit_runtime_checks.append(self.runtime_suspect)
        return Node("program", 0, self.tokens[-1].end, statements)

    def parse_statement_list(self) -> list[Node]:
        statements: list[Node] = []
        self.consume_statement_ends()
        while not self.at_end() and not self.at_kind(RBRACE):
            before = self.index
            statements.append(self.parse_statement())
            self.end_statement(before)
        return statements

    def parse_block(self) -> Node:
        start = self.tokens[self.index].start
        if not self.enter_nesting():
            return self.node("error", start)
        if not self.take_kind(LBRACE):
            self.report_current("expected `{` to start a block", SyntaxCode.EXPECTED_TOKEN)
            self.leave_nesting()
            return self.node("error", start)
        statements = self.parse_statement_list()
        if not self.take_kind(RBRACE):
            self.report_current("expected `}` to close a block", SyntaxCode.EXPECTED_TOKEN)
        self.leave_nesting()
        return self.node("block", start, statements)

    def parse_statement(self) -> Node:
        keyword = self.index
        token = self.tokens[keyword]
        if token.kind is not IDENT or token.text not in _STATEMENT_WORDS:
            return self.parse_expression()
        start, word = token.start, token.text
        self.index = keyword + 1  # an identifier is never the END token
        if word == "let":
            return self.parse_declaration(start, keyword)
        if word == "fn":
            return self.parse_function_declaration(start, keyword)
        if word == "use":
            return self.node("use", start, self.parse_import(), keyword)
        if word == "return":
            value = [] if self.at_statement_boundary() else [self.parse_expression()]
            return self.node("return", start, value, keyword)
        return self.node(word, start, [], keyword)  # break, continue

    def parse_import(self) -> list[Node]:
        module_token = self.index
        if not self.take_ident("mod"):
            self.report_current("expected `mod` after `use`", SyntaxCode.EXPECTED_TOKEN)
            return []
        if not self.take_op("."):
            self.report_current("expected `.` after `use mod`", SyntaxCode.EXPECTED_TOKEN)
            return []
        path = ["mod"]
        path_start = self.tokens[module_token].start
        path_end = self.tokens[module_token].end
        segments = [self._name(module_token, "segment")]
        binding = self.take_plain_ident("expected a module identifier after `use mod.`")
        while True:
            if binding is not None:
                path.append(self.tokens[binding].text)
                path_end = self.tokens[binding].end
                segments.append(self._name(binding, "segment"))
            if not self.take_op("."):
                break
            binding = self.take_plain_ident("expected a module identifier after `.`")
        if binding is not None:
            if self.at_import_statement_end():
                self.events.append((IMPORT, tuple(path), path_start, path_end, binding))
            self.define(binding, SYMBOL_IMPORT)
        return segments

    def parse_declaration(self, start: int, keyword: int) -> Node:
        binding = self.take_plain_ident("expected an identifier after `let`")
        children: list[Node] = []
        if binding is not None:
            children.append(self._name(binding))
        initializer = -1
        if self.take_op("="):
            initializer = self.index
            children.append(self.parse_expression())
        elif not self.at_statement_boundary():
            self.report_current(
                "expected `=` or a statement end after a `let` declaration",
                SyntaxCode.EXPECTED_TOKEN,
            )
        if binding is not None:
            if initializer >= 0:
                self.events.append((LET_INIT, binding, initializer))
            self.define(binding, SYMBOL_LET)
        return self.node("let", start, children, binding if binding is not None else keyword)

    def parse_function_declaration(self, start: int, keyword: int) -> Node:
        binding = self.take_plain_ident("expected a function identifier after `fn`")
        if binding is not None:
            self.define(binding, SYMBOL_FUNCTION)
        self.push_scope()
        params = self.parse_parameter_list()
        body = self.parse_block()
        self.pop_scope()
        children = ([self._name(binding)] if binding is not None else []) + [params, body]
        return self.node("fn", start, children, binding if binding is not None else keyword)

    def parse_parameter_list(self) -> Node:
        start = self.tokens[self.index].start
        if not self.take_kind(LPAREN):
            self.report_current("expected `(` after a function name", SyntaxCode.EXPECTED_TOKEN)
            return self.node("params", start, [])
        names = self.comma_list(
            RPAREN, "parameter", "expected `,` or `)` after a parameter", self._parameter
        )
        return self.node("params", start, names)

    def _parameter(self) -> Node | None:
        parameter = self.take_plain_ident("expected a parameter identifier")
        if parameter is None:
            return None
        self.define(parameter, SYMBOL_PARAMETER)
        return self._name(parameter)
