"""Only the lexer and the trivia reader read comment and escape syntax.

Everything else asks `syntax/trivia.py` (where a comment, string or escape
ends, what a literal means) or reads the lexer's tokens and comment spans,
so a rule of the language cannot drift between two readers. The check reads
the package's code (docstrings may describe the syntax): a comment mark
written as a string, a slash or star compared on its own (the first half of
a mark), or a lone backslash (the start of an escape) is a second reader.
"""

from __future__ import annotations

import ast

from .test_layers import modules

READERS = {"octoscript_lsp.syntax.lexer", "octoscript_lsp.syntax.trivia"}
# Other languages' escapes, read where their text is handled.
OTHER_SYNTAXES = {
    "octoscript_lsp.transport": "JSON strings in the framed messages",
    "octoscript_lsp.features.completion": "snippet syntax in completion insert texts",
}
COMMENT_MARKS = {"//", "/*", "*/"}
MARK_HALVES = {"/", "*"}


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring constants, which may name the syntax."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _compared_constants(tree: ast.Module) -> set[int]:
    """The ids of the string constants a comparison reads directly."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for operand in (node.left, *node.comparators):
                if isinstance(operand, ast.Constant):
                    found.add(id(operand))
    return found


def syntax_readings(source: str) -> list[tuple[int, str]]:
    """(line, constant) of each place the code reads comment or escape syntax."""
    tree = ast.parse(source)
    docstrings, compared = _docstrings(tree), _compared_constants(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
            continue
        value = node.value
        if id(node) in docstrings:
            continue
        if (
            value in COMMENT_MARKS
            or "*/" in value
            or value == "\\"
            or (value in MARK_HALVES and id(node) in compared)
        ):
            found.append((node.lineno, value))
    return found


def test_only_the_lexer_and_the_trivia_reader_read_comments_and_escapes():
    offenders = [
        f"{module}:{line} {value!r}"
        for module, path in modules().items()
        if module not in READERS and module not in OTHER_SYNTAXES
        for line, value in syntax_readings(path.read_text())
    ]
    assert offenders == []


def test_the_check_sees_each_way_of_reading_the_syntax():
    assert syntax_readings('def f(s, i):\n    return s.startswith("//", i)\n') == [(2, "//")]
    assert syntax_readings('def f(s, i):\n    return s[i + 1] == "*"\n') == [(2, "*")]
    assert syntax_readings('def f(c):\n    return c == "\\\\"\n') == [(2, "\\")]
    assert syntax_readings('x = s.find("*/", 3)\n') == [(1, "*/")]
    assert syntax_readings('def f():\n    """Skips `//` comments."""\n') == []
    assert syntax_readings('OPERATORS = {"/": 6, "*": 6}\n') == []


def test_the_exceptions_still_read_another_syntax():
    """An exception whose reading went away is dropped from the list."""
    for module in OTHER_SYNTAXES:
        assert syntax_readings(modules()[module].read_text()), module
