"""Completion of catalog methods with required input fields (opt-in snippets)."""

from __future__ import annotations

from lsprotocol import types

from octoscript_lsp import preferences
from octoscript_lsp.features.completion import client_supports_snippets
from tests.features.helpers import complete, doc
from tests.lsp.catalog_data import MODULES, TOOLS


def answer(marked: str, prefill: bool) -> list[tuple[str, int | None, str]]:
    document = doc(marked)
    document.catalogs.apply_initialization_options(
        {"octoscript": {"toolCatalog": TOOLS, "moduleCatalog": MODULES}}
    )
    result = complete(
        document.analysis, document.positions, document.at(), document.catalogs, prefill
    )
    return [
        (
            item.label,
            int(item.insert_text_format) if item.insert_text_format else None,
            item.text_edit.new_text,
        )
        for item in result.items
    ]


def test_off_by_default_answers_plain_names():
    assert answer("use mod.app.weather\nweather.@@c@@", False) == [("current", None, "current")]


def test_on_inserts_the_required_fields_as_tab_stops_without_await():
    assert answer("use mod.app.weather\nlet w = weather.@@c@@", True) == [
        ("current", 2, 'current({location: ${1:""}})$0')
    ]


def test_every_placeholder_type_and_snippet_escaping():
    (item,) = answer("use mod.app.report\nreport.bu@@c@@", True)
    assert item[2] == (
        "build({count: ${1:0}, draft: ${2:false}, extra: ${3:nil}, "
        'meta: ${4:{\\}}, tags: ${5:[]}, title: ${6:""}})$0'
    )


def test_existing_arguments_and_namespaces_stay_plain():
    assert answer('use mod.app.weather\nweather.cur@@c@@rent({location: "x"})', True) == [
        ("current", None, "current")
    ]
    # `report` is a namespace under mod.app, not a method.
    assert answer("use mod.app\napp.@@c@@", True) == [
        ("report", None, "report"),
        ("weather", None, "weather"),
    ]


def test_snippet_support_is_read_from_the_client():
    def capabilities(snippets: bool | None) -> types.ClientCapabilities:
        item = types.ClientCompletionItemOptions(snippet_support=snippets)
        completion = types.CompletionClientCapabilities(completion_item=item)
        return types.ClientCapabilities(
            text_document=types.TextDocumentClientCapabilities(completion=completion)
        )

    assert client_supports_snippets(capabilities(True))
    assert not client_supports_snippets(capabilities(False))
    assert not client_supports_snippets(capabilities(None))
    assert not client_supports_snippets(types.ClientCapabilities())
    assert not client_supports_snippets(None)


def test_preferences_follow_keep_replace_reset_rules():
    on = {"octoscript": {"completion": {"prefillRequiredFields": True}}}
    enabled = preferences.from_initialization_options(on)
    assert enabled.prefill_required_fields
    assert preferences.from_initialization_options(None) == preferences.DEFAULTS
    assert preferences.from_initialization_options({"octoscript": {}}) == preferences.DEFAULTS
    # Omitted `completion` (a catalog-only update) keeps the preference.
    assert preferences.from_settings({"octoscript": {"toolCatalog": []}}, enabled) == enabled
    assert preferences.from_settings({"other": 1}, enabled) == enabled
    # Replaced, reset by null, by a non-object section or settings.
    off = {"octoscript": {"completion": {"prefillRequiredFields": False}}}
    assert not preferences.from_settings(off, enabled).prefill_required_fields
    assert (
        preferences.from_settings(
            {"octoscript": {"completion": None}}, enabled
        ).prefill_required_fields
        is False
    )
    assert preferences.from_settings({"octoscript": 3}, enabled) == preferences.DEFAULTS
    assert preferences.from_settings("bad", enabled) == preferences.DEFAULTS
    wrong_type = {"octoscript": {"completion": {"prefillRequiredFields": "yes"}}}
    assert not preferences.from_settings(wrong_type, enabled).prefill_required_fields
