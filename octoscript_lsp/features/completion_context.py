"""What every completion step needs about one request, computed once."""

from __future__ import annotations

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..catalogs.store import CatalogStore
from .positions import PositionMap


class CompletionContext:
    """What every completion step needs, computed once per request."""

    def __init__(
        self,
        analysis: DocumentAnalysis,
        positions: PositionMap,
        offset: int,
        catalogs: CatalogStore,
        prefill: bool = False,
    ) -> None:
        self.analysis = analysis
        # Catalog methods may be inserted with required fields (prefill.py).
        self.prefill = prefill
        self.positions = positions
        self.offset = offset
        self.catalogs = catalogs
        index = analysis.completion_index
        self.lexical_incomplete = index.incomplete
        self.imports_incomplete = index.incomplete or analysis.imports.truncated

    def range(self, start: int, end: int) -> types.Range:
        return self.positions.range(start, end)
