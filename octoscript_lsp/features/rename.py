"""prepareRename and rename, validated by re-analysing the renamed text."""

from __future__ import annotations

from bisect import bisect_left

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..analysis.lexical import Occurrence, Symbol
from ..analysis.site_resolution import (
    INDEX_INCOMPLETE,
    INDEX_REFUSAL,
    BindingOccurrence,
    Request,
    resolve_binding,
)
from ..analysis.statement_index import StatementIndex
from ..limits import MAX_SOURCE_BYTES
from ..syntax.text import is_canonical_identifier
from ..syntax.tree import SymbolKind
from .positions import PositionMap


class RenameRefused(Exception):
    """The rename is not safe or not possible; the server answers RequestFailed."""


def _occurrence(analysis: DocumentAnalysis, offset: int | None) -> Occurrence | None:
    """The occurrence the classifier gives rename, or its refusal of a truncated index."""
    found = resolve_binding(analysis, offset, Request.RENAME)
    if found is INDEX_INCOMPLETE:
        raise RenameRefused(INDEX_REFUSAL)
    return found.occurrence if isinstance(found, BindingOccurrence) else None


def prepare_rename(
    analysis: DocumentAnalysis, positions: PositionMap, offset: int | None
) -> types.PrepareRenamePlaceholder | None:
    found = _occurrence(analysis, offset)
    if found is None or found.symbol.kind is SymbolKind.IMPORT:
        return None
    return types.PrepareRenamePlaceholder(
        range=positions.range(found.start, found.end), placeholder=found.symbol.name
    )


def rename(
    analysis: DocumentAnalysis,
    positions: PositionMap,
    uri: str,
    version: int | None,
    offset: int | None,
    new_name: str,
) -> types.WorkspaceEdit | None:
    found = _occurrence(analysis, offset)
    if found is None:
        return None
    symbol = found.symbol
    if symbol.kind is SymbolKind.IMPORT:
        raise RenameRefused("an import binding cannot be renamed without changing its module path")
    if new_name == symbol.name:
        return None
    if len(new_name) > MAX_SOURCE_BYTES or not is_canonical_identifier(new_name):
        raise RenameRefused("the new name is not a non-reserved canonical identifier")
    spans = sorted(set(symbol.occurrences()))
    renamed = _rewrite(analysis.source, spans, new_name)
    _validate(analysis.lexical, renamed, symbol, spans, new_name)
    edits = [
        types.TextEdit(range=positions.range(start, end), new_text=new_name) for start, end in spans
    ]
    return types.WorkspaceEdit(
        document_changes=[
            types.TextDocumentEdit(
                text_document=types.OptionalVersionedTextDocumentIdentifier(
                    uri=uri, version=version
                ),
                edits=edits,
            )
        ]
    )


def _rewrite(source: str, spans: list[tuple[int, int]], new_name: str) -> str:
    parts = []
    cursor = 0
    for start, end in spans:
        parts.append(source[cursor:start])
        parts.append(new_name)
        cursor = end
    parts.append(source[cursor:])
    return "".join(parts)


def _validate(
    old: StatementIndex,
    renamed_source: str,
    renamed: Symbol,
    spans: list[tuple[int, int]],
    new_name: str,
) -> None:
    delta = len(new_name) - len(renamed.name)
    if len(renamed_source.encode("utf-8", "surrogatepass")) > MAX_SOURCE_BYTES:
        raise RenameRefused("the renamed document would exceed the source limit")
    result = DocumentAnalysis(renamed_source)
    if not result.valid:
        raise RenameRefused("the rename does not produce canonical Octoscript source")
    starts = [start for start, _ in spans]

    def shift(offset: int) -> int:
        return offset + bisect_left(starts, offset) * delta

    expected = [_remapped(symbol, symbol is renamed, new_name, shift) for symbol in old.symbols]
    actual = [_signature(symbol) for symbol in result.lexical.symbols]
    if result.lexical.truncated != old.truncated or expected != actual:
        raise RenameRefused("the rename would change how names resolve")


def _signature(symbol: Symbol) -> tuple:
    return (
        symbol.kind,
        symbol.name,
        symbol.start,
        symbol.end,
        tuple(symbol.references),
        symbol.visible_start,
        symbol.visible_end,
    )


def _remapped(symbol: Symbol, is_renamed: bool, new_name: str, shift) -> tuple:
    name = new_name if is_renamed else symbol.name

    def span(start: int, end: int) -> tuple[int, int]:
        new_start = shift(start)
        return (new_start, new_start + (len(new_name) if is_renamed else end - start))

    references = tuple(span(start, end) for start, end in symbol.references)
    start, end = span(symbol.start, symbol.end)
    return (
        symbol.kind,
        name,
        start,
        end,
        references,
        shift(symbol.visible_start),
        shift(symbol.visible_end),
    )
