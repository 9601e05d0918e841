"""The one hand-over between versions (`analysis/reuse.py`)."""

from __future__ import annotations

import json

from octoscript_lsp.analysis.document import TEXT_REGIONS, DocumentAnalysis
from octoscript_lsp.analysis.reuse import Reuse
from octoscript_lsp.features import semantic_tokens, symbols
from octoscript_lsp.features.positions import PositionMap
from octoscript_lsp.syntax.statements import EMPTY_MEMO, carried_values


def test_a_view_reaches_every_later_version_until_one_builds_its_own():
    first = Reuse()
    first.advance(None)
    first.hand_on("view", "one")
    second = Reuse(first)
    second.advance(None)
    assert second.earlier("view", None) == "one"
    third = Reuse(second)  # the second version never built it
    third.advance(None)
    assert third.earlier("view", None) == "one"
    third.hand_on("view", "three")
    assert third.earlier("view", None) == "one"  # this version still reads the earlier one
    assert Reuse(third).earlier("view", None) == "three"


def test_a_once_view_reaches_only_the_next_version_and_is_taken_once():
    first = Reuse()
    first.hand_on_once("index", "one")
    second = Reuse(first)
    assert Reuse(second).take_once("index") is None
    assert second.take_once("index") == "one"
    assert second.take_once("index") is None
    assert Reuse(first).take_once("index") == "one"  # each successor has its own


def test_statement_memos_are_advanced_and_caches_shared():
    first = Reuse()
    first.advance(None)
    first.hand_on("memo", EMPTY_MEMO)
    cache = first.shared("cache", dict)
    second = Reuse(first)
    second.advance(None)
    assert second.earlier("memo", None) == EMPTY_MEMO.advanced(None)
    assert second.shared("cache", dict) is cache


def test_analyses_hand_on_through_reuse_only():
    text = "let a = 1\nlet b = 2\nlet c = a\n"
    first = DocumentAnalysis(text, 1)
    regions = first.regions
    semantic_tokens.full_wire(first, True)
    outline = symbols.document_symbols(first, PositionMap(text))
    edited = text.replace("2", "22")
    second = DocumentAnalysis(edited, 2, first)
    # The string and comment regions are this version's own, read from its text alone.
    assert second.reuse.earlier(TEXT_REGIONS, None) is None
    assert second.regions is not regions and second.regions.strings == regions.strings
    # The features' per-statement memos reach it advanced over the parser's
    # map of kept statements: the last statement was kept, the edited one not.
    roles = carried_values(second.reuse.earlier("semantic-token roles", EMPTY_MEMO), 3)
    assert roles[2] is first.reuse.left("semantic-token roles").found[2][1]
    assert roles[1] is None
    rendering = carried_values(second.reuse.earlier("outline rendering", EMPTY_MEMO), 3)
    assert rendering[2] is not None and json.loads(f"[{rendering[2].text}]") == [outline[2]]
    assert rendering[1] is None
    assert DocumentAnalysis(edited, 2).reuse.earlier("semantic-token roles", None) is None
