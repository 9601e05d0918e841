"""Recursive-descent parser for canonical Octoscript (grammar v0.2).

The parser recovers the way the reference checker does (statement-level
synchronisation, diagnostics at the offending token) so diagnostics, their
order and the first-error position match it. Recursion only deepens through
`enter_nesting`, which caps it at MAX_SYNTAX_NESTING levels; `parse` raises
Python's recursion limit just enough for that bound.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from ..limits import MAX_SYNTAX_NESTING, PARSER_FRAMES_PER_NESTING_LEVEL, PARSER_SPARE_FRAMES
from .codes import SyntaxCode
from .cursor import CONTROL_WORDS, ParserCursor
from .parse_result import ParseResult
from .tokens import (
    ASSIGNMENT_OPERATORS,
    COMMA,
    END,
    IDENT,
    LBRACE,
    LBRACKET,
    LPAREN,
    NEWLINE,
    NUMBER,
    OPERATOR,
    RBRACE,
    RBRACKET,
    RESERVED_WORDS,
    RPAREN,
    STRING,
    Kind,
    Token,
)
from .tree import (
    IMPORT,
    LET_INIT,
    REFERENCE,
    SYMBOL_FUNCTION,
    SYMBOL_IMPORT,
    SYMBOL_LAMBDA_PARAMETER,
    SYMBOL_LET,
    SYMBOL_LOOP_BINDING,
    SYMBOL_PARAMETER,
    Node,
)

_LITERAL_WORDS = frozenset({"true", "false", "nil"})
_UNARY_OPERATORS = ("!", "-", "+", "~")
# Tokens that can make a whole expression alone, and the kinds of the next
# token that would make it part of a larger one.
_OPERANDS = (IDENT, NUMBER, STRING)
_OPERAND_GOES_ON = (OPERATOR, LPAREN, LBRACKET)
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


# Statement words after which a try block's last statement gives no value.
_NON_VALUE_TRY_TAIL = frozenset(
    {"use", "let", "fn", "return", "break", "continue", "for", "loop", "while"}
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
    """Recursive descent over canonical grammar v0.2, one method per rule:
    statements, expressions, then the control expressions."""

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

    # ---------------------------------------------------------------- expressions

    def parse_expression(self) -> Node:
        token = self.tokens[self.index]
        if not self.enter_nesting():
            return self.node("error", token.start)
        if token.kind is IDENT and token.text in CONTROL_WORDS:
            result = self.parse_control(token.text, token.start, self.index)
        elif token.kind in _OPERANDS and self.tokens[self.index + 1].kind not in _OPERAND_GOES_ON:
            # A lone name or literal, a third of all expressions: skips the
            # levels that would hand it up unchanged.
            result = self.parse_primary()
        else:
            result = self.parse_assignment()
        self.leave_nesting()
        return result

    def parse_assignment(self) -> Node:
        """A binary expression and the (left-associative) assignments after it."""
        start = self.tokens[self.index].start
        left = self.parse_binary()
        while True:
            operator = self.index
            token = self.tokens[operator]
            if token.kind is not OPERATOR or token.text not in ASSIGNMENT_OPERATORS:
                return left
            self.index += 1
            left = self.node("assign", start, [left, self.parse_binary()], operator)

    def parse_binary(self, min_precedence: int = 1) -> Node:
        """Left-associative binary operators by precedence climbing."""
        start = self.tokens[self.index].start
        left = self.parse_unary()
        while True:
            operator = self.index
            token = self.tokens[operator]
            precedence = _BINARY_PRECEDENCE.get(token.text) if token.kind is OPERATOR else None
            if precedence is None or precedence < min_precedence:
                return left
            self.index += 1
            left = self.node("binary", start, [left, self.parse_binary(precedence + 1)], operator)

    def parse_unary(self) -> Node:
        operator = self.index
        token = self.tokens[operator]
        if token.kind is OPERATOR and token.text in _UNARY_OPERATORS:
            self.index += 1
            return self.node("unary", token.start, [self.parse_postfix()], operator)
        return self.parse_postfix()

    def parse_postfix(self) -> Node:
        start = self.tokens[self.index].start
        node = self.parse_primary()
        while True:
            token = self.tokens[self.index]
            if token.kind is OPERATOR and token.text == ".":
                self.index += 1
                member = self.take_plain_ident("expected an identifier after `.`")
                node = self.node("member", start, [node], -1 if member is None else member)
            elif token.kind is LPAREN:
                open_paren = self.index
                self.index += 1
                arguments = self.comma_list(
                    RPAREN, "call", "expected `,` or `)` after a call argument"
                )
                node = self.node("call", start, [node, *arguments], open_paren)
            elif token.kind is LBRACKET:
                self.index += 1
                children = [node]
                if self.at_kind(RBRACKET):
                    self.report_current(
                        "expected an index expression between `[` and `]`",
                        SyntaxCode.EXPECTED_EXPRESSION,
                    )
                else:
                    children.append(self.parse_expression())
                if not self.take_kind(RBRACKET):
                    self.report_current(
                        "expected `]` after an index expression", SyntaxCode.EXPECTED_TOKEN
                    )
                node = self.node("index", start, children)
            else:
                return node

    def comma_list(
        self,
        close: Kind,
        grammar: str,
        missing_close: str,
        parse_item: Callable[[], Node | None] | None = None,
    ) -> list[Node]:
        """Items (expressions by default) separated by commas, up to `close`."""
        parse_item = parse_item or self.parse_expression
        items: list[Node] = []
        if self.take_kind(close):
            return items
        while True:
            item = parse_item()
            if item is not None:
                items.append(item)
            if self.take_kind(COMMA):
                if not self.at_kind(close):
                    continue
                self.report_current(
                    f"trailing commas are not part of the canonical {grammar} grammar",
                    SyntaxCode.TRAILING_COMMA,
                )
                self.advance()
            elif not self.take_kind(close):
                self.report_current(missing_close, SyntaxCode.EXPECTED_TOKEN)
            return items

    def parse_primary(self) -> Node:
        index = self.index
        token = self.tokens[index]
        start = token.start
        kind = token.kind
        if kind is NUMBER or kind is STRING or (kind is IDENT and token.text in _LITERAL_WORDS):
            self.index += 1
            return self.node("literal", start, [], index)
        if kind is IDENT:
            if token.text not in RESERVED_WORDS:
                self.index += 1
                self.events.append((REFERENCE, index))
                return self.node("name", start, [], index)
            self.report_current(
                "reserved words cannot be used as expressions here", SyntaxCode.RESERVED_WORD
            )
            self.advance()
            return self.node("error", start, [], index)
        if kind is LBRACKET:
            self.advance()
            items = self.comma_list(RBRACKET, "array", "expected `,` or `]` after an array element")
            return self.node("array", start, items, index)
        if kind is LBRACE:
            return self.parse_record()
        if kind is LPAREN:
            self.advance()
            inner = self.parse_expression()
            if not self.take_kind(RPAREN):
                self.report_current(
                    "expected `)` after a parenthesized expression", SyntaxCode.EXPECTED_TOKEN
                )
            return self.node("paren", start, [inner], index)
        if kind is OPERATOR and token.text in ("|", "||"):
            return self.parse_lambda()
        self.report_current("expected an expression", SyntaxCode.EXPECTED_EXPRESSION)
        self.advance()
        return self.node("error", start, [], index)

    def parse_record(self) -> Node:
        opening = self.index
        start = self.tokens[opening].start
        self.advance()
        self.consume_newlines()
        members: list[Node] = []
        if self.take_kind(RBRACE):
            return self.node("record", start, members, opening)
        while self._record_member(members):
            if self.take_kind(COMMA):
                self.consume_newlines()
                if self.at_kind(RBRACE):
                    self.report_current(
                        "trailing commas are not part of the canonical record grammar",
                        SyntaxCode.TRAILING_COMMA,
                    )
                    self.advance()
                    break
            elif self.at_kind(NEWLINE):
                self.consume_newlines()
                if self.take_kind(RBRACE):
                    break
            elif self.take_kind(RBRACE):
                break
            else:
                self.report_current(
                    "expected `,`, a newline, or `}` after a record member",
                    SyntaxCode.EXPECTED_TOKEN,
                )
                break
        return self.node("record", start, members, opening)

    def _record_member(self, members: list[Node]) -> bool:
        """`key: value`; False when it has no `:`."""
        member_start = self.tokens[self.index].start
        key = self.take_plain_ident("expected a record member identifier")
        if not self.take_op(":"):
            self.report_current(
                "expected `:` after a record member identifier", SyntaxCode.EXPECTED_TOKEN
            )
            return False
        value = self.parse_expression()
        members.append(self.node("field", member_start, [value], -1 if key is None else key))
        return True

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
        message = "expected a lambda parameter identifier"
        while True:
            parameter = self.take_plain_ident(message)
            if parameter is not None:
                params.append(self._name(parameter))
                self.define(parameter, SYMBOL_LAMBDA_PARAMETER)
            if not self.take_kind(COMMA):
                break
            message = "expected a lambda parameter identifier after `,`"
        param_node = self.node("params", start, params)
        if not self.take_op("|"):
            self.report_current("expected `|` after lambda parameters", SyntaxCode.EXPECTED_TOKEN)
            self.pop_scope()
            return self.node("lambda", start, [param_node])
        body = self.parse_expression_or_block()
        self.pop_scope()
        return self.node("lambda", start, [param_node, body])

    # ---------------------------------------------------------------- control expressions

    def parse_control(self, word: str, start: int, keyword: int) -> Node:
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
        if not self.at_kind(LBRACE):
            return self.parse_expression()
        start = self.tokens[self.index].start
        if not self.enter_nesting():
            return self.node("error", start)
        self.advance()
        self.consume_statement_ends()
        ends_with_value = False
        statements: list[Node] = []
        while not self.at_end() and not self.at_kind(RBRACE):
            before = self.index
            token = self.tokens[self.index]
            ends_with_value = not (token.kind is IDENT and token.text in _NON_VALUE_TRY_TAIL)
            statements.append(self.parse_statement())
            self.require_statement_end()
            if self.index == before:
                self.advance()
        if self.take_kind(RBRACE):
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
        if self.starts_lambda():  # never at a `{`: a block is read as one
            self.report_current(
                "a lambda used as a conditional branch must be written in a block",
                SyntaxCode.LAMBDA_BRANCH_NEEDS_BLOCK,
            )
            return self.node("error", self.tokens[self.index].start)
        return self.parse_expression_or_block()

    def parse_expression_or_block(self) -> Node:
        start = self.tokens[self.index].start
        if self.at_kind(LBRACE):
            return self.parse_block()
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
            if self.take_kind(COMMA):
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
            self.define(binding, SYMBOL_LOOP_BINDING)
        body = self.parse_block()
        self.pop_scope()
        return self.node("for", start, [*names, iterable, body], keyword)
