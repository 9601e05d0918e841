"""Definition, references, highlights and binding hover, called directly."""

from __future__ import annotations

import pytest
from lsprotocol import types

from octoscript_lsp.features import hover, navigation
from octoscript_lsp.limits import MAX_LEXICAL_SYMBOL_OCCURRENCES

from .helpers import URI, doc, rng

PROGRAM = (
    "fn @@fdef@@bump(@@pdef@@value) {\n"
    "  return @@pref@@value + 1\n"
    "}\n"
    "let @@tdef@@total = @@call1@@bump(1)\n"
    "for @@idef@@idx in [1, 2] {\n"
    "  @@tref@@total = @@call2@@bump(@@iref@@idx)\n"
    "}\n"
)


def definition(d, mark):
    return navigation.definition(d.analysis, d.positions, URI, d.at(mark), d.catalogs)


def refs(d, mark, include):
    found = navigation.references(d.analysis, d.positions, URI, d.at(mark), include)
    return [rng(location.range) for location in found]


def test_definition_from_references_and_from_itself():
    d = doc(PROGRAM)
    assert rng(definition(d, "call1").range) == (0, 3, 0, 7)
    assert rng(definition(d, "call2").range) == (0, 3, 0, 7)
    assert rng(definition(d, "fdef").range) == (0, 3, 0, 7)
    assert rng(definition(d, "pref").range) == (0, 8, 0, 13)
    assert rng(definition(d, "iref").range) == (4, 4, 4, 7)
    assert rng(definition(d, "tref").range) == (3, 4, 3, 9)
    assert definition(d, "call1").uri == URI


def test_definition_misses():
    d = doc("@@kw@@let a = 1\nlet b = a@@end@@\nlet c = @@forward@@later\nlet later = 2\n")
    assert definition(d, "kw") is None
    assert definition(d, "end") is None  # the span is half-open
    assert definition(d, "forward") is None
    assert navigation.definition(d.analysis, d.positions, URI, None, d.catalogs) is None


def test_definition_of_an_import_is_the_last_segment():
    d = doc('use mod.tool\n@@c@@tool.call("x", 1)\n')
    assert rng(definition(d, "c").range) == (0, 8, 0, 12)


def test_references_with_and_without_the_declaration():
    d = doc(PROGRAM)
    assert refs(d, "call2", True) == [(0, 3, 0, 7), (3, 12, 3, 16), (5, 10, 5, 14)]
    assert refs(d, "fdef", False) == [(3, 12, 3, 16), (5, 10, 5, 14)]
    assert refs(d, "idef", True) == [(4, 4, 4, 7), (5, 15, 5, 18)]


def test_references_elsewhere_are_empty():
    d = doc("@@c@@let a = 1\n")
    assert refs(d, "c", True) == []
    assert navigation.references(d.analysis, d.positions, URI, None, True) == []


def test_highlights_are_text_kind_definition_first():
    d = doc(PROGRAM)
    found = navigation.highlights(d.analysis, d.positions, d.at("pref"))
    assert [rng(h.range) for h in found] == [(0, 8, 0, 13), (1, 9, 1, 14)]
    assert {h.kind for h in found} == {types.DocumentHighlightKind.Text}
    assert navigation.highlights(d.analysis, d.positions, None) == []


@pytest.mark.parametrize(
    ("mark", "label", "expected_range"),
    [
        ("pref", "function parameter", (1, 9, 1, 14)),
        ("tdef", "binding", (3, 4, 3, 9)),
        ("iref", "loop binding", (5, 15, 5, 18)),
    ],
)
def test_binding_hover_names_the_kind(mark, label, expected_range):
    d = doc(PROGRAM)
    found = hover.hover(d.analysis, d.positions, d.at(mark), d.catalogs)
    assert found.contents.kind == types.MarkupKind.PlainText
    assert label in found.contents.value
    assert rng(found.range) == expected_range


def test_hover_kinds_for_imports_and_lambda_parameters():
    d = doc("use mod.std.@@imp@@math\nlet f = |@@lam@@k| k\n")
    found = hover.hover(d.analysis, d.positions, d.at("imp"), d.catalogs)
    assert "import binding" in found.contents.value
    assert rng(found.range) == (0, 12, 0, 16)
    found = hover.hover(d.analysis, d.positions, d.at("lam"), d.catalogs)
    assert "lambda parameter" in found.contents.value


def test_function_hover_shows_the_header():
    d = doc(PROGRAM)
    found = hover.hover(d.analysis, d.positions, d.at("call1"), d.catalogs)
    assert found.contents.value.startswith("bump(value)\n\n")
    assert rng(found.range) == (3, 12, 3, 16)


def test_function_hover_without_a_readable_header_falls_back_to_the_kind():
    params = ", ".join(f"p{n}" for n in range(65))
    d = doc(f"fn @@c@@wide({params}) {{\n  return 1\n}}\n")
    found = hover.hover(d.analysis, d.positions, d.at("c"), d.catalogs)
    assert "function" in found.contents.value and "p0" not in found.contents.value


def test_hover_misses():
    d = doc("@@kw@@let a = 1@@end@@\n")
    assert hover.hover(d.analysis, d.positions, d.at("kw"), d.catalogs) is None
    assert hover.hover(d.analysis, d.positions, None, d.catalogs) is None


def test_invalid_source_has_no_navigation():
    d = doc("let @@def@@a = 1\nlet b = @@c@@a +\n")
    assert not d.analysis.valid
    assert definition(d, "c") is None and definition(d, "def") is None
    assert refs(d, "c", True) == []
    assert navigation.highlights(d.analysis, d.positions, d.at("c")) == []
    assert hover.hover(d.analysis, d.positions, d.at("c"), d.catalogs) is None


def test_utf16_ranges():
    d = doc('let s = "😀😀"; let @@def@@v = 1\nv + @@c@@v\n')
    assert rng(definition(d, "c").range) == (0, 20, 0, 21)


# ---------------------------------------------------------------- truncation

TRUNCATED = (
    "let @@def@@a = 1\n@@early@@a\n" + "a\n" * MAX_LEXICAL_SYMBOL_OCCURRENCES + "@@late@@a\n"
)


def test_truncated_index_still_answers_definition_and_hover():
    d = doc(TRUNCATED)
    assert d.analysis.lexical.truncated
    assert rng(definition(d, "early").range) == (0, 4, 0, 5)
    assert rng(definition(d, "def").range) == (0, 4, 0, 5)
    assert definition(d, "late") is None  # dropped past the cap
    found = hover.hover(d.analysis, d.positions, d.at("early"), d.catalogs)
    assert "binding" in found.contents.value


def test_truncated_index_refuses_references_and_highlights():
    d = doc(TRUNCATED)
    with pytest.raises(navigation.Refused):
        navigation.references(d.analysis, d.positions, URI, d.at("early"), True)
    with pytest.raises(navigation.Refused):
        navigation.highlights(d.analysis, d.positions, d.at("early"))
    with pytest.raises(navigation.Refused):
        navigation.references(d.analysis, d.positions, URI, None, False)
