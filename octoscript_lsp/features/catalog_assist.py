"""The plain-text wording of what the advisory catalogs say, for completion,
hover and signature help alike.

Everything the catalogs say is advisory: nothing here loads a module,
evaluates source or grants a capability.
"""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types

from ..catalogs.model import CallMode, ModuleDescriptor, ModuleField, WorkflowField

_ADVISORY_NOTE = (
    "Advisory catalog metadata from the host: it does not bind a module or grant a capability."
)


_MODE_NOTES = {
    CallMode.SYNCHRONOUS: "Synchronous call: returns its result directly.",
    CallMode.DEFERRED: "Deferred call: returns a promise; use .await() to get its result.",
}
MEMBER_DETAILS = {
    CallMode.SYNCHRONOUS: "host module member, synchronous call (advisory)",
    CallMode.DEFERRED: "host module member, deferred call returning a promise (advisory)",
    None: "host module member (advisory)",
}


def plain(text: str | None) -> types.MarkupContent | None:
    """`text` as plain-text documentation; None when empty."""
    return types.MarkupContent(kind=types.MarkupKind.PlainText, value=text) if text else None


def advisory_text(description: str | None, mode: CallMode | None) -> str | None:
    """Description and call-mode note, blank-line separated; None when both are empty."""
    parts = [part for part in (description or "", _MODE_NOTES.get(mode, "")) if part]
    return "\n\n".join(parts) or None


def path_detail(mode: CallMode | None) -> str:
    if mode is None:
        return "host module path (advisory)"
    return f"host module path, {mode.value} call (advisory)"


def required(field: ModuleField) -> str:
    return "required" if field.required else "optional"


def record_field_text(field: ModuleField, role: str) -> str:
    """Plain-text documentation of one input or output field."""
    lines = [f"{role} field {field.name}", f"Type: {field.type.value}", f"{required(field)}"]
    text = "\n".join(lines)
    if field.description:
        text += f"\n\n{field.description}"
    return f"{text}\n\n{_ADVISORY_NOTE}"


def _field_lines(fields: Sequence[ModuleField], parent: str, depth: int) -> list[str]:
    lines: list[str] = []
    for field in fields:
        path = f"{parent}.{field.name}" if parent else field.name
        line = f"{'  ' * depth}- {path}: {field.type.value} ({required(field)})"
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
