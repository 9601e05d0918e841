"""The parser's fast paths (syntax/parser.py, syntax/expressions.py): the
shapes they take and the edge cases where they must step aside, pinned as
trees, scope events and diagnostics.

A fast path makes a `let name = value` declaration, a lone name or literal, a
member chain, a call, a record field or a parameter without the general
rules' calls; the result must be exactly what those rules make. Where a
construct can be written so that no fast path applies (a parenthesised
operand), both spellings must give the same structure.
"""

from __future__ import annotations

import pytest

from octoscript_lsp.syntax.lexer import tokenize
from octoscript_lsp.syntax.parser import parse
from octoscript_lsp.syntax.tree import Node, SymbolKind

_EVENT_NAMES = {0: "PUSH", 1: "POP", 2: "DEFINE", 3: "REF", 4: "IMPORT", 5: "LET_INIT"}


def render(node: Node) -> str:
    """kind@start-end#token(children...)"""
    text = f"{node.kind}@{node.start}-{node.end}#{node.token}"
    if not node.children:
        return text
    return f"{text}({' '.join(render(child) for child in node.children)})"


def render_event(event: tuple) -> str:
    fields = [item.name if isinstance(item, SymbolKind) else str(item) for item in event[1:]]
    return " ".join([_EVENT_NAMES[event[0]], *fields])


def snapshot(source: str, max_nesting: int | None = None) -> tuple:
    options = {} if max_nesting is None else {"max_nesting": max_nesting}
    result = parse(tokenize(source).tokens, **options)
    return (
        render(result.tree),
        "; ".join(render_event(event) for event in result.events),
        [(item.offset, item.code.name) for item in result.all_diagnostics],
    )


