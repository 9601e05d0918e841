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
from .control import ControlExpressions
from .cursor import CONTROL_WORDS
from .moved import assemble
from .parse_result import (
    ParseResult,
    TailReuse,
    moved_events,
    moved_nodes,
    unit_starts_by_offset,
)
from .statements import StepMap
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
from .tree import DEFINE, IMPORT, LET_INIT, REFERENCE, Node, SymbolKind

# Python frames per nesting level of the deepest recursion path (a lambda or
# call argument takes 19: expression, assignment, six precedence levels of two
# frames each, unary, postfix, primary/call, lambda/list, body), with margin.
_FRAMES_PER_NESTING_LEVEL = 24

_LITERAL_WORDS = frozenset({"true", "false", "nil"})
# Words that start a statement other than an expression statement.
_STATEMENT_WORDS = frozenset({"use", "let", "fn", "return", "break", "continue"})
_UNARY_OPERATORS = ("!", "-", "+", "~")
# Tokens that can make a whole expression alone, and the kinds of the next
# token that would make it part of a larger one (operators, calls, indexing).
# (Tuples: `in` compares enum members by identity; a frozenset would call
# Enum.__hash__, a Python function.)
_LONE_OPERANDS = (IDENT, NUMBER, STRING)
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


class _Parser(ControlExpressions):
    """Recursive descent over canonical grammar v0.2, one method per rule.

    The hot rules make their nodes with `Node(...)` directly where they have
    taken at least one token since the node's start: the node then ends where
    the last taken token does, all that `node()` would work out.
    """

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
        tokens = self.tokens
        while (first := tokens[self.index]).kind is not END:
            if tail_starts is not None and self.adopt_tail(tail, tail_starts, statements):
                break
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
        return Node("block", start, tokens[self.index - 1].end, statements)

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
                children = [Node("name", name.start, name.end, [], binding)]
                children.append(self.parse_expression())
                self.events.append((LET_INIT, binding, binding + 2))
                self.events.append((DEFINE, binding, SymbolKind.LET, tokens[self.index].start))
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
                    (DEFINE, parameter, SymbolKind.PARAMETER, tokens[parameter + 1].start)
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
        if kind is IDENT and token.text in CONTROL_WORDS:
            result = self.parse_control(token.text, start, keyword)
        elif kind in _LONE_OPERANDS and self.tokens[keyword + 1].kind not in _OPERAND_GOES_ON:
            # A lone name or literal: what every precedence level below
            # `parse_assignment` would hand up unchanged. Names and numbers
            # and strings are made here as `parse_primary` makes them (a
            # third of all expressions are one); it takes the reserved words.
            if kind is not IDENT:
                self.index = keyword + 1
                result = Node("literal", start, token.end, [], keyword)
            elif token.text not in RESERVED_WORDS:
                self.index = keyword + 1
                self.events.append((REFERENCE, keyword))
                result = Node("name", start, token.end, [], keyword)
            else:
                result = self.parse_primary()
        else:
            # `parse_assignment` and `parse_binary` inlined: most of these are
            # a call, member chain or record with no operator after it.
            if kind is OPERATOR and token.text in _UNARY_OPERATORS:
                result = self.parse_unary()
            else:
                result = self.parse_postfix()
            following = self.tokens[self.index]
            if following.kind is OPERATOR:
                result = self._binary_operations(start, result, 1)
                following = self.tokens[self.index]
                if following.kind is OPERATOR and following.text in ASSIGNMENT_OPERATORS:
                    result = self._assignments(start, result)
        self.nesting -= 1
        return result

    def _operand_or_expression(self) -> Node:
        """`parse_expression`, with a name, number or string that ends the
        expression made here: call arguments and record values mostly are one."""
        index = self.index
        token = self.tokens[index]
        kind = token.kind
        if (
            kind in _LONE_OPERANDS  # never END: a next token exists
            and self.tokens[index + 1].kind not in _OPERAND_GOES_ON
            and self.nesting < self.max_nesting  # else the limit's error
        ):
            if kind is not IDENT:
                self.index = index + 1
                return Node("literal", token.start, token.end, [], index)
            if token.text not in RESERVED_WORDS:  # nor a control word
                self.index = index + 1
                self.events.append((REFERENCE, index))
                return Node("name", token.start, token.end, [], index)
        return self.parse_expression()

    def parse_assignment(self) -> Node:
        start = self.tokens[self.index].start
        return self._assignments(start, self.parse_binary())

    def _assignments(self, start: int, left: Node) -> Node:
        """`left` and the (left-associative) assignments that follow it."""
        tokens = self.tokens
        while True:
            operator = self.index
            token = tokens[operator]
            if token.kind is not OPERATOR or token.text not in ASSIGNMENT_OPERATORS:
                return left
            self.index = operator + 1
            right = self.parse_binary()
            # Past its operator: the node ends where the last token taken does.
            left = Node("assign", start, tokens[self.index - 1].end, [left, right], operator)

    def parse_binary(self, min_precedence: int = 1) -> Node:
        """Left-associative binary operators by precedence climbing.

        Consumes exactly what one function per precedence level would, with
        far fewer Python calls per operand.
        """
        token = self.tokens[self.index]
        if token.kind is OPERATOR and token.text in _UNARY_OPERATORS:
            left = self.parse_unary()
        else:
            left = self.parse_postfix()
        if self.tokens[self.index].kind is not OPERATOR:
            return left
        return self._binary_operations(token.start, left, min_precedence)

    def _binary_operations(self, start: int, left: Node, min_precedence: int) -> Node:
        """`left` and the binary operations from `min_precedence` up after it."""
        tokens = self.tokens
        while True:
            token = tokens[self.index]
            if token.kind is not OPERATOR:
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
            left = Node("binary", start, tokens[self.index - 1].end, [left, right], operator)

    def parse_unary(self) -> Node:
        operator = self.index
        token = self.tokens[operator]
        if token.kind is OPERATOR and token.text in _UNARY_OPERATORS:
            self.index = operator + 1
            operand = self.parse_postfix()
            return self.node("unary", token.start, [operand], operator)
        return self.parse_postfix()

    def parse_postfix(self) -> Node:
        tokens = self.tokens
        index = self.index
        token = tokens[index]
        start = token.start
        if token.kind is IDENT and token.text not in RESERVED_WORDS:
            # A name, as `parse_primary` makes it: most chains start with one.
            self.index = index + 1
            self.events.append((REFERENCE, index))
            node = Node("name", start, token.end, [], index)
        elif token.kind is LBRACE:
            node = self.parse_record()  # as `parse_primary` would
        else:
            node = self.parse_primary()
        while True:
            token = tokens[self.index]
            kind = token.kind
            if kind is OPERATOR:
                if token.text != ".":
                    return node
                # `take_op` and `take_plain_ident` inlined for `a.b.c` chains.
                member = self.index + 1
                name = tokens[member]  # after an operator: at worst END
                if name.kind is IDENT and name.text not in RESERVED_WORDS:
                    self.index = member + 1
                    node = Node("member", start, name.end, [node], member)
                else:
                    self.index = member
                    self.take_plain_ident("expected an identifier after `.`")  # reports
                    node = self.node("member", start, [node], -1)
            elif kind is LPAREN:  # a call
                open_paren = self.index
                self.index = open_paren + 1
                arguments = self._comma_list(
                    RPAREN, "call", "expected `,` or `)` after a call argument"
                )
                end = tokens[self.index - 1].end
                node = Node("call", start, end, [node, *arguments], open_paren)
            elif kind is LBRACKET:
                self.advance()
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

    def _comma_list(self, close: Kind, grammar: str, missing_close: str) -> list[Node]:
        # `take_kind`/`at_kind` inlined: this loop runs once per call argument
        # or array element. `close` is never END, so taking it moves on.
        tokens = self.tokens
        items: list[Node] = []
        if tokens[self.index].kind is close:
            self.index += 1
            return items
        while True:
            items.append(self._operand_or_expression())
            kind = tokens[self.index].kind
            if kind is COMMA:
                self.index += 1
                if tokens[self.index].kind is close:
                    self.report_current(
                        f"trailing commas are not part of the canonical {grammar} grammar",
                        SyntaxCode.TRAILING_COMMA,
                    )
                    self.index += 1
                    return items
                continue
            if kind is close:
                self.index += 1
            else:
                self.report_current(missing_close, SyntaxCode.EXPECTED_TOKEN)
            return items

    def parse_primary(self) -> Node:
        index = self.index
        token = self.tokens[index]
        start = token.start
        kind = token.kind
        # A literal or name is one token, never END: it ends where the token does.
        if kind is NUMBER or kind is STRING:
            self.index = index + 1
            return Node("literal", start, token.end, [], index)
        if kind is IDENT:
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
        if kind is LBRACKET:
            self.advance()
            items = self._comma_list(
                RBRACKET, "array", "expected `,` or `]` after an array element"
            )
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
        if not self.at_end():
            self.advance()
        return self.node("error", start, [], index)

    def parse_record(self) -> Node:
        # The record's `{` is consumed before any return: `self.node` would
        # end every node made here where the last consumed token ends.
        tokens = self.tokens
        opening = self.index
        start = tokens[opening].start
        self.index = opening + 1
        self.consume_newlines()
        members: list[Node] = []
        if tokens[self.index].kind is RBRACE:
            self.index += 1
            return self.node("record", start, members, opening)
        while True:
            key = self.index
            member_start = tokens[key].start
            if (
                tokens[key].kind is IDENT
                and tokens[key].text not in RESERVED_WORDS
                and tokens[key + 1].kind is OPERATOR  # after an identifier: at worst END
                and tokens[key + 1].text == ":"
            ):
                # `key: value`: the member checks below, inlined.
                self.index = key + 2
                value = self._operand_or_expression()
                members.append(
                    Node("field", member_start, tokens[self.index - 1].end, [value], key)
                )
            elif not self._record_member_slow(member_start, members):
                return self.node("record", start, members, opening)
            # The separator checks inlined: they run once per member.
            kind = tokens[self.index].kind
            if kind is COMMA:
                self.index += 1
                self.consume_newlines()
                if tokens[self.index].kind is RBRACE:
                    self.report_current(
                        "trailing commas are not part of the canonical record grammar",
                        SyntaxCode.TRAILING_COMMA,
                    )
                    self.advance()
                    return self.node("record", start, members, opening)
                continue
            if kind is NEWLINE:
                self.consume_newlines()
                if self.take_kind(RBRACE):
                    return self.node("record", start, members, opening)
                continue
            if kind is RBRACE:
                self.index += 1
                return Node("record", start, tokens[self.index - 1].end, members, opening)
            self.report_current(
                "expected `,`, a newline, or `}` after a record member", SyntaxCode.EXPECTED_TOKEN
            )
            return self.node("record", start, members, opening)

    def _record_member_slow(self, member_start: int, members: list[Node]) -> bool:
        """A record member that is not `identifier: ...`; False when it has no `:`."""
        key = self.take_plain_ident("expected a record member identifier")
        if not self.take_op(":"):
            self.report_current(
                "expected `:` after a record member identifier", SyntaxCode.EXPECTED_TOKEN
            )
            return False
        value = self.parse_expression()
        members.append(self.node("field", member_start, [value], key if key is not None else -1))
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
        parameter = self.take_plain_ident("expected a lambda parameter identifier")
        if parameter is not None:
            params.append(self._name(parameter))
            self.define(parameter, SymbolKind.LAMBDA_PARAMETER)
        while self.take_kind(COMMA):
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
