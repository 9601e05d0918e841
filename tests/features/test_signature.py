"""Named-function signature help and the delimiter/header scans behind it."""

from __future__ import annotations

import pytest

from octoscript_lsp.analysis.signatures import function_parameters
from octoscript_lsp.analysis.sites import call_context, open_delimiters_before
from octoscript_lsp.features import signature
from octoscript_lsp.limits import (
    MAX_LEXICAL_SYMBOL_OCCURRENCES,
    MAX_SIGNATURE_ARGUMENTS,
    MAX_SIGNATURE_DELIMITER_DEPTH,
    MAX_SIGNATURE_HEADER_BYTES,
    MAX_SIGNATURE_PARAMETERS,
)

from .helpers import doc

ADD = "fn add(left, right) {\n  return left + right\n}\n"


def help_at(marked: str):
    d = doc(marked)
    return signature.signature_help(d.analysis, d.at("c"), d.catalogs)


def summary(found):
    if found is None:
        return None
    (info,) = found.signatures
    return (info.label, [p.label for p in info.parameters], found.active_parameter)


@pytest.mark.parametrize(
    ("call", "active"),
    [
        ("add(@@c@@", 0),
        ("add(1, @@c@@", 1),
        ("add(1,@@c@@ 2)", 1),
        ("add(@@c@@1, 2)", 0),
        ("add(1, 2@@c@@)", 1),
        ("add([1, 2, 3], @@c@@", 1),
        ("add({a: 1, b: 2}@@c@@", 0),
        ("add(f(1, 2), @@c@@", 1),
        ('add("a, b", @@c@@', 1),
        ("add (1, @@c@@", 1),
    ],
)
def test_named_function_active_parameter(call, active):
    found = help_at(ADD + call)
    assert summary(found) == ("add(left, right)", ["left", "right"], active)
    assert found.active_signature == 0
    assert found.signatures[0].documentation.kind == "plaintext"


def test_active_parameter_past_the_list_is_omitted():
    assert summary(help_at(ADD + "add(1, 2, @@c@@")) == (
        "add(left, right)",
        ["left", "right"],
        None,
    )


def test_zero_parameters_and_recursion_inside_the_body():
    assert summary(help_at("fn tick() {\n  tick(@@c@@\n}\n")) == ("tick()", [], None)
    assert summary(help_at("fn walk(node) {\n  return walk(@@c@@)\n}\n")) == (
        "walk(node)",
        ["node"],
        0,
    )


def test_in_progress_string_argument_is_fine():
    assert summary(help_at(ADD + 'add("x", "abc, (@@c@@'))[2] == 1


@pytest.mark.parametrize(
    "marked",
    [
        ADD + "add(1)@@c@@",  # closed call
        ADD + "add@@c@@",  # not in a call
        ADD + "let g = add\ng(@@c@@",  # alias
        ADD + "let r = {add: add}\nr.add(@@c@@",  # member
        ADD + "fn h(add) {\n  return add(@@c@@\n}\n",  # shadowed by a parameter
        ADD + "let add = 1\nadd(@@c@@",  # shadowed by a let
        "add(@@c@@1, 2)\n" + ADD,  # forward use
        ADD + "add(1, // note @@c@@",  # in a line comment
        ADD + "add(1, /* note @@c@@",  # in an open block comment
        ADD + 'add("a\n", @@c@@',  # string broken by a newline
        ADD + "add(1])@@c@@",  # mismatched closer
        ADD + "let x = 1\nx(@@c@@",  # not a function
        ADD + "undefined_name(@@c@@",
    ],
)
def test_named_function_refusals(marked):
    assert help_at(marked) is None


def test_incomplete_header_gets_nothing():
    # the header's own diagnostic sits before the call
    assert help_at("fn add(left, right\n  add(@@c@@") is None
    assert help_at("fn add(left, right) + 1\nadd(@@c@@") is None


def test_call_past_the_first_diagnostic_gets_nothing():
    assert help_at(ADD + "let = 1\nadd(@@c@@") is None


def test_header_with_comments_and_newlines():
    header = "fn add( /* a */ left, /* b */ right) /* c */ {\n  return left\n}\n"
    assert summary(help_at(header + "add(1, @@c@@")) == ("add(left, right)", ["left", "right"], 1)


