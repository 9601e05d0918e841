"""prepareRename and rename, called directly."""

from __future__ import annotations

import pytest

from octoscript_lsp.features import navigation
from octoscript_lsp.limits import MAX_LEXICAL_SYMBOL_OCCURRENCES

from .helpers import URI, doc, rng


def prepare(d, mark="c"):
    return navigation.prepare_rename(d.analysis, d.positions, d.at(mark))


def do_rename(d, new_name, mark="c"):
    return navigation.rename(d.analysis, d.positions, URI, d.analysis.version, d.at(mark), new_name)


def edits(edit):
    (change,) = edit.document_changes
    return change.text_document.version, [(rng(e.range), e.new_text) for e in change.edits]


def test_prepare_rename_gives_range_and_placeholder():
    d = doc("fn f(@@def@@v) {\n  return @@c@@v + 1@@after@@\n}\n")
    found = prepare(d)
    assert (rng(found.range), found.placeholder) == ((1, 9, 1, 10), "v")
    found = prepare(d, "def")
    assert (rng(found.range), found.placeholder) == ((0, 5, 0, 6), "v")


def test_prepare_rename_accepts_the_cursor_right_after_a_name():
    d = doc("let total@@c@@ = 1\n")
    found = prepare(d)
    assert (rng(found.range), found.placeholder) == ((0, 4, 0, 9), "total")


def test_prepare_rename_is_null_on_keywords_imports_and_nothing():
    d = doc("@@kw@@let a = 1\nuse mod.std.@@imp@@math\n@@ref@@math.pi\n")
    assert prepare(d, "kw") is None
    assert prepare(d, "imp") is None
    assert prepare(d, "ref") is None
    assert navigation.prepare_rename(d.analysis, d.positions, None) is None


def test_rename_parameter_everywhere_with_the_document_version():
    d = doc("fn scale(@@c@@v, factor) {\n  return v * factor + v\n}\n", version=12)
    version, found = edits(do_rename(d, "value"))
    assert version == 12
    assert found == [
        ((0, 9, 0, 10), "value"),
        ((1, 9, 1, 10), "value"),
        ((1, 22, 1, 23), "value"),
    ]
    assert do_rename(d, "value").changes is None


def test_rename_function_with_recursive_calls():
    d = doc("fn @@c@@walk(n) {\n  return walk(n - 1)\n}\nwalk(3)\n")
    _, found = edits(do_rename(d, "visit"))
    assert [r for r, _ in found] == [(0, 3, 0, 7), (1, 9, 1, 13), (3, 0, 3, 4)]


def test_rename_edits_use_utf16_ranges():
    d = doc('let s = "😀"; let @@c@@n = 1\nn\n')
    _, found = edits(do_rename(d, "count"))
    assert found == [((0, 18, 0, 19), "count"), ((1, 0, 1, 1), "count")]


def test_same_name_is_null():
    d = doc("let @@c@@a = 1\na\n")
    assert do_rename(d, "a") is None


@pytest.mark.parametrize(
    "new_name", ["let", "fn", "catch_all-x", "9x", "", "a b", "match", "var", "true", "nil", "é"]
)
def test_rename_refuses_non_canonical_or_reserved_names(new_name):
    d = doc("let @@c@@a = 1\na\n")
    with pytest.raises(navigation.Refused):
        do_rename(d, new_name)


def test_contextual_catch_is_a_fine_name():
    d = doc("let @@c@@a = 1\na\n")
    _, found = edits(do_rename(d, "catch"))
    assert [text for _, text in found] == ["catch", "catch"]


def test_rename_refuses_import_bindings():
    d = doc("use mod.std.@@c@@math\n@@ref@@math.pi\n")
    with pytest.raises(navigation.Refused):
        do_rename(d, "m")
    with pytest.raises(navigation.Refused):
        do_rename(d, "m", "ref")


def test_rename_refuses_a_capture():
    # `a` inside f would resolve to the parameter `b`
    d = doc("let @@c@@a = 1\nfn f(b) {\n  return a + b\n}\n")
    with pytest.raises(navigation.Refused):
        do_rename(d, "b")


def test_rename_refuses_capturing_an_outer_reference():
    d = doc("let x = 1\nfn f() {\n  let @@c@@y = 2\n  return x + y\n}\n")
    with pytest.raises(navigation.Refused):
        do_rename(d, "x")


def test_rename_refuses_a_same_scope_shadowing_change():
    d = doc("let @@c@@a = 1\nlet b = 2\na + b\n")
    with pytest.raises(navigation.Refused):
        do_rename(d, "b")


def test_rename_allows_an_unrelated_inner_name():
    d = doc("let @@c@@a = 1\nfn f() {\n  let b = 2\n  return b\n}\na\n")
    _, found = edits(do_rename(d, "b"))
    assert [r for r, _ in found] == [(0, 4, 0, 5), (5, 0, 5, 1)]


def test_rename_nothing_or_invalid_source_answers_null():
    d = doc("@@c@@let a = 1\n")
    assert do_rename(d, "b") is None
    d = doc("let @@c@@a = 1\na +\n")
    assert prepare(d) is None
    assert do_rename(d, "b") is None


def test_truncated_index_refuses_prepare_and_rename():
    d = doc("let @@c@@a = 1\n" + "a\n" * MAX_LEXICAL_SYMBOL_OCCURRENCES + "@@kw@@let z = 1\n")
    with pytest.raises(navigation.Refused):
        prepare(d)
    with pytest.raises(navigation.Refused):
        prepare(d, "kw")  # refused before the position is looked at
    with pytest.raises(navigation.Refused):
        do_rename(d, "b")


def test_rename_refuses_a_renamed_document_over_the_source_limit():
    from octoscript_lsp.limits import MAX_SOURCE_BYTES

    padding = "// " + "x" * (MAX_SOURCE_BYTES - 100) + "\n"
    d = doc(padding + "let @@c@@a = 1\na + a\n")
    assert d.analysis.valid
    with pytest.raises(navigation.Refused):
        do_rename(d, "b" * 40)
    assert edits(do_rename(d, "b" * 10))[1][0][1] == "b" * 10
