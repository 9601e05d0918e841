"""`mod.tool`, `mod.std.*` and `use mod.` paths: completion, hover, signature help."""

from __future__ import annotations

import pytest

from octoscript_lsp.features import hover, signature
from octoscript_lsp.limits import MAX_LEXICAL_SYMBOL_OCCURRENCES

from .helpers import complete as answer_at
from .helpers import doc, items, labels, rng

MEMBERS = {
    "math": "abs ceil floor round sqrt sin cos tan exp ln log10 pow min max atan2 clamp pi e",
    "text": "trim lower upper len slice index_of last_index_of split join contains starts_with "
    "ends_with replace_all",
    "array": "len has_index get contains index_of slice range concat compact unique reverse "
    "flatten push",
    "object": "len has get pick omit from_entries with keys entries values merge",
    "json": "parse stringify",
}
STD_CHILDREN = ["array", "assert", "json", "math", "object", "text"]
TOOL_METHODS = ["call", "call_json", "start", "start_json"]


def complete(marked: str, mark: str = "c"):
    d = doc(marked)
    return answer_at(d.analysis, d.positions, d.at(mark), d.catalogs)


def hover_at(marked: str):
    d = doc(marked)
    return hover.hover(d.analysis, d.positions, d.at("c"), d.catalogs)


def help_at(marked: str):
    d = doc(marked)
    found = signature.signature_help(d.analysis, d.at("c"), d.catalogs)
    if found is None:
        return None
    (info,) = found.signatures
    assert found.active_signature == 0
    assert info.documentation.kind == "plaintext" and info.documentation.value
    return info.label, [p.label for p in info.parameters], found.active_parameter


# ---------------------------------------------------------------- completion


def test_tool_methods():
    answer = complete("use mod.tool\ntool.@@c@@")
    assert answer.is_incomplete is False
    assert items(answer) == [(name, 2, (1, 5, 1, 5)) for name in TOOL_METHODS]
    assert all(item.detail and item.documentation is None for item in answer.items)


def test_tool_methods_ignore_the_typed_member_and_cover_it():
    answer = complete('use mod.tool\nlet r = tool.xy@@c@@z("a", 1)\n')
    assert items(answer) == [(name, 2, (1, 13, 1, 16)) for name in TOOL_METHODS]


@pytest.mark.parametrize("module", sorted(MEMBERS))
def test_std_module_members(module):
    answer = complete(f"use mod.std.{module}\nlet v = {module}.@@c@@")
    assert answer.is_incomplete is False
    names = sorted(MEMBERS[module].split())
    edit = (1, 9 + len(module), 1, 9 + len(module))
    expected = [(name, 21 if name in ("pi", "e") else 3, edit) for name in names]
    assert items(answer) == expected
    for item in answer.items:
        assert item.detail
        assert item.documentation.kind == "plaintext"
        assert item.text_edit.new_text == item.label


def test_std_member_edit_covers_the_whole_member_and_is_not_filtered():
    answer = complete("use mod.std.math\nmath.s@@c@@qr")
    assert len(answer.items) == 18
    assert {rng(item.text_edit.range) for item in answer.items} == {(1, 5, 1, 8)}


def test_assert_module_has_no_member_list():
    assert complete("use mod.std.assert\nassert.@@c@@").items == []


def test_std_namespace_children_after_use_mod_std():
    answer = complete("use mod.std\nstd.@@c@@")
    assert items(answer) == [(name, 5, (1, 4, 1, 4)) for name in STD_CHILDREN]
    assert complete("use mod.std\nstd.math.@@c@@").items == []


@pytest.mark.parametrize(
    "marked",
    [
        "use mod.tool\nlet t = tool\nt.@@c@@",  # alias
        "use mod.tool\nlet tool = 1\ntool.@@c@@",  # same-scope shadow
        "use mod.tool\nfn f(tool) {\n  tool.@@c@@\n}\n",  # inner shadow
        "tool.@@c@@",  # not imported
        "tool.@@c@@\nuse mod.tool\n",  # imported later
        "use mod.custom.math\nmath.@@c@@",  # not the std path
        "use mod.std.math\nlet a = {math: 1}\na.math.@@c@@",  # chained receiver
        "use mod.std.math\nlet = 1\nmath.@@c@@",  # past the first diagnostic
        "use mod.std.math\n// math.@@c@@\n",  # comment
        "use mod.std.math\n/* math.@@c@@ */\n",  # block comment
        'use mod.tool\nlet s = "tool.@@c@@"\n',  # string
        "use mod.std.math\nmath .@@c@@",  # whitespace before the dot
    ],
)
def test_member_refusals(marked):
    answer = complete(marked)
    assert answer.items == []
    assert answer.is_incomplete is False


