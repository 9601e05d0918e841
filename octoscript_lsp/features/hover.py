"""textDocument/hover: member sites first (catalogs, records, std), then bindings."""

from __future__ import annotations

from lsprotocol import types

from ..analysis import surfaces
from ..analysis.document import DocumentAnalysis
from ..analysis.members import BuiltIn, member_receiver
from ..analysis.sites import MemberSite, member_site
from ..syntax.tree import SymbolKind
from . import catalog_hover, record_fields
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
    found = catalog_hover.workflow_hover(analysis, positions, site, catalogs)
    if found is None:
        found = record_fields.field_hover(analysis, positions, site)
    if found is None:
        found = _std_member_hover(analysis, positions, site)
    if found is None:
        found = catalog_hover.member_hover(analysis, positions, site, catalogs)
    return found


def _std_member_hover(
    analysis: DocumentAnalysis, positions: PositionMap, site: MemberSite
) -> types.Hover | None:
    built_in = member_receiver(analysis, site).built_in
    if built_in is None or built_in.surface is BuiltIn.TOOL:
        return None
    source = analysis.source
    name = source[site.member_start : site.member_end]
    member_range = positions.range(site.member_start, site.member_end)
    module = built_in.module
    if module is not None:
        member = surfaces.member(module, name)
        if member is None:
            raise _NoHover
        receiver = source[site.receiver[0] : site.receiver[1]]
        return _plain(module.member_documentation(member, receiver), member_range)
    child = surfaces.import_path_child(surfaces.STD_NAMESPACE_PATH, name)
    if child is None:
        raise _NoHover
    return _plain(child.documentation, member_range)