# (source, tree, events, diagnostics): the values the parser before the fast
# paths produced.
SHAPES = [
    (
        "let x = a",
        "program@0-9#-1(let@0-9#1(name@4-5#1 name@8-9#3))",
        "REF 3; LET_INIT 1 3; DEFINE 1 LET 9",
        [],
    ),
    (
        "let x = 1 + y",
        "program@0-13#-1(let@0-13#1(name@4-5#1 binary@8-13#4(literal@8-9#3 name@12-13#5)))",
        "REF 5; LET_INIT 1 3; DEFINE 1 LET 13",
        [],
    ),
    (
        "let x = true",
        "program@0-12#-1(let@0-12#1(name@4-5#1 literal@8-12#3))",
        "LET_INIT 1 3; DEFINE 1 LET 12",
        [],
    ),
    ("let", "program@0-3#-1(let@0-3#0)", "", [(3, "EXPECTED_IDENTIFIER")]),
    ("let x", "program@0-5#-1(let@0-5#1(name@4-5#1))", "DEFINE 1 LET 5", []),
    (
        'f(a, 1, "s")',
        "program@0-12#-1(call@0-12#1(name@0-1#0 name@2-3#2 literal@5-6#4 literal@8-11#6))",
        "REF 0; REF 2",
        [],
    ),
    (
        "g(a, b + 1)",
        "program@0-11#-1(call@0-11#1(name@0-1#0 name@2-3#2"
        " binary@5-10#5(name@5-6#4 literal@9-10#6)))",
        "REF 0; REF 2; REF 4",
        [],
    ),
    (
        "f(a)(b)[0]",
        "program@0-10#-1(index@0-10#-1(call@0-7#4(call@0-4#1(name@0-1#0 name@2-3#2)"
        " name@5-6#5) literal@8-9#8))",
        "REF 0; REF 2; REF 5",
        [],
    ),
    (
        "f(a",
        "program@0-3#-1(call@0-3#1(name@0-1#0 name@2-3#2))",
        "REF 0; REF 2",
        [(3, "EXPECTED_TOKEN")],
    ),
    (
        "f(if)",
        "program@0-5#-1(call@0-5#1(name@0-1#0 if@2-4#2(error@4-4#-1)))",
        "REF 0",
        [(4, "EXPECTED_EXPRESSION"), (4, "EXPECTED_EXPRESSION")],
    ),
    (
        "f(nil, loop {})",
        "program@0-15#-1(call@0-15#1(name@0-1#0 literal@2-5#2 loop@7-14#4(block@12-14#-1)))",
        "REF 0; PUSH; POP 14",
        [],
    ),
    (
        "let r = [a, 2,]",
        "program@0-15#-1(let@0-15#1(name@4-5#1 array@8-15#3(name@9-10#4 literal@12-13#6)))",
        "REF 4; LET_INIT 1 3; DEFINE 1 LET 15",
        [(14, "TRAILING_COMMA")],
    ),
    (
        "r = {k: a, m: 2}",
        "program@0-16#-1(assign@0-16#1(name@0-1#0 record@4-16#2(field@5-9#3(name@8-9#5)"
        " field@11-15#7(literal@14-15#9))))",
        "REF 0; REF 5",
        [],
    ),
    (
        "let r = {k: {j: x},}",
        "program@0-20#-1(let@0-20#1(name@4-5#1 record@8-20#3(field@9-18#4"
        "(record@12-18#6(field@13-17#7(name@16-17#9))))))",
        "REF 9; LET_INIT 1 3; DEFINE 1 LET 20",
        [(19, "TRAILING_COMMA")],
    ),
    (
        "let r = {\n  k: 1\n  j: y\n}",
        "program@0-25#-1(let@0-25#1(name@4-5#1 record@8-25#3(field@12-16#5(literal@15-16#7)"
        " field@19-23#9(name@22-23#11))))",
        "REF 11; LET_INIT 1 3; DEFINE 1 LET 25",
        [],
    ),
    ("{a", "program@0-2#-1(record@0-2#0)", "", [(2, "EXPECTED_TOKEN")]),
    ("a.b.c", "program@0-5#-1(member@0-5#4(member@0-3#2(name@0-1#0)))", "REF 0", []),
    (
        "a.",
        "program@0-2#-1(member@0-2#-1(name@0-1#0))",
        "REF 0",
        [(2, "EXPECTED_IDENTIFIER")],
    ),
    (
        "a.if",
        "program@0-4#-1(member@0-2#-1(name@0-1#0))",
        "REF 0",
        [(2, "EXPECTED_IDENTIFIER"), (2, "MISSING_STATEMENT_END")],
    ),
    (
        "f(true, nil)",
        "program@0-12#-1(call@0-12#1(name@0-1#0 literal@2-6#2 literal@8-11#4))",
        "REF 0",
        [],
    ),
    (
        "{k: false, j: true}",
        "program@0-19#-1(record@0-19#0(field@1-9#1(literal@4-9#3) field@11-18#5(literal@14-18#7)))",
        "",
        [],
    ),
    (
        "x += a.b",
        "program@0-8#-1(assign@0-8#1(name@0-1#0 member@5-8#4(name@5-6#2)))",
        "REF 0; REF 2",
        [],
    ),
    (
        "a.b = 1",
        "program@0-7#-1(assign@0-7#3(member@0-3#2(name@0-1#0) literal@6-7#4))",
        "REF 0",
        [],
    ),
    (
        "-a + b * c",
        "program@0-10#-1(binary@0-10#2(unary@0-2#0(name@1-2#1)"
        " binary@5-10#4(name@5-6#3 name@9-10#5)))",
        "REF 1; REF 3; REF 5",
        [],
    ),
    (
        "fn f(p, q) {\n  p\n}",
        "program@0-18#-1(fn@0-18#1(name@3-4#1 params@4-10#-1(name@5-6#3 name@8-9#5)"
        " block@11-18#-1(name@15-16#9)))",
        "DEFINE 1 FUNCTION 4; PUSH; DEFINE 3 PARAMETER 6; DEFINE 5 PARAMETER 9; REF 9; POP 18",
        [],
    ),
    (
        "fn f() {\n\n  p;\n\n  q\n}",
        "program@0-21#-1(fn@0-21#1(name@3-4#1 params@4-6#-1"
        " block@7-21#-1(name@12-13#7 name@18-19#11)))",
        "DEFINE 1 FUNCTION 4; PUSH; REF 7; REF 11; POP 21",
        [],
    ),
    (
        "if a {\n  b\n} else {\n  c\n}",
        "program@0-25#-1(if@0-25#0(name@3-4#1 block@5-12#-1(name@9-10#4)"
        " block@18-25#-1(name@22-23#10)))",
        "REF 1; REF 4; REF 10",
        [],
    ),
    (
        "fn g() {\n  let v = 1 }",
        "program@0-22#-1(fn@0-22#1(name@3-4#1 params@4-6#-1"
        " block@7-22#-1(let@11-20#7(name@15-16#7 literal@19-20#9))))",
        "DEFINE 1 FUNCTION 4; PUSH; LET_INIT 7 9; DEFINE 7 LET 21; POP 22",
        [(21, "MISSING_STATEMENT_END")],
    ),
    (
        "fn f(p, q,) {}",
        "program@0-14#-1(fn@0-14#1(name@3-4#1 params@4-11#-1(name@5-6#3 name@8-9#5)"
        " block@12-14#-1))",
        "DEFINE 1 FUNCTION 4; PUSH; DEFINE 3 PARAMETER 6; DEFINE 5 PARAMETER 9; POP 14",
        [(10, "TRAILING_COMMA")],
    ),
    (
        "fn f(p q) {}",
        "program@0-12#-1(fn@0-6#1(name@3-4#1 params@4-6#-1(name@5-6#3) error@7-7#-1))",
        "DEFINE 1 FUNCTION 4; PUSH; DEFINE 3 PARAMETER 7; POP 7",
        [
            (7, "EXPECTED_TOKEN"),
            (7, "EXPECTED_TOKEN"),
            (7, "MISSING_STATEMENT_END"),
            (11, "UNEXPECTED_CLOSING_BRACE"),
        ],
    ),
]