def test_import_path_completion():
    answer = complete("use mod.@@c@@")
    assert items(answer) == [("std", 9, (0, 8, 0, 8))]
    assert answer.is_incomplete is False
    answer = complete("use mod.std.@@c@@")
    assert items(answer) == [(name, 9, (0, 12, 0, 12)) for name in STD_CHILDREN]
    answer = complete("use mod.std.ma@@c@@")
    assert items(answer) == [(name, 9, (0, 12, 0, 14)) for name in STD_CHILDREN]
    assert all(item.documentation.kind == "plaintext" for item in answer.items)
    assert complete("let a = 1\nuse mod . std . @@c@@").items[0].label == "array"


@pytest.mark.parametrize(
    "marked",
    [
        "use mod.std.math.@@c@@",
        "use mod.std.log.@@c@@",
        "use mod.other.@@c@@",
        "let = 1\nuse mod.@@c@@",
    ],
)
def test_import_path_completion_below_a_leaf_or_past_a_diagnostic_is_empty(marked):
    assert complete(marked).items == []


def test_import_path_needs_statement_position():
    assert complete("let x = use mod.@@c@@").items == []
    assert labels(complete("fn f() {\n  use mod.@@c@@")) == ["std"]
    assert labels(complete("let a = 1; use mod.@@c@@")) == ["std"]


def test_truncated_index_blocks_fixed_completion():
    filler = "let a = 1\n" + "a\n" * MAX_LEXICAL_SYMBOL_OCCURRENCES
    answer = complete("use mod.tool\n" + filler + "tool.@@c@@")
    assert answer.items == [] and answer.is_incomplete is True


# ---------------------------------------------------------------- hover


@pytest.mark.parametrize(
    ("marked", "header", "expected_range"),
    [
        ("use mod.std.math\nmath.p@@c@@i\n", "math.pi -> number", (1, 5, 1, 7)),
        (
            "use mod.std.math\nmath.@@c@@clamp(1, 2, 3)\n",
            "math.clamp(value, minimum, maximum)",
            (1, 5, 1, 10),
        ),
        (
            'use mod.std.json\njson.parse@@c@@("1")\n',
            "json.parse(document) -> JSON value",
            (1, 5, 1, 10),
        ),
        ('use mod.std.text\ntext.tr@@c@@im(" a ")\n', "text.trim(value) -> string", (1, 5, 1, 9)),
        (
            "use mod.std.array\narray.pu@@c@@sh(xs, 1)\n",
            "array.push(value, item) -> nil",
            (1, 6, 1, 10),
        ),
        ("use mod.std.object\nobject.ke@@c@@ys(o)\n", "object.keys(value) -> array", (1, 7, 1, 11)),
        ("use mod.std\nstd.ma@@c@@th\n", "", (1, 4, 1, 8)),
    ],
)
def test_std_member_hover(marked, header, expected_range):
    found = hover_at(marked)
    assert found.contents.kind == "plaintext"
    assert found.contents.value.startswith(header)
    assert rng(found.range) == expected_range


@pytest.mark.parametrize(
    "marked",
    [
        "use mod.std.math\nmath.nop@@c@@e(1)\n",  # unknown member stops hover
        "use mod.std\nstd.lo@@c@@g\n",  # unknown child of std
        'use mod.tool\ntool.ca@@c@@ll("x", 1)\n',  # the reference has no tool hover
        "use mod.std.math\nlet m = math\nm.p@@c@@i\n",  # alias
        "use mod.std.math\nlet math = 1\nmath.p@@c@@i\n",  # shadowed
        "math.p@@c@@i\n",  # not imported
    ],
)
def test_member_hover_refusals(marked):
    assert hover_at(marked) is None


def test_assert_hover_on_the_import_occurrence():
    found = hover_at("use mod.std.assert\nass@@c@@ert(true)\n")
    assert found.contents.kind == "plaintext"
    assert found.contents.value.startswith("assert(condition)")
    assert rng(found.range) == (1, 0, 1, 6)


def test_other_import_binding_hover_is_the_generic_one():
    found = hover_at("use mod.std.ma@@c@@th\n")
    assert "import" in found.contents.value
    assert rng(found.range) == (0, 12, 0, 16)


# ---------------------------------------------------------------- signature help


