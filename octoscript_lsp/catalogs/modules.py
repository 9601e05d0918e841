"""`moduleCatalog`: host-defined `mod.*` interface descriptors.

Their structure is ``$defs/moduleDescriptor`` and its parts in the settings
schema (``mod.std.*`` paths are accepted there; the fixed std tree wins at
completion time). Rules the schema cannot state, checked here (any failure
rejects the whole projection):

- input fields (roots and children, all descriptors) total at most
  ``MAX_MODULE_INPUT_FIELDS``, output fields at most
  ``MAX_MODULE_OUTPUT_FIELDS``; counted before the schema runs, so a huge
  catalog is refused without visiting every field;
- descriptions within their UTF-8 byte limits;
- paths unique, field names unique within their list;
- ``callMode`` never on a path that is a (segment-wise) prefix of another
  descriptor's path;
- retained bytes stay within ``MAX_MODULE_CATALOG_BYTES``: per descriptor the
  dotted path + description + callMode text + callShape text + 1, per field
  (input, output, children) name + type text + description + 1.
"""

from __future__ import annotations

from typing import Any, cast

from octoscript_lsp.catalogs._checks import (
    ByteBudget,
    named_field,
    reject,
    text_bytes,
    unique_named,
)
from octoscript_lsp.catalogs.model import CONVERTER, ModuleCatalog
from octoscript_lsp.catalogs.schema import validate_definition
from octoscript_lsp.limits import (
    MAX_MODULE_CATALOG_BYTES,
    MAX_MODULE_CATALOG_DESCRIPTORS,
    MAX_MODULE_DESCRIPTION_BYTES,
    MAX_MODULE_FIELD_DESCRIPTION_BYTES,
    MAX_MODULE_INPUT_FIELDS,
    MAX_MODULE_OUTPUT_FIELDS,
    MAX_MODULE_PATH_BYTES,
    MAX_MODULE_PATH_SEGMENTS,
)
from octoscript_lsp.syntax.text import is_canonical_identifier

FIELD_LISTS: dict[str, int] = {
    "inputFields": MAX_MODULE_INPUT_FIELDS,
    "outputFields": MAX_MODULE_OUTPUT_FIELDS,
}


def parse_module_path(path: str) -> tuple[str, ...] | None:
    """Segments of a valid catalog path, else ``None``."""
    if len(path) > MAX_MODULE_PATH_BYTES or not path.isascii():
        return None
    segments = tuple(path.split("."))
    if not 2 <= len(segments) <= MAX_MODULE_PATH_SEGMENTS:
        return None
    if segments[0] != "mod" or segments[1] == "tool":
        return None
    if not all(is_canonical_identifier(segment) for segment in segments[1:]):
        return None
    return segments


def parse_module_catalog(value: object) -> ModuleCatalog:
    """Validate and normalize; raises ``CatalogRejected`` on any violation."""
    _check_field_totals(value)
    validate_definition(value, "moduleCatalog", "moduleCatalog")
    entries = cast(list[dict[str, Any]], value)
    budget = ByteBudget(MAX_MODULE_CATALOG_BYTES, "moduleCatalog")
    descriptors = unique_named(
        entries,
        "moduleCatalog",
        lambda entry, at: _parse_descriptor(entry, at, budget),
        key="path",
        noun="descriptor",
        sort=False,
    )
    # Checked in the host's order so a reason names the offending entry.
    _check_modes_on_leaves(descriptors, {descriptor["path"] for descriptor in descriptors})
    descriptors.sort(key=lambda descriptor: descriptor["path"])
    return CONVERTER.structure({"descriptors": descriptors}, ModuleCatalog)


def _check_field_totals(value: object) -> None:
    """Aggregate field counts, looking only at list lengths (cheap on any input)."""
    if not isinstance(value, list) or len(value) > MAX_MODULE_CATALOG_DESCRIPTORS:
        return  # the schema reports it
    for key, limit in FIELD_LISTS.items():
        used = 0
        for entry in value:
            if isinstance(entry, dict):
                used += _count_fields(entry.get(key), limit - used)
            if used > limit:
                reject(f"moduleCatalog {key} exceed {limit} fields in total")


def _count_fields(fields: object, remaining: int) -> int:
    """Roots plus children of one field list; stops once past ``remaining``."""
    if not isinstance(fields, list):
        return 0
    count = len(fields)
    for field in fields:
        if count > remaining:
            break
        children = field.get("fields") if isinstance(field, dict) else None
        if isinstance(children, list):
            count += len(children)
    return count


def _parse_descriptor(entry: dict[str, Any], where: str, budget: ByteBudget) -> dict[str, Any]:
    path = tuple(entry["path"].split("."))
    description = entry.get("description", "")
    mode, shape = entry.get("callMode"), entry.get("callShape")
    out: dict[str, Any] = {"path": path, "description": description}
    out["callMode"], out["callShape"] = mode, shape
    for key in FIELD_LISTS:
        if key in entry:
            out[key] = _parse_fields(entry[key], f"{where}.{key}", budget)
    size = text_bytes(description, MAX_MODULE_DESCRIPTION_BYTES, f"{where}.description")
    budget.spend(len(entry["path"]) + size + len(mode or "") + len(shape or "") + 1)
    return out


def _parse_fields(
    fields: list[dict[str, Any]], where: str, budget: ByteBudget
) -> list[dict[str, Any]]:
    return unique_named(fields, where, lambda entry, at: _parse_field(entry, at, budget))


def _parse_field(entry: dict[str, Any], where: str, budget: ByteBudget) -> dict[str, Any]:
    out = named_field(entry, where, budget, MAX_MODULE_FIELD_DESCRIPTION_BYTES)
    out["required"] = entry["required"]
    if "fields" in entry:
        out["fields"] = _parse_fields(entry["fields"], f"{where}.fields", budget)
    return out


def _check_modes_on_leaves(descriptors: list[dict[str, Any]], paths: set[tuple[str, ...]]) -> None:
    """A descriptor with callMode may not be a parent of another path."""
    prefixes: set[tuple[str, ...]] = set()
    for path in paths:
        prefixes.update(path[:end] for end in range(1, len(path)))
    for index, descriptor in enumerate(descriptors):
        if descriptor["callMode"] is not None and descriptor["path"] in prefixes:
            reject(f"moduleCatalog[{index}].callMode is on a path that has children")
