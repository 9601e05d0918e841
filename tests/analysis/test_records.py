"""Static record shapes: collection, caps, alias resolution and invalidation."""

from __future__ import annotations

import pytest

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.analysis.records import RecordResolver
from octoscript_lsp.analysis.sites import may_mutate, member_site
from octoscript_lsp.limits import (
    MAX_STATIC_RECORD_ALIASES,
    MAX_STATIC_RECORD_FIELDS,
    MAX_STATIC_RECORD_SHAPES,
)
from tests.conftest import strip_markers

PROFILE = 'let profile = {name: "a", user: {address: {city: "Paris", zip: "1"}, age: 3}}\n'


def fields_at(text: str) -> list[str] | None:
    """Field names the completion rules find at the `@@x@@` marker."""
    source, marks = strip_markers(text)
    analysis = DocumentAnalysis(source)
    site = member_site(source, analysis.regions, marks["x"])
    assert site is not None
    resolver = RecordResolver(source, analysis.records, analysis.aliases)
    found = resolver.fields_for(site.receivers, analysis.diagnostic_prefix_end)
    return None if found is None else sorted(entry.name for entry in found)


def report_of(source: str):
    return DocumentAnalysis(source).records


# ---------------------------------------------------------------- shapes


def test_root_child_and_grandchild_levels():
    assert fields_at(PROFILE + "profile.@@x@@\n") == ["name", "user"]
    assert fields_at(PROFILE + "profile.user.@@x@@\n") == ["address", "age"]
    assert fields_at(PROFILE + "profile.user.address.@@x@@\n") == ["city", "zip"]


def test_deeper_site_paths_are_outside_the_claim():
    text = "let r = {a: {b: {c: {d: 1}}}}\nr.a.b.c.@@x@@\n"
    assert fields_at(text) is None
    assert fields_at("let r = {a: {b: {c: {d: 1}}}}\nr.a.b.@@x@@\n") == ["c"]


def test_missing_child_name_has_no_fields():
    assert fields_at(PROFILE + "profile.nope.@@x@@\n") is None
    assert fields_at(PROFILE + "profile.name.@@x@@\n") is None


@pytest.mark.parametrize(
    "initializer",
    ["{a: 1}.a", "({a: 1})", "{a: 1} + x", "f({a: 1})", "[{a: 1}]"],
)
def test_only_a_whole_literal_initializer_is_a_shape(initializer: str):
    report = report_of(f"let x = 1\nlet r = {initializer}\n")
    assert report.shapes == []


def test_shape_accepts_newline_separators_and_statement_ends():
    report = report_of("let r = {\n  a: 1\n  b: [1, 2]\n}; let s = {c: (1)}\n")
    assert [[field.name for field in shape.fields] for shape in report.shapes] == [
        ["a", "b"],
        ["c"],
    ]


def test_shapes_in_function_bodies_are_collected():
    assert fields_at("fn f() {\n  let r = {a: 1}\n  r.@@x@@\n}\n") == ["a"]


def test_field_definition_is_the_key_span():
    source = "let r = {a: 1, b: {c: 2}}\n"
    shape = report_of(source).shapes[0]
    assert [(field.name, field.span) for field in shape.fields] == [("a", (9, 10)), ("b", (15, 16))]
    nested = shape.children[0]
    assert nested.field.name == "b"
    assert [(field.name, field.span) for field in nested.fields] == [("c", (19, 20))]


def test_root_duplicate_keeps_first_fields_but_drops_nested_shapes():
    report = report_of("let r = {a: 1, b: {c: 1}, a: 2}\n")
    shape = report.shapes[0]
    assert [(field.name, field.start) for field in shape.fields] == [("a", 9), ("b", 15)]
    assert shape.children == ()
    assert fields_at("let r = {a: 1, b: {c: 1}, a: 2}\nr.b.@@x@@\n") is None


def test_child_duplicate_drops_only_that_child():
    text = "let r = {a: {x: 1, x: 2}, b: {y: 1}}\n"
    assert fields_at(text + "r.a.@@x@@\n") is None
    assert fields_at(text + "r.b.@@x@@\n") == ["y"]
    assert fields_at(text + "r.@@x@@\n") == ["a", "b"]


def test_child_value_must_be_the_whole_literal():
    text = "let r = {a: {x: 1}.x, b: {y: 1} + 1, c: {z: 1}}\n"
    assert fields_at(text + "r.a.@@x@@\n") is None
    assert fields_at(text + "r.b.@@x@@\n") is None
    assert fields_at(text + "r.c.@@x@@\n") == ["z"]


