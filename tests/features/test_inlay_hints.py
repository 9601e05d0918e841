"""Inlay hints: parameter names and unawaited deferred catalog calls."""

from __future__ import annotations

from lsprotocol import types

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.catalogs.store import CatalogStore
from octoscript_lsp.features.inlay_hints import client_asks, inlay_hints
from octoscript_lsp.features.positions import PositionMap
from tests.lsp.catalog_data import MODULES, TOOLS


def hints(text: str, start: int = 0, end: int | None = None, catalogs=None) -> list[tuple]:
    if catalogs is None:
        catalogs = CatalogStore()
        catalogs.apply_initialization_options(
            {"octoscript": {"toolCatalog": TOOLS, "moduleCatalog": MODULES}}
        )
    found = inlay_hints(
        DocumentAnalysis(text),
        PositionMap(text),
        start,
        len(text) if end is None else end,
        catalogs,
    )
    return [(h.position.line, h.position.character, h.label, int(h.kind)) for h in found]


PARAMETER = int(types.InlayHintKind.Parameter)
TYPE = int(types.InlayHintKind.Type)


def test_parameter_names_at_calls_of_functions_with_two_or_more():
    text = "fn f(a, b) {\na\n}\nfn one(x) {\nx\n}\nf(1, 2)\none(3)\n"
    assert hints(text) == [(6, 2, "a:", PARAMETER), (6, 5, "b:", PARAMETER)]


def test_arguments_named_like_the_parameter_and_extra_arguments_get_none():
    text = "fn f(a, b) {\na\n}\nlet b = 1\nf(x, b, 9)\n"
    assert hints(text) == [(4, 2, "a:", PARAMETER)]


def test_nested_calls_and_shadowed_names():
    text = "fn f(a, b) {\na\n}\nf(f(1, 2), 3)\nlet g = |f| f(1, 2)\n"
    assert hints(text) == [
        (3, 2, "a:", PARAMETER),
        (3, 4, "a:", PARAMETER),
        (3, 7, "b:", PARAMETER),
        (3, 11, "b:", PARAMETER),
    ]


def test_only_calls_in_the_range_and_before_the_first_error():
    text = "fn f(a, b) {\na\n}\nf(1, 2)\nf(3, 4)\nlet = \nf(5, 6)\n"
    second = text.index("f(3")
    assert [h[:2] for h in hints(text, second, second + 7)] == [(4, 2), (4, 5)]
    assert [h[0] for h in hints(text)] == [3, 3, 4, 4]


def test_promise_after_unawaited_deferred_calls_only():
    text = (
        "use mod.app.weather\n"
        "use mod.app.report\n"
        'let p = weather.current({location: "x"})\n'
        'let r = weather.current({location: "x"}).await()\n'
        "let api = weather\n"
        'api.current({location: "y"})\n'
        'report.build({title: "t"})\n'
    )
    assert hints(text) == [(2, 40, "→ promise", TYPE), (5, 28, "→ promise", TYPE)]


def test_no_promise_hints_without_a_valid_module_catalog():
    text = 'use mod.app.weather\nweather.current({location: "x"})\n'
    assert hints(text, catalogs=CatalogStore()) == []


def test_only_clients_that_declare_inlay_hints_are_answered():
    declared = types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            inlay_hint=types.InlayHintClientCapabilities()
        )
    )
    assert client_asks(declared)
    assert not client_asks(types.ClientCapabilities())
    assert not client_asks(None)


def test_a_call_crossing_the_range_answers_the_hints_inside_it():
    text = "fn f(a, b) {\na\n}\nf({\nx: 1\n}, 2)\n"
    last_line = text.index("}, 2)")
    assert hints(text, last_line, last_line + 5) == [(5, 3, "b:", PARAMETER)]
    assert hints(text)[0] == (3, 2, "a:", PARAMETER)
