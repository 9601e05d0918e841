"""Catalog-driven signature help for module leaves.

Every answer is plain text built from advisory host metadata; the lookups
are the ones completion uses (see `catalog_assist`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from ..analysis import surfaces
from ..catalogs.model import CallMode, ModuleDescriptor
from . import catalog_assist as assist

if TYPE_CHECKING:
    from ..analysis.document import DocumentAnalysis
    from ..analysis.sites import CallContext, MemberSite

INPUT_PARAMETER = "input"


def _hover(text: str, edit_range: types.Range) -> types.Hover:
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.PlainText, value=text),
        range=edit_range,
    )


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
