"""Canonical programs the runtime's parser rejects are reported, as the reference does."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from octoscript_lsp.syntax.check import analyze_syntax

from .vm_differential import assert_vm_is_the_full_walk

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


REJECTED = [
    f"let f = {LAMBDA}()",
    f"let f = {LAMBDA} == 2",
    f"g({LAMBDA} < 2)",
    f"let f = ({LAMBDA}.x)",
    "if a.b = 1 {\n}",
    "while x = a.b = 1 {\n}",
    "for i in a.b += 1 {\n}",
    "if x == || 1 {\n}",
]
ACCEPTED = [
    "let y = 1",
    "x += 1",
    "a.b = 2",
    "if x = 1 {\n}",
    "if (a.b = 1) {\n}",
    "if x {\n  a.b = 1\n}",
    "while x > 1 {\n  x -= 1\n}",
    f"let f = {LAMBDA}",
    "let f = || 1 == 2",
    "if a.b = 1 {\n} elif x {\n}",
]
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def _wrapped(statement: str, wrapper: int) -> str:
    if wrapper == 1:
        return "fn w(x) {\n" + statement + "\n}"
    if wrapper == 2:
        return "loop {\n" + statement + "\n}"
    return statement


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(st.sampled_from(REJECTED + ACCEPTED), st.integers(min_value=0, max_value=2)),
        min_size=1,
        max_size=8,
    )
)
def test_steps_marked_clean_hold_no_runtime_finding(parts):
    source = HEAD + "\n".join(_wrapped(statement, wrapper) for statement, wrapper in parts) + "\n"
    assert_vm_is_the_full_walk(analyze_syntax(source))


@pytest.mark.parametrize(
    "path", sorted(FIXTURES.glob("*.octoscript")) + sorted(FIXTURES.glob("corpus/*.octoscript"))
)
def test_fixture_programs_skip_only_clean_steps(path: Path):
    assert_vm_is_the_full_walk(analyze_syntax(path.read_text(encoding="utf-8")))


def test_a_program_without_lambdas_or_assigned_conditions_needs_no_check():
    result = analyze_syntax("let x = 1\nfn f(a) {\n  if a > 1 {\n    a += 1\n  }\n  a\n}\n")
    assert result.parsed.unit_runtime_checks == [False, False]
    marked = analyze_syntax("let x = 1\nlet g = |p| p\nif x.y = 2 {\n}\n")
    assert marked.parsed.unit_runtime_checks == [False, True, True]
