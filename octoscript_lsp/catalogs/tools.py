"""`toolCatalog`: `[{name, format: "text"|"json", description?}]`.

Its structure is ``$defs/toolCatalog`` in the settings schema. Rules the
schema cannot state, checked here (any failure rejects the whole projection):

- ``description`` is at most ``MAX_TOOL_DESCRIPTION_BYTES`` UTF-8 bytes;
- names are unique;
- the retained size, the sum of ``len(name) + len(description) + 1`` bytes per
  entry, is at most ``MAX_TOOL_CATALOG_BYTES``.
"""

from __future__ import annotations

import re
from typing import Any, cast

from octoscript_lsp.catalogs._checks import ByteBudget, text_bytes, unique_named
from octoscript_lsp.catalogs.model import CONVERTER, ToolCatalog
from octoscript_lsp.catalogs.schema import validate_definition
from octoscript_lsp.limits import (
    MAX_TOOL_CATALOG_BYTES,
    MAX_TOOL_DESCRIPTION_BYTES,
    MAX_TOOL_NAME_BYTES,
)

# The schema's name rule, for names met in source (not in a catalog).
_TOOL_NAME = re.compile(r"[a-z0-9._-]+")


def is_valid_tool_name(name: str) -> bool:
    return 0 < len(name) <= MAX_TOOL_NAME_BYTES and _TOOL_NAME.fullmatch(name) is not None


def parse_tool_catalog(value: object) -> ToolCatalog:
    """Validate and normalize; raises ``CatalogRejected`` on any violation."""
    validate_definition(value, "toolCatalog", "toolCatalog")
    entries = cast(list[dict[str, Any]], value)
    budget = ByteBudget(MAX_TOOL_CATALOG_BYTES, "toolCatalog")
    normalized = unique_named(
        entries, "toolCatalog", lambda entry, at: _parse_tool(entry, at, budget), noun="tool"
    )
    return CONVERTER.structure({"tools": normalized}, ToolCatalog)


def _parse_tool(entry: dict[str, Any], where: str, budget: ByteBudget) -> dict[str, Any]:
    name, fmt = entry["name"], entry["format"]
    description = entry.get("description", "")
    size = text_bytes(description, MAX_TOOL_DESCRIPTION_BYTES, f"{where}.description")
    budget.spend(len(name) + size + 1)
    return {"name": name, "format": fmt, "description": description}
