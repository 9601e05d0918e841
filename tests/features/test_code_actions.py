"""Quick fixes: missing imports and compatibility-syntax rewrites."""

from __future__ import annotations

import pytest
from lsprotocol import types

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.catalogs.store import CatalogStore
from octoscript_lsp.features.code_actions import code_actions
from octoscript_lsp.features.positions import PositionMap, changed_span

URI = "file:///work/a.octoscript"

Edit = tuple[str, int, int, int, int, str]


def actions(
    source: str,
    start: int = 0,
    end: int | None = None,
    catalogs: CatalogStore | None = None,
    ignores: bool = False,
) -> list[Edit]:
    """(title, start line/char, end line/char, new text) per offered fix (the
    "Ignore `CODE` on this line" fixes only with `ignores`)."""
    analysis = DocumentAnalysis(source)
    found = code_actions(
        analysis,
        PositionMap(source),
        URI,
        start,
        len(source) if end is None else end,
        catalogs,
    )
    result = []
    for action in found:
        assert action.kind == types.CodeActionKind.QuickFix
        if action.title.startswith("Ignore `") != ignores:
            continue
        assert action.edit is not None and action.edit.changes is not None
        (edit,) = action.edit.changes[URI]
        span = edit.range
        result.append(
            (
                action.title,
                span.start.line,
                span.start.character,
                span.end.line,
                span.end.character,
                edit.new_text,
            )
        )
    return result


def module_catalog(*paths: str) -> CatalogStore:
    store = CatalogStore()
    descriptors = [{"path": path, "description": "Host module."} for path in paths]
    store.apply_initialization_options({"octoscript": {"moduleCatalog": descriptors}})
    return store


def test_missing_std_import_goes_to_the_top() -> None:
    assert actions('json.parse("1")\n') == [
        ("Add `use mod.std.json`", 0, 0, 0, 0, "use mod.std.json\n"),
    ]


def test_missing_import_goes_after_the_last_use_line() -> None:
    source = "use mod.tool\nuse mod.std.text\nlet x = 1\nmath.sqrt(x)\n"
    assert actions(source) == [("Add `use mod.std.math`", 2, 0, 2, 0, "use mod.std.math\n")]


def test_crlf_and_a_last_line_without_newline() -> None:
    assert actions("use mod.tool\r\nassert(1)\r\n") == [
        ("Add `use mod.std.assert`", 1, 0, 1, 0, "use mod.std.assert\r\n"),
    ]
    source = 'use mod.std.text; json.parse("1")'
    assert actions(source) == [
        ("Add `use mod.std.json`", 0, 33, 0, 33, "\nuse mod.std.json"),
    ]


def test_tool_receiver() -> None:
    assert actions('tool.call("echo", "hi")\n') == [
        ("Add `use mod.tool`", 0, 0, 0, 0, "use mod.tool\n"),
    ]


def test_bound_or_non_receiver_names_get_nothing() -> None:
    assert actions("let json = 1\njson.parse(1)\n") == []
    assert actions("fn f(math) {\n  math.sqrt(1)\n}\n") == []
    assert actions("let x = json\n") == []
    assert actions("use mod.std.json\njson.parse(1)\n") == []


def test_only_fixes_in_the_requested_range() -> None:
    source = "let a = math.sqrt(1)\nlet b = json.parse(1)\n"
    assert [item[0] for item in actions(source, 8, 8)] == ["Add `use mod.std.math`"]
    assert [item[0] for item in actions(source, 29, 29)] == ["Add `use mod.std.json`"]
    assert actions(source, 0, 3) == []


def test_one_fix_per_missing_path() -> None:
    assert len(actions("json.parse(1)\njson.stringify(2)\n")) == 1


def test_catalog_leaf_with_a_unique_path() -> None:
    store = module_catalog("mod.app.weather", "mod.app.weather.current")
    assert actions("weather.current({})\n", catalogs=store) == [
        ("Add `use mod.app.weather`", 0, 0, 0, 0, "use mod.app.weather\n"),
    ]


def test_ambiguous_or_absent_catalog_gets_nothing() -> None:
    store = module_catalog("mod.app.weather", "mod.other.weather")
    assert actions("weather.current({})\n", catalogs=store) == []
    assert actions("weather.current({})\n", catalogs=CatalogStore()) == []
    assert actions("weather.current({})\n") == []


def test_discarded_catalog_gets_nothing() -> None:
    store = CatalogStore()
    store.apply_initialization_options({"octoscript": {"moduleCatalog": "not a list"}})
    assert actions("weather.current({})\n", catalogs=store) == []


def test_names_after_the_first_error_get_nothing() -> None:
    assert actions("let a = 5.\njson.parse(1)\n") == []
    assert actions("json.parse(1)\nlet a = 5.\n")[0][0] == "Add `use mod.std.json`"


def test_var_becomes_let() -> None:
    assert actions("var total = 1\n") == [("Replace `var` with `let`", 0, 0, 0, 3, "let")]
    assert actions("let var = 1\n") == []


def test_single_quoted_string_becomes_double_quoted() -> None:
    source = "let s = 'it\\'s \"q\"'\n"
    assert actions(source) == [
        ("Use a double-quoted string", 0, 8, 0, 19, '"it\'s \\"q\\""'),
    ]
    assert actions("let s = 'open\n") == []


def test_trailing_commas_are_removed() -> None:
    assert actions("f(1, 2,)\n") == [("Remove the trailing comma", 0, 6, 0, 7, "")]
    assert actions("let a = [1,]\n") == [("Remove the trailing comma", 0, 10, 0, 11, "")]
    source = "let r = {\n  a: 1,\n}\n"
    assert actions(source) == [("Remove the trailing comma", 1, 6, 1, 7, "")]
    assert actions(source, source.index("}"), source.index("}")) == [
        ("Remove the trailing comma", 1, 6, 1, 7, ""),
    ]


def test_fixes_come_in_source_order() -> None:
    source = "var x = f(1,)\nlet s = 'a'\n"
    assert [item[0] for item in actions(source)] == [
        "Replace `var` with `let`",
        "Remove the trailing comma",
        "Use a double-quoted string",
    ]


def test_too_large_source_has_no_fixes() -> None:
    assert actions("x" * (300 * 1024)) == []


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        ("a\r\nb", "a\nb", (1, 3, "\n")),
        ("let x = 1\r\n", "let x = 1\r\nlet y = 2\r\n", (11, 11, "let y = 2\r\n")),
        ("var a = 1\n", "let a = 1\n", (0, 3, "let")),
        ("same", "same", (4, 4, "")),
    ],
)
def test_changed_span_is_the_one_replaced_stretch_never_half_a_line_break(before, after, expected):
    start, end, text = changed_span(before, after)
    assert (start, end, text) == expected
    assert before[:start] + text + before[end:] == after
