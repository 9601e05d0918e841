"""textDocument/documentSymbol: top-level `fn` and `let` only.

Answers are built as JSON-ready dicts (a large outline built from lsprotocol
classes spends most of its time in attrs validation and cattrs
unstructuring), and the server sends them as finished JSON text rendered
once per top-level statement and reused by later versions while the
statement keeps its first line and the text before it on that line (an
edit on an earlier line that adds no line break moves it but changes
nothing shown; see docs/performance.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..syntax.outline import Declaration, placed_declarations
from ..syntax.statements import EMPTY_MEMO, StepMap, carried_values, memo_of
from .positions import PositionMap
from .wire import WireList, WireText

_FUNCTION = int(types.SymbolKind.Function)
_VARIABLE = int(types.SymbolKind.Variable)


@dataclass(frozen=True, slots=True)
class _Piece:
    """One top-level statement's entries, rendered for one placement."""

    declarations: tuple[Declaration, ...]
    line: int  # the line of the first declaration
    lead: str  # the text on that line before the first declaration
    entries: tuple[dict, ...]
    text: str  # the entries as JSON array items


# The rendered entries of each top-level statement with declarations, in
# the per-statement memo (`statements.StatementMemo`, advanced over the
# parser's map of kept statements). A statement the parser kept keeps its
# declaration tuple (the outline memo's), and its piece is reused while its
# first line has the same number and the same text before the declaration:
# everything else it shows lies in its statement's own text.
_RENDERING = "outline rendering"


def document_symbols(analysis: DocumentAnalysis, positions: PositionMap) -> WireList:
    """The outline; statements whose rendering holds from an earlier version
    (`analysis.reuse`) are not converted to positions again."""
    pieces = _pieces(analysis, positions)
    return WireList(entry for piece in pieces for entry in piece.entries)


def document_symbols_wire(analysis: DocumentAnalysis, positions: PositionMap) -> WireText:
    """`document_symbols` as JSON text, joined from per-statement texts."""
    pieces = _pieces(analysis, positions)
    return WireText("[" + ",".join([piece.text for piece in pieces]) + "]")


def _pieces(analysis: DocumentAnalysis, positions: PositionMap) -> list[_Piece]:
    syntax = analysis.syntax
    if syntax is None or not syntax.valid:
        return []
    outline = analysis.outline_pieces
    offsets = syntax.parsed.unit_offsets
    # Past the token budget the outline is found without statements: no memo.
    by_statement = syntax.lex.token_limit_offset is None
    memo = (analysis.reuse.left(_RENDERING) or EMPTY_MEMO) if by_statement else EMPTY_MEMO
    carried: list[_Piece | None] = carried_values(memo, len(offsets)) if by_statement else []
    kept: list[_Piece | None] = [None] * len(carried)
    found: list[_Piece] = []
    source = analysis.source
    line_of = positions.line_of
    settled = _Settled(memo.since)
    for anchored in outline:
        offset, origin, declarations, position = anchored
        piece = carried[position] if by_statement else None
        if piece is not None and piece.declarations is declarations and settled.holds(position):
            kept[position] = piece
            found.append(piece)
            continue
        start = declarations[0].start + offset - origin
        line = line_of(start)
        lead = source[line[1] : start]
        if (
            piece is None
            or piece.declarations is not declarations
            or piece.line != line[0]
            or piece.lead != lead
        ):
            placed = placed_declarations(anchored)
            entries = tuple(_entry(item, positions) for item in placed)
            text = ",".join(_entry_text(entry) for entry in entries)
            piece = _Piece(declarations, line[0], lead, entries, text)
        else:
            settled.checked(position)
        if by_statement:
            kept[position] = piece
        found.append(piece)
    if by_statement:
        analysis.reuse.hand_on(_RENDERING, memo_of(offsets, kept))
    return found


class _Settled:
    """Which carried pieces hold without finding their line again.

    A run of statements the parser kept is a stretch of the earlier text
    that is unchanged from its first statement's start to its last
    statement's end, only moved (the parser keeps steps only where the text
    before the edit and after it is the same). So once one carried piece in
    a run is found on its earlier line with the same text before it there,
    nothing in the run moved a line, and every later piece in it has its
    line and the text before it on that line as when it was rendered: text
    of the run, or on the first piece's line, text the first piece's lead
    already compared. Typing inside one statement so finds the lines of a
    piece or two per run, not of every declaration.
    """

    __slots__ = ("kept", "first", "end")

    def __init__(self, kept: StepMap) -> None:
        self.kept = kept
        self.first = self.end = 0  # the settled run's positions [first, end)

    def holds(self, position: int) -> bool:
        return self.first <= position < self.end

    def checked(self, position: int) -> None:
        """The piece carried to `position` was found on its line, with its lead."""
        run = self.kept.run_at(position)
        if run is not None:
            self.first, self.end = run[1], run[1] + run[2]


def _entry(item: Declaration, positions: PositionMap) -> dict:
    wire_range = positions.wire_range
    return {
        "name": item.name,
        "kind": _FUNCTION if item.kind == "function" else _VARIABLE,
        "range": wire_range(item.start, item.end),
        "selectionRange": wire_range(item.selection_start, item.selection_end),
    }


def _entry_text(entry: dict) -> str:
    """An entry as compact JSON (a format string: faster than the encoder here)."""
    return (
        f'{{"name":{json.dumps(entry["name"])},"kind":{entry["kind"]},'
        f'"range":{_range_text(entry["range"])},'
        f'"selectionRange":{_range_text(entry["selectionRange"])}}}'
    )


def _range_text(wire_range: dict) -> str:
    start, end = wire_range["start"], wire_range["end"]
    return (
        f'{{"start":{{"line":{start["line"]},"character":{start["character"]}}},'
        f'"end":{{"line":{end["line"]},"character":{end["character"]}}}}}'
    )
