"""Recursive-descent parser for canonical Octoscript (grammar v0.2).

The parser recovers the way the reference checker does (statement-level
synchronisation, diagnostics at the offending token) so diagnostics, their
order and the first-error position match it. Recursion only deepens through
`_enter_nesting`, which caps it at MAX_SYNTAX_NESTING levels; `parse` raises
Python's recursion limit just enough for that bound.
"""

from __future__ import annotations

import sys

from ..limits import MAX_SYNTAX_NESTING
from .codes import SyntaxCode
from .cursor import CONTROL_WORDS, ParserCursor
from .moved import assemble
from .parse_result import (
    ParseResult,
    TailReuse,
    moved_events,
    moved_nodes,
    unit_starts_by_offset,
)
from .statements import StepMap
from .tokens import ASSIGNMENT_OPERATORS, RESERVED_WORDS, Kind, Token
from .tree import IMPORT, LET_INIT, REFERENCE, Node, SymbolKind

# Python frames per nesting level of the deepest recursion path (a lambda or
# call argument takes 19: expression, assignment, six precedence levels of two
# frames each, unary, postfix, primary/call, lambda/list, body), with margin.
_FRAMES_PER_NESTING_LEVEL = 24

_NON_VALUE_TRY_TAIL = frozenset(
    {"use", "let", "fn", "return", "break", "continue", "for", "loop", "while"}
)
_LITERAL_WORDS = frozenset({"true", "false", "nil"})
# Words that start a statement other than an expression statement.
_STATEMENT_WORDS = frozenset({"use", "let", "fn", "return", "break", "continue"})
_UNARY_OPERATORS = ("!", "-", "+", "~")
# Tokens that can make a whole expression alone, and the kinds of the next
# token that would make it part of a larger one (operators, calls, indexing).
# (Tuples: `in` compares enum members by identity; a frozenset would call
# Enum.__hash__, a Python function.)
_LONE_OPERANDS = (Kind.IDENT, Kind.NUMBER, Kind.STRING)
_OPERAND_GOES_ON = (Kind.OPERATOR, Kind.LPAREN, Kind.LBRACKET)
_BINARY_PRECEDENCE = {
    "||": 1,
    "&&": 2,
    "==": 3,
    "!=": 3,
    "<": 4,
    "<=": 4,
    ">": 4,
    ">=": 4,
    "+": 5,
    "-": 5,
    "*": 6,
    "/": 6,
    "%": 6,
}


def parse(
    tokens: list[Token],
    max_nesting: int = MAX_SYNTAX_NESTING,
    previous: ParseResult | None = None,
    shared_tokens: int = 0,
    tail: TailReuse | None = None,
) -> ParseResult:
    """Parse a token list; with `previous`, reuse its leading top-level steps.

    `shared_tokens` is how many leading tokens are the very tokens `previous`
    was parsed from. A top-level step is reused when every token it examined,
    including the one after it, is among them: the parser starts each step in
    the same state, so it would do exactly the same again. With `tail`, once
    a step starts in the unchanged tail where an earlier step started, every
    remaining earlier step is adopted with its offsets and token indices
    shifted.
    """
    needed = _stack_depth() + max_nesting * _FRAMES_PER_NESTING_LEVEL + 200
    previous_limit = sys.getrecursionlimit()
    if previous_limit < needed:
        sys.setrecursionlimit(needed)
    try:
        parser = _Parser(tokens, max_nesting)
        tree = parser.parse_program(previous, shared_tokens, tail)
    finally:
        if previous_limit < needed:
            sys.setrecursionlimit(previous_limit)
    sink = parser.sink
    return ParseResult(
        tree,
        sink.items,
        sink.truncated,
        sink.first_offset,
        assemble(parser.events_head + parser.events_fresh() + parser.events_tail, moved_events),
        parser.all_diagnostics,
        parser.units,
        parser.unit_offsets,
        StepMap(tuple(parser.kept_runs)) if previous is not None else None,
        parser.unit_runtime_checks,
    )


def _stack_depth() -> int:
    depth = 0
    frame = sys._getframe()
    while frame is not None:
        depth += 1
        frame = frame.f_back
    return depth


