"""textDocument/documentSymbol: top-level `fn` and `let` only.

Answers are plain JSON-ready dicts: a large outline built from lsprotocol
classes spends most of its time in attrs validation and cattrs
unstructuring, which dicts skip entirely (see docs/performance.md).
"""

from __future__ import annotations

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..syntax.outline import Declaration
from .positions import PositionMap
from .wire import WireList

_FUNCTION = int(types.SymbolKind.Function)
_VARIABLE = int(types.SymbolKind.Variable)


# Rendered entries of the previous answer, by declaration: reused while the
# declaration is the same object on the same line, that line starting at the
# same offset with the same text before it (a declaration's range lies in
# its own statement, whose text is then unchanged too).
SymbolRendering = dict[int, tuple[Declaration, tuple[int, int], str, dict]]


def document_symbols(
    analysis: DocumentAnalysis, positions: PositionMap, rendered: SymbolRendering | None = None
) -> WireList:
    """The outline; `rendered` (kept by the caller between versions) is read and
    refreshed so unmoved declarations are not converted to positions again."""
    syntax = analysis.syntax
    if syntax is None or not syntax.valid:
        return WireList()
    previous = dict(rendered) if rendered is not None else {}
    fresh: SymbolRendering = {}
    answer = WireList()
    for item in analysis.outline:
        line = positions.line_of(item.start)
        lead = analysis.source[line[1] : item.start]
        known = previous.get(id(item))
        if known is not None and known[0] is item and known[1] == line and known[2] == lead:
            entry = known[3]
        else:
            entry = _entry(item, positions)
        fresh[id(item)] = (item, line, lead, entry)
        answer.append(entry)
    if rendered is not None:
        rendered.clear()
        rendered.update(fresh)
    return answer


def _entry(item: Declaration, positions: PositionMap) -> dict:
    wire_range = positions.wire_range
    return {
        "name": item.name,
        "kind": _FUNCTION if item.kind == "function" else _VARIABLE,
        "range": wire_range(item.start, item.end),
        "selectionRange": wire_range(item.selection_start, item.selection_end),
    }
