"""textDocument/completion: one dispatcher, one small function per site kind.

A truncated lexical index answers nothing; otherwise the site classifier
(`analysis/site_resolution.resolve_site`) says what the cursor is at, in the
reference's order: a `use mod.` path segment, a tool-name string literal, a
member site `x.|` (never falling back to plain identifiers), a record key in
a module call's input record, or lexical identifiers.
"""

from __future__ import annotations

import functools
import json

from cattrs import Converter
from lsprotocol import types
from lsprotocol.converters import get_converter

from ..analysis import surfaces
from ..analysis.document import DocumentAnalysis
from ..analysis.lexical import KIND_LABELS, Binding
from ..analysis.resolution import (
    BuiltInPastError,
    CallOutputFields,
    CatalogChildren,
    CatalogUntrusted,
    ClosedStdPath,
    MemberResolution,
    StaticRecordFields,
    StdModuleMember,
    StdNamespaceChild,
    ToolMethodMember,
    WorkflowNamespace,
)
from ..analysis.site_resolution import (
    ImportSegment,
    InputKey,
    Member,
    Request,
    ToolNameLiteral,
    resolve_site,
)
from ..analysis.sites import ImportPathSite, MemberSite, ToolLiteralSite
from ..syntax.tree import SymbolKind
from . import catalog_assist, completion_kinds, record_fields
from .completion_context import CompletionContext
from .positions import PositionMap
from .prefill import with_required_fields
from .wire import WireDict, WireText


@functools.cache
def _converter() -> Converter:
    """For `complete`'s typed answer (tests); built on first use: the server
    never needs this second converter and its hook tables."""
    return get_converter()


_LEXICAL_WIRE_KINDS = {
    SymbolKind.IMPORT: int(types.CompletionItemKind.Module),
    SymbolKind.FUNCTION: int(types.CompletionItemKind.Function),
}
_VARIABLE_KIND = int(types.CompletionItemKind.Variable)
_TOOL_FORMAT_LABELS = {"text": "Text", "json": "JSON"}


def _list(items: list[types.CompletionItem], incomplete: bool) -> types.CompletionList:
    return types.CompletionList(is_incomplete=incomplete, items=items)


def _item(
    label: str,
    kind: int,
    edit_range: types.Range,
    detail: str | None = None,
    documentation: str | None = None,
) -> types.CompletionItem:
    return types.CompletionItem(
        label=label,
        kind=types.CompletionItemKind(kind),
        detail=detail,
        documentation=(
            types.MarkupContent(kind=types.MarkupKind.PlainText, value=documentation)
            if documentation
            else None
        ),
        text_edit=types.TextEdit(range=edit_range, new_text=label),
    )


def _wire_item(
    label: str, kind: int, edit_range: dict, detail: str, documentation: str | None
) -> dict:
    """`_item` in wire form, for lists long enough that building lsprotocol
    objects and unstructuring them costs more than the answer."""
    item = {
        "label": label,
        "kind": kind,
        "detail": detail,
        "textEdit": {"range": edit_range, "newText": label},
    }
    if documentation:
        item["documentation"] = {"kind": "plaintext", "value": documentation}
    return item


def complete(
    analysis: DocumentAnalysis,
    positions: PositionMap,
    offset: int | None,
    catalogs: catalog_assist.Catalogs,
    prefill: bool = False,
) -> types.CompletionList:
    """The completion answer as lsprotocol objects."""
    answer = complete_wire(analysis, positions, offset, catalogs, prefill)
    if isinstance(answer, WireText):
        return _converter().structure(json.loads(answer), types.CompletionList)
    if isinstance(answer, WireDict):
        return _converter().structure(dict(answer), types.CompletionList)
    return answer


def complete_wire(
    analysis: DocumentAnalysis,
    positions: PositionMap,
    offset: int | None,
    catalogs: catalog_assist.Catalogs,
    prefill: bool = False,
) -> types.CompletionList | WireDict | WireText:
    """The completion answer, large lists already in wire form (for the server)."""
    index = analysis.completion_index
    if offset is None or analysis.syntax is None:
        return _list([], index.incomplete)
    if index.truncated:
        return _list([], True)
    context = CompletionContext(analysis, positions, offset, catalogs, prefill)
    match resolve_site(analysis, offset, catalogs, Request.COMPLETION):
        case ImportSegment(site=site):
            return _import_path(context, site)
        case ToolNameLiteral(site=site, of_tool_import=of_tool_import):
            return _tool_literal(context, site, of_tool_import)
        case Member(site=site, meaning=meaning):
            return _member(context, site, meaning)
        case InputKey(site=site):
            return catalog_assist.input_record_completion(context, site)
    return _lexical(context)


# ---------------------------------------------------------------- use mod. paths


def _import_path(context: CompletionContext, site: ImportPathSite) -> types.CompletionList:
    analysis = context.analysis
    if site.segment_end > analysis.metadata_prefix_end:
        # Past the first error nothing is listed, but an unavailable catalog
        # still marks a non-core prefix incomplete.
        unavailable = (
            not surfaces.is_fixed_core_path(site.prefix)
            and context.catalogs.modules.state.unavailable
        )
        return _list([], context.lexical_incomplete or unavailable)
    edit_range = context.range(site.segment_start, site.segment_end)
    fixed = surfaces.import_path_children(site.prefix)
    items: list[types.CompletionItem] = []
    if fixed is not None:
        for child in fixed:
            items.append(
                _item(
                    child.name,
                    completion_kinds.KIND_IMPORT_PATH_SEGMENT,
                    edit_range,
                    child.detail,
                    child.documentation,
                )
            )
    if surfaces.is_fixed_core_path(site.prefix):
        return _list(_sorted(items), context.lexical_incomplete)
    extra, unavailable = catalog_assist.import_path_children(context.catalogs, site.prefix)
    taken = {item.label for item in items}
    for name, detail, documentation in extra:
        if name not in taken:
            items.append(
                _item(
                    name,
                    completion_kinds.KIND_IMPORT_PATH_SEGMENT,
                    edit_range,
                    detail,
                    documentation,
                )
            )
    return _list(_sorted(items), context.lexical_incomplete or unavailable)


