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
    COMMA,
    END,
    IDENT,
    LBRACE,
    LPAREN,
    OPERATOR,
    RBRACE,
    RESERVED_WORDS,
    RPAREN,
    Token,
)
from .tree import (
    DEFINE,
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
    """Recursive descent over canonical grammar v0.2, one method per rule.

    The hot rules make their nodes directly (`Node(...)`) where they have
    taken at least one token since the node's start: the node then ends
    where the last taken token does, all that `node()` would work out.
    """

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
        tokens = self.tokens
        # `at_end`/`at_kind` inlined: this loop runs once per statement.
        while (kind := tokens[self.index].kind) is not END and kind is not RBRACE:
            before = self.index
            statements.append(self.parse_statement())
            self.end_statement(before)
        return statements

    def parse_block(self) -> Node:
        tokens = self.tokens
        opening = tokens[self.index]
        start = opening.start
        if not self.enter_nesting():
            return self.node("error", start)
        if opening.kind is not LBRACE:
            self.report_current("expected `{` to start a block", SyntaxCode.EXPECTED_TOKEN)
            self.leave_nesting()
            return self.node("error", start)
        self.index += 1
        statements = self.parse_statement_list()
        if tokens[self.index].kind is RBRACE:
            self.index += 1
        else:
            self.report_current("expected `}` to close a block", SyntaxCode.EXPECTED_TOKEN)
        self.nesting -= 1  # `leave_nesting`: entered above
        return Node("block", start, tokens[self.index - 1].end, statements, -1)

    def parse_statement(self) -> Node:
        keyword = self.index
        token = self.tokens[keyword]
        if token.kind is not IDENT or token.text not in _STATEMENT_WORDS:
            return self.parse_expression()
        start, word = token.start, token.text
        self.index = keyword + 1  # an identifier is never the END token
        if word == "let":
            tokens = self.tokens
            binding = keyword + 1
            name = tokens[binding]
            if (
                name.kind is IDENT
                and name.text not in RESERVED_WORDS
                and tokens[binding + 1].kind is OPERATOR  # after an identifier: at worst END
                and tokens[binding + 1].text == "="
            ):
                # `let name = value`, nearly every declaration: what
                # `parse_declaration` does then, without its checks and calls.
                self.index = binding + 2
                made = Node("name", name.start, name.end, [], binding)
                children = [made, self.parse_expression()]
                self.events.append((LET_INIT, binding, binding + 2))
                self.events.append((DEFINE, binding, SYMBOL_LET, tokens[self.index].start))
                return Node("let", start, tokens[self.index - 1].end, children, binding)
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
        segments = [Node("segment", path_start, path_end, [], module_token)]
        binding = self.take_plain_ident("expected a module identifier after `use mod.`")
        if binding is not None:
            path.append(self.tokens[binding].text)
            path_end = self.tokens[binding].end
            segments.append(self._segment(binding))
        while self.take_op("."):
            binding = self.take_plain_ident("expected a module identifier after `.`")
            if binding is not None:
                path.append(self.tokens[binding].text)
                path_end = self.tokens[binding].end
                segments.append(self._segment(binding))
        if binding is not None:
            if self.at_import_statement_end():
                self.events.append((IMPORT, tuple(path), path_start, path_end, binding))
            self.define(binding, SYMBOL_IMPORT)
        return segments

    def _segment(self, index: int) -> Node:
        token = self.tokens[index]
        return Node("segment", token.start, token.end, [], index)

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
        names: list[Node] = []
        if not self.take_kind(LPAREN):
            self.report_current("expected `(` after a function name", SyntaxCode.EXPECTED_TOKEN)
            return self.node("params", start, names)
        if self.take_kind(RPAREN):
            return self.node("params", start, names)
        tokens = self.tokens
        while True:
            parameter = self.index
            token = tokens[parameter]
            if token.kind is IDENT and token.text not in RESERVED_WORDS:
                # `take_plain_ident`, `_name` and `define` inlined: once per parameter.
                self.index = parameter + 1
                names.append(Node("name", token.start, token.end, [], parameter))
                self.events.append(
                    (DEFINE, parameter, SYMBOL_PARAMETER, tokens[parameter + 1].start)
                )
            else:
                self.take_plain_ident("expected a parameter identifier")  # reports
            kind = tokens[self.index].kind  # `take_kind` inlined below: never END
            if kind is COMMA:
                self.index += 1
                if tokens[self.index].kind is RPAREN:
                    self.report_current(
                        "trailing commas are not part of the canonical parameter grammar",
                        SyntaxCode.TRAILING_COMMA,
                    )
                    self.advance()
                    return self.node("params", start, names)
                continue
            if kind is RPAREN:
                self.index += 1
            else:
                self.report_current(
                    "expected `,` or `)` after a parameter",
                    SyntaxCode.EXPECTED_TOKEN,
                )
            return self.node("params", start, names)
