"""The catalog entry behind a tool-call lens: what `octoscript.showToolCall` reveals.

A lens names its call by label only (a valid catalog tool name or module
path, a BLAKE3 digest, or `dynamic`; `tool_call_review.label_for`), so the
look-up works from that label and the catalogs of the moment, never from
the document: a label that is no catalog name looks nothing up, and no text
here repeats anything else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..catalogs.model import CONVERTER, ModuleDescriptor
from ..catalogs.tools import is_valid_tool_name
from .surfaces import tool_method
from .tool_call_review import (
    CATALOG_FORMAT_MISMATCH,
    CATALOG_UNKNOWN,
    CATALOG_UNLISTED,
    DYNAMIC_LABEL,
    MODULE_BUILT_IN,
    expected_format,
    module_call_status,
    tool_name_status,
)

if TYPE_CHECKING:
    from ..catalogs.store import CatalogStore


@dataclass(frozen=True, slots=True)
class CallEntry:
    """What the catalogs say about one lens's call; `entry` is catalog JSON."""

    label: str
    catalog: str  # a standing of `tool_call_review`: listed, unlisted, built-in, ...
    message: str
    entry: dict[str, Any] | None = None
    method: str | None = None  # `call`, `start`, ... for a direct tool call

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"label": self.label, "catalog": self.catalog}
        if self.method is not None:
            out["method"] = self.method
        out["entry"] = self.entry
        out["message"] = self.message
        return out


def tool_entry(method: str, label: str, catalogs: CatalogStore | None) -> CallEntry:
    """The tool catalog's entry for `tool.<method>(label, ...)`."""
    call = f"tool.{method}"
    if tool_method(method) is None:
        raise ValueError(f"`{method}` is not a method of mod.tool")
    if label == DYNAMIC_LABEL:
        message = f"{call}: the tool name is computed when the script runs; no entry to show"
        return CallEntry(label, CATALOG_UNKNOWN, message, method=method)
    if not is_valid_tool_name(label):
        message = f"{call}: the name is not a catalog tool name, so no catalog lists it"
        return CallEntry("this tool", CATALOG_UNLISTED, message, method=method)
    status = tool_name_status(label, method, catalogs)
    if status == CATALOG_UNKNOWN:
        message = f"{call}: {label}: no valid tool catalog to look it up in"
        return CallEntry(label, status, message, method=method)
    if status == CATALOG_UNLISTED:
        message = f"{call}: the tool catalog does not list {label}"
        return CallEntry(label, status, message, method=method)
    found = catalogs.tool_catalog.get(label)
    if status == CATALOG_FORMAT_MISMATCH:
        message = (
            f"{call}: {label} is listed with the {found.format.value} format; "
            f"tool.{method} takes {expected_format(method)} tools"
        )
    else:
        message = f"{call}: {label} ({found.format.value} tool)" + _said(found.description)
    return CallEntry(label, status, message, CONVERTER.unstructure(found), method)


def module_entry(label: str, catalogs: CatalogStore | None) -> CallEntry:
    """The module catalog's descriptor for a call of module path `label`."""
    path = tuple(label.split("."))
    if not is_valid_tool_name(label) or len(path) < 2 or path[0] != "mod":
        message = "the module path is not one a catalog can list"
        return CallEntry("this module call", CATALOG_UNLISTED, message)
    status = module_call_status(path[:-1], path[-1], catalogs)
    if status == MODULE_BUILT_IN:
        return CallEntry(label, status, f"{label} is part of the fixed {'.'.join(path[:2])}")
    if status == CATALOG_UNKNOWN:
        return CallEntry(label, status, f"{label}: no valid module catalog to look it up in")
    if status == CATALOG_UNLISTED:
        return CallEntry(label, status, f"the module catalog does not list {label}")
    found = catalogs.module_catalog.descriptor(path)
    return CallEntry(label, status, _module_message(found), _module_json(found))


def _said(description: str | None) -> str:
    return f": {description}" if description else ""


def _module_message(module: ModuleDescriptor) -> str:
    mode = f", {module.call_mode.value}" if module.call_mode is not None else ""
    fields = ""
    if module.input_fields:
        names = [f"{field.name}{'' if field.required else '?'}" for field in module.input_fields]
        fields = "; input: " + ", ".join(names)
    return f"host module {module.dotted}{mode}{_said(module.description)}{fields}"


def _module_json(module: ModuleDescriptor) -> dict[str, Any]:
    document = CONVERTER.unstructure(module)
    document["path"] = module.dotted
    return document
