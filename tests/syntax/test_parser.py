"""Parser: every grammar v0.2 construct, every rejection, limits and scope events.

Expected positions are those of the reference checker's first diagnostic
(1-based line and code-point column) together with the total count it
reports, so recovery is pinned down as well as the first error.
"""

from __future__ import annotations

import pytest

from octoscript_lsp.limits import MAX_SYNTAX_DIAGNOSTICS, MAX_SYNTAX_NESTING
from octoscript_lsp.syntax.check import analyze_syntax
from octoscript_lsp.syntax.tree import DEFINE, IMPORT, LET_INIT, POP, PUSH, REFERENCE, SymbolKind

from .util import messages, positions, summary

# ---------------------------------------------------------------- valid programs

VALID = [
    "",
    "\n\n",
    "let a = 1\n",
    "let a = 1",
    "let a = 1\r\nlet b = a\r\n",
    "let a = 1; let b = 2; a + b",
    "let a = 1;\n;\nlet b = 2",
    "let pending\npending = 3",
    "use mod.tool\nuse mod.std.assert\nuse mod.app.weather.current",
    "let r = {a: 1, b: 2}",
    "let r = {\n    a: 1,\n    b: 2\n}",
    "let r = {\n    a: 1\n    b: 2\n}",
    "let r = {\n\n    a: 1,\n\n    b: 2\n\n}",
    "let r = {a: 1\n}",
    "let r = {}",
    "let r = {\n}",
    "let r = {a: {b: {c: [1, {d: 2}]}}}",
    'let a = []\nlet b = [1, [2, 3], "x"]',
    "let v = try risky() catch nil",
    "let v = try { risky(); } catch { nil; }",
    "let v = try {\n    risky()\n} catch {\n    nil\n}",
    "let v = try {\n    let a = risky()\n    a + 1\n} catch {\n    0\n}",
    "let v = try ({value: 1}) catch ({value: 0})",
    "let v = try try a() catch b() catch c()",
    "let v = try a() catch try b() catch c()",
    "let v = try { nil; } catch { if a { 1; } else { 2; }; }",
    "let catch = 41\ncatch + 1",
    "let v = try (catch) catch catch",
    "fn catch() {\n}\ncatch()",
    "let add = |a, b| a + b",
    "let one = |a| a",
    "let later = || {\n    work()\n}",
    "let nested = || || 1",
    "let v = (|x| x)(1)",
    'let r = tool.start("x", {}).await()',
    "let r = a.b.c(1)[2].d",
    "fn outer(a) {\n    fn inner(b) {\n        return a + b\n    }\n    return inner(1)\n}",
    "fn none() {\n    return\n}",
    "fn f() {}",
    "for v in items {\n    print(v)\n}",
    "for k, v in items {\n}",
    "for i, k, v in items {\n    break\n}",
    "for v in (if a { b; } else { c; }) {\n}",
    "for v in (|| 1) {\n}",
    "while running {\n    continue\n}",
    "while (loop { break; }) {\n}",
    "loop {\n    break\n}",
    "if a {\n    1\n} elif b {\n    2\n} elif c {\n    3\n} else {\n    4\n}",
    "let v = if a 1 else 2",
    "let v = if a 1 elif b 2 else 3",
    "let v = if a { 1; } else if b { 2; } else { 3; }",
    "fn f() { a; }",
    "fn f() { a; b; }",
    "if (|| ready) {\n}",
    "if ready {\n    |value| value\n}",
    "if (if a 1 else 2) {\n}",
    "x = 1\nx += 1\nx -= 1\nx *= 2\nx /= 2\nx %= 2",
    "a = b = c",
    "let v = !a\nlet w = -b\nlet x = +c\nlet y = ~d",
    "let v = -(-a)",
    "let v = a || b && c == d != e < f <= g > h >= i + j - k * l / m % n",
    "let v = 5 .field",
    "let v = (5).field",
    'let v = "s".length',
    "let v = [1][0]",
    "// only a comment",
    "/* block\ncomment */ let a = 1",
    "let a = 1 // trailing\nlet b = /* inline */ 2",
    "return 1",
    "break\ncontinue",
]


