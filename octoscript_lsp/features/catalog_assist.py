"""Catalog-driven completion steps (tool names, module paths and members,
input and output record fields, workflow data, static record fields).

Each step returns None when its site does not apply so the dispatcher moves
on, or a finished answer when it does. The lookups shared with hover and
signature help (from `analysis/catalog_members`: `input_fields_for_site`,
`direct_member`, `output_fields_for_member`, `workflow_field`) are shared,
so completion, hover and signatures can never disagree about what a site
resolves to.

Everything the catalogs say is advisory: nothing here loads a module,
evaluates source or grants a capability, and every description is shown as
plain text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from lsprotocol import types

from ..analysis import surfaces
from ..analysis.catalog_members import (
    call_outputs,
    fields_at,
    input_fields_for_site,
    output_role,
)
from ..analysis.input_records import InputRecordSite
from ..analysis.members import alias_metadata_truncated
from ..analysis.output_calls import OutputCall
from ..analysis.sites import MemberSite
from ..catalogs.model import (
    CallMode,
    ModuleDescriptor,
    ModuleField,
    ToolFormat,
    WorkflowField,
)
from ..catalogs.store import CatalogStore
from .completion_context import CompletionContext

if TYPE_CHECKING:
    pass

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
    if catalogs.tools.state.unavailable:
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
    if catalogs.modules.state.unavailable:
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


# ---------------------------------------------------------------- module members


def module_member_completion(
    context: CompletionContext, site: MemberSite, parent: tuple[str, ...] | None
) -> types.CompletionList:
    """Catalog children of `parent`, the path a stable import or alias chain
    resolves to (the classifier's `CatalogChildren`: catalog and alias
    metadata trusted)."""
    incomplete = context.imports_incomplete
    if parent is None:
        return _list([], incomplete)
    catalogs = context.catalogs
    incomplete = incomplete or catalogs.modules.state.unavailable
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


def untrusted_member_completion(
    context: CompletionContext, alias_metadata_truncated: bool
) -> types.CompletionList:
    """The module catalog or the alias metadata cannot be trusted here: nothing, incomplete."""
    unavailable = context.catalogs.modules.state.unavailable
    return _list([], context.imports_incomplete or unavailable or alias_metadata_truncated)


def output_field_completion(
    context: CompletionContext, site: MemberSite, call: OutputCall, parent: tuple[str, ...]
) -> types.CompletionList:
    """The output fields of the call a result binding holds, below `parent`."""
    analysis = context.analysis
    # Classified only where the catalog and the alias metadata are usable.
    incomplete = context.imports_incomplete
    roots = call_outputs(analysis, call, context.catalogs)
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


def input_record_completion(
    context: CompletionContext, site: InputRecordSite
) -> types.CompletionList:
    analysis = context.analysis
    incomplete = (
        context.imports_incomplete
        or context.catalogs.modules.state.unavailable
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


def workflow_member_completion(
    context: CompletionContext, site: MemberSite, path: tuple[str, ...]
) -> types.CompletionList:
    """`workflow.` (the receiver names `path`) while a workflow catalog is configured."""
    catalogs = context.catalogs
    state = catalogs.workflow.state
    analysis = context.analysis
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
        role = output_role(data.context_configured)
        items = [
            _item(step, FIELD_KIND, edit_range, f"{role.lower()} (advisory)")
            for step in data.visible_step_ids()
        ]
    elif len(path) == 3 and path[1] == "outputs":
        fields = data.step_fields(path[2])
        role = output_role(data.context_configured)
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
