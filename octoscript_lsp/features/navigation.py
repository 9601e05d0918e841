"""Definition, references, document highlights and rename: the binding at the
cursor, as the site classifier gives it. A rename is validated by
re-analysing the renamed text."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..analysis.lexical import Occurrence, Symbol
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
from ..analysis.statement_index import StatementIndex
from ..limits import MAX_SOURCE_BYTES
from ..syntax.text import is_canonical_identifier
from ..syntax.tree import SymbolKind
from .positions import PositionMap


class Refused(Exception):
    """An exhaustive answer would be partial (the lexical index is truncated)
    or a rename unsafe; the server answers RequestFailed."""


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


def _occurrence(
    analysis: DocumentAnalysis, offset: int | None, request: Request
) -> Occurrence | None:
    """The occurrence the classifier gives `request`, or the refusal of a truncated index."""
    found = resolve_binding(analysis, offset, request)
    if found is INDEX_INCOMPLETE:
        raise Refused(INDEX_REFUSAL)
    return found.occurrence if isinstance(found, BindingOccurrence) else None


def references(
    analysis: DocumentAnalysis,
    positions: PositionMap,
    uri: str,
    offset: int | None,
    include_declaration: bool,
) -> list[types.Location]:
    found = _occurrence(analysis, offset, Request.REFERENCES)
    if found is None:
        return []
    symbol = found.symbol
    spans = symbol.occurrences() if include_declaration else symbol.references
    return [types.Location(uri=uri, range=positions.range(start, end)) for start, end in spans]


def highlights(
    analysis: DocumentAnalysis, positions: PositionMap, offset: int | None
) -> list[types.DocumentHighlight]:
    found = _occurrence(analysis, offset, Request.HIGHLIGHT)
    if found is None:
        return []
    return [
        types.DocumentHighlight(
            range=positions.range(start, end), kind=types.DocumentHighlightKind.Text
        )
        for start, end in found.symbol.occurrences()
    ]


def prepare_rename(
    analysis: DocumentAnalysis, positions: PositionMap, offset: int | None
) -> types.PrepareRenamePlaceholder | None:
    found = _occurrence(analysis, offset, Request.RENAME)
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
    found = _occurrence(analysis, offset, Request.RENAME)
    if found is None:
        return None
    symbol = found.symbol
    if symbol.kind is SymbolKind.IMPORT:
        raise Refused("an import binding cannot be renamed without changing its module path")
    if new_name == symbol.name:
        return None
    if len(new_name) > MAX_SOURCE_BYTES or not is_canonical_identifier(new_name):
        raise Refused("the new name is not a non-reserved canonical identifier")
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
        parts += (source[cursor:start], new_name)
        cursor = end
    return "".join(parts) + source[cursor:]


def _validate(
    old: StatementIndex,
    renamed_source: str,
    renamed: Symbol,
    spans: list[tuple[int, int]],
    new_name: str,
) -> None:
    delta = len(new_name) - len(renamed.name)
    if len(renamed_source.encode("utf-8", "surrogatepass")) > MAX_SOURCE_BYTES:
        raise Refused("the renamed document would exceed the source limit")
    result = DocumentAnalysis(renamed_source)
    if not result.valid:
        raise Refused("the rename does not produce canonical Octoscript source")
    starts = [start for start, _ in spans]

    def moved(offset: int) -> int:
        return offset + bisect_left(starts, offset) * delta

    expected = [
        _signature(symbol, moved, new_name if symbol is renamed else None) for symbol in old.symbols
    ]
    actual = [_signature(symbol) for symbol in result.lexical.symbols]
    if result.lexical.truncated != old.truncated or expected != actual:
        raise Refused("the rename would change how names resolve")


def _signature(
    symbol: Symbol, moved: Callable[[int], int] | None = None, new_name: str | None = None
) -> tuple:
    """What a rename keeps of a binding: kind, name, spans and visibility, the
    offsets `moved` into the renamed text (`new_name`: the renamed binding)."""
    moved = moved or (lambda offset: offset)

    def span(start: int, end: int) -> tuple[int, int]:
        return moved(start), moved(start) + (end - start if new_name is None else len(new_name))

    return (
        symbol.kind,
        new_name or symbol.name,
        span(symbol.start, symbol.end),
        tuple(span(start, end) for start, end in symbol.references),
        moved(symbol.visible_start),
        moved(symbol.visible_end),
    )
