"""Fixed surfaces re-checked against scenarios from the reference server's own tests."""

from __future__ import annotations

import pytest

from octoscript_lsp.features import hover, signature

from .helpers import complete as answer_at
from .helpers import doc, items, labels, rng

TOOL = "use mod.tool\n"
DISCARDED_MODULES = {"octoscript": {"moduleCatalog": {"not": "a list"}}}
TOOLS = {
    "octoscript": {
        "toolCatalog": [
            {"name": "text.echo", "format": "text", "description": "Echoes."},
            {"name": "math.add", "format": "json"},
        ]
    }
}


def _doc(marked: str, options=None):
    d = doc(marked)
    if options is not None:
        d.catalogs.apply_initialization_options(options)
    return d


def complete(marked: str, options=None):
    d = _doc(marked, options)
    return answer_at(d.analysis, d.positions, d.at("c"), d.catalogs)


def hover_at(marked: str):
    d = _doc(marked)
    return hover.hover(d.analysis, d.positions, d.at("c"), d.catalogs)


def help_at(marked: str):
    d = _doc(marked)
    found = signature.signature_help(d.analysis, d.at("c"), d.catalogs)
    if found is None:
        return None
    (info,) = found.signatures
    return info.label, found.active_parameter


# ------------------------------------------------ `use mod.` past the first error


@pytest.mark.parametrize("marked", ["@\nuse mod.@@c@@", "@\nuse mod.app.@@c@@"])
def test_import_path_after_an_error_reports_an_unavailable_catalog(marked):
    answer = complete(marked, DISCARDED_MODULES)
    assert answer.items == [] and answer.is_incomplete is True


def test_import_path_under_std_after_an_error_stays_complete():
    answer = complete("@\nuse mod.std.@@c@@", DISCARDED_MODULES)
    assert answer.items == [] and answer.is_incomplete is False


def test_import_path_after_an_error_without_catalog_is_complete():
    answer = complete("@\nuse mod.@@c@@")
    assert answer.items == [] and answer.is_incomplete is False


# ------------------------------------------------ tool-name literals


def test_tool_name_items_carry_a_detail_and_cover_the_literal():
    answer = complete(TOOL + 'let r = tool.call("te@@c@@xt.")', TOOLS)
    assert items(answer) == [("text.echo", 12, (1, 19, 1, 24))]
    assert answer.items[0].detail
    assert answer.items[0].documentation.value == "Echoes."
    json_answer = complete(TOOL + 'tool.start_json("@@c@@", {})', TOOLS)
    assert items(json_answer) == [("math.add", 12, (1, 17, 1, 17))]
    assert json_answer.items[0].detail and json_answer.items[0].documentation is None


@pytest.mark.parametrize(
    "marked",
    [
        'use mod.custom.tool\ntool.call("text.@@c@@")',
        TOOL + 'let tool = {call: 1}\ntool.call("text.@@c@@")',
        TOOL + 'tool.call(prefix, "text.@@c@@")',
        TOOL + '// tool.call("text.@@c@@")',
        TOOL + 'let note = "tool.call(\\"text.@@c@@\\")"',
    ],
)
def test_tool_name_literal_needs_the_direct_visible_first_argument(marked):
    answer = complete(marked, TOOLS)
    assert answer.items == [] and answer.is_incomplete is False


# ------------------------------------------------ assert hover


def test_assert_hover_on_the_import_binding_is_the_plain_binding_hover():
    # The import is not yet visible at its own binding, so the fixed assert
    # documentation is only shown at later uses.
    at_binding = hover_at("use mod.std.as@@c@@sert\nassert(true)")
    assert rng(at_binding.range) == (0, 12, 0, 18)
    assert not at_binding.contents.value.startswith("assert(condition)")
    at_use = hover_at("use mod.std.assert\nas@@c@@sert(true)")
    assert rng(at_use.range) == (1, 0, 1, 6)
    assert at_use.contents.value.startswith("assert(condition)")


# ------------------------------------------------ member sites and signature bounds


@pytest.mark.parametrize(
    "marked",
    [
        "use mod.custom.text\ntext.@@c@@",
        "use mod.std.text\nlet text = 1\ntext.@@c@@",
        "use mod.std.text\nlet alias = text\nalias.@@c@@",
        "use mod.std.text\ntext.trim.@@c@@",
        'use mod.std.text\nlet note = "text.@@c@@"',
        "use mod.std.text\n// text.@@c@@",
        "use mod.tool\n/* tool.@@c@@ */",
    ],
)
def test_fixed_members_need_an_exact_direct_visible_import(marked):
    answer = complete(marked)
    assert answer.items == [] and answer.is_incomplete is False


def test_std_and_tool_member_lists_report_truncated_imports():
    imports = "".join(f"use mod.module_{index}\n" for index in range(1025))
    for head, tail, count in (
        ("use mod.tool\n", "tool.", 4),
        ("use mod.std.object\n", "object.", 11),
        ("use mod.std\n", "std.", 6),
    ):
        answer = complete(head + imports + tail + "@@c@@")
        assert answer.is_incomplete is True and len(answer.items) == count


def test_signature_argument_bound():
    commas = ", " * 63
    assert help_at(TOOL + f"tool.call({commas}@@c@@") == (
        "tool.call(name, input) -> string",
        None,
    )
    assert help_at(TOOL + f"tool.call({commas}, @@c@@") is None


def test_signature_nesting_bound():
    assert help_at(TOOL + "tool.call(" + "[" * 127 + "@@c@@") == (
        "tool.call(name, input) -> string",
        0,
    )
    assert help_at(TOOL + "tool.call(" + "[" * 128 + "@@c@@") is None


def test_std_signature_labels_follow_the_reference_tables():
    assert help_at('use mod.std.text\ntext.join(["a"], @@c@@",")') == (
        "text.join(values, separator) -> string",
        1,
    )
    assert help_at('use mod.std.object\nobject.with(merged, "k", @@c@@3)') == (
        "object.with(value, key, item) -> object",
        2,
    )
    assert help_at("use mod.std.array\narray.get(xs, 0, @@c@@-1)") == (
        "array.get(value, index, fallback) -> value",
        2,
    )
    assert help_at("use mod.std.math\nmath.pi(@@c@@") is None


def test_std_namespace_completion_lists_fields():
    answer = complete("use mod.std\nstd.@@c@@")
    assert labels(answer) == ["array", "assert", "json", "math", "object", "text"]
    assert {int(item.kind) for item in answer.items} == {5}