@pytest.mark.parametrize("source", VALID)
def test_valid_programs(source):
    result = analyze_syntax(source)
    assert result.diagnostics == []
    assert result.valid
    assert not result.diagnostics_truncated


def test_fixtures_are_valid(fixture_sources):
    invalid = {"import_recovery_path", "vm_partial_field_assignment"}
    for name, source in fixture_sources.items():
        assert analyze_syntax(source).valid is (name not in invalid), name


# ---------------------------------------------------------------- rejections

REJECTIONS = [
    # (source, first (line, column), diagnostic count)
    # compatibility words
    ("var a = 1", (1, 1), 2),
    ("let a = match", (1, 9), 1),
    ("let a = ok", (1, 9), 1),
    ("do {\n}", (1, 1), 3),
    ("let v = a and b", (1, 11), 1),
    ("let v = a or b", (1, 11), 1),
    ("let v = a is b", (1, 11), 1),
    ("let mut a = 1", (1, 5), 3),
    ("let v = me.x", (1, 9), 1),
    ("let v = scope", (1, 9), 1),
    ("let ok = 1", (1, 5), 3),
    ("fn var() {\n}", (1, 4), 5),
    ("f(a, match)", (1, 6), 1),
    # keywords as names
    ("let if = 1", (1, 5), 3),
    ("let in = 1", (1, 5), 3),
    ("let true = 1", (1, 5), 3),
    ("fn let() {\n}", (1, 4), 5),
    ("fn f(fn) {\n}", (1, 6), 5),
    ("let r = {if: 1}", (1, 10), 4),
    ("let v = a.nil", (1, 11), 2),
    ("use mod.let", (1, 9), 2),
    ("use mod", (1, 8), 1),
    ("use tool", (1, 5), 2),
    ("use mod.a.", (1, 11), 1),
    ("for in in x {\n}", (1, 5), 3),
    ("let f = |fn| 1", (1, 10), 3),
    ("let v = else", (1, 9), 1),
    ("let v = try", (1, 12), 2),
    # trailing commas
    ("f(1, 2,)", (1, 8), 1),
    ("let a = [1, 2,]", (1, 15), 1),
    ("let r = {a: 1,}", (1, 15), 1),
    ("let r = {\n    a: 1,\n}", (3, 1), 1),
    ("fn f(a, b,) {\n}", (1, 11), 1),
    ("for a, in x {\n}", (1, 8), 1),
    ("let f = |a,| a", (1, 12), 1),
    ("f(,)", (1, 3), 1),
    # record shape
    ("let r = {a: 1 b: 2}", (1, 15), 3),
    ("let r = {a 1}", (1, 12), 3),
    ('let r = {"a": 1}', (1, 10), 4),
    ("let r = {a: 1;b: 2}", (1, 14), 3),
    # destructuring and typed declarations
    ("let [a, b] = pair", (1, 5), 3),
    ("let {a} = record", (1, 5), 6),
    ("let a, b = 1, 2", (1, 6), 2),
    ("let a: int = 1", (1, 6), 2),
    ("for (k, v) in items {\n}", (1, 5), 4),
    # catch-less and legacy try
    ("let v = try risky()", (1, 20), 1),
    ("let v = try risky() fallback", (1, 21), 2),
    ("let v = try risky() nil", (1, 21), 2),
    ("let v = try catch nil", (1, 13), 1),
    ("let v = try a() catch", (1, 22), 1),
    ("let v = try {\n    a()\n}", (3, 2), 1),
    # value blocks
    ("let v = try { let a = 1 } catch { nil }", (1, 25), 3),
    ("let v = try {\n    let a = 1\n} catch {\n    nil\n}", (3, 1), 1),
    ("let v = try {\n    nil\n} catch {\n    let b = 1\n}", (5, 1), 1),
    ("let v = try {\n    nil\n} catch {\n    for x in y {\n    }\n}", (6, 1), 1),
    ("let v = try {\n    return 1\n} catch {\n    nil\n}", (3, 1), 1),
    ("let v = try {\n    while a {\n    }\n} catch {\n    nil\n}", (4, 1), 1),
    ("let v = try {\n} catch {\n    nil\n}", (2, 1), 1),
    ("let v = try {a: 1} catch nil", (1, 15), 1),
    ("let v = try { a() } catch {", (1, 19), 2),
    # lambdas and control expressions in the wrong place
    ("let v = if a |x| x else 1", (1, 14), 2),
    ("let v = if a { 1 } else |x| x", (1, 18), 3),
    ("let v = if a 1 elif b || 2", (1, 27), 1),
    ("if || ready {\n}", (1, 4), 4),
    ("if |x| x {\n}", (1, 4), 4),
    ("while || ready {\n}", (1, 7), 4),
    ("for v in |x| x {\n}", (1, 10), 4),
    ("if if a { b } else { c } {\n}", (1, 4), 5),
    ("if try a catch b {\n}", (1, 4), 3),
    ("while loop { break } {\n}", (1, 7), 4),
    ("for v in for w in x { } {\n}", (1, 10), 4),
    ("if a {\n} elif while b {\n} {\n}", (2, 8), 3),
    ("if {\n}", (2, 2), 1),
    ("if a {\n} elif {\n}", (3, 2), 1),
    ("if a\n{\n}", (1, 5), 1),
    ("let v = if a", (1, 13), 1),
    ("let v = if a 1 else", (1, 20), 1),
    # statement boundaries
    ("let a = 1 let b = 2", (1, 11), 1),
    ("a b", (1, 3), 1),
    ("f() g()", (1, 5), 1),
    ("let a = 1, b = 2", (1, 10), 1),
    ("fn f() {\n    a b\n}", (2, 7), 1),
    ("fn f() { a }", (1, 12), 1),
    ("let v = try { risky() } catch { nil }", (1, 23), 2),
    ("let v = if a { 1 } else { 2 }", (1, 18), 2),
    ("while (loop { break }) {\n}", (1, 21), 1),
    ("f(\n)", (1, 3), 1),
    ("f(1,\n2)", (1, 5), 3),
    ("let a = [\n1]", (1, 10), 3),
    ("let v = a\n    .b", (2, 5), 2),
    ("let v = a +\n    b", (1, 12), 2),
    ("{a: 1}", None, 0),
    ("}", (1, 1), 1),
    ("let a = 1\n}\nlet b = 2", (2, 1), 3),
    ("fn f() {\n    a", (2, 6), 1),
    ("fn f()", (1, 7), 1),
    ("fn f {\n}", (1, 6), 1),
    ("fn (a) {\n}", (1, 4), 1),
    ("fn f(a b) {\n}", (1, 8), 4),
    # for bindings
    ("for a, b, c, d in x {\n}", (1, 14), 1),
    ("for a, b, c, d, e in x {\n}", (1, 14), 2),
    ("for in x {\n}", (1, 5), 3),
    ("for a x {\n}", (1, 7), 3),
    ("for a in {\n}", (2, 2), 1),
    ("for a in\n{\n}", (1, 9), 2),
    ("for a in x", (1, 11), 1),
    ("loop\n{\n}", (1, 5), 1),
    ("while {\n}", (2, 2), 1),
    # expressions
    ("let a =", (1, 8), 1),
    ("let a = )", (1, 9), 1),
    ("let a = (1", (1, 11), 1),
    ("let a = [1 2]", (1, 12), 2),
    ("f(1 2)", (1, 5), 2),
    ("let a = x[]", (1, 11), 1),
    ("let a = x[1", (1, 12), 1),
    ("let a = x.", (1, 11), 1),
    ("let a = x.1", (1, 11), 2),
    ("let a = 1 +", (1, 12), 1),
    ("let a = * 2", (1, 9), 2),
    ("let a = !!b", (1, 9), 1),
    ("let a = - -b", (1, 11), 2),
    ("let f = |a b| a", (1, 12), 2),
    ("let f = |a", (1, 11), 1),
    ("let f = ||", (1, 11), 1),
    ("let x = .await()", (1, 9), 2),
    ("a:b", (1, 2), 1),
    ("return return", (1, 8), 1),
    ("break 1", (1, 7), 1),
]