def _sorted(items: list[types.CompletionItem]) -> list[types.CompletionItem]:
    return sorted(items, key=lambda item: item.label)


# ---------------------------------------------------------------- tool-name literals


def _tool_literal(
    context: CompletionContext, site: ToolLiteralSite, of_tool_import: bool
) -> types.CompletionList | WireDict:
    format_name = surfaces.tool_call_format(site.method)
    entries, unavailable = catalog_assist.tool_names(context.catalogs, format_name.value)
    if not of_tool_import:
        return _list([], context.imports_incomplete or unavailable)
    incomplete = context.imports_incomplete or unavailable
    if not entries:
        return _list([], incomplete)
    edit_range = context.positions.wire_range(site.content_start, site.content_end)
    detail = f"{_TOOL_FORMAT_LABELS[format_name.value]} tool name; the host decides if it may run"
    kind = int(completion_kinds.KIND_TOOL_NAME_LITERAL)
    # `entries` is sorted by name already.
    items = [
        _wire_item(name, kind, edit_range, detail, description) for name, description in entries
    ]
    return WireDict(isIncomplete=incomplete, items=items)


# ---------------------------------------------------------------- member sites


def _member(
    context: CompletionContext, site: MemberSite, meaning: MemberResolution
) -> types.CompletionList:
    """A member site answers what `analysis/resolution` classifies it as."""
    match meaning:
        case WorkflowNamespace(path=path):
            return catalog_assist.workflow_member_completion(context, site, path)
        case ToolMethodMember():
            return _tool_members(context, site)
        case StdModuleMember(module=module):
            return _std_members(context, site, module)
        case StdNamespaceChild():
            return _std_namespace_members(context, site)
        case ClosedStdPath() | BuiltInPastError():
            # Nothing exists there, and no catalog could add to a built-in
            # module, so the empty answer is complete (as the reference
            # answers, even when the module catalog is unusable).
            return _list([], context.imports_incomplete)
        case StaticRecordFields(fields=fields):
            return record_fields.field_completion(context, site, fields)
        case CatalogUntrusted(alias_metadata_truncated=truncated):
            return catalog_assist.untrusted_member_completion(context, truncated)
        case CallOutputFields(call=call, parent=parent):
            return catalog_assist.output_field_completion(context, site, call, parent)
        case CatalogChildren(parent=parent):
            answer = catalog_assist.module_member_completion(context, site, parent)
            return with_required_fields(context, site, parent, answer)
    # No other value is a completion meaning.
    return _list([], context.imports_incomplete)


def _tool_members(context: CompletionContext, site: MemberSite) -> types.CompletionList:
    edit_range = context.range(site.member_start, site.member_end)
    items = [
        _item(method.name, completion_kinds.KIND_TOOL_METHOD, edit_range, method.signature_label)
        for method in surfaces.tool_methods()
    ]
    return _list(items, context.imports_incomplete)


def _std_members(
    context: CompletionContext, site: MemberSite, module: surfaces.StdModule
) -> types.CompletionList:
    receiver = context.analysis.source[site.receiver[0] : site.receiver[1]]
    edit_range = context.range(site.member_start, site.member_end)
    items = [
        _item(
            member.name,
            completion_kinds.std_member_kind(member),
            edit_range,
            member.header(receiver),
            module.member_documentation(member, receiver),
        )
        for member in surfaces.members(module)
    ]
    return _list(items, context.imports_incomplete)


def _std_namespace_members(context: CompletionContext, site: MemberSite) -> types.CompletionList:
    """`use mod.std` then `std.`: the fixed children."""
    edit_range = context.range(site.member_start, site.member_end)
    items = [
        _item(
            child.name,
            completion_kinds.KIND_STD_NAMESPACE_MEMBER,
            edit_range,
            child.detail,
            child.documentation,
        )
        for child in surfaces.std_namespace_members()
    ]
    return _list(_sorted(items), context.imports_incomplete)


# ---------------------------------------------------------------- lexical identifiers


def _lexical(context: CompletionContext) -> types.CompletionList | WireText:
    """Every visible binding: hundreds of items, so sent as finished JSON text.

    Every item has the same edit range, so the range's JSON is made once.
    """
    analysis = context.analysis
    index = analysis.completion_index
    site = index.site_at(context.offset)
    if site is None or site[1] > analysis.metadata_prefix_end:
        return _list([], index.incomplete)
    edit_range = json.dumps(context.positions.wire_range(*site), separators=(",", ":"))
    items = ",".join(
        head + edit_range + tail
        for head, tail in map(_lexical_item_json, index.visible_bindings(site[0]))
    )
    incomplete = "true" if index.incomplete else "false"
    return WireText(f'{{"isIncomplete":{incomplete},"items":[{items}]}}')


def _lexical_item_json(binding: Binding) -> tuple[str, str]:
    """A binding's completion item as JSON text, split where the edit range goes."""
    name = json.dumps(binding.name)
    kind = _LEXICAL_WIRE_KINDS.get(binding.kind, _VARIABLE_KIND)
    detail = json.dumps(KIND_LABELS[binding.kind])
    head = f'{{"label":{name},"kind":{kind},"detail":{detail},"textEdit":{{"range":'
    return head, f',"newText":{name}}}}}'
