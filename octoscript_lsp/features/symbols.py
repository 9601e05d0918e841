"""textDocument/documentSymbol and workspace/symbol: top-level `fn` and `let` only.

The answer is JSON text (a large outline built from lsprotocol classes
spends most of its time in attrs validation and cattrs unstructuring). Each
top-level statement's entries are a view of it (`Statement.view`): the
text of its declarations (its outline view) as last rendered. That text
depends on the statement's own text and, for where it lies, only on the
line its first declaration is on and the text before it there
(`_Entries.text`): an edit on an earlier line that adds no line break moves
the statement but changes nothing shown.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..limits import MAX_WORKSPACE_SYMBOLS
from ..syntax.outline import Declaration, placed_declarations
from ..syntax.statements import Statement
from .positions import PositionEncoding, PositionMap
from .wire import WireList, WireText

_FUNCTION = int(types.SymbolKind.Function)
_VARIABLE = int(types.SymbolKind.Variable)
_VIEW = "document symbols"


def document_symbols_wire(analysis: DocumentAnalysis, positions: PositionMap) -> WireText:
    """The outline as JSON text, joined from per-statement texts."""
    return WireText("[" + ",".join(rendered_pieces(analysis, positions)) + "]")


def rendered_pieces(analysis: DocumentAnalysis, positions: PositionMap) -> list[str]:
    """Each top-level statement's entries as JSON array items, in order, for
    the statements with any (`DocumentAnalysis.outline_pieces`, the outline
    view of each statement)."""
    syntax = analysis.syntax
    if syntax is None or not syntax.valid:
        return []
    found, source = syntax.statements, analysis.source
    statements = found.statements
    return [
        statements[found.at(start)]
        .view(_VIEW, _Entries)
        .text(start, declarations, source, positions)
        for start, declarations in analysis.outline_pieces
    ]


class _Entries:
    """One statement's entries as last rendered, and where that was."""

    __slots__ = ("placed", "rendered")

    def __init__(self, statement: Statement) -> None:
        self.placed: tuple[int, str, PositionEncoding] | None = None
        self.rendered = ""

    def text(
        self,
        start: int,
        declarations: tuple[Declaration, ...],
        source: str,
        positions: PositionMap,
    ) -> str:
        """The entries of the statement at `start` (its `declarations`,
        relative to it): rendered again only when its first declaration's
        line, the text before it there or the encoding changed (everything
        else shown lies in its own text)."""
        first = start + declarations[0].start
        line, line_start = positions.line_of(first)
        placed = (line, source[line_start:first], positions.encoding)
        if placed != self.placed:
            self.placed = placed
            self.rendered = ",".join(
                _entry_text(item, positions) for item in placed_declarations((start, declarations))
            )
        return self.rendered


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


# ---------------------------------------------------------------- workspace/symbol

# (name, symbol kind, wire range) of one top-level declaration.
OutlineEntry = tuple[str, int, dict]


def outline_entries(analysis: DocumentAnalysis, positions: PositionMap) -> list[OutlineEntry]:
    """The document's part of the workspace outline; small enough to keep per version."""
    if analysis.syntax is None or not analysis.syntax.valid:
        return []
    return [
        (
            item.name,
            _FUNCTION if item.kind == "function" else _VARIABLE,
            positions.wire_range(item.start, item.end),
        )
        for item in analysis.outline
    ]


def workspace_symbols(documents: Iterable[tuple[str, list[OutlineEntry]]], query: str) -> WireList:
    """Case-insensitive substring match on names, in document then source order."""
    needle = query.casefold()
    found = WireList()
    for uri, entries in documents:
        for name, kind, wire_range in entries:
            if needle and needle not in name.casefold():
                continue
            found.append(
                {"name": name, "kind": kind, "location": {"uri": uri, "range": wire_range}}
            )
            if len(found) == MAX_WORKSPACE_SYMBOLS:
                return found
    return found
