"""textDocument/signatureHelp for named functions, `tool.*`, std members and catalog leaves."""

from __future__ import annotations

from lsprotocol import types

from ..analysis import surfaces
from ..analysis.document import DocumentAnalysis
from ..analysis.members import BuiltIn, member_receiver
from ..analysis.signatures import function_parameters
from ..analysis.sites import CallContext, call_context, direct_callee, member_site
from ..syntax.tree import SymbolKind
from . import catalog_hover
from .catalog_assist import Catalogs


def _help(
    label: str, parameters: list[str] | tuple[str, ...], active: int, documentation: str | None
) -> types.SignatureHelp:
    signature = types.SignatureInformation(
        label=label,
        documentation=(
            types.MarkupContent(kind=types.MarkupKind.PlainText, value=documentation)
            if documentation
            else None
        ),
        parameters=[types.ParameterInformation(label=name) for name in parameters],
    )
    return types.SignatureHelp(
        signatures=[signature],
        active_signature=0,
        active_parameter=surfaces.active_parameter(active, len(parameters)),
    )


def signature_help(
    analysis: DocumentAnalysis, offset: int | None, catalogs: Catalogs
) -> types.SignatureHelp | None:
    if offset is None or analysis.syntax is None or analysis.completion_index.truncated:
        return None
    context = call_context(analysis.source, offset, analysis.delimiters)
    if context is None:
        return None
    callee = direct_callee(analysis.source, context)
    if callee is not None:
        return _named_function(analysis, callee, context) or _direct_assert(
            analysis, callee, context
        )
    return _member_call(analysis, context, catalogs)


def _named_function(
    analysis: DocumentAnalysis, callee: tuple[int, int], context: CallContext
) -> types.SignatureHelp | None:
    index = analysis.completion_index
    prefix_end = analysis.metadata_prefix_end
    if callee[1] > prefix_end or not index.is_site(*callee):
        return None
    name = analysis.source[callee[0] : callee[1]]
    symbol = index.visible(name, callee[0])
    if symbol is None or symbol.kind is not SymbolKind.FUNCTION:
        return None
    parameters = function_parameters(analysis.source, symbol.end, prefix_end)
    if parameters is None:
        return None
    label = f"{name}({', '.join(parameters)})"
    return _help(
        label, parameters, context.active_argument, "Named function declared in this document."
    )


def _direct_assert(
    analysis: DocumentAnalysis, callee: tuple[int, int], context: CallContext
) -> types.SignatureHelp | None:
    if analysis.imports.truncated:
        return None
    record = analysis.visible_import(*callee)
    if record is None or record.path != surfaces.ASSERT.path:
        return None
    name = analysis.source[callee[0] : callee[1]]
    return _help(
        surfaces.assert_signature_label(name),
        surfaces.ASSERT_FUNCTION.parameters,
        context.active_argument,
        surfaces.assert_documentation(name),
    )


def _member_call(
    analysis: DocumentAnalysis, context: CallContext, catalogs: Catalogs
) -> types.SignatureHelp | None:
    site = member_site(analysis.source, analysis.regions, context.callee_end)
    if site is None or site.member_end != context.callee_end:
        return None
    if site.member_end > analysis.metadata_prefix_end or analysis.imports.truncated:
        return None
    source = analysis.source
    member_name = source[site.member_start : site.member_end]
    built_in = member_receiver(analysis, site).built_in
    surface = None if built_in is None else built_in.surface
    if surface is BuiltIn.TOOL:
        method = surfaces.tool_method(member_name)
        if method is None:
            return None
        return _help(
            method.signature_label, method.parameters, context.active_argument, method.documentation
        )
    module = None if built_in is None else built_in.module
    if module is not None:
        member = surfaces.member(module, member_name)
        if member is None or member.kind is not surfaces.MemberKind.FUNCTION:
            return None
        receiver = source[site.receiver[0] : site.receiver[1]]
        return _help(
            member.signature_label(receiver),
            member.parameters,
            context.active_argument,
            module.member_documentation(member, receiver),
        )
    if surface is BuiltIn.STD_ROOT and member_name == "assert":
        callee = source[site.receiver[0] : site.member_end]
        return _help(
            surfaces.assert_signature_label(callee),
            surfaces.ASSERT_FUNCTION.parameters,
            context.active_argument,
            surfaces.assert_documentation(callee),
        )
    return catalog_hover.leaf_signature(analysis, site, context, catalogs)
