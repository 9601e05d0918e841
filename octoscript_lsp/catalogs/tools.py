"""`toolCatalog`: `[{name, format: "text"|"json", description?}]`.

Acceptance rules (any failure rejects the whole projection):

- the value is an array of at most ``MAX_TOOL_CATALOG_ENTRIES`` objects;
- ``name`` is a required string, 1..``MAX_TOOL_NAME_BYTES`` bytes, made only of
  ``a-z``, ``0-9``, ``.``, ``_`` and ``-`` (no first-character rule);
- ``format`` is a required string, exactly ``"text"`` or ``"json"``;
- ``description`` is optional; when present it must be a string of at most
  ``MAX_TOOL_DESCRIPTION_BYTES`` UTF-8 bytes (``null`` is malformed);
- names are unique;
- the retained size, the sum of ``len(name) + len(description) + 1`` bytes per
  entry, is at most ``MAX_TOOL_CATALOG_BYTES``;
- every other property (dispatch, schemas, limits...) is ignored.
"""

from __future__ import annotations

import re
from typing import Any

from octoscript_lsp.catalogs._checks import (
    ByteBudget,
    optional_str,
    reject,
    require_list,
    require_object,
    require_str,
    text_bytes,
    unique_named,
)
from octoscript_lsp.catalogs.model import CONVERTER, ToolCatalog, ToolFormat
from octoscript_lsp.limits import (
    MAX_TOOL_CATALOG_BYTES,
    MAX_TOOL_CATALOG_ENTRIES,
    MAX_TOOL_DESCRIPTION_BYTES,
    MAX_TOOL_NAME_BYTES,
)

_TOOL_NAME = re.compile(r"[a-z0-9._-]+")
_FORMATS = frozenset(f.value for f in ToolFormat)


def is_valid_tool_name(name: str) -> bool:
    return 0 < len(name) <= MAX_TOOL_NAME_BYTES and _TOOL_NAME.fullmatch(name) is not None


def parse_tool_catalog(value: object) -> ToolCatalog:
    """Validate and normalize; raises ``CatalogRejected`` on any violation."""
    entries = require_list(value, "toolCatalog", MAX_TOOL_CATALOG_ENTRIES)
    budget = ByteBudget(MAX_TOOL_CATALOG_BYTES, "toolCatalog")
    normalized = unique_named(
        entries, "toolCatalog", lambda entry, at: _parse_tool(entry, at, budget), noun="tool"
    )
    return CONVERTER.structure({"tools": normalized}, ToolCatalog)


def _parse_tool(entry: object, where: str, budget: ByteBudget) -> dict[str, Any]:
    obj = require_object(entry, where)
    name = require_str(obj, "name", where)
    if not is_valid_tool_name(name):
        reject(f"{where}.name is not a valid tool name")
    fmt = require_str(obj, "format", where)
    if fmt not in _FORMATS:
        reject(f'{where}.format is not "text" or "json"')
    description = optional_str(obj, "description", where) or ""
    size = text_bytes(description, MAX_TOOL_DESCRIPTION_BYTES, f"{where}.description")
    budget.spend(len(name) + size + 1)
    return {"name": name, "format": fmt, "description": description}
