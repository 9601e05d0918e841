"""Catalog-driven completion steps (tool names, module paths and members,
input and output record fields, workflow data, static record fields).

Each step returns None when its site does not apply so the dispatcher moves
on, or a finished answer when it does. The lookups shared with hover and
signature help (`direct_member`, `input_fields_for_site`,
`output_fields_for_member`, `workflow_field`) live here too, so completion,
hover and signatures can never disagree about what a site resolves to.

Everything the catalogs say is advisory: nothing here loads a module,
evaluates source or grants a capability, and every description is shown as
plain text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from lsprotocol import types

from ..analysis import surfaces
from ..analysis.input_records import InputRecordSite, input_record_site
from ..analysis.members import alias_metadata_truncated, member_receiver
from ..analysis.output_calls import OutputCall
from ..analysis.sites import MemberSite
from ..catalogs.model import (
    CallMode,
    CallShape,
    ModuleDescriptor,
    ModuleField,
    ToolFormat,
    WorkflowField,
    find_field,
)
from ..catalogs.store import CatalogState, CatalogStore
from ..syntax.text import is_canonical_identifier
from .completion_context import CompletionContext
from .record_fields import field_completion

if TYPE_CHECKING:
    from ..analysis.document import DocumentAnalysis

Catalogs = CatalogStore
Span = tuple[int, int]

FIELD_KIND = types.CompletionItemKind.Field  # 5: members, record keys, workflow data
PATH_KIND = types.CompletionItemKind.Module  # 9: `use mod.` path segments
FIXED_ROOT_CHILDREN = frozenset(child.name for child in surfaces.ROOT_IMPORT_CHILDREN)


# ---------------------------------------------------------------- LSP pieces


def _list(items: list[types.CompletionItem], incomplete: bool) -> types.CompletionList:
    return types.CompletionList(is_incomplete=incomplete, items=items)


def _plain(text: str | None) -> types.MarkupContent | None:
    if not text:
        return None
    return types.MarkupContent(kind=types.MarkupKind.PlainText, value=text)


def _item(
    label: str,
    kind: types.CompletionItemKind,
    edit_range: types.Range,
    detail: str,
    documentation: str | None = None,
) -> types.CompletionItem:
    return types.CompletionItem(
        label=label,
        kind=kind,
        detail=detail,
        documentation=_plain(documentation),
        text_edit=types.TextEdit(range=edit_range, new_text=label),
    )


def _sorted(items: list[types.CompletionItem]) -> list[types.CompletionItem]:
    return sorted(items, key=lambda item: item.label)


# ---------------------------------------------------------------- wording

_ADVISORY_NOTE = (
    "Advisory catalog metadata from the host: it does not bind a module or grant a capability."
)


def mode_note(mode: CallMode | None) -> str:
    if mode is CallMode.SYNCHRONOUS:
        return "Synchronous call: returns its result directly."
    if mode is CallMode.DEFERRED:
        return "Deferred call: returns a promise; use .await() to get its result."
    return ""


def advisory_text(description: str | None, mode: CallMode | None) -> str | None:
    """Description and call-mode note, blank-line separated; None when both are empty."""
    parts = [part for part in (description or "", mode_note(mode)) if part]
    return "\n\n".join(parts) or None


def path_detail(mode: CallMode | None) -> str:
    if mode is None:
        return "host module path (advisory)"
    return f"host module path, {mode.value} call (advisory)"


def member_detail(mode: CallMode | None) -> str:
    if mode is CallMode.DEFERRED:
        return "host module member, deferred call returning a promise (advisory)"
    if mode is CallMode.SYNCHRONOUS:
        return "host module member, synchronous call (advisory)"
    return "host module member (advisory)"


def _required(field: ModuleField) -> str:
    return "required" if field.required else "optional"


def record_field_text(field: ModuleField, role: str) -> str:
    """Plain-text documentation of one input or output field."""
    lines = [f"{role} field {field.name}", f"Type: {field.type.value}", f"{_required(field)}"]
    text = "\n".join(lines)
    if field.description:
        text += f"\n\n{field.description}"
    return f"{text}\n\n{_ADVISORY_NOTE}"


def _field_lines(fields: Sequence[ModuleField], parent: str, depth: int) -> list[str]:
    lines: list[str] = []
    for field in fields:
        path = f"{parent}.{field.name}" if parent else field.name
        line = f"{'  ' * depth}- {path}: {field.type.value} ({_required(field)})"
        if field.description:
            line += f"; {field.description}"
        lines.append(line)
        lines.extend(_field_lines(field.fields or (), path, depth + 1))
    return lines


def _field_section(title: str, fields: Sequence[ModuleField]) -> str:
    if not fields:
        return f"{title}: none projected."
    return "\n".join([f"{title}:", *_field_lines(fields, "", 0)])


def leaf_text(module: ModuleDescriptor) -> str:
    """Hover and signature documentation of one catalog descriptor."""
    sections = [f"Host module {module.dotted}"]
    details = advisory_text(module.description, module.call_mode)
    if details:
        sections.append(details)
    if module.input_fields is not None:
        sections.append(_field_section("Input record fields", module.input_fields))
    if module.output_fields is not None:
        sections.append(_field_section("Output record fields", module.output_fields))
    sections.append(_ADVISORY_NOTE)
    return "\n\n".join(sections)


def workflow_field_text(field: WorkflowField, role: str) -> str:
    text = f"{role} field {field.name}\nType: {field.type.value}"
    if field.description:
        text += f"\n\n{field.description}"
    return f"{text}\n\nAdvisory workflow data contract from the host; not runtime authority."


# ---------------------------------------------------------------- tool names


def tool_names(catalogs: Catalogs, format_name: str) -> tuple[list[tuple[str, str]], bool]:
    """(name, description) of the catalog tools of one format, and unavailability."""
    if catalogs.tool_catalog_state.unavailable:
        return [], True
    catalog = catalogs.tool_catalog
    if catalog is None:
        return [], False
    entries = catalog.by_format(ToolFormat(format_name))
    return sorted((entry.name, entry.description) for entry in entries), False


# ---------------------------------------------------------------- `use mod.` paths


def import_path_children(
    catalogs: Catalogs, prefix: tuple[str, ...]
) -> tuple[list[tuple[str, str | None, str | None]], bool]:
    """Catalog children of a `use mod.` prefix and whether the catalog is unavailable."""
    if catalogs.module_catalog_state.unavailable:
        return [], True
    catalog = catalogs.module_catalog
    if catalog is None or surfaces.is_fixed_core_path(prefix):
        return [], False
    fixed = FIXED_ROOT_CHILDREN if prefix == ("mod",) else frozenset()
    children = [
        (
            child.name,
            path_detail(child.call_mode),
            advisory_text(child.description, child.call_mode),
        )
        for child in catalog.children(prefix)
        if child.name not in fixed
    ]
    return children, False


# ---------------------------------------------------------------- catalog members


def direct_member(
    analysis: DocumentAnalysis, site: MemberSite, catalogs: Catalogs
) -> ModuleDescriptor | None:
    """The exact catalog descriptor a member site names."""
    catalog = catalogs.module_catalog
    if catalogs.module_catalog_state.unavailable or catalog is None:
        return None
    method = analysis.source[site.member_start : site.member_end]
    if not is_canonical_identifier(method):
        return None
    receiver = member_receiver(analysis, site)
    if receiver.is_fixed_core:
        return None
    parent = receiver.catalog_path
    if parent is None:
        return None
    return catalog.descriptor(parent + (method,))


# ---------------------------------------------------------------- module members


def module_member_completion(context: CompletionContext, site: MemberSite) -> types.CompletionList:
    """Catalog children of the path a stable import or alias chain resolves to."""
    receiver = member_receiver(context.analysis, site)
    incomplete = context.imports_incomplete or receiver.alias_metadata_truncated
    if receiver.is_fixed_core:
        # The fixed `mod.std` tree answered earlier; the catalog never extends it.
        return _list([], incomplete)
    parent = receiver.catalog_path
    if parent is None:
        return _list([], incomplete)
    catalogs = context.catalogs
    incomplete = incomplete or catalogs.module_catalog_state.unavailable
    catalog = catalogs.module_catalog
    if catalog is None:
        return _list([], incomplete)
    edit_range = context.range(site.member_start, site.member_end)
    items = [
        _item(
            child.name,
            FIELD_KIND,
            edit_range,
            member_detail(child.call_mode),
            advisory_text(child.description, child.call_mode),
        )
        for child in catalog.children(parent)
    ]
    return _list(_sorted(items), incomplete)


# ---------------------------------------------------------------- output fields


def _call_outputs(
    analysis: DocumentAnalysis, call: OutputCall, catalogs: Catalogs
) -> tuple[ModuleField, ...] | None:
    if analysis.imports.truncated or catalogs.module_catalog_state.unavailable:
        return None
    call_site = MemberSite((call.receiver,), call.member[0], call.member[1])
    module = direct_member(analysis, call_site, catalogs)
    if module is None or module.call_shape is not CallShape.SINGLE_JSON:
        return None
    expected = CallMode.DEFERRED if call.awaited else CallMode.SYNCHRONOUS
    if module.call_mode is not expected:
        return None
    return module.output_fields


def fields_at(fields: Sequence[ModuleField], path: Sequence[str]) -> Sequence[ModuleField] | None:
    for name in path:
        field = find_field(fields, name)
        if field is None or field.fields is None:
            return None
        fields = field.fields
    return fields


def output_fields_for_member(
    analysis: DocumentAnalysis, site: MemberSite, catalogs: Catalogs
) -> Sequence[ModuleField] | None:
    receiver = member_receiver(analysis, site)
    parent, call = receiver.output_parent, receiver.output_call
    if parent is None or call is None:
        return None
    roots = _call_outputs(analysis, call, catalogs)
    return None if roots is None else fields_at(roots, parent)


def output_field_completion(
    context: CompletionContext, site: MemberSite
) -> types.CompletionList | None:
    analysis = context.analysis
    receiver = member_receiver(analysis, site)
    unavailable = context.catalogs.module_catalog_state.unavailable
    truncated = receiver.alias_metadata_truncated
    incomplete = context.imports_incomplete or unavailable or truncated
    if analysis.imports.truncated or unavailable or truncated:
        return _list([], incomplete)
    parent, call = receiver.output_parent, receiver.output_call
    if parent is None or call is None:
        return None
    roots = _call_outputs(analysis, call, context.catalogs)
    fields = None if roots is None else fields_at(roots, parent)
    if fields is None:
        return _list([], incomplete)
    edit_range = context.range(site.member_start, site.member_end)
    items = [
        _item(
            field.name,
            FIELD_KIND,
            edit_range,
            f"module output field, {_required(field)}",
            record_field_text(field, "Module output"),
        )
        for field in fields
    ]
    return _list(_sorted(items), incomplete)


# ---------------------------------------------------------------- input records


def input_fields_for_site(
    analysis: DocumentAnalysis, site: InputRecordSite, catalogs: Catalogs
) -> Sequence[ModuleField] | None:
    """The catalog input fields at the record level a key site sits in."""
    callee = site.callee
    if (
        analysis.imports.truncated
        or catalogs.module_catalog_state.unavailable
        or site.field[1] > analysis.metadata_prefix_end
        or callee.member_end > analysis.metadata_prefix_end
    ):
        return None
    module = direct_member(analysis, callee, catalogs)
    if module is None or not module.is_shaped or module.input_fields is None:
        return None
    if site.parent is None:
        return module.input_fields
    parent = find_field(module.input_fields, site.parent)
    return None if parent is None else parent.fields


def input_record_completion(context: CompletionContext) -> types.CompletionList | None:
    analysis = context.analysis
    site = input_record_site(analysis.source, analysis.regions, context.offset, analysis.delimiters)
    if site is None:
        return None
    incomplete = (
        context.imports_incomplete
        or context.catalogs.module_catalog_state.unavailable
        or alias_metadata_truncated(analysis, site.callee.receiver)
    )
    fields = input_fields_for_site(analysis, site, context.catalogs)
    if fields is None:
        return _list([], incomplete)
    edit_range = context.range(*site.field)
    items = [
        _item(
            field.name,
            FIELD_KIND,
            edit_range,
            f"module input field, {_required(field)}",
            record_field_text(field, "Module input"),
        )
        for field in fields
        if field.name not in site.declared
    ]
    return _list(_sorted(items), incomplete)


# ---------------------------------------------------------------- workflow data


def _output_role(configured_context: bool) -> str:
    return "Completed workflow output" if configured_context else "Workflow output"


def workflow_field(
    analysis: DocumentAnalysis, site: MemberSite, catalogs: Catalogs
) -> tuple[WorkflowField, str] | None:
    """The workflow field a member names (for hover), with its role."""
    data = catalogs.workflow_data
    if data is None or site.member_end > len(analysis.source):
        return None
    path = member_receiver(analysis, site).workflow_path(navigation=True)
    name = analysis.source[site.member_start : site.member_end]
    if path == ("workflow", "input"):
        found = data.catalog.input_field(name)
        return None if found is None else (found, "Workflow input")
    if path is not None and len(path) == 3 and path[1] == "outputs":
        found = data.step_field(path[2], name)
        return None if found is None else (found, _output_role(data.context_configured))
    return None


def workflow_member_completion(
    context: CompletionContext, site: MemberSite
) -> types.CompletionList | None:
    catalogs = context.catalogs
    state = catalogs.workflow_data_state
    if state is CatalogState.ABSENT:
        return None
    analysis = context.analysis
    path = member_receiver(analysis, site).workflow_path()
    if path is None:
        return None
    incomplete = context.lexical_incomplete or state.unavailable
    data = catalogs.workflow_data
    if data is None or site.member_end > analysis.metadata_prefix_end:
        return _list([], incomplete)
    edit_range = context.range(site.member_start, site.member_end)
    items: list[types.CompletionItem] = []
    if path == ("workflow",):
        items = [
            _item(name, FIELD_KIND, edit_range, "workflow data namespace (advisory)")
            for name in ("input", "outputs")
        ]
    elif path == ("workflow", "input"):
        items = _workflow_items(data.input_fields, edit_range, "Workflow input")
    elif path == ("workflow", "outputs"):
        role = _output_role(data.context_configured)
        items = [
            _item(step, FIELD_KIND, edit_range, f"{role.lower()} (advisory)")
            for step in data.visible_step_ids()
        ]
    elif len(path) == 3 and path[1] == "outputs":
        fields = data.step_fields(path[2])
        role = _output_role(data.context_configured)
        items = _workflow_items(fields or (), edit_range, role)
    return _list(_sorted(items), incomplete)


def _workflow_items(
    fields: Sequence[WorkflowField], edit_range: types.Range, role: str
) -> list[types.CompletionItem]:
    return [
        _item(
            field.name,
            FIELD_KIND,
            edit_range,
            f"{role.lower()} field (advisory)",
            workflow_field_text(field, role),
        )
        for field in fields
    ]


# ---------------------------------------------------------------- static records


def record_field_completion(
    context: CompletionContext, site: MemberSite
) -> types.CompletionList | None:
    return field_completion(context, site)