def test_grandchild_literal_has_no_further_nesting():
    shape = report_of("let r = {a: {b: {c: {d: 1}}}}\n").shapes[0]
    grandchild = shape.children[0].children[0]
    assert [field.name for field in grandchild.fields] == ["c"]
    assert grandchild.children == ()


def test_shapes_after_the_metadata_prefix_are_not_collected():
    report = report_of("let r = {a: 1}\nlet = 2\nlet s = {b: 1}\n")
    assert [shape.binding for shape in report.shapes] == [(4, 5)]


# ---------------------------------------------------------------- alias edges


def test_alias_edges_of_one_to_three_segments():
    report = report_of("let r = {a: 1}\nlet a = r\nlet b = r.a\nlet c = r.a.b\nlet d = r.a.b.c\n")
    assert [len(alias.children) for alias in report.aliases] == [0, 1, 2]


@pytest.mark.parametrize("initializer", ["(r)", "r.a()", "r[0]", "r + 1", "r.a + 1"])
def test_parenthesized_or_computed_initializers_are_not_aliases(initializer: str):
    report = report_of(f"let r = {{a: 1}}\nlet s = {initializer}\n")
    assert report.aliases == []


def test_alias_completion_through_child_selections():
    assert fields_at(PROFILE + "let u = profile.user\nu.@@x@@\n") == ["address", "age"]
    assert fields_at(PROFILE + "let u = profile.user\nlet ad = u.address\nad.@@x@@\n") == [
        "city",
        "zip",
    ]
    assert fields_at(PROFILE + "let d = profile.user.address\nd.@@x@@\n") == ["city", "zip"]
    assert fields_at(PROFILE + "let u = profile.user\nu.address.@@x@@\n") == ["city", "zip"]


def test_more_than_two_child_selections_have_no_fields():
    text = PROFILE + "let d = profile.user.address\nlet c = d.city\n"
    assert fields_at(text + "c.@@x@@\n") is None
    assert fields_at(PROFILE + "let d = profile.user.address\nd.city.@@x@@\n") is None


def test_over_budget_alias_escapes_its_root():
    text = PROFILE + "let d = profile.user.address\nlet c = d.city\n"
    assert fields_at(text + "profile.@@x@@\n") is None
    # A site before the escaping alias is still answered.
    assert fields_at(PROFILE + "profile.@@x@@\nlet d = profile.user.address\nlet c = d.city\n") == [
        "name",
        "user",
    ]


def _chain(hops: int) -> str:
    lines = ["let r0 = {k: 1}"]
    lines += [f"let r{index} = r{index - 1}" for index in range(1, hops + 1)]
    return "\n".join(lines) + "\n"


def test_alias_chain_of_sixteen_hops_resolves():
    assert fields_at(_chain(16) + "r16.@@x@@\n") == ["k"]


def test_alias_chain_of_seventeen_hops_is_uncertain():
    assert fields_at(_chain(17) + "r17.@@x@@\n") is None


def test_an_uncertain_alias_before_the_site_rejects_every_root():
    text = _chain(17) + "let other = {z: 1}\n"
    assert fields_at(text + "other.@@x@@\n") is None
    assert fields_at("let other = {z: 1}\nother.@@x@@\n" + _chain(17)) == ["z"]


def test_alias_target_resolves_at_its_own_position():
    text = "let r = {k: 1}\nlet s = r\nlet r = {z: 2}\n"
    assert fields_at(text + "s.@@x@@\n") == ["k"]
    assert fields_at(text + "r.@@x@@\n") == ["z"]


def test_alias_of_a_parameter_or_import_is_not_static():
    assert fields_at("fn f(p) {\n  let s = p\n  s.@@x@@\n}\n") is None
    assert fields_at("use mod.tool\nlet s = tool\ns.@@x@@\n") is None


def test_receiver_must_be_a_let_binding():
    assert fields_at("let r = {a: 1}\nfn g(r) {\n  r.@@x@@\n}\n") is None


# ---------------------------------------------------------------- invalidation


@pytest.mark.parametrize(
    "statement",
    [
        "r.b = 2",
        "r = {b: 1}",
        "r += 1",
        "r.a.b -= 1",
        "r /* note */ . a = 3",
        "r[0]",
        "r.push(1)",
        "r(1)",
        "f(r)",
        "f(1, r)",
        "let l = [r]",
        "let w = {a: r}",
    ],
)
def test_earlier_write_or_escape_invalidates(statement: str):
    assert fields_at(f"let r = {{a: 1}}\nfn f(x, y) {{\n}}\n{statement}\nr.@@x@@\n") is None