@pytest.mark.parametrize(("source", "expected_first", "expected_count"), REJECTIONS)
def test_rejection_positions(source, expected_first, expected_count):
    assert summary(source) == (expected_first, expected_count)
    assert analyze_syntax(source).valid is (expected_count == 0)


def test_two_statements_on_one_line_message():
    assert messages("let a = 1 let b = 2") == ["expected a newline or `;` after a statement"]


def test_reserved_word_message():
    assert messages("let v = var") == ["reserved words cannot be used as expressions here"]


def test_keyword_binding_reports_declaration_and_recovery():
    assert messages("let if = 1") == [
        "expected an identifier after `let`",
        "expected `=` or a statement end after a `let` declaration",
        "expected a newline or `;` after a statement",
    ]


def test_trailing_comma_messages_name_the_grammar():
    assert messages("f(1,)") == ["trailing commas are not part of the canonical call grammar"]
    assert messages("[1,]") == ["trailing commas are not part of the canonical array grammar"]
    assert messages("let r = {a: 1,}") == [
        "trailing commas are not part of the canonical record grammar"
    ]
    assert messages("fn f(a,) {\n}") == [
        "trailing commas are not part of the canonical parameter grammar"
    ]
    assert messages("for a, in x {\n}")[0] == (
        "trailing commas are not part of the canonical `for` binding grammar"
    )


