"""textDocument/signatureHelp for named functions, `tool.*`, std members and catalog leaves
(from the advisory module catalog)."""

from __future__ import annotations

from lsprotocol import types

from ..analysis import surfaces
from ..analysis.document import DocumentAnalysis
from ..analysis.resolution import (
    CatalogMember,
    MemberResolution,
    StdModuleMember,
    StdNamespaceChild,
    ToolMethodMember,
)
from ..analysis.signatures import NAMED_FUNCTION_NOTE
from ..analysis.site_resolution import (
    AssertCall,
    MemberCall,
    NamedFunctionCall,
    Request,
    resolve_site,
)
from ..analysis.sites import CallContext, MemberSite
from ..catalogs.model import CallMode, ModuleDescriptor
from ..catalogs.store import CatalogStore
from .catalog_assist import leaf_text, plain

INPUT_PARAMETER = "input"


def _help(
    label: str, parameters: list[str] | tuple[str, ...], active: int, documentation: str | None
) -> types.SignatureHelp:
    signature = types.SignatureInformation(
        label=label,
        documentation=plain(documentation),
        parameters=[types.ParameterInformation(label=name) for name in parameters],
    )
    return types.SignatureHelp(
        signatures=[signature],
        active_signature=surfaces.ACTIVE_SIGNATURE,
        active_parameter=surfaces.active_parameter(active, len(parameters)),
    )


def signature_help(
    analysis: DocumentAnalysis, offset: int | None, catalogs: CatalogStore
) -> types.SignatureHelp | None:
    if offset is None or analysis.syntax is None or analysis.completion_index.truncated:
        return None
    match resolve_site(analysis, offset, catalogs, Request.SIGNATURE):
        case NamedFunctionCall(context=context, name=name, parameters=parameters):
            label = f"{name}({', '.join(parameters)})"
            return _help(label, parameters, context.active_argument, NAMED_FUNCTION_NOTE)
        case AssertCall(context=context, name=name):
            return _help(
                surfaces.assert_signature_label(name),
                surfaces.ASSERT_FUNCTION.parameters,
                context.active_argument,
                surfaces.assert_documentation(name),
            )
        case MemberCall(context=context, site=site, meaning=meaning):
            return _member_signature(analysis, site, context, meaning)
    return None


def _member_signature(
    analysis: DocumentAnalysis, site: MemberSite, context: CallContext, resolution: MemberResolution
) -> types.SignatureHelp | None:
    source = analysis.source
    match resolution:
        case ToolMethodMember(method=method) if method is not None:
            return _help(
                method.signature_label,
                method.parameters,
                context.active_argument,
                method.documentation,
            )
        case StdModuleMember(module=module, member=member) if (
            member is not None and member.kind is surfaces.MemberKind.FUNCTION
        ):
            receiver = source[site.receiver[0] : site.receiver[1]]
            return _help(
                member.header(receiver),
                member.parameters,
                context.active_argument,
                module.member_documentation(member, receiver),
            )
        case StdNamespaceChild(name="assert"):
            callee = source[site.receiver[0] : site.member_end]
            return _help(
                surfaces.assert_signature_label(callee),
                surfaces.ASSERT_FUNCTION.parameters,
                context.active_argument,
                surfaces.assert_documentation(callee),
            )
        case CatalogMember(descriptor=module):
            return _leaf_signature(analysis, site, context, module)
    return None


def _leaf_signature(
    analysis: DocumentAnalysis, site: MemberSite, context: CallContext, module: ModuleDescriptor
) -> types.SignatureHelp | None:
    """`recv.leaf(` for a leaf with both callMode and callShape: one `input` parameter."""
    if module.call_mode is None or not module.is_shaped:
        return None
    result = "promise<JSON value>" if module.call_mode is CallMode.DEFERRED else "JSON value"
    callee = analysis.source[site.receiver[0] : site.member_end]
    label = f"{callee}({INPUT_PARAMETER}) -> {result}"
    return _help(label, (INPUT_PARAMETER,), context.active_argument, leaf_text(module))
