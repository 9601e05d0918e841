"""workspace/symbol: top-level declarations of the open documents."""

from __future__ import annotations

from collections.abc import Iterable

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..limits import MAX_WORKSPACE_SYMBOLS
from .positions import PositionMap
from .wire import WireList

_FUNCTION = int(types.SymbolKind.Function)
_VARIABLE = int(types.SymbolKind.Variable)

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