def test_try_value_block_message_names_the_branch():
    assert messages("let v = try {\n    let a = 1\n} catch {\n    nil\n}") == [
        "a try protected block must end with a value-producing expression; use `nil` for no value"
    ]
    assert "try fallback block" in messages("let v = try {\n    1\n} catch {\n    break\n}")[0]


def test_lambda_branch_and_condition_messages():
    assert messages("let v = if a { 1; } else |x| x") == [
        "a lambda used as a conditional branch must be written in a block",
        "expected a newline or `;` after a statement",
    ]
    assert messages("if || ready {\n}")[0] == (
        "a lambda used as an `if` condition or iterable must be parenthesized"
    )
    assert messages("for v in if a { b } else { c } {\n}")[0] == (
        "a control expression used as an `for` condition or iterable must be parenthesized"
    )


def test_for_binding_limit_message():
    assert messages("for a, b, c, d in x {\n}") == [
        "a `for` expression supports at most three bindings"
    ]


def test_catch_identifier_must_be_parenthesized_as_protected_expression():
    # `try catch ...` reads `catch` as the separator.
    assert positions("let v = try catch catch 1")[0] == (1, 13)
    assert positions("let v = try (catch) catch 1") == []


def test_later_diagnostics_are_reported_in_source_order():
    assert positions("let a = 1 2\nlet if = 3\nf(1,)") == [(1, 11), (2, 5), (2, 5), (2, 5), (3, 5)]


# ---------------------------------------------------------------- limits


def _nested_valid(depth: int, opener: str, closer: str, inner: str = "1") -> str:
    return "let v = " + opener * depth + inner + closer * depth


@pytest.mark.parametrize(
    ("opener", "closer"),
    [
        ("(", ")"),
        ("[", "]"),
        ("f(", ")"),
        ("{a: ", "}"),
        ("|| ", ""),
        ("|x| ", ""),
        ("-(", ")"),
        ("a[", "]"),
        ("try ", " catch 0"),
        ("x.y(", ")"),
    ],
)
def test_deepest_accepted_and_first_rejected_nesting(opener, closer):
    # `let v = ...` is one expression level; each opener adds one more.
    deepest = MAX_SYNTAX_NESTING - 1
    assert analyze_syntax(_nested_valid(deepest, opener, closer)).valid
    result = analyze_syntax(_nested_valid(deepest + 1, opener, closer))
    assert not result.valid
    assert "nesting exceeds the maximum of 128" in result.diagnostics[0].message


