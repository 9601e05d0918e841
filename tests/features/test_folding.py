"""Folding ranges and selection ranges."""

from __future__ import annotations

from lsprotocol import types

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.features.folding import folding_ranges, selection_ranges
from octoscript_lsp.features.positions import PositionMap

REGION = types.FoldingRangeKind.Region
COMMENT = types.FoldingRangeKind.Comment

SOURCE = """// one
// two
fn add(a, b) {
  let r = {
    x: a,
    y: b
  }
  /* long
     comment */
  return r.x + b
}
// lone
let g = f(|x| {
  x
})
"""


def folds(source: str) -> list[tuple[int, int, types.FoldingRangeKind | str | None]]:
    return [
        (item.start_line, item.end_line, item.kind)
        for item in folding_ranges(DocumentAnalysis(source))
    ]


def test_blocks_records_calls_and_comments() -> None:
    assert folds(SOURCE) == [
        (0, 1, COMMENT),
        (2, 9, REGION),
        (3, 5, REGION),
        (7, 8, COMMENT),
        (12, 13, REGION),
    ]


def test_single_line_constructs_do_not_fold() -> None:
    assert folds("fn f() {\n}\nlet r = {a: 1}\n// c\n") == []


def test_trailing_comments_do_not_join_a_run() -> None:
    assert folds("let a = 1 // x\n// y\nlet b = 2\n") == []


def test_broken_source_still_folds() -> None:
    assert folds("fn f() {\n  let x = \n  1\n}\n") == [(0, 2, REGION)]


def test_too_large_source_has_no_folds() -> None:
    assert folding_ranges(DocumentAnalysis("x" * (300 * 1024))) == []


def chain(source: str, offset: int) -> list[str]:
    positions = PositionMap(source)
    (selection,) = selection_ranges(DocumentAnalysis(source), positions, [offset])
    spans = []
    current: types.SelectionRange | None = selection
    while current is not None:
        start = positions.offset(current.range.start)
        end = positions.offset(current.range.end)
        spans.append(source[start:end])
        current = current.parent
    return spans


def test_selection_from_token_to_program() -> None:
    offset = SOURCE.index("r.x") + 2
    block = SOURCE[SOURCE.index("{\n  let r") : SOURCE.index("// lone") - 1]
    assert chain(SOURCE, offset) == [
        "x",
        "r.x",
        "r.x + b",
        "return r.x + b",
        block,
        "fn add(a, b) " + block,
        SOURCE,
    ]


def test_selection_at_word_end_prefers_the_word() -> None:
    source = "let total = add(1)\n"
    assert chain(source, source.index("add") + 3) == [
        "add",
        "add(1)",
        "let total = add(1)",
        source,
    ]


def test_selection_inside_a_comment() -> None:
    source = "let a = 1 // note\n"
    assert chain(source, source.index("note")) == ["// note", source]


def test_one_selection_per_offset() -> None:
    source = "let a = [1, 2]\n"
    analysis = DocumentAnalysis(source)
    result = selection_ranges(analysis, PositionMap(source), [0, 9, 12])
    assert len(result) == 3
    assert result[1].range.start.character == 9
    assert result[1].parent is not None
    assert result[1].parent.range.start.character == 8
