"""textDocument/documentSymbol: top-level `fn` and `let` only.

Answers are plain JSON-ready dicts: a large outline built from lsprotocol
classes spends most of its time in attrs validation and cattrs
unstructuring, which dicts skip entirely (see docs/performance.md).
"""

from __future__ import annotations

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..syntax.outline import top_level_declarations
from .positions import PositionMap
from .wire import WireList

_FUNCTION = int(types.SymbolKind.Function)
_VARIABLE = int(types.SymbolKind.Variable)


def document_symbols(analysis: DocumentAnalysis, positions: PositionMap) -> WireList:
    syntax = analysis.syntax
    if syntax is None or not syntax.valid:
        return WireList()
    wire_range = positions.wire_range
    return WireList(
        {
            "name": item.name,
            "kind": _FUNCTION if item.kind == "function" else _VARIABLE,
            "range": wire_range(item.start, item.end),
            "selectionRange": wire_range(item.selection_start, item.selection_end),
        }
        for item in top_level_declarations(syntax.tokens)
    )
