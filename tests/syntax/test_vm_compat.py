"""Canonical programs the runtime's parser rejects are reported, as the reference does."""

from __future__ import annotations

import pytest

from octoscript_lsp.syntax.check import analyze_syntax

LAMBDA = "|| {\n1\n}"
HEAD = "let a = {b: [1]}\nlet x = 1\nlet g = |p| p\n"


@pytest.mark.parametrize(
    "program",
    [
        f"let f = {LAMBDA}()\n",
        f"let f = {LAMBDA}(1, 2)\n",
        f"let f = {LAMBDA} == 2\n",
        f"let f = {LAMBDA} / 2\n",
        f"let f = {LAMBDA} += 2\n",
        f"g({LAMBDA} < 2)\n",
        f"let f = ({LAMBDA} + 1)\n",
        f"let f = ({LAMBDA}.x)\n",
        "let f = || { 1; } == 2\n",
        "if a.b = 1 {\n}\n",
        "if a.b = 1 {\n} else {\n}\n",
        "if x {\n} elif a[0] = 1 {\n}\n",
        "while x = a.b = 1 {\n}\n",
        "for i in a.b += 1 {\n}\n",
        "if 1 + a.b = 1 {\n}\n",
        "if x == || 1 {\n}\n",
        "while x == |p| p + 1 {\n}\n",
    ],
)
def test_runtime_parser_rejections_are_reported(program: str):
    canonical = analyze_syntax(HEAD + program)
    assert not canonical.lex.diagnostics and not canonical.parsed.diagnostics
    assert not canonical.valid
    assert canonical.diagnostics


@pytest.mark.parametrize(
    "program",
    [
        f"let f = {LAMBDA}\n",
        f"let f = {LAMBDA}(1)\n",
        f"let f = {LAMBDA}.x\n",
        f"let f = {LAMBDA}[0]\n",
        f"let f = {LAMBDA} + 2\n",
        f"let f = {LAMBDA} || x\n",
        f"g({LAMBDA}, 1)\n",
        f"let f = ({LAMBDA})\n",
        f"let f = ({LAMBDA})()\n",
        f"let f = [{LAMBDA}, 1]\n",
        f"let f = try {LAMBDA} catch nil\n",
        f"if x == {LAMBDA} {{\n}}\n",
        "let f = || 1 == 2\n",
        "if (a.b = 1) {\n}\n",
        "if x = 1 {\n}\n",
        "if a.b() = 1 {\n}\n",
        "if a.b = 1 {\n} elif x {\n}\n",
        "if a.b = 1 {\n} elif a.b = 1 {\n}\n",
        f"if x == {LAMBDA}.x = 2 {{\n}}\n",
        "if g(|| 1) {\n}\n",
    ],
)
def test_programs_the_runtime_parser_accepts_stay_valid(program: str):
    assert analyze_syntax(HEAD + program).valid


def test_runtime_rejections_are_positioned_in_the_program():
    result = analyze_syntax(HEAD + f"let f = {LAMBDA}() \n")
    (diagnostic,) = result.diagnostics
    assert result.line_column(diagnostic.offset) == (6, 2)
