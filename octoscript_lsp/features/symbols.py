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
from operator import attrgetter

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..syntax.outline import Declaration, StatementOutline, placed_declarations
from .positions import PositionMap
from .wire import WireList, WireText

_FUNCTION = int(types.SymbolKind.Function)
_VARIABLE = int(types.SymbolKind.Variable)


@dataclass(frozen=True, slots=True, eq=False)
class RenderedPiece:
    """One top-level statement's entries, rendered for one placement
    (compared by identity: the same piece is the same rendering)."""

    declarations: tuple[Declaration, ...]
    line: int  # the line of the first declaration
    lead: str  # the text on that line before the first declaration
    text: str  # the entries as JSON array items


_TEXT = attrgetter("text")


def document_symbols(analysis: DocumentAnalysis, positions: PositionMap) -> WireList:
    """The outline as JSON-ready dicts: `document_symbols_wire`'s text, read
    back (the text is what the server sends; this form is for callers that
    look inside)."""
    return WireList(json.loads(document_symbols_wire(analysis, positions)))


def document_symbols_wire(analysis: DocumentAnalysis, positions: PositionMap) -> WireText:
    """`document_symbols` as JSON text, joined from per-statement texts."""
    texts = list(map(_TEXT, rendered_pieces(analysis, positions)))
    if not texts:
        return WireText("[]")
    # The brackets go on the first and last texts: the answer is copied once.
    texts[0] = "[" + texts[0]
    texts[-1] += "]"
    return WireText(",".join(texts))


def rendered_pieces(analysis: DocumentAnalysis, positions: PositionMap) -> list[RenderedPiece]:
    """Each top-level statement's rendered entries, in order: the earlier
    version's piece (the very object) where it still holds."""
    syntax = analysis.syntax
    if syntax is None or not syntax.valid:
        return []
    found: list[RenderedPiece] = []
    _Placing(analysis.source, positions).place(analysis.outline_pieces, found, {})
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

    def place(
        self, outline: list[StatementOutline], found: list, rendered: dict[int, RenderedPiece]
    ) -> None:
        """Place entries of statements that carry no piece, one by one."""
        for anchored in outline:
            self.place_one(anchored, None, found, rendered, False)

    def place_one(
        self,
        anchored: StatementOutline,
        piece: RenderedPiece | None,
        found: list,
        rendered: dict[int, RenderedPiece],
        settled: bool,
    ) -> bool:
        """Place one statement's entries, `piece` being the one it carries;
        whether that piece was found on its earlier line with its lead
        (which settles its run)."""
        offset, declarations = anchored
        if piece is not None and piece.declarations is declarations and settled:
            found.append(piece)
            return False
        start = declarations[0].start + offset
        line = self.positions.line_of(start)
        lead = self.source[line[1] : start]
        holds = (
            piece is not None
            and piece.declarations is declarations
            and piece.line == line[0]
            and piece.lead == lead
        )
        if not holds:
            piece = rendered[offset] = self.rendered(anchored, line[0], lead)
        found.append(piece)
        return holds

    def rendered(self, anchored: StatementOutline, line: int, lead: str) -> RenderedPiece:
        """A new piece for a statement whose first declaration is on `line`
        after `lead`."""
        positions = self.positions
        text = ",".join(_entry_text(item, positions) for item in placed_declarations(anchored))
        return RenderedPiece(anchored[1], line, lead, text)


def _entry_text(item: Declaration, positions: PositionMap) -> str:
    """A DocumentSymbol as compact JSON, written straight from the
    declaration (a format string: faster than dicts through the encoder)."""
    kind = _FUNCTION if item.kind == "function" else _VARIABLE
    return (
        f'{{"name":{_name_text(item.name)},"kind":{kind},'
        f'"range":{_range_text(positions, item.start, item.end)},'
        f'"selectionRange":{_range_text(positions, item.selection_start, item.selection_end)}}}'
    )


def _name_text(name: str) -> str:
    """A name as a JSON string: an ASCII identifier holds nothing the encoder
    would escape, so it is only quoted."""
    if name.isascii() and name.isidentifier():
        return f'"{name}"'
    return json.dumps(name)


def _range_text(positions: PositionMap, start: int, end: int) -> str:
    start_line, start_character, end_line, end_character = positions.span_lines_and_columns(
        start, end
    )
    return (
        f'{{"start":{{"line":{start_line},"character":{start_character}}},'
        f'"end":{{"line":{end_line},"character":{end_character}}}}}'
    )