def test_nested_blocks_count_block_and_expression_levels():
    # Each `if c {` adds an expression level and a block level.
    def program(depth: int) -> str:
        return "if c {\n" * depth + "x\n" + "}\n" * depth

    # 63 levels of `if` use 126 nesting levels; the innermost `x` is the 127th.
    assert analyze_syntax(program(MAX_SYNTAX_NESTING // 2 - 1)).valid
    result = analyze_syntax(program(MAX_SYNTAX_NESTING // 2))
    assert [result.line_column(item.offset) for item in result.diagnostics] == [(65, 1), (65, 1)]


def test_nesting_diagnostic_position():
    source = "(" * 200
    result = analyze_syntax(source)
    assert result.line_column(result.diagnostics[0].offset) == (1, 129)
    assert "nesting exceeds" in result.diagnostics[0].message
    assert len(result.diagnostics) == MAX_SYNTAX_DIAGNOSTICS
    assert result.diagnostics_truncated


def test_custom_nesting_budget():
    assert analyze_syntax("((1))", max_nesting=3).valid
    assert positions_with_nesting("(((1)))", 3) == (1, 4)


def positions_with_nesting(source: str, nesting: int) -> tuple[int, int]:
    result = analyze_syntax(source, max_nesting=nesting)
    return result.line_column(result.diagnostics[0].offset)


# Deeply nested, unfinished input; how fast it is analysed is measured in
# `benchmarks/bench_hostile_inputs.py`.
DEEP_INPUTS = [
    "[" * 20000,
    "(" * 5000,
    "{a: " * 5000,
    "f(" * 5000,
    "|| " * 5000,
    "|a| " * 5000,
    "-(" * 5000,
    "a[" * 5000,
    "try " * 5000,
    "if a { " * 5000,
    "fn f() { " * 5000,
    "x.y(" * 5000,
    "for a in b { " * 3000,
    "while (" * 5000,
]


@pytest.mark.parametrize("source", DEEP_INPUTS)
def test_deep_inputs_never_raise(source):
    result = analyze_syntax(source)
    assert not result.valid
    assert len(result.diagnostics) <= MAX_SYNTAX_DIAGNOSTICS


def test_deep_input_parses_from_an_already_deep_stack():
    def descend(levels: int):
        return descend(levels - 1) if levels else analyze_syntax("f(" * 1000)

    assert not descend(400).valid


def test_parser_diagnostics_are_capped():
    source = "\n".join("let if = 1" for _ in range(20))
    result = analyze_syntax(source)
    assert len(result.diagnostics) == MAX_SYNTAX_DIAGNOSTICS
    assert result.diagnostics_truncated


# ---------------------------------------------------------------- scope events


def events(source: str) -> list[tuple]:
    """Scope events with token indexes replaced by their spelling."""
    result = analyze_syntax(source)
    tokens = result.tokens
    named = []
    for event in result.parsed.events:
        tag = event[0]
        if tag == PUSH:
            named.append(("push",))
        elif tag == POP:
            named.append(("pop", event[1]))
        elif tag == DEFINE:
            named.append(("define", tokens[event[1]].text, event[2], event[3]))
        elif tag == REFERENCE:
            named.append(("ref", tokens[event[1]].text))
        elif tag == IMPORT:
            named.append(("import", event[1], event[2], event[3], tokens[event[4]].text))
        elif tag == LET_INIT:
            named.append(("init", tokens[event[1]].text, tokens[event[2]].start))
    return named


def test_let_is_visible_only_after_its_initializer():
    assert events("let a = 1\nlet b = a") == [
        ("init", "a", 8),
        ("define", "a", SymbolKind.LET, 9),
        ("ref", "a"),
        ("init", "b", 18),
        ("define", "b", SymbolKind.LET, 19),
    ]


def test_self_reference_in_initializer_precedes_the_definition():
    assert events("let a = a") == [
        ("ref", "a"),
        ("init", "a", 8),
        ("define", "a", SymbolKind.LET, 9),
    ]


def test_uninitialized_let_has_no_init_event():
    assert events("let a\n") == [("define", "a", SymbolKind.LET, 5)]


def test_function_scope_and_parameters():
    source = "fn f(a, b) {\n    a + b\n}\nf(1, 2)"
    assert events(source) == [
        ("define", "f", SymbolKind.FUNCTION, 4),
        ("push",),
        ("define", "a", SymbolKind.PARAMETER, 6),
        ("define", "b", SymbolKind.PARAMETER, 9),
        ("ref", "a"),
        ("ref", "b"),
        ("pop", 24),
        ("ref", "f"),
    ]


def test_import_defines_its_last_segment():
    assert events("use mod.std.assert\nassert(1)") == [
        ("import", ("mod", "std", "assert"), 4, 18, "assert"),
        ("define", "assert", SymbolKind.IMPORT, 18),
        ("ref", "assert"),
    ]


def test_import_followed_by_junk_still_defines_but_does_not_record_the_path():
    # The statement-end check fails, so no IMPORT event; the binding is defined.
    assert events("use mod.a b") == [("define", "a", SymbolKind.IMPORT, 10)]


def test_lambda_parameters_get_their_own_scope():
    assert events("let f = |x, y| x") == [
        ("push",),
        ("define", "x", SymbolKind.LAMBDA_PARAMETER, 10),
        ("define", "y", SymbolKind.LAMBDA_PARAMETER, 13),
        ("ref", "x"),
        ("pop", 16),
        ("init", "f", 8),
        ("define", "f", SymbolKind.LET, 16),
    ]


def test_for_bindings_are_defined_after_the_iterable():
    source = "for k, v in items {\n    v\n}"
    assert events(source) == [
        ("ref", "items"),
        ("push",),
        ("define", "k", SymbolKind.LOOP_BINDING, 18),
        ("define", "v", SymbolKind.LOOP_BINDING, 18),
        ("ref", "v"),
        ("pop", 27),
    ]


def test_while_and_loop_push_scopes():
    assert events("while a {\n    let b = 1\n}\nloop {\n}") == [
        ("push",),
        ("ref", "a"),
        ("init", "b", 22),
        ("define", "b", SymbolKind.LET, 23),
        ("pop", 25),
        ("push",),
        ("pop", 34),
    ]


def test_if_blocks_and_records_do_not_push_scopes():
    assert events("if a {\n    b\n} else {\n    c\n}\nlet r = {k: d}") == [
        ("ref", "a"),
        ("ref", "b"),
        ("ref", "c"),
        ("ref", "d"),
        ("init", "r", 38),
        ("define", "r", SymbolKind.LET, 44),
    ]


def test_member_names_and_record_keys_are_not_references():
    assert events("a.b({c: d})") == [("ref", "a"), ("ref", "d")]


def test_nested_function_scopes():
    source = "fn outer(a) {\n    fn inner(b) {\n        a\n    }\n}"
    assert [event[0] for event in events(source)] == [
        "define",
        "push",
        "define",
        "define",
        "push",
        "define",
        "ref",
        "pop",
        "pop",
    ]


def test_events_still_emitted_for_broken_source():
    assert events("let a = b c") == [
        ("ref", "b"),
        ("init", "a", 8),
        ("define", "a", SymbolKind.LET, 10),
    ]


# ---------------------------------------------------------------- tree


def test_tree_shapes():
    result = analyze_syntax("fn f(a) {\n    return a.b(1)[0]\n}\nlet r = {k: -1}")
    kinds = [node.kind for node in result.parsed.tree.walk()]
    assert kinds == [
        "program",
        "fn",
        "name",
        "params",
        "name",
        "block",
        "return",
        "index",
        "call",
        "member",
        "name",
        "literal",
        "literal",
        "let",
        "name",
        "record",
        "field",
        "unary",
        "literal",
    ]


def test_tree_spans_are_code_points():
    result = analyze_syntax('let s = "é"\nlet t = s')
    statements = result.parsed.tree.children
    assert [(node.kind, node.start, node.end) for node in statements] == [
        ("let", 0, 11),
        ("let", 12, 21),
    ]
