"""textDocument/completion: one dispatcher, one small function per site kind.

A truncated lexical index answers nothing; otherwise the site classifier
(`analysis/site_resolution.resolve_site`) says what the cursor is at, in the
reference's order: a `use mod.` path segment, a tool-name string literal, a
member site `x.|` (never falling back to plain identifiers), a record key in
a module call's input record, or lexical identifiers. What the catalogs say
is read through `analysis/resolution` (as hover and signature help read
it) and worded by `catalog_assist`.

Item kinds are the reference's (`KIND_...`). With
`octoscript.completion.prefillRequiredFields` on and a client that supports
snippets, a shaped catalog method with required input fields is inserted as
`method({a: "", b: 0})` with each placeholder a tab stop; never with
`.await()`, whether to await is the author's choice. Off (the default) the
answer is exactly the reference's.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from lsprotocol import types

from ..analysis import surfaces
from ..analysis.document import DocumentAnalysis
from ..analysis.fixes import placeholder
from ..analysis.input_records import InputRecordSite
from ..analysis.lexical import KIND_LABELS, Binding
from ..analysis.output_calls import OutputCall
from ..analysis.record_scan import RecordField
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
    call_outputs,
    fields_at,
    input_fields_for_site,
    output_role,
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
from ..analysis.surfaces import MemberKind, StdMember
from ..catalogs.model import ModuleDescriptor, ModuleField, WorkflowField
from ..catalogs.store import CatalogStore
from ..syntax.tree import SymbolKind
from . import catalog_assist
from .positions import PositionMap
from .wire import WireDict, WireText

KIND_TOOL_METHOD = types.CompletionItemKind.Method  # `tool.` members
KIND_STD_FUNCTION = types.CompletionItemKind.Function  # `math.sqrt`, `json.parse`, ...
KIND_STD_CONSTANT = types.CompletionItemKind.Constant  # `math.pi`, `math.e`
KIND_IMPORT_PATH_SEGMENT = types.CompletionItemKind.Module  # `use mod.` / `use mod.std.` segments
KIND_STD_NAMESPACE_MEMBER = types.CompletionItemKind.Field  # children of a direct `std.` site
KIND_TOOL_NAME_LITERAL = types.CompletionItemKind.Value  # names from the advisory tool catalog
FIELD_KIND = types.CompletionItemKind.Field  # members, record keys, workflow data

_LEXICAL_WIRE_KINDS = {
    SymbolKind.IMPORT: int(types.CompletionItemKind.Module),
    SymbolKind.FUNCTION: int(types.CompletionItemKind.Function),
}
_VARIABLE_KIND = int(types.CompletionItemKind.Variable)
_TOOL_FORMAT_LABELS = {"text": "Text", "json": "JSON"}
FIXED_ROOT_CHILDREN = frozenset(child.name for child in surfaces.ROOT_IMPORT_CHILDREN)


@dataclass(slots=True)
class CompletionContext:
    analysis: DocumentAnalysis
    positions: PositionMap
    offset: int
    catalogs: CatalogStore
    prefill: bool = False  # catalog methods may come with their required fields

    @property
    def lexical_incomplete(self) -> bool:
        return self.analysis.completion_index.incomplete

    @property
    def imports_incomplete(self) -> bool:
        return self.lexical_incomplete or self.analysis.imports.truncated

    def range(self, start: int, end: int) -> types.Range:
        return self.positions.range(start, end)

    def members(self, site: MemberSite) -> types.Range:
        """The edit range of a member site: its member name."""
        return self.positions.range(site.member_start, site.member_end)


def item(
    label: str,
    kind: int,
    edit_range: types.Range,
    detail: str | None = None,
    documentation: str | None = None,
    snippet: str | None = None,
) -> types.CompletionItem:
    """An item replacing `edit_range` by its label (or by `snippet`);
    documentation in plain text."""
    return types.CompletionItem(
        label=label,
        kind=types.CompletionItemKind(kind),
        detail=detail,
        documentation=catalog_assist.plain(documentation),
        insert_text_format=None if snippet is None else types.InsertTextFormat.Snippet,
        text_edit=types.TextEdit(range=edit_range, new_text=label if snippet is None else snippet),
    )


def answer(
    items: list[types.CompletionItem], incomplete: bool, by_label: bool = True
) -> types.CompletionList:
    """The list of `items`, sorted by label unless they come in their order already."""
    if by_label:
        items = sorted(items, key=lambda entry: entry.label)
    return types.CompletionList(is_incomplete=incomplete, items=items)


def nothing(incomplete: bool) -> types.CompletionList:
    return types.CompletionList(is_incomplete=incomplete, items=[])


def _wire_item(
    label: str, kind: int, edit_range: dict, detail: str, documentation: str | None
) -> dict:
    """`item` in wire form, for lists long enough that building lsprotocol
    objects and unstructuring them costs more than the answer."""
    wire = {
        "label": label,
        "kind": kind,
        "detail": detail,
        "textEdit": {"range": edit_range, "newText": label},
    }
    if documentation:
        wire["documentation"] = {"kind": "plaintext", "value": documentation}
    return wire


def complete_wire(
    analysis: DocumentAnalysis,
    positions: PositionMap,
    offset: int | None,
    catalogs: CatalogStore,
    prefill: bool = False,
) -> types.CompletionList | WireDict | WireText:
    """The completion answer, large lists already in wire form (for the server)."""
    index = analysis.completion_index
    if offset is None or analysis.syntax is None:
        return nothing(index.incomplete)
    if index.truncated:
        return nothing(True)
    context = CompletionContext(analysis, positions, offset, catalogs, prefill)
    match resolve_site(analysis, offset, catalogs, Request.COMPLETION):
        case ImportSegment(site=site):
            return _import_path(context, site)
        case ToolNameLiteral(site=site, of_tool_import=of_tool_import):
            return _tool_literal(context, site, of_tool_import)
        case Member(site=site, meaning=meaning):
            return _member(context, site, meaning)
        case InputKey(site=site, alias_metadata_truncated=alias_truncated):
            return _input_record_completion(context, site, alias_truncated)
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
        return nothing(context.lexical_incomplete or unavailable)
    edit_range = context.range(site.segment_start, site.segment_end)
    kind = KIND_IMPORT_PATH_SEGMENT
    items = [
        item(child.name, kind, edit_range, child.detail, child.documentation)
        for child in surfaces.import_path_children(site.prefix) or ()
    ]
    catalogs = context.catalogs
    if surfaces.is_fixed_core_path(site.prefix):
        return answer(items, context.lexical_incomplete)
    if catalogs.modules.state.unavailable:
        return answer(items, True)
    catalog = catalogs.module_catalog
    # A catalog's `mod.std` is left out: the fixed one is listed.
    fixed = FIXED_ROOT_CHILDREN if site.prefix == ("mod",) else frozenset()
    for child in catalog.children(site.prefix) if catalog is not None else ():
        if child.name not in fixed:
            detail = catalog_assist.path_detail(child.call_mode)
            text = catalog_assist.advisory_text(child.description, child.call_mode)
            items.append(item(child.name, kind, edit_range, detail, text))
    return answer(items, context.lexical_incomplete)


# ---------------------------------------------------------------- tool-name literals


def _tool_literal(
    context: CompletionContext, site: ToolLiteralSite, of_tool_import: bool
) -> types.CompletionList | WireDict:
    format_name = surfaces.tool_call_format(site.method)
    catalogs = context.catalogs
    incomplete = context.imports_incomplete or catalogs.tools.state.unavailable
    catalog = catalogs.tool_catalog
    if not of_tool_import or catalogs.tools.state.unavailable or catalog is None:
        return nothing(incomplete)
    entries = sorted((entry.name, entry.description) for entry in catalog.by_format(format_name))
    if not entries:
        return nothing(incomplete)
    edit_range = context.positions.wire_range(site.content_start, site.content_end)
    detail = f"{_TOOL_FORMAT_LABELS[format_name.value]} tool name; the host decides if it may run"
    kind = int(KIND_TOOL_NAME_LITERAL)
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
            return _workflow_member_completion(context, site, path)
        case ToolMethodMember():
            edit_range = context.members(site)
            kind = KIND_TOOL_METHOD
            items = [
                item(method.name, kind, edit_range, method.signature_label)
                for method in surfaces.TOOL_METHODS
            ]
            return answer(items, context.imports_incomplete, by_label=False)
        case StdModuleMember(module=module):
            edit_range = context.members(site)
            receiver = context.analysis.source[site.receiver[0] : site.receiver[1]]
            items = [
                item(
                    member.name,
                    std_member_kind(member),
                    edit_range,
                    member.header(receiver),
                    module.member_documentation(member, receiver),
                )
                for member in module.members
            ]
            return answer(items, context.imports_incomplete, by_label=False)
        case StdNamespaceChild():  # `use mod.std` then `std.`: the fixed children
            edit_range = context.members(site)
            kind = KIND_STD_NAMESPACE_MEMBER
            items = [
                item(child.name, kind, edit_range, child.detail, child.documentation)
                for child in surfaces.STD_IMPORT_CHILDREN
            ]
            return answer(items, context.imports_incomplete)
        case ClosedStdPath() | BuiltInPastError():
            # Nothing exists there, and no catalog could add to a built-in
            # module, so the empty answer is complete (as the reference
            # answers, even when the module catalog is unusable).
            return nothing(context.imports_incomplete)
        case StaticRecordFields(fields=fields):
            return _record_fields(context, site, fields)
        case CatalogUntrusted(alias_metadata_truncated=truncated):
            # The module catalog or the alias metadata cannot be trusted here.
            unavailable = context.catalogs.modules.state.unavailable
            return nothing(context.imports_incomplete or unavailable or truncated)
        case CallOutputFields(call=call, parent=parent):
            return _output_field_completion(context, site, call, parent)
        case CatalogChildren(parent=parent):
            return _module_member_completion(context, site, parent)
    # No other value is a completion meaning.
    return nothing(context.imports_incomplete)


_RECORD_FIELD_DETAIL = "static record field; direct literal, child literal, or alias"


def _record_fields(
    context: CompletionContext, site: MemberSite, fields: tuple[RecordField, ...]
) -> types.CompletionList:
    """The `fields` a static record holds at the site (hover and definition
    render the navigation index's `StaticRecordField` instead)."""
    analysis = context.analysis
    report = analysis.records
    incomplete = context.lexical_incomplete or report.truncated or report.aliases_truncated
    if report.aliases_truncated or site.member_end > min(
        analysis.metadata_prefix_end, report.prefix_end
    ):
        return nothing(incomplete)
    edit_range = context.members(site)
    items = [item(entry.name, FIELD_KIND, edit_range, _RECORD_FIELD_DETAIL) for entry in fields]
    return answer(items, incomplete)


# ---------------------------------------------------------------- lexical identifiers


def _lexical(context: CompletionContext) -> types.CompletionList | WireText:
    """Every visible binding: hundreds of items, so sent as finished JSON text
    (their one edit range written once)."""
    analysis = context.analysis
    index = analysis.completion_index
    site = index.site_at(context.offset)
    if site is None or site[1] > analysis.metadata_prefix_end:
        return nothing(index.incomplete)
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


# ---------------------------------------------------------------- module members


def _module_member_completion(
    context: CompletionContext, site: MemberSite, parent: tuple[str, ...] | None
) -> types.CompletionList:
    """Catalog children of `parent`, the path a stable import or alias chain
    resolves to (the classifier's `CatalogChildren`: catalog and alias
    metadata trusted)."""
    incomplete = context.imports_incomplete
    if parent is None:
        return nothing(incomplete)
    catalogs = context.catalogs
    incomplete = incomplete or catalogs.modules.state.unavailable
    catalog = catalogs.module_catalog
    if catalog is None:
        return nothing(incomplete)
    edit_range = context.members(site)
    # Where the arguments are there already, nothing is prefilled.
    prefill = context.prefill and not _followed_by_call(context.analysis.source, site.member_end)
    items = [
        item(
            child.name,
            FIELD_KIND,
            edit_range,
            catalog_assist.MEMBER_DETAILS[child.call_mode],
            catalog_assist.advisory_text(child.description, child.call_mode),
            required_snippet(child.name, catalog.descriptor((*parent, child.name)))
            if prefill
            else None,
        )
        for child in catalog.children(parent)
    ]
    return answer(items, incomplete)


def required_snippet(name: str, descriptor: ModuleDescriptor | None) -> str | None:
    """`name({a: ${1:""}, b: ${2:0}})$0`, or None when nothing is required."""
    if descriptor is None or not descriptor.is_shaped:
        return None
    required = [field for field in descriptor.input_fields or () if field.required]
    if not required:
        return None
    members = ", ".join(
        f"{field.name}: ${{{stop}:{_escaped(placeholder(field))}}}"
        for stop, field in enumerate(required, start=1)
    )
    return f"{name}({{{members}}})$0"


def _escaped(text: str) -> str:
    """Snippet syntax: `\\`, `$` and `}` are literal only when escaped."""
    return text.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")


def _followed_by_call(source: str, offset: int) -> bool:
    while offset < len(source) and source[offset] in " \t":
        offset += 1
    return offset < len(source) and source[offset] == "("


def client_supports_snippets(capabilities: types.ClientCapabilities | None) -> bool:
    text_document = capabilities.text_document if capabilities else None
    completion = text_document.completion if text_document else None
    item = completion.completion_item if completion else None
    return bool(item and item.snippet_support)


def std_member_kind(member: StdMember) -> types.CompletionItemKind:
    """Constants (`math.pi`) complete as constants, everything else as functions."""
    return KIND_STD_CONSTANT if member.kind is MemberKind.CONSTANT else KIND_STD_FUNCTION


# ---------------------------------------------------------------- output fields


def _output_field_completion(
    context: CompletionContext, site: MemberSite, call: OutputCall, parent: tuple[str, ...]
) -> types.CompletionList:
    """The output fields of the call a result binding holds, below `parent`."""
    # Classified only where the catalog and the alias metadata are usable.
    incomplete = context.imports_incomplete
    roots = call_outputs(context.analysis, call, context.catalogs)
    fields = None if roots is None else fields_at(roots, parent)
    if fields is None:
        return nothing(incomplete)
    return answer(_module_fields(fields, context.members(site), "Module output"), incomplete)


# ---------------------------------------------------------------- input records


def _input_record_completion(
    context: CompletionContext, site: InputRecordSite, alias_truncated: bool
) -> types.CompletionList:
    incomplete = (
        context.imports_incomplete or context.catalogs.modules.state.unavailable or alias_truncated
    )
    fields = input_fields_for_site(context.analysis, site, context.catalogs)
    if fields is None:
        return nothing(incomplete)
    fresh = [field for field in fields if field.name not in site.declared]
    return answer(_module_fields(fresh, context.range(*site.field), "Module input"), incomplete)


def _module_fields(
    fields: Sequence[ModuleField], edit_range: types.Range, role: str
) -> list[types.CompletionItem]:
    """A module call's input or output fields (`role`: "Module input" or "Module output")."""
    return [
        item(
            field.name,
            FIELD_KIND,
            edit_range,
            f"{role.lower()} field, {catalog_assist.required(field)}",
            catalog_assist.record_field_text(field, role),
        )
        for field in fields
    ]


# ---------------------------------------------------------------- workflow data


def _workflow_member_completion(
    context: CompletionContext, site: MemberSite, path: tuple[str, ...]
) -> types.CompletionList:
    """`workflow.` (the receiver names `path`) while a workflow catalog is configured."""
    incomplete = context.lexical_incomplete or context.catalogs.workflow.state.unavailable
    data = context.catalogs.workflow_data
    if data is None or site.member_end > context.analysis.metadata_prefix_end:
        return nothing(incomplete)
    edit_range = context.members(site)
    items: list[types.CompletionItem] = []
    if path == ("workflow",):
        items = [
            item(name, FIELD_KIND, edit_range, "workflow data namespace (advisory)")
            for name in ("input", "outputs")
        ]
    elif path == ("workflow", "input"):
        items = _workflow_items(data.input_fields, edit_range, "Workflow input")
    elif path == ("workflow", "outputs"):
        role = output_role(data.context_configured)
        items = [
            item(step, FIELD_KIND, edit_range, f"{role.lower()} (advisory)")
            for step in data.visible_step_ids()
        ]
    elif len(path) == 3 and path[1] == "outputs":
        fields = data.step_fields(path[2])
        role = output_role(data.context_configured)
        items = _workflow_items(fields or (), edit_range, role)
    return answer(items, incomplete)


def _workflow_items(
    fields: Sequence[WorkflowField], edit_range: types.Range, role: str
) -> list[types.CompletionItem]:
    return [
        item(
            field.name,
            FIELD_KIND,
            edit_range,
            f"{role.lower()} field (advisory)",
            catalog_assist.workflow_field_text(field, role),
        )
        for field in fields
    ]
