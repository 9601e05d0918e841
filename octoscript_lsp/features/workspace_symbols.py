"""workspace/symbol: top-level declarations of the open documents."""

from __future__ import annotations

from collections.abc import Iterable

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..syntax.outline import top_level_declarations
from .positions import PositionMap

MAX_WORKSPACE_SYMBOLS = 256


def workspace_symbols(
    documents: Iterable[tuple[str, DocumentAnalysis, PositionMap]], query: str
) -> list[types.SymbolInformation]:
    """Case-insensitive substring match on names, in document then source order."""
    needle = query.casefold()
    found: list[types.SymbolInformation] = []
    for uri, analysis, positions in documents:
        if analysis.syntax is None or not analysis.syntax.valid:
            continue
        for item in top_level_declarations(analysis.syntax.tokens):
            if needle and needle not in item.name.casefold():
                continue
            kind = (
                types.SymbolKind.Function if item.kind == "function" else types.SymbolKind.Variable
            )
            found.append(
                types.SymbolInformation(
                    name=item.name,
                    kind=kind,
                    location=types.Location(
                        uri=uri, range=positions.range(item.start, item.end)
                    ),
                )
            )
            if len(found) == MAX_WORKSPACE_SYMBOLS:
                return found
    return found
