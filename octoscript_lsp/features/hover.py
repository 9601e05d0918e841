"""textDocument/hover: member sites first (rendering `analysis/resolution`'s
classification), then input-record keys, then bindings."""

from __future__ import annotations

from lsprotocol import types

from ..analysis import surfaces
from ..analysis.document import DocumentAnalysis
from ..analysis.resolution import (
    CallOutputField,
    CatalogMember,
    MemberResolution,
    Purpose,
    StaticRecordField,
    StdModuleMember,
    StdNamespaceChild,
    WorkflowData,
    resolve_member,
)
from ..analysis.sites import MemberSite, member_site
from ..syntax.tree import SymbolKind
from . import catalog_assist as assist
from . import catalog_hover
from .catalog_assist import Catalogs
from .navigation import binding_hover
from .positions import PositionMap


def _plain(text: str, edit_range: types.Range) -> types.Hover:
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.PlainText, value=text),
        range=edit_range,
    )


class _NoHover(Exception):
    """A site that claims the position but has nothing to show (stop, answer null)."""


def hover(
    analysis: DocumentAnalysis, positions: PositionMap, offset: int | None, catalogs: Catalogs
) -> types.Hover | None:
    if offset is None or analysis.syntax is None:
        return None
    # Gated on the navigation index, as in the reference: invalid source has
    # an empty (never truncated) one, so member hovers are still tried there.
    if not analysis.lexical.truncated:
        try:
            found = _member_hover(analysis, positions, offset, catalogs)
        except _NoHover:
            return None
        if found is not None:
            return found
        found = catalog_hover.input_key_hover(analysis, offset, catalogs)
        if found is not None:
            return found
    occurrence = analysis.lexical.occurrence_at(offset)
    if occurrence is None:
        return None
    symbol = occurrence.symbol
    if symbol.kind is SymbolKind.IMPORT and not analysis.lexical.truncated:
        # As in the reference, the name is resolved again at the occurrence, so
        # the import's own binding (not yet visible there) gets the plain hover.
        record = analysis.visible_import(occurrence.start, occurrence.end)
        if record is not None and record.path == surfaces.ASSERT.path:
            return _plain(
                surfaces.assert_documentation(symbol.name),
                positions.range(occurrence.start, occurrence.end),
            )
    return binding_hover(analysis, positions, occurrence)


def _member_hover(
    analysis: DocumentAnalysis, positions: PositionMap, offset: int, catalogs: Catalogs
) -> types.Hover | None:
    site = member_site(analysis.source, analysis.regions, offset)
    if site is None or site.member_start == site.member_end:
        return None
    resolution = resolve_member(analysis, site, catalogs, Purpose.NAVIGATION)
    text = _member_text(analysis, site, resolution)
    return (
        None if text is None else _plain(text, positions.range(site.member_start, site.member_end))
    )


def _member_text(
    analysis: DocumentAnalysis, site: MemberSite, resolution: MemberResolution
) -> str | None:
    """What a member's hover says; None to go on (input keys, bindings)."""
    match resolution:
        case WorkflowData(field=field, role=role):
            return assist.workflow_field_text(field, role)
        case StaticRecordField(field=field):
            return f"(static record field) {field.name}"
        case StdModuleMember(module=module, member=member):
            if member is None:
                raise _NoHover
            receiver = analysis.source[site.receiver[0] : site.receiver[1]]
            return module.member_documentation(member, receiver)
        case StdNamespaceChild(child=child):
            if child is None:
                raise _NoHover
            return child.documentation
        case CallOutputField(field=field):
            return assist.record_field_text(field, "Module output")
        case CatalogMember(descriptor=module):
            return assist.leaf_text(module)
    return None  # a `tool.` method has no hover of its own; nothing else either
