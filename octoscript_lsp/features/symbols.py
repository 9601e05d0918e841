"""textDocument/documentSymbol: top-level `fn` and `let` only."""

from __future__ import annotations

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..syntax.outline import top_level_declarations
from .positions import PositionMap


def document_symbols(
    analysis: DocumentAnalysis, positions: PositionMap
) -> list[types.DocumentSymbol]:
    syntax = analysis.syntax
    if syntax is None or not syntax.valid:
        return []
    symbols = []
    for item in top_level_declarations(syntax.tokens):
        kind = types.SymbolKind.Function if item.kind == "function" else types.SymbolKind.Variable
        symbols.append(
            types.DocumentSymbol(
                name=item.name,
                kind=kind,
                range=positions.range(item.start, item.end),
                selection_range=positions.range(item.selection_start, item.selection_end),
            )
        )
    return symbols
