"""The control expressions (`if`, `try`, `for`, `loop`, `while`) of the
recursive-descent parser; `parser._Parser` adds the rest of the grammar."""

from __future__ import annotations

from .codes import SyntaxCode
from .cursor import ParserCursor
from .tokens import COMMA, IDENT, LBRACE, RBRACE
from .tree import SYMBOL_LOOP_BINDING, Node

# Statement words after which a try block's last statement gives no value.
_NON_VALUE_TRY_TAIL = frozenset(
    {"use", "let", "fn", "return", "break", "continue", "for", "loop", "while"}
)


class ControlExpressions(ParserCursor):
    """Control expressions; the rules they are made of come from `parser._Parser`."""

    def parse_block(self) -> Node:
        raise NotImplementedError

    def parse_statement(self) -> Node:
        raise NotImplementedError

    def parse_expression(self) -> Node:
        raise NotImplementedError

    def parse_assignment(self) -> Node:
        raise NotImplementedError

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
