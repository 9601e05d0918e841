"""textDocument/hover: renders the site classifier's value
(`analysis/site_resolution.resolve_site`): a member, an input-record key or a
binding."""

from __future__ import annotations

from lsprotocol import types

from ..analysis import surfaces
from ..analysis.document import DocumentAnalysis
from ..analysis.lexical import KIND_LABELS, Occurrence
from ..analysis.resolution import (
    CallOutputField,
    CatalogMember,
    MemberResolution,
    StaticRecordField,
    StdModuleMember,
    StdNamespaceChild,
    WorkflowDataField,
)
from ..analysis.signatures import NAMED_FUNCTION_NOTE, function_parameters
from ..analysis.site_resolution import BindingOccurrence, InputKey, Member, Request, resolve_site
from ..analysis.sites import MemberSite
from ..catalogs.store import CatalogStore
from ..syntax.tree import SymbolKind
from . import catalog_assist as assist
from .positions import PositionMap


def _plain(text: str, edit_range: types.Range) -> types.Hover:
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.PlainText, value=text),
        range=edit_range,
    )


def hover(
    analysis: DocumentAnalysis, positions: PositionMap, offset: int | None, catalogs: CatalogStore
) -> types.Hover | None:
    if offset is None or analysis.syntax is None:
        return None
    match resolve_site(analysis, offset, catalogs, Request.HOVER):
        case Member(site=site, meaning=meaning):
            text = _member_text(analysis, site, meaning)
            if text is None:
                return None
            return _plain(text, positions.range(site.member_start, site.member_end))
        case InputKey(site=site, field=field) if field is not None:
            return _plain(
                assist.record_field_text(field, "Module input"), positions.range(*site.field)
            )
        case BindingOccurrence(occurrence=occurrence):
            text = _binding_text(analysis, occurrence)
            return _plain(text, positions.range(occurrence.start, occurrence.end))
    return None


def _binding_text(analysis: DocumentAnalysis, occurrence: Occurrence) -> str:
    symbol = occurrence.symbol
    if symbol.kind is SymbolKind.IMPORT and not analysis.lexical.truncated:
        # As in the reference, the name is resolved again at the occurrence, so
        # the import's own binding (not yet visible there) gets the plain hover.
        record = analysis.visible_import(occurrence.start, occurrence.end)
        if record is not None and record.path == surfaces.ASSERT.path:
            return surfaces.assert_documentation(symbol.name)
    if symbol.kind is SymbolKind.FUNCTION:
        header = function_parameters(analysis.source, symbol.end, analysis.metadata_prefix_end)
        if header is not None:
            return f"{symbol.name}({', '.join(header)})\n\n{NAMED_FUNCTION_NOTE}"
    return f"({KIND_LABELS[symbol.kind]}) {symbol.name}"


def _member_text(
    analysis: DocumentAnalysis, site: MemberSite, resolution: MemberResolution
) -> str | None:
    """What a member's hover says; None to answer nothing (a name the std
    module or namespace has not)."""
    match resolution:
        case WorkflowDataField(field=field, role=role):
            return assist.workflow_field_text(field, role)
        case StaticRecordField(field=field):
            return f"(static record field) {field.name}"
        case StdModuleMember(module=module, member=member) if member is not None:
            receiver = analysis.source[site.receiver[0] : site.receiver[1]]
            return module.member_documentation(member, receiver)
        case StdNamespaceChild(child=child) if child is not None:
            return child.documentation
        case CallOutputField(field=field):
            return assist.record_field_text(field, "Module output")
        case CatalogMember(descriptor=module):
            return assist.leaf_text(module)
    return None  # the site classifier passes on members hover does not show
