"""Hypothesis fuzzing: random edits and requests through the server, and in process."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.catalogs.store import CatalogStore
from octoscript_lsp.features import (
    code_actions,
    diagnostics,
    folding,
    formatting,
    hover,
    inlay_hints,
    navigation,
    semantic_tokens,
    signature,
    symbols,
    tool_calls,
)
from octoscript_lsp.features.positions import PositionMap
from tests.conftest import quick_and_full
from tests.features.helpers import complete
from tests.robustness.session import CAPABILITIES, Session, is_failure, request_kinds

URI = "file:///workspace/fuzz.octoscript"
SEED = 'use mod.tool\nlet total = {a: 1}\nfn f(x) { x + 1 }\ntool.call("t.x", total)\n😀 f(total)\n'
PIECES = [
    "let ",
    "fn ",
    "use mod.",
    "tool.",
    "call(",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "|x| ",
    '"',
    "'",
    "\n",
    "\r\n",
    "\r",
    ";",
    ",",
    ".",
    "x",
    "total",
    "await()",
    "try ",
    "catch ",
    "😀",
    "\ud800",
    "\x00",
    "// c\n",
    "1.",
    "var ",
    "\\u{110000}",
    " ",
]
TEXT = st.lists(st.sampled_from(PIECES) | st.text(max_size=4), max_size=30).map("".join)
COORDINATE = st.integers(0, 12) | st.integers(-3, 1_000_000)
POSITION = st.fixed_dictionaries({"line": COORDINATE, "character": COORDINATE})
REQUESTS = request_kinds(URI, {"line": 0, "character": 0})


def _at(method: str, params: dict, position: dict) -> dict:
    """`params` of a request kind moved to `position`."""
    moved = dict(params)
    if "position" in moved:
        moved["position"] = position
    if "range" in moved:
        moved["range"] = {"start": position, "end": position}
    if "positions" in moved:
        moved["positions"] = [position]
    return moved


EDIT = st.one_of(
    st.fixed_dictionaries(
        {"range": st.fixed_dictionaries({"start": POSITION, "end": POSITION}), "text": TEXT}
    ),
    st.fixed_dictionaries({"text": TEXT}),
)
STEP = st.tuples(st.lists(EDIT, min_size=1, max_size=3), st.sampled_from(REQUESTS), POSITION)


@pytest.fixture(scope="module")
def session():
    client = Session()
    client.initialize(CAPABILITIES)
    yield client
    client.close()


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(STEP, min_size=1, max_size=8))
def test_random_edits_and_requests(session: Session, steps):
    session.open(URI, SEED)
    for version, (edits, (method, params), position) in enumerate(steps, start=2):
        session.change(URI, version, edits)
        answer = session.request(method, _at(method, params, position), timeout=5)
        assert not is_failure(answer), (method, position, answer)
        assert session.alive()
    session.close_document(URI)
    assert session.sane_answers_ok() == []


def run_every_feature(source: str, offsets: list[int], catalogs: CatalogStore) -> None:
    analysis = DocumentAnalysis(source, 1)
    positions = PositionMap(source)
    uri = "file:///workspace/fuzz.octoscript"
    symbols.document_symbols_wire(analysis, positions)
    semantic_tokens.full(analysis)
    folding.folding_ranges(analysis)
    tool_calls.tool_calls_result(analysis, catalogs, uri)
    tool_calls.code_lenses(analysis, positions, catalogs)
    diagnostics.advisory_diagnostics(analysis, positions, catalogs)
    inlay_hints.inlay_hints(analysis, positions, 0, len(source), catalogs)
    try:
        formatting.format_document(analysis, positions)
    except formatting.FormattingRefused:
        pass
    for offset in offsets:
        complete(analysis, positions, offset, catalogs)
        complete(analysis, positions, offset, catalogs, prefill=True)
        try:
            formatting.format_range(analysis, positions, offset, offset + 5)
        except formatting.FormattingRefused:
            pass
        hover.hover(analysis, positions, offset, catalogs)
        signature.signature_help(analysis, offset, catalogs)
        navigation.definition(analysis, positions, uri, offset, catalogs)
        try:
            navigation.references(analysis, positions, uri, offset, True)
            navigation.highlights(analysis, positions, offset)
        except navigation.Refused:
            pass
        try:
            navigation.prepare_rename(analysis, positions, offset)
            navigation.rename(analysis, positions, uri, 1, offset, "renamed")
        except navigation.Refused:
            pass
        semantic_tokens.range_tokens(analysis, offset, offset + 7)
        folding.selection_ranges(analysis, positions, [offset])
        code_actions.code_actions(analysis, positions, uri, offset, offset + 4, catalogs)


CATALOGS = CatalogStore()
CATALOGS.apply_settings(
    {
        "octoscript": {
            "toolCatalog": [{"name": "t.x", "format": "text"}, {"name": "j.y", "format": "json"}],
            "moduleCatalog": [
                {
                    "path": "mod.app.weather.current",
                    "callMode": "deferred",
                    "callShape": "single_json",
                    "inputFields": [{"name": "city", "type": "string", "required": True}],
                }
            ],
        }
    }
)


def _features_never_raise(source: str, data):
    offsets = data.draw(st.lists(st.integers(0, len(source)), max_size=6))
    run_every_feature(source, offsets, CATALOGS)


test_features_never_raise, test_features_never_raise_full_count = quick_and_full(
    _features_never_raise,
    source=TEXT,
    data=st.data(),
    quick=200,
    full=800,
    deadline=None,
)


@settings(max_examples=200, deadline=None)
@given(
    edits=st.lists(st.tuples(st.integers(0, 200), st.integers(0, 8), TEXT), max_size=6),
    data=st.data(),
)
def test_features_never_raise_on_edited_sane_source(edits, data):
    source = SEED
    for start, length, text in edits:
        start = min(start, len(source))
        source = source[:start] + text + source[start + length :]
    offsets = data.draw(st.lists(st.integers(0, len(source)), max_size=6))
    run_every_feature(source, offsets, CATALOGS)
