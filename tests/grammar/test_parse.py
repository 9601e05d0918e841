"""The tree-sitter grammar parses every program the checker accepts."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given

from octoscript_lsp.syntax.check import SyntaxResult, analyze_syntax

from ..syntax.test_properties import BOUNDED, PROGRAMS
from .treesitter import REPO, LoadedGrammar, syntax_problems

SOURCE_SUFFIXES = (".octoscript", ".octo")
SOURCE_DIRS = (REPO / "examples", REPO / "tests" / "fixtures", REPO / "grammar" / "tests")

# Valid programs that stress the places where the grammar has to choose:
# record or block after `{`, newline or block comment as a statement end,
# `catch` as a name, greedy lambda bodies, dangling `else`.
TRICKY_VALID = [
    "let catch = 1\ncatch(2)\nlet y = catch.x",
    "let v = try catch_me catch (catch)",
    "let v = try (catch) catch 1",
    "let x = if a if b 1 else 2 else 3",
    "let x = if a b elif c d else e",
    "if a {\n}\nelse_ = 1",
    "let r = {\n\n a: 1,\n\n b: 2\n\n}",
    "let r = {}\nlet s = {\n}",
    "{a: 1}",
    "f(|x| x + 1, 2)",
    "let f = |x| |y| x + y",
    "let f = || {\n}",
    "let f = |a, b| {\n a + b;\n}(1, 2)",
    "let v = try {\n nil\n} catch {\n nil\n}",
    "x = y = 3\na.b.c = 1\na[0] += 2",
    "while (|| true)() {\n}",
    "for a, b, c in xs {\n}",
    'let s = "\\u{10FFFF}\\u0041\\"\\\\\\t"',
    "let n = 1.5e-3 + 2E+4 + 7",
    "let v = (5).x + 5 .x",
    "fn f() { return; }\nfn g() {\n return\n}",
    ";;\n;\nlet a = 1; let b = 2;",
    "let a = -b * !c + ~d",
    "x.start().await()",
    "let q = a < b < c",
    "if x { a; } else if y { b; } else { c; }",
    "let r = {a: 1 /* one\n */ b: 2}",
    "a /* x\ny\n */ b",
    "/* ***/ let a = 1\n/**/",
    "let r = {a: || {\n}, b: 2}",
    "let x = {a: if c 1 else 2\n b: 3}",
    "let x = try a catch b + 1",
    "let x = while c { }",
    "let x = [f(a)(b)[c].d]",
    "let x = 1\r\nlet y = 2\r\n",
    "use mod.std.math\nuse mod.app.weather\nmath.abs(-1)",
    'let a = "//x"\nlet b = "/* a */"\nlet c = " // "',
    "let x = y.catch + {catch: 1}.catch\ntry a + catch catch b",
    "let mod = 1\nmod.x\nlet r = {mod: mod.mod}",
    "let r = {a: 1, /*\n*/ b: 2}\nlet s = { /*\n*/ a: 1 }",
    "if a = b {\n}\nif a == || b {\n}",
    "let x = try if a { x; } else { y; } catch nil",
    "\f\tlet a = 1\f",
    "",
    "// only a comment",
]


def canonical(result: SyntaxResult) -> bool:
    """Accepted by the canonical lexer and parser (runtime-only rejections aside)."""
    lex, parsed = result.lex, result.parsed
    return not (lex.diagnostics or lex.truncated or parsed.diagnostics or parsed.truncated)


def project_sources() -> list[Path]:
    found = [
        path
        for directory in SOURCE_DIRS
        for path in sorted(directory.rglob("*"))
        if path.suffix in SOURCE_SUFFIXES
    ]
    assert found
    return found


def valid_project_sources() -> list[Path]:
    return [
        path
        for path in project_sources()
        if canonical(analyze_syntax(path.read_text(encoding="utf-8")))
    ]


def assert_parses_cleanly(grammar: LoadedGrammar, source: str) -> None:
    tree = grammar.parser().parse(source.encode("utf-8"))
    assert syntax_problems(tree) == [], (source, str(tree.root_node))


def test_fixtures_include_valid_programs() -> None:
    # Guards the parametrized test below against silently testing nothing.
    assert len(valid_project_sources()) >= 15


@pytest.mark.parametrize(
    "path", valid_project_sources(), ids=lambda path: str(path.relative_to(REPO))
)
def test_valid_project_program_parses(grammar: LoadedGrammar, path: Path) -> None:
    assert_parses_cleanly(grammar, path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("source", TRICKY_VALID)
def test_tricky_valid_program_parses(grammar: LoadedGrammar, source: str) -> None:
    assert canonical(analyze_syntax(source)), source
    assert_parses_cleanly(grammar, source)


@BOUNDED
@given(PROGRAMS)
def test_generated_valid_programs_parse(grammar: LoadedGrammar, source: str) -> None:
    assert canonical(analyze_syntax(source)), source
    assert_parses_cleanly(grammar, source)


@pytest.mark.parametrize(
    "source",
    ["let = 1", "fn (a) {}", "f(a,", "let r = {a 1}", "use std.math"],
)
def test_invalid_program_has_an_error_node(grammar: LoadedGrammar, source: str) -> None:
    assert not canonical(analyze_syntax(source))
    assert syntax_problems(grammar.parser().parse(source.encode("utf-8")))


def test_tree_shape_of_a_small_program(grammar: LoadedGrammar) -> None:
    source = "use mod.std.math\nfn twice(x) {\n    return x * 2\n}\nlet r = {a: twice(1)}\n"
    tree = grammar.parser().parse(source.encode("utf-8"))
    root = tree.root_node
    assert [child.type for child in root.named_children] == [
        "use_declaration",
        "function_declaration",
        "let_declaration",
    ]
    function = root.named_children[1]
    assert function.child_by_field_name("name").text == b"twice"
    body = function.child_by_field_name("body")
    assert [child.type for child in body.named_children] == ["return_statement"]
    record = root.named_children[2].child_by_field_name("value")
    assert record.type == "record"
    assert record.named_children[0].child_by_field_name("key").text == b"a"