@pytest.mark.parametrize(
    ("marked", "expected"),
    [
        (
            'use mod.tool\ntool.call("x", @@c@@',
            ("tool.call(name, input) -> string", ["name", "input"], 1),
        ),
        (
            "use mod.tool\ntool.call_json(@@c@@",
            ("tool.call_json(name, value) -> string", ["name", "value"], 0),
        ),
        (
            'use mod.tool\ntool.start("x", @@c@@',
            ("tool.start(name, input) -> promise<string>", ["name", "input"], 1),
        ),
        (
            "use mod.tool\ntool.start_json(@@c@@",
            ("tool.start_json(name, value) -> promise<string>", ["name", "value"], 0),
        ),
        (
            'use mod.tool\ntool.call ("x", 1, @@c@@',
            ("tool.call(name, input) -> string", ["name", "input"], None),
        ),
        (
            "use mod.std.math\nmath.clamp(1, @@c@@2, 3)\n",
            ("math.clamp(value, minimum, maximum) -> number", ["value", "minimum", "maximum"], 1),
        ),
        (
            'use mod.std.json\njson.parse("[1, @@c@@',
            ("json.parse(document) -> JSON value", ["document"], 0),
        ),
        (
            'use mod.std.text\ntext.join(["a", "b"], @@c@@',
            ("text.join(values, separator) -> string", ["values", "separator"], 1),
        ),
        (
            "use mod.std.array\narray.get(xs, 0, @@c@@",
            ("array.get(value, index, fallback) -> value", ["value", "index", "fallback"], 2),
        ),
        (
            'use mod.std.object\nobject.with(o, "k", @@c@@',
            ("object.with(value, key, item) -> object", ["value", "key", "item"], 2),
        ),
        ("use mod.std\nstd.assert(@@c@@", ("std.assert(condition)", ["condition"], 0)),
        ("use mod.std.assert\nassert(x == 1, @@c@@", ("assert(condition)", ["condition"], None)),
    ],
)
def test_fixed_signatures(marked, expected):
    assert help_at(marked) == expected


@pytest.mark.parametrize(
    "marked",
    [
        "use mod.tool\ntool.nope(@@c@@",  # unknown tool member
        "use mod.std.math\nmath.pi(@@c@@",  # a constant is not a function
        "use mod.std.math\nmath.nope(@@c@@",
        "use mod.tool\nlet t = tool\nt.call(@@c@@",  # alias
        "use mod.tool\nlet tool = 1\ntool.call(@@c@@",  # shadowed
        "tool.call(@@c@@",  # not imported
        "use mod.std.math\nx.math.abs(@@c@@",  # chained receiver
        "use mod.tool\ntool. call(@@c@@",  # space after the dot
        "use mod.std.math\nlet = 1\nmath.abs(@@c@@",  # past the first diagnostic
        "use mod.std.math\nmath.abs(1, // c@@c@@",  # comment
        "use mod.std.math\nmath.abs(1, /* c@@c@@",  # open block comment
        "use mod.std.math\nmath.abs(1)@@c@@",  # closed
        "use mod.std\nstd.math.abs(@@c@@",  # no chained std path
        "use mod.std.assert\nlet check = assert\ncheck(@@c@@",  # alias of assert
        "use mod.std.assert\nstd.assert(@@c@@",  # `std` not imported
        "use mod.std\nassert(@@c@@",  # bare assert needs the leaf import
    ],
)
def test_fixed_signature_refusals(marked):
    assert help_at(marked) is None


def test_signature_scan_bounds_for_member_calls():
    prefix = "use mod.std.math\nmath.abs("
    assert help_at(prefix + "[" * 127 + "@@c@@")[2] == 0
    assert help_at(prefix + "[" * 128 + "@@c@@") is None
    assert help_at(prefix + "1, " * 63 + "@@c@@")[2] is None  # past the one parameter
    assert help_at(prefix + "1, " * 64 + "@@c@@") is None


def test_in_progress_string_argument_is_accepted():
    assert help_at('use mod.tool\ntool.call("a, (b@@c@@')[2] == 0


def test_import_path_after_a_hidden_parser_error_is_empty():
    assert complete('let = 2\nuse mod.@@c@@\nlet s = "open\n').items == []


def test_tool_literal_site_with_another_receiver_answers_empty():
    d = doc('use mod.std.text\ntext.call("@@c@@")\n')
    assert answer_at(d.analysis, d.positions, d.at("c"), d.catalogs).items == []
    # a discarded tool catalog marks the list incomplete even without the import
    for marked in ('tool.call("@@c@@")\n', 'use mod.tool\ntool.call("@@c@@")\n'):
        d = doc(marked)
        d.catalogs.apply_initialization_options({"octoscript": {"toolCatalog": "bad"}})
        answer = answer_at(d.analysis, d.positions, d.at("c"), d.catalogs)
        assert answer.items == [] and answer.is_incomplete is True


def test_member_hover_gating_follows_the_navigation_index():
    filler = "let a = 1\n" + "a\n" * MAX_LEXICAL_SYMBOL_OCCURRENCES
    # valid and truncated: no member hover
    assert hover_at("use mod.std.math\n" + filler + "math.p@@c@@i\n") is None
    # invalid source has an empty navigation index, so the member hover still runs
    found = hover_at("use mod.std.math\n" + filler + "math.p@@c@@i\nlet = 1\n")
    assert found.contents.value.startswith("math.pi -> number")
