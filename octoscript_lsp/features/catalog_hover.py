"""Catalog-driven signature help for module leaves, and input-record key hover.

Every answer is plain text built from advisory host metadata; the lookups
are the ones completion uses (see `catalog_assist`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from ..analysis import surfaces
from ..catalogs.model import CallMode, ModuleDescriptor, find_field
from ..syntax.text import is_canonical_identifier
from . import catalog_assist as assist
from .positions import PositionMap

if TYPE_CHECKING:
    from ..analysis.document import DocumentAnalysis
    from ..analysis.sites import CallContext, MemberSite
    from .catalog_assist import Catalogs

INPUT_PARAMETER = "input"


def _hover(text: str, edit_range: types.Range) -> types.Hover:
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.PlainText, value=text),
        range=edit_range,
    )


def _has_descriptors(catalogs: Catalogs) -> bool:
    catalog = catalogs.module_catalog
    return catalog is not None and bool(catalog.descriptors)


# ---------------------------------------------------------------- signature help


def signature_label(callee: str, mode: CallMode) -> str:
    result = "promise<JSON value>" if mode is CallMode.DEFERRED else "JSON value"
    return f"{callee}({INPUT_PARAMETER}) -> {result}"


def leaf_signature(
    analysis: DocumentAnalysis, site: MemberSite, context: CallContext, module: ModuleDescriptor
) -> types.SignatureHelp | None:
    """`recv.leaf(` for a leaf with both callMode and callShape: one `input` parameter."""
    if module.call_mode is None or not module.is_shaped:
        return None
    callee = analysis.source[site.receiver[0] : site.member_end]
    signature = types.SignatureInformation(
        label=signature_label(callee, module.call_mode),
        documentation=types.MarkupContent(
            kind=types.MarkupKind.PlainText, value=assist.leaf_text(module)
        ),
        parameters=[types.ParameterInformation(label=INPUT_PARAMETER)],
    )
    return types.SignatureHelp(
        signatures=[signature],
        active_signature=surfaces.ACTIVE_SIGNATURE,
        active_parameter=surfaces.active_parameter(context.active_argument, 1),
    )


# ---------------------------------------------------------------- input keys


def input_key_hover(
    analysis: DocumentAnalysis, offset: int, catalogs: Catalogs
) -> types.Hover | None:
    """A known key of the first literal-record argument of a shaped leaf call."""
    if not _has_descriptors(catalogs):
        return None
    site = assist.input_record_site(analysis.source, analysis.regions, offset, analysis.delimiters)
    index = analysis.completion_index
    if site is None or index.truncated or index.sites_truncated:
        return None
    name = analysis.source[site.field[0] : site.field[1]]
    if not is_canonical_identifier(name) or name in site.declared:
        return None
    fields = assist.input_fields_for_site(analysis, site, catalogs)
    field = None if fields is None else find_field(fields, name)
    if field is None:
        return None
    positions = PositionMap(analysis.source)
    return _hover(assist.record_field_text(field, "Module input"), positions.range(*site.field))