@pytest.mark.parametrize(("source", "tree", "events", "diagnostics"), SHAPES)
def test_fast_path_shapes(source: str, tree: str, events: str, diagnostics: list) -> None:
    assert snapshot(source) == (tree, events, diagnostics)


# At the nesting limit a lone operand is the limit's error, not a name.
AT_THE_NESTING_LIMIT = [
    (
        "f(a)",
        1,
        "program@0-4#-1(call@0-2#1(name@0-1#0 error@2-2#-1))",
        "REF 0",
        [(2, "NESTING_LIMIT"), (2, "EXPECTED_TOKEN"), (2, "MISSING_STATEMENT_END")],
    ),
    ("f(a)", 2, "program@0-4#-1(call@0-4#1(name@0-1#0 name@2-3#2))", "REF 0; REF 2", []),
    (
        "f(true)",
        1,
        "program@0-7#-1(call@0-2#1(name@0-1#0 error@2-2#-1))",
        "REF 0",
        [(2, "NESTING_LIMIT"), (2, "EXPECTED_TOKEN"), (2, "MISSING_STATEMENT_END")],
    ),
    ("f(true)", 2, "program@0-7#-1(call@0-7#1(name@0-1#0 literal@2-6#2))", "REF 0", []),
    (
        "{k: a}",
        1,
        "program@0-6#-1(record@0-3#0(field@1-3#1(error@4-4#-1)))",
        "",
        [
            (4, "NESTING_LIMIT"),
            (4, "EXPECTED_TOKEN"),
            (4, "MISSING_STATEMENT_END"),
            (5, "UNEXPECTED_CLOSING_BRACE"),
        ],
    ),
    ("{k: a}", 2, "program@0-6#-1(record@0-6#0(field@1-5#1(name@4-5#3)))", "REF 3", []),
    (
        "f(a.b)",
        1,
        "program@0-6#-1(call@0-2#1(name@0-1#0 error@2-2#-1))",
        "REF 0",
        [(2, "NESTING_LIMIT"), (2, "EXPECTED_TOKEN"), (2, "MISSING_STATEMENT_END")],
    ),
]


@pytest.mark.parametrize(("source", "limit", "tree", "events", "diagnostics"), AT_THE_NESTING_LIMIT)
def test_fast_paths_at_the_nesting_limit(
    source: str, limit: int, tree: str, events: str, diagnostics: list
) -> None:
    assert snapshot(source, limit) == (tree, events, diagnostics)


def shape(node: Node) -> tuple:
    """Node kinds alone, with parentheses dropped."""
    if node.kind == "paren":
        return shape(node.children[0])
    return (node.kind, tuple(shape(child) for child in node.children))


def structure(source: str) -> tuple:
    result = parse(tokenize(source).tokens)
    events = [
        (event[0], *(i for i in event[2:3] if isinstance(i, SymbolKind))) for event in result.events
    ]
    return shape(result.tree), events, [item.code for item in result.all_diagnostics]


# (fast-path spelling, the same with parenthesised operands: no fast path).
SPELLINGS = [
    ("a", "(a)"),
    ("let x = 1", "let x = (1)"),
    ("let x = y", "let x = (y)"),
    ('f(a, 1, "s")', 'f((a), (1), ("s"))'),
    ("f(true, nil)", "f((true), (nil))"),
    ("r = {k: a, m: 2,\n n: 3\n}", "r = {k: (a), m: (2),\n n: (3)\n}"),
    ("x = [a, b]", "x = [(a), (b)]"),
    ("a.b.c(d)", "(a).b.c((d))"),
    ("a + b * c", "(a) + (b) * (c)"),
    ("x += a.b", "(x) += (a).b"),
    ("{k: {j: v}}.k", "({k: ({j: (v)})}).k"),
]


@pytest.mark.parametrize(("fast", "slow"), SPELLINGS)
def test_fast_and_general_spellings_parse_alike(fast: str, slow: str) -> None:
    assert structure(fast) == structure(slow)
