"""`moduleCatalog`: host-defined `mod.*` interface descriptors.

Acceptance rules (any failure rejects the whole projection):

- the value is an array of at most ``MAX_MODULE_CATALOG_DESCRIPTORS`` objects;
- ``path`` is a required string of at most ``MAX_MODULE_PATH_BYTES`` bytes,
  split on ``.`` into 2..``MAX_MODULE_PATH_SEGMENTS`` segments; the first is
  exactly ``mod``, the second is not ``tool``, every later one is a canonical
  identifier (``[A-Za-z_][A-Za-z0-9_]*`` and not a reserved word). ``mod.std.*``
  paths are accepted here (the fixed std tree wins at completion time);
- ``description`` optional string, at most ``MAX_MODULE_DESCRIPTION_BYTES``;
- ``callMode`` optional, ``"synchronous"`` or ``"deferred"``, only on a path of
  at least three segments, and never on a path that is a (segment-wise) prefix
  of another descriptor's path;
- ``callShape`` optional, only ``"single_json"``, and only with ``callMode``;
- ``inputFields`` / ``outputFields`` optional arrays, allowed only with
  ``callShape: "single_json"`` (even when empty);
- a field is an object with a canonical-identifier ``name`` of at most
  ``MAX_MODULE_FIELD_NAME_BYTES``, one of the eight ``type`` strings, a
  Boolean ``required`` and an optional ``description`` string of at most
  ``MAX_MODULE_FIELD_DESCRIPTION_BYTES``; ``fields`` (an array of the same
  entries) only on a top-level ``object`` field; a child may not carry
  ``fields`` at all;
- each field list holds at most ``MAX_MODULE_INPUT_FIELDS`` entries and no
  duplicate names; input fields (roots and children, all descriptors) total at
  most ``MAX_MODULE_INPUT_FIELDS``, output fields at most
  ``MAX_MODULE_OUTPUT_FIELDS``;
- paths are unique;
- retained bytes stay within ``MAX_MODULE_CATALOG_BYTES``: per descriptor the
  dotted path + description + callMode text + callShape text + 1, per field
  (input, output, children) name + type text + description + 1;
- unknown properties are ignored; a recognized property with ``null`` or a
  wrong type is malformed.
"""

from __future__ import annotations

from typing import Any

from octoscript_lsp.catalogs._checks import (
    ByteBudget,
    CountBudget,
    is_canonical_identifier,
    optional_str,
    reject,
    require_bool,
    require_list,
    require_object,
    require_str,
    text_bytes,
    unique_named,
)
from octoscript_lsp.catalogs.model import (
    CONVERTER,
    CallMode,
    CallShape,
    FieldType,
    ModuleCatalog,
)
from octoscript_lsp.limits import (
    MAX_MODULE_CATALOG_BYTES,
    MAX_MODULE_CATALOG_DESCRIPTORS,
    MAX_MODULE_DESCRIPTION_BYTES,
    MAX_MODULE_FIELD_CHILD_DEPTH,
    MAX_MODULE_FIELD_DESCRIPTION_BYTES,
    MAX_MODULE_FIELD_NAME_BYTES,
    MAX_MODULE_INPUT_FIELDS,
    MAX_MODULE_OUTPUT_FIELDS,
    MAX_MODULE_PATH_BYTES,
    MAX_MODULE_PATH_SEGMENTS,
)

FIELD_TYPES: frozenset[str] = frozenset(t.value for t in FieldType)
_CALL_MODES = frozenset(m.value for m in CallMode)
_CALL_SHAPES = frozenset(s.value for s in CallShape)
MIN_CALLABLE_PATH_SEGMENTS = 3


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


class _Budgets:
    def __init__(self) -> None:
        self.bytes = ByteBudget(MAX_MODULE_CATALOG_BYTES, "moduleCatalog")
        self.inputs = CountBudget(MAX_MODULE_INPUT_FIELDS, "moduleCatalog input")
        self.outputs = CountBudget(MAX_MODULE_OUTPUT_FIELDS, "moduleCatalog output")