@pytest.mark.parametrize(
    "statement",
    ["r.a + 1", "r == 2", "let v = r.a", "let s = r", "if r.a > 1 {\n}", "r; 1"],
)
def test_reads_keep_the_shape(statement: str):
    assert fields_at(f"let r = {{a: 1}}\n{statement}\nr.@@x@@\n") == ["a"]


def test_later_writes_do_not_matter():
    assert fields_at("let r = {a: 1}\nr.@@x@@\nr.b = 2\n") == ["a"]


def test_write_through_alias_invalidates_root_and_alias():
    text = "let r = {a: 1}\nlet s = r\ns.b = 2\n"
    assert fields_at(text + "r.@@x@@\n") is None
    assert fields_at(text + "s.@@x@@\n") is None


def test_write_through_child_alias_invalidates_root():
    text = "let r = {a: {b: 1}}\nlet c = r.a\nc.y = 1\n"
    assert fields_at(text + "r.@@x@@\n") is None


def test_alias_of_another_root_does_not_matter():
    text = "let r = {a: 1}\nlet q = {b: 1}\nlet s = q\ns.z = 2\n"
    assert fields_at(text + "r.@@x@@\n") == ["a"]


def test_escape_as_last_value_of_a_block():
    assert fields_at("let r = {a: 1}\nfn f() {\n  return r\n}\nr.@@x@@\n") is None


@pytest.mark.parametrize(
    ("after", "expected"),
    [
        (" = 1", True),
        (" == 1", False),
        (" += 1", True),
        (" %= 1", True),
        (" / 2", False),
        (" // c\n  .a = 1", True),
        (" /* open", True),
        (".a.b\n", False),
        (".a.b = 1", True),
        (". 1", True),
        (".", True),
        ("[0]", True),
        (")", True),
        ("\n}", True),
        ("", False),
        ("\nlet x = 1", False),
        (" {", False),
    ],
)
def test_mutation_scanner(after: str, expected: bool):
    assert may_mutate("r" + after, 1) is expected


# ---------------------------------------------------------------- caps


def test_shape_count_cap_truncates_and_keeps_the_first():
    source = "".join(f"let r{index} = {{a: 1}}\n" for index in range(MAX_STATIC_RECORD_SHAPES + 1))
    report = report_of(source)
    assert report.truncated
    assert len(report.shapes) == MAX_STATIC_RECORD_SHAPES
    assert fields_at(source + "r0.@@x@@\n") == ["a"]
    assert fields_at(source + f"r{MAX_STATIC_RECORD_SHAPES}.@@x@@\n") is None


def test_shape_count_below_cap_is_not_truncated():
    source = "".join(f"let r{index} = {{a: 1}}\n" for index in range(MAX_STATIC_RECORD_SHAPES))
    report = report_of(source)
    assert not report.truncated
    assert len(report.shapes) == MAX_STATIC_RECORD_SHAPES


def _record(prefix: str, count: int) -> str:
    return "{" + ", ".join(f"{prefix}{index}: 1" for index in range(count)) + "}"


def test_field_cap_drops_whole_shapes_and_keeps_later_smaller_ones():
    first = MAX_STATIC_RECORD_FIELDS - 10
    source = (
        f"let big = {_record('f', first)}\n"
        f"let over = {_record('g', 11)}\n"
        f"let fits = {{h: {_record('i', 9)}}}\n"
    )
    report = report_of(source)
    assert report.truncated
    assert [shape.binding[0] for shape in report.shapes] == [4, source.index("fits")]
    assert fields_at(source + "over.@@x@@\n") is None
    assert fields_at(source + "fits.h.@@x@@\n") == sorted(f"i{index}" for index in range(9))


def test_field_cap_counts_nested_fields():
    source = f"let r = {{a: {_record('f', MAX_STATIC_RECORD_FIELDS)}}}\n"
    report = report_of(source)
    assert report.truncated
    assert report.shapes == []


def test_alias_cap_truncates():
    aliases = "".join(f"let s{index} = r\n" for index in range(MAX_STATIC_RECORD_ALIASES + 1))
    report = report_of("let r = {a: 1}\n" + aliases)
    assert report.aliases_truncated
    assert len(report.aliases) == MAX_STATIC_RECORD_ALIASES
    exact = "".join(f"let s{index} = r\n" for index in range(MAX_STATIC_RECORD_ALIASES))
    assert not report_of("let r = {a: 1}\n" + exact).aliases_truncated
