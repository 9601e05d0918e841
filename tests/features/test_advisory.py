"""Advisory diagnostics appear only against a valid catalog."""

from __future__ import annotations

from octoscript_lsp.analysis.advice import (
    CODE_MISSING_INPUT,
    CODE_TOOL_FORMAT,
    CODE_UNKNOWN_INPUT,
    CODE_UNLISTED_MEMBER,
    CODE_UNLISTED_TOOL,
)
from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.catalogs.store import CatalogStore
from octoscript_lsp.features.diagnostics import advisory_diagnostics
from octoscript_lsp.features.positions import PositionMap

TOOLS = [
    {"name": "text.echo", "format": "text", "description": "Echo."},
    {"name": "math.add", "format": "json", "description": "Add."},
]
MODULES = [
    {"path": "mod.app"},
    {"path": "mod.app.weather"},
    {
        "path": "mod.app.weather.current",
        "callMode": "synchronous",
        "callShape": "single_json",
        "inputFields": [
            {"name": "location", "type": "string", "required": True},
            {"name": "units", "type": "string", "required": False},
        ],
    },
]


def store(**section) -> CatalogStore:
    catalogs = CatalogStore()
    catalogs.apply_initialization_options({"octoscript": section})
    return catalogs


def found(text: str, catalogs: CatalogStore) -> list[tuple[str, tuple[int, int]]]:
    analysis = DocumentAnalysis(text)
    positions = PositionMap(text)
    return [
        (item.code, (item.range.start.line, item.range.start.character))
        for item in advisory_diagnostics(analysis, positions, catalogs)
    ]


def test_unlisted_tool_literal_is_flagged():
    text = 'use mod.tool\ntool.call("text.nope", "x")\n'
    assert found(text, store(toolCatalog=TOOLS)) == [(CODE_UNLISTED_TOOL, (1, 10))]


def test_listed_tool_gives_nothing():
    text = 'use mod.tool\ntool.call("text.echo", "x")\ntool.call_json("math.add", {})\n'
    assert found(text, store(toolCatalog=TOOLS)) == []


def test_wrong_format_is_flagged():
    text = 'use mod.tool\ntool.call("math.add", "x")\n'
    assert found(text, store(toolCatalog=TOOLS)) == [(CODE_TOOL_FORMAT, (1, 10))]


def test_absent_or_discarded_catalog_gives_nothing():
    text = 'use mod.tool\ntool.call("text.nope", "x")\n'
    assert found(text, CatalogStore()) == []
    assert found(text, store(toolCatalog=[{"name": "Bad Name", "format": "text"}])) == []


def test_unlisted_module_member_is_flagged():
    text = "use mod.app.weather\nweather.forecast({})\n"
    assert found(text, store(moduleCatalog=MODULES)) == [(CODE_UNLISTED_MEMBER, (1, 0))]


def test_missing_and_unknown_input_fields():
    text = 'use mod.app.weather\nweather.current({units: "c", colour: 1})\n'
    assert sorted(found(text, store(moduleCatalog=MODULES))) == [
        (CODE_MISSING_INPUT, (1, 0)),
        (CODE_UNKNOWN_INPUT, (1, 29)),
    ]


def test_complete_input_record_gives_nothing():
    text = 'use mod.app.weather\nweather.current({location: "x", units: "c"})\n'
    assert found(text, store(moduleCatalog=MODULES)) == []


def test_invalid_source_gives_nothing():
    text = 'use mod.tool\ntool.call("text.nope", "x")\nlet = 1\n'
    assert found(text, store(toolCatalog=TOOLS)) == []


def messages(text: str, catalogs: CatalogStore) -> list[str]:
    analysis = DocumentAnalysis(text)
    return [item.message for item in advisory_diagnostics(analysis, PositionMap(text), catalogs)]


def test_messages_name_the_name_and_the_closest_listed_one():
    text = (
        "use mod.tool\nuse mod.app.weather\n"
        'tool.call("text.ecko", "x")\n'
        'tool.call("zzz.unknown", "x")\n'
        'tool.call_json("text.echo", {})\n'
        'weather.current({location: "x", unit: "c"})\n'
        "weather.curent({})\n"
    )
    assert messages(text, store(toolCatalog=TOOLS, moduleCatalog=MODULES)) == [
        "the tool catalog does not list `text.ecko`; did you mean `text.echo`?",
        "the tool catalog does not list `zzz.unknown`",
        "`text.echo` is not listed with the json format that tool.call_json uses; "
        "did you mean `tool.call`?",
        "`unit` is not an input field of this call; did you mean `units`?",
        "the module catalog does not list mod.app.weather.curent; did you mean `current`?",
    ]


def test_a_name_that_cannot_be_a_tool_name_is_never_echoed():
    text = 'use mod.tool\ntool.call("Secret Value!", "x")\n'
    assert messages(text, store(toolCatalog=TOOLS)) == ["the tool catalog does not list this tool"]
