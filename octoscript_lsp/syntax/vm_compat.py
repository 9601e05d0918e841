"""Canonical source the runtime's inherited parser still rejects.

The reference checker runs the vendored VM parser after the canonical
grammar accepts a program. That parser ends a block-bodied lambda at its
closing `}` and cannot always continue the expression, and it reads a
member or index assignment used as a bare condition as a record body. These
rules report the same programs so validity agrees with the reference; they
run only on canonically valid source.
"""

from __future__ import annotations

from collections.abc import Sequence

from .codes import SyntaxCode
from .diagnostics import Diagnostic
from .statements import Statement, Statements
from .tokens import CLOSERS, OPENERS, Kind, Token, first_token_from
from .tree import Node

# After a block-bodied lambda the VM starts a new statement; these operators
# cannot start one.
_OPERATORS_AFTER_LAMBDA_BLOCK = frozenset(
    {"/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "=", "+=", "-=", "*=", "/=", "%="}
)
_ENDS = (
    Kind.NEWLINE,
    Kind.SEMICOLON,
    Kind.COMMA,
    Kind.RPAREN,
    Kind.RBRACKET,
    Kind.RBRACE,
    Kind.END,
)

MSG_LAMBDA_TAIL = (
    "a lambda with a block body cannot be followed by `{}` here: the runtime parser ends "
    "the lambda at its `}}`; give the lambda a name first"
)
MSG_LAMBDA_CONDITION = (
    "a condition ending in a lambda is not supported by the runtime parser; parenthesize it"
)
MSG_ASSIGNMENT_CONDITION = (
    "assigning to a member or index as a condition is not supported by the runtime parser; "
    "parenthesize it or assign first"
)

_TAIL = SyntaxCode.RUNTIME_LAMBDA_TAIL
_CONDITIONALS = frozenset({"if", "while", "for"})
# Nodes whose children keep the grouping around the node itself.
_TRANSPARENT = frozenset({"member", "binary", "assign", "unary"})


# Per top-level statement: its diagnostics as (offset from its start,
# message, code); nothing in them depends on where it stands.
Relative = tuple[tuple[int, str, SyntaxCode], ...]
RUNTIME_CHECKS = "runtime-parser checks"


def vm_diagnostics_of(statements: Statements) -> list[Diagnostic]:
    """The runtime parser's findings in valid source, one statement at a time.

    In valid source a top-level statement's parse, and so what these rules
    find in it, depends only on its own text (`statements.py`).
    """
    found: list[Diagnostic] = []
    # Most statements hold nothing these rules look at: no view of theirs.
    for start, statement in zip(statements.starts, statements.statements, strict=True):
        if statement.runtime_suspect:
            relative = statement.view(RUNTIME_CHECKS, _relative_findings)
            found.extend(Diagnostic(start + at, message, code) for at, message, code in relative)
    found.sort(key=lambda diagnostic: diagnostic.offset)
    return found


def _relative_findings(statement: Statement) -> Relative:
    nodes = statement.nodes
    if not nodes:
        return ()  # a stray `}`
    fresh: list[Diagnostic] = []
    statement_findings(nodes[-1], statement.tokens, fresh)
    origin = statement.origin
    return tuple((item.offset - origin, item.message, item.code) for item in fresh)


def statement_findings(statement: Node, tokens: Sequence[Token], found: list) -> None:
    """Add what the rules find in one top-level statement to `found`."""
    # Each node with the innermost bracketing construct around it.
    stack: list[tuple[Node, str]] = [(statement, "program")]
    push = stack.append
    while stack:
        node, grouping = stack.pop()
        kind = node.kind
        if kind == "lambda":
            _check_lambda(node, grouping, tokens, found)
        elif kind in _CONDITIONALS:
            _check_conditions(node, tokens, found)
        children = node.children
        if not children:
            continue
        if kind == "call" or kind == "index":
            push((children[0], grouping))
            for child in children[1:]:
                push((child, kind))
        elif kind in _TRANSPARENT:
            for child in children:
                push((child, grouping))
        else:
            for child in children:
                push((child, kind))


def _check_lambda(node: Node, grouping: str, tokens: Sequence[Token], found: list) -> None:
    if len(node.children) < 2 or node.children[1].kind != "block":
        return
    after = first_token_from(tokens, node.end)
    if after >= len(tokens) or tokens[after].kind in _ENDS:
        return
    token = tokens[after]
    if grouping == "paren":
        found.append(
            Diagnostic(token.start, MSG_LAMBDA_TAIL.format(_spelling(tokens, after)), _TAIL)
        )
    elif token.kind is Kind.OPERATOR and token.text in _OPERATORS_AFTER_LAMBDA_BLOCK:
        found.append(Diagnostic(token.start, MSG_LAMBDA_TAIL.format(token.text), _TAIL))
    elif token.kind is Kind.LPAREN and not _single_parenthesized_value(tokens, after):
        found.append(Diagnostic(token.start, MSG_LAMBDA_TAIL.format("("), _TAIL))


def _single_parenthesized_value(tokens: Sequence[Token], opening: int) -> bool:
    """Whether `( ... )` holds one value: the VM reads it as a parenthesized
    expression starting a new statement, which must not be empty or a list."""
    depth = 0
    for index in range(opening, len(tokens)):
        kind = tokens[index].kind
        if kind in OPENERS:
            depth += 1
        elif kind in CLOSERS:
            depth -= 1
            if depth == 0:
                return index > opening + 1
        elif kind is Kind.COMMA and depth == 1:
            return False
    return False


def _spelling(tokens: Sequence[Token], index: int) -> str:
    token = tokens[index]
    return token.text or token.kind.value


def _check_conditions(node: Node, tokens: Sequence[Token], found: list) -> None:
    children = node.children
    if node.kind == "while":
        conditions = [(children[0], False)]
    elif node.kind == "for":
        conditions = [(children[-2], False)] if len(children) >= 2 else []
    else:
        pairs = len(children) // 2
        # A faulty condition followed by an `elif` branch slips through the
        # VM parser; one followed by `else` or nothing does not.
        conditions = [(children[2 * i], i + 1 < pairs) for i in range(pairs)]
    for condition, followed_by_elif in conditions:
        if _assigns_to_member(condition):
            if followed_by_elif:
                # The VM then reads the rest of the chain out of step and
                # happens to accept it.
                return
            found.append(
                Diagnostic(
                    condition.start,
                    MSG_ASSIGNMENT_CONDITION,
                    SyntaxCode.RUNTIME_ASSIGNMENT_CONDITION,
                )
            )
        elif _ends_in_expression_lambda(condition):
            found.append(
                Diagnostic(
                    condition.start, MSG_LAMBDA_CONDITION, SyntaxCode.RUNTIME_LAMBDA_CONDITION
                )
            )


def _assigns_to_member(node: Node) -> bool:
    # `a = b = c` nests as assign(assign(a, b), c): its targets are a and b.
    targets: list[Node] = []
    while node.kind == "assign":
        left = node.children[0]
        targets.append(left.children[1] if left.kind == "assign" else left)
        node = left
    return any(_ends_in_member(target) for target in targets)


def _ends_in_member(node: Node) -> bool:
    while node.kind in ("binary", "unary"):
        node = node.children[-1]
    if node.kind not in ("member", "index"):
        return False
    # `|| {...}.x`: the VM ends the lambda at `}`, so this is no member write.
    return not _starts_with_block_lambda(node)


def _starts_with_block_lambda(node: Node) -> bool:
    while node.kind in ("member", "index", "call") and node.children:
        node = node.children[0]
    return node.kind == "lambda" and len(node.children) > 1 and node.children[1].kind == "block"


def _ends_in_expression_lambda(node: Node) -> bool:
    """The condition's last operand is `|..| expr`: the VM reads the block after
    the condition as part of that lambda's body."""
    while node.kind in ("binary", "assign", "unary"):
        node = node.children[-1]
    return node.kind == "lambda" and len(node.children) > 1 and node.children[1].kind != "block"
