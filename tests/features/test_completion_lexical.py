"""Identifier completion from the lexical index, called directly."""

from __future__ import annotations

import pytest

from octoscript_lsp.limits import MAX_LEXICAL_COMPLETION_SITES, MAX_LEXICAL_SYMBOL_OCCURRENCES

from .helpers import complete as answer_at
from .helpers import doc, items, labels, rng


def complete(d, mark="c"):
    return answer_at(d.analysis, d.positions, d.at(mark), d.catalogs)


PROGRAM = (
    "use mod.tool\n"
    "let beta = 1\n"
    "fn gamma(alpha) {\n"
    "  let x = al@@c@@pha\n"
    "  return x\n"
    "}\n"
    "let epsilon = 2\n"
)


def test_visible_bindings_sorted_with_kinds_and_whole_identifier_edit():
    answer = complete(doc(PROGRAM))
    assert answer.is_incomplete is False
    edit = (3, 10, 3, 15)
    assert items(answer) == [
        ("alpha", 6, edit),
        ("beta", 6, edit),
        ("gamma", 3, edit),
        ("tool", 9, edit),
    ]
    details = {item.label: item.detail for item in answer.items}
    assert details == {
        "alpha": "function parameter",
        "beta": "binding",
        "gamma": "function",
        "tool": "import binding",
    }
    for item in answer.items:
        assert item.insert_text is None and item.sort_text is None
        assert item.text_edit.new_text == item.label


@pytest.mark.parametrize("cursor", ["@@c@@alpha", "al@@c@@pha", "alpha@@c@@"])
def test_cursor_at_start_inside_or_end_of_the_identifier(cursor):
    d = doc(f"fn f(alpha) {{\n  return {cursor}\n}}\n")
    answer = complete(d)
    assert labels(answer) == ["alpha", "f"]
    assert {rng(item.text_edit.range) for item in answer.items} == {(1, 9, 1, 14)}


def test_not_filtered_by_the_typed_prefix():
    d = doc("let apple = 1\nlet banana = 2\nzz@@c@@\n")
    assert labels(complete(d)) == ["apple", "banana"]


def test_innermost_binding_wins_a_name():
    d = doc("let x = 1\nfn f(x) {\n  return x@@c@@\n}\n")
    answer = complete(d)
    assert [(item.label, item.detail) for item in answer.items] == [
        ("f", "function"),
        ("x", "function parameter"),
    ]


def test_not_yet_declared_names_are_not_offered():
    d = doc("let a = b@@c@@a\nlet later = 1\n")
    assert labels(complete(d)) == []
    d = doc("let self_ref = self_re@@c@@f\n")
    assert labels(complete(d)) == []


def test_lambda_parameter_visible_inside_the_lambda_only():
    d = doc("let xx = 1\nlet f = |k| k@@c@@\nlet y = x@@out@@x\n")
    assert labels(complete(d)) == ["k", "xx"]
    assert labels(complete(d, "out")) == ["f", "xx"]


@pytest.mark.parametrize(
    "marked",
    [
        "let na@@c@@me = 1\n",  # declaration
        "fn f(pa@@c@@ram) {\n  return param\n}\n",  # parameter declaration
        "use mo@@c@@d.std.math\n",  # import path
        "let r = {ke@@c@@y: 1}\n",  # record key
        "let key = 1\nlet r = g()\nr.ke@@c@@y\n",  # after the dot
        "let a = 1\n// a@@c@@\n",  # comment
        'let a = 1\nlet s = "a@@c@@"\n',  # string
        "let a = 1\n@@c@@ \n",  # whitespace
    ],
)
def test_not_completion_sites(marked):
    answer = complete(doc(marked))
    assert answer.items == []
    assert answer.is_incomplete is False


def test_sites_past_the_first_diagnostic_are_refused():
    d = doc("let alpha = 1\nal@@before@@\nlet = 2\nal@@after@@\n")
    assert not d.analysis.valid
    assert labels(complete(d, "before")) == ["alpha"]
    assert labels(complete(d, "after")) == []


def test_site_at_the_end_of_file_diagnostic_still_answers():
    d = doc("let alpha = 1\nlet b = (alpha + al@@c@@")
    assert not d.analysis.valid
    answer = complete(d)
    assert labels(answer) == ["alpha"]
    assert rng(answer.items[0].text_edit.range) == (1, 17, 1, 19)


def test_utf16_edit_range():
    d = doc('let s = "😀"; let v = 1\nlet w = "😀" + v@@c@@\n')
    answer = complete(d)
    assert labels(answer) == ["s", "v"]
    assert rng(answer.items[0].text_edit.range) == (1, 15, 1, 16)


def test_no_position_gives_an_empty_list():
    d = doc("let a = 1\na\n")
    answer = answer_at(d.analysis, d.positions, None, d.catalogs)
    assert answer.items == [] and answer.is_incomplete is False


def test_truncated_symbols_give_nothing_and_incomplete():
    d = doc("let a = 1\n" + "a\n" * MAX_LEXICAL_SYMBOL_OCCURRENCES + "use mod.@@path@@\na@@c@@\n")
    for mark in ("c", "path"):
        answer = complete(d, mark)
        assert answer.items == [] and answer.is_incomplete is True


def test_truncated_sites_still_answer_retained_sites():
    source = "let a = 1\n" + "zz\n" * MAX_LEXICAL_COMPLETION_SITES + "z@@late@@\n"
    d = doc("let a = 1\nz@@early@@\n" + source[len("let a = 1\n") :])
    assert d.analysis.completion_index.sites_truncated
    assert not d.analysis.completion_index.truncated
    early = complete(d, "early")
    assert labels(early) == ["a"] and early.is_incomplete is True
    late = complete(d, "late")
    assert late.items == [] and late.is_incomplete is True


def test_a_later_lexer_error_does_not_hide_an_earlier_parser_error():
    # Only the lexer error is reported, but the parser already failed at `let =`:
    # the reference's completion prefix stops there.
    d = doc('let alpha = 1\nal@@before@@\nlet = 2\nal@@c@@\nlet s = "open\n')
    assert d.analysis.metadata_prefix_end < d.analysis.diagnostic_prefix_end
    assert labels(complete(d, "before")) == ["alpha"]
    assert complete(d).items == []