def parse_module_catalog(value: object) -> ModuleCatalog:
    """Validate and normalize; raises ``CatalogRejected`` on any violation."""
    entries = require_list(value, "moduleCatalog", MAX_MODULE_CATALOG_DESCRIPTORS)
    budgets = _Budgets()
    descriptors = unique_named(
        entries,
        "moduleCatalog",
        lambda entry, at: _parse_descriptor(entry, at, budgets),
        key="path",
        noun="descriptor",
        sort=False,
    )
    # Checked in the host's order so a reason names the offending entry.
    _check_modes_on_leaves(descriptors, {descriptor["path"] for descriptor in descriptors})
    descriptors.sort(key=lambda descriptor: descriptor["path"])
    return CONVERTER.structure({"descriptors": descriptors}, ModuleCatalog)


def _parse_descriptor(entry: object, where: str, budgets: _Budgets) -> dict[str, Any]:
    obj = require_object(entry, where)
    path = parse_module_path(require_str(obj, "path", where))
    if path is None:
        reject(f"{where}.path is not a valid mod.* catalog path")
    description = optional_str(obj, "description", where) or ""
    mode = _optional_choice(obj, "callMode", _CALL_MODES, where)
    shape = _optional_choice(obj, "callShape", _CALL_SHAPES, where)
    if mode is not None and len(path) < MIN_CALLABLE_PATH_SEGMENTS:
        reject(f"{where}.callMode needs a mod.<module>.<method> path")
    if shape is not None and mode is None:
        reject(f"{where}.callShape needs callMode")
    out: dict[str, Any] = {"path": path, "description": description}
    out["callMode"], out["callShape"] = mode, shape
    for key, counter in (("inputFields", budgets.inputs), ("outputFields", budgets.outputs)):
        if key in obj:
            out[key] = _parse_fields(
                obj[key], f"{where}.{key}", budgets.bytes, counter, MAX_MODULE_FIELD_CHILD_DEPTH
            )
    if ("inputFields" in out or "outputFields" in out) and shape is None:
        reject(f'{where} has field lists without callShape "single_json"')
    size = text_bytes(description, MAX_MODULE_DESCRIPTION_BYTES, f"{where}.description")
    budgets.bytes.spend(len(".".join(path)) + size + len(mode or "") + len(shape or "") + 1)
    return out


def _optional_choice(
    obj: dict[str, Any], key: str, choices: frozenset[str], where: str
) -> str | None:
    value = optional_str(obj, key, where)
    if value is not None and value not in choices:
        reject(f"{where}.{key} is not a supported value")
    return value


def _parse_fields(
    value: object, where: str, budget: ByteBudget, counter: CountBudget, child_depth: int
) -> list[dict[str, Any]]:
    entries = require_list(value, where, counter.limit)
    return unique_named(
        entries, where, lambda entry, at: _parse_field(entry, at, budget, counter, child_depth)
    )


def _parse_field(
    entry: object, where: str, budget: ByteBudget, counter: CountBudget, child_depth: int
) -> dict[str, Any]:
    obj = require_object(entry, where)
    name = require_str(obj, "name", where)
    field_type = require_str(obj, "type", where)
    if field_type not in FIELD_TYPES:
        reject(f"{where}.type is not a supported field type")
    required = require_bool(obj, "required", where)
    description = optional_str(obj, "description", where) or ""
    if len(name) > MAX_MODULE_FIELD_NAME_BYTES or not is_canonical_identifier(name):
        reject(f"{where}.name is not a canonical identifier of at most 128 bytes")
    size = text_bytes(description, MAX_MODULE_FIELD_DESCRIPTION_BYTES, f"{where}.description")
    counter.take()
    budget.spend(len(name) + len(field_type) + size + 1)
    out: dict[str, Any] = {
        "name": name,
        "type": field_type,
        "required": required,
        "description": description,
    }
    if "fields" in obj:
        if field_type != FieldType.OBJECT or child_depth <= 0:
            reject(f"{where}.fields is allowed only on a top-level object field")
        out["fields"] = _parse_fields(obj["fields"], f"{where}.fields", budget, counter, 0)
    return out


def _check_modes_on_leaves(descriptors: list[dict[str, Any]], paths: set[tuple[str, ...]]) -> None:
    """A descriptor with callMode may not be a parent of another path."""
    prefixes: set[tuple[str, ...]] = set()
    for path in paths:
        prefixes.update(path[:end] for end in range(1, len(path)))
    for index, descriptor in enumerate(descriptors):
        if descriptor["callMode"] is not None and descriptor["path"] in prefixes:
            reject(f"moduleCatalog[{index}].callMode is on a path that has children")
