"""What every completion step needs about one request, and the items they build."""

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


def item(
    label: str,
    kind: int,
    edit_range: types.Range,
    detail: str | None = None,
    documentation: str | None = None,
) -> types.CompletionItem:
    """An item replacing `edit_range` by its label; documentation in plain text."""
    return types.CompletionItem(
        label=label,
        kind=types.CompletionItemKind(kind),
        detail=detail,
        documentation=(
            types.MarkupContent(kind=types.MarkupKind.PlainText, value=documentation)
            if documentation
            else None
        ),
        text_edit=types.TextEdit(range=edit_range, new_text=label),
    )


def answer(
    items: list[types.CompletionItem], incomplete: bool, by_label: bool = True
) -> types.CompletionList:
    """The list of `items`, sorted by label unless they come in their order already."""
    if by_label:
        items = sorted(items, key=lambda entry: entry.label)
    return types.CompletionList(is_incomplete=incomplete, items=items)


def nothing(incomplete: bool) -> types.CompletionList:
    return types.CompletionList(is_incomplete=incomplete, items=[])
