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
from bisect import bisect_left
from dataclasses import dataclass
from operator import attrgetter, is_, itemgetter

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..syntax.outline import AnchoredDeclarations, Declaration, placed_declarations
from ..syntax.statements import EMPTY_MEMO, carried_values, memo_of
from .positions import PositionMap
from .wire import WireList, WireText

_FUNCTION = int(types.SymbolKind.Function)
_VARIABLE = int(types.SymbolKind.Variable)


@dataclass(frozen=True, slots=True, eq=False)
class _Piece:
    """One top-level statement's entries, rendered for one placement
    (compared by identity: the same piece is the same rendering)."""

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

_POSITION = itemgetter(3)  # of an `AnchoredDeclarations`
_DECLARATIONS = itemgetter(2)  # of an `AnchoredDeclarations`
_PIECE_DECLARATIONS = attrgetter("declarations")
_TEXT = attrgetter("text")


def document_symbols(analysis: DocumentAnalysis, positions: PositionMap) -> WireList:
    """The outline; statements whose rendering holds from an earlier version
    (`analysis.reuse`) are not converted to positions again."""
    pieces = _pieces(analysis, positions)
    return WireList(entry for piece in pieces for entry in piece.entries)


def document_symbols_wire(analysis: DocumentAnalysis, positions: PositionMap) -> WireText:
    """`document_symbols` as JSON text, joined from per-statement texts."""
    pieces = _pieces(analysis, positions)
    return WireText("[" + ",".join(map(_TEXT, pieces)) + "]")


def _pieces(analysis: DocumentAnalysis, positions: PositionMap) -> list[_Piece]:
    syntax = analysis.syntax
    if syntax is None or not syntax.valid:
        return []
    outline = analysis.outline_pieces
    placing = _Placing(analysis.source, positions)
    if syntax.lex.token_limit_offset is not None:
        # Past the token budget the outline is found without statements: no memo.
        return [placing.rendered(anchored) for anchored in outline]
    offsets = syntax.parsed.unit_offsets
    memo = analysis.reuse.left(_RENDERING) or EMPTY_MEMO
    # Per statement: its carried piece until it is placed, then its piece now.
    pieces: list = carried_values(memo, len(offsets))
    found: list[_Piece] = []
    done = 0  # outline entries placed so far
    for _, new_first, run_count, _ in memo.since.runs:
        low = bisect_left(outline, new_first, done, key=_POSITION)
        high = bisect_left(outline, new_first + run_count, low, key=_POSITION)
        placing.place(outline[done:low], pieces, found, False)  # nothing carried there
        placing.place_run(outline[low:high], pieces, found)
        done = high
    placing.place(outline[done:], pieces, found, False)
    analysis.reuse.hand_on(_RENDERING, memo_of(offsets, pieces))
    return found


class _Placing:
    """One version's outline pieces: carried ones taken where they hold,
    the others rendered.

    A run of statements the parser kept (`StepMap`) is a stretch of the
    earlier text that is unchanged from its first statement's start to its
    last statement's end, only moved (the parser keeps steps only where the
    text before the edit and after it is the same). So once one carried
    piece in a run is found on its earlier line with the same text before
    it there, nothing in the run moved a line, and every later piece in it
    has its line and the text before it on that line as when it was
    rendered: text of the run, or on the first piece's line, text the first
    piece's lead already compared. The run is settled then: its later
    pieces that carry the statement's declaration tuple are taken as they
    are, all at once. Typing inside one statement so finds the lines of a
    piece or two per run, not of every declaration.
    """

    __slots__ = ("source", "positions")

    def __init__(self, source: str, positions: PositionMap) -> None:
        self.source, self.positions = source, positions

    def place_run(self, outline: list[AnchoredDeclarations], pieces: list, found: list) -> None:
        """Place the entries of statements of one kept run, in order."""
        for index, anchored in enumerate(outline):
            if self.place_one(anchored, pieces, found, False):
                rest = outline[index + 1 :]
                carried = list(map(pieces.__getitem__, map(_POSITION, rest)))
                if None not in carried and all(
                    map(is_, map(_PIECE_DECLARATIONS, carried), map(_DECLARATIONS, rest))
                ):
                    found += carried  # `pieces` holds them already
                else:
                    self.place(rest, pieces, found, True)
                return

    def place(
        self, outline: list[AnchoredDeclarations], pieces: list, found: list, settled: bool
    ) -> None:
        """Place entries one by one (`settled`: their run is settled)."""
        for anchored in outline:
            self.place_one(anchored, pieces, found, settled)

    def place_one(
        self, anchored: AnchoredDeclarations, pieces: list, found: list, settled: bool
    ) -> bool:
        """Place one statement's entries; whether its carried piece was found
        on its earlier line with its lead (which settles its run)."""
        offset, origin, declarations, position = anchored
        piece = pieces[position]
        if piece is not None and piece.declarations is declarations and settled:
            found.append(piece)
            return False
        start = declarations[0].start + offset - origin
        line = self.positions.line_of(start)
        lead = self.source[line[1] : start]
        holds = (
            piece is not None
            and piece.declarations is declarations
            and piece.line == line[0]
            and piece.lead == lead
        )
        if not holds:
            piece = pieces[position] = self.rendered(anchored, line[0], lead)
        found.append(piece)
        return holds

    def rendered(
        self, anchored: AnchoredDeclarations, line: int | None = None, lead: str = ""
    ) -> _Piece:
        """A new piece for a statement whose first declaration is on `line`
        after `lead` (None: not kept, as past the token budget)."""
        positions = self.positions
        entries = tuple(_entry(item, positions) for item in placed_declarations(anchored))
        text = ",".join(_entry_text(entry) for entry in entries)
        return _Piece(anchored[2], -1 if line is None else line, lead, entries, text)


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
        f'{{"name":{_name_text(entry["name"])},"kind":{entry["kind"]},'
        f'"range":{_range_text(entry["range"])},'
        f'"selectionRange":{_range_text(entry["selectionRange"])}}}'
    )


def _name_text(name: str) -> str:
    """A name as a JSON string: an ASCII identifier holds nothing the encoder
    would escape, so it is only quoted."""
    if name.isascii() and name.isidentifier():
        return f'"{name}"'
    return json.dumps(name)


def _range_text(wire_range: dict) -> str:
    start, end = wire_range["start"], wire_range["end"]
    return (
        f'{{"start":{{"line":{start["line"]},"character":{start["character"]}}},'
        f'"end":{{"line":{end["line"]},"character":{end["character"]}}}}}'
    )