class _Parser(ParserCursor):
    """Recursive descent over canonical grammar v0.2, one method per rule."""

    # ---------------------------------------------------------------- statements

    def parse_program(
        self,
        previous: ParseResult | None = None,
        shared_tokens: int = 0,
        tail: TailReuse | None = None,
    ) -> Node:
        # Fresh top-level nodes; the reused ones before and after them are
        # pieces of the previous tree (see syntax/moved.py).
        statements: list[Node] = []
        if previous is not None and self.reuse_units(previous, shared_tokens):
            pass
        else:
            self.consume_statement_ends()
        tail_starts = unit_starts_by_offset(tail) if tail is not None else None
        while not self.at_end():
            if tail_starts is not None and self.adopt_tail(tail, tail_starts, statements):
                break
            unit_start = self.index
            self.unit_offsets.append(self.tokens[unit_start].start)
            self.runtime_suspect = False
            if self.at_kind(Kind.RBRACE):
                self.report_current(
                    "unexpected `}` at top level", SyntaxCode.UNEXPECTED_CLOSING_BRACE
                )
                self.advance()
            else:
                before = self.index
                statements.append(self.parse_statement())
                self.require_statement_end()
                if self.index == before:
                    self.advance()
            self.units.append(
                (
                    unit_start,
                    self.index,
                    self.events_base + len(self.events),
                    len(self.all_diagnostics),
                    self.children_base + len(statements),
                )
            )
            self.unit_runtime_checks.append(self.runtime_suspect)
        end = self.tokens[-1].end
        fresh = [(statements, 0, len(statements), None)]
        # One node at a time: a moved node is a copy of its whole subtree.
        children = assemble(self.children_head + fresh + self.children_tail, moved_nodes, 0)
        return Node("program", 0, end, children)

    def parse_statement_list(self) -> list[Node]:
        statements: list[Node] = []
        self.consume_statement_ends()
        while not self.at_end() and not self.at_kind(Kind.RBRACE):
            before = self.index
            statements.append(self.parse_statement())
            self.require_statement_end()
            if self.index == before:
                self.advance()
        return statements

    def parse_block(self) -> Node:
        start = self.tokens[self.index].start
        if not self.enter_nesting():
            return self.node("error", start)
        if not self.take_kind(Kind.LBRACE):
            self.report_current("expected `{` to start a block", SyntaxCode.EXPECTED_TOKEN)
            self.leave_nesting()
            return self.node("error", start)
        statements = self.parse_statement_list()
        if not self.take_kind(Kind.RBRACE):
            self.report_current("expected `}` to close a block", SyntaxCode.EXPECTED_TOKEN)
        self.leave_nesting()
        return self.node("block", start, statements)

    def parse_statement(self) -> Node:
        keyword = self.index
        token = self.tokens[keyword]
        if token.kind is not Kind.IDENT or token.text not in _STATEMENT_WORDS:
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
            self.define(binding, SymbolKind.IMPORT)
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
            self.define(binding, SymbolKind.LET)
        return self.node("let", start, children, binding if binding is not None else keyword)

    def _name(self, index: int) -> Node:
        token = self.tokens[index]
        return Node("name", token.start, token.end, [], index)

    def parse_function_declaration(self, start: int, keyword: int) -> Node:
        binding = self.take_plain_ident("expected a function identifier after `fn`")
        if binding is not None:
            self.define(binding, SymbolKind.FUNCTION)
        self.push_scope()
        params = self.parse_parameter_list()
        body = self.parse_block()
        self.pop_scope()
        children = ([self._name(binding)] if binding is not None else []) + [params, body]
        return self.node("fn", start, children, binding if binding is not None else keyword)

    def parse_parameter_list(self) -> Node:
        start = self.tokens[self.index].start
        names: list[Node] = []
        if not self.take_kind(Kind.LPAREN):
            self.report_current("expected `(` after a function name", SyntaxCode.EXPECTED_TOKEN)
            return self.node("params", start, names)
        if self.take_kind(Kind.RPAREN):
            return self.node("params", start, names)
        while True:
            parameter = self.take_plain_ident("expected a parameter identifier")
            if parameter is not None:
                names.append(self._name(parameter))
                self.define(parameter, SymbolKind.PARAMETER)
            if self.take_kind(Kind.COMMA):
                if self.at_kind(Kind.RPAREN):
                    self.report_current(
                        "trailing commas are not part of the canonical parameter grammar",
                        SyntaxCode.TRAILING_COMMA,
                    )
                    self.advance()
                    return self.node("params", start, names)
                continue
            if not self.take_kind(Kind.RPAREN):
                self.report_current(
                    "expected `,` or `)` after a parameter",
                    SyntaxCode.EXPECTED_TOKEN,
                )
            return self.node("params", start, names)

    # ---------------------------------------------------------------- expressions

    def parse_expression(self) -> Node:
        keyword = self.index
        token = self.tokens[keyword]
        start = token.start
        # `enter_nesting`/`leave_nesting` inlined: this runs once per expression.
        if self.nesting >= self.max_nesting:
            self.enter_nesting()  # reports the limit
            return self.node("error", start)
        self.nesting += 1
        kind = token.kind
        if kind is Kind.IDENT and token.text in CONTROL_WORDS:
            result = self._parse_control(token.text, start, keyword)
        elif kind in _LONE_OPERANDS and self.tokens[keyword + 1].kind not in _OPERAND_GOES_ON:
            # A lone name or literal: what every precedence level below
            # `parse_assignment` would hand up unchanged.
            result = self.parse_primary()
        else:
            result = self.parse_assignment()
        self.nesting -= 1
        return result

    def _parse_control(self, word: str, start: int, keyword: int) -> Node:
        if word == "if":
            return self.parse_if_expression()
        if word == "try":
            return self.parse_try_expression()
        if word == "for":
            return self.parse_for_expression()
        self.advance()
        self.push_scope()
        if word == "loop":
            body = self.parse_block()
            self.pop_scope()
            return self.node("loop", start, [body], keyword)
        condition = self.parse_condition_or_iterable("while")
        body = self.parse_block()
        self.pop_scope()
        return self.node("while", start, [condition, body], keyword)

    def parse_condition_or_iterable(self, context: str) -> Node:
        start = self.tokens[self.index].start
        if self.starts_control_expression():
            self.report_current(
                f"a control expression used as an `{context}` condition or iterable "
                "must be parenthesized",
                SyntaxCode.UNPARENTHESIZED_CONDITION,
            )
            return self.node("error", start)
        if self.starts_lambda():
            self.report_current(
                f"a lambda used as an `{context}` condition or iterable must be parenthesized",
                SyntaxCode.UNPARENTHESIZED_CONDITION,
            )
            return self.node("error", start)
        condition = self.parse_assignment()
        if condition.kind == "assign":
            self.runtime_suspect = True  # maybe a member assignment as a condition
        return condition

    def parse_try_expression(self) -> Node:
        start = self.tokens[self.index].start
        keyword = self.index
        self.advance()
        children: list[Node] = []
        if self.at_ident("catch") or self.at_expression_boundary():
            self.report_current(
                "expected an expression or block after `try`", SyntaxCode.EXPECTED_EXPRESSION
            )
        else:
            children.append(self.parse_try_branch("protected"))
        if not self.take_ident("catch"):
            self.report_current(
                "expected `catch` after the protected expression or block",
                SyntaxCode.EXPECTED_TOKEN,
            )
            return self.node("try", start, children, keyword)
        if self.at_expression_boundary():
            self.report_current(
                "expected an expression or block after `catch`", SyntaxCode.EXPECTED_EXPRESSION
            )
        else:
            children.append(self.parse_try_branch("fallback"))
        return self.node("try", start, children, keyword)

    def parse_try_branch(self, branch: str) -> Node:
        if not self.at_kind(Kind.LBRACE):
            return self.parse_expression()
        start = self.tokens[self.index].start
        if not self.enter_nesting():
            return self.node("error", start)
        self.advance()
        self.consume_statement_ends()
        ends_with_value = False
        statements: list[Node] = []
        while not self.at_end() and not self.at_kind(Kind.RBRACE):
            before = self.index
            token = self.current
            ends_with_value = not (token.kind is Kind.IDENT and token.text in _NON_VALUE_TRY_TAIL)
            statements.append(self.parse_statement())
            self.require_statement_end()
            if self.index == before:
                self.advance()
        if self.take_kind(Kind.RBRACE):
            if not ends_with_value:
                self.report_previous(
                    f"a try {branch} block must end with a value-producing expression; "
                    "use `nil` for no value",
                    SyntaxCode.TRY_BLOCK_WITHOUT_VALUE,
                )
        else:
            self.report_current("expected `}` to close a try branch", SyntaxCode.EXPECTED_TOKEN)
        self.leave_nesting()
        return self.node("block", start, statements)

    def parse_if_expression(self) -> Node:
        start = self.tokens[self.index].start
        keyword = self.index
        self.advance()
        children: list[Node] = []
        if self.at_expression_boundary():
            self.report_current("expected a condition after `if`", SyntaxCode.EXPECTED_EXPRESSION)
        else:
            children.append(self.parse_condition_or_iterable("if"))
        children.append(self.parse_conditional_branch())
        while self.at_ident("elif"):
            self.advance()
            if self.at_expression_boundary():
                self.report_current(
                    "expected a condition after `elif`", SyntaxCode.EXPECTED_EXPRESSION
                )
            else:
                children.append(self.parse_condition_or_iterable("elif"))
            children.append(self.parse_conditional_branch())
        if self.at_ident("else"):
            self.advance()
            children.append(self.parse_conditional_branch())
        return self.node("if", start, children, keyword)

    def parse_conditional_branch(self) -> Node:
        start = self.tokens[self.index].start
        if self.at_kind(Kind.LBRACE):
            return self.parse_block()
        if self.starts_lambda():
            self.report_current(
                "a lambda used as a conditional branch must be written in a block",
                SyntaxCode.LAMBDA_BRANCH_NEEDS_BLOCK,
            )
            return self.node("error", start)
        if self.at_expression_boundary():
            self.report_current("expected an expression or block", SyntaxCode.EXPECTED_EXPRESSION)
            return self.node("error", start)
        return self.parse_expression()

    def parse_for_expression(self) -> Node:
        start = self.tokens[self.index].start
        keyword = self.index
        self.advance()
        count = 0
        bindings: list[int] = []
        while True:
            if self.at_ident("in"):
                break
            binding = self.take_plain_ident("expected a binding identifier after `for`")
            if binding is not None:
                bindings.append(binding)
            count += 1
            if count > 3:
                self.report_previous(
                    "a `for` expression supports at most three bindings",
                    SyntaxCode.TOO_MANY_FOR_BINDINGS,
                )
            if self.take_kind(Kind.COMMA):
                if self.at_ident("in"):
                    self.report_current(
                        "trailing commas are not part of the canonical `for` binding grammar",
                        SyntaxCode.TRAILING_COMMA,
                    )
                    break
                continue
            break
        names = [self._name(binding) for binding in bindings]
        if count == 0 or not self.take_ident("in"):
            self.report_current("expected `in` after `for` bindings", SyntaxCode.EXPECTED_TOKEN)
            return self.node("for", start, names, keyword)
        if self.at_expression_boundary():
            self.report_current(
                "expected an iterable expression after `in`", SyntaxCode.EXPECTED_EXPRESSION
            )
            iterable = self.node("error", self.tokens[self.index].start)
        else:
            iterable = self.parse_condition_or_iterable("for")
        self.push_scope()
        for binding in bindings:
            self.define(binding, SymbolKind.LOOP_BINDING)
        body = self.parse_block()
        self.pop_scope()
        return self.node("for", start, [*names, iterable, body], keyword)

    def parse_expression_or_block(self) -> Node:
        start = self.tokens[self.index].start
        if self.at_kind(Kind.LBRACE):
            return self.parse_block()
        if self.at_expression_boundary():
            self.report_current("expected an expression or block", SyntaxCode.EXPECTED_EXPRESSION)
            return self.node("error", start)
        return self.parse_expression()

    def parse_assignment(self) -> Node:
        start = self.tokens[self.index].start
        left = self.parse_binary()
        operator = self.index
        while self.take_any_op(ASSIGNMENT_OPERATORS):
            right = self.parse_binary()
            left = self.node("assign", start, [left, right], operator)
            operator = self.index
        return left

    def parse_binary(self, min_precedence: int = 1) -> Node:
        """Left-associative binary operators by precedence climbing.

        Consumes exactly what one function per precedence level would, with
        far fewer Python calls per operand.
        """
        tokens = self.tokens
        token = tokens[self.index]
        start = token.start
        if token.kind is Kind.OPERATOR and token.text in _UNARY_OPERATORS:
            left = self.parse_unary()
        else:
            left = self.parse_postfix()
        while True:
            token = tokens[self.index]
            if token.kind is not Kind.OPERATOR:
                return left
            precedence = _BINARY_PRECEDENCE.get(token.text)
            if precedence is None or precedence < min_precedence:
                return left
            operator = self.index
            self.index = operator + 1
            operand = tokens[operator + 1]
            if operand.kind in _LONE_OPERANDS and tokens[operator + 2].kind not in _OPERAND_GOES_ON:
                # A lone name or literal: all that the levels below would hand up.
                right = self.parse_primary()
            else:
                right = self.parse_binary(precedence + 1)
            left = self.node("binary", start, [left, right], operator)

    def parse_unary(self) -> Node:
        operator = self.index
        token = self.tokens[operator]
        if token.kind is Kind.OPERATOR and token.text in _UNARY_OPERATORS:
            self.index = operator + 1
            operand = self.parse_postfix()
            return self.node("unary", token.start, [operand], operator)
        return self.parse_postfix()

    def parse_postfix(self) -> Node:
        tokens = self.tokens
        start = tokens[self.index].start
        node = self.parse_primary()
        while True:
            token = tokens[self.index]
            kind = token.kind
            if (
                kind is not Kind.LPAREN
                and kind is not Kind.LBRACKET
                and not (kind is Kind.OPERATOR and token.text == ".")
            ):
                return node
            if kind is Kind.LPAREN:
                node = self.parse_call(start, node)
            elif self.take_op("."):
                member = self.take_plain_ident("expected an identifier after `.`")
                node = self.node("member", start, [node], member if member is not None else -1)
            elif self.at_kind(Kind.LBRACKET):
                self.advance()
                children = [node]
                if self.at_kind(Kind.RBRACKET):
                    self.report_current(
                        "expected an index expression between `[` and `]`",
                        SyntaxCode.EXPECTED_EXPRESSION,
                    )
                else:
                    children.append(self.parse_expression())
                if not self.take_kind(Kind.RBRACKET):
                    self.report_current(
                        "expected `]` after an index expression", SyntaxCode.EXPECTED_TOKEN
                    )
                node = self.node("index", start, children)
            else:
                return node

    def parse_call(self, start: int, callee: Node) -> Node:
        open_paren = self.index
        self.advance()
        arguments = self._comma_list(
            Kind.RPAREN, "call", "expected `,` or `)` after a call argument"
        )
        return self.node("call", start, [callee, *arguments], open_paren)

    def _comma_list(self, close: Kind, grammar: str, missing_close: str) -> list[Node]:
        items: list[Node] = []
        if self.take_kind(close):
            return items
        while True:
            items.append(self.parse_expression())
            if self.take_kind(Kind.COMMA):
                if self.at_kind(close):
                    self.report_current(
                        f"trailing commas are not part of the canonical {grammar} grammar",
                        SyntaxCode.TRAILING_COMMA,
                    )
                    self.advance()
                    return items
                continue
            if not self.take_kind(close):
                self.report_current(missing_close, SyntaxCode.EXPECTED_TOKEN)
            return items

    def parse_primary(self) -> Node:
        index = self.index
        token = self.tokens[index]
        start = token.start
        kind = token.kind
        # A literal or name is one token, never END: it ends where the token does.
        if kind is Kind.NUMBER or kind is Kind.STRING:
            self.index = index + 1
            return Node("literal", start, token.end, [], index)
        if kind is Kind.IDENT:
            if token.text in _LITERAL_WORDS:
                self.index = index + 1
                return Node("literal", start, token.end, [], index)
            if token.text not in RESERVED_WORDS:
                self.index = index + 1
                self.events.append((REFERENCE, index))
                return Node("name", start, token.end, [], index)
            self.report_current(
                "reserved words cannot be used as expressions here", SyntaxCode.RESERVED_WORD
            )
            self.advance()
            return self.node("error", start, [], index)
        if kind is Kind.LBRACKET:
            self.advance()
            items = self._comma_list(
                Kind.RBRACKET, "array", "expected `,` or `]` after an array element"
            )
            return self.node("array", start, items, index)
        if kind is Kind.LBRACE:
            return self.parse_record()
        if kind is Kind.LPAREN:
            self.advance()
            inner = self.parse_expression()
            if not self.take_kind(Kind.RPAREN):
                self.report_current(
                    "expected `)` after a parenthesized expression", SyntaxCode.EXPECTED_TOKEN
                )
            return self.node("paren", start, [inner], index)
        if kind is Kind.OPERATOR and token.text in ("|", "||"):
            return self.parse_lambda()
        self.report_current("expected an expression", SyntaxCode.EXPECTED_EXPRESSION)
        if not self.at_end():
            self.advance()
        return self.node("error", start, [], index)

    def parse_record(self) -> Node:
        start = self.tokens[self.index].start
        opening = self.index
        self.advance()
        self.consume_newlines()
        members: list[Node] = []
        if self.take_kind(Kind.RBRACE):
            return self.node("record", start, members, opening)
        while True:
            member_start = self.tokens[self.index].start
            key = self.take_plain_ident("expected a record member identifier")
            if not self.take_op(":"):
                self.report_current(
                    "expected `:` after a record member identifier", SyntaxCode.EXPECTED_TOKEN
                )
                return self.node("record", start, members, opening)
            value = self.parse_expression()
            members.append(
                self.node("field", member_start, [value], key if key is not None else -1)
            )
            if self.take_kind(Kind.COMMA):
                self.consume_newlines()
                if self.at_kind(Kind.RBRACE):
                    self.report_current(
                        "trailing commas are not part of the canonical record grammar",
                        SyntaxCode.TRAILING_COMMA,
                    )
                    self.advance()
                    return self.node("record", start, members, opening)
                continue
            if self.at_kind(Kind.NEWLINE):
                self.consume_newlines()
                if self.take_kind(Kind.RBRACE):
                    return self.node("record", start, members, opening)
                continue
            if self.take_kind(Kind.RBRACE):
                return self.node("record", start, members, opening)
            self.report_current(
                "expected `,`, a newline, or `}` after a record member", SyntaxCode.EXPECTED_TOKEN
            )
            return self.node("record", start, members, opening)

    def parse_lambda(self) -> Node:
        start = self.tokens[self.index].start
        self.runtime_suspect = True  # its tail, or a condition ending in it
        self.push_scope()
        params: list[Node] = []
        if self.take_op("||"):
            body = self.parse_expression_or_block()
            self.pop_scope()
            return self.node("lambda", start, [self.node("params", start, params), body])
        self.take_op("|")
        parameter = self.take_plain_ident("expected a lambda parameter identifier")
        if parameter is not None:
            params.append(self._name(parameter))
            self.define(parameter, SymbolKind.LAMBDA_PARAMETER)
        while self.take_kind(Kind.COMMA):
            parameter = self.take_plain_ident("expected a lambda parameter identifier after `,`")
            if parameter is not None:
                params.append(self._name(parameter))
                self.define(parameter, SymbolKind.LAMBDA_PARAMETER)
        param_node = self.node("params", start, params)
        if not self.take_op("|"):
            self.report_current("expected `|` after lambda parameters", SyntaxCode.EXPECTED_TOKEN)
            self.pop_scope()
            return self.node("lambda", start, [param_node])
        body = self.parse_expression_or_block()
        self.pop_scope()
        return self.node("lambda", start, [param_node, body])