def test_parameter_bound():
    names = [f"p{n}" for n in range(MAX_SIGNATURE_PARAMETERS)]
    source = f"fn wide({', '.join(names)}) {{\n  return 1\n}}\n"
    found = help_at(source + "wide(" + "1, " * (MAX_SIGNATURE_PARAMETERS - 1) + "@@c@@")
    assert len(found.signatures[0].parameters) == MAX_SIGNATURE_PARAMETERS
    assert found.active_parameter == MAX_SIGNATURE_PARAMETERS - 1
    names.append("extra")
    source = f"fn wide({', '.join(names)}) {{\n  return 1\n}}\n"
    assert help_at(source + "wide(@@c@@") is None


def test_argument_bound():
    params = ", ".join(f"p{n}" for n in range(MAX_SIGNATURE_PARAMETERS))
    source = f"fn wide({params}) {{\n  return 1\n}}\n"
    limit = MAX_SIGNATURE_ARGUMENTS - 1
    assert help_at(source + "wide(" + "1, " * limit + "@@c@@").active_parameter == limit
    assert help_at(source + "wide(" + "1, " * (limit + 1) + "@@c@@") is None


def test_delimiter_depth_bound():
    deep = ADD + "add(" + "[" * (MAX_SIGNATURE_DELIMITER_DEPTH - 1) + "@@c@@"
    assert summary(help_at(deep))[2] == 0
    assert help_at(ADD + "add(" + "[" * MAX_SIGNATURE_DELIMITER_DEPTH + "@@c@@") is None


def test_truncated_index_gives_nothing():
    source = ADD + "let a = 1\n" + "a\n" * MAX_LEXICAL_SYMBOL_OCCURRENCES
    assert help_at(source + "add(@@c@@") is None


def test_no_position_gives_nothing():
    d = doc(ADD + "add(")
    assert signature.signature_help(d.analysis, None, d.catalogs) is None


# ---------------------------------------------------------------- scanners


def test_open_delimiters_track_commas_only_for_round_brackets():
    source = "f(a, [1, 2], {k: 1, j: 2}, g(x, "
    found = open_delimiters_before(source, len(source))
    assert [(d.kind, d.offset, d.commas) for d in found] == [("(", 1, 3), ("(", 28, 1)]
    context = call_context(source, len(source))
    assert (context.open_paren, context.callee_end, context.active_argument) == (28, 28, 1)


@pytest.mark.parametrize(
    "source",
    ["a, ", "f(1))", "f(1]", "f(1 // c", "f(1 /* c", 'f("a\n'],
)
def test_open_delimiters_refusals(source):
    assert open_delimiters_before(source, len(source)) is None


def test_open_delimiters_skip_closed_comments_and_strings():
    source = 'f(/* ( , */ "(,)", // ,(\n x, '
    found = open_delimiters_before(source, len(source))
    assert [(d.kind, d.commas) for d in found] == [("(", 2)]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("fn f() {", []),
        ("fn f(a) {", ["a"]),
        ("fn f ( a , b ) {", ["a", "b"]),
        ("fn f(a, b)", None),  # no body
        ("fn f(a, b", None),
        ("fn f(a,) {", None),
        ("fn f(a b) {", None),
        ("fn f(1) {", None),
        ("fn f(let) {", None),
        ("fn f(a) /* open {", None),
        ("fn f(a) x {", None),
    ],
)
def test_function_parameters(source, expected):
    assert function_parameters(source, 4, len(source)) == expected


def test_function_parameters_respect_the_prefix_and_window():
    source = "fn f(a, b) {"
    assert function_parameters(source, 4, 4) is None
    assert function_parameters(source, 4, 8) is None
    padded = "fn f" + " " * MAX_SIGNATURE_HEADER_BYTES + "(a) {"
    assert function_parameters(padded, 4, len(padded)) is None
    # the window is name end + 64 KiB; the `{` may sit exactly at its end
    edge = "fn f(a)" + " " * (MAX_SIGNATURE_HEADER_BYTES - 3) + "{"
    assert edge.index("{") == 4 + MAX_SIGNATURE_HEADER_BYTES
    assert function_parameters(edge, 4, len(edge)) == ["a"]
    beyond = "fn f(a)" + " " * (MAX_SIGNATURE_HEADER_BYTES - 2) + "{"
    assert function_parameters(beyond, 4, len(beyond)) is None
    # whitespace up to the prefix end is skipped, not read past
    assert function_parameters("fn f(a) {", 4, 7) is None


def test_named_call_after_a_hidden_parser_error_gets_nothing():
    # the unterminated string is the only reported diagnostic; `let =` comes first
    assert help_at(ADD + 'let = 2\nadd(1, @@c@@\nlet s = "open\n') is None
    assert summary(help_at(ADD + 'add(1, @@c@@\nlet = 2\nlet s = "open\n'))[2] == 1
