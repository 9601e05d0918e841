"""`top_level_declarations` (the reference) skips a function body whole; the
declarations it finds are those a plain walk over every token finds; and
`statement_declarations`, which reads a statement's first tokens only,
finds what `top_level_declarations` finds in that statement's tokens."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from octoscript_lsp.syntax.check import analyze_syntax
from octoscript_lsp.syntax.lexer import tokenize
from octoscript_lsp.syntax.outline import statement_declarations
from octoscript_lsp.syntax.tokens import IDENT, LBRACE, RBRACE

from .outline_reference import top_level_declarations


def plainly_found(tokens) -> list[tuple[str, str, int]]:
    """(kind, name, start) of each `fn`/`let` + name outside every brace,
    found by a walk that looks at every token."""
    found = []
    depth = 0
    for index, token in enumerate(tokens):
        if token.kind is LBRACE:
            depth += 1
        elif token.kind is RBRACE:
            depth = max(depth - 1, 0)
        elif token.kind is IDENT and depth == 0 and token.text in ("fn", "let"):
            following = tokens[index + 1] if index + 1 < len(tokens) else None
            if following is not None and following.kind is IDENT:
                kind = "function" if token.text == "fn" else "let"
                found.append((kind, following.text, token.start))
    return found


PIECES = [
    "fn a(x) {",
    "fn b() { let inner = 1 }",
    "let c = {k: 1}",
    "let d = fn() { 2 }",
    "{",
    "}",
    "}}",
    "fn e",
    "let",
    "x + 1",
    "\n",
    "; ",
    "fn f() { if x { let g = 1 } else { fn h() {} } }",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=14).map(" ".join))
def test_declarations_are_those_a_plain_walk_finds(text: str):
    tokens = tokenize(text).tokens
    declarations = top_level_declarations(tokens)
    assert [(item.kind, item.name, item.start) for item in declarations] == plainly_found(tokens)


def test_a_function_body_is_skipped_whole():
    text = "fn f() { let hidden = 1 }\nlet shown = 2\nfn g() { fn nested() {} }\n"
    names = [item.name for item in top_level_declarations(tokenize(text).tokens)]
    assert names == ["f", "shown", "g"]
    function = top_level_declarations(tokenize(text).tokens)[0]
    assert text[function.start : function.end] == "fn f() { let hidden = 1 }"


# Top-level statements of many shapes, valid and not: texts joined from them
# that parse cleanly are compared statement by statement.
STATEMENTS = [
    "use mod.std.math",
    "let a = 1",
    "let b = {k: 1, inner: {x: [1, 2]}}",
    "let c = (1 + 2)",
    "let d = f(x, {y: 1}).g()",
    "fn e(p, q) {\n    let inner = p\n    return {r: inner}\n}",
    "fn f() {\n    if p {\n        let g = 1\n    } else {\n        2\n    }\n}",
    "fn h(x) {\n    for v in x {\n        let w = v\n    }\n}",
    "fn t(a) {\n    return |b| {\n        let c = b\n        c\n    }\n}",
    "let j = |k| k + 1",
    "let r = {\n    k: 1,\n    m: 2\n}",
    "let s = if a {\n    1\n} else {\n    2\n}",
    "if true {\n    let hidden = 1\n}",
    "while x {\n    break\n}",
    "loop {\n    fn inner() {\n        1\n    }\n    break\n}",
    "x = 2",
    'tool.call("svc.tool", "payload")',
    "let m = 1; let n = 2",
    "// a comment\nlet o = 3",
    "/* a\nblock */ let p = 4",
    "let u",
    "fn k() {}",
    "fn z(a, b, c) { return a; }",
    "let v = try {\n    1\n} catch {\n    2\n}",
    'let w = "fn x() { let y }"',
    "let l = || {\n    fn inner() {\n        1\n    }\n    inner\n}",
    "let q = {\r\n    k: 1\r\n}",
    "use mod.a.b.c",
    "fn",
    "let",
    "}",
]


# What may follow a statement: blank lines and comments belong to it.
SEPARATORS = ["\n", "\n\n", "\n// a note\n", "; ", " /* a\nnote */\n", "\r\n"]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(STATEMENTS), st.sampled_from(SEPARATORS)),
        min_size=1,
        max_size=10,
    ).map(lambda pairs: "".join(statement + separator for statement, separator in pairs)),
    st.booleans(),
)
def test_each_statement_declares_what_its_tokens_alone_do(text: str, unterminated: bool):
    if unterminated:
        # The last statement ends the file: no line break or `;` after it.
        text = text.rstrip("\n; ")
    assert_statement_declarations_match(text)


def test_a_statement_that_ends_the_file_declares_what_its_tokens_alone_do():
    for text in ("let a = 1", "fn f() {\n    1\n}", "let a = 1\nlet b = {\n    k: a\n}", "let u"):
        assert analyze_syntax(text).valid
        assert_statement_declarations_match(text)


def test_each_statement_of_the_fixtures_declares_what_its_tokens_alone_do(fixture_source):
    assert_statement_declarations_match(fixture_source)


def test_a_generated_document_declares_what_its_tokens_alone_do():
    assert_statement_declarations_match(generated_document())


def assert_statement_declarations_match(text: str) -> None:
    result = analyze_syntax(text)
    if not result.valid:
        return  # statements are read for valid source only
    tokens = result.tokens
    for first, after, *_ in result.parsed.units:
        expected = tuple(top_level_declarations(tokens[first:after]))
        assert statement_declarations(tokens, first, after) == expected


def generated_document() -> str:
    """A few hundred lines of the benchmark's statement shapes."""
    parts = ["use mod.tool\nuse mod.std.math\n"]
    for number in range(60):
        parts.append(
            f"fn step{number}(left, right) {{\n"
            f"    let total{number} = math.max(left, right) + {number}\n"
            f'    let record{number} = {{name: "n{number}", inner: {{count: {number}}}}}\n'
            f"    if total{number} > 10 {{\n        total{number} += 1\n    }}\n"
            f"    return total{number}\n}}\n"
            f"let value{number} = step{number}({number}, 1)\n"
            f'let reply{number} = tool.call("svc.tool{number}", "payload")\n'
        )
    return "".join(parts)
