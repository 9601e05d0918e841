"""Definition, references and document highlights."""

from __future__ import annotations

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..analysis.lexical import Symbol
from ..analysis.resolution import StaticRecordField
from ..analysis.site_resolution import (
    INDEX_INCOMPLETE,
    INDEX_REFUSAL,
    BindingOccurrence,
    Member,
    Request,
    resolve_binding,
    resolve_site,
)
from .positions import PositionMap


class IndexTruncated(Exception):
    """The lexical index is truncated: an exhaustive answer would be partial."""


def definition(
    analysis: DocumentAnalysis, positions: PositionMap, uri: str, offset: int | None, catalogs
) -> types.Location | None:
    match resolve_site(analysis, offset, catalogs, Request.DEFINITION):
        case Member(meaning=StaticRecordField(field=field)):
            # The one member with a place in the document: the literal's key.
            start, end = field.span
        case BindingOccurrence(occurrence=occurrence):
            start, end = occurrence.symbol.start, occurrence.symbol.end
        case _:
            return None
    return types.Location(uri=uri, range=positions.range(start, end))


def bound_symbol(analysis: DocumentAnalysis, offset: int | None, request: Request) -> Symbol | None:
    """The binding the classifier gives `request` (references or highlights),
    or the refusal of a truncated index."""
    found = resolve_binding(analysis, offset, request)
    if found is INDEX_INCOMPLETE:
        raise IndexTruncated(INDEX_REFUSAL)
    return found.occurrence.symbol if isinstance(found, BindingOccurrence) else None


def references(
    analysis: DocumentAnalysis,
    positions: PositionMap,
    uri: str,
    offset: int | None,
    include_declaration: bool,
) -> list[types.Location]:
    symbol = bound_symbol(analysis, offset, Request.REFERENCES)
    if symbol is None:
        return []
    spans = symbol.occurrences() if include_declaration else symbol.references
    return [types.Location(uri=uri, range=positions.range(start, end)) for start, end in spans]


def highlights(
    analysis: DocumentAnalysis, positions: PositionMap, offset: int | None
) -> list[types.DocumentHighlight]:
    symbol = bound_symbol(analysis, offset, Request.HIGHLIGHT)
    if symbol is None:
        return []
    return [
        types.DocumentHighlight(
            range=positions.range(start, end), kind=types.DocumentHighlightKind.Text
        )
        for start, end in symbol.occurrences()
    ]
