"""Semantic tokens: legend, classification, per-line comments, columns per encoding."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck
from hypothesis import strategies as st

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.features.positions import UTF8, UTF16, UTF32
from octoscript_lsp.features.semantic_tokens import (
    LEGEND,
    TOKEN_MODIFIERS,
    TOKEN_TYPES,
    classify,
    full,
    full_items,
    range_tokens,
)
from octoscript_lsp.features.wire import integer_items
from octoscript_lsp.limits import MAX_LEXICAL_COMPLETION_SITES
from tests.analysis.test_incremental_snapshot import LONG, edits
from tests.conftest import quick_and_full
from tests.features.semantic_reference import reference_classify, reference_full, reference_range
from tests.sync.differential import spec_column
from tests.syntax.test_incremental import BASES, apply

# Comments between, inside and across statements, a multi-line string, astral text.
COMMENTED = (
    "// head\nuse mod.std.math /* a\r\n b */ let x = 1\n"
    'let s = "a\nb" let t = "\U0001f600" // tail\n'
    "fn f(p) { /* in\n side */ return math.pi + p + x }\n/* last\n*/"
)

Decoded = tuple[int, int, int, str, tuple[str, ...]]


def decode(data: list[int]) -> list[Decoded]:
    """Absolute (line, character, length, type, modifiers) for each token."""
    out: list[Decoded] = []
    line = character = 0
    for index in range(0, len(data), 5):
        delta_line, delta_char, length, token_type, bits = data[index : index + 5]
        line += delta_line
        character = character + delta_char if delta_line == 0 else delta_char
        modifiers = tuple(name for bit, name in enumerate(TOKEN_MODIFIERS) if bits & (1 << bit))
        out.append((line, character, length, TOKEN_TYPES[token_type], modifiers))
    return out


def texts(source: str) -> list[tuple[str, str, tuple[str, ...]]]:
    """(spelling, type, modifiers) per token, for readable expectations."""
    lines = source.split("\n")
    result = []
    decoded = decode(full(DocumentAnalysis(source)).data)
    for line, character, length, token_type, modifiers in decoded:
        result.append((lines[line][character : character + length], token_type, modifiers))
    return result


def test_legend_uses_standard_names() -> None:
    assert LEGEND.token_types == [
        "namespace",
        "function",
        "parameter",
        "variable",
        "property",
        "keyword",
        "string",
        "number",
        "comment",
        "operator",
    ]
    assert LEGEND.token_modifiers == ["declaration", "readonly"]


def test_first_token_of_a_let_is_a_keyword() -> None:
    data = full(DocumentAnalysis("let total = 1")).data
    assert data == [0, 0, 3, 5, 0, 0, 4, 5, 3, 1, 0, 6, 1, 9, 0, 0, 2, 1, 7, 0]


def test_functions_parameters_and_variables() -> None:
    source = "fn add(a, b) {\n  return a + b\n}\nlet total = add(1, 2)\n"
    assert texts(source) == [
        ("fn", "keyword", ()),
        ("add", "function", ("declaration",)),
        ("a", "parameter", ("declaration",)),
        ("b", "parameter", ("declaration",)),
        ("return", "keyword", ()),
        ("a", "parameter", ()),
        ("+", "operator", ()),
        ("b", "parameter", ()),
        ("let", "keyword", ()),
        ("total", "variable", ("declaration",)),
        ("=", "operator", ()),
        ("add", "function", ()),
        ("1", "number", ()),
        ("2", "number", ()),
    ]


def test_imports_std_members_and_records() -> None:
    source = 'use mod.std.math\nlet r = {k: math.pi, s: "x"}\nr.k\n'
    assert texts(source) == [
        ("use", "keyword", ()),
        ("mod", "namespace", ()),
        ("std", "namespace", ()),
        ("math", "namespace", ("declaration",)),
        ("let", "keyword", ()),
        ("r", "variable", ("declaration",)),
        ("=", "operator", ()),
        ("k", "property", ()),
        ("math", "namespace", ()),
        ("pi", "property", ("readonly",)),
        ("s", "property", ()),
        ('"x"', "string", ()),
        ("r", "variable", ()),
        ("k", "property", ()),
    ]


def test_shadowed_std_name_is_not_readonly() -> None:
    source = "use mod.std.math\nfn f(math) {\n  math.pi\n}\n"
    result = texts(source)
    assert ("math", "parameter", ()) in result
    assert ("pi", "property", ()) in result


def test_loops_lambdas_try_and_await() -> None:
    source = (
        "use mod.tool\n"
        "for i, v in [1] {\n  i\n}\n"
        "let f = |x| x\n"
        'let r = try tool.start("a", 1).await() catch nil\n'
    )
    result = texts(source)
    assert ("i", "variable", ("declaration",)) in result
    assert ("v", "variable", ("declaration",)) in result
    assert ("x", "parameter", ("declaration",)) in result
    assert ("x", "parameter", ()) in result
    assert ("start", "property", ()) in result
    assert ("await", "keyword", ()) in result
    assert ("catch", "keyword", ()) in result
    assert ("nil", "keyword", ()) in result
    assert ("|", "operator", ()) in result


def test_block_comments_are_split_per_line() -> None:
    source = "// one\n/* two\r\n three */ let x = 1\n"
    decoded = decode(full(DocumentAnalysis(source)).data)
    assert decoded[:4] == [
        (0, 0, 6, "comment", ()),
        (1, 0, 6, "comment", ()),
        (2, 0, 9, "comment", ()),
        (2, 10, 3, "keyword", ()),
    ]


def test_columns_and_lengths_are_utf16() -> None:
    source = 'let s = "\U0001f600é" + "a"\n'
    decoded = decode(full(DocumentAnalysis(source)).data)
    assert decoded[3] == (0, 8, 5, "string", ())
    assert decoded[4] == (0, 14, 1, "operator", ())
    assert decoded[5] == (0, 16, 3, "string", ())


def test_reserved_words_in_broken_source_are_keywords() -> None:
    result = texts("var x = 1\n")
    assert result[0] == ("var", "keyword", ())


def test_range_keeps_absolute_encoding() -> None:
    source = "let a = 1\nlet b = 2\n"
    analysis = DocumentAnalysis(source)
    data = range_tokens(analysis, 10, 13).data
    assert data == [1, 0, 3, 5, 0]
    assert range_tokens(analysis, 0, len(source)).data == full(analysis).data


def test_too_large_source_has_no_tokens() -> None:
    analysis = DocumentAnalysis("x" * (300 * 1024))
    assert full(analysis).data == []


def _statement_roles_carried_across_versions_equal_a_fresh_classification(base, changes):
    previous = DocumentAnalysis(base, 0)
    assert classify(previous) == reference_classify(DocumentAnalysis(base))
    text = base
    for version, (where, removed, inserted) in enumerate(changes, start=1):
        text = apply(text, where, removed, inserted)
        current = DocumentAnalysis(text, version, previous)
        assert classify(current) == reference_classify(DocumentAnalysis(text))
        previous = current


(
    test_statement_roles_carried_across_versions_equal_a_fresh_classification,
    test_statement_roles_carried_across_versions_equal_a_fresh_classification_full_count,
) = quick_and_full(
    _statement_roles_carried_across_versions_equal_a_fresh_classification,
    st.sampled_from([*BASES, LONG]),
    edits,
    quick=15,
    full=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def _rendered_statements_carried_across_versions_equal_a_fresh_answer(base, changes):
    previous = DocumentAnalysis(base, 0)
    assert full(previous) == reference_full(DocumentAnalysis(base))
    text = base
    for version, (where, removed, inserted) in enumerate(changes, start=1):
        text = apply(text, where, removed, inserted)
        current = DocumentAnalysis(text, version, previous)
        fresh = DocumentAnalysis(text)
        assert full(current) == reference_full(fresh)
        assert full(fresh) == reference_full(fresh)
        middle = len(text) // 2
        assert range_tokens(current, middle - 40, middle + 40) == reference_range(
            fresh, middle - 40, middle + 40
        )
        previous = current


(
    test_rendered_statements_carried_across_versions_equal_a_fresh_answer,
    test_rendered_statements_carried_across_versions_equal_a_fresh_answer_full_count,
) = quick_and_full(
    _rendered_statements_carried_across_versions_equal_a_fresh_answer,
    st.sampled_from([*BASES, LONG, COMMENTED]),
    edits,
    quick=15,
    full=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


# Past the lexical index's occurrence budget: later references stay unresolved.
OVER_BUDGET = "use mod.std.math\nlet v0 = 1\n" + "".join(
    f"fn f{index}(a) {{ return math.pi + a + v{index - 1} }}\n"
    f"let v{index} = f{index}(v{index - 1})\n"
    for index in range(1, 700)
)


# Each place re-analyses a 1,400-line document three times: one place in the
# default run, the rest marked slow.
@pytest.mark.parametrize(
    "where",
    [
        0.63,
        *(
            pytest.param(where, marks=pytest.mark.slow)
            for where in (0.0, 0.3, 0.5, 0.6, 0.66, 0.7, 0.97)
        ),
    ],
)
def test_statements_past_the_occurrence_budget_equal_a_fresh_answer(where) -> None:
    previous = DocumentAnalysis(OVER_BUDGET, 0)
    assert previous.completion_index.truncated
    assert full(previous) == reference_full(DocumentAnalysis(OVER_BUDGET))
    text = OVER_BUDGET
    for version, inserted in enumerate(["let w = v3\n", "fn g(v5) { v5 }\n", ""], start=1):
        text = apply(text, where, 0 if inserted else 12, inserted)
        current = DocumentAnalysis(text, version, previous)
        assert full(current) == reference_full(DocumentAnalysis(text))
        previous = current
    # Early calls resolve to their function, the last ones no longer do.
    assert ("f1", "function", ()) in texts(OVER_BUDGET)[:40]
    assert texts(OVER_BUDGET)[-2] == ("f699", "variable", ())


def test_statements_past_the_site_budget_equal_a_fresh_answer() -> None:
    text = "use mod.tool\nlet a = 1\n" + "zz\n" * MAX_LEXICAL_COMPLETION_SITES + "tool.call(a)\n"
    analysis = DocumentAnalysis(text)
    assert analysis.completion_index.sites_truncated
    assert not analysis.completion_index.truncated
    assert full(analysis) == reference_full(DocumentAnalysis(text))
    # The statements past the site budget are classified all the same.
    assert texts(text)[-3:] == [
        ("tool", "namespace", ()),
        ("call", "property", ()),
        ("a", "variable", ()),
    ]


def test_a_changed_binding_reclassifies_the_statements_reading_it() -> None:
    source = "use mod.std.math\nlet a = 1\nfn f(x) { return math.pi + a + x }\n"
    first = DocumentAnalysis(source, 1)
    assert full(first) == reference_full(DocumentAnalysis(source))
    # Only the first two statements change; the function reads both.
    edited = "let math = {pi: 3}\nfn a() {}\nfn f(x) { return math.pi + a + x }\n"
    answer = full(DocumentAnalysis(edited, 2, first))
    assert answer == reference_full(DocumentAnalysis(edited))
    assert ("pi", "property", ("readonly",)) in texts(source)
    assert ("math", "variable", ()) in texts(edited)
    assert ("pi", "property", ()) in texts(edited)  # no longer a std member
    assert ("a", "function", ()) in texts(edited)


def test_wire_answer_is_the_full_answer_as_json() -> None:
    source = 'use std.math\n/* a\n b */ fn area(r) { let x = math.pi * r * r\n return "é" + x }\n'
    analysis = DocumentAnalysis(source, 1)
    assert json.loads(f"[{full_items(analysis)}]") == full(analysis).data
    assert full(analysis) == reference_full(analysis)


def test_integer_array_past_the_digit_table() -> None:
    assert json.loads(f"[{integer_items([0, 7, 4095, 4096, 123456])}]") == [
        0,
        7,
        4095,
        4096,
        123456,
    ]
    assert integer_items([]) == ""


WIDE = 'let s = "é😀—中"; let x = 1\n// e\u0301 😀\nlet y = x + 1\n'


@pytest.mark.parametrize(("encoding", "string_length"), [(UTF8, 14), (UTF16, 7), (UTF32, 6)])
def test_columns_and_lengths_count_in_the_encoding(encoding, string_length):
    tokens = decode(full(DocumentAnalysis(WIDE), encoding=encoding).data)
    x = spec_column(WIDE, WIDE.index("x ="), encoding.name)
    assert [token[:3] for token in tokens if token[3] == "string"] == [(0, 8, string_length)]
    assert [token[:3] for token in tokens if token[3] == "variable"][1] == (0, x, 1)


@pytest.mark.parametrize("encoding", [UTF8, UTF16, UTF32])
def test_answers_carried_from_another_encoding_are_encoded_again(encoding):
    """What a version carries was encoded in the encoding first asked for: a
    later answer in another one equals a fresh answer in it."""
    previous = DocumentAnalysis(WIDE, 0)
    full_items(previous, UTF16 if encoding is not UTF16 else UTF8)
    text = WIDE.replace("let y = x + 1", "let y = x + 2")
    current = DocumentAnalysis(text, 1, previous)
    assert full_items(current, encoding) == full_items(DocumentAnalysis(text), encoding)
    assert full(current, encoding) == reference_full(DocumentAnalysis(text), encoding)
    assert range_tokens(current, 0, len(text), encoding) == full(current, encoding)
