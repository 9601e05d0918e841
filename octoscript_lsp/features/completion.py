"""textDocument/completion: one dispatcher, one small function per site kind.

Order (the reference's): a truncated lexical index answers nothing; then a
`use mod.` path segment, a tool-name string literal, a member site `x.|`
(never falling back to plain identifiers), a record key in a module call's
input record, and finally lexical identifiers.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from cattrs import Converter
from lsprotocol import types
from lsprotocol.converters import get_converter

from ..analysis import surfaces
from ..analysis.document import DocumentAnalysis
from ..analysis.lexical import KIND_LABELS
from ..analysis.sites import (
    ImportPathSite,
    MemberSite,
    import_path_site,
    member_site,
    tool_literal_site,
)
from ..syntax.tree import SymbolKind
from . import catalog_assist, completion_kinds
from .completion_context import CompletionContext
from .positions import PositionMap
from .prefill import with_required_fields
from .wire import WireDict


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


def complete(
    analysis: DocumentAnalysis,
    positions: PositionMap,
    offset: int | None,
    catalogs: catalog_assist.Catalogs,
    prefill: bool = False,
) -> types.CompletionList:
    """The completion answer as lsprotocol objects."""
    answer = complete_wire(analysis, positions, offset, catalogs, prefill)
    if isinstance(answer, WireDict):
        return _converter().structure(dict(answer), types.CompletionList)
    return answer


def complete_wire(
    analysis: DocumentAnalysis,
    positions: PositionMap,
    offset: int | None,
    catalogs: catalog_assist.Catalogs,
    prefill: bool = False,
) -> types.CompletionList | WireDict:
    """The completion answer, large lists already in wire form (for the server)."""
    index = analysis.completion_index
    if offset is None or analysis.syntax is None:
        return _list([], index.incomplete)
    if index.truncated:
        return _list([], True)
    context = CompletionContext(analysis, positions, offset, catalogs, prefill)
    steps: tuple[Callable[[CompletionContext], types.CompletionList | None], ...] = (
        _import_path,
        _tool_literal,
        _member,
        catalog_assist.input_record_completion,
    )
    for step in steps:
        answer = step(context)
        if answer is not None:
            return answer
    return _lexical(context)


# ---------------------------------------------------------------- use mod. paths


def _import_path(context: CompletionContext) -> types.CompletionList | None:
    analysis = context.analysis
    site = import_path_site(analysis.source, analysis.regions, context.offset)
    if site is None:
        return None
    if site.segment_end > analysis.metadata_prefix_end:
        # Past the first error nothing is listed, but an unavailable catalog
        # still marks a non-core prefix incomplete.
        unavailable = (
            not surfaces.is_fixed_core_path(site.prefix)
            and context.catalogs.module_catalog_state.unavailable
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


def import_site(analysis: DocumentAnalysis, offset: int) -> ImportPathSite | None:
    return import_path_site(analysis.source, analysis.regions, offset)


# ---------------------------------------------------------------- tool-name literals


def _tool_literal(context: CompletionContext) -> types.CompletionList | None:
    analysis = context.analysis
    site = tool_literal_site(analysis.source, analysis.regions, context.offset)
    if site is None:
        return None
    format_name = surfaces.tool_call_format(site.method)
    entries, unavailable = catalog_assist.tool_names(context.catalogs, format_name.value)
    record = analysis.visible_import(*site.receiver)
    if record is None or not surfaces.is_tool_import(record.path):
        # The literal site claims the position even for another receiver.
        return _list([], context.imports_incomplete or unavailable)
    edit_range = context.range(site.content_start, site.content_end)
    detail = f"{_TOOL_FORMAT_LABELS[format_name.value]} tool name; the host decides if it may run"
    items = [
        _item(
            name, completion_kinds.KIND_TOOL_NAME_LITERAL, edit_range, detail, description or None
        )
        for name, description in entries
    ]
    return _list(_sorted(items), context.imports_incomplete or unavailable)


# ---------------------------------------------------------------- member sites


def _member(context: CompletionContext) -> types.CompletionList | None:
    analysis = context.analysis
    site = member_site(analysis.source, analysis.regions, context.offset)
    if site is None:
        return None
    for step in (
        catalog_assist.workflow_member_completion,
        _tool_members,
        _std_members,
        _std_namespace_members,
        _built_in_member_past_error,
        catalog_assist.record_field_completion,
        catalog_assist.output_field_completion,
    ):
        answer = step(context, site)
        if answer is not None:
            return answer
    answer = catalog_assist.module_member_completion(context, site)
    return with_required_fields(context, site, answer)


def _member_import(context: CompletionContext, site: MemberSite):
    if site.member_end > context.analysis.metadata_prefix_end:
        return None
    if site.member_end > context.analysis.metadata_prefix_end:
        return None
    return context.analysis.visible_import(*site.receiver)


def _tool_members(context: CompletionContext, site: MemberSite) -> types.CompletionList | None:
    if not site.is_direct:
        return None
    record = _member_import(context, site)
    if record is None or not surfaces.is_tool_import(record.path):
        return None
    edit_range = context.range(site.member_start, site.member_end)
    items = [
        _item(method.name, completion_kinds.KIND_TOOL_METHOD, edit_range, method.signature_label)
        for method in surfaces.tool_methods()
    ]
    return _list(items, context.imports_incomplete)


def _std_members(context: CompletionContext, site: MemberSite) -> types.CompletionList | None:
    if not site.is_direct:
        return None
    record = _member_import(context, site)
    if record is None:
        return None
    if not _lists_std_members(record.path):
        return None
    module = surfaces.std_module_for_import(record.path)
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


def _built_in_member_past_error(
    context: CompletionContext, site: MemberSite
) -> types.CompletionList | None:
    """`tool.|` or `text.|` past the first error, the receiver a direct import
    of `mod.tool` or a `mod.std` module: nothing is listed, and no catalog
    could add to a built-in module, so the empty answer is complete (as the
    reference answers, even when the module catalog is unusable)."""
    analysis = context.analysis
    if not site.is_direct or site.member_end <= analysis.metadata_prefix_end:
        return None
    record = analysis.visible_import(*site.receiver)
    if record is None:
        return None
    if surfaces.is_tool_import(record.path) or _lists_std_members(record.path):
        return _list([], context.imports_incomplete)
    return None


def _lists_std_members(path: tuple[str, ...]) -> bool:
    """Whether member completion lists a std module's fixed members (`assert`
    is called, not listed)."""
    module = surfaces.std_module_for_import(path)
    return module is not None and bool(module.members) and module.name != "assert"


def _std_namespace_members(
    context: CompletionContext, site: MemberSite
) -> types.CompletionList | None:
    """`use mod.std` then `std.` (or deeper under it): the fixed children, else none."""
    record = _member_import(context, site)
    if record is None or record.path[:2] != ("mod", "std"):
        return None
    source = context.analysis.source
    chain = tuple(source[start:end] for start, end in site.receivers)
    full = record.path + chain[1:]
    edit_range = context.range(site.member_start, site.member_end)
    if full == ("mod", "std"):
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
    return _list([], context.imports_incomplete)


# ---------------------------------------------------------------- lexical identifiers


def _lexical(context: CompletionContext) -> types.CompletionList | WireDict:
    """Every visible binding; hundreds of items, so built in wire form."""
    analysis = context.analysis
    index = analysis.completion_index
    site = index.site_at(context.offset)
    if site is None or site[1] > analysis.metadata_prefix_end:
        return _list([], index.incomplete)
    edit_range = context.positions.wire_range(*site)
    items = []
    for symbol in index.visible_bindings(site[0]):
        kind = _LEXICAL_WIRE_KINDS.get(symbol.kind, _VARIABLE_KIND)
        items.append(
            {
                "label": symbol.name,
                "kind": kind,
                "detail": KIND_LABELS[symbol.kind],
                "textEdit": {"range": edit_range, "newText": symbol.name},
            }
        )
    return WireDict(isIncomplete=index.incomplete, items=items)
