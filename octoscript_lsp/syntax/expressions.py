"""The expression rules of the recursive-descent parser: precedence climbing,
postfix chains, primaries, records and lambdas. `parser._Parser` adds the
statements on top of them.
"""

from __future__ import annotations

from collections.abc import Callable

from .codes import SyntaxCode
from .control import ControlExpressions
from .cursor import CONTROL_WORDS
from .tokens import (
    ASSIGNMENT_OPERATORS,
    COMMA,
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
)
from .tree import REFERENCE, SYMBOL_LAMBDA_PARAMETER, Node

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


class ExpressionRules(ControlExpressions):
    """Expressions, one method per rule; statements come from `parser._Parser`."""

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
